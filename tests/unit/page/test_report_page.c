/* SPDX-License-Identifier: MIT */
/*
 * atio report's page: what its summary says a driver's test's rate is,
 * and its record built in time linear in the documents' members.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "atio/page/report_page.h"

#define MEMBERS 20000

/* The number of times @needle is in @s. */
static unsigned occurrences(const char *s, const char *needle)
{
	unsigned n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * A document of MEMBERS members and an array of MEMBERS numbers: one row
 * each, in order, the array on one row, and each row found by its hash:
 * the paths compared about once a member (a search of the rows made
 * before compares MEMBERS^2 / 2 times).
 */
static void test_record_linear(void **state)
{
	struct atio_rfile f = { .path = "big.json", .name = "big.json", .kind = ATIO_RDOC_RUN };
	json_t *arr = json_array();
	char *out = NULL, key[32], want[256];
	size_t len = 0;
	FILE *o;

	(void)state;
	f.doc = json_object();
	assert_true(f.doc && arr);
	for (unsigned i = 0; i < MEMBERS; i++) {
		snprintf(key, sizeof(key), "k%05u", i);
		assert_int_equal(json_object_set_new(f.doc, key, json_integer(i)), 0);
		assert_int_equal(json_array_append_new(arr, json_integer(i)), 0);
	}
	assert_int_equal(json_object_set_new(f.doc, "list", arr), 0);
	o = open_memstream(&out, &len);
	assert_non_null(o);
	assert_int_equal(atio_report_record(o, &f, 1), 0);
	assert_int_equal(fclose(o), 0);
	assert_int_equal(occurrences(out, "<tr><td class=\"k\">k"), MEMBERS);
	assert_non_null(strstr(out, "<td class=\"k\">k00000</td><td class=\"k\">0</td></tr>\n"
				    "<tr><td class=\"k\">k00001</td><td class=\"k\">1</td></tr>\n"));
	snprintf(want, sizeof(want), "<td class=\"k\">k%05u</td><td class=\"k\">%u</td></tr>\n"
		 "<tr><td class=\"k\">list</td><td class=\"k\">0 1 2 3 ", MEMBERS - 1, MEMBERS - 1);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want), " %u %u</td></tr>\n</table>", MEMBERS - 2, MEMBERS - 1);
	assert_non_null(strstr(out, want));
	if (atio_report_record_compares > 2 * MEMBERS)
		fail_msg("%llu comparisons of paths for %u members",
			 atio_report_record_compares, MEMBERS + 1);
	free(out);
	json_decref(f.doc);
}

/* A driver's -o document: one test, iterations with sums @s, the third not concurrent. */
static const char driver_doc[] =
	"{\"settings\": {\"iterations\": 3}, \"nodes\": [{\"host\": \"n1\"}], \"results\": "
	"[{\"threads\": 1, \"tests\": [{\"threads\": 1, \"test\": \"randread\", \"unit\": \"IOPS\", "
	"\"runs\": 3, \"complete_iterations\": 2, \"average\": 580.748, \"min\": 543.69, "
	"\"max\": 617.806, \"iterations\": ["
	"{\"iteration\": 1, \"complete\": true, \"concurrent\": true, \"sum\": 617.806, "
	"\"merge\": {\"sum\": 617.806, \"unit\": \"IOPS\", \"documents_merged\": [{}]}, \"nodes\": []},"
	"{\"iteration\": 2, \"complete\": true, \"concurrent\": true, \"sum\": 543.69, "
	"\"merge\": {\"sum\": 543.69, \"unit\": \"IOPS\", \"documents_merged\": [{}]}, \"nodes\": []},"
	"{\"iteration\": 3, \"complete\": true, \"concurrent\": false, \"sum\": 100, "
	"\"merge\": {\"sum\": 100, \"unit\": \"IOPS\", \"documents_merged\": [{}]}, \"nodes\": []}"
	"]}]}]}";

/*
 * The summary gives a driver's test's rate as the driver's average (not
 * its last iteration's sum) and says so; the charts are of the last
 * counted iteration (not the third, which was not concurrent), and the
 * page says which and its sum.
 */
static void test_driver_average(void **state)
{
	char path[] = "/tmp/atio-test-driver-XXXXXX", *out = NULL;
	struct atio_rfile f;
	struct atio_error e = { 0 };
	size_t len = 0;
	FILE *o;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, driver_doc, strlen(driver_doc)), (ssize_t)strlen(driver_doc));
	close(fd);
	if (atio_rfile_read(path, &f, &e))
		fail_msg("%s", e.msg);
	unlink(path);
	assert_int_equal(f.nruns, 1);
	assert_true(f.runs[0].value == 580.748);
	assert_int_equal(f.runs[0].iteration, 2);
	assert_true(f.runs[0].iter_value == 543.69);
	o = open_memstream(&out, &len);
	assert_non_null(o);
	assert_int_equal(atio_report_page(o, &f, 1, "test"), 0);
	assert_int_equal(fclose(o), 0);
	if (!strstr(out, "<td>randread, 1 thread</td><td class=\"n\">580.75 IOPS</td><td>average of "
			 "2 iterations (of 3 run); the charts: iteration 2, sum 543.69 IOPS</td>"))
		fail_msg("no summary row of the average in: %.1500s", strstr(out, "<h2>Summary"));
	assert_non_null(strstr(out, "the charts below are of iteration 2 of 3, whose sum is "
				    "543.69 IOPS; the summary's rate is the test's average."));
	free(out);
	atio_rfile_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_linear),
		cmocka_unit_test(test_driver_average),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
