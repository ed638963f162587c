/* SPDX-License-Identifier: MIT */
/*
 * The pure parts of a metadata run: its phases read from --meta's text
 * (atio/base/meta_opts.h), the mark of its tree written and read back,
 * and the names atio gives in its tree (atio/data/meta_tree.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "atio/base/meta_opts.h"
#include "atio/data/meta_tree.h"

static void test_phases(void **state)
{
	struct atio_meta_opts m = { 0 };
	const char *bad = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(atio_meta_phases_parse("create,stat,read,rename,delete", &m, &bad, &len), 0);
	assert_int_equal(m.nphases, 5);
	for (unsigned i = 0; i < 5; i++)
		assert_int_equal(m.phase[i], (enum atio_meta_phase)i);
	assert_int_equal(atio_meta_phases_parse("stat", &m, &bad, &len), 0);
	assert_int_equal(m.nphases, 1);
	assert_int_equal(m.phase[0], ATIO_META_STAT);
	assert_true(atio_meta_has(&m, ATIO_META_STAT));
	assert_false(atio_meta_has(&m, ATIO_META_CREATE));

	/* The bad name is pointed at, with its length; an empty one too. */
	assert_int_equal(atio_meta_phases_parse("create,chmod,delete", &m, &bad, &len), -EINVAL);
	assert_int_equal(len, 5);
	assert_memory_equal(bad, "chmod", 5);
	assert_int_equal(atio_meta_phases_parse("create,,delete", &m, &bad, &len), -EINVAL);
	assert_int_equal(len, 0);
	assert_int_equal(atio_meta_phases_parse("create,", &m, &bad, &len), -EINVAL);
	assert_int_equal(atio_meta_phases_parse("", &m, &bad, &len), -EINVAL);
	assert_int_equal(atio_meta_phases_parse("creat", &m, &bad, &len), -EINVAL);
	assert_int_equal(atio_meta_phases_parse("creates", &m, &bad, &len), -EINVAL);
	assert_int_equal(atio_meta_phases_parse("CREATE", &m, &bad, &len), -EINVAL);
	assert_int_equal(atio_meta_phases_parse("stat,stat,stat,stat,stat,stat,stat,stat,"
						"stat,stat,stat,stat,stat,stat,stat,stat",
						&m, &bad, &len), 0);
	assert_int_equal(m.nphases, ATIO_META_MAX_PHASES);
	assert_int_equal(atio_meta_phases_parse("stat,stat,stat,stat,stat,stat,stat,stat,"
						"stat,stat,stat,stat,stat,stat,stat,stat,stat",
						&m, &bad, &len), -E2BIG);
	for (int p = 0; p < ATIO_META_KINDS; p++) {
		const char *name = atio_meta_phase_name((enum atio_meta_phase)p);

		assert_int_equal(atio_meta_phase_parse(name, strlen(name)), p);
	}
}

static void test_mark(void **state)
{
	struct atio_meta_mark m = { .id = 0x0123456789abcdefull, .state = ATIO_META_RENAMED,
				    .threads = 8, .files = 10000, .dirs = 100, .file_size = 3901,
				    .shared = true, .seed = UINT64_MAX }, got = { 0 };
	char text[256];

	(void)state;
	atio_meta_mark_format(text, sizeof(text), &m);
	assert_string_equal(text, "atio-meta 1 0123456789abcdef renamed 8 10000 100 3901 1 "
			    "18446744073709551615");
	assert_int_equal(atio_meta_mark_parse(text, &got), 0);
	assert_true(got.id == m.id && got.state == m.state && got.threads == m.threads &&
		    got.files == m.files && got.dirs == m.dirs && got.file_size == m.file_size &&
		    got.shared == m.shared && got.seed == m.seed);
	for (unsigned s = ATIO_META_EMPTY; s <= ATIO_META_PARTIAL; s++) {
		m.state = (enum atio_meta_state)s;
		m.shared = s & 1;
		atio_meta_mark_format(text, sizeof(text), &m);
		assert_int_equal(atio_meta_mark_parse(text, &got), 0);
		assert_int_equal(got.state, s);
		assert_int_equal(got.shared, s & 1);
	}
	/* Only the text atio writes is a mark. */
	assert_int_equal(atio_meta_mark_parse("atio-file 2 0123456789abcdef atio.0", &got), -EINVAL);
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789abcdef files 8 10 1 0 0 1 x",
					      &got), -EINVAL);
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789ABCDEF files 8 10 1 0 0 1",
					      &got), -EINVAL);
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789abcdef moved 8 10 1 0 0 1",
					      &got), -EINVAL);
	/* SHARED above 1: a tree shared by that many members (--shared-by). */
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789abcdef files 8 10 1 0 3 1",
					      &got), 0);
	assert_true(got.shared && got.members == 3);
	m.members = 5;
	atio_meta_mark_format(text, sizeof(text), &m);
	assert_int_equal(atio_meta_mark_parse(text, &got), 0);
	assert_true(got.shared && got.members == 5);
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789abcdef files 8 10 1 0 02 1",
					      &got), -EINVAL);
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789abcdef files 8 10 1 0 -1 1",
					      &got), -EINVAL);
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789abcdef files 8 10 1 0 0",
					      &got), -EINVAL);
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789abcdef files 8 10 1 0 0 1\n",
					      &got), -EINVAL);
	assert_int_equal(atio_meta_mark_parse("atio-meta 1 0123456789abcdef files 08 10 1 0 0 1",
					      &got), -EINVAL);
}

static void test_names(void **state)
{
	static const char *const files[] = { "f0", "f17", "r3", "t0.f0", "t12.r99" };
	static const char *const not_files[] = {
		"f", "f01", "x1", "f1x", "t1", "t1.", "t.f1", "t01.f1", "t1.d1", "t1.f", "notes",
		"f-1", "r 1", "", "t1.f1.f1",
	};
	static const char *const dirs[] = { "t0", "t4095", "d0", "d99", "shared" };
	static const char *const not_dirs[] = { "t", "d", "d01", "x0", "shared0", "f1", "t1.f1" };

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		assert_true(atio_meta_tree_name(files[i], false));
		assert_false(atio_meta_tree_name(files[i], true));
	}
	for (size_t i = 0; i < sizeof(not_files) / sizeof(*not_files); i++)
		assert_false(atio_meta_tree_name(not_files[i], false));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++)
		assert_true(atio_meta_tree_name(dirs[i], true));
	for (size_t i = 0; i < sizeof(not_dirs) / sizeof(*not_dirs); i++)
		assert_false(atio_meta_tree_name(not_dirs[i], true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_mark),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
