/* SPDX-License-Identifier: MIT */
/* Unit tests of the write-data pool: keystream, windows, stamps. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/pool.h"

/* The keystream is a pure function of key and position, continuous in CTR. */
static void test_keystream_positions(void **state)
{
	size_t len = 1 << 16;
	unsigned char *a = malloc(len), *b = malloc(len), *c = malloc(len);

	assert_int_equal(atio_keystream(a, len, 42, 0), 0);
	assert_int_equal(atio_keystream(b, len, 42, 0), 0);
	assert_memory_equal(a, b, len);

	/* Starting at byte 4096 gives the same bytes as the tail of a. */
	assert_int_equal(atio_keystream(c, len - 4096, 42, 4096), 0);
	assert_memory_equal(a + 4096, c, len - 4096);

	/* Another key gives other bytes. */
	assert_int_equal(atio_keystream(b, len, 43, 0), 0);
	assert_memory_not_equal(a, b, len);
	free(a);
	free(b);
	free(c);
}

/*
 * Byte frequencies of keystream are flat: chi-square over 256 byte values
 * with 255 degrees of freedom has mean 255 and standard deviation 22.6; 400
 * is more than six deviations out. Zeros, text or a repeating pattern score
 * in the tens of thousands.
 */
static double chi_square_bytes(const unsigned char *p, size_t len)
{
	double count[256] = { 0 }, expect = (double)len / 256, chi = 0;

	for (size_t i = 0; i < len; i++)
		count[p[i]]++;
	for (int i = 0; i < 256; i++)
		chi += (count[i] - expect) * (count[i] - expect) / expect;
	return chi;
}

static void test_pool_is_random(void **state)
{
	struct atio_pool p;

	assert_int_equal(atio_pool_init(&p, 4096, 1, 7, true), 0);
	assert_true(chi_square_bytes(p.base, p.size) < 400);
	/* The check itself can fail: a zeroed buffer scores far above. */
	memset(p.base, 0, 1 << 20);
	assert_true(chi_square_bytes(p.base, p.size) > 400);
	atio_pool_free(&p);
	assert_null(p.base);
}

static void test_pool_sizes(void **state)
{
	struct atio_pool p;

	assert_int_equal(atio_pool_init(&p, 4096, 1, 1, true), 0);
	assert_true(p.size >= ATIO_POOL_MIN);
	assert_int_equal(p.size % 4096, 0);
	assert_int_equal((uintptr_t)p.base % 4096, 0);
	atio_pool_free(&p);

	/* Large windows: at least inflight + 1 of them. */
	assert_int_equal(atio_pool_init(&p, 16u << 20, 3, 1, true), 0);
	assert_true(p.size >= 4 * (16u << 20));
	atio_pool_free(&p);

	/* Odd window sizes still tile the pool exactly. */
	assert_int_equal(atio_pool_init(&p, 3 * 512, 1, 1, true), 0);
	assert_int_equal(p.size % (3 * 512), 0);
	atio_pool_free(&p);
}

/* Every 4 KiB of a taken window carries its file offset and the sequence. */
static void test_take_stamps(void **state)
{
	struct atio_pool p;
	struct atio_stamp st;
	size_t nwin;

	assert_int_equal(atio_pool_init(&p, 16384, 1, 9, true), 0);
	nwin = p.size / p.window;
	for (uint64_t i = 0; i < 2 * nwin + 3; i++) {
		uint64_t off = 1000000ULL * 4096 + i * 16384;
		unsigned char *w = atio_pool_take(&p, off);

		/* Windows go round robin and wrap. */
		assert_ptr_equal(w, p.base + (i % nwin) * 16384);
		for (unsigned k = 0; k < 4; k++) {
			memcpy(&st, w + k * 4096, sizeof(st));
			assert_int_equal(st.offset, off + k * 4096);
			assert_int_equal(st.seq, i + 1);
		}
		/* Bytes after the stamp are keystream, not zeros. */
		assert_true(w[16] || w[17] || w[18] || w[19]);
	}
	atio_pool_free(&p);
}

/* Two writes of the same window at the same offset still differ. */
static void test_no_two_blocks_alike(void **state)
{
	struct atio_pool p;
	unsigned char first[4096];
	size_t nwin;
	unsigned char *w;

	assert_int_equal(atio_pool_init(&p, 4096, 1, 3, true), 0);
	nwin = p.size / p.window;
	w = atio_pool_take(&p, 0);
	memcpy(first, w, sizeof(first));
	for (size_t i = 1; i < nwin; i++)
		atio_pool_take(&p, 4096 * i);
	w = atio_pool_take(&p, 0);
	assert_ptr_equal(w, p.base);
	assert_memory_not_equal(first, w, sizeof(first));
	/* Only the stamp differs: the rest is the same keystream. */
	assert_memory_equal(first + 16, w + 16, sizeof(first) - 16);
	atio_pool_free(&p);
}

/* A block smaller than 4 KiB gets one stamp; a tiny buffer none. */
static void test_stamp_small(void **state)
{
	unsigned char buf[512], tiny[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct atio_stamp st;

	memset(buf, 0xaa, sizeof(buf));
	atio_stamp(buf, sizeof(buf), 512, 5);
	memcpy(&st, buf, sizeof(st));
	assert_int_equal(st.offset, 512);
	assert_int_equal(st.seq, 5);
	assert_int_equal(buf[16], 0xaa);
	atio_stamp(tiny, sizeof(tiny), 0, 1);
	assert_int_equal(tiny[0], 1);
	assert_int_equal(tiny[7], 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keystream_positions),
		cmocka_unit_test(test_pool_is_random),
		cmocka_unit_test(test_pool_sizes),
		cmocka_unit_test(test_take_stamps),
		cmocka_unit_test(test_no_two_blocks_alike),
		cmocka_unit_test(test_stamp_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
