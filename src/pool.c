/* SPDX-License-Identifier: MIT */
/*
 * Incompressible data: AES-128-CTR keystream from OpenSSL. With AES-NI it
 * runs at several GB/s on one core, so filling a pool or a dataset costs
 * far less than writing it, unlike reading /dev/urandom.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "atio/buf.h"
#include "atio/pool.h"
#include "atio/prng.h"

/*
 * Fill @len bytes at @buf with the keystream of @key from byte @pos on:
 * AES-128-CTR encryption of zeros, with the counter block set to pos / 16.
 * The 128-bit key is expanded from @key with splitmix64.
 */
int atio_keystream(void *buf, size_t len, uint64_t key, uint64_t pos)
{
	unsigned char k[16], iv[16] = { 0 };
	uint64_t x = key, block = pos / 16, hi, lo;
	EVP_CIPHER_CTX *ctx;
	int ok, outl;

	hi = atio_splitmix64(&x);
	lo = atio_splitmix64(&x);
	memcpy(k, &hi, 8);
	memcpy(k + 8, &lo, 8);
	for (int i = 0; i < 8; i++)
		iv[15 - i] = (unsigned char)(block >> (8 * i));

	memset(buf, 0, len);
	ctx = EVP_CIPHER_CTX_new();
	if (!ctx)
		return -ENOMEM;
	ok = EVP_EncryptInit_ex(ctx, EVP_aes_128_ctr(), NULL, k, iv);
	/* EVP lengths are int: go in chunks well below INT_MAX. */
	for (size_t done = 0; ok && done < len;) {
		size_t n = len - done > (1u << 30) ? (1u << 30) : len - done;

		ok = EVP_EncryptUpdate(ctx, (unsigned char *)buf + done, &outl,
				       (unsigned char *)buf + done, (int)n);
		done += n;
	}
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -EIO;
}

/* FNV-1a over a string, continuing from @h. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

uint64_t atio_data_key(uint64_t seed, const char *salt, uint64_t n)
{
	char host[256] = "";
	uint64_t h = 0xcbf29ce484222325ULL, x;

	gethostname(host, sizeof(host) - 1);
	h = fnv1a(h, host);
	h = fnv1a(h, salt ? salt : "");
	x = seed ^ h ^ (n * 0x9e3779b97f4a7c15ULL);
	return atio_splitmix64(&x);
}

int atio_pool_init(struct atio_pool *p, size_t window, unsigned inflight, uint64_t key,
		   bool huge)
{
	size_t nwin = (size_t)inflight + 1;
	void *mem;
	int ret;

	if (nwin * window < ATIO_POOL_MIN)
		nwin = (ATIO_POOL_MIN + window - 1) / window;
	memset(p, 0, sizeof(*p));
	mem = atio_buf_alloc(nwin * window, huge);
	if (!mem)
		return -ENOMEM;
	ret = atio_keystream(mem, nwin * window, key, 0);
	if (ret) {
		atio_buf_free(mem, nwin * window);
		return ret;
	}
	p->base = mem;
	p->size = nwin * window;
	p->window = window;
	return 0;
}

void atio_pool_free(struct atio_pool *p)
{
	atio_buf_free(p->base, p->size);
	memset(p, 0, sizeof(*p));
}
