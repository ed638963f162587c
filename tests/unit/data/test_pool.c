/* SPDX-License-Identifier: MIT */
/* Unit tests of the write-data pool: keystream, windows by position, stamps on take. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/data/pool.h"

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
	assert_int_equal(p.size, atio_pool_bytes(4096, 1, 0));
	assert_int_equal(p.size % 4096, 0);
	assert_int_equal((uintptr_t)p.base % 4096, 0);
	/* Small windows come in a power of two: a mask picks them. */
	assert_int_equal(p.nwin & (p.nwin - 1), 0);
	assert_int_equal(p.mask, p.nwin - 1);
	atio_pool_free(&p);

	/* Large windows: at least inflight + 1 of them. */
	assert_int_equal(atio_pool_init(&p, 16u << 20, 3, 1, true), 0);
	assert_true(p.size >= 4 * (16u << 20));
	atio_pool_free(&p);

	/* Odd window sizes still tile the pool exactly. */
	assert_int_equal(atio_pool_init(&p, 3 * 512, 1, 1, true), 0);
	assert_int_equal(p.size % (3 * 512), 0);
	assert_true(p.nwin >= ATIO_POOL_MIN / (3 * 512));
	atio_pool_free(&p);
	assert_int_equal(atio_pool_bytes(3u << 20, 1, 0), 3 * (3u << 20));
}

/*
 * A pool made to cover a thread's share holds at least that much
 * keystream, in a power of two of small windows, and at least the least
 * pool; windows above the least are the same keystream continued, so a
 * share's block b still takes window b mod nwin, now with no repeat
 * within the share. atio_pool_bytes() says what atio_pool_init_tail()
 * makes, spares included.
 */
static void test_pool_cover(void **state)
{
	struct atio_pool p, q;

	/* A 24 MiB share of 4K blocks: 32 MiB of windows (a power of two). */
	assert_int_equal(atio_pool_windows(4096, 1, 24u << 20), 8192);
	assert_int_equal(atio_pool_init_tail(&p, 4096, 1, 24u << 20, 3, true, 0), 0);
	assert_int_equal(p.nwin, 8192);
	assert_int_equal(p.mask, 8191);
	assert_int_equal(p.size, atio_pool_bytes(4096, 1, 24u << 20));
	assert_int_equal(atio_pool_init(&q, 4096, 1, 3, true), 0);
	assert_int_equal(q.nwin * 4096, ATIO_POOL_MIN);
	assert_memory_equal(p.base, q.base, ATIO_POOL_MIN);
	assert_ptr_equal(atio_pool_take(&p, 0, 6000, 6000 * 4096, 5), p.base + 6000 * 4096);
	assert_ptr_equal(atio_pool_take(&p, 0, 8192 + 6000, 14192 * 4096, 5),
			 p.base + 6000 * 4096);
	atio_pool_free(&q);
	atio_pool_free(&p);

	/* With requests in flight: the spares come after the covering windows. */
	assert_int_equal(atio_pool_init_tail(&p, 4096, 4, 20u << 20, 3, true, 0), 0);
	assert_int_equal(p.nwin, 8192);
	assert_ptr_equal(p.spare, p.base + 8192 * 4096);
	assert_int_equal(p.size, atio_pool_bytes(4096, 4, 20u << 20));
	assert_int_equal(p.size, (8192 + 4) * 4096);
	atio_pool_free(&p);

	/* A share below the least pool, or none: the least pool. */
	assert_int_equal(atio_pool_windows(4096, 1, 1u << 20), ATIO_POOL_MIN / 4096);
	assert_int_equal(atio_pool_windows(4096, 1, 0), ATIO_POOL_MIN / 4096);
	/* The cap in 16M windows: 8 of them, not rounded (no mask above 1 MiB). */
	assert_int_equal(atio_pool_windows(16u << 20, 1, ATIO_POOL_CAP), 8);
	assert_int_equal(atio_pool_windows(24u << 20, 1, ATIO_POOL_CAP), 6);
	/* Odd small windows: a power of two of them, at least the share. */
	assert_int_equal(atio_pool_windows(1536, 1, 12u << 20), 8192);
	assert_true(atio_pool_windows(1536, 1, 12u << 20) * 1536 >= (12u << 20));
	(void)state;
}

/*
 * A tail for the caller (--mix's read buffers) lies after the windows and
 * spares, 4 KiB-aligned, inside p->size, and takes no keystream nor stamp:
 * writing it leaves every window as it was.
 */
static void test_pool_tail(void **state)
{
	struct atio_pool p, q;
	size_t pool = atio_pool_bytes(4096, 8, 0);

	assert_int_equal(atio_pool_init_tail(&p, 4096, 8, 0, 21, true, 8 * 4096), 0);
	assert_int_equal(atio_pool_init(&q, 4096, 8, 21, true), 0);
	assert_non_null(p.tail);
	assert_null(q.tail);
	assert_int_equal((uintptr_t)p.tail % 4096, 0);
	assert_true(p.tail >= p.base + pool);
	assert_true(p.tail + 8 * 4096 <= p.base + p.size);
	assert_int_equal(p.nwin, q.nwin);
	assert_non_null(p.spare);
	assert_true(p.spare + 8 * 4096 <= p.tail);
	memset(p.tail, 0xa5, 8 * 4096);
	assert_memory_equal(p.base, q.base, p.nwin * 4096);
	atio_pool_free(&p);
	atio_pool_free(&q);

	/* Large windows without spares, and a block size not 4K-aligned. */
	assert_int_equal(atio_pool_init_tail(&p, 3u << 20 | 512, 2, 0, 5, false,
					     2 * (3u << 20 | 512)), 0);
	assert_null(p.spare);
	assert_int_equal((uintptr_t)p.tail % 4096, 0);
	assert_true(p.tail + 2 * (3u << 20 | 512) <= p.base + p.size);
	atio_pool_free(&p);
	(void)state;
}

/*
 * A block's window depends on where it goes: block b takes window
 * b mod nwin, whatever came before, and every sector of it is stamped with
 * its offset, the generation, the key and where its keystream starts.
 */
static void test_take_by_position(void **state)
{
	struct atio_pool p;
	struct atio_stamp st;

	assert_int_equal(atio_pool_init(&p, 16384, 1, 9, true), 0);
	for (uint64_t i = 0; i < 50; i++) {
		uint64_t block = (i * 7919) % (3 * p.nwin);
		uint64_t off = 1000000ULL * 4096 + block * 16384;
		unsigned char *w = atio_pool_take(&p, 0, block, off, 5);

		assert_ptr_equal(w, p.base + (block % p.nwin) * 16384);
		for (unsigned k = 0; k < 16384 / 512; k++) {
			assert_int_equal(atio_stamp_get(w + k * 512, &st), 0);
			assert_int_equal(st.kind, ATIO_STAMP_WRITE);
			assert_int_equal(st.offset, off + k * 512);
			assert_int_equal(st.gen, i + 1);
			assert_int_equal(st.key, 9);
			assert_int_equal(st.pos, (block % p.nwin) * 16384 + k * 512);
			assert_int_equal(st.tag, 5);
		}
	}
	atio_pool_free(&p);
}

/*
 * With requests in flight, a window held by one is never restamped: a
 * second request for the same block's window gets a copy of it in its own
 * spare window (same data, its own stamps), and a slot frees its window
 * when it takes the next. Large windows are not copied: the next free
 * window is taken.
 */
static void test_take_in_flight(void **state)
{
	struct atio_pool p;
	struct atio_stamp st;
	unsigned char *a, *b, *c;
	unsigned char copy[512];

	assert_int_equal(atio_pool_init(&p, 4096, 4, 5, true), 0);
	assert_non_null(p.spare);
	assert_int_equal(p.size, (p.nwin + 4) * 4096);
	a = atio_pool_take(&p, 0, 10, 40960, 5);
	memcpy(copy, a, sizeof(copy));
	b = atio_pool_take(&p, 1, 10 + p.nwin, 40960 + p.nwin * 4096, 5);
	assert_ptr_equal(b, p.spare + 1 * 4096);
	assert_memory_equal(copy, a, sizeof(copy));
	for (unsigned k = 0; k < 8; k++)
		assert_memory_equal(a + k * 512 + ATIO_STAMP_BYTES, b + k * 512 + ATIO_STAMP_BYTES,
				    512 - ATIO_STAMP_BYTES);
	assert_int_equal(atio_stamp_get(b + 512, &st), 0);
	assert_int_equal(st.offset, 40960 + p.nwin * 4096 + 512);
	assert_int_equal(st.pos, 10 * 4096 + 512);
	/* Slot 0 is done with window 10: slot 2 may have it now. */
	atio_pool_take(&p, 0, 3, 3 * 4096, 5);
	c = atio_pool_take(&p, 2, 10, 40960, 5);
	assert_ptr_equal(c, a);
	atio_pool_free(&p);

	assert_int_equal(atio_pool_init(&p, 2u << 20, 2, 5, true), 0);
	assert_null(p.spare);
	a = atio_pool_take(&p, 0, 1, 2u << 20, 5);
	b = atio_pool_take(&p, 1, 1, 2u << 20, 5);
	assert_ptr_not_equal(a, b);
	assert_true(b >= p.base && b < p.base + p.size);
	atio_pool_free(&p);
}

/*
 * Every 512-byte sector written is unique: the same window written at two
 * offsets, or twice at one offset, differs in every sector, while the rest
 * of each sector stays keystream.
 */
static void test_no_two_sectors_alike(void **state)
{
	struct atio_pool p;
	unsigned char first[4096];
	unsigned char *w;

	assert_int_equal(atio_pool_init(&p, 4096, 1, 3, true), 0);
	w = atio_pool_take(&p, 0, 0, 0, 5);
	memcpy(first, w, sizeof(first));
	for (unsigned i = 0; i < 8; i++)
		for (unsigned j = 0; j < 8; j++)
			if (i != j)
				assert_memory_not_equal(first + i * 512, first + j * 512, 512);
	w = atio_pool_take(&p, 0, 0, 0, 5);
	assert_ptr_equal(w, p.base);
	for (unsigned i = 0; i < 8; i++) {
		assert_memory_not_equal(first + i * 512, w + i * 512, ATIO_STAMP_BYTES);
		assert_memory_equal(first + i * 512 + ATIO_STAMP_BYTES,
				    w + i * 512 + ATIO_STAMP_BYTES, 512 - ATIO_STAMP_BYTES);
	}
	w = atio_pool_take(&p, 0, p.nwin, p.nwin * 4096, 5);
	assert_ptr_equal(w, p.base);
	assert_memory_not_equal(first, w, ATIO_STAMP_BYTES);
	atio_pool_free(&p);
}

/*
 * The stamp's fields are masked: across the sectors of a window, the bytes
 * that hold the same magic and key differ, so a compressor sees no
 * repetition. Without the masks, bytes 0..7 would be the same in every
 * sector.
 */
static void test_stamp_looks_random(void **state)
{
	struct atio_pool p;
	unsigned char *w;
	unsigned same = 0;

	assert_int_equal(atio_pool_init(&p, 1 << 20, 1, 11, true), 0);
	w = atio_pool_take(&p, 0, 0, 0, 5);
	for (size_t i = 512; i < p.window; i += 512)
		same += memcmp(w, w + i, 4) == 0 || memcmp(w + 24, w + i + 24, 4) == 0 ||
			memcmp(w + 40, w + i + 40, 4) == 0 || memcmp(w + 48, w + i + 48, 4) == 0;
	assert_int_equal(same, 0);
	/* Sector 0 of a file is masked too: no plain magic at offset 0. */
	assert_memory_not_equal(w, "atio", 4);
	assert_true(chi_square_bytes(w, p.window) < 400);
	atio_pool_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keystream_positions),
		cmocka_unit_test(test_pool_is_random),
		cmocka_unit_test(test_pool_sizes),
		cmocka_unit_test(test_pool_cover),
		cmocka_unit_test(test_pool_tail),
		cmocka_unit_test(test_take_by_position),
		cmocka_unit_test(test_take_in_flight),
		cmocka_unit_test(test_no_two_sectors_alike),
		cmocka_unit_test(test_stamp_looks_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
