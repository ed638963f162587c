/* SPDX-License-Identifier: MIT */
#ifndef ATIO_GENMAP_H
#define ATIO_GENMAP_H

/*
 * --verify on writes: the generation map. Per thread, one 32-bit word per
 * block of the thread's segments (block b of segment s is word
 * s * seg_blocks + b), 4 MiB per 4 GiB of 4K blocks:
 *
 *   bit 31      an I/O of the block is in flight
 *   bits 0-30   0: not written in this run; else the code of the last
 *               write issued, (generation - 1) mod (2^31 - 1) + 1
 *
 * A write's generation is its number in its thread's run (the stamp's
 * generation, include/atio/data/stamp.h) and its key is the thread's pool key,
 * drawn for the run, so (key, generation) names one write of the run and
 * of no other run. Threads never share a
 * block: with -n < -p the threads of a file cut it into disjoint regions,
 * with -n > -p each owns whole files. The map is therefore the thread's
 * own, kept without a lock, and the write a block must hold at the end is
 * the last one its thread issued.
 *
 * Writes in flight. The kernel completes requests in flight in any order,
 * and the storage may apply two writes of one block in either order: with
 * two of them in flight, neither generation could be expected. So, with
 * --verify, atio never has two I/Os of one block in flight: a random draw
 * that falls on a block in flight is drawn again (the offsets then differ
 * from a run without --verify of the same --seed), and a sequential
 * cursor comes back to a block only after every other block of the
 * thread, which --verify requires to be at least --iodepth. The expected
 * generation is then exact. The same holds for --mix, whose reads are
 * checked against the last write of their block too.
 *
 * A generation code repeats after 2^31 - 1 writes of a thread: a block
 * last written that many writes before another of the same code would be
 * taken for it (no run writes one block that seldom in practice; the
 * full generation is compared where it is known, see atio/run/readback.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/base/opts.h"

#define ATIO_GENMAP_BUSY 0x80000000u
#define ATIO_GENMAP_MOD 0x7fffffffu

struct atio_genmap {
	uint32_t *gen;             /* [blocks], see above; NULL without --verify on writes */
	uint64_t blocks;
	uint64_t seg_blocks;       /* blocks per segment */
};

/* The code of write generation @gen (>= 1): never 0, never the busy bit. */
static inline uint32_t atio_genmap_code(uint64_t gen)
{
	return (uint32_t)((gen - 1) % ATIO_GENMAP_MOD) + 1;
}

/*
 * The generation of the last write whose code is @code, @last being the
 * thread's last generation (its pool's gen).
 */
static inline uint64_t atio_genmap_gen(uint32_t code, uint64_t last)
{
	uint64_t back = (atio_genmap_code(last) + (uint64_t)ATIO_GENMAP_MOD - code) %
			ATIO_GENMAP_MOD;

	return last - back;
}

/* Whether an I/O of block @i is in flight. */
static inline bool atio_genmap_busy(const struct atio_genmap *m, uint64_t i)
{
	return m->gen[i] & ATIO_GENMAP_BUSY;
}

/*
 * An I/O of block @i is handed to the engine: mark it in flight and, for
 * a write (@gen >= 1), note its generation; a read passes 0.
 */
static inline void atio_genmap_issue(struct atio_genmap *m, uint64_t i, uint64_t gen)
{
	m->gen[i] = (gen ? atio_genmap_code(gen) : m->gen[i]) | ATIO_GENMAP_BUSY;
}

/* The I/O of block @i has completed. */
static inline void atio_genmap_done(struct atio_genmap *m, uint64_t i)
{
	m->gen[i] &= ~ATIO_GENMAP_BUSY;
}

/* The code of the last write of block @i, 0 when none. */
static inline uint32_t atio_genmap_last(const struct atio_genmap *m, uint64_t i)
{
	return m->gen[i] & ~ATIO_GENMAP_BUSY;
}

/*
 * Blocks of the thread with the most of them (@most) or the fewest, for
 * the dataset @o plans (atio/data/dataset.h: a share of a file with -n <= -p,
 * whole files with -n > -p): what the map takes at most, and what the
 * --iodepth rule above asks of every thread.
 */
uint64_t atio_genmap_thread_blocks(const struct atio_opts *o, bool most);

/*
 * Bytes one thread of @o keeps for --verify on writes: the map, a block
 * to read back into and one to make keystream in, and with --fsync or
 * --fdatasync the journal's records of the writes between two syncs.
 * 0 when --verify is not given or the mode does not write.
 */
uint64_t atio_genmap_bytes(const struct atio_opts *o);

/*
 * Bytes all @o's threads' maps take together: a word for every block of
 * -u, however many threads share it, so that only a larger -s or a
 * smaller -u makes them smaller. 0 when atio_genmap_bytes() is.
 */
uint64_t atio_genmap_maps_bytes(const struct atio_opts *o);

/*
 * Make the map of @segs segments of @seg_blocks blocks, all unwritten;
 * @huge: in transparent huge pages when 2 MiB or more (atio/base/buf.h), so
 * that a random write's look-up costs a cache miss but seldom a TLB miss.
 * Returns 0 or -ENOMEM.
 */
int atio_genmap_init(struct atio_genmap *m, unsigned segs, uint64_t seg_blocks, bool huge);

void atio_genmap_free(struct atio_genmap *m);

#endif
