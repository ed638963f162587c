/* SPDX-License-Identifier: MIT */
/*
 * What uses a block device: a mount, a holder in sysfs (device-mapper,
 * MD, bcache), a loop device whose backing file is it, or a partition the
 * kernel knows, and the same for each of its partitions. A loop device
 * claims nothing on what backs it, so neither holders nor O_EXCL show it:
 * every bound loop device is asked what backs it. See
 * include/atio/data/target.h.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "atio/data/mountinfo.h"
#include "atio/data/target.h"

/* At most this many partitions of one device are looked at. */
#define MAX_PARTS 256

/* Where device @rdev is mounted (the first mount point), into @buf. */
static bool mounted_at(dev_t rdev, char *buf, size_t len)
{
	struct atio_mount *m = malloc(sizeof(*m));
	bool found = m && atio_mount_of_dev(major(rdev), minor(rdev), m);

	/* One that does not fit is not said cut short. */
	found = found && (size_t)snprintf(buf, len, "%s", m->point) < len;
	free(m);
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

/* The first line of the sysfs file @path into @buf; false when none. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0];
}

/* The device number in the sysfs file @path ("MAJ:MIN"); 0 when none. */
static dev_t read_devno(const char *path)
{
	char line[64];
	unsigned ma, mi;

	if (!read_line(path, line, sizeof(line)) || sscanf(line, "%u:%u", &ma, &mi) != 2)
		return 0;
	return makedev(ma, mi);
}

/*
 * The device number of what backs the loop device /dev/@name: what the
 * kernel says (LOOP_GET_STATUS64's lo_rdevice), else what its backing
 * file's name leads to now; 0 when it is not bound or backed by a file.
 */
static dev_t loop_backing(const char *name, char *file, size_t len, unsigned long long *off)
{
	struct loop_info64 li;
	char path[320];
	struct stat st;
	dev_t rdev = 0;
	int fd;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	if (!read_line(path, file, len))
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/offset", name);
	*off = 0;
	if (read_line(path, path, sizeof(path)))
		sscanf(path, "%llu", off);
	snprintf(path, sizeof(path), "/dev/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		memset(&li, 0, sizeof(li));
		if (ioctl(fd, LOOP_GET_STATUS64, &li) == 0)
			rdev = (dev_t)li.lo_rdevice;
		close(fd);
	}
	if (!rdev && stat(file, &st) == 0 && S_ISBLK(st.st_mode))
		rdev = st.st_rdev;
	return rdev;
}

/* Mount or holder of device @rdev, as " (which is mounted on X)"; "" when none. */
static void loop_use(dev_t rdev, char *buf, size_t len)
{
	char what[1024];

	buf[0] = '\0';
	if (mounted_at(rdev, what, sizeof(what)))
		snprintf(buf, len, ", which is mounted on %s", what);
	else if (held_by(rdev, what, sizeof(what)))
		snprintf(buf, len, ", which is in use by %s", what);
}

/* A loop device backed by device @rdev, described in @buf. */
static bool backs_loop(dev_t rdev, char *buf, size_t len)
{
	char file[1024], use[1100];
	unsigned long long off;
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/sys/block");

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		char devfile[320];
		dev_t self;

		if (strncmp(de->d_name, "loop", 4) != 0 ||
		    loop_backing(de->d_name, file, sizeof(file), &off) != rdev)
			continue;
		snprintf(devfile, sizeof(devfile), "/sys/block/%s/dev", de->d_name);
		self = read_devno(devfile);
		loop_use(self, use, sizeof(use));
		snprintf(buf, len, "backs loop device /dev/%s (at offset %llu; "
			 "/sys/block/%s/loop/backing_file names %s)%s", de->d_name, off,
			 de->d_name, file, use);
		found = true;
	}
	closedir(d);
	return found;
}

/* What uses device @rdev itself, as a predicate of "the device ..." in @buf. */
static bool used(dev_t rdev, char *buf, size_t len)
{
	char what[2400];

	if (mounted_at(rdev, what, sizeof(what))) {
		snprintf(buf, len, "is mounted on %s", what);
		return true;
	}
	if (held_by(rdev, what, sizeof(what))) {
		snprintf(buf, len, "is in use by %s (/sys/dev/block/%u:%u/holders)", what,
			 major(rdev), minor(rdev));
		return true;
	}
	if (backs_loop(rdev, what, sizeof(what))) {
		snprintf(buf, len, "%s", what);
		return true;
	}
	return false;
}

int atio_blockdev_user(dev_t rdev, char *buf, size_t len)
{
	char dir[64], what[2600], part[384];
	struct dirent *de;
	bool found;
	unsigned n = 0;
	DIR *d;

	if (used(rdev, buf, len))
		return 1;
	/* Its partitions: the entries of its sysfs directory with a "partition". */
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	if (!(d = opendir(dir)))
		return 0;
	found = false;
	while (!found && n < MAX_PARTS && (de = readdir(d))) {
		dev_t p;

		snprintf(part, sizeof(part), "%s/%s/partition", dir, de->d_name);
		if (de->d_name[0] == '.' || access(part, F_OK) != 0)
			continue;
		n++;
		snprintf(part, sizeof(part), "%s/%s/dev", dir, de->d_name);
		if (!(p = read_devno(part)))
			continue;
		/* A partition in use is the better answer; keep looking for one. */
		found = used(p, what, sizeof(what));
		if (found)
			snprintf(buf, len, "has a partition, %s, that %s", de->d_name, what);
		else
			snprintf(buf, len, "has a partition, %s (%s/%s)", de->d_name, dir,
				 de->d_name);
	}
	closedir(d);
	return n > 0;
}

int atio_blockdev_sparse_backing(dev_t rdev, char *file, size_t len, uint64_t *alloc,
				 uint64_t *size)
{
	char link[512], path[600];
	const char *name;
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(rdev), minor(rdev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return 0;
	link[n] = '\0';
	name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	if (!read_line(path, file, len) || stat(file, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	*alloc = (uint64_t)st.st_blocks * 512;
	*size = (uint64_t)st.st_size;
	return *alloc < *size;
}
