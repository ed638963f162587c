/* SPDX-License-Identifier: MIT */
/*
 * Block devices as targets: their geometry, and whether a write test may
 * run on one (not read-only; nothing stacked on it, blockdev_use.c; no
 * signature libblkid knows, at its start or where a partition may begin).
 * See include/atio/data/target.h.
 */
#include <blkid/blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "atio/data/target.h"

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

/* Where to look past offset 0, and how much of the device one look sees. */
#define SCAN_STEP (1ull << 20)
#define SCAN_END (64ull << 20)
#define SCAN_WINDOW (8ull << 20)

/* What the last probe of @pr found, into @buf. */
static void describe(blkid_probe pr, char *buf, size_t len)
{
	const char *type = NULL, *usage = NULL, *pt = NULL;

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
}

/*
 * Probe @len bytes of @fd from @off (superblocks; @parts: partition tables
 * too): 0 nothing, 1 something described in @buf, or -errno.
 */
static int probe_at(blkid_probe pr, int fd, uint64_t off, uint64_t len, bool parts,
		    char *buf, size_t blen)
{
	int r;

	if (blkid_probe_set_device(pr, fd, (blkid_loff_t)off, (blkid_loff_t)len) != 0)
		return -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, parts);
	if (parts)
		blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	r = blkid_do_safeprobe(pr);
	if (r == 0)
		describe(pr, buf, blen);
	else if (r == -2)
		snprintf(buf, blen, "more than one signature (libblkid finds them ambiguous)");
	return r == 0 || r == -2 ? 1 : r == 1 ? 0 : -EIO;
}

/*
 * What libblkid finds on @path: 0 nothing, 1 a signature described in
 * @buf with its offset in @at, or -errno. The whole device is probed at
 * offset 0 (superblocks, partition tables); then, for a filesystem or
 * other signature that begins inside it with no table to say so (a
 * partition whose table is gone, what losetup -o or kpartx map), every
 * MiB of its first SCAN_END and the old first sector of a partition, 63.
 */
static int signature(const char *path, uint64_t size, uint64_t *at, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), r;
	blkid_probe pr;

	*at = 0;
	if (fd < 0)
		return -errno;
	if (!(pr = blkid_new_probe())) {
		close(fd);
		return -ENOMEM;
	}
	r = probe_at(pr, fd, 0, size, true, buf, len);
	for (uint64_t off = 63 * 512; r == 0 && off < SCAN_END && off + 65536 <= size;
	     off = off < SCAN_STEP ? SCAN_STEP : off + SCAN_STEP) {
		uint64_t win = size - off < SCAN_WINDOW ? size - off : SCAN_WINDOW;

		r = probe_at(pr, fd, off, win, false, buf, len);
		*at = off;
	}
	blkid_free_probe(pr);
	close(fd);
	return r;
}

/*
 * Whether block device @path is read-only (losetup -r, a write-protected
 * disk, blockdev --setro): 1, 0, or -errno when it cannot be told.
 */
static int read_only(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), ro = 0, ret;

	if (fd < 0)
		return -errno;
	ret = ioctl(fd, BLKROGET, &ro) == 0 ? ro != 0 : -errno;
	close(fd);
	return ret;
}

int atio_blockdev_check_blank(const char *path, struct atio_error *e)
{
	struct stat st;
	char what[3000];
	uint64_t size, at = 0;
	unsigned lbs;
	int r;

	if (stat(path, &st) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", path, strerror(errno));
	if (read_only(path) == 1)
		return atio_error_set(e, ATIO_EXIT_USAGE, EROFS, "-f %s: writes refused: the "
				      "device is read-only (losetup -r, blockdev --setro, or a "
				      "write-protected disk)", path);
	if (atio_blockdev_user(st.st_rdev, what, sizeof(what)))
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: the "
				      "device %s", path, what);
	r = atio_blockdev_geometry(path, &size, &lbs);
	if (!r)
		r = signature(path, size, &at, what, sizeof(what));
	if (r < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, -r, "-f %s: libblkid cannot probe the "
				      "device: %s", path, strerror(-r));
	if (r > 0 && at)
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: "
				      "libblkid finds %s at byte %" PRIu64 " of the device, with no "
				      "partition table to say so (a partition whose table is gone, "
				      "or what losetup -o maps); atio writes only to a blank device "
				      "(if the data is not wanted, erase the signature with wipefs "
				      "on a loop device set up with losetup -o %" PRIu64 ")",
				      path, what, at, at);
	if (r > 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, EBUSY, "-f %s: writes refused: "
				      "libblkid finds %s on the device; atio writes only to a "
				      "blank device (erase the signature with wipefs if the data "
				      "is not wanted)", path, what);
	return 0;
}
