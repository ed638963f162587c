/* SPDX-License-Identifier: MIT */
/*
 * The caps atio's cgroups set on the devices under its target, and what
 * went through them (atio/data/device.h). Under cgroup v2, io.max in
 * atio's cgroup and every one above it, their io.stat, and the io.pressure
 * of atio's own; under v1 (where v2 has no io controller), the blkio
 * throttle files of the same walk up and their io_serviced and
 * io_service_bytes counters. The hierarchies are found in
 * /proc/self/mountinfo and atio's place in them in /proc/self/cgroup.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/data/device.h"
#include "atio/data/mountinfo.h"

const char *atio_io_cap_name(enum atio_cap_kind k)
{
	static const char *const names[] = { "riops", "wiops", "rbps", "wbps" };

	return k < ATIO_CAP_KINDS ? names[k] : "?";
}

/* Whether @word is one of the comma-separated words of @list. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (strncmp(p, word, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

struct want_mount {
	bool v2;
	char *point, *root;
};

/* Whether mount @m is the hierarchy @arg wants: if so, its point and root kept. */
static bool is_hierarchy(const struct atio_mount *m, void *arg)
{
	struct want_mount *w = arg;

	if (w->v2 ? strcmp(m->type, "cgroup2") != 0
		  : strcmp(m->type, "cgroup") != 0 || !has_word(m->super_opts, "blkio"))
		return false;
	snprintf(w->point, PATH_MAX, "%s", m->point);
	snprintf(w->root, PATH_MAX, "%s", m->root);
	return true;
}

/*
 * Where the v2 hierarchy (@v2) or the v1 one with blkio is mounted, into
 * @point, and the cgroup at its top (its root, "/" but in a namespace) into
 * @root. False when it is not mounted.
 */
static bool mount_of(bool v2, char *point, char *root)
{
	struct want_mount w = { v2, point, root };

	return atio_mounts_find(is_hierarchy, &w);
}

/* atio's cgroup in the v2 hierarchy (@v2) or in v1's blkio one, into @buf. */
static bool own_cgroup(bool v2, char *buf, size_t len)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		/* "ID:CONTROLLERS:PATH": v2's is "0::PATH". */
		*c1 = *c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		if (v2 ? strcmp(line, "0") == 0 && c1[1] == '\0' : has_word(c1 + 1, "blkio")) {
			snprintf(buf, len, "%s", c2 + 1);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* The directory of atio's cgroup in one hierarchy into @dir; false if none. */
static bool own_dir(bool v2, char *dir, size_t len)
{
	char point[PATH_MAX], root[PATH_MAX], path[PATH_MAX];
	const char *rel;
	size_t rn, pn;

	if (!mount_of(v2, point, root) || !own_cgroup(v2, path, sizeof(path)))
		return false;
	/* A cgroup outside the mounted part of the hierarchy is not reachable there. */
	if (!(rel = atio_path_under(path, root)))
		return false;
	if (strcmp(rel, "/") == 0)
		rel = "";
	pn = strlen(point);
	rn = strlen(rel);
	if (pn + rn + 1 > len)
		return false;
	memcpy(dir, point, pn);
	memcpy(dir + pn, rel, rn + 1);
	return true;
}

/* The device of @w that @ma:@mi names, or -1. */
static int node_of(const struct atio_device_window *w, unsigned ma, unsigned mi)
{
	for (unsigned i = 0; i < w->n; i++)
		if (w->node[i].major == ma && w->node[i].minor == mi)
			return (int)i;
	return -1;
}

static void add_cap(struct atio_io_caps *c, unsigned version, enum atio_cap_kind k,
		    int node, uint64_t limit, const char *dir)
{
	struct atio_io_cap *cap;

	if (c->n >= ATIO_IO_CAPS_MAX || node < 0)
		return;
	cap = &c->cap[c->n++];
	memset(cap, 0, sizeof(*cap));
	cap->kind = k;
	cap->version = version;
	cap->node = (unsigned)node;
	cap->limit = limit;
	snprintf(cap->cgroup, sizeof(cap->cgroup), "%s", dir);
}

/* io.max of v2 cgroup @dir: "MAJ:MIN rbps=N wbps=max riops=N wiops=max". */
static void v2_caps(struct atio_device_window *w, const char *dir)
{
	char path[PATH_MAX + 16], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/io.max", dir);
	if (!(f = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned ma, mi;
		int node, at;

		if (sscanf(line, "%u:%u%n", &ma, &mi, &at) != 2 || (node = node_of(w, ma, mi)) < 0)
			continue;
		for (unsigned k = 0; k < ATIO_CAP_KINDS; k++) {
			char key[16], *p;
			unsigned long long v;

			snprintf(key, sizeof(key), " %s=", atio_io_cap_name(k));
			p = strstr(line + at, key);
			if (p && sscanf(p + strlen(key), "%llu", &v) == 1)
				add_cap(&w->caps, 2, k, node, v, dir);
		}
	}
	fclose(f);
}

/* The v1 throttle file of each kind. */
static const char *const v1_files[] = {
	"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device",
	"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
};

/* The blkio.throttle.*_device files of v1 cgroup @dir: "MAJ:MIN N" lines. */
static void v1_caps(struct atio_device_window *w, const char *dir)
{
	for (unsigned k = 0; k < ATIO_CAP_KINDS; k++) {
		char path[PATH_MAX + 64], line[256];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", dir, v1_files[k]);
		if (!(f = fopen(path, "re")))
			continue;
		while (fgets(line, sizeof(line), f)) {
			unsigned ma, mi;
			unsigned long long v;

			if (sscanf(line, "%u:%u %llu", &ma, &mi, &v) == 3)
				add_cap(&w->caps, 1, k, node_of(w, ma, mi), v, dir);
		}
		fclose(f);
	}
}

/* @dir up to its hierarchy's top, one cgroup at a time: false past the top. */
static bool parent(char *dir, const char *top)
{
	char *slash;

	if (strcmp(dir, top) == 0 || !(slash = strrchr(dir, '/')) || slash == dir)
		return false;
	*slash = '\0';
	return strlen(dir) >= strlen(top);
}

void atio_io_caps_find(struct atio_device_window *w)
{
	struct atio_io_caps *c = &w->caps;
	char dir[512], top[PATH_MAX], root[PATH_MAX], line[256];

	c->n = 0;
	if (own_dir(true, c->v2, sizeof(c->v2)) && mount_of(true, top, root)) {
		char path[PATH_MAX + 32];
		FILE *f;

		snprintf(path, sizeof(path), "%s/cgroup.controllers", c->v2);
		if ((f = fopen(path, "re"))) {
			if (fgets(line, sizeof(line), f))
				c->v2_io = strstr(line, "io") != NULL;
			fclose(f);
		}
		snprintf(dir, sizeof(dir), "%s", c->v2);
		do
			v2_caps(w, dir);
		while (parent(dir, top));
	}
	if (own_dir(false, c->v1, sizeof(c->v1)) && mount_of(false, top, root)) {
		snprintf(dir, sizeof(dir), "%s", c->v1);
		do
			v1_caps(w, dir);
		while (parent(dir, top));
	}
}

/* In v2 io.stat of @dir, the value of @key ("rios=") on the line of @ma:@mi. */
static bool v2_count(const char *dir, unsigned ma, unsigned mi, const char *key, uint64_t *v)
{
	char path[PATH_MAX + 16], line[1024], want[32];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/io.stat", dir);
	if (!(f = fopen(path, "re")))
		return false;
	snprintf(want, sizeof(want), "%u:%u ", ma, mi);
	while (!found && fgets(line, sizeof(line), f)) {
		char *p;

		if (strncmp(line, want, strlen(want)) == 0 && (p = strstr(line, key)))
			found = sscanf(p + strlen(key), "%" SCNu64, v) == 1;
	}
	fclose(f);
	return found;
}

/*
 * In v1 cgroup @dir, the "MAJ:MIN Read N" (or Write) count of @name
 * (blkio.throttle.io_serviced or io_service_bytes), recursive where the
 * kernel has it: a cap set above atio's cgroup counts all beneath it.
 */
static bool v1_count(const char *dir, const char *name, unsigned ma, unsigned mi,
		     const char *op, uint64_t *v)
{
	char path[PATH_MAX + 64], line[256], want[64];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s_recursive", dir, name);
	if (!(f = fopen(path, "re"))) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		if (!(f = fopen(path, "re")))
			return false;
	}
	snprintf(want, sizeof(want), "%u:%u %s ", ma, mi, op);
	while (!found && fgets(line, sizeof(line), f))
		if (strncmp(line, want, strlen(want)) == 0)
			found = sscanf(line + strlen(want), "%" SCNu64, v) == 1;
	fclose(f);
	return found;
}

/* The "total=" of the line of io.pressure that begins with @kind ("some", "full"). */
static bool pressure(const char *dir, const char *kind, uint64_t *v)
{
	char path[PATH_MAX + 16], line[256];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/io.pressure", dir);
	if (!(f = fopen(path, "re")))
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "total=");

		if (strncmp(line, kind, strlen(kind)) == 0 && p)
			found = sscanf(p + 6, "%" SCNu64, v) == 1;
	}
	fclose(f);
	return found;
}

void atio_io_caps_read(struct atio_device_window *w, bool end)
{
	struct atio_io_caps *c = &w->caps;
	static const char *const v2_keys[] = { "rios=", "wios=", "rbytes=", "wbytes=" };

	for (unsigned i = 0; i < c->n; i++) {
		struct atio_io_cap *cap = &c->cap[i];
		const struct atio_device_node *d = &w->node[cap->node];
		bool iops = cap->kind == ATIO_CAP_RIOPS || cap->kind == ATIO_CAP_WIOPS;
		bool rd = cap->kind == ATIO_CAP_RIOPS || cap->kind == ATIO_CAP_RBPS;
		uint64_t v = 0;
		bool ok = cap->version == 2
			? v2_count(cap->cgroup, d->major, d->minor, v2_keys[cap->kind], &v)
			: v1_count(cap->cgroup, iops ? "blkio.throttle.io_serviced"
				   : "blkio.throttle.io_service_bytes", d->major, d->minor,
				   rd ? "Read" : "Write", &v);

		if (!end) {
			cap->have_count = ok;
			cap->count_begin = v;
		} else {
			cap->have_count = cap->have_count && ok;
			cap->count_end = v;
		}
	}
	if (c->v2[0]) {
		uint64_t some = 0, full = 0;
		bool ok = pressure(c->v2, "some", &some) && pressure(c->v2, "full", &full);

		if (!end) {
			c->have_pressure = ok;
			c->some_begin = some;
			c->full_begin = full;
		} else {
			c->have_pressure = c->have_pressure && ok;
			c->some_end = some;
			c->full_end = full;
		}
	}
}
