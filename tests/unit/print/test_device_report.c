/* SPDX-License-Identifier: MIT */
/*
 * The device: and cgroup: lines and the "device" object from readings
 * given by hand: a loop device and the disk holding its backing file, a
 * cap of 200 read IOPS hit; a counter that went backwards shown as unknown
 * in the text and null in the JSON, never as a huge number; no device, no
 * line and a null object.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/print/device_report.h"

/* loop0 on vda: 1000 reads of 4 KiB in one second; vda wrote 10 requests of 64 KiB. */
static struct atio_device_window *window(void)
{
	struct atio_device_window *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->n = 2;
	snprintf(w->node[0].name, sizeof(w->node[0].name), "loop0");
	w->node[0].major = 7;
	w->node[0].above = -1;
	w->node[0].rel = ATIO_DEV_TARGET;
	snprintf(w->node[0].backing, sizeof(w->node[0].backing), "/var/tmp/disk.img");
	snprintf(w->node[0].stat_begin, sizeof(w->node[0].stat_begin),
		 "100 0 800 50 0 0 0 0 0 100 70 0 0 0 0 0 0");
	snprintf(w->node[0].stat_end, sizeof(w->node[0].stat_end),
		 "1100 0 8800 550 0 0 0 0 0 600 570 0 0 0 0 0 0");
	snprintf(w->node[1].name, sizeof(w->node[1].name), "vda");
	w->node[1].major = 254;
	w->node[1].above = 0;
	w->node[1].rel = ATIO_DEV_BACKING;
	snprintf(w->node[1].stat_begin, sizeof(w->node[1].stat_begin),
		 "5 0 40 1 20 2 100 10 0 10 11 0 0 0 0");
	snprintf(w->node[1].stat_end, sizeof(w->node[1].stat_end),
		 "5 0 40 1 30 4 1380 40 0 40 41 0 0 0 0");
	w->begin_ns = 1000000000ull;
	w->end_ns = 2000000000ull;
	w->begun = w->ended = true;
	w->caps.n = 1;
	w->caps.cap[0] = (struct atio_io_cap){ .kind = ATIO_CAP_RIOPS, .version = 1, .node = 0,
					       .limit = 200, .have_count = true,
					       .count_begin = 10, .count_end = 200 };
	snprintf(w->caps.cap[0].cgroup, sizeof(w->caps.cap[0].cgroup),
		 "/sys/fs/cgroup/blkio/bench");
	return w;
}

static char *text(const struct atio_device_window *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	atio_device_report_text(f, w);
	fclose(f);
	return buf;
}

static json_t *json(const struct atio_device_window *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct atio_json j;
	json_error_t je;
	json_t *doc;

	assert_non_null(f);
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_device_report_json(&j, w);
	atio_json_object_end(&j);
	fclose(f);
	doc = json_loads(buf, JSON_REJECT_DUPLICATES, &je);
	free(buf);
	assert_non_null(doc);
	return doc;
}

static void test_text(void **state)
{
	struct atio_device_window *w = window();
	char *t = text(w);

	(void)state;
	assert_non_null(strstr(t, "device: loop0 (7:0, backing file /var/tmp/disk.img): read 1000.0 "
			       "IOPS 3.91 MB/s, 0 merged, 4.0 KiB a request, await 0.500 ms; "
			       "write 0.0 IOPS; aqu-sz 0.50, util 50.0% (17 fields, over 1.000 sec)\n"));
	assert_non_null(strstr(t, "device: vda (254:0, holds the backing file of loop0): read 0.0 "
			       "IOPS; write 10.0 IOPS 0.62 MB/s, 2 merged, 64.0 KiB a request, "
			       "await 3.000 ms; aqu-sz 0.03, util 3.0% (15 fields, over 1.000 sec)\n"));
	assert_non_null(strstr(t, "cgroup: blkio.throttle.read_iops_device 200 on loop0 (7:0), set "
			       "by /sys/fs/cgroup/blkio/bench: 190.0 read IOPS went through it, "
			       "95.0% of the cap: the cap held, the run ran into it (cgroup v1 "
			       "keeps no time spent throttled)\n"));
	assert_null(strstr(t, "rate"));
	free(t);
	/* Half the cap: it did not hold the run back. */
	w->caps.cap[0].count_end = 110;
	t = text(w);
	assert_non_null(strstr(t, "100.0 read IOPS went through it, 50.0% of the cap: below it, "
			       "the cap did not hold the run back"));
	free(t);
	free(w);
}

/* The verdict in the text and in the JSON's "verdict" and "held". */
static void verdict(const struct atio_device_window *w, const char *text_want,
		    const char *json_want, bool held)
{
	char *t = text(w);
	json_t *doc = json(w);
	json_t *cap = json_array_get(json_object_get(json_object_get(doc, "device"), "caps"), 0);

	if (!strstr(t, text_want))
		fail_msg("no \"%s\" in:\n%s", text_want, t);
	assert_string_equal(json_string_value(json_object_get(cap, "verdict")), json_want);
	assert_true(json_is_true(json_object_get(cap, "held")) == held);
	/* the result line alone has the word that scripts grep for */
	if (strstr(t, "rate"))
		fail_msg("\"rate\" in a device or cgroup line:\n%s", t);
	free(t);
	json_decref(doc);
}

/*
 * A cap 143 times over was not applied to the run's I/O, not "held"; a
 * run held by its own --rate below the cap did not run into it; a --rate
 * above the cap, or one the run fell short of, leaves the cap's verdict.
 */
static void test_verdicts(void **state)
{
	struct atio_device_window *w = window();

	(void)state;
	w->caps.cap[0].limit = 300;
	w->caps.cap[0].count_end = 10 + 42892;
	verdict(w, "42892.0 read IOPS went through it, 14297.3% of the cap: above the cap: it "
		"was not in force on this I/O", "not_in_force", false);
	/* 110% is still the cap's counting, not a cap out of force. */
	w->caps.cap[0].count_end = 10 + 330;
	verdict(w, "110.0% of the cap: the cap held, the run ran into it", "held", true);
	/*
	 * A throttle lets a burst through as a run starts (its slices, up to
	 * 0.2 s of the cap): 120% over a 1 s window is the cap held, over
	 * 10 s the cap was not in force.
	 */
	w->caps.cap[0].count_end = 10 + 360;
	verdict(w, "120.0% of the cap: the cap held, the run ran into it", "held", true);
	w->end_ns = w->begin_ns + 10000000000ull;
	w->caps.cap[0].count_end = 10 + 3600;
	verdict(w, "120.0% of the cap: above the cap: it was not in force on this I/O",
		"not_in_force", false);
	w->end_ns = w->begin_ns + 1000000000ull;
	/* --rate 285 under a cap of 300: the run's own rate. */
	w->caps.cap[0].count_end = 10 + 285;
	w->aim[ATIO_CAP_RIOPS] = 285;
	verdict(w, "95.0% of the cap: below it: the run's own --cap held it there",
		"own_rate", false);
	/* The run fell well short of its own rate: the cap's verdict. */
	w->aim[ATIO_CAP_RIOPS] = 280;
	w->caps.cap[0].count_end = 10 + 150;
	verdict(w, "50.0% of the cap: below it, the cap did not hold the run back", "below", false);
	/* A --rate above the cap: the cap held the run. */
	w->aim[ATIO_CAP_RIOPS] = 400;
	w->caps.cap[0].count_end = 10 + 295;
	verdict(w, "98.3% of the cap: the cap held, the run ran into it", "held", true);
	/* A --rate on writes says nothing of a cap on reads. */
	w->aim[ATIO_CAP_RIOPS] = 0;
	w->aim[ATIO_CAP_WIOPS] = 200;
	verdict(w, "98.3% of the cap: the cap held, the run ran into it", "held", true);
	free(w);
}

/* The reads' counter wrapped between the readings: unknown, not 2^64 - x. */
static void test_backwards(void **state)
{
	struct atio_device_window *w = window();
	char *t;
	json_t *doc, *f;

	(void)state;
	snprintf(w->node[0].stat_begin, sizeof(w->node[0].stat_begin),
		 "4294967290 0 800 50 0 0 0 0 0 100 70");
	t = text(w);
	assert_non_null(strstr(t, "device: loop0 (7:0, backing file /var/tmp/disk.img): read "
			       "unknown; write 0.0 IOPS; aqu-sz 0.50, util 50.0% (11 fields"));
	assert_null(strstr(t, "1844674"));
	free(t);
	doc = json(w);
	f = json_object_get(json_array_get(json_object_get(json_object_get(doc, "device"),
							   "devices"), 0), "figures");
	assert_true(json_is_null(json_object_get(f, "read")));
	assert_true(json_is_null(json_object_get(json_object_get(f, "raw"), "read_ios")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(f, "raw"),
							    "read_sectors")), 8000);
	assert_true(json_is_null(json_object_get(json_object_get(f, "raw"), "flush_ios")));
	json_decref(doc);
	free(w);
}

static void test_json(void **state)
{
	struct atio_device_window *w = window();
	json_t *doc = json(w), *dev = json_object_get(doc, "device");
	json_t *d0 = json_array_get(json_object_get(dev, "devices"), 0);
	json_t *d1 = json_array_get(json_object_get(dev, "devices"), 1);
	json_t *rd = json_object_get(json_object_get(d0, "figures"), "read");
	json_t *cap = json_array_get(json_object_get(dev, "caps"), 0);

	(void)state;
	assert_true(json_is_true(json_object_get(dev, "measured")));
	assert_string_equal(json_string_value(json_object_get(d0, "name")), "loop0");
	assert_string_equal(json_string_value(json_object_get(d0, "relation")), "target");
	assert_string_equal(json_string_value(json_object_get(d0, "backing_file")), "/var/tmp/disk.img");
	assert_true(json_number_value(json_object_get(rd, "iops")) == 1000.0);
	assert_true(json_number_value(json_object_get(rd, "request_bytes")) == 4096.0);
	assert_true(json_number_value(json_object_get(rd, "await_ms")) == 0.5);
	assert_true(json_number_value(json_object_get(json_object_get(d0, "figures"),
						      "util_pct")) == 50.0);
	assert_string_equal(json_string_value(json_object_get(d1, "relation")), "backing");
	assert_string_equal(json_string_value(json_object_get(d1, "above")), "loop0");
	assert_int_equal(json_array_size(json_object_get(d1, "path")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(d1, "path"), 1)), "vda");
	assert_string_equal(json_string_value(json_object_get(cap, "kind")), "riops");
	assert_int_equal(json_integer_value(json_object_get(cap, "limit")), 200);
	assert_true(json_is_true(json_object_get(cap, "held")));
	assert_true(json_number_value(json_object_get(cap, "measured")) == 190.0);
	json_decref(doc);
	free(w);
}

/* No device under the target, or no reading at the start: no line, a null object. */
static void test_none(void **state)
{
	struct atio_device_window *w = window();
	char *t;
	json_t *doc;

	(void)state;
	t = text(NULL);
	assert_string_equal(t, "");
	free(t);
	doc = json(NULL);
	assert_true(json_is_null(json_object_get(doc, "device")));
	json_decref(doc);
	w->begun = false;
	t = text(w);
	assert_non_null(strstr(t, "device: loop0 (7:0, backing file /var/tmp/disk.img): its "
			       "counters could not be read at both ends of the measured time\n"));
	assert_non_null(strstr(t, "could not be read; whether the run ran into it is not known"));
	free(t);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_backwards),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
