/* SPDX-License-Identifier: MIT */
#ifndef ATIO_JSON_READ_H
#define ATIO_JSON_READ_H

/*
 * The parts of json_read.c that atio report shares with atio merge: the
 * document parsed by jansson with the same flags and the same messages, a
 * histogram read and checked against this atio's buckets, and a run
 * document turned into a struct atio_merge_doc. One reader of atio's JSON.
 */

#include <stdbool.h>

#include <jansson.h>

#include "atio/base/error.h"
#include "atio/stats/hist.h"
#include "atio/document/doc.h"

/*
 * Parse file @path with jansson (every integer read as a double, duplicate
 * keys refused) into *@doc, which the caller releases with json_decref()
 * (src/document/json_load.c). Returns 0, or -errno / -EINVAL with @e filled
 * (exit 2) and a message naming @path: cannot open, a directory, empty,
 * not JSON (line and column), truncated, trailing data after the document
 * (anything but white space).
 */
int atio_json_read_file(const char *path, json_t **doc, struct atio_error *e);

/* The same for the string @text, which @name stands for in messages. */
int atio_json_read_text(const char *text, const char *name, json_t **doc,
			struct atio_error *e);

/*
 * The member @key of object @obj, which must be a finite number from 0 up,
 * into *@out; @where ("result.") and @key name it in the message, @name
 * the document. Returns 0 or -EINVAL with @e filled (exit 2).
 */
int atio_json_get_number(json_t *obj, const char *where, const char *key, double *out,
			 const char *name, struct atio_error *e);

/* True when @u is a string naming a unit atio writes: MB/s, IOPS or sync/s. */
bool atio_json_unit_ok(const json_t *u);

/*
 * The histogram @key of object @obj into @h (count, min, max, mean and
 * buckets, checked as atio merge checks them). @name stands for the
 * document in messages. Returns 0 or -EINVAL with @e filled (exit 2).
 */
/*
 * The "intervals" and "timeline" of object @obj (a data run's document, or
 * a phase of a metadata run's) into a new series *@out, checked as atio
 * merge checks a run's: their ops must add up to @ops; @elapsed_ns is the
 * series' end. *@out is NULL when @obj has neither (or both are null).
 * Returns 0 or -EINVAL with @e filled (exit 2).
 */
int atio_json_read_intervals(json_t *obj, uint64_t ops, uint64_t elapsed_ns,
			     struct atio_ival_series **out, const char *name,
			     struct atio_error *e);

int atio_json_read_hist(json_t *obj, const char *key, struct atio_hist *h, const char *name,
			struct atio_error *e);

/*
 * The atio --json result document @doc into @d, as atio_merge_read()
 * reads a file; d->file is set to @name. Same contract.
 */
int atio_json_read_run(json_t *doc, const char *name, struct atio_merge_doc *d,
		       struct atio_error *e);

#endif
