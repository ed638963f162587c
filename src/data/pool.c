/* SPDX-License-Identifier: MIT */
/*
 * The write pool: windows of keystream (atio/data/keystream.h), stamped as they
 * are taken (atio/data/stamp.h). See include/atio/data/pool.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/buf.h"
#include "atio/data/pool.h"

uint64_t atio_pool_windows(size_t window, unsigned inflight, uint64_t cover)
{
	uint64_t nwin = (uint64_t)inflight + 1;
	uint64_t want = cover > ATIO_POOL_MIN ? cover : ATIO_POOL_MIN;

	if (nwin * window < want)
		nwin = (want + window - 1) / window;
	/* Small windows: a mask instead of a division per write. */
	if (window <= (1u << 20))
		while (nwin & (nwin - 1))
			nwin += nwin & -nwin;
	return nwin;
}

size_t atio_pool_bytes(size_t window, unsigned inflight, uint64_t cover)
{
	uint64_t nwin = atio_pool_windows(window, inflight, cover);

	if (window <= (1u << 20) && inflight > 1)
		nwin += inflight;
	return nwin * window;
}

void *atio_pool_take_held(struct atio_pool *p, unsigned slot, uint64_t w, uint64_t off,
			  uint64_t tag, size_t len)
{
	unsigned char *buf;

	len = len ? len : p->window;
	if (p->spare) {
		buf = p->spare + (size_t)slot * p->window;
		memcpy(buf, p->base + w * p->window, len);
	} else {
		while (p->busy[w])
			w = w + 1 == p->nwin ? 0 : w + 1;
		p->busy[w] = 1;
		p->held[slot] = (uint32_t)w;
		buf = p->base + w * p->window;
	}
	atio_stamp_put(buf, len, off, w * p->window, p->key, ++p->gen, ATIO_STAMP_WRITE, tag);
	return buf;
}

/*
 * The windows below nslots are the slots' own: a slot takes one only
 * once its previous write has completed, and no write takes a block's
 * window while the pool is reduced, so none is in flight.
 */
void *atio_pool_take_reduced(struct atio_pool *p, unsigned slot, uint64_t off, uint64_t tag)
{
	unsigned char *buf = p->base + (size_t)slot * p->window;

	/* AES-CTR on a context made once does not fail short of memory; --verify would tell. */
	(void)atio_reduce_fill(p->reduce, &p->rks, buf, p->window, off, tag);
	p->gen++;
	return buf;
}

int atio_pool_init(struct atio_pool *p, size_t window, unsigned inflight, uint64_t key,
		   bool huge)
{
	return atio_pool_init_tail(p, window, inflight, 0, key, huge, 0);
}

int atio_pool_init_tail(struct atio_pool *p, size_t window, unsigned inflight, uint64_t cover,
			uint64_t key, bool huge, size_t tail)
{
	size_t pool = atio_pool_bytes(window, inflight ? inflight : 1, cover);
	size_t head = (pool + 4095) & ~(size_t)4095, size = pool;
	void *mem;
	int ret;

	memset(p, 0, sizeof(*p));
	p->nslots = inflight ? inflight : 1;
	p->nwin = atio_pool_windows(window, p->nslots, cover);
	if (p->nslots > 1) {
		p->held = malloc(p->nslots * sizeof(*p->held));
		p->busy = calloc(p->nwin, 1);
		if (!p->held || !p->busy) {
			atio_pool_free(p);
			return -ENOMEM;
		}
		memset(p->held, 0xff, p->nslots * sizeof(*p->held));
	}
	if (tail) {
		if (head + tail < head) {
			atio_pool_free(p);
			return -ENOMEM;
		}
		size = head + tail;
	}
	mem = atio_buf_alloc(size, huge);
	if (!mem) {
		atio_pool_free(p);
		return -ENOMEM;
	}
	ret = atio_keystream(mem, p->nwin * window, key, 0);
	if (ret) {
		atio_buf_free(mem, size);
		atio_pool_free(p);
		return ret;
	}
	p->base = mem;
	p->size = size;
	p->window = window;
	p->mask = (p->nwin & (p->nwin - 1)) == 0 ? p->nwin - 1 : 0;
	if (tail)
		p->tail = p->base + head;
	if (pool > p->nwin * window)
		p->spare = p->base + p->nwin * window;
	p->key = key;
	return 0;
}

void atio_pool_free(struct atio_pool *p)
{
	if (p->base)
		atio_buf_free(p->base, p->size);
	free(p->held);
	free(p->busy);
	atio_keystream_end(&p->rks);
	memset(p, 0, sizeof(*p));
}
