/* SPDX-License-Identifier: MIT */
/*
 * Block devices as targets: their geometry, and whether a write test may
 * run on one (nothing mounted, no holders, no signature libblkid knows).
 * See include/atio/target.h.
 */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "atio/target.h"

int atio_blockdev_geometry(const char *path, uint64_t *size, unsigned *lbs)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ssz = 0, ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, size) != 0 || ioctl(fd, BLKSSZGET, &ssz) != 0)
		ret = -errno;
	*lbs = ssz > 0 ? (unsigned)ssz : 512;
	close(fd);
	if (ret)
		errno = -ret;
	return ret;
}

/* Where device @rdev is mounted (the first mount point), into @buf. */
static bool mounted_at(dev_t rdev, char *buf, size_t len)
{
	char line[4096], want[32], point[1024];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return false;
	snprintf(want, sizeof(want), "%u:%u", major(rdev), minor(rdev));
	while (!found && fgets(line, sizeof(line), f)) {
		char id[32];

		if (sscanf(line, "%*s %*s %31s %*s %1023s", id, point) == 2 &&
		    strcmp(id, want) == 0) {
			snprintf(buf, len, "%s", point);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* The first holder of device @rdev in sysfs (dm-0, md0), into @buf. */
static bool held_by(dev_t rdev, char *buf, size_t len)
{
	char dir[96];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders", major(rdev), minor(rdev));
	if (!(d = opendir(dir)))
		return false;
	while (!found && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(buf, len, "%s", de->d_name);
			found = true;
		}
	closedir(d);
	return found;
}

/*
 * What libblkid finds on @path: 0 nothing, 1 a signature described in
 * @buf, or -errno.
 */
static int signature(const char *path, char *buf, size_t len)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *type = NULL, *usage = NULL, *pt = NULL;
	int r;

	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	r = blkid_do_safeprobe(pr);
	if (r == 0) {
		blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		blkid_probe_lookup_value(pr, "PTTYPE", &pt, NULL);
		if (type)
			snprintf(buf, len, "a signature of %s (%s)", type,
				 !usage ? "unknown use"
				 : strcmp(usage, "filesystem") == 0 ? "a filesystem"
				 : strcmp(usage, "raid") == 0 ? "RAID or LVM member"
				 : strcmp(usage, "crypto") == 0 ? "encrypted volume"
				 : strcmp(usage, "other") == 0 && strcmp(type, "swap") == 0
				 ? "swap space" : usage);
		else if (pt)
			snprintf(buf, len, "a partition table of type %s", pt);
		else
			snprintf(buf, len, "a signature");
	} else if (r == -2) {
		snprintf(buf, len, "more than one signature (libblkid finds them ambiguous)");
	}
	blkid_free_probe(pr);
	return r == 0 || r == -2 ? 1 : r == 1 ? 0 : -EIO;
}

int atio_blockdev_check_blank(const char *path, struct atio_error *e)
{
	struct stat st;
	char what[1100];
	int r;

	if (stat(path, &st) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", path, strerror(errno));
	if (mounted_at(st.st_rdev, what, sizeof(what)))
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: the "
				      "device is mounted on %s", path, what);
	if (held_by(st.st_rdev, what, sizeof(what)))
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: the "
				      "device is in use by %s (/sys/dev/block/%u:%u/holders)",
				      path, what, major(st.st_rdev), minor(st.st_rdev));
	r = signature(path, what, sizeof(what));
	if (r < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, -r, "-f %s: libblkid cannot probe the "
				      "device: %s", path, strerror(-r));
	if (r > 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: "
				      "libblkid finds %s on the device; atio writes only to a "
				      "blank device (erase the signature with wipefs if the data "
				      "is not wanted)", path, what);
	return 0;
}
