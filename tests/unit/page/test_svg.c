/* SPDX-License-Identifier: MIT */
/*
 * The charts of atio report (svg.c): tick steps of 1, 2 or 5 times a power
 * of ten, SI and time labels, HTML escaping, and the markup a line chart
 * and a bar chart write (one M or L per point, a gap where a value is
 * missing, ticks on whole steps).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/page/svg.h"

static void test_nice_step(void **state)
{
	(void)state;
	assert_true(atio_svg_nice_step(10, 5) == 2);
	assert_true(atio_svg_nice_step(12, 6) == 2);
	assert_true(atio_svg_nice_step(7, 6) == 2);
	assert_true(atio_svg_nice_step(100, 6) == 20);
	assert_true(atio_svg_nice_step(30, 6) == 5);
	assert_true(fabs(atio_svg_nice_step(0.3, 6) - 0.05) < 1e-12);
	assert_true(atio_svg_nice_step(1e6, 5) == 2e5);
	assert_true(atio_svg_nice_step(6, 6) == 1);
	/* No range: a step that still advances. */
	assert_true(atio_svg_nice_step(0, 6) == 1);
}

static void test_labels(void **state)
{
	char b[32];

	(void)state;
	atio_svg_num(b, sizeof(b), 2500);
	assert_string_equal(b, "2.5k");
	atio_svg_num(b, sizeof(b), 40e6);
	assert_string_equal(b, "40M");
	atio_svg_num(b, sizeof(b), 1000);
	assert_string_equal(b, "1k");
	atio_svg_num(b, sizeof(b), 0);
	assert_string_equal(b, "0");
	atio_svg_num(b, sizeof(b), 0.25);
	assert_string_equal(b, "0.25");
	atio_svg_num(b, sizeof(b), 3e9);
	assert_string_equal(b, "3G");
	atio_svg_time(b, sizeof(b), 800);
	assert_string_equal(b, "800 ns");
	atio_svg_time(b, sizeof(b), 2500);
	assert_string_equal(b, "2.5 µs");
	atio_svg_time(b, sizeof(b), 12e6);
	assert_string_equal(b, "12 ms");
	atio_svg_time(b, sizeof(b), 1.5e9);
	assert_string_equal(b, "1.5 s");
}

/* Where open_memstream() keeps what capture() writes. */
static char *cap_buf;
static size_t cap_len;

/* What @fn writes, as a string the caller frees. */
static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
	FILE *f = open_memstream(&cap_buf, &cap_len);

	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return cap_buf;
}

static void escape(FILE *f, const void *s)
{
	atio_html_escape(f, s);
}

static void test_escape(void **state)
{
	char *s = capture(escape, "<b a=\"x\">&'\x01");

	(void)state;
	assert_string_equal(s, "&lt;b a=&quot;x&quot;&gt;&amp;&#39;?");
	free(s);
}

static void line(FILE *f, const void *c)
{
	atio_svg_line_chart(f, c);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

static void test_line_chart(void **state)
{
	double x[6] = { 0.5, 1.5, 2.5, 3.5, 4.5, 5.5 };
	double y[6] = { 100, 200, NAN, 400, 500, 1200 };
	double z[6] = { 1, 2, 3, 4, 5, 6 };
	struct atio_svg_series s[2] = {
		{ .name = "a<b", .n = 6, .x = x, .y = y },
		{ .name = "z", .n = 6, .x = x, .y = z, .style = 1 },
	};
	struct atio_svg_band band = { 2, 3 };
	struct atio_svg_chart c = {
		.id = "t", .title = "T & U", .nseries = 2, .series = s, .nbands = 1,
		.bands = &band, .band_name = "stall",
		.x = { .label = "time (s)", .zero = true },
		.y = { .label = "rate (IOPS)", .zero = true },
	};
	char *out = capture(line, &c);
	const char *p;

	(void)state;
	assert_int_equal(count(out, "<g class=\"series\""), 2);
	assert_int_equal(count(out, "class=\"band\""), 1);
	/* The missing value splits the first line in two: M L, then M L L L. */
	p = strstr(out, "<path class=\"line\" d=\"");
	assert_non_null(p);
	assert_int_equal(strchr(p + 22, '"') - (p + 22) > 0, 1);
	{
		char d[512];
		size_t m = 0, l = 0;

		snprintf(d, sizeof(d), "%.*s", (int)(strchr(p + 22, '"') - (p + 22)), p + 22);
		for (char *q = d; *q; q++) {
			m += *q == 'M';
			l += *q == 'L';
		}
		assert_int_equal(m, 2);
		assert_int_equal(l, 3);
	}
	/* y from 0 to 1200 in steps of 200, labelled 1.2k; x 0 to 6 by 1. */
	assert_non_null(strstr(out, ">1.2k</text>"));
	assert_non_null(strstr(out, ">200</text>"));
	assert_null(strstr(out, ">300</text>"));
	assert_non_null(strstr(out, ">6</text>"));
	assert_non_null(strstr(out, "T &amp; U"));
	assert_non_null(strstr(out, "data-name=\"a&lt;b\""));
	assert_non_null(strstr(out, ">stall</text>"));
	assert_non_null(strstr(out, ">rate (IOPS)</text>"));
	free(out);
}

static void test_log_axis(void **state)
{
	double x[3] = { 1, 2, 3 };
	double y[3] = { 1500, 40000, 900000 };
	struct atio_svg_series s = { .name = "p99", .n = 3, .x = x, .y = y };
	struct atio_svg_chart c = {
		.id = "l", .title = "L", .nseries = 1, .series = &s,
		.x = { .label = "s" }, .y = { .label = "latency", .log = true, .fmt = ATIO_SVG_NS },
	};
	char *out = capture(line, &c);

	(void)state;
	/* 1 µs to 1 ms: three decades, ticks at 1, 2 and 5 of each. */
	assert_non_null(strstr(out, ">1 µs</text>"));
	assert_non_null(strstr(out, ">2 µs</text>"));
	assert_non_null(strstr(out, ">50 µs</text>"));
	assert_non_null(strstr(out, ">1 ms</text>"));
	assert_null(strstr(out, ">2 ms</text>"));
	free(out);
}

static void bars(FILE *f, const void *b)
{
	atio_svg_bar_chart(f, b);
}

static void test_bar_chart(void **state)
{
	const char *groups[2] = { "seqread\n1 thread", "seqread\n4 threads" };
	const char *sets[2] = { "before", "after" };
	double avg[4] = { 100, 150, 300, NAN }, mn[4] = { 90, 140, 280, NAN };
	double mx[4] = { 110, 160, 320, NAN };
	struct atio_svg_bars b = {
		.id = "b", .title = "B", .ylabel = "rate (MB/s)", .ngroups = 2, .nsets = 2,
		.groups = groups, .sets = sets, .avg = avg, .min = mn, .max = mx,
	};
	char *out = capture(bars, &b);

	(void)state;
	assert_int_equal(count(out, "class=\"bar\""), 3);
	assert_int_equal(count(out, "class=\"whisker\""), 3);
	assert_non_null(strstr(out, ">4 threads</tspan>"));
	assert_non_null(strstr(out, ">after</text>"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice_step),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_line_chart),
		cmocka_unit_test(test_log_axis),
		cmocka_unit_test(test_bar_chart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
