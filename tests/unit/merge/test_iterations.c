/* SPDX-License-Identifier: MIT */
/*
 * atio merge --iterations: the average, min, max and sample standard
 * deviation of the iterations' sums and each node's share, against
 * figures worked out by hand; iterations that do not fit together are
 * refused; merge documents are read back from what atio_merge_json()
 * writes.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "atio/merge/iterations.h"

/* An iteration of @n nodes with values @v, as read from a document. */
static struct atio_iteration iteration(const char *unit, unsigned n, const double *v)
{
	struct atio_iteration it = { .file = "it.json", .nvalues = n };

	snprintf(it.unit, sizeof(it.unit), "%s", unit);
	it.values = malloc(n * sizeof(*it.values));
	assert_non_null(it.values);
	for (unsigned i = 0; i < n; i++) {
		it.values[i] = v[i];
		it.sum += v[i];
	}
	return it;
}

/*
 * Sums 10, 20, 60 (nodes 1+9, 5+15, 30+30): mean 30, min 10, max 60,
 * squares about the mean 400 + 100 + 900 = 1400, stddev sqrt(1400 / 2);
 * node 1 holds 36 of 90, node 2 54 of 90.
 */
static void figures_by_hand(void **state)
{
	static const double v[3][2] = { { 1, 9 }, { 5, 15 }, { 30, 30 } };
	struct atio_iterations s;
	struct atio_error e = { 0 };
	char out[512] = "";
	FILE *f;

	(void)state;
	atio_iterations_init(&s);
	for (unsigned k = 0; k < 3; k++) {
		struct atio_iteration it = iteration("IOPS", 2, v[k]);

		assert_int_equal(atio_iterations_add(&s, &it, &e), 0);
		atio_iteration_free(&it);
	}
	assert_true(fabs(atio_iterations_average(&s) - 30.0) < 1e-12);
	assert_true(fabs(atio_iterations_stddev(&s) - sqrt(700.0)) < 1e-12);
	f = fmemopen(out, sizeof(out) - 1, "w");
	assert_non_null(f);
	atio_iterations_text(f, &s);
	fclose(f);
	assert_string_equal(out, "Average value = { 30.00000 } IOPS; over 3 iterations\n"
				 "sums: min 10.00000, max 60.00000, stddev 26.45751 IOPS\n"
				 "share of the sums: [1] 40.00%, [2] 60.00%\n");
	atio_iterations_free(&s);
}

static void one_iteration_has_no_stddev(void **state)
{
	static const double v[1] = { 5 };
	struct atio_iterations s;
	struct atio_iteration it = iteration("MB/s", 1, v);
	struct atio_error e = { 0 };

	(void)state;
	atio_iterations_init(&s);
	assert_int_equal(atio_iterations_add(&s, &it, &e), 0);
	assert_true(isnan(atio_iterations_stddev(&s)));
	assert_true(atio_iterations_average(&s) == 5.0);
	atio_iteration_free(&it);
	atio_iterations_free(&s);
}

static void misfits_refused(void **state)
{
	static const double v[3] = { 1, 2, 3 };
	struct atio_iterations s;
	struct atio_iteration a = iteration("IOPS", 2, v), b = iteration("MB/s", 2, v),
			      c = iteration("IOPS", 3, v);
	struct atio_error e = { 0 };

	(void)state;
	atio_iterations_init(&s);
	assert_int_equal(atio_iterations_add(&s, &a, &e), 0);
	assert_int_equal(atio_iterations_add(&s, &b, &e), -EINVAL);
	assert_int_equal(e.exit, ATIO_EXIT_USAGE);
	assert_non_null(strstr(e.msg, "in MB/s, the iterations before it in IOPS"));
	assert_int_equal(atio_iterations_add(&s, &c, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "it merged 3 documents, the iterations before it 2"));
	assert_int_equal(s.n, 1);
	atio_iteration_free(&a);
	atio_iteration_free(&b);
	atio_iteration_free(&c);
	atio_iterations_free(&s);
}

/* A document written to a file and read back. */
static int read_text(const char *text, struct atio_iteration *it, struct atio_error *e)
{
	char path[] = "/tmp/atio-test-iterations.XXXXXX";
	int fd = mkstemp(path), ret;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ret = atio_iteration_read(path, it, e);
	unlink(path);
	it->file = NULL;
	return ret;
}

static void documents_read(void **state)
{
	struct atio_iteration it;
	struct atio_error e = { 0 };

	(void)state;
	assert_int_equal(read_text("{\"sum\":3.5,\"unit\":\"MB/s\",\"documents\":2,"
				   "\"documents_merged\":[{\"value\":1.25},{\"value\":2.25}]}",
				   &it, &e), 0);
	assert_string_equal(it.unit, "MB/s");
	assert_true(it.sum == 3.5);
	assert_int_equal(it.nvalues, 2);
	assert_true(it.values[0] == 1.25 && it.values[1] == 2.25);
	atio_iteration_free(&it);

	assert_int_equal(read_text("{\"sum\":1,\"unit\":\"IOPS\",\"documents_merged\":[]}", &it, &e),
			 -EINVAL);
	assert_non_null(strstr(e.msg, "documents_merged: empty"));
	assert_int_equal(read_text("{\"sum\":1,\"unit\":\"furlongs\",\"documents_merged\":[{\"value\":1}]}",
				   &it, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "unit: not MB/s, IOPS or sync/s"));
	assert_int_equal(read_text("{\"sum\":-1,\"unit\":\"IOPS\",\"documents_merged\":[{\"value\":1}]}",
				   &it, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "sum: -1 is not a count or time"));
	assert_int_equal(read_text("[1, 2]", &it, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "not an atio merge --json document"));
	assert_int_equal(e.exit, ATIO_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(figures_by_hand),
		cmocka_unit_test(one_iteration_has_no_stddev),
		cmocka_unit_test(misfits_refused),
		cmocka_unit_test(documents_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
