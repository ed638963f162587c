/* SPDX-License-Identifier: MIT */
/*
 * Streaming JSON writer.
 *
 * Nothing is buffered or allocated: every call writes its token straight to
 * the FILE. The writer only remembers, per nesting level, whether the next
 * member is the first one (no comma before it). The output is compact, one
 * document per line, and a newline follows the value that closes the
 * document, so that line-oriented tools see one document per line.
 *
 * Numbers are written so that every parser accepts them: integers in
 * decimal, doubles in the shortest "%g" form that reads back to the same
 * double, and NaN or an infinity as null (JSON has no spelling for them).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/json.h"

/*
 * The comma state slot for the current depth. Documents deeper than
 * ATIO_JSON_MAX_DEPTH share the last slot; atio never nests that deep (its
 * deepest document has five levels), so this only keeps a misuse from
 * writing outside the array.
 */
static bool *first_slot(struct atio_json *j)
{
	int d = j->depth;

	if (d < 0)
		d = 0;
	if (d >= ATIO_JSON_MAX_DEPTH)
		d = ATIO_JSON_MAX_DEPTH - 1;
	return &j->first[d];
}

/*
 * The length of the valid UTF-8 sequence at @p (1 to 4), or 0 when the
 * bytes there are not one: a stray continuation byte, a truncated
 * sequence, an overlong form, a surrogate or a code point above U+10FFFF.
 */
static int utf8_len(const unsigned char *p)
{
	int n;
	uint32_t c;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (int i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (n == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	return n;
}

/*
 * Write a JSON string literal. The quote, the backslash and the control
 * characters U+0000..U+001F are escaped, the control characters as \u00XX
 * as RFC 8259 allows for all of them. Valid UTF-8 passes through as it is.
 * atio's strings (paths above all) are bytes, not necessarily UTF-8: a byte
 * that is not part of valid UTF-8 is written as \u00XX, its value. Since
 * the characters U+0080..U+00FF themselves are never escaped (they pass
 * through as UTF-8), an escape \u0080..\u00ff in atio's JSON always stands
 * for one raw byte, and a reader gets the exact path back by turning each
 * into that byte. The document stays valid JSON (and UTF-8) whatever the
 * path holds. Braces and brackets inside strings are written as
 * \u007b, \u007d, \u005b and \u005d, so that the first "}" after an
 * object's "{" in atio's JSON is its end when the object holds no other
 * (the driver, a shell script, relies on it).
 */
static void put_string(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	putc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = utf8_len(p);

		if (*p == '"' || *p == '\\') {
			putc('\\', f);
			putc(*p, f);
		} else if (*p < 0x20 || n == 0 || *p == '{' || *p == '}' || *p == '[' ||
			   *p == ']') {
			fputs("\\u00", f);
			putc(hex[*p >> 4], f);
			putc(hex[*p & 0xf], f);
		} else {
			fwrite(p, 1, (size_t)n, f);
			p += n;
			continue;
		}
		p++;
	}
	putc('"', f);
}

/*
 * Everything that goes before a value: the comma when the value is not the
 * first in its container, and the member name inside an object. @key must
 * be NULL inside an array and at the top level.
 */
static void before_value(struct atio_json *j, const char *key)
{
	if (j->depth > 0) {
		bool *first = first_slot(j);

		if (!*first)
			putc(',', j->f);
		*first = false;
	}
	if (key) {
		put_string(j->f, key);
		putc(':', j->f);
	}
}

/*
 * Everything that goes after a value: the newline that ends the document
 * when the value was the top-level one.
 */
static void after_value(struct atio_json *j)
{
	if (j->depth == 0)
		putc('\n', j->f);
}

/*
 * Start a document on @f. The writer holds no resources, so there is no
 * matching cleanup; one writer may write several documents in a row.
 */
void atio_json_init(struct atio_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	for (int i = 0; i < ATIO_JSON_MAX_DEPTH; i++)
		j->first[i] = true;
}

/* Shared by objects and arrays: write @open and go one level deeper. */
static void container_begin(struct atio_json *j, const char *key, int open)
{
	before_value(j, key);
	putc(open, j->f);
	j->depth++;
	*first_slot(j) = true;
}

/* Shared by objects and arrays: write @close and come back one level. */
static void container_end(struct atio_json *j, int close)
{
	putc(close, j->f);
	if (j->depth > 0)
		j->depth--;
	after_value(j);
}

/* Open an object, as member @key of the enclosing object or as an element. */
void atio_json_object_begin(struct atio_json *j, const char *key)
{
	container_begin(j, key, '{');
}

/* Close the innermost object. */
void atio_json_object_end(struct atio_json *j)
{
	container_end(j, '}');
}

/* Open an array, as member @key of the enclosing object or as an element. */
void atio_json_array_begin(struct atio_json *j, const char *key)
{
	container_begin(j, key, '[');
}

/* Close the innermost array. */
void atio_json_array_end(struct atio_json *j)
{
	container_end(j, ']');
}

/* A string value, escaped; NULL writes null so callers need not test. */
void atio_json_string(struct atio_json *j, const char *key, const char *val)
{
	before_value(j, key);
	if (val)
		put_string(j->f, val);
	else
		fputs("null", j->f);
	after_value(j);
}

/* An unsigned integer, exact over the whole 64-bit range. */
void atio_json_uint(struct atio_json *j, const char *key, uint64_t val)
{
	before_value(j, key);
	fprintf(j->f, "%" PRIu64, val);
	after_value(j);
}

/* A signed integer, exact over the whole 64-bit range. */
void atio_json_int(struct atio_json *j, const char *key, int64_t val)
{
	before_value(j, key);
	fprintf(j->f, "%" PRId64, val);
	after_value(j);
}

/*
 * A double in the shortest of "%.15g", "%.16g" and "%.17g" that reads back
 * to the same value: 0.1 stays "0.1" (where "%.17g" would print
 * 0.10000000000000001), while an epoch with microseconds keeps all its
 * digits (which "%.9g" would lose). NaN and the infinities become null.
 * If the C locale was changed to one with a decimal comma, the comma is put
 * back to a point after the round-trip check (strtod reads the locale's
 * form), since JSON knows only the point.
 */
void atio_json_format_double(char *buf, double val)
{
	char s[ATIO_JSON_DOUBLE_LEN] = "null";

	for (int prec = 15; isfinite(val) && prec <= 17; prec++) {
		snprintf(s, sizeof(s), "%.*g", prec, val);
		if (strtod(s, NULL) == val)
			break;
	}
	for (char *p = s; *p; p++)
		if (*p == ',')
			*p = '.';
	memcpy(buf, s, sizeof(s));
}

void atio_json_double(struct atio_json *j, const char *key, double val)
{
	char buf[ATIO_JSON_DOUBLE_LEN];

	before_value(j, key);
	atio_json_format_double(buf, val);
	fputs(buf, j->f);
	after_value(j);
}

/* true or false. */
void atio_json_bool(struct atio_json *j, const char *key, bool val)
{
	before_value(j, key);
	fputs(val ? "true" : "false", j->f);
	after_value(j);
}

/* An explicit null, for a value that does not exist in this run. */
void atio_json_null(struct atio_json *j, const char *key)
{
	before_value(j, key);
	fputs("null", j->f);
	after_value(j);
}

/* See json.h. */
void atio_json_raw(struct atio_json *j, const char *key, const char *text, size_t len)
{
	before_value(j, key);
	fwrite(text, 1, len, j->f);
	after_value(j);
}
