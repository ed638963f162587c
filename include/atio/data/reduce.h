/* SPDX-License-Identifier: MIT */
#ifndef ATIO_REDUCE_H
#define ATIO_REDUCE_H

/*
 * Reducible data, for storage that compresses and deduplicates:
 * --compress R and --dedup R. Without them atio's data is incompressible
 * and unique (atio/data/pool.h); with them every 512-byte sector a write
 * carries is a function of where it goes (its file and offset) and of
 * --seed alone: not of the run, the thread, the time or the order of the
 * writes, so the ratio on the storage is the one asked whatever wrote
 * which block when, and a reader knows what every sector must hold.
 *
 * Compression. A sector holds `cut` bytes of stamp and keystream, then
 * 512 - cut bytes of zeros, which a compressor takes away; no sector is
 * all zeros (storage that drops zero sectors takes nothing more).
 * cut = 512 / R - ATIO_REDUCE_SLACK, at least the stamp's 56 bytes: the
 * slack is what zstd -1 and gzip -1 spend per sector besides the
 * keystream, measured on 4 KiB chunks (zstd a little less, gzip a little
 * more), so that both reach R within a few percent there; on larger
 * chunks they reach a little more. R is at most ATIO_REDUCE_MAX_COMPRESS,
 * where a sector is its stamp and the zeros.
 *
 * Deduplication. A file is cut into units of --dedup-unit bytes (4 KiB
 * by default), units = ceil(file size / unit) of them, and its units
 * into groups = round(units / R) groups of the same content: unit i is
 * in group perm(i) mod groups, perm being a permutation of [0, units)
 * keyed by the file's key (atio/base/perm.h), so the copies of a
 * content are spread over the file at random and every group has
 * floor or ceil of units / groups of them: the file holds exactly
 * groups distinct units. Without --dedup a unit is its own group.
 *
 * The content of sector s of a unit of group g is keystream of the
 * file's key at position p = g * unit + s * 512 (the group's place, as
 * if its units lay one after the other), stamped as kind
 * ATIO_STAMP_REDUCED (atio/data/stamp.h) for offset p and position p
 * with the key, the file's tag, and as its generation the word of
 * atio_reduce_word(): cut, the unit's sectors and groups. A copy of a
 * unit is therefore byte for byte the same as every other copy; it does
 * not carry its own offset but its group's. Checking a sector (--check,
 * --verify, atio/data/check_sector.h) reads cut, unit and groups from its
 * stamp, works out from the offset it was read at which group must be
 * there (from the file's planned size, its key and perm), and compares.
 *
 * The file's key is splitmix64 of the file's tag mixed with
 * atio_data_key() of --seed and the host: the same --seed makes the same data, another --seed other data of
 * the same ratios. Without --seed the seed is random, as for any run.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/base/perm.h"
#include "atio/data/keystream.h"

#define ATIO_REDUCE_SLACK 9u               /* bytes a compressor keeps per sector beside data */
#define ATIO_REDUCE_MAX_COMPRESS 8.0       /* cut at the stamp's 56 bytes */
#define ATIO_REDUCE_UNIT 4096u             /* --dedup-unit by default */
#define ATIO_REDUCE_MAX_GROUPS 0xffffffffull /* groups fit 32 bits of the stamp */

/* The shape of one file's reduced data. */
struct atio_reduce {
	unsigned cut;              /* bytes of stamp and keystream per sector, 56..512 */
	uint64_t unit;             /* bytes of a dedup unit, a multiple of 512 */
	uint64_t units;            /* units of the file */
	uint64_t groups;           /* distinct units; == units without --dedup */
	uint64_t base;             /* the files' keys' part of --seed and the host */
};

/*
 * Plan @rd for files of @file_size bytes: --compress @compress and
 * --dedup @dedup (0 or 1 for none), units of @unit bytes, data of
 * @seed.
 */
void atio_reduce_plan(struct atio_reduce *rd, double compress, double dedup, uint64_t unit,
		      uint64_t file_size, uint64_t seed);

/* The bytes per sector that are not filler for --compress @compress. */
unsigned atio_reduce_cut(double compress);

/* The key of the data of the file of tag @tag (atio/data/stamp.h). */
uint64_t atio_reduce_key(const struct atio_reduce *rd, uint64_t tag);

/* The generation word of the stamps: cut, the unit in sectors, groups. */
uint64_t atio_reduce_word(const struct atio_reduce *rd);

/*
 * The shape a stamp's word @word names, for a file of @file_size bytes
 * (base left 0): false when the word names no shape atio writes.
 */
bool atio_reduce_unword(struct atio_reduce *rd, uint64_t word, uint64_t file_size);

/* The keystream position that byte @off of the file of key @key holds. */
uint64_t atio_reduce_pos(const struct atio_reduce *rd, uint64_t key, uint64_t off);

/*
 * Fill @len bytes at @buf (whole sectors) with the data of file offset
 * @off (a multiple of 512) of the file of tag @tag, making keystream with
 * @ks. Returns 0, -ENOMEM or -EIO.
 */
int atio_reduce_fill(const struct atio_reduce *rd, struct atio_keystream *ks, void *buf,
		     size_t len, uint64_t off, uint64_t tag);

#endif
