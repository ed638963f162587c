/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CHECK_REPORT_H
#define ATIO_CHECK_REPORT_H

/* What --check found (atio/data/check.h), for people and for scripts. */

#include <stdbool.h>
#include <stdio.h>

#include "atio/data/check.h"
#include "atio/base/json.h"
#include "atio/run/readback.h"

/* No bad sector and no missing file. */
bool atio_check_ok(const struct atio_check *c);

/*
 * The summary line "check: N file(s), X MiB read and checked in T sec,
 * Y MB/s; B bad sector(s)[; ok]", then a "bad:" line per listed range, a
 * "missing:" line per missing file and a "short:" line per file with less
 * data than planned.
 */
void atio_check_report_text(FILE *f, const struct atio_check *c, bool interrupted);

/* The same as one JSON document: {"atio": {...}, "check": {...}}. */
void atio_check_report_json(FILE *f, const struct atio_check *c, const char *version,
			    bool interrupted);

/*
 * --verify --json when a block read was not atio's data: {"atio": ...,
 * "result": null, "verify": {"ok": false, "file", "offset", "kind",
 * "found": {offset, generation, kind, key} (when the sector held a stamp),
 * "first_bad_byte" (corrupt), "message"}}.
 */
void atio_check_report_verify_json(FILE *f, const char *version, const char *path,
				   const struct atio_check_bad *b, const struct atio_stamp *found);

/*
 * --verify on writes: the read-back's line below the result, "verify:
 * every block written in the run read back and checked: N block(s), X MiB
 * in T sec, none bad" (or what stopped it short).
 */
void atio_check_report_readback_text(FILE *f, const struct atio_readback *rb);

/*
 * The same as the result document's "verify" object: {"ok",
 * "bytes_checked", "read_back", "blocks_checked", "time_sec",
 * "interrupted", "journal" (its path, or null)}, and for a bad block
 * "file", "offset", "block_offset", "kind", "expected": {generation,
 * key}, "found": {offset, generation, kind, key} (when the sector held a
 * stamp) and "message".
 */
void atio_check_report_readback_json(struct atio_json *j, const struct atio_readback *rb);

#endif
