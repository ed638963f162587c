/* SPDX-License-Identifier: MIT */
/*
 * The machine and device behind a run, for the "system" object of the
 * result document. The device is found from the target's st_dev (or
 * st_rdev for a block device) through /sys/dev/block/MAJOR:MINOR, whose
 * link names the partition or whole disk; a partition's model and
 * rotational flag are those of its disk (the parent directory in sysfs).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "atio/base/sysinfo.h"

/* The first line of sysfs file @dir/@name into @buf, trimmed; false if none. */
static bool sysfs_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n > 0;
}

/*
 * The target's st_dev: @path itself, or, when it does not exist yet (a
 * file-name prefix), the directory it is in.
 */
static bool target_dev(const char *path, dev_t *dev)
{
	struct stat st;
	char dir[PATH_MAX];
	char *slash;

	if (stat(path, &st) == 0) {
		*dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		return true;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == dir)
		dir[1] = '\0';
	else
		*slash = '\0';
	if (stat(dir, &st) != 0)
		return false;
	*dev = st.st_dev;
	return true;
}

static void device_json(struct atio_json *j, const char *path)
{
	char link[64], real[PATH_MAX], line[256];
	dev_t dev;
	const char *name;

	if (!path || !target_dev(path, &dev))
		goto unknown;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		goto unknown;
	name = strrchr(real, '/');
	atio_json_string(j, "device", name ? name + 1 : real);
	/* A partition has a "partition" file; its disk is the directory above. */
	if (sysfs_line(real, "partition", line, sizeof(line)))
		*strrchr(real, '/') = '\0';
	if (sysfs_line(real, "device/model", line, sizeof(line)))
		atio_json_string(j, "device_model", line);
	else
		atio_json_null(j, "device_model");
	if (sysfs_line(real, "queue/rotational", line, sizeof(line)))
		atio_json_bool(j, "rotational", strcmp(line, "0") != 0);
	else
		atio_json_null(j, "rotational");
	return;
unknown:
	atio_json_null(j, "device");
	atio_json_null(j, "device_model");
	atio_json_null(j, "rotational");
}

void atio_sysinfo_json(struct atio_json *j, const char *path)
{
	struct utsname u;
	char kernel[sizeof(u.sysname) + sizeof(u.release) + sizeof(u.version) + 4];

	atio_json_object_begin(j, "system");
	if (uname(&u) == 0) {
		snprintf(kernel, sizeof(kernel), "%s %s %s", u.sysname, u.release, u.version);
		atio_json_string(j, "kernel", kernel);
		atio_json_string(j, "machine", u.machine);
		atio_json_string(j, "hostname", u.nodename);
	} else {
		atio_json_null(j, "kernel");
		atio_json_null(j, "machine");
		atio_json_null(j, "hostname");
	}
	device_json(j, path);
	atio_json_object_end(j);
}
