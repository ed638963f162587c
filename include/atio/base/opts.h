/* SPDX-License-Identifier: MIT */
#ifndef ATIO_OPTS_H
#define ATIO_OPTS_H

/*
 * The options of a run, as every layer reads them: the modes, the limits
 * and struct atio_opts, with what is said of them in words (names, the
 * canonical command line). Parsing them is atio/cli/cli.h's.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/base/meta_opts.h"

enum atio_mode {
	ATIO_MODE_READ,
	ATIO_MODE_WRITE,
	ATIO_MODE_FSYNC,           /* write, fsync() every -q writes */
	ATIO_MODE_FDATASYNC,       /* write, fdatasync() every -q writes */
	ATIO_MODE_MIX,             /* --mix R: each I/O a read with R% chance, else a write */
	ATIO_MODE_EXPAND,          /* --expand: append to files that grow from zero */
	ATIO_MODE_REWRITE,         /* --rewrite: read each block, then write it back in place */
};

/* How the files are opened for the run: each write durable when it returns. */
enum atio_open_sync {
	ATIO_OPEN_PLAIN,
	ATIO_OPEN_DSYNC,           /* --dsync: O_DSYNC, the data and what reads it need */
	ATIO_OPEN_OSYNC,           /* --osync: O_SYNC, also every metadata change */
};

/*
 * --fadvise: the access advice given to the kernel on each thread's share
 * of the files (posix_fadvise(2)) before the run; none gives none.
 */
enum atio_fadvise {
	ATIO_FADVISE_NONE,
	ATIO_FADVISE_NORMAL,       /* POSIX_FADV_NORMAL */
	ATIO_FADVISE_RANDOM,       /* POSIX_FADV_RANDOM */
	ATIO_FADVISE_SEQUENTIAL,   /* POSIX_FADV_SEQUENTIAL */
};

/* --steady: the figure SNIA's steady state judges (atio/stats/steady.h). */
enum atio_steady_kind {
	ATIO_STEADY_NONE,
	ATIO_STEADY_IOPS,
	ATIO_STEADY_MBS,
	ATIO_STEADY_LAT,           /* the mean latency of a round */
};

enum atio_unit {
	ATIO_UNIT_MBS,             /* MB/s, 2^20 bytes */
	ATIO_UNIT_IOPS,            /* IOPS; sync/s in the sync modes */
};

/*
 * --dist: how --rand spreads its I/Os over a thread's share (src/run/dist.c).
 * Uniform when not given.
 */
enum atio_dist_kind {
	ATIO_DIST_UNIFORM,
	ATIO_DIST_ZIPF,            /* zipf:THETA, ranks over a permutation of the blocks */
	ATIO_DIST_PARETO,          /* pareto:H, ranks over a permutation of the blocks */
	ATIO_DIST_NORMAL,          /* normal:SD%, around the middle of the share */
	ATIO_DIST_ZONES,           /* IO%/SIZE%:..., hot spots in the share's order */
};

#define ATIO_DIST_MAX_ZONES 32u
#define ATIO_DIST_MAX_TEXT 128u  /* characters of a --dist spec */

struct atio_dist_spec {
	enum atio_dist_kind kind;
	double arg;                /* zipf's THETA, pareto's H, normal's SD in % of the share */
	unsigned nzones;           /* zones: in the share's order, from its start */
	double zone_io[ATIO_DIST_MAX_ZONES];   /* % of the I/Os */
	double zone_size[ATIO_DIST_MAX_ZONES]; /* % of the share; their sum may be below 100 */
};

/*
 * -s with a mix of sizes: each I/O draws its size with the size's share of
 * the I/Os (src/run/sizes.c). n is 0 for a plain -s, when every I/O is -s.
 */
#define ATIO_BSMIX_MAX 16u
#define ATIO_BSMIX_MAX_TEXT 128u  /* characters of an -s mix */

struct atio_bsmix {
	unsigned n;                /* sizes, 0 for none */
	uint64_t size[ATIO_BSMIX_MAX];  /* bytes */
	double share[ATIO_BSMIX_MAX];   /* % of the I/Os; they add up to 100 */
};

/* Limits that make a value absurd rather than merely large. */
#define ATIO_MIN_BS        512ULL
#define ATIO_MAX_BS        (1ULL << 30)
#define ATIO_MAX_THREADS   4096u
#define ATIO_MAX_FILES     65536u
#define ATIO_MAX_QSYNC     (1u << 20)
#define ATIO_DIRECT_ALIGN  4096ULL
#define ATIO_MAX_IODEPTH   65536u
#define ATIO_INTERVAL_MIN_NS 100000000ULL /* --interval 0.1 */
#define ATIO_MAX_LOOPS     1000000u
#define ATIO_PCT_MAX       32u    /* points of a --percentiles list */

struct atio_opts {
	enum atio_mode mode;       /* --read --write --fsync --fdatasync */
	bool random;               /* --rand; --seq otherwise */
	bool backward;             /* --backward: --seq from the end of each share to its start */
	uint64_t stride;           /* --stride: bytes from one I/O's start to the next's; 0: -s */
	struct atio_dist_spec dist; /* --dist, with --rand */
	const char *dist_text;     /* --dist as given, NULL when not */
	bool direct;               /* --uncached (O_DIRECT); --cached otherwise */
	enum atio_unit unit;       /* --mbs --iops */
	uint64_t bs;               /* -s, bytes; with a mix, its largest size */
	/* -s with a mix: [0] every I/O's, or with --mix the reads'; [1] --mix's writes' */
	struct atio_bsmix bsmix[2];
	const char *bs_text;       /* -s as given when a mix, NULL otherwise */
	uint64_t bs_unit;          /* a mix: the sizes' greatest common divisor */
	unsigned threads;          /* -p */
	unsigned nfiles;           /* -n */
	uint64_t time_ns;          /* -t; 0: no time limit (--size or --loops without -t) */
	uint64_t warmup_ns;        /* -w */
	uint64_t delay_ns;         /* --delay: a job starts this long after its run */
	uint64_t total;            /* -u, bytes of all files together */
	unsigned qsync;            /* -q */
	bool skip_sync;            /* -S */
	const char *path;          /* -f */
	bool settings_only;        /* -a */
	int verbose;               /* -v count */
	bool json;                 /* --json */
	uint64_t seed;             /* --seed, or chosen at random */
	bool seed_given;
	int64_t start_at_ns;       /* --start-at, ns since the epoch, 0 if none */
	bool start_at_stdin;       /* --start-at -: read it from stdin when ready */
	bool remove;               /* --remove */
	bool keep_cache;           /* --keep-cache */
	bool thp;                  /* huge-page buffers; false with --no-thp */
	const char *engine;        /* --engine, NULL when not given */
	unsigned iodepth;          /* --iodepth */
	unsigned iodepth_batch;    /* --iodepth-batch, or chosen: atio_opts_batch() */
	bool iodepth_batch_auto;   /* chosen by atio, not given */
	bool take_over;            /* --take-over: rewrite files atio did not make */
	bool allow_memory_fs;      /* --allow-memory-fs: tmpfs, ramfs, devtmpfs */
	bool allow_device_write;   /* --allow-device-write: write tests on a device */
	bool total_given;          /* -u was given */
	bool nfiles_given;         /* -n was given */
	const char *fstype;        /* filesystem of -f, set by main; NULL if unknown */
	/* Write pools, set by main (plan_pool()); 0 in modes that do not write. */
	uint64_t pool_cover;       /* keystream bytes of each thread's pool (its windows) */
	uint64_t pool_share;       /* bytes of the largest thread's share of the files */
	/* --mix */
	unsigned mix;              /* --mix R: the read percentage, 1..99; 0 otherwise */
	/* Durable writes, sizing by the node, --prepare. */
	enum atio_open_sync open_sync; /* --dsync, --osync */
	bool threads_auto;         /* -p auto: threads = atio_node_cpus() */
	bool total_auto;           /* -u auto: total = twice MemTotal */
	unsigned node_cpus;        /* with -p auto: the CPUs counted */
	uint64_t node_mem_total;   /* with -u auto: MemTotal in bytes */
	bool prepare;              /* --prepare: make the files, measure the fill, exit */
	bool check;                /* --check: read the dataset and check every sector */
	/* --rate */
	double rate;               /* --rate N in the report's unit, 0 when not given */
	const char *rate_text;     /* N as given, for the command line; NULL if none */
	double rate_interval_ns;   /* one thread's time between two scheduled I/Os */
	bool arrivals_exponential; /* --arrivals exponential: random gaps of that mean */
	bool verify;               /* --verify: check every block read against its stamp */
	enum atio_fadvise fadvise; /* --fadvise, or its default (atio_cli_finish()) */
	bool fadvise_given;
	uint64_t interval_ns;      /* --interval: the length of an interval, 1 s by default */
	const char *interval_text; /* as given; NULL for the default */
	/* Reducible data (atio/data/reduce.h); 0 for none: incompressible and unique. */
	double compress;           /* --compress R: written data compresses to 1/R */
	double dedup;              /* --dedup R: one in R units of the data is unique */
	uint64_t dedup_unit;       /* --dedup-unit, bytes; 0 for the default 4 KiB */
	const char *compress_text; /* as given, NULL when not */
	const char *dedup_text;    /* as given, NULL when not */
	/* --size, --loops: ends of the measured time besides -t (atio/run/limits.h) */
	uint64_t size;             /* --size: bytes each thread moves; 0 when not given */
	uint64_t loops;            /* --loops: passes over each thread's share; 0 when not */
	/* --steady: a warm-up of rounds until steady (atio/stats/steady.h) */
	enum atio_steady_kind steady;
	uint64_t round_ns;         /* --round */
	unsigned rounds;           /* --rounds: at most this many */
	bool precondition;         /* --precondition: 2x the dataset in 128K writes first */
	bool all_rounds;           /* --all-rounds: every round run, steady or not */
	struct atio_meta_opts meta; /* --meta: a metadata run (meta.nphases > 0) */
	/* --percentiles: the points the text gives, ascending; npct 0 for the default */
	double pct[ATIO_PCT_MAX];
	unsigned npct;
	const char *pct_text;      /* as given, NULL when not */
	const char *csv;           /* --csv FILE ("-", "stdout": standard output), NULL when not */
};

/* Whether @o writes reducible data: --compress or --dedup. */
static inline bool atio_opts_reduced(const struct atio_opts *o)
{
	return o->compress > 1.0 || o->dedup > 1.0;
}

/*
 * What the data written is, in words for the header: "incompressible and
 * unique", or e.g. "compresses to 1/2 (zstd -1, gzip -1 on 4K chunks),
 * 1 in 4 units of 4K unique". Returns what snprintf returns.
 */
int atio_opts_data_text(char *buf, size_t len, const struct atio_opts *o);

/*
 * Write the canonical command line of @o, in at_io_iops' order, e.g.
 * "--read --seq -s 16M --mbs -p 1 -n 1 -t 60 --cached -u 16G -S", then
 * --dsync or --osync, --prepare and --fadvise when given. -p auto and -u auto are
 * written as "auto" (and -n, when it follows -p auto, left out), so that
 * the line sizes the test again on another node.
 * Returns what snprintf returns.
 */
int atio_opts_cmdline(char *buf, size_t len, const struct atio_opts *o);

/* Room for any command line atio_opts_cmdline() writes. */
#define ATIO_CMDLINE_MAX 2048

/*
 * Whether mode @m writes: every mode but --read. The options that only make
 * sense for writes (--dsync, --osync) ask this rather than list the modes.
 */
bool atio_mode_writes(enum atio_mode m);

/*
 * Whether mode @m counts reads and writes apart (--mix, --rewrite): each
 * direction has its figures beside the totals, which count both.
 */
bool atio_mode_two_way(enum atio_mode m);

/* "O_DSYNC", "O_SYNC", or NULL for a plain open. */
const char *atio_open_sync_flag(enum atio_open_sync s);

/* Names of the workload modes and the unit of the result line. */
const char *atio_mode_name(enum atio_mode m);       /* "read", "write", "fsync", "fdatasync",
                                                        "mix", "expand", "rewrite" */
const char *atio_fadvise_name(enum atio_fadvise a); /* "none", "normal", "random",
                                                        "sequential" */
const char *atio_unit_name(const struct atio_opts *o); /* "MB/s", "IOPS", "sync/s" */

/*
 * The unit of --verify's map and read-back (atio/run/genmap.h): with an -s
 * mix its sizes' greatest common divisor, else -s.
 */
static inline uint64_t atio_opts_unit(const struct atio_opts *o)
{
	return o->bsmix[0].n ? o->bs_unit : o->bs;
}

#endif
