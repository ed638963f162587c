/* SPDX-License-Identifier: MIT */
#ifndef ATIO_DATA_DEVICE_H
#define ATIO_DATA_DEVICE_H

/*
 * The block devices under a target and their stat files read at the two
 * ends of a measured window (src/data/device.c); the caps of atio's
 * cgroup on them and their counters at the same ends (src/data/cgroup_io.c).
 * Only what sysfs and cgroupfs say, as text and counters: the figures are
 * computed from them by atio/stats/devstat.h.
 *
 * The devices form a tree: first the device under the target (st_dev of a
 * file, st_rdev of a block device), then what lies beneath each, as fio's
 * disk_util follows it: a partition's whole disk, the members of a
 * device-mapper or MD device (slaves/ in sysfs), the device holding a loop
 * device's backing file.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* At most this many devices are followed under one target, and caps read. */
#define ATIO_DEVICE_MAX 16
#define ATIO_IO_CAPS_MAX 16

/* How a device lies beneath the one above it. */
enum atio_device_rel {
	ATIO_DEV_TARGET,           /* none: it is the target's own */
	ATIO_DEV_DISK,             /* the whole disk of the partition above */
	ATIO_DEV_MEMBER,           /* a member of the dm or md device above */
	ATIO_DEV_BACKING,          /* it holds the backing file of the loop device above */
};

struct atio_device_node {
	char name[64];             /* sda1, dm-0, loop0 */
	char sys[512];             /* its directory in sysfs */
	unsigned major, minor;
	int above;                 /* index of the device above, -1 for the target's */
	enum atio_device_rel rel;
	char backing[1024];        /* a loop device's backing file, else empty */
	char stat_begin[384], stat_end[384]; /* its stat file's text at each end */
};

/* The kind of a cap. */
enum atio_cap_kind { ATIO_CAP_RIOPS, ATIO_CAP_WIOPS, ATIO_CAP_RBPS, ATIO_CAP_WBPS, ATIO_CAP_KINDS };

/* One cap in force on a device of the tree: where it is set, and its counter. */
struct atio_io_cap {
	enum atio_cap_kind kind;
	unsigned version;          /* 1: blkio.throttle.*, 2: io.max */
	unsigned node;             /* the device it caps, an index into the tree */
	uint64_t limit;            /* I/Os or bytes a second */
	char cgroup[512];          /* the directory of the cgroup that sets it */
	bool have_count;           /* its counter could be read at both ends */
	uint64_t count_begin, count_end; /* what went through that cgroup to the device */
};

/* The caps in force on atio for the tree, and the I/O pressure on its cgroup. */
struct atio_io_caps {
	unsigned n;
	struct atio_io_cap cap[ATIO_IO_CAPS_MAX];
	char v1[512], v2[512];     /* atio's blkio (v1) and unified (v2) cgroup directories */
	bool v2_io;                /* the v2 cgroup has the io controller */
	bool have_pressure;        /* io.pressure read at both ends */
	uint64_t some_begin, some_end, full_begin, full_end; /* its totals, us */
};

/* The devices under one target and their readings over one window. */
struct atio_device_window {
	unsigned n;
	struct atio_device_node node[ATIO_DEVICE_MAX];
	uint64_t begin_ns, end_ns; /* CLOCK_MONOTONIC instants of the readings */
	bool begun, ended;
	struct atio_io_caps caps;
	/* The run's own --rate in each cap's unit a second (atio_device_aim()); 0: none. */
	double aim[ATIO_CAP_KINDS];
	/* The reading at the window's start, taken by a thread of its own at at_ns. */
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint64_t at_ns;
	bool started, cancel;
};

/*
 * The devices under target @path into @w, and the caps atio's cgroups set
 * on them. Returns the number of devices: 0 when the target has none (a
 * file on tmpfs, NFS, overlayfs; the null engine's nothing).
 */
unsigned atio_device_resolve(struct atio_device_window *w, const char *path);

/*
 * Read every device's stat file (and the caps' counters) at CLOCK_MONOTONIC
 * instant @at_ns (now if it passed), from a thread of its own, so that the
 * measuring threads never wait for it. Returns 0 or -errno (then nothing
 * is read at that end).
 */
int atio_device_begin_at(struct atio_device_window *w, uint64_t at_ns);

/*
 * The window's end: the start's reading waited for or, when the instant
 * has not come (a signal during the warm-up), given up; then the end's
 * reading, when the start's was taken.
 */
void atio_device_end(struct atio_device_window *w);

struct atio_opts;

/*
 * The run's own --rate of @o in @w->aim, in each cap's unit: what the run
 * held itself to, so that a cap above it is not said to have held it.
 * Left 0 without --rate and in the modes whose rate counts syncs or pairs
 * of I/Os (--fsync, --fdatasync, --rewrite).
 */
void atio_device_aim(struct atio_device_window *w, const struct atio_opts *o);

/* The readings of both ends were taken. */
bool atio_device_measured(const struct atio_device_window *w);

/* Find the caps on @w's devices (src/data/cgroup_io.c). */
void atio_io_caps_find(struct atio_device_window *w);

/* Read the caps' counters and the pressure at one end (src/data/cgroup_io.c). */
void atio_io_caps_read(struct atio_device_window *w, bool end);

/* The name of a cap's kind in io.max: "riops", "wiops", "rbps", "wbps". */
const char *atio_io_cap_name(enum atio_cap_kind k);

#endif
