/* SPDX-License-Identifier: MIT */
#ifndef ATIO_JSON_H
#define ATIO_JSON_H

/*
 * A small streaming JSON writer: it tracks nesting and commas, escapes
 * strings, and writes numbers that every parser accepts (no NaN or Inf: they
 * become null). @key is the member name inside an object and must be NULL
 * inside an array.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ATIO_JSON_MAX_DEPTH 16

struct atio_json {
	FILE *f;
	int depth;
	bool first[ATIO_JSON_MAX_DEPTH];
};

void atio_json_init(struct atio_json *j, FILE *f);
void atio_json_object_begin(struct atio_json *j, const char *key);
void atio_json_object_end(struct atio_json *j);
void atio_json_array_begin(struct atio_json *j, const char *key);
void atio_json_array_end(struct atio_json *j);
void atio_json_string(struct atio_json *j, const char *key, const char *val); /* NULL writes null */
void atio_json_uint(struct atio_json *j, const char *key, uint64_t val);
void atio_json_int(struct atio_json *j, const char *key, int64_t val);
void atio_json_double(struct atio_json *j, const char *key, double val);
/* Room for any double as atio_json_format_double() writes it. */
#define ATIO_JSON_DOUBLE_LEN 40

/*
 * @val as atio_json_double() writes it, into @buf (ATIO_JSON_DOUBLE_LEN
 * bytes): the shortest "%g" form that reads back to @val, "null" when it
 * is not finite. Text outside JSON may use it for the same figures.
 */
void atio_json_format_double(char *buf, double val);

void atio_json_bool(struct atio_json *j, const char *key, bool val);
void atio_json_null(struct atio_json *j, const char *key);

/* @len bytes of @text as the value, as they are: a whole JSON value another writer made. */
void atio_json_raw(struct atio_json *j, const char *key, const char *text, size_t len);

#endif
