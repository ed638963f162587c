/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the sector stamp (include/atio/data/stamp.h): the byte layout
 * the man page documents, decoding at any offset, and the check of a
 * sector against where it was read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/data/pool.h"
#include "atio/data/stamp.h"

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t fmix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/*
 * The layout, word by word, as DATA FORMAT in atio(1) writes it: with
 * n = offset / 512 + 1, bytes 0..7 are head + n * K0, 8..15 n * K1,
 * 16..23 gen + n * K2, 24..31 key + n * K3, 32..39 pos + n * K4, 40..47
 * tag + n * K5, 48..55 the check word, little endian, and bytes 56..511
 * are the keystream untouched.
 */
static void test_layout(void **state)
{
	unsigned char sec[1024], ks[1024];
	const uint64_t off = 3ULL << 40, pos = 1 << 20, key = 0x1122334455667788ULL;
	const uint64_t gen = 77, tag = atio_stamp_tag(0x0123456789abcdefULL, 3);
	const uint64_t head = 0x6f697461ULL | 2ULL << 32 | 2ULL << 40;

	assert_true(tag == fmix(0x0123456789abcdefULL + fmix(4)));
	assert_int_equal(atio_keystream(ks, sizeof(ks), key, pos), 0);
	memcpy(sec, ks, sizeof(sec));
	atio_stamp_put(sec, sizeof(sec), off, pos, key, gen, ATIO_STAMP_WRITE, tag);
	for (unsigned k = 0; k < 2; k++) {
		const unsigned char *s = sec + k * 512;
		uint64_t n = off / 512 + 1 + k, p = pos + k * 512;

		assert_true(le64(s) == head + n * 0x9e3779b97f4a7c15ULL);
		assert_true(le64(s + 8) == n * 0xbf58476d1ce4e5b9ULL);
		assert_true(le64(s + 16) == gen + n * 0x94d049bb133111ebULL);
		assert_true(le64(s + 24) == key + n * 0xd6e8feb86659fd93ULL);
		assert_true(le64(s + 32) == p + n * 0xa0761d6478bd642fULL);
		assert_true(le64(s + 40) == tag + n * 0xe7037ed1a0b428dbULL);
		assert_true(le64(s + 48) == (fmix(fmix(key ^ tag) + gen) ^ head) +
					    n * 0x8ebc6af09c88c6e3ULL + p * 0x589965cc75374cc3ULL);
		assert_memory_equal(s + 56, ks + k * 512 + 56, 512 - 56);
	}
	(void)state;
}

/* Fields come back at offsets from 0 to far beyond any file, and both kinds. */
static void test_round_trip(void **state)
{
	static const uint64_t offs[] = { 0, 512, 4096, 1ULL << 32, (1ULL << 55) - 512 };
	unsigned char sec[512];
	struct atio_stamp st;

	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		for (int kind = ATIO_STAMP_FILL; kind <= ATIO_STAMP_WRITE; kind++) {
			memset(sec, 0x5a, sizeof(sec));
			atio_stamp_put(sec, sizeof(sec), offs[i], offs[i] ^ 4096, 99 + i,
				       kind == ATIO_STAMP_FILL ? 0 : i + 1,
				       (enum atio_stamp_kind)kind, 1000 + i);
			assert_int_equal(atio_stamp_get(sec, &st), 0);
			assert_int_equal(st.version, ATIO_STAMP_VERSION);
			assert_int_equal(st.kind, kind);
			assert_true(st.offset == offs[i]);
			assert_true(st.pos == (offs[i] ^ 4096));
			assert_true(st.key == 99 + i);
			assert_true(st.gen == (kind == ATIO_STAMP_FILL ? 0 : i + 1));
			assert_true(st.tag == 1000 + i);
		}
	}
	/* A part sector at the end is left alone. */
	memset(sec, 0x5a, sizeof(sec));
	atio_stamp_put(sec, 511, 0, 0, 1, 1, ATIO_STAMP_WRITE, 0);
	for (size_t i = 0; i < sizeof(sec); i++)
		assert_int_equal(sec[i], 0x5a);
	(void)state;
}

/* A tag names its file and dataset, and back. */
static void test_tags(void **state)
{
	const uint64_t a = 0x8d1f6c2be0a49375ULL, b = a + 1;

	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t t = atio_stamp_tag(a, i);

		assert_true(atio_stamp_tag_file(t, a) == i);
		assert_true(atio_stamp_tag_dataset(t, i) == a);
		/* Another dataset's tags name no file of a small dataset. */
		assert_true(atio_stamp_tag_file(atio_stamp_tag(b, i), a) > 1000000);
		assert_true(t != atio_stamp_tag(a, i + 1) && t != atio_stamp_tag(b, i));
	}
	(void)state;
}

/*
 * Every byte of the stamp is covered: any change to any byte of bytes
 * 0..55 leaves no whole stamp (damaged, or none at all), bytes 56..511
 * are compared with the keystream; a stamp that cannot have been written
 * (a fill with a generation, a write without one, another kind) is
 * damaged even with a right check word.
 */
static void test_every_byte(void **state)
{
	unsigned char sec[512], orig[512];
	struct atio_stamp st;
	size_t bad;

	assert_int_equal(atio_keystream(orig, sizeof(orig), 5, 4096), 0);
	atio_stamp_put(orig, sizeof(orig), 8192, 4096, 5, 9, ATIO_STAMP_WRITE, 77);
	for (size_t i = 0; i < sizeof(sec); i++) {
		for (unsigned x = 1; x < 256; x <<= 1) {
			memcpy(sec, orig, sizeof(sec));
			sec[i] ^= (unsigned char)x;
			assert_int_not_equal(atio_stamp_check(sec, 8192, &st, &bad), 0);
		}
	}
	/* The generation raised by one: damaged, not a later write. */
	memcpy(sec, orig, sizeof(sec));
	sec[16] ^= 1;
	assert_int_equal(atio_stamp_get(sec, &st), -EUCLEAN);
	/* Fill turned write at byte 5, generation 0 kept: damaged. */
	atio_stamp_put(sec, sizeof(sec), 0, 0, 5, 0, ATIO_STAMP_FILL, 77);
	sec[5] ^= 3;
	assert_int_equal(atio_stamp_get(sec, &st), -EUCLEAN);
	/* Stamps that cannot have been written, with right check words. */
	atio_stamp_put(sec, sizeof(sec), 0, 0, 5, 3, ATIO_STAMP_FILL, 77);
	assert_int_equal(atio_stamp_get(sec, &st), -EUCLEAN);
	atio_stamp_put(sec, sizeof(sec), 0, 0, 5, 0, ATIO_STAMP_WRITE, 77);
	assert_int_equal(atio_stamp_get(sec, &st), -EUCLEAN);
	atio_stamp_put(sec, sizeof(sec), 0, 0, 5, 3, (enum atio_stamp_kind)4, 77);
	assert_int_equal(atio_stamp_get(sec, &st), -EUCLEAN);
	/* Reduced data whose shape atio never writes: a cut inside the stamp, no unit. */
	atio_stamp_put(sec, sizeof(sec), 0, 0, 5, 3 | 8 << 10, ATIO_STAMP_REDUCED, 77);
	assert_int_equal(atio_stamp_get(sec, &st), -EUCLEAN);
	atio_stamp_put(sec, sizeof(sec), 0, 0, 5, 256, ATIO_STAMP_REDUCED, 77);
	assert_int_equal(atio_stamp_get(sec, &st), -EUCLEAN);
	atio_stamp_put(sec, sizeof(sec), 0, 0, 5, 256 | 8 << 10, ATIO_STAMP_REDUCED, 77);
	assert_int_equal(atio_stamp_get(sec, &st), 0);
	(void)state;
}

/*
 * A stamp of version 1 (fields masked with ^, no tag, no check word) is
 * recognised, not checked.
 */
static void test_version_1(void **state)
{
	unsigned char sec[512];
	const uint64_t n = 4096 / 512 + 1;
	const uint64_t head = 0x6f697461ULL | 1ULL << 32 | 1ULL << 40;
	struct atio_stamp st;
	size_t bad;

	assert_int_equal(atio_keystream(sec, sizeof(sec), 5, 4096), 0);
	for (int i = 0; i < 8; i++) {
		sec[i] = (unsigned char)((head ^ n * 0x9e3779b97f4a7c15ULL) >> (8 * i));
		sec[8 + i] = (unsigned char)((n * 0xbf58476d1ce4e5b9ULL) >> (8 * i));
	}
	assert_int_equal(atio_stamp_get(sec, &st), -EPROTONOSUPPORT);
	assert_int_equal(st.version, 1);
	assert_int_equal(atio_stamp_check(sec, 4096, &st, &bad), -EPROTONOSUPPORT);
	(void)state;
}

/* A stamped sector checks; a damaged, moved or foreign one does not, and says why. */
static void test_stamp_check(void **state)
{
	unsigned char sec[1024], zero[512] = { 0 };
	struct atio_stamp st;
	size_t bad = 0;

	assert_int_equal(atio_keystream(sec, sizeof(sec), 77, 8192), 0);
	atio_stamp_put(sec, sizeof(sec), 1 << 20, 8192, 77, 0, ATIO_STAMP_FILL, 1);
	assert_int_equal(atio_stamp_check(sec, 1 << 20, &st, &bad), 0);
	assert_int_equal(st.kind, ATIO_STAMP_FILL);
	assert_int_equal(st.gen, 0);
	assert_int_equal(atio_stamp_check(sec + 512, (1 << 20) + 512, &st, &bad), 0);
	assert_int_equal(st.pos, 8192 + 512);

	/* Read at another offset: misplaced, and the stamp says where it belongs. */
	assert_int_equal(atio_stamp_check(sec + 512, 0, &st, &bad), -EFAULT);
	assert_int_equal(st.offset, (1 << 20) + 512);

	/* A byte of the data changed: the first bad byte is named. */
	sec[300] ^= 1;
	assert_int_equal(atio_stamp_check(sec, 1 << 20, &st, &bad), -EILSEQ);
	assert_int_equal(bad, 300);
	sec[300] ^= 1;

	/* A byte of the magic changed: the stamp no longer decodes. */
	sec[2] ^= 0x80;
	assert_int_equal(atio_stamp_get(sec, &st), -EBADMSG);
	sec[2] ^= 0x80;
	/* A byte of the offset word changed: the magic no longer decodes either. */
	sec[12] ^= 0x01;
	assert_int_equal(atio_stamp_get(sec, &st), -EBADMSG);
	sec[12] ^= 0x01;
	assert_int_equal(atio_stamp_check(sec, 1 << 20, &st, &bad), 0);

	/* Zeros and plain keystream carry no stamp. */
	assert_int_equal(atio_stamp_get(zero, &st), -EBADMSG);
	assert_int_equal(atio_keystream(sec, 512, 77, 0), 0);
	assert_int_equal(atio_stamp_get(sec, &st), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_tags),
		cmocka_unit_test(test_every_byte),
		cmocka_unit_test(test_version_1),
		cmocka_unit_test(test_stamp_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
