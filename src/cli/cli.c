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

#define NS_PER_SEC     1000000000ULL

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
	OPT_COUNT,                 /* the number of ids, for tables by id */
};

static const struct option longopts[] = {
	{ "read",       no_argument,       NULL, OPT_READ },
	{ "write",      no_argument,       NULL, OPT_WRITE },
	{ "fsync",      no_argument,       NULL, OPT_FSYNC },
	{ "fdatasync",  no_argument,       NULL, OPT_FDATASYNC },
	{ "seq",        no_argument,       NULL, OPT_SEQ },
	{ "rand",       no_argument,       NULL, OPT_RAND },
	{ "mbs",        no_argument,       NULL, OPT_MBS },
	{ "iops",       no_argument,       NULL, OPT_IOPS },
	{ "cached",     no_argument,       NULL, OPT_CACHED },
	{ "uncached",   no_argument,       NULL, OPT_UNCACHED },
	{ "json",       no_argument,       NULL, OPT_JSON },
	{ "seed",       required_argument, NULL, OPT_SEED },
	{ "start-at",   required_argument, NULL, OPT_START_AT },
	{ "remove",     no_argument,       NULL, OPT_REMOVE },
	{ "keep-cache", no_argument,       NULL, OPT_KEEP_CACHE },
	{ "no-thp",     no_argument,       NULL, OPT_NO_THP },
	{ "engine",     required_argument, NULL, OPT_ENGINE },
	{ "iodepth",    required_argument, NULL, OPT_IODEPTH },
	{ "help",       no_argument,       NULL, OPT_HELP },
	{ "version",    no_argument,       NULL, OPT_VERSION },
	{ "take-over",  no_argument,       NULL, OPT_TAKE_OVER },
	{ "allow-memory-fs", no_argument,  NULL, OPT_ALLOW_MEMORY_FS },
	{ "allow-device-write", no_argument, NULL, OPT_ALLOW_DEVICE_WRITE },
	{ "mix",        required_argument, NULL, OPT_MIX },
	{ "dsync",      no_argument,       NULL, OPT_DSYNC },
	{ "osync",      no_argument,       NULL, OPT_OSYNC },
	{ "prepare",    no_argument,       NULL, OPT_PREPARE },
	{ "check",      no_argument,       NULL, OPT_CHECK },
	{ "rate",       required_argument, NULL, OPT_RATE },
	{ "verify",     no_argument,       NULL, OPT_VERIFY },
	{ "expand",     no_argument,       NULL, OPT_EXPAND },
	{ "interval",   required_argument, NULL, OPT_INTERVAL },
	{ "iodepth-batch", required_argument, NULL, OPT_IODEPTH_BATCH },
	{ NULL, 0, NULL, 0 },
};

/* Leading ':' makes a missing value return ':' rather than '?'. */
static const char shortopts[] = ":as:p:n:t:w:u:q:Sf:vhV";

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

/* The spelling of option @id for messages: "-s" or "--engine". */
static const char *optname(int id, char *buf, size_t len)
{
	for (const struct option *lo = longopts; lo->name; lo++)
		if (lo->val == id) {
			snprintf(buf, len, "--%s", lo->name);
			return buf;
		}
	snprintf(buf, len, "-%c", id);
	return buf;
}

/* What the value of option @id is, for "needs a value" messages. */
static const char *value_hint(int id)
{
	switch (id) {
	case 's': return "block size, e.g. 4K or 16M";
	case 'p': return "number of threads, or auto";
	case 'n': return "number of files";
	case 't': return "test time in seconds, or with s, m or h";
	case 'w': return "warm-up time in seconds, or with s, m or h";
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

	for (const struct option *lo = longopts; lo->name; lo++)
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
			     optname(*seen, a, sizeof(a)),
			     optname(id, b, sizeof(b)), what);
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
			     optname(id, a, sizeof(a)), arg, what);
	if (r < 0)
		return USAGE("%s %s: %s must be between %" PRIu64 " and %" PRIu64,
			     optname(id, a, sizeof(a)), arg, what, min, max);
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
	return USAGE("-%c %s: %s", id, arg, why);
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
			     optname(id, a, sizeof(a)), st->given[id], arg);
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
	case OPT_EXPAND:
		return pick(&st->mode, id, "workload", e);
	case OPT_SEQ: case OPT_RAND:
		return pick(&st->order, id, "access pattern", e);
	case OPT_MBS: case OPT_IOPS:
		return pick(&st->unit, id, "unit", e);
	case OPT_CACHED: case OPT_UNCACHED:
		return pick(&st->cache, id, "cache mode", e);
	case 's':
		st->bs = arg;
		return get_amount(id, arg, false, &o->bs, e);
	case 'u':
		st->total = arg;
		if (strcmp(arg, "auto") == 0) {
			o->total_auto = true;   /* sized in finish() */
			return 0;
		}
		if (atio_parse_size(arg, &v) == -EINVAL)
			return USAGE("-u %s: not a size (a number with an optional K, "
				     "M, G or T) nor auto (twice the RAM)", arg);
		return get_amount(id, arg, false, &o->total, e);
	case 'p':
		if (strcmp(arg, "auto") == 0) {
			o->threads_auto = true; /* counted in finish() */
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
	case OPT_VERIFY: o->verify = true; return 0;
	case OPT_RATE:
		o->rate_text = arg;
		return atio_cli_rate(arg, &o->rate, e);
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
 * -p auto and -u auto: one thread a CPU atio may run on (atio/base/node.h says
 * why the affinity mask), at most ATIO_MAX_THREADS; files of twice the
 * RAM together (MemTotal), so that the page cache cannot hold the dataset,
 * as seed 000's guide sizes its fio jobs. A node that does not say is an
 * error, not a default.
 */
static int size_by_node(struct atio_opts *o, struct atio_error *e)
{
	if (o->threads_auto) {
		o->node_cpus = atio_node_cpus();
		o->threads = o->node_cpus < ATIO_MAX_THREADS ? o->node_cpus : ATIO_MAX_THREADS;
	}
	if (o->total_auto) {
		o->node_mem_total = atio_node_meminfo("MemTotal");
		if (!o->node_mem_total)
			return atio_error_set(e, ATIO_EXIT_FAIL, ENOENT, "-u auto: cannot read "
					      "MemTotal from /proc/meminfo; give -u a size");
		o->total = 2 * o->node_mem_total;
	}
	return 0;
}

/*
 * The options --prepare refuses: they shape the measured run, and
 * --prepare runs none. Taking them silently would let a user believe the
 * fill was that test.
 */
static const int prepare_refuses[] = {
	'a', 't', 'w', 'q', 'S', OPT_MBS, OPT_IOPS, OPT_START_AT, OPT_REMOVE,
	OPT_KEEP_CACHE, OPT_ENGINE, OPT_IODEPTH, OPT_DSYNC, OPT_OSYNC, OPT_RATE, OPT_EXPAND,
	OPT_INTERVAL, OPT_IODEPTH_BATCH,
};

/* --dsync and --osync only with a mode that writes; --prepare without the run's options. */
static int check_sync_prepare(struct atio_opts *o, const struct pstate *st,
			      struct atio_error *e)
{
	char a[24];

	o->open_sync = st->osync == OPT_DSYNC ? ATIO_OPEN_DSYNC
		: st->osync == OPT_OSYNC ? ATIO_OPEN_OSYNC : ATIO_OPEN_PLAIN;
	if (st->osync && !atio_mode_writes(o->mode))
		return USAGE("%s: makes writes durable when they return; a --read test "
			     "writes nothing (use --write, --fsync or --fdatasync)",
			     optname(st->osync, a, sizeof(a)));
	if (!o->prepare)
		return 0;
	for (size_t i = 0; i < sizeof(prepare_refuses) / sizeof(prepare_refuses[0]); i++) {
		int id = prepare_refuses[i];

		if (st->seen[id])
			return USAGE("--prepare and %s%s%s: --prepare only makes and fills the "
				     "files and measures the fill; %s belongs to the test run",
				     optname(id, a, sizeof(a)), st->given[id] ? " " : "",
				     st->given[id] ? st->given[id] : "", a);
	}
	return 0;
}

/*
 * --check reads the dataset of -p, -n, -u and -f and checks every sector:
 * the options of a timed test mean nothing there, and are refused rather
 * than ignored. It reads with O_DIRECT unless --cached is given, so that
 * the device answers, not the page cache; -s is the size of its reads
 * (4M by default).
 */
static int check_opts(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	static const int timed[] = { 't', 'w', 'q', OPT_START_AT, OPT_ENGINE, OPT_IODEPTH,
				     OPT_SEED, OPT_RATE, OPT_INTERVAL, OPT_IODEPTH_BATCH };
	char a[24];

	for (size_t i = 0; i < sizeof(timed) / sizeof(timed[0]); i++)
		if (st->given[timed[i]])
			return USAGE("%s %s: --check reads the dataset once and times "
				     "nothing: leave %s out", optname(timed[i], a, sizeof(a)),
				     st->given[timed[i]], optname(timed[i], a, sizeof(a)));
	if (st->order || st->unit || o->skip_sync || o->remove || o->keep_cache ||
	    o->take_over || o->allow_device_write || !o->thp || o->settings_only ||
	    o->prepare || st->osync)
		return USAGE("--check with %s: --check takes only -p, -n, -u, -s, -f, "
			     "--cached or --uncached, --allow-memory-fs, --json and -v",
			     o->settings_only ? "-a" : o->prepare ? "--prepare"
			     : st->osync ? optname(st->osync, a, sizeof(a))
			     : st->order ? optname(st->order, a, sizeof(a))
			     : st->unit ? optname(st->unit, a, sizeof(a))
			     : o->skip_sync ? "-S" : o->remove ? "--remove"
			     : o->keep_cache ? "--keep-cache" : o->take_over ? "--take-over"
			     : o->allow_device_write ? "--allow-device-write" : "--no-thp");
	o->check = true;
	o->direct = st->cache != OPT_CACHED;
	o->random = false;
	o->unit = ATIO_UNIT_MBS;
	if (!st->bs)
		o->bs = 4u << 20;
	return 0;
}

/*
 * --rate N against the settings that turn it into one thread's interval
 * between two I/Os: the unit, the block size (MB/s), the writes per sync
 * (sync/s) and the threads. An interval below 1 ns cannot be scheduled by
 * any clock atio reads; one above an hour is almost surely a slip of the
 * unit. Sets o->rate_interval_ns.
 */
static int check_rate(struct atio_opts *o, struct atio_error *e)
{
	bool sync = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;
	double ns = atio_pace_interval_ns(o->rate, o->unit == ATIO_UNIT_MBS ? o->bs : 0,
					  sync ? o->qsync : 1, o->threads);

	if (ns < ATIO_PACE_MIN_NS)
		return USAGE("--rate %s: too high: %u thread(s) would each start an I/O every "
			     "%.3g ns, below the 1 ns a schedule can hold", o->rate_text,
			     o->threads, ns);
	if (ns > ATIO_PACE_MAX_NS)
		return USAGE("--rate %s: too low: %u thread(s) would each start an I/O every "
			     "%.3g s, more than an hour apart", o->rate_text, o->threads,
			     ns / 1e9);
	o->rate_interval_ns = ns;
	return 0;
}

/*
 * Once every option is known: turn the groups into settings, apply the
 * defaults that depend on other options, and judge the combinations. The
 * -u minimum: with n <= p files, k = ceil(p/n) threads share a file, so a
 * file (u/n rounded down to 4096) must hold k blocks rounded up to 4096;
 * with more files than threads, each file must hold one block.
 */
static int finish(struct atio_opts *o, const struct pstate *st,
		  struct atio_error *e)
{
	const struct atio_engine_ops *eng;
	const char *s = st->bs, *why = NULL;
	bool sync;
	uint64_t k, min, bs;
	char a[24], b[24], who[32] = "the thread";
	int r;

	o->mode = st->mode == OPT_WRITE ? ATIO_MODE_WRITE
		: st->mode == OPT_FSYNC ? ATIO_MODE_FSYNC
		: st->mode == OPT_FDATASYNC ? ATIO_MODE_FDATASYNC
		: st->mode == OPT_MIX ? ATIO_MODE_MIX
		: st->mode == OPT_EXPAND ? ATIO_MODE_EXPAND
		: ATIO_MODE_READ;
	sync = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;
	o->random = st->order == OPT_RAND;
	o->direct = st->cache == OPT_UNCACHED;
	o->unit = st->unit == OPT_IOPS || (!st->unit && o->random)
		? ATIO_UNIT_IOPS : ATIO_UNIT_MBS;
	if (!s)
		o->bs = o->random ? 4096 : 16ULL << 20;
	if ((r = size_by_node(o, e)) != 0)
		return r;
	if (!st->nfiles)
		o->nfiles = o->threads;
	o->nfiles_given = st->nfiles != NULL;
	o->total_given = st->total != NULL;
	if (st->mode == OPT_CHECK) {
		r = check_opts(o, st, e);
		if (r)
			return r;
	}

	if (s && o->bs < ATIO_MIN_BS)
		why = "at least 512";
	else if (s && o->bs > ATIO_MAX_BS)
		why = "at most 1G";
	else if (s && o->bs % ATIO_MIN_BS)
		why = "a multiple of 512";
	else if (s && o->direct && o->bs % ATIO_DIRECT_ALIGN)
		why = o->check && st->cache != OPT_UNCACHED ? "a multiple of 4096: --check "
		      "reads with O_DIRECT unless --cached is given" : "a multiple of 4096 with --uncached";
	if (why)
		return USAGE("-s %s: block size must be %s", s, why);
	/* --expand: each thread appends to files of its own, from start to end. */
	if (o->mode == ATIO_MODE_EXPAND && o->random)
		return USAGE("--expand --rand: --expand appends each file from zero to "
			     "its end, in order; it has no random pattern (drop --rand)");
	if (o->mode == ATIO_MODE_EXPAND && o->nfiles < o->threads)
		return USAGE("-n %u: --expand needs a file of its own for each of the %u "
			     "threads (-p %u), since threads appending to one file would "
			     "overwrite each other's ends: give -n %u or more",
			     o->nfiles, o->threads, o->threads, o->threads);
	if (st->qsync && !sync)
		return USAGE("-q %s: writes between syncs only apply to --fsync "
			     "and --fdatasync", st->qsync);
	if ((r = check_sync_prepare(o, st, e)) != 0)
		return r;
	eng = o->engine ? atio_engine_find(o->engine) : NULL;
	if (eng && o->iodepth > eng->max_iodepth)
		return USAGE("--iodepth %s: the %s engine runs one I/O at a "
			     "time; use --iodepth 1 or --engine io_uring or libaio",
			     st->iodepth, eng->name);
	if (o->iodepth_batch > o->iodepth)
		return USAGE("--iodepth-batch %s: more than the %u I/O(s) in flight "
			     "(--iodepth %u): give at most %u", st->given[OPT_IODEPTH_BATCH],
			     o->iodepth, o->iodepth, o->iodepth);
	o->iodepth_batch_auto = !o->iodepth_batch;

	/* --prepare without -s fills files for tests of any block size: 4K will do. */
	bs = o->prepare && !s ? ATIO_DIRECT_ALIGN : o->bs;
	k = o->nfiles <= o->threads ? (o->threads + o->nfiles - 1) / o->nfiles : 1;
	min = o->nfiles * ((k * bs + ATIO_DIRECT_ALIGN - 1) & ~(ATIO_DIRECT_ALIGN - 1));
	/* --check reads the files as they are, whatever the size of its reads. */
	if (o->total < min && !o->check) {
		atio_format_size(a, sizeof(a), bs);
		atio_format_size(b, sizeof(b), min);
		if (o->nfiles > o->threads)
			snprintf(who, sizeof(who), "each of %u files", o->nfiles);
		else if (o->threads > 1)
			snprintf(who, sizeof(who), "each of %u threads", o->threads);
		return USAGE("-u %s%s: too small: %s needs at least one %s block; "
			     "use -u %s or more", st->total ? st->total : "16G",
			     st->total ? "" : " (the default)", who, a, b);
	}
	if (o->rate_text && (r = check_rate(o, e)) != 0)
		return r;
	/*
	 * --verify: every block read checked; with writes, every block written
	 * read back after the run (atio/run/readback.h), never two I/Os of one
	 * block in flight (atio/run/genmap.h), so a thread needs a block for each
	 * I/O it may have in flight.
	 */
	if (o->verify && (o->prepare || o->check || o->mode == ATIO_MODE_EXPAND))
		return USAGE("--verify checks every block a test reads or writes%s",
			     o->check ? "; --check checks every block already"
			     : o->prepare ? "; --prepare fills the files and measures nothing"
			     : "; --expand truncates its files as it goes: check them with "
			       "--check after the run");
	if (o->verify && eng && eng->no_io &&
	    (!atio_mode_writes(o->mode) || o->mode == ATIO_MODE_MIX))
		return USAGE("--verify with --engine %s: that engine reads nothing to check",
			     eng->name);
	if (o->verify && atio_mode_writes(o->mode) && o->iodepth > 1 &&
	    atio_genmap_thread_blocks(o, false) < o->iodepth) {
		atio_format_size(a, sizeof(a), o->bs);
		return USAGE("--verify --iodepth %u: a thread has %llu block(s) of -s %s, "
			     "fewer than the I/Os it may have in flight; --verify never has "
			     "two of one block in flight: use a larger -u or a smaller "
			     "--iodepth", o->iodepth,
			     (unsigned long long)atio_genmap_thread_blocks(o, false), a);
	}
	/* An engine that touches no file (null) needs no -f. */
	if (!o->path && !o->settings_only && !(eng && eng->no_io))
		return USAGE("-f is missing: give the directory (or file-name "
			     "prefix) for the test files");
	return 0;
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
		c = getopt_long(argc, argv, shortopts, longopts, NULL);
		if (c == -1)
			break;
		if (c == ':')
			return USAGE("%s: needs a value (%s)",
				     optname(optopt, a, sizeof(a)), value_hint(optopt));
		if (c == '?' && optopt >= OPT_READ)
			return USAGE("%s: takes no value",
				     optname(optopt, a, sizeof(a)));
		if (c == '?' && optopt)
			return USAGE("-%c: unknown option", optopt);
		if (c == '?')
			return unknown_long(argv[optind - 1], e);
		arg = optarg;
		if (arg && !*arg)
			return USAGE("%s: the value is empty (%s)",
				     optname(c, a, sizeof(a)), value_hint(c));
		if ((r = apply(c, arg, o, &st, e)) != 0)
			return r;
	}
	if (optind < argc)
		return USAGE("%s: unexpected argument (every value belongs to "
			     "an option, e.g. -f PATH)", argv[optind]);
	r = finish(o, &st, e);
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
