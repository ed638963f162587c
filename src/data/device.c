/* SPDX-License-Identifier: MIT */
/*
 * The devices under a target, followed down through sysfs, and their stat
 * files read at the two ends of the measured window (atio/data/device.h).
 * The start's reading is taken by a thread of its own, sleeping until the
 * warm-up ends; the measuring threads never see it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "atio/base/clock.h"
#include "atio/base/opts.h"
#include "atio/base/sysinfo.h"
#include "atio/data/device.h"

/*
 * Add the device whose sysfs directory is @sys beneath node @above, unless
 * it is already in the tree (a device two paths lead to is shown once).
 * Returns its index, or -1.
 */
static int add(struct atio_device_window *w, const char *sys, int above, enum atio_device_rel rel)
{
	struct atio_device_node *d;
	char line[64];
	unsigned ma, mi;
	const char *name;

	/* A directory too long to keep whole is left out, never cut to another's name. */
	if (w->n >= ATIO_DEVICE_MAX || strlen(sys) >= sizeof(w->node[0].sys) ||
	    !atio_sysfs_line(sys, "dev", line, sizeof(line)) ||
	    sscanf(line, "%u:%u", &ma, &mi) != 2)
		return -1;
	for (unsigned i = 0; i < w->n; i++)
		if (w->node[i].major == ma && w->node[i].minor == mi)
			return -1;
	d = &w->node[w->n];
	memset(d, 0, sizeof(*d));
	name = strrchr(sys, '/');
	atio_copy_cut(d->name, sizeof(d->name), name ? name + 1 : sys);
	atio_copy_cut(d->sys, sizeof(d->sys), sys);
	d->major = ma;
	d->minor = mi;
	d->above = above;
	d->rel = rel;
	return (int)w->n++;
}

/* What lies beneath node @i: its disk, its members, its backing file's device. */
static void follow(struct atio_device_window *w, unsigned i)
{
	char dir[PATH_MAX], real[PATH_MAX], line[16];
	struct atio_device_node *d = &w->node[i];
	struct dirent *de;
	struct stat st;
	DIR *dp;

	if (atio_sysfs_line(d->sys, "partition", line, sizeof(line))) {
		atio_copy_cut(dir, sizeof(dir), d->sys);
		*strrchr(dir, '/') = '\0';
		add(w, dir, (int)i, ATIO_DEV_DISK);
	}
	snprintf(dir, sizeof(dir), "%s/slaves", d->sys);
	if ((dp = opendir(dir))) {
		while ((de = readdir(dp))) {
			char link[PATH_MAX + 256];

			if (de->d_name[0] == '.')
				continue;
			snprintf(link, sizeof(link), "%s/%s", dir, de->d_name);
			if (realpath(link, real))
				add(w, real, (int)i, ATIO_DEV_MEMBER);
		}
		closedir(dp);
	}
	if (atio_sysfs_line(d->sys, "loop/backing_file", d->backing, sizeof(d->backing)) &&
	    stat(d->backing, &st) == 0 && atio_sysfs_block_dir(st.st_dev, real))
		add(w, real, (int)i, ATIO_DEV_BACKING);
}

unsigned atio_device_resolve(struct atio_device_window *w, const char *path)
{
	char real[PATH_MAX];
	dev_t dev;

	memset(w, 0, sizeof(*w));
	if (!path || !atio_sysinfo_target_dev(path, &dev) || !atio_sysfs_block_dir(dev, real))
		return 0;
	if (add(w, real, -1, ATIO_DEV_TARGET) < 0)
		return 0;
	for (unsigned i = 0; i < w->n; i++)
		follow(w, i);
	atio_io_caps_find(w);
	return w->n;
}

/* Every device's stat file into its text of one end, and the caps' counters. */
static void read_all(struct atio_device_window *w, bool end)
{
	for (unsigned i = 0; i < w->n; i++) {
		struct atio_device_node *d = &w->node[i];
		char *buf = end ? d->stat_end : d->stat_begin;

		if (!atio_sysfs_line(d->sys, "stat", buf, sizeof(d->stat_begin)))
			buf[0] = '\0';
	}
	atio_io_caps_read(w, end);
	if (end) {
		w->end_ns = atio_now_ns();
		w->ended = true;
	} else {
		w->begin_ns = atio_now_ns();
		w->begun = true;
	}
}

static void *begin_main(void *arg)
{
	struct atio_device_window *w = arg;
	struct timespec at = { .tv_sec = (time_t)(w->at_ns / 1000000000u),
			       .tv_nsec = (long)(w->at_ns % 1000000000u) };

	pthread_mutex_lock(&w->mu);
	while (!w->cancel && atio_now_ns() < w->at_ns)
		pthread_cond_timedwait(&w->cv, &w->mu, &at);
	if (!w->cancel)
		read_all(w, false);
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

int atio_device_begin_at(struct atio_device_window *w, uint64_t at_ns)
{
	pthread_condattr_t ca;
	int err;

	if (!w->n)
		return 0;
	/* No warm-up: read at once, before the threads go. */
	if (at_ns <= atio_now_ns()) {
		read_all(w, false);
		return 0;
	}
	w->at_ns = at_ns;
	w->cancel = false;
	pthread_mutex_init(&w->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&w->cv, &ca);
	pthread_condattr_destroy(&ca);
	err = pthread_create(&w->thread, NULL, begin_main, w);
	if (err) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		return -err;
	}
	w->started = true;
	return 0;
}

void atio_device_end(struct atio_device_window *w)
{
	if (!w->started) {
		if (w->begun)
			read_all(w, true);
		return;
	}
	pthread_mutex_lock(&w->mu);
	w->cancel = true;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	w->started = false;
	if (w->begun)
		read_all(w, true);
}

bool atio_device_measured(const struct atio_device_window *w)
{
	return w->n && w->begun && w->ended;
}

void atio_device_aim(struct atio_device_window *w, const struct atio_opts *o)
{
	double ops, bytes, reads;

	memset(w->aim, 0, sizeof(w->aim));
	if (!o->rate || !o->rate_interval_ns)
		return;
	if (o->mode == ATIO_MODE_READ)
		reads = 1;
	else if (o->mode == ATIO_MODE_WRITE || o->mode == ATIO_MODE_EXPAND)
		reads = 0;
	else if (o->mode == ATIO_MODE_MIX)
		reads = o->mix / 100.0;
	else
		return;
	/* Each thread starts an I/O every rate_interval_ns. */
	ops = o->threads * 1e9 / o->rate_interval_ns;
	bytes = o->unit == ATIO_UNIT_MBS ? o->rate * 1048576.0 : ops * (double)o->bs;
	w->aim[ATIO_CAP_RIOPS] = ops * reads;
	w->aim[ATIO_CAP_WIOPS] = ops * (1 - reads);
	w->aim[ATIO_CAP_RBPS] = bytes * reads;
	w->aim[ATIO_CAP_WBPS] = bytes * (1 - reads);
}
