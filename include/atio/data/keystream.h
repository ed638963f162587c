/* SPDX-License-Identifier: MIT */
#ifndef ATIO_KEYSTREAM_H
#define ATIO_KEYSTREAM_H

/*
 * The data atio writes: AES-128-CTR keystream of a 64-bit key, at any
 * byte position, and the keys of a run's data. The write pool
 * (atio/data/pool.h), the dataset fill and the stamp check read it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A keystream key for the data of one run on this host: @seed mixed with
 * the host name and with @salt and @n (a thread's pool and number, a file
 * path), so that no two hosts, threads or files write the same bytes, not
 * even on shared storage that deduplicates across clients. A run's write
 * keys mix 64 random bits into @seed, so that no two runs share one.
 */
uint64_t atio_data_key(uint64_t seed, const char *salt, uint64_t n);

/*
 * Fill @len bytes at @buf with keystream of @key, starting at keystream
 * byte @pos (a multiple of 16). Used by atio_pool_init(), the dataset fill
 * and atio_stamp_check(). Returns 0, -ENOMEM or -EIO.
 */
int atio_keystream(void *buf, size_t len, uint64_t key, uint64_t pos);

/*
 * The same with a cipher context kept in @ks (zeroed before first use,
 * released with atio_keystream_end()), for callers that make keystream
 * many times: the key is expanded again only when it changes.
 */
struct atio_keystream {
	void *ctx;                 /* OpenSSL's EVP_CIPHER_CTX */
	uint64_t key;              /* the key ctx holds */
	bool keyed;
	void *ecb;                 /* atio_keystream_short()'s: AES-128-ECB */
	uint64_t ecb_key;
	bool ecb_keyed;
};

int atio_keystream_at(struct atio_keystream *ks, void *buf, size_t len, uint64_t key,
		      uint64_t pos);
void atio_keystream_end(struct atio_keystream *ks);

/*
 * The same bytes as atio_keystream_at(), made for callers that ask for
 * short runs at scattered positions (the reducible data of
 * atio/data/reduce.h, a unit at a time): CTR's keystream block i is AES of
 * the counter block of i, so @buf is filled with the counter blocks and
 * encrypted in place with AES-128-ECB, whose context is made once per key.
 * Setting CTR's counter again for every run costs more than the AES of a
 * few KiB in OpenSSL 3. @len is a multiple of 16. Returns 0, -ENOMEM or -EIO.
 */
int atio_keystream_short(struct atio_keystream *ks, void *buf, size_t len, uint64_t key,
			 uint64_t pos);

#endif
