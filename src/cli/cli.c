/* SPDX-License-Identifier: MIT */
/*
 * The command line: at_io_iops' options with their spellings and meanings,
 * atio's own long options, size and time suffixes, and every check that can
 * be made before touching the filesystem. Nothing here prints (except
 * atio_cli_usage, on request) and nothing exits.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/cli/cli.h"
#include "atio/engine/engine.h"
#include "atio/base/error.h"
#include "atio/base/node.h"
#include "atio/run/genmap.h"
#include "atio/run/pace.h"
#include "cli_parse.h"

#define NS_PER_SEC     1000000000ULL

/* Leading ':' makes a missing value return ':' rather than '?'. */
static const char shortopts[] = ":as:p:n:t:w:u:q:Sf:vhV";

/* What the value of option @id is, for "needs a value" messages. */
static const char *value_hint(int id)
{
	switch (id) {
	case 's': return "block size, e.g. 4K or 16M, or a mix, e.g. 4K/50,64K/30,1M/20";
	case 'p': return "number of threads, or auto";
	case 'n': return "number of files";
	case 't': return "test time in seconds, or with s, m or h";
	case 'w': return "warm-up time in seconds, or with s, m or h";
	case OPT_DELAY: return "seconds from the run's start to the job's, or with s, m or h";
	case 'u': return "total size of all files, e.g. 16G, or auto";
	case 'q': return "number of writes between two syncs";
	case 'f': return "directory or file-name prefix of the test files";
	case OPT_SEED: return "a whole number";
	case OPT_START_AT: return "seconds since the epoch";
	case OPT_ENGINE: return "an engine name";
	case OPT_IODEPTH: return "number of I/Os in flight per thread";
	case OPT_IODEPTH_BATCH: return "completions taken before refilling, at most --iodepth";
	case OPT_MIX: return "percentage of reads, 1 to 99";
	case OPT_RATE: return "a cap in the unit of the result, e.g. 1000 or 2.5";
	case OPT_INTERVAL: return "seconds, 0.1 or more, e.g. 1 or 0.5";
	case OPT_DIST: return "zipf:THETA, pareto:H, normal:SD% or hot spots, e.g. 90/10";
	case OPT_FADVISE: return "random, sequential, normal or none";
	case OPT_COMPRESS: case OPT_DEDUP: return "a ratio of 1 or more, e.g. 2 or 2.5";
	case OPT_DEDUP_UNIT: return "a size, a multiple of 512, e.g. 4K";
	case OPT_SIZE: return "bytes each thread moves, e.g. 1G";
	case OPT_LOOPS: return "passes over each thread's share, e.g. 2";
	case OPT_STEADY: return "iops, mbs or lat";
	case OPT_ROUND: return "seconds a round lasts, or with s, m or h";
	case OPT_ROUNDS: return "the most rounds to run, 5 or more";
	case OPT_ARRIVALS: return "uniform or exponential";
	case OPT_META: return "phases, e.g. create,stat,read,rename,delete";
	case OPT_FILES: return "files a thread, e.g. 10000";
	case OPT_FILE_SIZE: return "bytes each file holds, e.g. 4K or 0";
	case OPT_DIRS: return "directories a tree, e.g. 100";
	case OPT_FIGURE: return "the phase on the result line, e.g. stat";
	case OPT_PERCENTILES: return "percentiles, ascending, e.g. 50,99,99.9";
	case OPT_CSV: return "a file for the figures as CSV, or - for stdout";
	}
	return "see --help";
}

/*
 * An unknown long option @arg ("--name" or "--name=value"), ambiguous
 * ("--re") or not: name it, and suggest the first option it is a prefix of.
 */
static int unknown_long(const char *arg, struct atio_error *e)
{
	int n = (int)strcspn(arg + 2, "=");

	for (const struct option *lo = atio_cli_longopts; lo->name; lo++)
		if (n && strncmp(lo->name, arg + 2, (size_t)n) == 0)
			return USAGE("--%.*s: unknown option (did you mean --%s?)",
				     n, arg + 2, lo->name);
	return USAGE("--%.*s: unknown option", n, arg + 2);
}

/*
 * Record option @id of an either-or group in *seen. A second, different
 * member of the group is an error: taking the last one silently would run
 * a test other than the one half of the command line asks for.
 */
static int pick(int *seen, int id, const char *what, struct atio_error *e)
{
	char a[24], b[24];

	if (*seen && *seen != id)
		return USAGE("%s and %s are contradictory: choose one %s",
			     atio_cli_optname(*seen, a, sizeof(a)),
			     atio_cli_optname(id, b, sizeof(b)), what);
	*seen = id;
	return 0;
}

/* Parse the number @arg of option @id into [min, max], naming @what. */
static int get_uint(int id, const char *arg, uint64_t min, uint64_t max,
		    const char *what, uint64_t *out, struct atio_error *e)
{
	char a[24];
	int r = atio_parse_uint(arg, min, max, out);

	if (r == -EINVAL)
		return USAGE("%s %s: %s must be a whole number",
			     atio_cli_optname(id, a, sizeof(a)), arg, what);
	if (r < 0)
		return USAGE("%s %s: %s must be between %" PRIu64 " and %" PRIu64,
			     atio_cli_optname(id, a, sizeof(a)), arg, what, min, max);
	return 0;
}

/*
 * Parse the size (or, with @time, the duration) @arg of option @id into
 * *out, saying what is wrong with it.
 */
static int get_amount(int id, const char *arg, bool time, uint64_t *out,
		      struct atio_error *e)
{
	int r = time ? atio_parse_time(arg, out) : atio_parse_size(arg, out);
	const char *why;
	char a[24];

	if (r == 0)
		return 0;
	if (time)
		why = arg[0] == '-' ? "a time cannot be negative"
			: r == -ERANGE ? "too long (at most 366 days)"
			: "not a time (seconds, or a number with s, m or h)";
	else
		why = r == -EDOM ? "not a whole number of bytes"
			: r == -ERANGE ? "too large"
			: "not a size (a number with an optional K, M, G or T)";
	return USAGE("%s %s: %s", atio_cli_optname(id, a, sizeof(a)), arg, why);
}

/*
 * An option with a value given a second time is an error, as two members
 * of a group are: taking the last one silently would run a test other
 * than the one half of the command line asks for. Flags may repeat (-v
 * counts them).
 */
static int once(int id, const char *arg, struct pstate *st, struct atio_error *e)
{
	char a[24];

	if (!arg || id < 0 || id >= OPT_COUNT)
		return 0;
	if (st->given[id])
		return USAGE("%s given twice (%s and %s): give it once",
			     atio_cli_optname(id, a, sizeof(a)), st->given[id], arg);
	st->given[id] = arg;
	return 0;
}

/*
 * Apply option @id with value @arg (NULL for flags). Returns 0, a negative
 * errno on bad usage, or the action (help, version) that ends parsing.
 */
static int apply(int id, const char *arg, struct atio_opts *o,
		 struct pstate *st, struct atio_error *e)
{
	uint64_t v = 0;
	int r = once(id, arg, st, e);

	if (r)
		return r;
	if (id >= 0 && id < OPT_COUNT)
		st->seen[id] = true;
	switch (id) {
	case OPT_READ: case OPT_WRITE: case OPT_FSYNC: case OPT_FDATASYNC:
	case OPT_CHECK:
	case OPT_EXPAND: case OPT_REWRITE:
		return pick(&st->mode, id, "workload", e);
	case OPT_SEQ: case OPT_RAND:
		return pick(&st->order, id, "access pattern", e);
	case OPT_MBS: case OPT_IOPS:
		return pick(&st->unit, id, "unit", e);
	case OPT_CACHED: case OPT_UNCACHED:
		return pick(&st->cache, id, "cache mode", e);
	case 's':
		st->bs = arg;
		if (strpbrk(arg, "/,:"))
			return atio_cli_bsmix(arg, o, e);
		return get_amount(id, arg, false, &o->bs, e);
	case 'u':
		st->total = arg;
		if (strcmp(arg, "auto") == 0) {
			o->total_auto = true;   /* sized in atio_cli_finish() */
			return 0;
		}
		if (atio_parse_size(arg, &v) == -EINVAL)
			return USAGE("-u %s: not a size (a number with an optional K, "
				     "M, G or T) nor auto (twice the RAM)", arg);
		return get_amount(id, arg, false, &o->total, e);
	case 'p':
		if (strcmp(arg, "auto") == 0) {
			o->threads_auto = true; /* counted in atio_cli_finish() */
			return 0;
		}
		if (atio_parse_uint(arg, 1, ATIO_MAX_THREADS, &v) == -EINVAL)
			return USAGE("-p %s: number of threads must be a whole number "
				     "or auto (one a CPU)", arg);
		r = get_uint(id, arg, 1, ATIO_MAX_THREADS, "number of threads", &v, e);
		o->threads = (unsigned)v;
		return r;
	case 'n':
		r = get_uint(id, arg, 1, ATIO_MAX_FILES, "number of files", &v, e);
		o->nfiles = (unsigned)v;
		st->nfiles = arg;
		return r;
	case 'q':
		r = get_uint(id, arg, 1, ATIO_MAX_QSYNC, "writes between syncs", &v, e);
		o->qsync = (unsigned)v;
		st->qsync = arg;
		return r;
	case OPT_IODEPTH:
		r = get_uint(id, arg, 1, ATIO_MAX_IODEPTH, "queue depth", &v, e);
		o->iodepth = (unsigned)v;
		st->iodepth = arg;
		return r;
	case OPT_IODEPTH_BATCH:
		r = get_uint(id, arg, 1, ATIO_MAX_IODEPTH, "completions before a refill", &v, e);
		o->iodepth_batch = (unsigned)v;
		return r;
	case OPT_SEED:
		o->seed_given = true;
		return get_uint(id, arg, 0, UINT64_MAX, "seed", &o->seed, e);
	case 't':
		if ((r = get_amount(id, arg, true, &o->time_ns, e)) == 0 && !o->time_ns)
			return USAGE("-t %s: test time must be more than 0", arg);
		return r;
	case 'w':
		return get_amount(id, arg, true, &o->warmup_ns, e);
	case OPT_DELAY:
		return get_amount(id, arg, true, &o->delay_ns, e);
	case OPT_START_AT:
		/* "-": the instant comes on stdin once atio is ready (main.c). */
		o->start_at_stdin = strcmp(arg, "-") == 0;
		o->start_at_ns = 0;
		return o->start_at_stdin ? 0 : atio_cli_start_at(arg, &o->start_at_ns, e);
	case OPT_ENGINE:
		if (!atio_engine_known(arg))
			return USAGE("--engine %s: unknown engine (atio has sync, io_uring, "
				     "libaio and null; this one is built with %s)",
				     arg, atio_engine_names());
		o->engine = arg;
		return 0;
	case 'f': o->path = arg; return 0;
	case 'S': o->skip_sync = true; return 0;
	case 'a': o->settings_only = true; return 0;
	case 'v': o->verbose += o->verbose < 3; return 0;
	case OPT_JSON: o->json = true; return 0;
	case OPT_REMOVE: o->remove = true; return 0;
	case OPT_KEEP_CACHE: o->keep_cache = true; return 0;
	case OPT_NO_THP: o->thp = false; return 0;
	case OPT_TAKE_OVER: o->take_over = true; return 0;
	case OPT_ALLOW_MEMORY_FS: o->allow_memory_fs = true; return 0;
	case OPT_ALLOW_DEVICE_WRITE: o->allow_device_write = true; return 0;
	case OPT_MIX:
		if ((r = pick(&st->mode, id, "workload", e)) != 0)
			return r;
		r = get_uint(id, arg, 1, 99, "percentage of reads", &v, e);
		o->mix = (unsigned)v;
		return r;
	case OPT_DSYNC: case OPT_OSYNC:
		return pick(&st->osync, id, "way to open the files", e);
	case OPT_PREPARE: o->prepare = true; return 0;
	case OPT_BACKWARD: o->backward = true; return 0;
	case OPT_STRIDE:
		r = atio_parse_size(arg, &o->stride);
		if (r || !o->stride)
			return USAGE("--stride %s: %s", arg, r == -ERANGE ? "too large"
				     : !r || r == -EDOM ? "not a whole, positive number of bytes"
				     : "not a size (a number with an optional K, M, G or T)");
		return 0;
	case OPT_VERIFY: o->verify = true; return 0;
	case OPT_DIST:
		o->dist_text = arg;
		return atio_cli_dist(arg, &o->dist, e);
	case OPT_FADVISE:
		o->fadvise_given = true;
		return atio_cli_fadvise(arg, &o->fadvise, e);
	case OPT_COMPRESS: case OPT_DEDUP: case OPT_DEDUP_UNIT:
		return atio_cli_reduce(id, arg, o, e);
	case OPT_SIZE: return atio_cli_size(arg, &o->size, e);
	case OPT_LOOPS: return atio_cli_loops(arg, &o->loops, e);
	case OPT_STEADY: case OPT_ROUND: case OPT_ROUNDS: case OPT_PRECONDITION:
	case OPT_ALL_ROUNDS:
		return atio_cli_steady(id, arg, o, e);
	case OPT_META: case OPT_FILES: case OPT_FILE_SIZE: case OPT_DIRS: case OPT_FIGURE:
	case OPT_SHARED_DIR: case OPT_NEIGHBOUR: case OPT_FSYNC_FILES: case OPT_FSYNC_DIR:
	case OPT_NEIGHBOUR_DIR: case OPT_SHARED_BY:
		return atio_cli_meta(id, arg, o, e);
	case OPT_PERCENTILES: return atio_cli_percentiles(arg, o, e);
	case OPT_CSV: o->csv = arg; return 0;
	case OPT_RATE:
		o->rate_text = arg;
		return atio_cli_rate(arg, &o->rate, e);
	case OPT_ARRIVALS:
		if (strcmp(arg, "uniform") && strcmp(arg, "exponential"))
			return USAGE("--arrivals %s: uniform (a fixed gap) or exponential "
				     "(random gaps of that mean)", arg);
		o->arrivals_exponential = arg[0] == 'e';
		return 0;
	case OPT_INTERVAL:
		o->interval_text = arg;
		r = atio_parse_time(arg, &o->interval_ns);
		if (r || o->interval_ns < ATIO_INTERVAL_MIN_NS)
			return USAGE("--interval %s: %s", arg, arg[0] == '-' ? "cannot be negative"
				     : r == -ERANGE ? "too long (at most 366 days)"
				     : r ? "not a time (seconds, or a number with s, m or h)"
				     : "shorter than the 0.1 s an interval may be");
		return 0;
	case 'h': case OPT_HELP: return ATIO_CLI_HELP;
	case 'V': case OPT_VERSION: return ATIO_CLI_VERSION;
	}
	return USAGE("option %d: not handled", id);
}

/*
 * See cli.h. getopt_long keeps its state in globals: optind = 0 makes
 * glibc start over, so parse can run many times in one process, and
 * opterr = 0 keeps it from printing. -h and -V end parsing at once: what
 * follows them is not judged. getopt_long moves the arguments that are not
 * options to the end, so whatever is left past optind is stray.
 */
int atio_cli_parse(int argc, char **argv, struct atio_opts *o,
		   struct atio_error *e)
{
	struct pstate st = { 0 };
	const char *arg;
	char a[24];
	int c, r;

	*o = (struct atio_opts){
		.threads = 1, .nfiles = 1, .time_ns = 60 * NS_PER_SEC,
		.total = 16ULL << 30, .qsync = 1, .iodepth = 1, .thp = true,
		.interval_ns = NS_PER_SEC,
	};
	optind = 0;
	opterr = 0;
	/* Not every getopt clears optarg for an option without a value. */
	for (;;) {
		optarg = NULL;
		c = getopt_long(argc, argv, shortopts, atio_cli_longopts, NULL);
		if (c == -1)
			break;
		if (c == ':')
			return USAGE("%s: needs a value (%s)",
				     atio_cli_optname(optopt, a, sizeof(a)), value_hint(optopt));
		if (c == '?' && optopt >= OPT_READ)
			return USAGE("%s: takes no value",
				     atio_cli_optname(optopt, a, sizeof(a)));
		if (c == '?' && optopt)
			return USAGE("-%c: unknown option", optopt);
		if (c == '?')
			return unknown_long(argv[optind - 1], e);
		arg = optarg;
		if (arg && !*arg)
			return USAGE("%s: the value is empty (%s)",
				     atio_cli_optname(c, a, sizeof(a)), value_hint(c));
		if ((r = apply(c, arg, o, &st, e)) != 0)
			return r;
	}
	if (optind < argc)
		return USAGE("%s: unexpected argument (every value belongs to "
			     "an option, e.g. -f PATH)", argv[optind]);
	r = atio_cli_finish(o, &st, e);
	return r < 0 ? r : ATIO_CLI_RUN;
}

/* See cli.h. */
void atio_opts_batch(struct atio_opts *o, unsigned direct_batch)
{
	if (!o->iodepth_batch_auto)
		return;
	o->iodepth_batch = o->direct && o->random && direct_batch && o->iodepth > direct_batch
		? direct_batch : o->iodepth;
}
