/* SPDX-License-Identifier: MIT */
/*
 * --meta and its options: the phases, the tree's shape, the result's
 * phase, and how a metadata run goes with the other options. Only what
 * a metadata run means is taken: the options of a data run (-s, -t, -u,
 * --rand's distributions, the engines ...) shape nothing here and are
 * refused, naming them, rather than ignored.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/node.h"
#include "atio/base/units.h"
#include "cli_parse.h"

/* The options of a data run, refused with --meta. */
static const int meta_refuses[] = {
	's', 'n', 't', 'w', 'u', 'q', 'S',
	OPT_READ, OPT_WRITE, OPT_FSYNC, OPT_FDATASYNC, OPT_MBS, OPT_IOPS,
	OPT_CACHED, OPT_UNCACHED, OPT_ENGINE, OPT_IODEPTH,
	OPT_TAKE_OVER, OPT_ALLOW_DEVICE_WRITE, OPT_MIX, OPT_DSYNC, OPT_OSYNC,
	OPT_PREPARE, OPT_CHECK, OPT_RATE, OPT_EXPAND, OPT_IODEPTH_BATCH,
	OPT_BACKWARD, OPT_STRIDE, OPT_DIST, OPT_DELAY, OPT_REWRITE, OPT_FADVISE,
	OPT_COMPRESS, OPT_DEDUP, OPT_DEDUP_UNIT, OPT_SIZE,
	OPT_STEADY, OPT_ROUND, OPT_ROUNDS, OPT_ALL_ROUNDS, OPT_PRECONDITION, OPT_ARRIVALS,
	OPT_NO_THP, OPT_PERCENTILES, OPT_CSV,
};

/* The options that only a metadata run has. */
static const int meta_only[] = {
	OPT_FILES, OPT_FILE_SIZE, OPT_DIRS, OPT_SHARED_DIR, OPT_NEIGHBOUR,
	OPT_FSYNC_FILES, OPT_FSYNC_DIR, OPT_FIGURE, OPT_NEIGHBOUR_DIR, OPT_SHARED_BY,
};

/* "I/N" into @m->member and @m->members: 0, or -EINVAL. */
static int parse_member(const char *arg, struct atio_meta_opts *m)
{
	const char *slash = strchr(arg, '/');
	char *end;
	unsigned long i, n;

	if (!slash || arg[0] < '0' || arg[0] > '9' || slash[1] < '0' || slash[1] > '9')
		return -EINVAL;
	errno = 0;
	i = strtoul(arg, &end, 10);
	if (end != slash || errno)
		return -EINVAL;
	n = strtoul(slash + 1, &end, 10);
	if (*end || errno || n < 2 || n > ATIO_META_MAX_MEMBERS || i >= n)
		return -EINVAL;
	m->member = (unsigned)i;
	m->members = (unsigned)n;
	return 0;
}

/* See cli_parse.h. */
int atio_cli_meta(int id, const char *arg, struct atio_opts *o, struct atio_error *e)
{
	struct atio_meta_opts *m = &o->meta;
	const char *bad = NULL;
	size_t badlen = 0;
	uint64_t v;
	int r, p;

	switch (id) {
	case OPT_META:
		m->phases_text = arg;
		r = atio_meta_phases_parse(arg, m, &bad, &badlen);
		if (r == -E2BIG)
			return USAGE("--meta %s: more than %u phases", arg, ATIO_META_MAX_PHASES);
		if (r)
			return USAGE("--meta %s: '%.*s' is not a phase (create, stat, read, "
				     "rename or delete, separated by commas)", arg, (int)badlen, bad);
		return 0;
	case OPT_FILES:
		r = atio_parse_uint(arg, 1, ATIO_META_MAX_FILES, &m->files);
		if (r)
			return USAGE("--files %s: the files a thread must be a whole number "
				     "from 1 to %llu", arg, ATIO_META_MAX_FILES);
		return 0;
	case OPT_DIRS:
		r = atio_parse_uint(arg, 1, ATIO_META_MAX_DIRS, &v);
		m->dirs = (unsigned)v;
		if (r)
			return USAGE("--dirs %s: the directories of a tree must be a whole "
				     "number from 1 to %u", arg, ATIO_META_MAX_DIRS);
		return 0;
	case OPT_FILE_SIZE:
		r = atio_parse_size(arg, &m->file_size);
		if (r || m->file_size > ATIO_META_MAX_SIZE)
			return USAGE("--file-size %s: %s", arg,
				     r == -EINVAL ? "not a size (a number with an optional "
				     "K, M, G or T)" : r == -EDOM ? "not a whole number of bytes"
				     : "too large (at most 1G)");
		return 0;
	case OPT_FIGURE:
		p = atio_meta_phase_parse(arg, strlen(arg));
		if (p < 0)
			return USAGE("--figure %s: not a phase (create, stat, read, rename or "
				     "delete)", arg);
		m->figure = (enum atio_meta_phase)p;
		m->figure_given = true;
		return 0;
	case OPT_SHARED_DIR: m->shared = true; return 0;
	case OPT_SHARED_BY:
		if (parse_member(arg, m))
			return USAGE("--shared-by %s: not I/N, this atio's member number I "
				     "(0 to N-1) of the N from 2 to %u sharing one tree", arg,
				     ATIO_META_MAX_MEMBERS);
		return 0;
	case OPT_NEIGHBOUR: m->neighbour = true; return 0;
	case OPT_NEIGHBOUR_DIR:
		if (arg[0] != '/')
			return USAGE("--neighbour-dir %s: not an absolute path", arg);
		m->neighbour_dir = arg;
		return 0;
	case OPT_FSYNC_FILES: m->fsync_files = true; return 0;
	case OPT_FSYNC_DIR: m->fsync_dir = true; return 0;
	}
	return USAGE("option %d: not handled", id);
}

/*
 * The phases in their order, from a tree that exists or not before the
 * first: each phase needs files to work on (create none), and create
 * needs none there. @loops > 1 runs them again: they must leave what they
 * found.
 */
static int judge_order(const struct atio_meta_opts *m, uint64_t loops, struct atio_error *e)
{
	bool files = m->phase[0] != ATIO_META_CREATE;

	for (unsigned i = 0; i < m->nphases; i++) {
		enum atio_meta_phase p = m->phase[i];
		const char *name = atio_meta_phase_name(p);

		if (p == ATIO_META_CREATE && files)
			return USAGE("--meta %s: create after the files were made, without a "
				     "delete between: create makes new files only", m->phases_text);
		if (p != ATIO_META_CREATE && !files)
			return USAGE("--meta %s: %s after delete: there are no files left to %s",
				     m->phases_text, name, name);
		files = p != ATIO_META_DELETE;
	}
	if (loops > 1 && (m->phase[0] != ATIO_META_CREATE ||
			  m->phase[m->nphases - 1] != ATIO_META_DELETE))
		return USAGE("--loops %" PRIu64 " with --meta %s: each pass makes its tree again: "
			     "the phases must begin with create and end with delete",
			     loops, m->phases_text);
	return 0;
}

/*
 * --shared-by: the members' tree is one --shared-dir tree, made by
 * whichever comes first; they find it theirs by the seed all of them give.
 */
static int judge_members(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	struct atio_meta_opts *m = &o->meta;

	if (!st->seen[OPT_SEED])
		return USAGE("--shared-by %u/%u: give --seed, the same to every member: the "
			     "members know their tree by it", m->member, m->members);
	if (o->loops > 1)
		return USAGE("--shared-by %u/%u with --loops %" PRIu64 ": the members do not "
			     "wait for each other between passes: give one pass each",
			     m->member, m->members, o->loops);
	if (m->neighbour_dir)
		return USAGE("--shared-by %u/%u with --neighbour-dir %s: the members share one "
			     "tree: --neighbour reads the next member's files in it",
			     m->member, m->members, m->neighbour_dir);
	for (unsigned i = 0; m->neighbour && i < m->nphases; i++)
		if (m->phase[i] != ATIO_META_STAT && m->phase[i] != ATIO_META_READ)
			return USAGE("--shared-by %u/%u --neighbour with --meta %s: the members "
				     "do not wait for each other between phases: stat and read "
				     "the next member's files in a run of their own, once every "
				     "member's %s is over", m->member, m->members,
				     m->phases_text, atio_meta_phase_name(m->phase[i]));
	if ((uint64_t)o->threads * m->members > ATIO_META_MAX_MEMBERS * 64ull)
		return USAGE("--shared-by %u/%u with -p %u: too many threads in one tree",
			     m->member, m->members, o->threads);
	m->shared = true;
	return 0;
}

/* See cli_parse.h. */
int atio_cli_meta_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	struct atio_meta_opts *m = &o->meta;
	char a[24];
	int r;

	if (!m->nphases) {
		for (size_t i = 0; i < sizeof(meta_only) / sizeof(*meta_only); i++)
			if (st->seen[meta_only[i]])
				return USAGE("%s: only with --meta (a metadata run)",
					     atio_cli_optname(meta_only[i], a, sizeof(a)));
		return 0;
	}
	for (size_t i = 0; i < sizeof(meta_refuses) / sizeof(*meta_refuses); i++)
		if (st->seen[meta_refuses[i]])
			return USAGE("%s: not with --meta: an option of data runs (a metadata run "
				     "takes --files, --file-size, --dirs and -p)",
				     atio_cli_optname(meta_refuses[i], a, sizeof(a)));
	if (o->threads_auto) {
		o->node_cpus = atio_node_cpus();
		o->threads = o->node_cpus < ATIO_MAX_THREADS ? o->node_cpus : ATIO_MAX_THREADS;
	}
	o->random = st->order == OPT_RAND;
	if (!m->files)
		m->files = 1000;
	if (!m->dirs)
		m->dirs = 1;
	if (!m->figure_given)
		m->figure = m->phase[0];
	if ((r = judge_order(m, o->loops, e)) != 0)
		return r;
	if (!atio_meta_has(m, m->figure))
		return USAGE("--figure %s: not one of the phases of --meta %s",
			     atio_meta_phase_name(m->figure), m->phases_text);
	if (m->members && (r = judge_members(o, st, e)) != 0)
		return r;
	if (m->neighbour && !m->members && o->threads < 2)
		return USAGE("--neighbour: each thread works on the next one's files: it "
			     "needs -p 2 or more (-p %u)", o->threads);
	if (m->neighbour_dir && m->neighbour)
		return USAGE("--neighbour-dir %s with --neighbour: each thread reads either the "
			     "next thread's files or the same thread's in another tree: give one",
			     m->neighbour_dir);
	if (m->neighbour_dir && !atio_meta_has(m, ATIO_META_STAT) &&
	    !atio_meta_has(m, ATIO_META_READ))
		return USAGE("--neighbour-dir %s: stat and read go to the other tree: --meta %s "
			     "has neither", m->neighbour_dir, m->phases_text);
	if (m->fsync_files && !atio_meta_has(m, ATIO_META_CREATE))
		return USAGE("--fsync-files: syncs the files create makes: --meta %s has no "
			     "create", m->phases_text);
	if (m->fsync_dir && !atio_meta_has(m, ATIO_META_CREATE))
		return USAGE("--fsync-dir: syncs the directories after create: --meta %s has "
			     "no create", m->phases_text);
	if (o->verify && !atio_meta_has(m, ATIO_META_READ))
		return USAGE("--verify: the read phase checks the data: --meta %s has no read",
			     m->phases_text);
	if (o->verify && m->file_size < 512)
		return USAGE("--verify: --file-size %" PRIu64 " holds no stamp: atio stamps "
			     "whole 512-byte sectors (give 512 or more)", m->file_size);
	if (m->files * o->threads / o->threads != m->files)
		return USAGE("--files %" PRIu64 " with -p %u: too many files", m->files, o->threads);
	if (!o->path && !o->settings_only)
		return USAGE("--meta: -f DIR is needed: the directory atio makes its tree in");
	return 0;
}
