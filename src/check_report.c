/* SPDX-License-Identifier: MIT */
/*
 * What --check found, as text and as JSON. The text starts with one
 * summary line ("check: ..."), then one line per bad range ("bad: ..."),
 * missing file ("missing: ...") and file with less data than planned
 * ("short: ..."). The word "rate" appears nowhere: a check has no result
 * line.
 */
#include <inttypes.h>
#include <string.h>

#include "atio/check_report.h"
#include "atio/json.h"
#include "atio/report.h"
#include "atio/stamp.h"
#include "atio/units.h"

static double mbs(const struct atio_check *c)
{
	return c->elapsed_ns ? atio_mib(c->checked) / (c->elapsed_ns / 1e9) : 0.0;
}

/* Bytes of file @i that hold data: its size less its holes. */
static uint64_t data_bytes(const struct atio_check *c, unsigned i)
{
	return c->files[i].size - c->files[i].unwritten;
}

bool atio_check_ok(const struct atio_check *c)
{
	if (c->bad_sectors)
		return false;
	for (unsigned i = 0; i < c->ds->nfiles; i++)
		if (c->files[i].missing)
			return false;
	return true;
}

/* Why range @b is bad, in words, to @f. */
static void put_reason(FILE *f, const struct atio_check_bad *b)
{
	switch (b->kind) {
	case ATIO_CHECK_ZEROS:
		fputs("zeros (written data is never all zeros)", f);
		break;
	case ATIO_CHECK_NO_STAMP:
		fputs("no stamp of atio's (another program's data, or damaged)", f);
		break;
	case ATIO_CHECK_MISPLACED:
		fprintf(f, "holds the data written for offset %" PRIu64 " (misplaced)", b->detail);
		break;
	case ATIO_CHECK_CORRUPT:
		fprintf(f, "differs from the data its stamp names, first at byte %" PRIu64
			" of the sector (torn or corrupted)", b->detail);
		break;
	case ATIO_CHECK_UNREADABLE:
		fprintf(f, "cannot be read: %s", strerror((int)b->detail));
		break;
	}
}

void atio_check_report_text(FILE *f, const struct atio_check *c, bool interrupted)
{
	unsigned missing = 0;

	for (unsigned i = 0; i < c->ds->nfiles; i++)
		missing += c->files[i].missing;
	fprintf(f, "check: %u file(s), %.2f MiB read and checked in %.3f sec, %.2f MB/s; "
		"%" PRIu64 " bad sector(s)", c->ds->nfiles, atio_mib(c->checked),
		c->elapsed_ns / 1e9, mbs(c), c->bad_sectors);
	if (missing)
		fprintf(f, ", %u file(s) missing", missing);
	if (interrupted)
		fprintf(f, " (interrupted: %.2f of %.2f MiB checked)", atio_mib(c->checked),
			atio_mib(c->to_check));
	fputs(atio_check_ok(c) && !interrupted ? "; ok\n" : "\n", f);
	for (unsigned i = 0; i < c->nlisted; i++) {
		const struct atio_check_bad *b = &c->bad[i];

		fputs("bad: ", f);
		atio_report_put_text(f, c->ds->files[b->file].path);
		fprintf(f, ": offset %" PRIu64 ", %" PRIu64 " bytes (%" PRIu64 " sector(s)): ",
			b->off, b->len, b->len / ATIO_SECTOR);
		put_reason(f, b);
		fputc('\n', f);
	}
	if (c->bad_ranges > c->nlisted)
		fprintf(f, "bad: %" PRIu64 " more range(s) not listed\n",
			c->bad_ranges - c->nlisted);
	for (unsigned i = 0; i < c->ds->nfiles; i++) {
		const char *path = c->ds->files[i].path;

		if (c->files[i].missing) {
			fputs("missing: ", f);
			atio_report_put_text(f, path);
			fputc('\n', f);
		} else if (data_bytes(c, i) < c->ds->file_size && !interrupted) {
			fputs("short: ", f);
			atio_report_put_text(f, path);
			fprintf(f, ": %.2f MiB of the planned %.2f MiB hold data (the rest was "
				"never written, or is lost)\n", atio_mib(data_bytes(c, i)),
				atio_mib(c->ds->file_size));
		}
	}
}

void atio_check_report_json(FILE *f, const struct atio_check *c, const char *version,
			    bool interrupted)
{
	struct atio_json j;

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_object_begin(&j, "atio");
	atio_json_string(&j, "version", version);
	atio_json_object_end(&j);
	atio_json_object_begin(&j, "check");
	atio_json_bool(&j, "ok", atio_check_ok(c) && !interrupted);
	atio_json_bool(&j, "interrupted", interrupted);
	atio_json_uint(&j, "files", c->ds->nfiles);
	atio_json_uint(&j, "file_size_planned", c->ds->file_size);
	atio_json_uint(&j, "read_size", c->unit);
	atio_json_bool(&j, "direct", c->direct);
	atio_json_uint(&j, "bytes_to_check", c->to_check);
	atio_json_uint(&j, "bytes_checked", c->checked);
	atio_json_uint(&j, "bytes_unwritten", c->unwritten);
	atio_json_double(&j, "time_sec", c->elapsed_ns / 1e9);
	atio_json_double(&j, "mbs", mbs(c));
	atio_json_uint(&j, "bad_sectors", c->bad_sectors);
	atio_json_uint(&j, "bad_ranges", c->bad_ranges);
	atio_json_array_begin(&j, "bad");
	for (unsigned i = 0; i < c->nlisted; i++) {
		const struct atio_check_bad *b = &c->bad[i];

		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "file", c->ds->files[b->file].path);
		atio_json_uint(&j, "offset", b->off);
		atio_json_uint(&j, "bytes", b->len);
		atio_json_string(&j, "kind", atio_check_kind_name(b->kind));
		if (b->kind == ATIO_CHECK_MISPLACED)
			atio_json_uint(&j, "written_for_offset", b->detail);
		else if (b->kind == ATIO_CHECK_CORRUPT)
			atio_json_uint(&j, "first_bad_byte", b->detail);
		else if (b->kind == ATIO_CHECK_UNREADABLE)
			atio_json_string(&j, "error", strerror((int)b->detail));
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	atio_json_array_begin(&j, "per_file");
	for (unsigned i = 0; i < c->ds->nfiles; i++) {
		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "file", c->ds->files[i].path);
		atio_json_bool(&j, "missing", c->files[i].missing);
		atio_json_uint(&j, "size", c->files[i].size);
		atio_json_uint(&j, "unwritten", c->files[i].unwritten);
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	atio_json_object_end(&j);
	atio_json_object_end(&j);
}

void atio_check_report_verify_json(FILE *f, const char *version, const char *path,
				   const struct atio_check_bad *b, const struct atio_stamp *found)
{
	struct atio_json j;
	char what[160];

	atio_check_describe(what, sizeof(what), b, found);
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_object_begin(&j, "atio");
	atio_json_string(&j, "version", version);
	atio_json_object_end(&j);
	atio_json_null(&j, "result");
	atio_json_object_begin(&j, "verify");
	atio_json_bool(&j, "ok", false);
	atio_json_string(&j, "file", path);
	atio_json_uint(&j, "offset", b->off);
	atio_json_string(&j, "kind", atio_check_kind_name(b->kind));
	if (b->kind == ATIO_CHECK_MISPLACED || b->kind == ATIO_CHECK_CORRUPT) {
		atio_json_object_begin(&j, "found");
		atio_json_uint(&j, "offset", found->offset);
		atio_json_uint(&j, "generation", found->gen);
		atio_json_string(&j, "kind", found->kind == ATIO_STAMP_FILL ? "fill" : "write");
		atio_json_uint(&j, "key", found->key);
		atio_json_object_end(&j);
	}
	if (b->kind == ATIO_CHECK_CORRUPT)
		atio_json_uint(&j, "first_bad_byte", b->detail);
	atio_json_string(&j, "message", what);
	atio_json_object_end(&j);
	atio_json_object_end(&j);
}
