/* SPDX-License-Identifier: MIT */
/*
 * Numbers as people type them: sizes with K, M, G, T suffixes, durations
 * with s, m, h, whole numbers, and the way back to text. Decimal input is
 * read digit by digit, never through strtod, which accepts signs, spaces,
 * "nan", "inf" and exponents and rounds.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "atio/base/units.h"

#define NS_PER_SEC 1000000000ULL

/*
 * A decimal number split at its point: the whole part (over is set when it
 * does not fit 64 bits) and the digits after the point, left unconverted
 * because sizes need them exactly and times only to the nanosecond. frac is
 * NULL when there is no point.
 */
struct number {
	uint64_t whole;
	bool over;
	const char *frac;
	size_t nfrac;
};

/*
 * Read "DIGITS[.DIGITS]" at the start of @s and set *end past it. A sign,
 * a leading space, a point without digits on both sides, "nan", "inf" and
 * exponents are not numbers (-EINVAL): strtod accepts all of those and
 * rounds, which is why it is not used.
 */
static int split_number(const char *s, struct number *n, const char **end)
{
	const char *p = s;

	*n = (struct number){ 0 };
	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++)
		if (__builtin_mul_overflow(n->whole, 10, &n->whole) ||
		    __builtin_add_overflow(n->whole, (uint64_t)(*p - '0'),
					   &n->whole))
			n->over = true;
	if (*p == '.') {
		n->frac = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		n->nfrac = (size_t)(p - n->frac);
		if (!n->nfrac)
			return -EINVAL;
	}
	*end = p;
	return 0;
}

/*
 * See units.h. A fraction of a byte (-EDOM) is told apart from an overflow
 * (-ERANGE) so that the message can say which. The fraction F of
 * k digits is exact: F/10^k * 2^shift is whole only when 5^k divides F and
 * the power of two left over divides the quotient. F may not fit 64 bits,
 * so the quotient and remainder by 5^k are carried digit by digit; 5^k
 * times 10 must fit, hence at most 26 decimals, trailing zeros aside
 * (more are refused as not whole, though 1 byte written in T takes 40).
 */
int atio_parse_size(const char *s, uint64_t *out)
{
	struct number n;
	const char *p;
	unsigned shift = 0;
	uint64_t v, q = 0, r = 0, p5 = 1;
	size_t k;

	if (split_number(s, &n, &p) < 0)
		return -EINVAL;
	switch (*p) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	}
	if (shift)
		p++;
	if (shift && (p[0] == 'i' || p[0] == 'I') && (p[1] == 'b' || p[1] == 'B'))
		p += 2;
	else if (*p == 'b' || *p == 'B')
		p++;
	if (*p)
		return -EINVAL;
	if (n.over || __builtin_mul_overflow(n.whole, 1ULL << shift, &v))
		return -ERANGE;
	for (k = n.nfrac; k && n.frac[k - 1] == '0'; k--)
		;
	if (k > 26)
		return -EDOM;
	for (size_t i = 0; i < k; i++)
		p5 *= 5;
	for (size_t i = 0; i < k; i++) {
		r = r * 10 + (uint64_t)(n.frac[i] - '0');
		q = q * 10 + r / p5;
		r %= p5;
	}
	if (r)
		return -EDOM;
	/* the fraction is q * 2^(shift - k), q < 2^k */
	if (k <= shift)
		q <<= shift - k;
	else if (q & ((1ULL << (k - shift)) - 1))
		return -EDOM;
	else
		q >>= k - shift;
	/* v is a multiple of 2^shift below 2^64 and q < 2^shift: no carry */
	*out = v + q;
	return 0;
}

/*
 * See units.h. Only lower-case s, m and h are suffixes ("M" could be read as
 * months). The fraction is kept to 13 digits, which is below a nanosecond
 * even for hours, and the result is truncated to the nanosecond.
 */
int atio_parse_time(const char *s, uint64_t *ns)
{
	struct number n;
	const char *p;
	uint64_t mul, v, f = 0;
	size_t k;

	if (split_number(s, &n, &p) < 0)
		return -EINVAL;
	mul = *p == 'h' ? 3600 : *p == 'm' ? 60 : 1;
	if (*p == 's' || mul > 1)
		p++;
	if (*p)
		return -EINVAL;
	if (n.over || n.whole > ATIO_MAX_TIME_NS / (mul * NS_PER_SEC))
		return -ERANGE;
	v = n.whole * mul * NS_PER_SEC;
	k = n.nfrac > 13 ? 13 : n.nfrac;
	for (size_t i = 0; i < k; i++)
		f = f * 10 + (uint64_t)(n.frac[i] - '0');
	for (f *= mul; k < 9; k++)
		f *= 10;
	for (; k > 9; k--)
		f /= 10;
	v += f;
	if (v > ATIO_MAX_TIME_NS)
		return -ERANGE;
	*ns = v;
	return 0;
}

/* See units.h: digits only, no sign, no point, no space. */
int atio_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	struct number n;
	const char *p;

	if (split_number(s, &n, &p) < 0 || *p || n.frac)
		return -EINVAL;
	if (n.over || n.whole < min || n.whole > max)
		return -ERANGE;
	*out = n.whole;
	return 0;
}

/* See units.h; 0 is written "0". */
int atio_format_size(char *buf, size_t len, uint64_t bytes)
{
	for (unsigned i = 4; i > 0; i--) {
		uint64_t unit = 1ULL << (10 * i);

		if (bytes && bytes % unit == 0)
			return snprintf(buf, len, "%" PRIu64 "%c",
					bytes / unit, "KMGT"[i - 1]);
	}
	return snprintf(buf, len, "%" PRIu64, bytes);
}

/*
 * See units.h: whole seconds as an integer ("60"), anything else rounded
 * to the millisecond with trailing zeros dropped ("0.5", "1.25"), but never
 * to "0", which -t refuses.
 */
int atio_format_time(char *buf, size_t len, uint64_t ns)
{
	char d[10];
	int i;

	if (ns % NS_PER_SEC == 0)
		return snprintf(buf, len, "%" PRIu64, (uint64_t)(ns / NS_PER_SEC));
	snprintf(d, sizeof(d), "%09u", (unsigned)(ns % NS_PER_SEC));
	for (i = 8; d[i] == '0'; i--)
		d[i] = '\0';
	return snprintf(buf, len, "%" PRIu64 ".%s", (uint64_t)(ns / NS_PER_SEC), d);
}

/* See units.h. */
int atio_parse_seconds(const char *s, uint64_t *whole, uint32_t *nanos)
{
	struct number n;
	const char *p;
	uint32_t f = 0;

	if (split_number(s, &n, &p) < 0 || *p)
		return -EINVAL;
	if (n.over)
		return -ERANGE;
	for (size_t i = 0; i < 9; i++)
		f = f * 10 + (i < n.nfrac ? (uint32_t)(n.frac[i] - '0') : 0);
	*whole = n.whole;
	*nanos = f;
	return 0;
}

/* See units.h: 0.005 MiB and more round to at least 0.01 MiB; nothing is 0.00 MiB. */
int atio_format_mib(char *buf, size_t len, uint64_t bytes)
{
	if (bytes >= 5243 || bytes == 0)
		return snprintf(buf, len, "%.2f MiB", atio_mib((double)bytes));
	if (bytes >= 1024)
		return snprintf(buf, len, "%.2f KiB", (double)bytes / 1024.0);
	return snprintf(buf, len, "%" PRIu64 " bytes", bytes);
}
