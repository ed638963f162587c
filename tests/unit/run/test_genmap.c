/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of --verify on writes: the generation map's codes
 * (include/atio/run/genmap.h) and the check of a sector against the write
 * expected there (atio_check_write()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/data/check.h"
#include "atio/run/genmap.h"
#include "atio/data/pool.h"
#include "atio/data/stamp.h"

/*
 * A code is never 0 (unwritten) nor has the busy bit; the generation of a
 * code is found again from the thread's last generation, across the
 * wrap of the codes at 2^31 - 1.
 */
static void test_codes(void **state)
{
	const uint64_t M = ATIO_GENMAP_MOD;
	const uint64_t gens[] = { 1, 2, M - 1, M, M + 1, 2 * M, 5 * M + 3, 1ULL << 40 };

	(void)state;
	for (size_t i = 0; i < sizeof(gens) / sizeof(gens[0]); i++) {
		uint32_t c = atio_genmap_code(gens[i]);

		assert_true(c != 0);
		assert_false(c & ATIO_GENMAP_BUSY);
		/* The last generation is the write itself, or up to M - 1 later. */
		assert_int_equal(atio_genmap_gen(c, gens[i]), gens[i]);
		assert_int_equal(atio_genmap_gen(c, gens[i] + 1), gens[i]);
		assert_int_equal(atio_genmap_gen(c, gens[i] + M - 1), gens[i]);
	}
	assert_int_equal(atio_genmap_code(1), 1);
	assert_int_equal(atio_genmap_code(M), M);
	assert_int_equal(atio_genmap_code(M + 1), 1);
}

/* Issue, in flight, done: the busy bit comes and goes, the code stays. */
static void test_map(void **state)
{
	struct atio_genmap m;

	(void)state;
	assert_int_equal(atio_genmap_init(&m, 2, 8, false), 0);
	assert_int_equal(m.blocks, 16);
	assert_int_equal(atio_genmap_last(&m, 9), 0);
	atio_genmap_issue(&m, 9, 42);
	assert_true(atio_genmap_busy(&m, 9));
	assert_int_equal(atio_genmap_last(&m, 9), atio_genmap_code(42));
	atio_genmap_done(&m, 9);
	assert_false(atio_genmap_busy(&m, 9));
	/* A read of the block marks it in flight and keeps the write's code. */
	atio_genmap_issue(&m, 9, 0);
	assert_true(atio_genmap_busy(&m, 9));
	assert_int_equal(atio_genmap_last(&m, 9), atio_genmap_code(42));
	atio_genmap_done(&m, 9);
	assert_int_equal(m.gen[9], atio_genmap_code(42));
	atio_genmap_free(&m);
}

/* A stamped sector as a write (or the fill) would leave it. */
static void sector(unsigned char *s, uint64_t off, uint64_t key, uint64_t gen,
		   enum atio_stamp_kind kind)
{
	assert_int_equal(atio_keystream(s, ATIO_SECTOR, key, 4096), 0);
	atio_stamp_put(s, ATIO_SECTOR, off, 4096, key, gen, kind, 0);
}

static void test_check_write(void **state)
{
	const uint64_t off = 8192, key = 0xabcdefULL;
	unsigned char s[ATIO_SECTOR];
	struct atio_check_bad bad;
	struct atio_stamp found;

	(void)state;
	sector(s, off, key, 10, ATIO_STAMP_WRITE);
	assert_int_equal(atio_check_write(s, 10, key, false, &bad, &found), 0);
	/* An older write: lost. */
	assert_int_equal(atio_check_write(s, 11, key, false, &bad, &found), 1);
	assert_int_equal(bad.kind, ATIO_CHECK_OLDER);
	assert_int_equal(bad.detail, 10);
	assert_int_equal(bad.want_gen, 11);
	/* A later write of the thread: misdirected, unless a later one may be there. */
	assert_int_equal(atio_check_write(s, 9, key, false, &bad, &found), 1);
	assert_int_equal(bad.kind, ATIO_CHECK_NEWER);
	assert_int_equal(atio_check_write(s, 9, key, true, &bad, &found), 0);
	/* Another key: another run's data, newer or not. */
	assert_int_equal(atio_check_write(s, 10, key + 1, true, &bad, &found), 1);
	assert_int_equal(bad.kind, ATIO_CHECK_OTHER);
	assert_int_equal(bad.detail, key);
	/* The fill: older than any write. */
	sector(s, off, key, 0, ATIO_STAMP_FILL);
	assert_int_equal(atio_check_write(s, 1, key, true, &bad, &found), 1);
	assert_int_equal(bad.kind, ATIO_CHECK_OLDER);
	assert_int_equal(bad.detail, 0);
	/* No stamp: left to atio_check_block(). */
	memset(s, 0, sizeof(s));
	assert_int_equal(atio_check_write(s, 1, key, false, &bad, &found), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_check_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
