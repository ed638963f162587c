/* SPDX-License-Identifier: MIT */
#ifndef ATIO_POOL_H
#define ATIO_POOL_H

/*
 * Incompressible write buffers.
 *
 * A pool is one 4 KiB-aligned buffer filled once with AES-128-CTR keystream
 * (OpenSSL), cut into windows of the block size. Each write takes the next
 * window, round robin, and before it is submitted atio_pool_take() stamps
 * the first 16 bytes of every 4 KiB of the window with the file offset that
 * 4 KiB will land at and a per-pool sequence number. No two blocks written
 * are therefore alike (deduplication cannot help) while the cost per write
 * is two stores per 4 KiB. The pool holds at least ATIO_POOL_MIN bytes and
 * at least inflight + 1 windows, so no window is rewritten while a write
 * using it may still be in flight, and repeats of keystream lie megabytes
 * apart, far outside any compressor's window.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ATIO_POOL_MIN (8u << 20)
#define ATIO_STAMP_EVERY 4096u

struct atio_stamp {
	uint64_t offset;           /* file offset of this 4 KiB */
	uint64_t seq;              /* writes taken from the pool so far */
};

struct atio_pool {
	unsigned char *base;
	size_t size;               /* window * nwindows */
	size_t window;             /* bytes per window: the block size */
	size_t next;               /* offset of the next window in base */
	uint64_t seq;
};

/*
 * Allocate and fill a pool of windows of @window bytes, enough for
 * @inflight writes in flight at once (at least 1). @key selects the
 * keystream: pools with different keys hold different data. @huge lets a
 * pool of 2 MiB or more live in huge pages (see atio/buf.h). Returns 0, or
 * -ENOMEM, or -EIO when OpenSSL fails.
 */
int atio_pool_init(struct atio_pool *p, size_t window, unsigned inflight, uint64_t key,
		   bool huge);

/* Release the pool's memory; the pool may be initialised again. */
void atio_pool_free(struct atio_pool *p);

/*
 * A keystream key for the data of one run on this host: @seed mixed with
 * the host name and with @salt (a thread number, a file path's hash), so
 * that no two hosts, threads or files write the same bytes, not even on
 * shared storage that deduplicates across clients.
 */
uint64_t atio_data_key(uint64_t seed, const char *salt, uint64_t n);

/*
 * Fill @len bytes at @buf with keystream of @key, starting at keystream
 * byte @pos (a multiple of 16). Used by atio_pool_init() and by the dataset
 * fill. Returns 0 or -EIO.
 */
int atio_keystream(void *buf, size_t len, uint64_t key, uint64_t pos);

/*
 * Stamp @len bytes at @buf, written at file offset @off, with sequence
 * number @seq: the first 16 bytes of every 4 KiB, counted from @buf.
 * When @len is below 4 KiB the block still gets one stamp if it has room.
 */
static inline void atio_stamp(void *buf, size_t len, uint64_t off, uint64_t seq)
{
	unsigned char *b = buf;

	if (len < sizeof(struct atio_stamp))
		return;
	for (size_t i = 0; i < len; i += ATIO_STAMP_EVERY) {
		struct atio_stamp st = { off + i, seq };

		__builtin_memcpy(b + i, &st, sizeof(st));
	}
}

/*
 * Take the next window for a write of the whole window at file offset
 * @off, stamped as above. Returns a pointer into the pool.
 */
static inline void *atio_pool_take(struct atio_pool *p, uint64_t off)
{
	unsigned char *w = p->base + p->next;

	p->next += p->window;
	if (p->next == p->size)
		p->next = 0;
	atio_stamp(w, p->window, off, ++p->seq);
	return w;
}

#endif
