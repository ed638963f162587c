/* SPDX-License-Identifier: MIT */
#ifndef ATIO_POOL_H
#define ATIO_POOL_H

/*
 * Incompressible write buffers whose every 512-byte sector is unique.
 *
 * A pool is one 4 KiB-aligned buffer filled once with AES-128-CTR keystream
 * (OpenSSL), cut into windows of the block size. A write of block b of a
 * thread's share (its blocks counted across its files) takes window b mod
 * nwin, so that a block's data depends on where it goes: within any nwin
 * consecutive blocks of the share no two blocks hold the same keystream,
 * however often they are rewritten. The caller sizes the pool to cover
 * the whole share where it can (atio_pool_bytes()'s @cover, at most
 * ATIO_POOL_CAP), so that a compressor with a window as long as the file
 * finds nothing to take; a larger share repeats its keystream every nwin
 * blocks, with other stamps. Before the write is
 * submitted, atio_pool_take() stamps every 512-byte sector of the window
 * (include/atio/data/stamp.h: offset, generation, key, keystream position, the
 * file's tag and a check word), so no two sectors written are alike,
 * whatever a deduplicating store compares. The cost per write is two
 * fmix64 and seven stores and seven additions per sector, all in the
 * sector's first cache line.
 *
 * A window in use by a request still in flight is never stamped again.
 * With windows of 1 MiB or less the write then takes a copy of it in a
 * spare window of its own request (one per request that may be in flight,
 * after the windows), so the data still depends only on where it goes. With
 * larger windows, where a copy would cost more than it saves, the write
 * takes the next free window: that data also lies elsewhere in the segment
 * (the stamps still make every sector unique). The pool has at least
 * inflight + 1 windows, so one is always free.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "atio/data/keystream.h"
#include "atio/data/reduce.h"
#include "atio/data/stamp.h"

#define ATIO_POOL_MIN (8u << 20)
/*
 * The most keystream a pool holds to cover a thread's share: 128 MiB, the
 * window of zstd --long=27 (the longest zstd decompresses without being
 * asked for more memory) and far beyond gzip's 32 KiB or the deduplication
 * granularity of any store, while 16 threads still take only 2 GiB.
 */
#define ATIO_POOL_CAP (128u << 20)
#define ATIO_POOL_NONE UINT32_MAX

struct atio_pool {
	unsigned char *base;
	size_t size;               /* window * nwin, and the spares if any */
	size_t window;             /* bytes per window: the block size */
	uint64_t nwin;
	uint64_t mask;             /* nwin - 1 when nwin is a power of two, else 0 */
	uint64_t key;              /* the keystream's key */
	uint64_t gen;              /* writes taken so far: the last generation */
	unsigned nslots;           /* requests that may be in flight */
	uint32_t *held;            /* [nslots]: window the slot's request holds */
	unsigned char *busy;       /* [nwin]: held by a request */
	unsigned char *spare;      /* [nslots] windows after the nwin, or NULL */
	unsigned char *tail;       /* atio_pool_init_tail(): the caller's bytes, or NULL */
	/*
	 * --compress, --dedup: the data's shape (atio/data/reduce.h), set by
	 * the caller after init, or NULL. Each write then takes the window of
	 * its slot and fills it with the reduced data of where it goes.
	 */
	const struct atio_reduce *reduce;
	struct atio_keystream rks; /* making that data */
};

/*
 * Windows of @window bytes a pool for @inflight requests has that is to
 * cover @cover bytes of a thread's share: at least ATIO_POOL_MIN and
 * @cover bytes of them (rounded up to whole windows), and at least
 * inflight + 1; a power of two of them when windows are 1 MiB or less (so
 * that a block's window is a mask away), which may be up to twice @cover.
 * The caller keeps @cover at most ATIO_POOL_CAP; @cover 0 asks for the
 * least pool.
 */
uint64_t atio_pool_windows(size_t window, unsigned inflight, uint64_t cover);

/*
 * Bytes that pool takes (the bookkeeping is a byte a window on top),
 * without making it: its windows and, with windows of 1 MiB or less and
 * more than one request in flight, a spare window per request.
 */
size_t atio_pool_bytes(size_t window, unsigned inflight, uint64_t cover);

/*
 * Allocate and fill a pool of windows of @window bytes (a multiple of 512),
 * enough for @inflight writes in flight at once (at least 1), of the
 * least size (atio_pool_windows() with @cover 0). @key selects the
 * keystream: pools with different keys hold different data. @huge lets a
 * pool of 2 MiB or more live in huge pages (see atio/base/buf.h). Returns 0,
 * or -ENOMEM, or -EIO when OpenSSL fails.
 */
int atio_pool_init(struct atio_pool *p, size_t window, unsigned inflight, uint64_t key,
		   bool huge);

/*
 * atio_pool_init() with windows to cover @cover bytes (atio_pool_windows())
 * and @tail more bytes in the same allocation, after the windows and
 * spares, 4 KiB-aligned, at p->tail, for the caller's own use (--mix keeps
 * its read buffers there, so that one registered buffer area holds both).
 * p->size then counts them too. @cover 0 and @tail 0 is atio_pool_init().
 */
int atio_pool_init_tail(struct atio_pool *p, size_t window, unsigned inflight, uint64_t cover,
			uint64_t key, bool huge, size_t tail);

/* Release the pool's memory; the pool may be initialised again. */
void atio_pool_free(struct atio_pool *p);

/* atio_pool_take_len() when window @w is held by a request in flight. */
void *atio_pool_take_held(struct atio_pool *p, unsigned slot, uint64_t w, uint64_t off,
			  uint64_t tag, size_t len);

/*
 * atio_pool_take() for a write of @len bytes (a multiple of 512, at most
 * the window; 0 for the whole window): only they are stamped. A mix of
 * sizes (atio/run/sizes.h) has windows of its largest size and writes of
 * any of them. The window is read where it is used, after the stores to
 * the bookkeeping, as the compiler would have it for atio_pool_take().
 */
static inline __attribute__((always_inline)) void *atio_pool_take_len(struct atio_pool *p, unsigned slot, uint64_t block,
				       uint64_t off, uint64_t tag, size_t len)
{
	uint64_t w = p->mask ? block & p->mask : block % p->nwin;
	unsigned char *buf;

	if (p->nslots > 1) {
		if (p->held[slot] != ATIO_POOL_NONE)
			p->busy[p->held[slot]] = 0;
		p->held[slot] = ATIO_POOL_NONE;
		if (p->busy[w])
			return atio_pool_take_held(p, slot, w, off, tag, len);
		p->busy[w] = 1;
		p->held[slot] = (uint32_t)w;
	}
	buf = p->base + w * p->window;
	atio_stamp_put(buf, len ? len : p->window, off, w * p->window, p->key, ++p->gen,
		       ATIO_STAMP_WRITE, tag);
	return buf;
}

/* atio_pool_take() of reducible data (p->reduce set). */
void *atio_pool_take_reduced(struct atio_pool *p, unsigned slot, uint64_t off, uint64_t tag);

/*
 * Take a window for the write of request @slot (below the pool's
 * inflight), of block @block of its thread's share (counted across the
 * thread's files), at file offset @off of the file of tag @tag
 * (atio_stamp_tag()): the window of that block, or the next free one while a request in flight
 * holds it. The window the slot took before is free again: the caller
 * takes for a slot only once its previous write has completed. The
 * window comes back stamped with the next generation. Returns a pointer
 * into the pool.
 */
static inline __attribute__((always_inline)) void *atio_pool_take(struct atio_pool *p, unsigned slot, uint64_t block,
				   uint64_t off, uint64_t tag)
{
	if (__builtin_expect(p->reduce != NULL, 0))
		return atio_pool_take_reduced(p, slot, off, tag);
	return atio_pool_take_len(p, slot, block, off, tag, 0);
}

#endif
