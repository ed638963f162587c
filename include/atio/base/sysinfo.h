/* SPDX-License-Identifier: MIT */
#ifndef ATIO_SYSINFO_H
#define ATIO_SYSINFO_H

/*
 * What a result document records about the machine it ran on, so that a
 * report made from it later says where its figures come from: the kernel
 * (uname), the host name, and the block device under the target with its
 * model and whether it rotates, as sysfs tells them (sysinfo.c). Nothing
 * here changes the run.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "atio/base/json.h"

/*
 * The "system" object on @j: {"kernel", "machine", "hostname", "device",
 * "device_model", "rotational", "rotational_note", "scheduler",
 * "read_ahead_kb", "nr_requests", "write_cache"} for target @path (a file, a directory, a
 * file-name prefix or a block device). A figure that cannot be found is
 * null.
 */
void atio_sysinfo_json(struct atio_json *j, const char *path);

/*
 * The device number under target @path: its st_rdev for a block device,
 * else its st_dev, or that of the directory it would be in when it does
 * not exist yet (a file-name prefix). False when neither exists.
 */
bool atio_sysinfo_target_dev(const char *path, dev_t *dev);

/* The sysfs directory of block device @dev (PATH_MAX bytes) into @buf; false if none. */
bool atio_sysfs_block_dir(dev_t dev, char *buf);

/* The first line of sysfs file @dir/@name into @buf, trimmed; false if none or empty. */
bool atio_sysfs_line(const char *dir, const char *name, char *buf, size_t len);

/*
 * The queue of the disk under a target, as sysfs shows it (for a
 * partition, its disk's). Empty strings and -1 where sysfs says nothing.
 */
struct atio_queue_info {
	char device[64];          /* the device under the target: sda1, dm-0, loop0 */
	char disk[64];            /* its disk: sda for sda1, else the same */
	char model[128];
	char scheduler[32];       /* the one in use */
	long read_ahead_kb, nr_requests;
	char write_cache[32];     /* "write back" or "write through" */
	int rotational;           /* 1, 0, -1 */
	char virtual_kind[96];    /* a loop device, a virtio disk...: empty for a real one */
};

/* Fill @q for target @path; false when its device cannot be found. */
bool atio_sysinfo_queue(const char *path, struct atio_queue_info *q);

/* @q as one line of text: "loop0, scheduler none, read_ahead_kb 128, ...". */
void atio_sysinfo_queue_text(char *buf, size_t len, const struct atio_queue_info *q);

/* @src into @dst of @len bytes (more than 0), cut to fit. */
void atio_copy_cut(char *dst, size_t len, const char *src);

#endif
