/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of src/cli/cli.c: size, time and number parsing, size formatting,
 * option defaults, every usage error, the canonical command line and the
 * --help text; --dsync, --osync, -p auto, -u auto (with src/base/node.c) and
 * --prepare.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/cli/cli.h"
#include "atio/base/node.h"

#define GiB (1ULL << 30)
#define MiB (1ULL << 20)
#define KiB (1ULL << 10)
#define NS  1000000000ULL

/* A writable argv built from a line; static so that o->path stays valid. */
static struct {
	int argc;
	char *argv[64];
	char buf[2048];
} args;

/*
 * Split @line at single spaces into args, after an argv[0] of "atio".
 * An empty line gives no option at all.
 */
static void split(const char *line)
{
	char *p;

	args.argc = 0;
	snprintf(args.buf, sizeof(args.buf), "atio %s", line);
	for (p = strtok(args.buf, " "); p; p = strtok(NULL, " "))
		args.argv[args.argc++] = p;
	args.argv[args.argc] = NULL;
}

/* Parse @line into @o and @e (cleared first), returning what parse does. */
static int parse(const char *line, struct atio_opts *o, struct atio_error *e)
{
	memset(e, 0, sizeof(*e));
	split(line);
	return atio_cli_parse(args.argc, args.argv, o, e);
}

/* Parse @line, which must succeed with a run action; fills @o. */
static void parse_ok(const char *line, struct atio_opts *o)
{
	struct atio_error e;
	int r = parse(line, o, &e);

	if (r != ATIO_CLI_RUN)
		fail_msg("\"%s\": returned %d: %s", line, r, e.msg);
}

/*
 * Parse @line, which must fail with exit status 2 and a message that
 * contains @want (the bad value, usually) and no "atio: " prefix.
 */
static void expect_error(const char *line, const char *want)
{
	struct atio_opts o;
	struct atio_error e;
	int r = parse(line, &o, &e);

	if (r >= 0)
		fail_msg("\"%s\": accepted, expected an error with \"%s\"",
			 line, want);
	assert_int_equal(e.exit, ATIO_EXIT_USAGE);
	if (!strstr(e.msg, want))
		fail_msg("\"%s\": message \"%s\" lacks \"%s\"", line, e.msg, want);
	if (strncmp(e.msg, "atio:", 5) == 0)
		fail_msg("\"%s\": message has a prefix: %s", line, e.msg);
}

/* Parse @line, which must fail with exactly the message @want. */
static void expect_message(const char *line, const char *want)
{
	struct atio_opts o;
	struct atio_error e;

	assert_true(parse(line, &o, &e) < 0);
	assert_int_equal(e.exit, ATIO_EXIT_USAGE);
	assert_string_equal(e.msg, want);
}

/* Parse @line and check that its canonical command line is @want. */
static void expect_cmdline(const char *line, const char *want)
{
	struct atio_opts o;
	char buf[256];
	int n;

	parse_ok(line, &o);
	n = atio_opts_cmdline(buf, sizeof(buf), &o);
	assert_string_equal(buf, want);
	assert_int_equal(n, (int)strlen(want));
}

static void test_parse_size_good(void **state)
{
	static const struct { const char *s; uint64_t v; } t[] = {
		{ "0", 0 }, { "1", 1 }, { "512", 512 }, { "007", 7 },
		{ "4K", 4 * KiB }, { "4k", 4 * KiB }, { "4KB", 4 * KiB },
		{ "4kb", 4 * KiB }, { "4KiB", 4 * KiB }, { "4kib", 4 * KiB },
		{ "16M", 16 * MiB }, { "16MiB", 16 * MiB }, { "1G", GiB },
		{ "3g", 3 * GiB }, { "1T", 1ULL << 40 }, { "512B", 512 },
		{ "1.5K", 1536 }, { "0.5M", 512 * KiB }, { "1.25G", 5 * GiB / 4 },
		{ "1.0K", 1024 }, { "2.500K", 2560 }, { "0.000", 0 },
		{ "0.000244140625M", 256 },           /* 2^-12 M, exactly */
		{ "16777215T", ((1ULL << 24) - 1) << 40 },
		{ "18446744073709551615", UINT64_MAX },
		{ "16383.75G", (16ULL << 40) - (1ULL << 28) },
		{ "0.00000095367431640625T", MiB },   /* 2^-20 T: 20 decimals */
		{ "0.000000000000000000000000000T", 0 },
		/* 13 * 2^-26 T: 26 decimals, more than 64 bits of them */
		{ "0.00000019371509552001953125T", 13 * 16 * KiB },
		/* 2^-26 T: 26 decimals, the most computed exactly */
		{ "0.00000001490116119384765625T", 16 * KiB },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t v = 12345;
		int r = atio_parse_size(t[i].s, &v);

		if (r != 0 || v != t[i].v)
			fail_msg("\"%s\": r=%d v=%llu, want %llu", t[i].s, r,
				 (unsigned long long)v, (unsigned long long)t[i].v);
	}
	(void)state;
}

static void test_parse_size_bad(void **state)
{
	static const char *const inval[] = {
		"", "4Q", "-1", "K", "4K4", " 4K", "4K ", "+4", "4.K", ".5K",
		"4iB", "4KK", "4Kx", "1e3", "nan", "inf", "0x10", "4 K", "4.",
		"4..5", "4,5K", "P", "4P", "4KBB", "4KiBx",
	};
	static const char *const range[] = {
		"17179869184T", "99999999999999999999", "16777216T",
		"18446744073709551616",
	};
	static const char *const frac[] = {
		"0.3K", "0.5", "1.0000001K",
		"0.1", "1.5", "0.00000000000000000000000001T",
		"0.0000000000000000000000000001T", "0.99999999999999999999999K",
		"1.00000000000000000000000000009765625", /* 2^-90, 35 decimals */
		/* 27 decimals: past what is computed exactly, refused */
		"0.000000022351741790771484375T",
	};

	for (size_t i = 0; i < sizeof(inval) / sizeof(inval[0]); i++) {
		uint64_t v = 77;
		int r = atio_parse_size(inval[i], &v);

		if (r != -EINVAL || v != 77)
			fail_msg("\"%s\": r=%d, want -EINVAL", inval[i], r);
	}
	for (size_t i = 0; i < sizeof(range) / sizeof(range[0]); i++) {
		uint64_t v = 77;
		int r = atio_parse_size(range[i], &v);

		if (r != -ERANGE || v != 77)
			fail_msg("\"%s\": r=%d, want -ERANGE", range[i], r);
	}
	for (size_t i = 0; i < sizeof(frac) / sizeof(frac[0]); i++) {
		uint64_t v = 77;
		int r = atio_parse_size(frac[i], &v);

		if (r != -EDOM || v != 77)
			fail_msg("\"%s\": r=%d, want -EDOM", frac[i], r);
	}
	(void)state;
}

static void test_parse_time(void **state)
{
	static const struct { const char *s; uint64_t ns; } good[] = {
		{ "60", 60 * NS }, { "0", 0 }, { "0.5", NS / 2 },
		{ "10s", 10 * NS }, { "1.5m", 90 * NS }, { "2h", 7200 * NS },
		{ "0.25s", NS / 4 }, { "0.000000001", 1 },
		{ "1.0000000009", NS }, { "0.001h", 3600 * NS / 1000 },
		{ "31622400", ATIO_MAX_TIME_NS }, { "8784h", ATIO_MAX_TIME_NS },
		{ "0.0000000001h", 360 }, { "0.0000000001m", 6 },
		{ "0.00000000099", 0 },
		{ "527040m", ATIO_MAX_TIME_NS }, { "007", 7 * NS },
	};
	static const char *const inval[] = {
		"", "-1", "-0.5", "nan", "inf", "1e3", "1d", "1H", "1M", "1.s",
		" 1", "1 ", "1ms", "+1", ".5", "1.", "s", "1ss", "0x1",
	};
	static const char *const range[] = {
		"31622401", "8784.001h", "527041m", "99999999999999999999",
		"18446744073709551616s", "31622400.000000001",
		"18446744074",       /* times 10^9 wraps to a small number */
		"307445734562m", "5124095576h",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uint64_t ns = 99;
		int r = atio_parse_time(good[i].s, &ns);

		if (r != 0 || ns != good[i].ns)
			fail_msg("\"%s\": r=%d ns=%llu, want %llu", good[i].s, r,
				 (unsigned long long)ns,
				 (unsigned long long)good[i].ns);
	}
	for (size_t i = 0; i < sizeof(inval) / sizeof(inval[0]); i++) {
		uint64_t ns = 99;

		if (atio_parse_time(inval[i], &ns) != -EINVAL || ns != 99)
			fail_msg("\"%s\": want -EINVAL", inval[i]);
	}
	for (size_t i = 0; i < sizeof(range) / sizeof(range[0]); i++) {
		uint64_t ns = 99;

		if (atio_parse_time(range[i], &ns) != -ERANGE || ns != 99)
			fail_msg("\"%s\": want -ERANGE", range[i]);
	}
	(void)state;
}

static void test_parse_uint(void **state)
{
	uint64_t v = 0;

	assert_int_equal(atio_parse_uint("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(atio_parse_uint("4096", 1, 4096, &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(atio_parse_uint("0042", 1, 100, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(atio_parse_uint("18446744073709551615", 0, UINT64_MAX,
					 &v), 0);
	assert_true(v == UINT64_MAX);
	v = 5;
	assert_int_equal(atio_parse_uint("4097", 1, 4096, &v), -ERANGE);
	assert_int_equal(atio_parse_uint("0", 1, 4096, &v), -ERANGE);
	assert_int_equal(atio_parse_uint("18446744073709551616", 0, UINT64_MAX,
					 &v), -ERANGE);
	assert_int_equal(atio_parse_uint("", 0, 10, &v), -EINVAL);
	assert_int_equal(atio_parse_uint("abc", 0, 10, &v), -EINVAL);
	assert_int_equal(atio_parse_uint("1.0", 0, 10, &v), -EINVAL);
	assert_int_equal(atio_parse_uint("-1", 0, 10, &v), -EINVAL);
	assert_int_equal(atio_parse_uint("+1", 0, 10, &v), -EINVAL);
	assert_int_equal(atio_parse_uint(" 1", 0, 10, &v), -EINVAL);
	assert_int_equal(atio_parse_uint("1K", 0, 10000, &v), -EINVAL);
	assert_int_equal(v, 5);
	(void)state;
}

static void test_format_size(void **state)
{
	static const struct { uint64_t v; const char *s; } t[] = {
		{ 0, "0" }, { 1, "1" }, { 512, "512" }, { 1536, "1536" },
		{ 4096, "4K" }, { 16 * MiB, "16M" }, { 3 * GiB, "3G" },
		{ 3 * MiB / 2, "1536K" }, { 1ULL << 40, "1T" },
		{ 1ULL << 50, "1024T" }, { (1ULL << 40) + 1024, "1073741825K" },
		{ UINT64_MAX, "18446744073709551615" }, { 16 * GiB, "16G" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int n = atio_format_size(buf, sizeof(buf), t[i].v);

		assert_string_equal(buf, t[i].s);
		assert_int_equal(n, (int)strlen(t[i].s));
	}
	/* Truncation behaves like snprintf: the full length is returned. */
	assert_int_equal(atio_format_size(buf, 3, 16 * MiB), 3);
	assert_string_equal(buf, "16");
	(void)state;
}

static void test_format_size_round_trip(void **state)
{
	static const uint64_t mult[] = { 1, 3, 5, 7, 512, 1023, 1025, 4095, 65537 };
	char buf[32];
	unsigned count = 0;

	for (unsigned shift = 0; shift < 64; shift++)
		for (size_t m = 0; m < sizeof(mult) / sizeof(mult[0]); m++) {
			uint64_t x = mult[m] << shift;

			if (x >> shift != mult[m])
				continue;        /* overflowed */
			for (int d = -1; d <= 1; d++) {
				uint64_t y = x + (uint64_t)(int64_t)d, back = 0;

				atio_format_size(buf, sizeof(buf), y);
				if (atio_parse_size(buf, &back) != 0 || back != y)
					fail_msg("%llu -> \"%s\" -> %llu",
						 (unsigned long long)y, buf,
						 (unsigned long long)back);
				count++;
			}
		}
	assert_true(count > 1000);
	(void)state;
}

static void test_defaults_seq(void **state)
{
	struct atio_opts o;
	struct atio_error e;

	assert_int_equal(parse("-f /mnt/dir", &o, &e), ATIO_CLI_RUN);
	assert_int_equal(o.mode, ATIO_MODE_READ);
	assert_false(o.random);
	assert_false(o.direct);
	assert_int_equal(o.unit, ATIO_UNIT_MBS);
	assert_true(o.bs == 16 * MiB);
	assert_int_equal(o.threads, 1);
	assert_int_equal(o.nfiles, 1);
	assert_true(o.time_ns == 60 * NS);
	assert_true(o.warmup_ns == 0);
	assert_true(o.total == 16 * GiB);
	assert_int_equal(o.qsync, 1);
	assert_false(o.skip_sync);
	assert_string_equal(o.path, "/mnt/dir");
	assert_false(o.settings_only);
	assert_int_equal(o.verbose, 0);
	assert_false(o.json);
	assert_false(o.seed_given);
	assert_true(o.start_at_ns == 0);
	assert_false(o.remove);
	assert_false(o.keep_cache);
	assert_true(o.thp);
	assert_null(o.engine);
	assert_int_equal(o.iodepth, 1);
	assert_string_equal(atio_unit_name(&o), "MB/s");

	parse_ok("--seq -p 8 -f d", &o);
	assert_int_equal(o.nfiles, 8);
	assert_true(o.bs == 16 * MiB);
	parse_ok("--seq --iops -f d", &o);
	assert_int_equal(o.unit, ATIO_UNIT_IOPS);
	(void)state;
}

static void test_defaults_rand(void **state)
{
	struct atio_opts o;

	parse_ok("--rand -p 16 -f d", &o);
	assert_true(o.random);
	assert_true(o.bs == 4096);
	assert_int_equal(o.unit, ATIO_UNIT_IOPS);
	assert_string_equal(atio_unit_name(&o), "IOPS");
	assert_int_equal(o.threads, 16);
	assert_int_equal(o.nfiles, 16);
	parse_ok("--rand --mbs -p 16 -n 2 -f d", &o);
	assert_int_equal(o.unit, ATIO_UNIT_MBS);
	assert_int_equal(o.nfiles, 2);
	parse_ok("--rand -s 64K -f d", &o);
	assert_true(o.bs == 64 * KiB);
	(void)state;
}

static void test_names(void **state)
{
	struct atio_opts o;

	assert_string_equal(atio_mode_name(ATIO_MODE_READ), "read");
	assert_string_equal(atio_mode_name(ATIO_MODE_WRITE), "write");
	assert_string_equal(atio_mode_name(ATIO_MODE_FSYNC), "fsync");
	assert_string_equal(atio_mode_name(ATIO_MODE_FDATASYNC), "fdatasync");
	parse_ok("--fsync --rand -f d", &o);
	assert_int_equal(o.mode, ATIO_MODE_FSYNC);
	assert_string_equal(atio_unit_name(&o), "sync/s");
	parse_ok("--fdatasync --iops -f d", &o);
	assert_int_equal(o.mode, ATIO_MODE_FDATASYNC);
	assert_string_equal(atio_unit_name(&o), "sync/s");
	parse_ok("--fdatasync -f d", &o);
	assert_string_equal(atio_unit_name(&o), "MB/s");
	parse_ok("--write --iops -f d", &o);
	assert_int_equal(o.mode, ATIO_MODE_WRITE);
	assert_string_equal(atio_unit_name(&o), "IOPS");
	(void)state;
}

static void test_contradictions(void **state)
{
	struct atio_opts o;

	expect_message("--read --write -f d",
		       "--read and --write are contradictory: choose one workload");
	expect_error("--write --read -f d", "--write and --read are contradictory");
	expect_error("--fsync --fdatasync -f d", "--fsync and --fdatasync");
	expect_error("--read --fsync -f d", "--read and --fsync");
	expect_error("--write -f d --fdatasync", "--write and --fdatasync");
	expect_error("--seq --rand -f d", "--seq and --rand are contradictory");
	expect_error("--rand -f d --seq", "--rand and --seq are contradictory");
	expect_error("--mbs --iops -f d", "--mbs and --iops are contradictory");
	expect_error("--cached --uncached -f d",
		     "--cached and --uncached are contradictory");
	/* The same option twice is no contradiction. */
	parse_ok("--write --write --rand --rand --iops --iops "
		 "--uncached --uncached -f d", &o);
	assert_int_equal(o.mode, ATIO_MODE_WRITE);
	assert_true(o.random && o.direct);
	assert_int_equal(o.unit, ATIO_UNIT_IOPS);
	(void)state;
}

/* An option with a value given twice is refused, whatever the values. */
static void test_repeated_options(void **state)
{
	struct atio_opts o;

	expect_message("-p 2 -p 3 -f d", "-p given twice (2 and 3): give it once");
	expect_error("-s 4K -s 8K -f d", "-s given twice (4K and 8K)");
	expect_error("--seed 1 --seed 2 -f d", "--seed given twice (1 and 2)");
	expect_error("--seed=1 --seed 1 -f d", "--seed given twice (1 and 1)");
	expect_error("-f a -f b", "-f given twice (a and b)");
	expect_error("-u 1G -t 5 -u 2G -f d", "-u given twice");
	expect_error("-t 5 -t 6 -f d", "-t given twice");
	expect_error("-w 1 -w 1 -f d", "-w given twice");
	expect_error("-n 2 -n 3 -f d", "-n given twice");
	expect_error("--fsync -q 2 -q 3 -f d", "-q given twice");
	expect_error("--engine sync --engine null -f d", "--engine given twice");
	expect_error("--iodepth 2 --iodepth 4 -f d", "--iodepth given twice");
	expect_error("--start-at 2000000000 --start-at 2000000001 -f d",
		     "--start-at given twice");
	/* Flags may repeat; -v counts. */
	parse_ok("-v -v --remove --remove --json --json -f d", &o);
	assert_int_equal(o.verbose, 2);
	(void)state;
}

static void test_value_errors(void **state)
{
	expect_message("-p 0 -f d", "-p 0: number of threads must be between 1 and 4096");
	expect_error("-p 4097 -f d", "-p 4097");
	expect_error("-p abc -f d", "-p abc");
	expect_error("-p -1 -f d", "-p -1");
	expect_error("-p 1.5 -f d", "-p 1.5");
	expect_error("-n 0 -f d", "-n 0: number of files must be between 1 and 65536");
	expect_error("-n 65537 -f d", "-n 65537");
	expect_error("--fsync -q 0 -f d", "-q 0");
	expect_error("--fsync -q 1048577 -f d", "-q 1048577");
	expect_error("-t 0 -f d", "-t 0: test time must be more than 0");
	expect_error("-t 0s -f d", "-t 0s");
	expect_error("-t -5 -f d", "-t -5: a time cannot be negative");
	expect_error("-t abc -f d", "-t abc: not a time");
	expect_error("-t 1e3 -f d", "-t 1e3");
	expect_error("-t nan -f d", "-t nan");
	expect_error("-t 8785h -f d", "-t 8785h: too long");
	expect_error("-w -1 -f d", "-w -1: a time cannot be negative");
	expect_error("-w 400d -f d", "-w 400d");
	expect_error("-w 9000h -f d", "-w 9000h");
	expect_error("-s 4Q -f d", "-s 4Q: not a size");
	expect_error("-s 0.3K -f d", "-s 0.3K: not a whole number of bytes");
	expect_error("-s 17179869184T -f d", "-s 17179869184T: too large");
	expect_message("-s 100 -f d", "-s 100: block size must be at least 512");
	expect_message("-s 0 -f d", "-s 0: block size must be at least 512");
	expect_message("-s 1000 -f d", "-s 1000: block size must be a multiple of 512");
	expect_message("-s 2G -f d", "-s 2G: block size must be at most 1G");
	expect_error("-s 1073742336 -f d", "-s 1073742336: block size must be at most 1G");
	expect_error("-u 4Q -f d", "-u 4Q: not a size");
	expect_error("-u 99999999999999999999 -f d", "-u 99999999999999999999");
	expect_error("--seed -1 -f d", "--seed -1");
	expect_error("--seed 18446744073709551616 -f d", "--seed 18446744073709551616");
	expect_error("--seed x -f d", "--seed x");
	expect_error("--iodepth 0 -f d", "--iodepth 0");
	expect_error("--iodepth 65537 -f d", "--iodepth 65537");
	/* The null engine touches no file: -f is not needed. */
	{
		struct atio_opts o;

		parse_ok("--engine null --rand", &o);
		assert_null(o.path);
	}
	expect_error("--engine sync --rand", "-f is missing");
	expect_error("--engine sync --iodepth 2 -f d",
		     "--iodepth 2: the sync engine runs one I/O at a time");
	expect_error("--engine null --iodepth 64 -f d", "--iodepth 64: the null engine");
	expect_error("--engine foo -f d", "--engine foo: unknown engine (atio has sync, io_uring, libaio and null");
	expect_error("--engine=io_urin -f d", "--engine io_urin: unknown engine");
	expect_error("--start-at 5 -f d", "--start-at 5");
	expect_error("--start-at 978307199 -f d", "--start-at 978307199");
	expect_error("--start-at 7289654400 -f d", "--start-at 7289654400");
	expect_error("--start-at 1700000000000 -f d", "--start-at 1700000000000");
	expect_error("--start-at abc -f d", "--start-at abc");
	expect_error("--start-at -1 -f d", "--start-at -1");
	(void)state;
}

static void test_option_errors(void **state)
{
	expect_message("--foo -f d", "--foo: unknown option");
	expect_message("--foo=bar -f d", "--foo: unknown option");
	expect_message("-x -f d", "-x: unknown option");
	expect_message("-vx -f d", "-x: unknown option");
	expect_message("--read=yes -f d", "--read: takes no value");
	/* Ambiguous prefixes are unknown, with a suggestion. */
	expect_error("--re -f d", "--re: unknown option (did you mean --");
	expect_error("-f d -s", "-s: needs a value (");
	expect_error("-f d --engine", "--engine: needs a value (");
	expect_error("-f", "-f: needs a value (");
	expect_error("-f d --start-at", "--start-at: needs a value");
	expect_error("-f d stray", "stray: unexpected argument");
	expect_error("stray -f d", "stray: unexpected argument");
	expect_error("-f d -s 4 K", "K: unexpected argument");
	expect_error("-f d -- -s", "-s: unexpected argument");
	expect_message("--read",
		       "-f is missing: give the directory (or file-name prefix) for the test files");
	expect_error("", "-f is missing");
	(void)state;
}

/* Empty values cannot come from split(): build the argv by hand. */
static void test_empty_values(void **state)
{
	static const char *const cases[][3] = {
		{ "-f", "", "-f: the value is empty" },
		{ "-s", "", "-s: the value is empty" },
		{ "-t", "", "-t: the value is empty" },
		{ "--engine", "", "--engine: the value is empty" },
		{ "--engine=", NULL, "--engine: the value is empty" },
		{ "--seed=", NULL, "--seed: the value is empty" },
		{ "-p", "", "-p: the value is empty" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char a0[] = "atio", a1[32], a2[32], f[] = "-f", d[] = "d";
		char *argv[] = { a0, f, d, a1, a2, NULL };
		int argc = cases[i][1] ? 5 : 4;
		struct atio_opts o;
		struct atio_error e = { 0 };

		snprintf(a1, sizeof(a1), "%s", cases[i][0]);
		snprintf(a2, sizeof(a2), "%s", cases[i][1] ? cases[i][1] : "");
		if (!cases[i][1])
			argv[4] = NULL;
		assert_true(atio_cli_parse(argc, argv, &o, &e) < 0);
		assert_int_equal(e.exit, ATIO_EXIT_USAGE);
		if (!strstr(e.msg, cases[i][2]))
			fail_msg("%s '%s': %s", cases[i][0],
				 cases[i][1] ? cases[i][1] : "(attached)", e.msg);
	}
	(void)state;
}

static void test_qsync(void **state)
{
	struct atio_opts o;

	expect_message("-q 32 -f d",
		       "-q 32: writes between syncs only apply to --fsync and --fdatasync");
	expect_error("--write -q 4 -f d", "-q 4");
	expect_error("--read -q 1 -f d", "-q 1");
	parse_ok("--fsync --rand -q 32 -f d", &o);
	assert_int_equal(o.qsync, 32);
	parse_ok("-q 1048576 --fdatasync -f d", &o);
	assert_int_equal(o.qsync, 1048576);
	parse_ok("--fsync -f d", &o);
	assert_int_equal(o.qsync, 1);
	(void)state;
}

/* Exactly the minimum -u passes; one 4096 less fails and names both. */
static void test_total_minimum(void **state)
{
	static const struct {
		const char *opts;
		uint64_t min;
		const char *msg;
	} t[] = {
		/* 4 threads, 4 files of one 16M block each */
		{ "-p 4", 64 * MiB, "each of 4 threads needs at least one 16M block; use -u 64M or more" },
		/* 4 threads on 2 files: 2 blocks a file */
		{ "-p 4 -n 2", 64 * MiB, "each of 4 threads needs at least one 16M block" },
		/* 5 threads on 2 files: 3 blocks a file */
		{ "-p 5 -n 2", 96 * MiB, "use -u 96M or more" },
		/* more files than threads: a block a file */
		{ "-p 2 -n 8 --rand", 32 * KiB, "each of 8 files needs at least one 4K block" },
		/* 512-byte blocks: a file is at least 4096 */
		{ "-p 3 -n 2 -s 512", 8 * KiB, "one 512 block; use -u 8K or more" },
		{ "-p 1 -s 1G", GiB, "use -u 1G or more" },
	};
	char line[128], num[32];
	struct atio_opts o;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(line, sizeof(line), "%s -u %llu -f d", t[i].opts,
			 (unsigned long long)t[i].min);
		parse_ok(line, &o);
		assert_true(o.total == t[i].min);
		snprintf(num, sizeof(num), "-u %llu: too small: ",
			 (unsigned long long)(t[i].min - 4096));
		snprintf(line, sizeof(line), "%s -u %llu -f d", t[i].opts,
			 (unsigned long long)(t[i].min - 4096));
		expect_error(line, num);
		expect_error(line, t[i].msg);
	}
	expect_message("-u 4M -f d",
		       "-u 4M: too small: the thread needs at least one 16M block; use -u 16M or more");
	expect_message("-p 4 -u 1M -f d",
		       "-u 1M: too small: each of 4 threads needs at least one 16M block; use -u 64M or more");
	/* The default -u is named as such when it is what is too small. */
	expect_error("-p 4096 -f d", "-u 16G (the default): too small");
	/* -u is judged with the final -s and --rand, whatever the order. */
	expect_error("-u 1M -p 4 --rand -s 512K -f d", "use -u 2M or more");
	(void)state;
}

static void test_uncached(void **state)
{
	struct atio_opts o;

	expect_message("-s 3K --uncached -f d",
		       "-s 3K: block size must be a multiple of 4096 with --uncached");
	expect_message("--uncached -s 3K -f d",
		       "-s 3K: block size must be a multiple of 4096 with --uncached");
	expect_error("--uncached -s 512 -f d", "-s 512: block size must be a multiple of 4096");
	parse_ok("-s 3K -f d", &o);
	assert_true(o.bs == 3 * KiB);
	parse_ok("--uncached -s 8K -f d", &o);
	assert_true(o.direct);
	parse_ok("--uncached --rand -f d", &o);
	assert_true(o.bs == 4096);
	(void)state;
}

static void test_cmdline(void **state)
{
	char buf[256];
	struct atio_opts o;

	expect_cmdline("-f /mnt/dir", "--read --seq -s 16M --mbs -p 1 -n 1 -t 60 --cached -u 16G");
	/* The guide's five command lines, in at_io_iops' canonical order. */
	expect_cmdline("--read --seq -s 16M --mbs -p 4 -t 30 -u 16G -S --cached -f /mnt/dir",
		       "--read --seq -s 16M --mbs -p 4 -n 4 -t 30 --cached -u 16G -S");
	expect_cmdline("--write --seq -s 16M --mbs -p 4 -t 30 -u 16G -S --cached -f /mnt/dir",
		       "--write --seq -s 16M --mbs -p 4 -n 4 -t 30 --cached -u 16G -S");
	expect_cmdline("--read --rand -s 4K --iops -p 16 -t 30 -u 16G -S --cached -f /mnt/dir",
		       "--read --rand -s 4K --iops -p 16 -n 16 -t 30 --cached -u 16G -S");
	expect_cmdline("--fdatasync --rand -s 4K --iops -p 16 -t 30 -u 16G -S --cached -f /mnt/dir",
		       "--fdatasync --rand -s 4K -q 1 --iops -p 16 -n 16 -t 30 --cached -u 16G -S");
	expect_cmdline("--fsync --rand -s 4K -q 32 --iops -p 16 -t 30 -u 16G -S --cached -f /mnt/dir",
		       "--fsync --rand -s 4K -q 32 --iops -p 16 -n 16 -t 30 --cached -u 16G -S");
	/* at_io_iops' own -a line renders as itself. */
	expect_cmdline("-a --read --seq -s 16M --mbs -p 1 -n 1 -t 1 --cached -u 16G -S",
		       "-a --read --seq -s 16M --mbs -p 1 -n 1 -t 1 --cached -u 16G -S");
	expect_cmdline("--rand -t 0.5 -w 1.25 -s 1.5M --uncached -u 3G -f d",
		       "--read --rand -s 1536K --iops -p 1 -n 1 -t 0.5 -w 1.25 --uncached -u 3G");
	expect_cmdline("-t 2m -w 1h -u 1536M -f d",
		       "--read --seq -s 16M --mbs -p 1 -n 1 -t 120 -w 3600 --cached -u 1536M");
	expect_cmdline("-t 0.0005 -w 0.1234 -f d",
		       "--read --seq -s 16M --mbs -p 1 -n 1 -t 0.0005 -w 0.1234 --cached -u 16G");
	expect_cmdline("-t 1.0004 -w 0.0000001 -f d",
		       "--read --seq -s 16M --mbs -p 1 -n 1 -t 1.0004 -w 0.0000001 --cached -u 16G");
	/* The times are the ones that will run, to the nanosecond, not rounded. */
	expect_cmdline("-t 0.0004 -w 0.000000001 -f d",
		       "--read --seq -s 16M --mbs -p 1 -n 1 -t 0.0004 -w 0.000000001 --cached -u 16G");
	expect_cmdline("-t 59.9996 -w 2.0625 -f d",
		       "--read --seq -s 16M --mbs -p 1 -n 1 -t 59.9996 -w 2.0625 --cached -u 16G");
	/*
	 * atio's own options that change the test follow the at_io_iops line;
	 * those of the output and of the target stay out of it.
	 */
	expect_cmdline("--json --seed 7 --remove --keep-cache -v --engine sync -f d",
		       "--read --seq -s 16M --mbs -p 1 -n 1 -t 60 --cached -u 16G "
		       "--engine sync --keep-cache --seed 7");
	/* snprintf semantics on a short buffer */
	parse_ok("-f d", &o);
	assert_int_equal(atio_opts_cmdline(buf, 8, &o),
			 (int)strlen("--read --seq -s 16M --mbs -p 1 -n 1 -t 60 --cached -u 16G"));
	assert_string_equal(buf, "--read ");
	(void)state;
}

static void test_settings_only(void **state)
{
	struct atio_opts o;

	parse_ok("-a", &o);
	assert_true(o.settings_only);
	assert_null(o.path);
	parse_ok("-a -f /mnt/dir", &o);
	assert_string_equal(o.path, "/mnt/dir");
	/* -a does not excuse other mistakes */
	expect_error("-a -s 3", "-s 3");
	expect_error("-a -q 2", "-q 2");
	(void)state;
}

static void test_actions(void **state)
{
	struct atio_opts o;
	struct atio_error e;

	assert_int_equal(parse("--help", &o, &e), ATIO_CLI_HELP);
	assert_int_equal(parse("-h", &o, &e), ATIO_CLI_HELP);
	assert_int_equal(parse("-f d -p 4 --help", &o, &e), ATIO_CLI_HELP);
	assert_int_equal(parse("--help --bogus", &o, &e), ATIO_CLI_HELP);
	assert_int_equal(parse("--version", &o, &e), ATIO_CLI_VERSION);
	assert_int_equal(parse("-V", &o, &e), ATIO_CLI_VERSION);
	assert_int_equal(parse("-vV", &o, &e), ATIO_CLI_VERSION);
	/* help needs no -f */
	assert_int_equal(parse("--rand -h", &o, &e), ATIO_CLI_HELP);
	/* an error before --help still counts */
	assert_true(parse("-p 0 --help", &o, &e) < 0);
	(void)state;
}

static void test_misc_options(void **state)
{
	struct atio_opts o;

	parse_ok("-v -f d", &o);
	assert_int_equal(o.verbose, 1);
	parse_ok("-v -vv -f d", &o);
	assert_int_equal(o.verbose, 3);
	parse_ok("-vvvv -v -f d", &o);
	assert_int_equal(o.verbose, 3);
	parse_ok("--seed 0 -f d", &o);
	assert_true(o.seed_given);
	assert_true(o.seed == 0);
	parse_ok("--seed 18446744073709551615 -f d", &o);
	assert_true(o.seed == UINT64_MAX);
	parse_ok("--start-at 1700000000.5 -f d", &o);
	assert_true(o.start_at_ns == 1700000000500000000LL);
	parse_ok("--start-at 978307200 -f d", &o);
	assert_true(o.start_at_ns == 978307200LL * (int64_t)NS);
	parse_ok("--start-at 7289654399.999999999 -f d", &o);
	assert_true(o.start_at_ns == 7289654399999999999LL);
	parse_ok("--json --remove --keep-cache -S -w 0 -f d", &o);
	assert_true(o.json && o.remove && o.keep_cache && o.skip_sync);
	assert_true(o.thp);
	parse_ok("--no-thp -f d", &o);
	assert_false(o.thp);
	assert_true(o.warmup_ns == 0);
	(void)state;
}

/* The options that let atio go where it refuses to by default. */
static void test_safety_options(void **state)
{
	struct atio_opts o;

	parse_ok("-f d", &o);
	assert_false(o.take_over || o.allow_memory_fs || o.allow_device_write);
	assert_false(o.total_given || o.nfiles_given);
	assert_null(o.fstype);
	parse_ok("--take-over -f d", &o);
	assert_true(o.take_over);
	assert_false(o.allow_memory_fs || o.allow_device_write);
	parse_ok("--allow-memory-fs -f d", &o);
	assert_true(o.allow_memory_fs);
	assert_false(o.take_over || o.allow_device_write);
	parse_ok("--write --allow-device-write -f d", &o);
	assert_true(o.allow_device_write);
	assert_false(o.take_over || o.allow_memory_fs);
	parse_ok("-u 1G -n 2 -p 2 -f d", &o);
	assert_true(o.total_given && o.nfiles_given);
	parse_ok("-p 2 -f d", &o);
	assert_false(o.total_given || o.nfiles_given);
	assert_int_equal(o.nfiles, 2);
	(void)state;
}

static void test_attached_forms(void **state)
{
	struct atio_opts o;

	parse_ok("-s4K --rand -p4 -n2 -t5m -w1s -u1G -fdir --engine=sync "
		 "--iodepth=1 --seed=42 --start-at=1700000000 -vvv -Sa", &o);
	assert_true(o.bs == 4096);
	assert_int_equal(o.threads, 4);
	assert_int_equal(o.nfiles, 2);
	assert_true(o.time_ns == 300 * NS);
	assert_true(o.warmup_ns == NS);
	assert_true(o.total == GiB);
	assert_string_equal(o.path, "dir");
	assert_string_equal(o.engine, "sync");
	assert_true(o.seed_given && o.seed == 42);
	assert_true(o.start_at_ns == 1700000000LL * (int64_t)NS);
	assert_int_equal(o.verbose, 3);
	assert_true(o.skip_sync && o.settings_only);
	parse_ok("--fsync -q32 -f d", &o);
	assert_int_equal(o.qsync, 32);
	parse_ok("-Svf d", &o);
	assert_true(o.skip_sync);
	assert_int_equal(o.verbose, 1);
	assert_string_equal(o.path, "d");
	(void)state;
}

/* getopt keeps global state: every parse must start from scratch. */
static void test_repeated_parsing(void **state)
{
	struct atio_opts o;
	struct atio_error e;

	parse_ok("--rand -v -S --uncached -p 8 -n 2 --json -f a", &o);
	assert_true(o.random && o.skip_sync && o.direct && o.json);
	assert_true(parse("-f a stray", &o, &e) < 0);
	assert_true(parse("-s", &o, &e) < 0);
	assert_true(parse("--bogus", &o, &e) < 0);
	assert_true(parse("-vx", &o, &e) < 0);
	for (int i = 0; i < 3; i++) {
		parse_ok("-f b", &o);
		assert_false(o.random || o.skip_sync || o.direct || o.json);
		assert_int_equal(o.verbose, 0);
		assert_int_equal(o.threads, 1);
		assert_int_equal(o.nfiles, 1);
		assert_string_equal(o.path, "b");
		assert_true(o.bs == 16 * MiB);
	}
	/* the same argv parsed twice gives the same result */
	split("-p 4 --write -f c");
	assert_int_equal(atio_cli_parse(args.argc, args.argv, &o, &e), 0);
	assert_int_equal(atio_cli_parse(args.argc, args.argv, &o, &e), 0);
	assert_int_equal(o.threads, 4);
	assert_int_equal(o.mode, ATIO_MODE_WRITE);
	(void)state;
}

/* -s with a mix of sizes: shares, blanks, per direction, the largest and the unit. */
static void test_bsmix(void **state)
{
	struct atio_opts o;

	parse_ok("--rand -s 4K/50,64K,1M -f d", &o);
	assert_int_equal(o.bsmix[0].n, 3);
	assert_int_equal(o.bsmix[1].n, 0);
	assert_int_equal(o.bs, 1 << 20);
	assert_int_equal(o.bs_unit, 4096);
	assert_true(o.bsmix[0].share[0] == 50.0 && o.bsmix[0].share[1] == 25.0 &&
		    o.bsmix[0].share[2] == 25.0);
	assert_string_equal(o.bs_text, "4K/50,64K,1M");
	expect_cmdline("--rand -s 4K/50,64K,1M -f d",
		       "--read --rand -s 4K/50,64K,1M --iops -p 1 -n 1 -t 60 --cached -u 16G");
	parse_ok("--rand -s 8K/30,12K/70 -f d", &o);
	assert_int_equal(o.bs_unit, 4096);
	assert_int_equal(o.bs, 12288);
	parse_ok("--mix 70 --rand -s 4K/100:8K/25,1M -f d", &o);
	assert_int_equal(o.bsmix[0].n, 1);
	assert_int_equal(o.bsmix[1].n, 2);
	assert_true(o.bsmix[1].share[1] == 75.0);
	/* One size for every I/O is a plain -s. */
	parse_ok("--rand -s 64K/100 -f d", &o);
	assert_int_equal(o.bsmix[0].n, 0);
	assert_null(o.bs_text);
	assert_int_equal(o.bs, 65536);
	assert_int_equal(atio_cli_bsmix_mean(&o), 65536);
	parse_ok("--rand -s 4K/75,64K/25 --mbs --rate 10 -f d", &o);
	assert_true(atio_cli_bsmix_mean(&o) == 3072.0 + 16384.0);

	expect_message("--rand -s 4K/50,64K/60 -f d",
		       "-s 4K/50,64K/60: the shares add up to 110%, more than 100%");
	expect_error("--rand -s 4K/50,64K/40 -f d", "90%, not 100%");
	expect_error("--rand -s 4K/50,64K/50,1M -f d", "leave nothing");
	expect_error("--rand -s 4K/0,64K -f d", "4K/0: a share of 0%");
	expect_error("--rand -s 4K/-1,64K -f d", "4K/-1: a share cannot be negative");
	expect_error("--rand -s 4K/5x,64K -f d", "4K/5x: the share is not");
	expect_error("--rand -s 4K/50,,64K -f d", "an empty size");
	expect_error("--rand -s 4K,4K -f d", "4K is in the mix twice");
	expect_error("--rand -s 4X/50,4K -f d", "4X: not a size");
	expect_error("--rand --uncached -s 6K,4K -f d", "6K: block size must be a multiple of 4096");
	expect_error("--rand -s 700,4K -f d", "700: block size must be a multiple of 512");
	expect_error("--rand -s 4K/50,8K:8K -f d", "READS:WRITES sizes need --mix");
	expect_error("--mix 50 --rand -s 4K:8K:16K -f d", "more than one ':'");
	expect_error("--rand --dist zipf:1 -s 4K,8K -f d", "does not go with --dist");
	expect_error("--seq --backward -s 4K,8K -f d", "does not go with --backward");
	expect_error("--fsync --verify -s 4K,8K -f d", "does not go with --fsync --verify");
	expect_error("--expand -s 4K,8K -f d", "does not go with --expand");
	(void)state;
}

static void test_usage(void **state)
{
	static const char *const must[] = {
		"Usage: atio [run] [options] -f PATH", "--backward", "--stride", "--read",
		"--write", "--fsync", "--fdatasync", "--seq", "--rand", "--mbs", "--iops", "--cached",
		"--uncached", "-s SIZE", "-p N", "-n N", "-t TIME", "-w TIME",
		"-u SIZE", "-q N", "-S ", "-f PATH", "-a ", "-v ", "-vv ", "-vvv ",
		"--json", "--seed", "--start-at", "--remove", "--keep-cache",
		"--no-thp", "--engine", "--iodepth", "--help", "--version", "16M", "4K",
		"16G", "dropping its files", "stderr", "0 success", "130 interrupted",
		"2 bad usage", "1 the run failed", "powers of 1024", "s, m or h",
		"-q 32", "-s SIZE/PCT", "4K/50,64K/30,1M/20", "READS:WRITES",
		"MB/s counts the bytes, IOPS each I/O of any size",
		"-q 32", "--rewrite", "--fadvise ADVICE",
		"--size SIZE", "--loops N", "\n  --cap N ", "the same as --cap N",
		"--percentiles LIST",
	};
	char *text = NULL, *line, *save;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int examples = 0;

	assert_non_null(f);
	atio_cli_usage(f);
	fclose(f);
	for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		if (!strstr(text, must[i]))
			fail_msg("--help lacks \"%s\"", must[i]);
	/*
	 * Scripts grep stdout for the result line: the word is only on the
	 * line of the --rate option, where it is the option's name.
	 */
	for (char *p = text; *p; p++)
		if (strncasecmp(p, "rate", 4) == 0 &&
		    !(p - text >= 5 && strncmp(p - 5, "\n  --rate N ", 12) == 0))
			fail_msg("--help contains \"rate\": ...%.20s", p);
	assert_non_null(strstr(text, "\n  --rate N "));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strlen(line) >= 80)
			fail_msg("line of %zu columns: %s", strlen(line), line);
		if (strstr(line, "/mnt/dir"))
			examples++;
		assert_null(strstr(line, "pstorage"));
		assert_null(strchr(line, '\t'));
	}
	assert_int_equal(examples, 5);
	free(text);
	(void)state;
}

/*
 * --mix R: a workload of its own, R from 1 to 99 (never 0, 100, a decimal
 * or a word), the default unit as the pattern says, and a Cmdline that
 * reruns it.
 */
static void test_mix(void **state)
{
	struct atio_opts o;

	parse_ok("--mix 70 --rand -f d", &o);
	assert_int_equal(o.mode, ATIO_MODE_MIX);
	assert_int_equal(o.mix, 70);
	assert_int_equal(o.unit, ATIO_UNIT_IOPS);
	assert_string_equal(atio_mode_name(o.mode), "mix");
	assert_string_equal(atio_unit_name(&o), "IOPS");
	parse_ok("--mix=1 -f d", &o);
	assert_int_equal(o.mix, 1);
	assert_int_equal(o.unit, ATIO_UNIT_MBS);
	parse_ok("--mix 99 -f d", &o);
	assert_int_equal(o.mix, 99);
	parse_ok("--read -f d", &o);
	assert_int_equal(o.mix, 0);
	expect_cmdline("--mix 70 --rand -f d",
		       "--mix 70 --rand -s 4K --iops -p 1 -n 1 -t 60 --cached -u 16G");
	expect_message("--mix 0 -f d", "--mix 0: percentage of reads must be between 1 and 99");
	expect_message("--mix 100 -f d", "--mix 100: percentage of reads must be between 1 and 99");
	expect_message("--mix 50.5 -f d", "--mix 50.5: percentage of reads must be a whole number");
	expect_error("--mix abc -f d", "--mix abc:");
	expect_error("--mix -f d", "--mix -f:");
	expect_error("--mix= -f d", "--mix: the value is empty");
	expect_error("--read --mix 50 -f d", "--read and --mix are contradictory");
	expect_error("--mix 50 --fdatasync -f d", "--mix and --fdatasync are contradictory");
	expect_error("--mix 50 --mix 50 -f d", "--mix given twice");
	expect_error("--mix 50 -q 2 -f d", "-q 2: writes between syncs only apply");
	(void)state;
}

/* --dsync, --osync: write modes only, one of them, in the command line. */
static void test_open_sync(void **state)
{
	struct atio_opts o;

	parse_ok("--write --rand -u 8M -f d", &o);
	assert_int_equal(o.open_sync, ATIO_OPEN_PLAIN);
	assert_null(atio_open_sync_flag(o.open_sync));
	parse_ok("--write --dsync --rand -u 8M -f d", &o);
	assert_int_equal(o.open_sync, ATIO_OPEN_DSYNC);
	assert_string_equal(atio_open_sync_flag(o.open_sync), "O_DSYNC");
	parse_ok("--fdatasync --osync --rand -u 8M -f d", &o);
	assert_int_equal(o.open_sync, ATIO_OPEN_OSYNC);
	assert_string_equal(atio_open_sync_flag(o.open_sync), "O_SYNC");
	parse_ok("--fsync --dsync --dsync --rand -u 8M -f d", &o);
	assert_int_equal(o.open_sync, ATIO_OPEN_DSYNC);
	expect_error("--dsync --rand -u 8M -f d", "--dsync: makes writes durable");
	expect_error("--read --osync --rand -u 8M -f d", "--osync: makes writes durable");
	expect_error("--write --dsync --osync -f d", "--dsync and --osync are contradictory");
	expect_cmdline("--write --rand --dsync -p 2 -u 8M -f d",
		       "--write --rand -s 4K --iops -p 2 -n 2 -t 60 --cached -u 8M --dsync");
	expect_cmdline("--osync --fsync -q 4 -S -u 1G -f d",
		       "--fsync --seq -s 16M -q 4 --mbs -p 1 -n 1 -t 60 --cached -u 1G -S --osync");
	assert_false(atio_mode_writes(ATIO_MODE_READ));
	assert_true(atio_mode_writes(ATIO_MODE_WRITE));
	assert_true(atio_mode_writes(ATIO_MODE_FSYNC));
	assert_true(atio_mode_writes(ATIO_MODE_FDATASYNC));
	(void)state;
}

/* -p auto and -u auto: the node's figures, "auto" in the command line. */
static void test_auto_sizing(void **state)
{
	struct atio_opts o;
	uint64_t mem = atio_node_meminfo("MemTotal");

	/* A key is matched whole: a prefix of one is no key. */
	assert_true(mem > 0);
	assert_int_equal(atio_node_meminfo("MemTota"), 0);
	assert_int_equal(atio_node_meminfo("NoSuchField"), 0);
	assert_true(atio_node_meminfo("MemAvailable") <= mem);

	parse_ok("-p auto -u 1G -f d", &o);
	assert_true(o.threads_auto);
	assert_false(o.total_auto);
	assert_int_equal(o.threads, atio_node_cpus() < ATIO_MAX_THREADS
			 ? atio_node_cpus() : ATIO_MAX_THREADS);
	assert_int_equal(o.node_cpus, atio_node_cpus());
	assert_int_equal(o.nfiles, o.threads);
	expect_cmdline("-p auto -u 1G -f d",
		       "--read --seq -s 16M --mbs -p auto -t 60 --cached -u 1G");
	expect_cmdline("-p auto -n 3 -u 1G -f d",
		       "--read --seq -s 16M --mbs -p auto -n 3 -t 60 --cached -u 1G");

	parse_ok("--rand -u auto -f d", &o);
	assert_true(o.total_auto);
	assert_int_equal(o.node_mem_total, mem);
	assert_int_equal(o.total, 2 * mem);
	expect_cmdline("--rand -u auto -p 2 -f d",
		       "--read --rand -s 4K --iops -p 2 -n 2 -t 60 --cached -u auto");
	expect_cmdline("-a --rand -p auto -u auto",
		       "-a --read --rand -s 4K --iops -p auto -t 60 --cached -u auto");

	expect_error("-u autox -f d", "-u autox: not a size");
	expect_error("-u Auto -f d", "-u Auto: not a size");
	expect_error("-p auto3 -f d", "-p auto3: number of threads must be a whole number or auto");
	expect_error("-p auto -p 2 -f d", "-p given twice (auto and 2)");
	expect_error("-u 1G -u auto -f d", "-u given twice (1G and auto)");
	(void)state;
}

/* --prepare: the files' options go, the test run's are refused by name. */
static void test_prepare(void **state)
{
	static const char *const refused[][2] = {
		{ "--prepare -a -f d", "--prepare and -a:" },
		{ "--prepare -t 5 -f d", "--prepare and -t 5:" },
		{ "--prepare -w 1 -f d", "--prepare and -w 1:" },
		{ "--prepare --fsync -q 2 -f d", "--prepare and -q 2:" },
		{ "--prepare -S -f d", "--prepare and -S:" },
		{ "--prepare --iops -f d", "--prepare and --iops:" },
		{ "--prepare --mbs -f d", "--prepare and --mbs:" },
		{ "--prepare --start-at - -f d", "--prepare and --start-at -:" },
		{ "--prepare --remove -f d", "--prepare and --remove:" },
		{ "--prepare --keep-cache -f d", "--prepare and --keep-cache:" },
		{ "--prepare --engine sync -f d", "--prepare and --engine sync:" },
		{ "--prepare --iodepth 4 -f d", "--prepare and --iodepth 4:" },
		{ "--prepare --write --dsync -f d", "--prepare and --dsync:" },
		{ "--prepare --write --osync -f d", "--prepare and --osync:" },
	};
	struct atio_opts o;

	parse_ok("--prepare -p 4 -n 2 -s 4K -u 64M --seed 7 --uncached --write -f d", &o);
	assert_true(o.prepare);
	expect_cmdline("--prepare -p 2 -u 64M -f d",
		       "--prepare -s 16M -p 2 -n 2 --cached -u 64M");
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		expect_error(refused[i][0], refused[i][1]);
	(void)state;
}

/*
 * --cap, and --rate its other name: the value as given, the interval per
 * thread from the unit, the block size, the syncs and the threads, the
 * command line writing it --cap (no "rate" in it: grep rate finds the
 * result line), and the values that make no schedule refused with the
 * value named.
 */
static void test_rate(void **state)
{
	struct atio_opts o;
	char buf[256];

	(void)state;
	parse_ok("--read --rand -p 4 -f /d --rate 2000", &o);
	assert_true(o.rate == 2000.0);
	assert_true(o.rate_interval_ns > 1999999.0 && o.rate_interval_ns < 2000001.0);
	atio_opts_cmdline(buf, sizeof(buf), &o);
	assert_non_null(strstr(buf, " --cap 2000"));
	assert_null(strstr(buf, "rate"));
	parse_ok("--read --rand -p 4 -f /d --cap 2000", &o);
	assert_true(o.rate_interval_ns > 1999999.0 && o.rate_interval_ns < 2000001.0);
	parse_ok("--read --seq -s 1M -f /d --rate 2.5", &o);
	assert_true(o.rate_interval_ns > 399999999.0 && o.rate_interval_ns < 400000001.0);
	parse_ok("--fsync --rand -q 10 -f /d --cap 100", &o);
	assert_true(o.rate_interval_ns > 999999.0 && o.rate_interval_ns < 1000001.0);
	parse_ok("--read --rand -f /d", &o);
	assert_true(o.rate == 0.0);
	atio_opts_cmdline(buf, sizeof(buf), &o);
	assert_null(strstr(buf, "--cap"));
	expect_error("--read -f /d --cap 0", "--cap 0:");
	expect_error("--read -f /d --rate 1e3", "--cap 1e3:");
	expect_error("--read -f /d --cap -2", "--cap -2:");
	expect_error("--read --rand -f /d --cap 1000000001", "--cap 1000000001: too high");
	expect_error("--read --rand -p 2 -f /d --rate 0.0005", "--cap 0.0005: too low");
	expect_error("--read -f /d --rate 1 --rate 2", "--cap given twice");
	expect_error("--read -f /d --cap 1 --rate 2", "--cap given twice (1 and 2)");
}

/*
 * The command line runs the same test again: every option that changes the
 * test and differs from its default is on it, in one order whatever the
 * order given, and none of -f, --remove, --json, -v, --start-at.
 */
static void test_cmdline_complete(void **state)
{
	struct atio_opts o;
	char a[ATIO_CMDLINE_MAX], b[ATIO_CMDLINE_MAX];

	(void)state;
	parse_ok("--read --rand -s 4K -p 2 -t 5 -u 1G --engine libaio --iodepth 8 "
		 "--iodepth-batch 4 --no-thp --keep-cache --seed 7 --interval 0.5 --cap 300 "
		 "--remove --json -v -f /d", &o);
	atio_opts_cmdline(a, sizeof(a), &o);
	assert_string_equal(a, "--read --rand -s 4K --iops -p 2 -n 2 -t 5 --cached -u 1G "
			    "--cap 300 --engine libaio --iodepth 8 --iodepth-batch 4 --no-thp "
			    "--keep-cache --seed 7 --interval 0.5");
	parse_ok("-f /d --interval 0.5 --seed 7 --keep-cache --no-thp --iodepth-batch 4 "
		 "--iodepth 8 --engine libaio --rate 300 -u 1G -t 5 -p 2 -s 4K --rand --read", &o);
	atio_opts_cmdline(b, sizeof(b), &o);
	assert_string_equal(a, b);
	/* The defaults are not written: --engine not given, --iodepth 1, no seed. */
	parse_ok("--read --seq --iodepth 1 -f /d", &o);
	atio_opts_cmdline(a, sizeof(a), &o);
	assert_string_equal(a, "--read --seq -s 16M --mbs -p 1 -n 1 -t 60 --cached -u 16G");
	/* A value the shell would split or expand is quoted. */
	parse_ok("--write --seq --compress 2 -f /d", &o);
	o.compress_text = "2 it's";
	atio_opts_cmdline(a, sizeof(a), &o);
	assert_non_null(strstr(a, " --compress '2 it'\\''s'"));
}

/* --expand: a workload of its own, sequential, a file per thread at least. */
static void test_expand(void **state)
{
	struct atio_opts o;

	parse_ok("--expand -f d", &o);
	assert_int_equal(o.mode, ATIO_MODE_EXPAND);
	assert_string_equal(atio_mode_name(o.mode), "expand");
	assert_false(o.random);
	assert_int_equal(o.bs, 16 * MiB);
	assert_string_equal(atio_unit_name(&o), "MB/s");
	parse_ok("--expand --iops -s 4K -p 4 -n 8 -f d", &o);
	assert_string_equal(atio_unit_name(&o), "IOPS");
	expect_cmdline("--expand -s 16M -t 5 --uncached -f /var/tmp/x",
		       "--expand --seq -s 16M --mbs -p 1 -n 1 -t 5 --uncached -u 16G");
	expect_cmdline("--expand --seq -s 1M -p 2 -n 3 -u 1G -S -f d",
		       "--expand --seq -s 1M --mbs -p 2 -n 3 -t 60 --cached -u 1G -S");
	expect_message("--read --expand -f d",
		       "--read and --expand are contradictory: choose one workload");
	expect_error("--expand --write -f d", "--expand and --write are contradictory");
	expect_error("--expand --fsync -f d", "--expand and --fsync");
	expect_error("--fdatasync --expand -f d", "--fdatasync and --expand");
	expect_message("--expand --rand -f d",
		       "--expand --rand: --expand appends each file from zero to its end, "
		       "in order; it has no random pattern (drop --rand)");
	expect_error("--expand -p 4 -n 3 -f d",
		     "-n 3: --expand needs a file of its own for each of the 4 threads");
	expect_error("--expand -q 2 -f d", "-q 2: writes between syncs only apply");
	(void)state;
}

/*
 * --rewrite: a workload of its own, with --seq or --rand, counted both
 * ways; never with --rate (its writes wait for their reads) nor with
 * another workload.
 */
static void test_rewrite(void **state)
{
	struct atio_opts o;

	parse_ok("--rewrite -f d", &o);
	assert_int_equal(o.mode, ATIO_MODE_REWRITE);
	assert_string_equal(atio_mode_name(o.mode), "rewrite");
	assert_true(atio_mode_writes(o.mode));
	assert_true(atio_mode_two_way(o.mode));
	assert_false(atio_mode_two_way(ATIO_MODE_WRITE));
	assert_false(o.random);
	assert_int_equal(o.bs, 16 * MiB);
	parse_ok("--rewrite --rand -f d", &o);
	assert_int_equal(o.bs, 4096);
	assert_string_equal(atio_unit_name(&o), "IOPS");
	expect_cmdline("--rewrite --rand -s 4K -t 5 -u 1G -f d",
		       "--rewrite --rand -s 4K --iops -p 1 -n 1 -t 5 --cached -u 1G");
	expect_error("--rewrite --write -f d", "--rewrite and --write are contradictory");
	expect_error("--mix 50 --rewrite -f d", "--mix and --rewrite are contradictory");
	expect_message("--rewrite --rate 100 -f d",
		       "--cap 100 with --rewrite: a schedule paces single I/Os, and "
		       "--rewrite's write waits for its read: leave --cap out");
	expect_error("--rewrite --verify --engine null", "--verify with --engine null");
	expect_error("--prepare --rewrite -f d", "--prepare and --rewrite");
	(void)state;
}

/*
 * --fadvise: one of four words, none by default; with --uncached refused
 * (O_DIRECT does not use the page cache); in the Cmdline when given.
 */
static void test_fadvise(void **state)
{
	struct atio_opts o;

	parse_ok("--rand -f d", &o);
	assert_int_equal(o.fadvise, ATIO_FADVISE_NONE);
	assert_false(o.fadvise_given);
	parse_ok("--rand --fadvise random -f d", &o);
	assert_int_equal(o.fadvise, ATIO_FADVISE_RANDOM);
	parse_ok("--fadvise sequential -f d", &o);
	assert_int_equal(o.fadvise, ATIO_FADVISE_SEQUENTIAL);
	parse_ok("--fadvise normal -f d", &o);
	assert_int_equal(o.fadvise, ATIO_FADVISE_NORMAL);
	parse_ok("--fadvise none -f d", &o);
	assert_int_equal(o.fadvise, ATIO_FADVISE_NONE);
	assert_string_equal(atio_fadvise_name(ATIO_FADVISE_SEQUENTIAL), "sequential");
	expect_cmdline("--rand --fadvise random -t 5 -u 1G -f d",
		       "--read --rand -s 4K --iops -p 1 -n 1 -t 5 --cached -u 1G --fadvise random");
	expect_message("--fadvise willneed -f d",
		       "--fadvise willneed: unknown advice (random, sequential, normal or none)");
	expect_error("--fadvise Random -f d", "--fadvise Random: unknown advice");
	expect_error("--fadvise random --uncached -f d", "--fadvise random with --uncached");
	expect_error("--fadvise random --fadvise none -f d", "--fadvise");
	expect_error("--check --fadvise random -f d", "--fadvise random: --check");
	expect_error("--prepare --fadvise random -f d", "--prepare and --fadvise random");
	(void)state;
}

/*
 * --iodepth-batch: left for the engine when not given; then the engine's
 * batch for random O_DIRECT runs deeper than it, the whole depth
 * otherwise; 1 to --iodepth when given, and kept.
 */
static void batch_ok(const char *line, unsigned direct_batch, unsigned want)
{
	struct atio_opts o;

	parse_ok(line, &o);
	assert_true(o.iodepth_batch_auto);
	atio_opts_batch(&o, direct_batch);
	if (o.iodepth_batch != want)
		fail_msg("\"%s\" with an engine batch of %u: batch %u, want %u", line,
			 direct_batch, o.iodepth_batch, want);
}

static void test_iodepth_batch(void **state)
{
	struct atio_opts o;

	batch_ok("--rand --uncached --iodepth 32 -f d", 8, 8);
	batch_ok("--rand --uncached --iodepth 32 -f d", 16, 16);
	batch_ok("--rand --uncached --iodepth 16 -f d", 16, 16);
	batch_ok("--rand --uncached --iodepth 5 -f d", 8, 5);
	batch_ok("--seq --uncached --iodepth 32 -f d", 16, 32);
	batch_ok("--rand --cached --iodepth 32 -f d", 8, 32);
	batch_ok("--mix 70 --rand --uncached --iodepth 16 -f d", 8, 8);
	batch_ok("-f d", 0, 1);
	batch_ok("--rand --uncached --iodepth 32 -f d", 0, 32);
	parse_ok("--rand --uncached --iodepth 32 --iodepth-batch 32 -f d", &o);
	assert_false(o.iodepth_batch_auto);
	atio_opts_batch(&o, 8);
	assert_int_equal(o.iodepth_batch, 32);
	parse_ok("--seq --iodepth 8 --iodepth-batch 1 -f d", &o);
	atio_opts_batch(&o, 8);
	assert_int_equal(o.iodepth_batch, 1);
	expect_message("--iodepth 8 --iodepth-batch 9 -f d",
		       "--iodepth-batch 9: more than the 8 I/O(s) in flight (--iodepth 8): "
		       "give at most 8");
	expect_error("--iodepth-batch 2 -f d", "--iodepth-batch 2: more than the 1 I/O(s)");
	expect_error("--iodepth-batch 0 -f d", "--iodepth-batch 0");
	expect_error("--iodepth-batch x -f d", "--iodepth-batch x");
	expect_error("--iodepth 8 --iodepth-batch 2 --iodepth-batch 4 -f d",
		     "--iodepth-batch given twice");
	expect_error("--prepare --iodepth-batch 1 -f d", "--prepare and --iodepth-batch 1:");
	(void)state;
}

/*
 * --percentiles: the points as given, ascending, on the command line; a
 * bad list refused with the point named: empty, 0, 100 and above, not a
 * plain decimal, a duplicate, out of order, a comma too many, too many.
 */
static void test_percentiles(void **state)
{
	struct atio_opts o;
	char buf[ATIO_CMDLINE_MAX], many[200] = "1";

	(void)state;
	parse_ok("--read -f /d", &o);
	assert_int_equal(o.npct, 0);
	parse_ok("--read -f /d --percentiles 50,99,99.9,99.99", &o);
	assert_int_equal(o.npct, 4);
	assert_true(o.pct[0] == 50.0 && o.pct[3] == 99.99);
	atio_opts_cmdline(buf, sizeof(buf), &o);
	assert_non_null(strstr(buf, " --percentiles 50,99,99.9,99.99"));
	parse_ok("--read -f /d --percentiles .5", &o);
	assert_true(o.npct == 1 && o.pct[0] == 0.5);
	expect_error("--read -f /d --percentiles 0", "--percentiles 0: 0: a percentile is above 0");
	expect_error("--read -f /d --percentiles 50,100", "--percentiles 50,100: 100: ");
	expect_error("--read -f /d --percentiles 101", "101: a percentile is above 0 and below 100");
	expect_error("--read -f /d --percentiles 50,abc", "--percentiles 50,abc: abc: not a percentile");
	expect_error("--read -f /d --percentiles 1e2", "1e2: not a percentile");
	expect_error("--read -f /d --percentiles 50,50", "50: given twice");
	expect_error("--read -f /d --percentiles 99,50", "50: below the point before it");
	expect_error("--read -f /d --percentiles 50,", "an empty point");
	expect_error("--read -f /d --percentiles ,50", "an empty point");
	/* 10 significant digits name a point; two of more could share a name */
	parse_ok("--read -f /d --percentiles 0.0001,99.99999999", &o);
	assert_int_equal(o.npct, 2);
	expect_error("--read -f /d --percentiles 99.99999999991,99.99999999992",
		     "99.99999999991: more than 10 significant digits");
	for (unsigned i = 2; i <= ATIO_PCT_MAX + 1; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), ",%u", i);
	expect_error(strcat(strcpy(buf, "--read -f /d --percentiles "), many), "more than 32 points");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size_good),
		cmocka_unit_test(test_parse_size_bad),
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_parse_uint),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_format_size_round_trip),
		cmocka_unit_test(test_defaults_seq),
		cmocka_unit_test(test_defaults_rand),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_contradictions),
		cmocka_unit_test(test_repeated_options),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_option_errors),
		cmocka_unit_test(test_empty_values),
		cmocka_unit_test(test_qsync),
		cmocka_unit_test(test_total_minimum),
		cmocka_unit_test(test_uncached),
		cmocka_unit_test(test_cmdline),
		cmocka_unit_test(test_settings_only),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_misc_options),
		cmocka_unit_test(test_safety_options),
		cmocka_unit_test(test_attached_forms),
		cmocka_unit_test(test_repeated_parsing),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_open_sync),
		cmocka_unit_test(test_auto_sizing),
		cmocka_unit_test(test_prepare),
		cmocka_unit_test(test_rate),
		cmocka_unit_test(test_cmdline_complete),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_iodepth_batch),
		cmocka_unit_test(test_bsmix),
		cmocka_unit_test(test_rewrite),
		cmocka_unit_test(test_fadvise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
