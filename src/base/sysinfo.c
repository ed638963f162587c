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

bool atio_sysfs_line(const char *dir, const char *name, char *buf, size_t len)
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

bool atio_sysinfo_target_dev(const char *path, dev_t *dev)
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

bool atio_sysfs_block_dir(dev_t dev, char *buf)
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return realpath(link, buf) != NULL;
}

/*
 * Whether the disk in sysfs directory @dir is virtual (a loop device, a
 * virtio, Xen or network disk, a RAM disk, a mapping): what it is into
 * @buf. Its rotational flag then says little about the storage beneath.
 */
static bool virtual_disk(const char *dir, char *buf, size_t len)
{
	static const char *const kinds[][2] = {
		{ "loop", "a loop device" }, { "dm-", "a device-mapper device" },
		{ "md", "an MD array" }, { "vd", "a virtio disk" }, { "xvd", "a Xen disk" },
		{ "nbd", "a network block device" }, { "rbd", "a Ceph RBD device" },
		{ "zram", "a compressed RAM disk" }, { "ram", "a RAM disk" },
		{ "nullb", "a null block device" },
	};
	const char *name = strrchr(dir, '/');
	char line[64];

	name = name ? name + 1 : dir;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strncmp(name, kinds[i][0], strlen(kinds[i][0])) == 0) {
			snprintf(buf, len, "%s", kinds[i][1]);
			return true;
		}
	if (atio_sysfs_line(dir, "device/vendor", line, sizeof(line)) &&
	    (strstr(line, "QEMU") || strstr(line, "VMware") || strstr(line, "Msft") ||
	     strstr(line, "VBOX"))) {
		snprintf(buf, len, "a disk of a virtual machine (%s)", line);
		return true;
	}
	return false;
}

/* See sysinfo.h. */
void atio_copy_cut(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The scheduler in use: the word in brackets of queue/scheduler ("none" alone: itself). */
static bool scheduler(const char *dir, char *buf, size_t len)
{
	char line[256], *open, *close;

	if (!atio_sysfs_line(dir, "queue/scheduler", line, sizeof(line)))
		return false;
	open = strchr(line, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		atio_copy_cut(buf, len, open + 1);
	} else {
		atio_copy_cut(buf, len, line);
	}
	return true;
}

bool atio_sysinfo_queue(const char *path, struct atio_queue_info *q)
{
	char real[PATH_MAX], line[256];
	dev_t dev;
	const char *name;

	*q = (struct atio_queue_info){ .read_ahead_kb = -1, .nr_requests = -1, .rotational = -1 };
	if (!path || !atio_sysinfo_target_dev(path, &dev) || !atio_sysfs_block_dir(dev, real))
		return false;
	name = strrchr(real, '/');
	atio_copy_cut(q->device, sizeof(q->device), name ? name + 1 : real);
	/* A partition has a "partition" file; its disk is the directory above. */
	if (atio_sysfs_line(real, "partition", line, sizeof(line)))
		*strrchr(real, '/') = '\0';
	name = strrchr(real, '/');
	atio_copy_cut(q->disk, sizeof(q->disk), name ? name + 1 : real);
	atio_sysfs_line(real, "device/model", q->model, sizeof(q->model));
	scheduler(real, q->scheduler, sizeof(q->scheduler));
	if (atio_sysfs_line(real, "queue/read_ahead_kb", line, sizeof(line)))
		q->read_ahead_kb = strtol(line, NULL, 10);
	if (atio_sysfs_line(real, "queue/nr_requests", line, sizeof(line)))
		q->nr_requests = strtol(line, NULL, 10);
	atio_sysfs_line(real, "queue/write_cache", q->write_cache, sizeof(q->write_cache));
	if (atio_sysfs_line(real, "queue/rotational", line, sizeof(line)))
		q->rotational = strcmp(line, "0") != 0;
	virtual_disk(real, q->virtual_kind, sizeof(q->virtual_kind));
	return true;
}

void atio_sysinfo_queue_text(char *buf, size_t len, const struct atio_queue_info *q)
{
	size_t n = 0;

	n += (size_t)snprintf(buf, len, "%s", q->device);
	if (strcmp(q->disk, q->device) != 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (a partition of %s)", q->disk);
	if (q->model[0] && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", model %s", q->model);
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, ", scheduler %s",
				      q->scheduler[0] ? q->scheduler : "unknown");
	if (q->read_ahead_kb >= 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", read_ahead_kb %ld", q->read_ahead_kb);
	if (q->nr_requests >= 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", nr_requests %ld", q->nr_requests);
	if (q->write_cache[0] && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", write cache %s", q->write_cache);
	if (q->rotational >= 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", rotational %s", q->rotational ? "yes" : "no");
	if (q->virtual_kind[0] && n < len)
		snprintf(buf + n, len - n, " (%s: the flag says little about the storage beneath)",
			 q->virtual_kind);
}

static void device_json(struct atio_json *j, const char *path)
{
	struct atio_queue_info q;
	char note[256];

	if (!atio_sysinfo_queue(path, &q)) {
		static const char *const keys[] = {
			"device", "device_model", "rotational", "rotational_note", "scheduler",
			"read_ahead_kb", "nr_requests", "write_cache"
		};

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			atio_json_null(j, keys[i]);
		return;
	}
	atio_json_string(j, "device", q.device);
	if (q.model[0])
		atio_json_string(j, "device_model", q.model);
	else
		atio_json_null(j, "device_model");
	if (q.rotational >= 0)
		atio_json_bool(j, "rotational", q.rotational);
	else
		atio_json_null(j, "rotational");
	snprintf(note, sizeof(note), "%s: the flag says little about the storage beneath",
		 q.virtual_kind);
	if (q.virtual_kind[0])
		atio_json_string(j, "rotational_note", note);
	else
		atio_json_null(j, "rotational_note");
	if (q.scheduler[0])
		atio_json_string(j, "scheduler", q.scheduler);
	else
		atio_json_null(j, "scheduler");
	if (q.read_ahead_kb >= 0)
		atio_json_int(j, "read_ahead_kb", q.read_ahead_kb);
	else
		atio_json_null(j, "read_ahead_kb");
	if (q.nr_requests >= 0)
		atio_json_int(j, "nr_requests", q.nr_requests);
	else
		atio_json_null(j, "nr_requests");
	if (q.write_cache[0])
		atio_json_string(j, "write_cache", q.write_cache);
	else
		atio_json_null(j, "write_cache");
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
