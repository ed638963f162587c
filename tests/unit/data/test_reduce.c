/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of reducible data (include/atio/data/reduce.h): the groups of
 * --dedup are exact and spread, a block's data depends on its place alone,
 * copies are byte for byte the same, and the shared check knows where
 * each content belongs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/data/check_sector.h"
#include "atio/data/dataset.h"
#include "atio/data/reduce.h"
#include "atio/data/stamp.h"

#define FILE_SIZE (1u << 20)

/* The cut: 512 / R less the slack, never inside the stamp, whole without --compress. */
static void test_cut(void **state)
{
	assert_int_equal(atio_reduce_cut(0), 512);
	assert_int_equal(atio_reduce_cut(1), 512);
	assert_int_equal(atio_reduce_cut(2), 256 - ATIO_REDUCE_SLACK);
	assert_int_equal(atio_reduce_cut(3), 171 - ATIO_REDUCE_SLACK);
	assert_int_equal(atio_reduce_cut(ATIO_REDUCE_MAX_COMPRESS), ATIO_STAMP_BYTES);
	(void)state;
}

/* atio_keystream_short() makes CTR's bytes, at any position, key after key. */
static void test_short(void **state)
{
	static unsigned char a[8192], b[8192];
	struct atio_keystream ks = { 0 };
	const uint64_t pos[] = { 0, 16, 4096, 512 * 1000 + 48, 1ull << 40 };

	for (uint64_t key = 1; key <= 3; key++)
		for (size_t i = 0; i < sizeof(pos) / sizeof(pos[0]); i++) {
			assert_int_equal(atio_keystream(a, sizeof(a), key, pos[i]), 0);
			assert_int_equal(atio_keystream_short(&ks, b, sizeof(b), key, pos[i]), 0);
			assert_memory_equal(a, b, sizeof(a));
		}
	atio_keystream_end(&ks);
	(void)state;
}

/*
 * 256 units in 64 groups (--dedup 4): every group has exactly 4 units, and
 * no two units of one group are neighbours more often than chance.
 */
static void test_groups(void **state)
{
	struct atio_reduce rd;
	unsigned count[64] = { 0 }, adjacent = 0;
	uint64_t key, prev = UINT64_MAX;

	atio_reduce_plan(&rd, 0, 4, 4096, FILE_SIZE, 42);
	assert_int_equal(rd.units, 256);
	assert_int_equal(rd.groups, 64);
	key = atio_reduce_key(&rd, 7);
	for (uint64_t i = 0; i < rd.units; i++) {
		uint64_t pos = atio_reduce_pos(&rd, key, i * 4096 + 512);
		uint64_t g = pos / 4096;

		assert_int_equal(pos % 4096, 512);
		assert_true(g < 64);
		count[g]++;
		adjacent += g == prev;
		prev = g;
	}
	for (unsigned g = 0; g < 64; g++)
		assert_int_equal(count[g], 4);
	/* In place order, 255 of 255 pairs would be; at random about 4. */
	assert_true(adjacent < 20);
	(void)state;
}

/*
 * A block filled at once, or sector by sector, or a unit at a time in any
 * order, holds the same bytes; two units of one group hold the same bytes;
 * another seed or another file other bytes.
 */
static void test_fill(void **state)
{
	struct atio_reduce rd, other;
	struct atio_keystream ks = { 0 };
	static unsigned char a[FILE_SIZE], b[FILE_SIZE];
	uint64_t key, first = UINT64_MAX, copy = 0;

	atio_reduce_plan(&rd, 2, 2, 4096, FILE_SIZE, 42);
	assert_int_equal(atio_reduce_fill(&rd, &ks, a, sizeof(a), 0, 7), 0);
	for (size_t off = sizeof(b); off > 0; off -= 512)
		assert_int_equal(atio_reduce_fill(&rd, &ks, b + off - 512, 512, off - 512, 7), 0);
	assert_memory_equal(a, b, sizeof(a));
	/* The filler: zeros from the cut on, in every sector. */
	for (size_t s = 0; s < sizeof(a); s += 512)
		for (size_t i = rd.cut; i < 512; i++)
			assert_int_equal(a[s + i], 0);
	/* A copy of unit 0 elsewhere, the same bytes. */
	key = atio_reduce_key(&rd, 7);
	for (uint64_t i = 1; i < rd.units && !copy; i++) {
		if (first == UINT64_MAX)
			first = atio_reduce_pos(&rd, key, 0);
		if (atio_reduce_pos(&rd, key, i * 4096) == first)
			copy = i;
	}
	assert_true(copy > 0);
	assert_memory_equal(a, a + copy * 4096, 4096);
	atio_reduce_plan(&other, 2, 2, 4096, FILE_SIZE, 43);
	assert_int_equal(atio_reduce_fill(&other, &ks, b, 4096, 0, 7), 0);
	assert_memory_not_equal(a, b, 4096);
	assert_int_equal(atio_reduce_fill(&rd, &ks, b, 4096, 0, 8), 0);
	assert_memory_not_equal(a, b, 4096);
	atio_keystream_end(&ks);
	(void)state;
}

/*
 * atio_check_block() passes reduced data where it belongs, names a unit
 * of another group MISPLACED and a changed filler byte CORRUPT.
 */
static void test_check(void **state)
{
	struct atio_reduce rd;
	struct atio_keystream ks = { 0 }, kctx = { 0 };
	struct atio_file file = { .path = (char *)"f" };
	struct atio_dataset ds = { .files = &file, .nfiles = 1, .file_size = FILE_SIZE, .id = 9 };
	static unsigned char a[FILE_SIZE];
	static unsigned char want[FILE_SIZE];
	struct atio_check_bad bad;
	struct atio_stamp found;
	uint64_t tag = atio_stamp_tag(9, 0), key, word, g0, k = 1;

	atio_reduce_plan(&rd, 3, 4, 4096, FILE_SIZE, 1);
	key = atio_reduce_key(&rd, tag);
	word = atio_reduce_word(&rd);
	assert_int_equal(atio_reduce_fill(&rd, &ks, a, sizeof(a), 0, tag), 0);
	assert_int_equal(atio_check_block(a, sizeof(a), 0, &ds, 0, &kctx, want, &bad, &found),
			 0);
	for (size_t s = 0; s < sizeof(a); s += 512)
		assert_int_equal(atio_check_reduced(a + s, key, word, &bad, &found), 0);
	assert_int_equal(atio_check_reduced(a, key ^ 1, word, &bad, &found), 1);
	assert_int_equal(bad.kind, ATIO_CHECK_OTHER);
	/* Unit 0's bytes at unit k, of another group. */
	g0 = atio_reduce_pos(&rd, key, 0);
	while (atio_reduce_pos(&rd, key, k * 4096) == g0)
		k++;
	memcpy(a + k * 4096, a, 4096);
	assert_int_equal(atio_check_block(a + k * 4096, 4096, k * 4096, &ds, 0, &kctx, want,
					  &bad, &found), 1);
	assert_int_equal(bad.kind, ATIO_CHECK_MISPLACED);
	/* A filler byte of the unit after it. */
	k++;
	a[k * 4096 + 511] = 1;
	assert_int_equal(atio_check_block(a + k * 4096, 4096, k * 4096, &ds, 0, &kctx, want,
					  &bad, &found), 1);
	assert_int_equal(bad.kind, ATIO_CHECK_CORRUPT);
	assert_int_equal(bad.detail, 511);
	atio_keystream_end(&ks);
	atio_keystream_end(&kctx);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
