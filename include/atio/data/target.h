/* SPDX-License-Identifier: MIT */
#ifndef ATIO_TARGET_H
#define ATIO_TARGET_H

/*
 * What -f names, before any file is touched: a directory, a file-name
 * prefix, or a block device; the filesystem it is on; and whether atio may
 * work there.
 *
 * Refused (exit 2): a name in /dev or another devtmpfs (/dev/sdX1) that
 * names nothing, as a device that is not there, not as a file-name prefix
 * on a memory filesystem; a kernel filesystem that is not storage (proc, sysfs,
 * cgroup, debugfs, ... or any filesystem that reports no blocks); a memory
 * filesystem (tmpfs, devtmpfs, ramfs) unless --allow-memory-fs, since it
 * measures RAM, not storage.
 *
 * A block device is read directly, as one file of its own size: -n must be
 * 1 (it is by default), -u at most its size (by default all of it), and
 * --uncached blocks a multiple of its logical block size. Writing to it
 * needs --allow-device-write and is refused even then when anything is
 * stacked on the device: it is mounted, has holders (device-mapper, MD) in
 * sysfs, backs a loop device, or has partitions, and any of these on a
 * partition; or libblkid finds a filesystem, swap, LVM, MD or other
 * signature or a partition table at its start, or a signature at any MiB
 * of its first 64 MiB (or at sector 63), where a partition whose table is
 * gone or a region mapped by losetup -o begins.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "atio/base/opts.h"
#include "atio/base/error.h"

enum atio_target_kind {
	ATIO_TARGET_NONE,          /* no -f, or nothing there to look at */
	ATIO_TARGET_DIR,           /* files DIR/atio.N */
	ATIO_TARGET_PREFIX,        /* files PATH.N */
	ATIO_TARGET_DEVICE,        /* the block device itself */
};

struct atio_target {
	enum atio_target_kind kind;
	char fstype[32];           /* "ext4", "tmpfs", ...; "" when unknown */
	bool memory;               /* tmpfs, devtmpfs or ramfs */
	bool pseudo;               /* a kernel filesystem that is not storage */
	bool no_device;            /* a prefix in devtmpfs (/dev) naming nothing */
	char dir[4096];            /* ATIO_TARGET_PREFIX: the directory of the files */
	uint64_t dev_size;         /* block device: bytes */
	unsigned dev_lbs;          /* block device: logical block size */
};

/*
 * Look at @path (-f) without changing anything. A path whose directory does
 * not exist gives ATIO_TARGET_NONE, for the dataset to report. Returns 0,
 * or -errno with @e filled when a block device cannot be opened.
 */
int atio_target_identify(struct atio_target *t, const char *path, struct atio_error *e);

/*
 * For a block device, set o->nfiles to 1 and o->total to the device's size
 * (in whole 4 KiB) where -n and -u were not given; nothing otherwise.
 */
void atio_target_defaults(const struct atio_target *t, struct atio_opts *o);

/*
 * Judge the target for the run @o asks for (see above), after applying
 * atio_target_defaults(). Returns 0, or -errno with @e filled (exit 2).
 */
int atio_target_check(const struct atio_target *t, struct atio_opts *o, struct atio_error *e);

/*
 * For a write test on block device @path: whether it may be written.
 * Returns 0; -EROFS with @e filled (exit 2) for a read-only device; or
 * -EBUSY with @e filled (exit 2) saying exactly what is on it or what uses
 * it (src/data/blockdev.c).
 */
int atio_blockdev_check_blank(const char *path, struct atio_error *e);

/*
 * What is stacked on block device @rdev (see above), as what follows "the
 * device" in a sentence ("is mounted on /mnt", "backs loop device
 * /dev/loop1 (...), which is mounted on /mnt", "has a partition, sda1,
 * that ..."), into @buf. Returns 1 when something is, 0 when nothing is
 * (src/data/blockdev_use.c).
 */
int atio_blockdev_user(dev_t rdev, char *buf, size_t len);

/*
 * Whether block device @rdev is a loop device whose backing file is sparse
 * (fewer bytes allocated than its size): reads of its holes return zeros
 * that no storage held. 1, with the file's name in @file, its allocated
 * bytes in *@alloc and its size in *@size; 0 otherwise (src/data/
 * blockdev_use.c).
 */
int atio_blockdev_sparse_backing(dev_t rdev, char *file, size_t len, uint64_t *alloc,
				 uint64_t *size);

/* Size and logical block size of block device @path. Returns 0 or -errno. */
int atio_blockdev_geometry(const char *path, uint64_t *size, unsigned *lbs);

#endif
