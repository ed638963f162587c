/* SPDX-License-Identifier: MIT */
/* The option table: every long option atio takes, and how messages spell an option. */
#include <getopt.h>
#include <stdio.h>

#include "cli_parse.h"

/* See cli_parse.h: every long option, with its id. */
const struct option atio_cli_longopts[] = {
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
	/* --cap first: messages name the option by it (atio_cli_optname()). */
	{ "cap",        required_argument, NULL, OPT_RATE },
	{ "rate",       required_argument, NULL, OPT_RATE },
	{ "verify",     no_argument,       NULL, OPT_VERIFY },
	{ "expand",     no_argument,       NULL, OPT_EXPAND },
	{ "interval",   required_argument, NULL, OPT_INTERVAL },
	{ "iodepth-batch", required_argument, NULL, OPT_IODEPTH_BATCH },
	{ "backward",   no_argument,       NULL, OPT_BACKWARD },
	{ "stride",     required_argument, NULL, OPT_STRIDE },
	{ "dist",       required_argument, NULL, OPT_DIST },
	{ "delay",      required_argument, NULL, OPT_DELAY },
	{ "rewrite",    no_argument,       NULL, OPT_REWRITE },
	{ "fadvise",    required_argument, NULL, OPT_FADVISE },
	{ "compress",   required_argument, NULL, OPT_COMPRESS },
	{ "dedup",      required_argument, NULL, OPT_DEDUP },
	{ "dedup-unit", required_argument, NULL, OPT_DEDUP_UNIT },
	{ "size",       required_argument, NULL, OPT_SIZE },
	{ "loops",      required_argument, NULL, OPT_LOOPS },
	{ "steady",     required_argument, NULL, OPT_STEADY },
	{ "round",      required_argument, NULL, OPT_ROUND },
	{ "rounds",     required_argument, NULL, OPT_ROUNDS },
	{ "precondition", no_argument,     NULL, OPT_PRECONDITION },
	{ "all-rounds", no_argument,       NULL, OPT_ALL_ROUNDS },
	{ "arrivals",   required_argument, NULL, OPT_ARRIVALS },
	{ "meta",       required_argument, NULL, OPT_META },
	{ "files",      required_argument, NULL, OPT_FILES },
	{ "file-size",  required_argument, NULL, OPT_FILE_SIZE },
	{ "dirs",       required_argument, NULL, OPT_DIRS },
	{ "shared-dir", no_argument,       NULL, OPT_SHARED_DIR },
	{ "shared-by",  required_argument, NULL, OPT_SHARED_BY },
	{ "neighbour",  no_argument,       NULL, OPT_NEIGHBOUR },
	{ "neighbour-dir", required_argument, NULL, OPT_NEIGHBOUR_DIR },
	{ "fsync-files", no_argument,      NULL, OPT_FSYNC_FILES },
	{ "fsync-dir",  no_argument,       NULL, OPT_FSYNC_DIR },
	{ "figure",     required_argument, NULL, OPT_FIGURE },
	{ "percentiles", required_argument, NULL, OPT_PERCENTILES },
	{ "csv",        required_argument, NULL, OPT_CSV },
	{ NULL, 0, NULL, 0 },
};

/* See cli_parse.h. */
const char *atio_cli_optname(int id, char *buf, size_t len)
{
	for (const struct option *lo = atio_cli_longopts; lo->name; lo++)
		if (lo->val == id) {
			snprintf(buf, len, "--%s", lo->name);
			return buf;
		}
	snprintf(buf, len, "-%c", id);
	return buf;
}
