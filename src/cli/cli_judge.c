/* SPDX-License-Identifier: MIT */
/*
 * The command line once every option is read: the defaults that depend on
 * other options, sizing by the node, and every combination judged that can
 * be judged before touching the filesystem (src/cli/cli_parse.h). Nothing
 * here prints and nothing exits.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/error.h"
#include "atio/base/node.h"
#include "atio/cli/cli.h"
#include "atio/engine/engine.h"
#include "atio/run/genmap.h"
#include "atio/run/pace.h"
#include "cli_parse.h"

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
	OPT_INTERVAL, OPT_IODEPTH_BATCH, OPT_DELAY, OPT_REWRITE, OPT_FADVISE, OPT_ARRIVALS,
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
			     atio_cli_optname(st->osync, a, sizeof(a)));
	if (!o->prepare)
		return 0;
	for (size_t i = 0; i < sizeof(prepare_refuses) / sizeof(prepare_refuses[0]); i++) {
		int id = prepare_refuses[i];

		if (st->seen[id])
			return USAGE("--prepare and %s%s%s: --prepare only makes and fills the "
				     "files and measures the fill; %s belongs to the test run",
				     atio_cli_optname(id, a, sizeof(a)), st->given[id] ? " " : "",
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
				     OPT_SEED, OPT_RATE, OPT_INTERVAL, OPT_IODEPTH_BATCH,
				     OPT_DELAY, OPT_FADVISE, OPT_ARRIVALS };
	char a[24];

	for (size_t i = 0; i < sizeof(timed) / sizeof(timed[0]); i++)
		if (st->given[timed[i]])
			return USAGE("%s %s: --check reads the dataset once and times "
				     "nothing: leave %s out", atio_cli_optname(timed[i], a, sizeof(a)),
				     st->given[timed[i]], atio_cli_optname(timed[i], a, sizeof(a)));
	if (st->order || st->unit || o->skip_sync || o->remove || o->keep_cache ||
	    o->take_over || o->allow_device_write || !o->thp || o->settings_only ||
	    o->prepare || st->osync)
		return USAGE("--check with %s: --check takes only -p, -n, -u, -s, -f, "
			     "--cached or --uncached, --allow-memory-fs, --json and -v",
			     o->settings_only ? "-a" : o->prepare ? "--prepare"
			     : st->osync ? atio_cli_optname(st->osync, a, sizeof(a))
			     : st->order ? atio_cli_optname(st->order, a, sizeof(a))
			     : st->unit ? atio_cli_optname(st->unit, a, sizeof(a))
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
 * --cap N (or --rate N) against the settings that turn it into one
 * thread's interval between two I/Os: the unit, the block size (MB/s), the
 * writes per sync (sync/s) and the threads. An interval below 1 ns cannot be scheduled by
 * any clock atio reads; one above an hour is almost surely a slip of the
 * unit. Sets o->rate_interval_ns.
 */
static int check_rate(struct atio_opts *o, struct atio_error *e)
{
	bool sync = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;
	double ns = atio_pace_interval_ns(o->rate, o->unit == ATIO_UNIT_MBS
					  ? (uint64_t)(atio_cli_bsmix_mean(o) + 0.5) : 0,
					  sync ? o->qsync : 1, o->threads);

	if (ns < ATIO_PACE_MIN_NS)
		return USAGE("--cap %s: too high: %u thread(s) would each start an I/O every "
			     "%.3g ns, below the 1 ns a schedule can hold", o->rate_text,
			     o->threads, ns);
	if (ns > ATIO_PACE_MAX_NS)
		return USAGE("--cap %s: too low: %u thread(s) would each start an I/O every "
			     "%.3g s, more than an hour apart", o->rate_text, o->threads,
			     ns / 1e9);
	o->rate_interval_ns = ns;
	return 0;
}

/*
 * --backward and --stride shape a sequential pass: with --rand there is no
 * pass to shape, --expand appends in order, and --check and --prepare read
 * and fill the files whole. A stride is a whole number of blocks, at least
 * one (a stride below -s would read parts of a block twice).
 */
static int check_order(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	const char *opt = st->seen[OPT_BACKWARD] ? "--backward" : "--stride";
	char a[24];

	if (!st->seen[OPT_BACKWARD] && !st->seen[OPT_STRIDE])
		return 0;
	if (o->random || o->mode == ATIO_MODE_EXPAND || o->check || o->prepare)
		return USAGE("%s with %s: it orders a sequential pass (--seq); %s has none",
			     opt, o->random ? "--rand" : o->mode == ATIO_MODE_EXPAND ? "--expand"
			     : o->check ? "--check" : "--prepare", o->random ? "--rand"
			     : o->mode == ATIO_MODE_EXPAND ? "--expand" : o->check ? "--check"
			     : "--prepare");
	if (o->stride && (o->stride < o->bs || o->stride % o->bs)) {
		atio_format_size(a, sizeof(a), o->bs);
		return USAGE("--stride %s: must be a whole number of blocks (-s %s): one "
			     "I/O's start to the next's", st->given[OPT_STRIDE], a);
	}
	if (o->stride == o->bs)
		o->stride = 0;
	return 0;
}

/*
 * --dist spreads --rand's draws: --seq has none, and --check, --prepare
 * and --expand go through the files in order.
 */
static int check_dist(const struct atio_opts *o, struct atio_error *e)
{
	if (!o->dist_text || o->random)
		return 0;
	if (o->check || o->prepare || o->mode == ATIO_MODE_EXPAND)
		return USAGE("--dist %s: %s goes through the files in order: leave --dist out",
			     o->dist_text, o->check ? "--check" : o->prepare ? "--prepare"
			     : "--expand");
	return USAGE("--dist %s: it spreads random offsets: give --rand", o->dist_text);
}

/*
 * --fadvise: advice on the page cache's use of the files, which --uncached
 * (O_DIRECT) does not use. Without it, none is given (doc/workloads.md, "Buffered
 * random reads").
 */
static int check_fadvise(struct atio_opts *o, struct atio_error *e)
{
	if (!o->fadvise_given)
		o->fadvise = ATIO_FADVISE_NONE;
	else if (o->direct && !o->check)
		return USAGE("--fadvise %s with --uncached: the advice is for the page cache, "
			     "which O_DIRECT bypasses: leave --fadvise out",
			     atio_fadvise_name(o->fadvise));
	return 0;
}

/*
 * See cli_parse.h. Once every option is known: turn the groups into settings, apply the
 * defaults that depend on other options, and judge the combinations. The
 * -u minimum: with n <= p files, k = ceil(p/n) threads share a file, so a
 * file (u/n rounded down to 4096) must hold k blocks rounded up to 4096;
 * with more files than threads, each file must hold one block.
 */
int atio_cli_finish(struct atio_opts *o, const struct pstate *st, struct atio_error *e)
{
	const struct atio_engine_ops *eng;
	const char *s = st->bs, *why = NULL;
	bool sync;
	uint64_t k, min, bs;
	char a[24], b[24], who[32] = "the thread";
	int r;

	/* --meta: a metadata run, judged apart; without it, its options refused (cli_meta.c). */
	if ((r = atio_cli_meta_judge(o, st, e)) != 0 || o->meta.nphases)
		return r;
	o->mode = st->mode == OPT_WRITE ? ATIO_MODE_WRITE
		: st->mode == OPT_FSYNC ? ATIO_MODE_FSYNC
		: st->mode == OPT_FDATASYNC ? ATIO_MODE_FDATASYNC
		: st->mode == OPT_MIX ? ATIO_MODE_MIX
		: st->mode == OPT_EXPAND ? ATIO_MODE_EXPAND
		: st->mode == OPT_REWRITE ? ATIO_MODE_REWRITE
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

	if ((r = atio_cli_bsmix_judge(o, st, e)) != 0)
		return r;
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
	if ((r = check_order(o, st, e)) != 0 || (r = check_dist(o, e)) != 0 ||
	    (r = check_fadvise(o, e)) != 0 ||
	    (r = atio_cli_reduce_judge(o, st, e)) != 0 ||
	    (r = atio_cli_limits_judge(o, st, e)) != 0 ||
	    (r = atio_cli_steady_judge(o, st, e)) != 0)
		return r;
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
	if (o->rate_text && o->mode == ATIO_MODE_REWRITE)
		return USAGE("--cap %s with --rewrite: a schedule paces single I/Os, and "
			     "--rewrite's write waits for its read: leave --cap out",
			     o->rate_text);
	if (o->rate_text && (r = check_rate(o, e)) != 0)
		return r;
	if (st->given[OPT_ARRIVALS] && !o->rate_text)
		return USAGE("--arrivals %s: spaces the I/Os of a cap: give --cap N too",
			     st->given[OPT_ARRIVALS]);
	if ((r = atio_cli_csv(o, e)) != 0)
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
	    (!atio_mode_writes(o->mode) || atio_mode_two_way(o->mode)))
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
