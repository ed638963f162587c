/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CLI_PARSE_H
#define ATIO_CLI_PARSE_H

/*
 * What cli.c (reading the options) and cli_judge.c (judging them once all
 * are read) share: the ids of the options, what parsing remembers and the
 * error of bad usage. Internal to src/cli/.
 */

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "atio/base/error.h"
#include "atio/base/opts.h"

/* Every error here is bad usage; the functions that use this have an @e. */
#define USAGE(...)     atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

/* Long options get values above any character, so optopt tells them apart. */
enum {
	OPT_READ = 256, OPT_WRITE, OPT_FSYNC, OPT_FDATASYNC,
	OPT_SEQ, OPT_RAND, OPT_MBS, OPT_IOPS, OPT_CACHED, OPT_UNCACHED,
	OPT_JSON, OPT_SEED, OPT_START_AT, OPT_REMOVE, OPT_KEEP_CACHE, OPT_NO_THP,
	OPT_ENGINE, OPT_IODEPTH, OPT_HELP, OPT_VERSION,
	OPT_TAKE_OVER, OPT_ALLOW_MEMORY_FS, OPT_ALLOW_DEVICE_WRITE,
	OPT_MIX,
	OPT_DSYNC, OPT_OSYNC, OPT_PREPARE,
	OPT_CHECK,
	OPT_RATE,
	OPT_VERIFY,
	OPT_EXPAND,
	OPT_INTERVAL,
	OPT_IODEPTH_BATCH,
	OPT_BACKWARD,
	OPT_STRIDE,
	OPT_DIST,
	OPT_DELAY,
	OPT_REWRITE,
	OPT_FADVISE,
	OPT_COMPRESS,
	OPT_DEDUP,
	OPT_DEDUP_UNIT,
	OPT_SIZE,
	OPT_LOOPS,
	OPT_STEADY, OPT_ROUND, OPT_ROUNDS, OPT_PRECONDITION, OPT_ALL_ROUNDS,
	OPT_ARRIVALS,
	OPT_META, OPT_FILES, OPT_FILE_SIZE, OPT_DIRS, OPT_SHARED_DIR, OPT_NEIGHBOUR,
	OPT_FSYNC_FILES, OPT_FSYNC_DIR, OPT_FIGURE,
	OPT_NEIGHBOUR_DIR,
	OPT_SHARED_BY,
	OPT_PERCENTILES,
	OPT_CSV,
	OPT_COUNT,                 /* the number of ids, for tables by id */
};

/*
 * What parsing remembers beyond struct atio_opts: which option of each
 * either-or group was seen (0 for none), and the text of the values that
 * are judged only once every option is known, so that messages quote them
 * as the user typed them. A NULL text means the default applies.
 */
struct pstate {
	int mode, order, unit, cache;
	const char *bs, *nfiles, *total, *qsync, *iodepth;
	const char *given[OPT_COUNT];  /* value of each option seen, by id */
	int osync;                 /* --dsync or --osync, 0 for neither */
	bool seen[OPT_COUNT];      /* every option seen, flags too, by id */
};

/* The long options, by name and id; the last is all zeros (cli_options.c). */
extern const struct option atio_cli_longopts[];

/* The spelling of option @id for messages, "-s" or "--engine", in @buf if need be. */
const char *atio_cli_optname(int id, char *buf, size_t len);

/*
 * Once every option is read into @o and @st: turn the groups into
 * settings, apply the defaults that depend on other options, size by the
 * node (-p auto, -u auto) and judge the combinations. Returns 0, or a
 * negative errno with @e filled (bad usage: exit status 2).
 */
int atio_cli_finish(struct atio_opts *o, const struct pstate *st, struct atio_error *e);

/*
 * An -s mix against the other options, once all are known: every size
 * fit for the cache mode, READS:WRITES only with --mix, no option that
 * orders or fills by blocks of one size. Returns 0 or -EINVAL with @e filled.
 */
int atio_cli_bsmix_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e);

/* --compress, --dedup, --dedup-unit (option @id) of value @arg into @o (cli_reduce.c). */
int atio_cli_reduce(int id, const char *arg, struct atio_opts *o, struct atio_error *e);

/*
 * Once every option is known: judge --compress, --dedup and --dedup-unit
 * against the mode and -s, and set the default unit (cli_reduce.c).
 */
int atio_cli_reduce_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e);

/*
 * --size and --loops once every option is known (cli_limits.c): --size a
 * whole number of blocks, neither with --prepare or --check, --loops not
 * with --expand; without -t, no time limit (o->time_ns 0). Returns 0, or a
 * negative errno with @e filled.
 */
int atio_cli_limits_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e);

/*
 * --steady, --round, --rounds (option @id) of value @arg, and
 * --precondition, into @o (cli_steady.c).
 */
int atio_cli_steady(int id, const char *arg, struct atio_opts *o, struct atio_error *e);

/*
 * Once every option is known: --round and --rounds only with --steady,
 * their defaults, and --steady against -w, --prepare and --check.
 */
int atio_cli_steady_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e);

/*
 * --meta and the options of a metadata run (cli_meta.c): option @id of
 * value @arg into o->meta; once every option is known, the metadata run
 * judged against the others (and its options refused without --meta).
 */
int atio_cli_meta(int id, const char *arg, struct atio_opts *o, struct atio_error *e);
int atio_cli_meta_judge(struct atio_opts *o, const struct pstate *st, struct atio_error *e);

#endif
