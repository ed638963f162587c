/* SPDX-License-Identifier: MIT */
#ifndef ATIO_STAMP_H
#define ATIO_STAMP_H

/*
 * The stamp: what makes every 512-byte sector atio writes unique and lets a
 * reader check it with nothing but the sector. One format for the fill and
 * for every write, version 1.
 *
 * The data of a sector is AES-128-CTR keystream (atio_keystream()) of a
 * 64-bit key, from a byte position pos; atio overwrites its first 40 bytes
 * with five little-endian 64-bit words that encode the stamp's fields,
 * each masked by n = offset / 512 + 1 (the sector number plus one, so that
 * sector 0 is masked too) times an odd constant (arithmetic mod 2^64):
 *
 *   bytes   word
 *   0..7    head ^ n * ATIO_STAMP_K0, head being the magic 0x6f697461
 *           ("atio") in bits 0-31, the version (1) in bits 32-39, the
 *           kind (1 fill, 2 write) in bits 40-47, 0 above
 *   8..15   n * ATIO_STAMP_K1: the sector's offset in its file is
 *           512 * (this word times the inverse of K1, minus 1)
 *   16..23  generation ^ n * ATIO_STAMP_K2: 0 for the fill; for a write,
 *           the write's number in its thread's run (1, 2, ...)
 *   24..31  key ^ n * ATIO_STAMP_K3: the keystream's key
 *   32..39  pos ^ n * ATIO_STAMP_K4: the keystream byte of sector byte 0
 *   40..511 keystream bytes pos+40 .. pos+511
 *
 * The masks keep the stamp as random-looking as the rest, so that no
 * compressor finds the fields' repetitions (the same magic and key in
 * every sector, offsets that differ in one byte), and cost an addition per
 * word and sector: n * K grows by K from one sector to the next. Nothing
 * in a stamp is read back when it is written.
 *
 * Checking a sector: n from bytes 8..15, then unmask the other words,
 * check magic and version, compare the offset with where the sector was
 * read, and regenerate keystream of key from pos: bytes 40..511 must equal
 * it (atio_stamp_check()). The fill writes keystream
 * of a key per file at pos = offset; writes take a window of their
 * thread's pool (atio/pool.h), pos being where that window lies in the
 * pool's keystream.
 *
 * Uniqueness: within a file every sector carries its own offset, so no two
 * sectors of a file are alike; across files and runs they differ by key,
 * generation or offset unless a later run with the same --seed writes the
 * same block at the same offset with the same generation again.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ATIO_SECTOR 512u
#define ATIO_STAMP_MAGIC 0x6f697461u   /* "atio" in little-endian bytes */
#define ATIO_STAMP_VERSION 1u
#define ATIO_STAMP_BYTES 40u           /* the fields; keystream follows */
#define ATIO_STAMP_AHEAD 32u           /* sectors prefetched ahead in large blocks */
#define ATIO_STAMP_K0 0x9e3779b97f4a7c15ull
#define ATIO_STAMP_K1 0xbf58476d1ce4e5b9ull
#define ATIO_STAMP_K2 0x94d049bb133111ebull
#define ATIO_STAMP_K3 0xd6e8feb86659fd93ull
#define ATIO_STAMP_K4 0xa0761d6478bd642full

enum atio_stamp_kind {
	ATIO_STAMP_FILL = 1,
	ATIO_STAMP_WRITE = 2,
};

/* The fields of one sector's stamp, decoded. */
struct atio_stamp {
	unsigned version;
	enum atio_stamp_kind kind;
	uint64_t offset;
	uint64_t gen;
	uint64_t key;
	uint64_t pos;
};

static inline uint64_t atio_stamp_load(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline void atio_stamp_store(unsigned char *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	memcpy(p, &v, sizeof(v));
}

/*
 * Stamp every whole 512-byte sector of the @len bytes at @buf, which hold
 * keystream of @key from position @pos and are written at file offset
 * @off, as @kind with generation @gen. Bytes past the last whole sector
 * (never, since block sizes are multiples of 512) stay as they are.
 * Cost: per sector five stores in its first cache line and five additions.
 */
static inline void atio_stamp_put(void *buf, size_t len, uint64_t off, uint64_t pos,
				  uint64_t key, uint64_t gen, enum atio_stamp_kind kind)
{
	const uint64_t head = ATIO_STAMP_MAGIC | (uint64_t)ATIO_STAMP_VERSION << 32 |
			      (uint64_t)kind << 40;
	/*
	 * Large blocks are stamped from memory, not from the cache: ask for
	 * the line ATIO_STAMP_AHEAD sectors on while this one is written
	 * (a fifth less time for 16 MiB here).
	 */
	const size_t ahead = len >= 64 * ATIO_SECTOR ? ATIO_STAMP_AHEAD * ATIO_SECTOR : 0;
	uint64_t n = off / ATIO_SECTOR + 1;
	uint64_t m0 = n * ATIO_STAMP_K0, m1 = n * ATIO_STAMP_K1, m2 = n * ATIO_STAMP_K2;
	uint64_t m3 = n * ATIO_STAMP_K3, m4 = n * ATIO_STAMP_K4;
	unsigned char *s = buf;

	for (size_t i = 0; i + ATIO_SECTOR <= len; i += ATIO_SECTOR, s += ATIO_SECTOR) {
		if (ahead && i + ahead < len)
			__builtin_prefetch(s + ahead, 1, 0);
		atio_stamp_store(s, head ^ m0);
		atio_stamp_store(s + 8, m1);
		atio_stamp_store(s + 16, gen ^ m2);
		atio_stamp_store(s + 24, key ^ m3);
		atio_stamp_store(s + 32, (pos + i) ^ m4);
		m0 += ATIO_STAMP_K0;
		m1 += ATIO_STAMP_K1;
		m2 += ATIO_STAMP_K2;
		m3 += ATIO_STAMP_K3;
		m4 += ATIO_STAMP_K4;
	}
}

/*
 * Decode the stamp of the 512-byte sector at @sector into @st. Returns 0,
 * or -EBADMSG when the sector holds no stamp of a version this atio reads
 * (another program's data, zeros, a damaged first 64 bytes).
 */
int atio_stamp_get(const void *sector, struct atio_stamp *st);

/*
 * Check the 512-byte sector at @sector, read at file offset @off: its stamp
 * must decode, name @off, and the rest must be the keystream it names.
 * Returns 0; -EBADMSG (no stamp), -EFAULT (the stamp names another offset:
 * a misplaced sector; @st says which), -EILSEQ (the data differs from the
 * keystream: *@bad gets the first differing byte), or -EIO when the
 * keystream cannot be made.
 */
int atio_stamp_check(const void *sector, uint64_t off, struct atio_stamp *st, size_t *bad);

#endif
