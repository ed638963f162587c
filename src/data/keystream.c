/* SPDX-License-Identifier: MIT */
/*
 * Incompressible data: AES-128-CTR keystream from OpenSSL. With AES-NI it
 * runs at several GB/s on one core, so filling a pool or a dataset costs
 * far less than writing it, unlike reading /dev/urandom.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "atio/data/keystream.h"
#include "atio/base/prng.h"

/*
 * Fill @len bytes at @buf with the keystream of @key from byte @pos on:
 * AES-128-CTR encryption of zeros, with the counter block set to pos / 16.
 * The 128-bit key is expanded from @key with splitmix64. @ks keeps the
 * cipher context, so that a caller making many short runs of keystream
 * (a block at a time) expands a key only when it changes.
 */
int atio_keystream_at(struct atio_keystream *ks, void *buf, size_t len, uint64_t key,
		      uint64_t pos)
{
	unsigned char k[16], iv[16] = { 0 };
	uint64_t x = key, block = pos / 16, hi, lo;
	int ok, outl;

	for (int i = 0; i < 8; i++)
		iv[15 - i] = (unsigned char)(block >> (8 * i));
	if (!ks->ctx && !(ks->ctx = EVP_CIPHER_CTX_new()))
		return -ENOMEM;
	if (!ks->keyed || ks->key != key) {
		hi = atio_splitmix64(&x);
		lo = atio_splitmix64(&x);
		memcpy(k, &hi, 8);
		memcpy(k + 8, &lo, 8);
		ok = EVP_EncryptInit_ex(ks->ctx, EVP_aes_128_ctr(), NULL, k, iv);
		ks->key = key;
		ks->keyed = ok;
	} else {
		ok = EVP_EncryptInit_ex(ks->ctx, NULL, NULL, NULL, iv);
	}
	memset(buf, 0, len);
	/* EVP lengths are int: go in chunks well below INT_MAX. */
	for (size_t done = 0; ok && done < len;) {
		size_t n = len - done > (1u << 30) ? (1u << 30) : len - done;

		ok = EVP_EncryptUpdate(ks->ctx, (unsigned char *)buf + done, &outl,
				       (unsigned char *)buf + done, (int)n);
		done += n;
	}
	return ok ? 0 : -EIO;
}

void atio_keystream_end(struct atio_keystream *ks)
{
	EVP_CIPHER_CTX_free(ks->ctx);
	EVP_CIPHER_CTX_free(ks->ecb);
	ks->ctx = ks->ecb = NULL;
	ks->keyed = ks->ecb_keyed = false;
}

/* See keystream.h: the 128-bit key of @key as atio_keystream_at() makes it. */
int atio_keystream_short(struct atio_keystream *ks, void *buf, size_t len, uint64_t key,
			 uint64_t pos)
{
	unsigned char k[16], *b = buf;
	uint64_t x = key, block = pos / 16, hi, lo;
	int outl;

	if (!ks->ecb && !(ks->ecb = EVP_CIPHER_CTX_new()))
		return -ENOMEM;
	if (!ks->ecb_keyed || ks->ecb_key != key) {
		hi = atio_splitmix64(&x);
		lo = atio_splitmix64(&x);
		memcpy(k, &hi, 8);
		memcpy(k + 8, &lo, 8);
		ks->ecb_keyed = EVP_EncryptInit_ex(ks->ecb, EVP_aes_128_ecb(), NULL, k, NULL) &&
				EVP_CIPHER_CTX_set_padding(ks->ecb, 0);
		ks->ecb_key = key;
		if (!ks->ecb_keyed)
			return -EIO;
	}
	/* The counter blocks: 64 zero bits, then the block number big-endian. */
	for (size_t i = 0; i + 16 <= len; i += 16, block++) {
		uint64_t be = block;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		be = __builtin_bswap64(be);
#endif
		memset(b + i, 0, 8);
		memcpy(b + i + 8, &be, 8);
	}
	for (size_t done = 0; done < len;) {
		size_t n = len - done > (1u << 30) ? (1u << 30) : len - done;

		if (!EVP_EncryptUpdate(ks->ecb, b + done, &outl, b + done, (int)n))
			return -EIO;
		done += n;
	}
	return 0;
}

int atio_keystream(void *buf, size_t len, uint64_t key, uint64_t pos)
{
	struct atio_keystream ks = { 0 };
	int ret = atio_keystream_at(&ks, buf, len, key, pos);

	atio_keystream_end(&ks);
	return ret;
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
