/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CLI_H
#define ATIO_CLI_H

/*
 * Command line: at_io_iops options with their spellings and meanings, plus
 * atio's long options. Parsing never prints and never exits; errors come
 * back in a struct atio_error whose message names the bad value and the rule.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "atio/base/error.h"
#include "atio/base/opts.h"
#include "atio/base/units.h"

enum atio_cli_action {
	ATIO_CLI_RUN,
	ATIO_CLI_HELP,
	ATIO_CLI_VERSION,
};

/*
 * Parse argv into @o, apply the defaults that depend on other options
 * (block size and unit from --seq/--rand, -n from -p) and validate every
 * combination that can be judged without touching the filesystem. On
 * success returns the action to take (>= 0). On bad usage returns -EINVAL
 * with e->exit = ATIO_EXIT_USAGE and a message naming the value and the rule.
 * The seed is left for the caller to draw when none was given, and
 * --iodepth-batch, when not given, for atio_opts_batch() once the engine
 * is known.
 */
int atio_cli_parse(int argc, char **argv, struct atio_opts *o, struct atio_error *e);

/*
 * --iodepth-batch when not given: for random O_DIRECT I/O deeper than the
 * engine's @direct_batch, that many completions before the queue is
 * refilled, so that the device gets new requests in small system calls
 * rather than one large one after a burst of completions (see run_async()
 * in src/run/loop.c); else the whole depth. Sequential runs keep the whole
 * depth, since neighbouring requests sent in one call merge into larger
 * ones; so do runs through the page cache, where requests complete as they
 * are submitted. A batch that was given stays.
 */
void atio_opts_batch(struct atio_opts *o, unsigned direct_batch);

/*
 * Parse a --start-at instant @arg, seconds since the epoch with optional
 * decimals, between 2001 and 2200, into @ns. Returns 0, or -EINVAL with @e
 * filled (exit status 2) naming @arg.
 */
int atio_cli_start_at(const char *arg, int64_t *ns, struct atio_error *e);

/*
 * Parse a --rate value @arg: a number above 0, decimals allowed, digits
 * and one point only. Returns 0 with *@rate set, or -EINVAL with @e filled
 * (exit status 2) naming @arg.
 */
int atio_cli_rate(const char *arg, double *rate, struct atio_error *e);

/*
 * Whether @s is a number in plain digits with at most one point ("2",
 * "2.5", ".5"): strtod would also take "1e3", "0x10", "inf" and "nan",
 * more likely typing errors than the caps and ratios asked for.
 */
bool atio_cli_plain_decimal(const char *s);

/*
 * --percentiles LIST: points above 0 and below 100, plain decimals, comma
 * separated, ascending, at most ATIO_PCT_MAX, into o->pct and o->npct
 * (src/cli/cli_pct.c). A bad list is a usage error naming the point.
 */
int atio_cli_percentiles(const char *arg, struct atio_opts *o, struct atio_error *e);

/*
 * --csv FILE against the rest: it takes a run's figures, which -a,
 * --prepare and --check have none of, and "-" (stdout) takes stdout, which
 * --json takes too. Returns 0, or a usage error naming the value.
 */
int atio_cli_csv(const struct atio_opts *o, struct atio_error *e);

/*
 * --fadvise's value: random, sequential, normal or none (atio_fadvise_name()).
 * Returns 0, or -EINVAL with @e filled (bad usage) naming the value.
 */
int atio_cli_fadvise(const char *arg, enum atio_fadvise *a, struct atio_error *e);

/*
 * Parse a --dist value @arg into @d: zipf:THETA (0 < THETA <= 100),
 * pareto:H (0 < H < 1), normal:SD% (0 < SD <= 100, the % optional) or hot
 * spots IO%/SIZE%[:IO%/SIZE%...] with the rest of the I/Os, if any, on the
 * rest of the share. Returns 0, or -EINVAL with @e filled (exit status 2)
 * naming @arg.
 */
int atio_cli_dist(const char *arg, struct atio_dist_spec *d, struct atio_error *e);

/*
 * Parse an -s mix @arg (src/cli/cli_bsmix.c): SIZE[/SHARE],... by share of
 * the I/Os, a size without a share taking an even part of the rest; with
 * --mix READS:WRITES. Sets o->bsmix, o->bs_text, o->bs (the largest size)
 * and o->bs_unit (their greatest common divisor); one size for every I/O
 * is a plain -s. Returns 0, or -EINVAL with @e filled (exit status 2)
 * naming the bad value.
 */
int atio_cli_bsmix(const char *arg, struct atio_opts *o, struct atio_error *e);

/*
 * The bytes of an I/O on average: -s, or the mean of @o's mix (with --mix
 * READS:WRITES, weighted by the read percentage); --rate in MB/s is
 * counted with it.
 */
double atio_cli_bsmix_mean(const struct atio_opts *o);

/*
 * Parse a --size value @arg (bytes each thread moves, above 0, with K, M,
 * G or T) or a --loops value (passes, 1 to ATIO_MAX_LOOPS). Returns 0, or
 * -EINVAL with @e filled (exit status 2) naming @arg.
 */
int atio_cli_size(const char *arg, uint64_t *size, struct atio_error *e);
int atio_cli_loops(const char *arg, uint64_t *loops, struct atio_error *e);

/* Print the --help text to @f (src/cli/usage.c). */
void atio_cli_usage(FILE *f);

#endif
