/* SPDX-License-Identifier: MIT */
#ifndef ATIO_STAMP_H
#define ATIO_STAMP_H

/*
 * The stamp: what makes every 512-byte sector atio writes unique and lets a
 * reader check it with nothing but the sector and the dataset it belongs
 * to. One format for the fill and for every write, version 2.
 *
 * The data of a sector is AES-128-CTR keystream (atio_keystream()) of a
 * 64-bit key, from a byte position pos; atio overwrites its first 56 bytes
 * with seven little-endian 64-bit words that encode the stamp's fields.
 * Six of them are masked by adding n = offset / 512 + 1 (the sector number
 * plus one, so that sector 0 is masked too) times an odd constant
 * (arithmetic mod 2^64):
 *
 *   bytes   word
 *   0..7    head + n * ATIO_STAMP_K0, head being the magic 0x6f697461
 *           ("atio") in bits 0-31, the version (2) in bits 32-39, the
 *           kind (1 fill, 2 write, 3 reduced) in bits 40-47, 0 above
 *   8..15   n * ATIO_STAMP_K1: the sector's offset in its file is
 *           512 * (this word times the inverse of K1, minus 1)
 *   16..23  generation + n * ATIO_STAMP_K2: 0 for the fill; for a write,
 *           the write's number in its thread's run (1, 2, ...); for
 *           reduced data, the shape of the data (atio_reduce_word())
 *   24..31  key + n * ATIO_STAMP_K3: the keystream's key
 *   32..39  pos + n * ATIO_STAMP_K4: the keystream byte of sector byte 0
 *   40..47  tag + n * ATIO_STAMP_K5: the tag of the file the sector was
 *           written to, fmix64(dataset + fmix64(file index + 1))
 *           (atio_stamp_tag()),
 *           dataset being the random 64-bit id of the dataset, kept in
 *           every file's mark (atio/data/owner.h), 0 where no mark can be kept
 *   48..55  the check word: fmix64(fmix64(key ^ tag) + generation) ^ head,
 *           plus n * ATIO_STAMP_C1 and pos * ATIO_STAMP_C2
 *   56..511 keystream bytes pos+56 .. pos+511
 *
 * fmix64 is MurmurHash3's 64-bit finaliser (a bijection). The check word
 * covers every field: changing any one of them alone changes it (each
 * step is a bijection of the changed input), so a flipped bit anywhere in
 * bytes 0..55 is a damaged stamp, and bytes 56..511 are compared with the
 * keystream the stamp names. Every byte of the sector is therefore checked.
 * A stamp that decodes but cannot have been written (a fill with a
 * generation, a write without one) is damaged too.
 *
 * The masks keep the stamp as random-looking as the rest, so that no
 * compressor finds the fields' repetitions (the same magic, key and tag in
 * every sector, offsets that differ in one byte), and cost one addition
 * per word and sector: of two sectors that follow each other in a block
 * (the same fields but pos, which grows by 512), each word of the second
 * is the first's plus a constant (K, K4 + 512 for pos, C1 + 512 * C2 for
 * the check word). The per-write part of the check word (two fmix64) is
 * made once per call. Nothing in a stamp is read back when it is written.
 *
 * Checking a sector: n from bytes 8..15, then unmask the other words,
 * check magic, version, kind and the check word, compare the offset with
 * where the sector was read and the tag with its file's, and regenerate
 * keystream of key from pos: bytes 56..511 must equal it
 * (atio_stamp_check()). A tag of another file of the same dataset names
 * that file (atio_stamp_tag_file()): the sector is misplaced; a tag of no
 * file of the dataset is another dataset's data. The fill writes keystream
 * of a key per file at pos = offset; writes take a window of their
 * thread's pool (atio/data/pool.h), pos being where that window lies in the
 * pool's keystream.
 *
 * Reduced data (--compress, --dedup; atio/data/reduce.h) is kind 3: its
 * sectors are the same wherever the same content goes, so a stamp names
 * the place of the content's group (offset and pos alike), not the
 * sector's own offset; the generation word says how the file's offsets
 * map to groups, and bytes from the word's cut on are zeros. Such a
 * sector is checked against the group its offset must hold.
 *
 * Version 1 (atio before the tag) masked with ^ instead of +, and had no
 * tag and no check word: bytes 40..511 were keystream. Its stamps decode
 * as version 1 and are not checked: such a dataset is to be made again
 * (--prepare).
 *
 * Uniqueness: within a file every sector carries its own offset, so no two
 * sectors of a file are alike; across files they differ by tag, and
 * across runs by key: a thread's key is drawn at random for each run (of
 * the seed, the host, the thread and 64 random bits), so that a run with
 * the same --seed, which writes the same offsets in the same order, still
 * never writes a sector another run wrote. A write's key and generation
 * therefore name it among every run's: the journal's check
 * (atio/data/journal.h) tells a block rolled back to an earlier run from
 * this run's later write. The fill's key is the seed's, the host's and
 * the file's: a --prepare of the same seed makes the same fill.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define ATIO_SECTOR 512u
#define ATIO_STAMP_MAGIC 0x6f697461u   /* "atio" in little-endian bytes */
#define ATIO_STAMP_VERSION 2u
#define ATIO_STAMP_BYTES 56u           /* the fields; keystream follows */
#define ATIO_STAMP_AHEAD 32u           /* sectors prefetched ahead in large blocks */
#define ATIO_STAMP_K0 0x9e3779b97f4a7c15ull
#define ATIO_STAMP_K1 0xbf58476d1ce4e5b9ull
#define ATIO_STAMP_K2 0x94d049bb133111ebull
#define ATIO_STAMP_K3 0xd6e8feb86659fd93ull
#define ATIO_STAMP_K4 0xa0761d6478bd642full
#define ATIO_STAMP_K5 0xe7037ed1a0b428dbull
#define ATIO_STAMP_C1 0x8ebc6af09c88c6e3ull
#define ATIO_STAMP_C2 0x589965cc75374cc3ull
#define ATIO_STAMP_F1 0xff51afd7ed558ccdull  /* fmix64's multipliers */
#define ATIO_STAMP_F2 0xc4ceb9fe1a85ec53ull

enum atio_stamp_kind {
	ATIO_STAMP_FILL = 1,
	ATIO_STAMP_WRITE = 2,
	ATIO_STAMP_REDUCED = 3,    /* --compress, --dedup: atio/data/reduce.h */
};

/* The fields of one sector's stamp, decoded. */
struct atio_stamp {
	unsigned version;
	enum atio_stamp_kind kind;
	uint64_t offset;
	uint64_t gen;
	uint64_t key;
	uint64_t pos;
	uint64_t tag;              /* the file's: atio_stamp_tag() */
};

/* MurmurHash3's 64-bit finaliser: a bijection that mixes every bit. */
static inline uint64_t atio_stamp_fmix(uint64_t x)
{
	x ^= x >> 33;
	x *= ATIO_STAMP_F1;
	x ^= x >> 33;
	x *= ATIO_STAMP_F2;
	return x ^ (x >> 33);
}

/*
 * The tag of file @file (its index in the dataset) of dataset @dataset
 * (the id in the files' marks, 0 where there is none).
 */
static inline uint64_t atio_stamp_tag(uint64_t dataset, uint64_t file)
{
	return atio_stamp_fmix(dataset + atio_stamp_fmix(file + 1));
}

/*
 * Which file of dataset @dataset @tag is the tag of: the index i with
 * atio_stamp_tag(@dataset, i) == @tag. For a tag of another dataset the
 * answer is a random-looking 64-bit number: the caller compares it with
 * its number of files (below it only by a chance of files in 2^64).
 */
uint64_t atio_stamp_tag_file(uint64_t tag, uint64_t dataset);

/*
 * The dataset whose file @file @tag would be the tag of: the id with
 * atio_stamp_tag(id, @file) == @tag.
 */
uint64_t atio_stamp_tag_dataset(uint64_t tag, uint64_t file);

/*
 * The part of the check word that depends on neither n nor pos: made
 * once per block (and per sector when checking).
 */
static inline uint64_t atio_stamp_sum(uint64_t head, uint64_t gen, uint64_t key, uint64_t tag)
{
	return atio_stamp_fmix(atio_stamp_fmix(key ^ tag) + gen) ^ head;
}

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
 * @off of the file of tag @tag, as @kind with generation @gen. Bytes past
 * the last whole sector (never, since block sizes are multiples of 512)
 * stay as they are. Cost: two fmix64 per call, and per sector seven
 * stores in its first cache line and seven additions.
 */
static inline __attribute__((always_inline)) void atio_stamp_put(void *buf, size_t len, uint64_t off, uint64_t pos,
				  uint64_t key, uint64_t gen, enum atio_stamp_kind kind,
				  uint64_t tag)
{
	const uint64_t head = ATIO_STAMP_MAGIC | (uint64_t)ATIO_STAMP_VERSION << 32 |
			      (uint64_t)kind << 40;
	/*
	 * Large blocks are stamped from memory, not from the cache: ask for
	 * the line ATIO_STAMP_AHEAD sectors on while this one is written
	 * (a fifth less time for 16 MiB here).
	 */
	const size_t ahead = len >= 64 * ATIO_SECTOR ? ATIO_STAMP_AHEAD * ATIO_SECTOR : 0;
	const uint64_t n = off / ATIO_SECTOR + 1;
	/* Each word grows by a constant from one sector to the next. */
	uint64_t w0 = head + n * ATIO_STAMP_K0, w1 = n * ATIO_STAMP_K1;
	uint64_t w2 = gen + n * ATIO_STAMP_K2, w3 = key + n * ATIO_STAMP_K3;
	uint64_t w4 = pos + n * ATIO_STAMP_K4, w5 = tag + n * ATIO_STAMP_K5;
	uint64_t w6 = atio_stamp_sum(head, gen, key, tag) + n * ATIO_STAMP_C1 +
		      pos * ATIO_STAMP_C2;
	unsigned char *s = buf, *end = s + len / ATIO_SECTOR * ATIO_SECTOR;

	for (; s < end; s += ATIO_SECTOR) {
		if (ahead && (size_t)(end - s) > ahead)
			__builtin_prefetch(s + ahead, 1, 0);
		atio_stamp_store(s, w0);
		atio_stamp_store(s + 8, w1);
		atio_stamp_store(s + 16, w2);
		atio_stamp_store(s + 24, w3);
		atio_stamp_store(s + 32, w4);
		atio_stamp_store(s + 40, w5);
		atio_stamp_store(s + 48, w6);
		w0 += ATIO_STAMP_K0;
		w1 += ATIO_STAMP_K1;
		w2 += ATIO_STAMP_K2;
		w3 += ATIO_STAMP_K3;
		w4 += ATIO_STAMP_K4 + ATIO_SECTOR;
		w5 += ATIO_STAMP_K5;
		w6 += ATIO_STAMP_C1 + ATIO_SECTOR * ATIO_STAMP_C2;
	}
}

/*
 * Decode the stamp of the 512-byte sector at @sector into @st. Returns 0
 * for a stamp of this version that is whole (magic, version, kind, a
 * generation that fits the kind, the check word); -EBADMSG when the
 * sector holds no stamp (another program's data, zeros, a first word
 * damaged beyond recognition); -EPROTONOSUPPORT for a stamp of version 1
 * (@st->version says so; the other fields are not decoded); -EUCLEAN for a
 * stamp of this version whose fields do not fit together (damaged, or
 * never written so: @st holds what decodes).
 */
int atio_stamp_get(const void *sector, struct atio_stamp *st);

/*
 * Check the 512-byte sector at @sector, read at file offset @off: its stamp
 * must decode (atio_stamp_get(), whose errors it returns), name @off, and
 * the rest must be the keystream it names. Returns 0; -EFAULT (the stamp
 * names another offset: a misplaced sector; @st says which), -EILSEQ (the
 * data differs from the keystream: *@bad gets the first differing byte),
 * or -EIO when the keystream cannot be made. The tag is left to the
 * caller (@st->tag). For the fill's and writes' sectors: a sector of
 * reducible data (kind 3) names its group's place and ends in zeros, which
 * atio_check_block() (atio/data/check_sector.h) knows.
 */
int atio_stamp_check(const void *sector, uint64_t off, struct atio_stamp *st, size_t *bad);

#endif
