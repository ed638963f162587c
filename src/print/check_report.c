/* SPDX-License-Identifier: MIT */
/*
 * What --check found, as text and as JSON. The text starts with one
 * summary line ("check: ..."), then one line per bad range ("bad: ..."),
 * missing file ("missing: ..."), file shorter than planned ("short: ...")
 * and file longer than planned ("long: ..."). The word "rate" appears
 * nowhere: a check has no result line.
 */
#include <inttypes.h>
#include <string.h>

#include "atio/print/check_report.h"
#include "atio/data/journal.h"
#include "atio/base/json.h"
#include "atio/print/report.h"
#include "atio/data/stamp.h"
#include "atio/base/units.h"

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
	if (c->bad_sectors || c->marks_bad)
		return false;
	for (unsigned i = 0; i < c->ds->nfiles; i++)
		if (c->files[i].missing)
			return false;
	return true;
}

/* Why range @b of @c is bad, in words, to @f. */
static void put_reason(FILE *f, const struct atio_check *c, const struct atio_check_bad *b)
{
	switch (b->kind) {
	case ATIO_CHECK_ZEROS:
		fputs("zeros (written data is never all zeros)", f);
		break;
	case ATIO_CHECK_NO_STAMP:
		fputs("no stamp of atio's (another program's data, or damaged)", f);
		break;
	case ATIO_CHECK_MISPLACED:
		if (b->from_file == b->file) {
			fprintf(f, "holds the data written for offset %" PRIu64 " (misplaced)",
				b->detail);
			break;
		}
		fputs("holds the data of ", f);
		atio_report_put_text(f, c->ds->files[b->from_file].path);
		fprintf(f, " at offset %" PRIu64 " (misplaced: another file's data)", b->detail);
		break;
	case ATIO_CHECK_CORRUPT:
		fprintf(f, "differs from the data its stamp names, first at byte %" PRIu64
			" of the sector (torn or corrupted)", b->detail);
		break;
	case ATIO_CHECK_UNREADABLE:
		fprintf(f, "cannot be read: %s", strerror((int)b->detail));
		break;
	case ATIO_CHECK_OLDER:
		if (b->detail)
			fprintf(f, "holds generation %" PRIu64 ", older than", b->detail);
		else
			fputs("holds the fill's data, older than", f);
		fprintf(f, " the write of generation %" PRIu64 " a completed sync acknowledged "
			"(a lost write, or the block rolled back)", b->want_gen);
		break;
	case ATIO_CHECK_NEWER:
		fprintf(f, "holds generation %" PRIu64 ", a later write meant for another block "
			"(misdirected)", b->detail);
		break;
	case ATIO_CHECK_OTHER:
		/* The threads of a run never share a block, and every run draws its keys. */
		fprintf(f, "holds a write of another run (key %016" PRIx64 "), not the write of "
			"generation %" PRIu64 " (key %016" PRIx64 ") a completed sync acknowledged "
			"(a lost write, or the block rolled back to before the run)", b->detail,
			b->want_gen, b->want_key);
		break;
	case ATIO_CHECK_ABSENT:
		fprintf(f, "no data where the write of generation %" PRIu64 " a completed sync "
			"acknowledged should be (a hole, or past the end of the file)",
			b->want_gen);
		break;
	case ATIO_CHECK_DAMAGED:
		fprintf(f, "a damaged stamp: its fields and its check word disagree (corrupted "
			"in the first %u bytes of the sector)", ATIO_STAMP_BYTES);
		break;
	case ATIO_CHECK_FOREIGN:
		fputs("holds the data of another dataset (its stamp's tag is no file's of this "
		      "dataset)", f);
		break;
	case ATIO_CHECK_OLD_VERSION:
		fputs("holds a stamp of an older atio (version 1), which this atio does not "
		      "check", f);
		break;
	case ATIO_CHECK_HOLE:
		fputs("a hole: no data inside a file the fill completed, or before data "
		      "(lost data)", f);
		break;
	}
}

/* Words for what the mark of file @i says. */
static const char *mark_name(enum atio_check_mark m)
{
	static const char *const names[] = { "ok", "none", "other name", "other dataset",
					     "malformed" };

	return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "?";
}

/* The lines about marks: files that name another file or dataset, or none. */
static void put_marks(FILE *f, const struct atio_check *c)
{
	if (c->no_marks) {
		fputs("mark: no file carries atio's mark (copied without extended attributes, "
		      "or a filesystem that keeps none): ", f);
		if (c->id_from_data)
			fprintf(f, "the dataset is the one the data of %u of %u file(s) names "
				"(id %016" PRIx64 ")\n", c->id_from_data, c->ds->nfiles, c->ds->id);
		else
			fputs("no file's first sector names a dataset\n", f);
	}
	for (unsigned i = 0; i < c->ds->nfiles; i++) {
		const struct atio_check_file *cf = &c->files[i];

		if (cf->mark == ATIO_CHECK_MARK_OK || c->files[i].missing ||
		    (cf->mark == ATIO_CHECK_MARK_NONE && (c->no_marks || c->ds->device)))
			continue;
		fputs("mark: ", f);
		atio_report_put_text(f, c->ds->files[i].path);
		if (cf->mark == ATIO_CHECK_MARK_OTHER_NAME)
			fputs(": atio's mark of another file name (renamed, or copied with its "
			      "extended attributes)\n", f);
		else if (cf->mark == ATIO_CHECK_MARK_OTHER_DATASET)
			fprintf(f, ": atio's mark of another dataset (id %016" PRIx64 "; the other "
				"files' is %016" PRIx64 "): the files' marks disagree, a file of "
				"another dataset is in its place\n", cf->mark_id, c->ds->id);
		else if (cf->mark == ATIO_CHECK_MARK_MALFORMED) {
			fputs(": a malformed mark, no mark atio writes (edited or damaged): "
			      "user.atio is \"", f);
			atio_report_put_text(f, cf->mark_text);
			fprintf(f, "\": %s\n", cf->mark_why);
		} else
			fputs(": no mark of atio's (copied without its extended attributes, or "
			      "not a file atio made)\n", f);
	}
}

/* The journal's line: what it claimed and how much of it held. */
static void put_journal(FILE *f, const struct atio_check *c, bool interrupted)
{
	const struct atio_journal_claims *jc = c->journal;

	fputs("journal: ", f);
	atio_report_put_text(f, jc->path);
	if (jc->headless) {
		fputs(": atio's journal without a whole header (the run that made it failed "
		      "before writing one): it claims nothing, and what an earlier journal "
		      "claimed is gone\n", f);
		return;
	}
	fprintf(f, ": %" PRIu64 " record(s), %zu block(s) whose write a completed sync "
		"acknowledged", jc->records, jc->n);
	if (jc->cut)
		fprintf(f, "; %" PRIu64 " byte(s) at its end cut short (a record the crash "
			"interrupted, not trusted)", jc->cut);
	fputs(interrupted ? "; not all checked (interrupted)\n"
	      : atio_check_ok(c) ? "; every one holds its write or a later one\n"
	      : "; see the bad ranges\n", f);
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
	if (c->marks_bad)
		fprintf(f, ", %u file(s) marked as another file's or dataset's, or malformed",
			c->marks_bad);
	if (interrupted)
		fprintf(f, " (interrupted: %.2f of %.2f MiB checked)", atio_mib(c->checked),
			atio_mib(c->to_check));
	fputs(atio_check_ok(c) && !interrupted ? "; ok\n" : "\n", f);
	if (c->journal)
		put_journal(f, c, interrupted);
	put_marks(f, c);
	for (unsigned i = 0; i < c->nlisted; i++) {
		const struct atio_check_bad *b = &c->bad[i];

		fputs("bad: ", f);
		atio_report_put_text(f, c->ds->files[b->file].path);
		fprintf(f, ": offset %" PRIu64 ", %" PRIu64 " bytes (%" PRIu64 " sector(s)): ",
			b->off, b->len, b->len / ATIO_SECTOR);
		put_reason(f, c, b);
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
		} else if (c->files[i].size < c->ds->file_size && !interrupted) {
			/* A hole inside a file of its planned size is a bad range, not this. */
			fputs("short: ", f);
			atio_report_put_text(f, path);
			fprintf(f, ": %.2f MiB of the planned %.2f MiB hold data (the rest was "
				"never written, or is lost)\n", atio_mib(data_bytes(c, i)),
				atio_mib(c->ds->file_size));
		} else if (c->files[i].size > c->ds->file_size) {
			fputs("long: ", f);
			atio_report_put_text(f, path);
			fprintf(f, ": %.2f MiB, longer than the planned %.2f MiB (what lies past "
				"it is not the data set's, and a run truncates it; its data is "
				"checked, its holes are not lost data)\n",
				atio_mib(c->files[i].size), atio_mib(c->ds->file_size));
		}
	}
}

void atio_check_report_json(FILE *f, const struct atio_check *c, const char *version,
			    bool interrupted)
{
	struct atio_json j;
	char id[17];

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
	snprintf(id, sizeof(id), "%016" PRIx64, c->ds->id);
	atio_json_string(&j, "dataset_id", id);
	atio_json_bool(&j, "dataset_id_from_data", c->no_marks);
	atio_json_uint(&j, "marks_bad", c->marks_bad);
	atio_json_array_begin(&j, "bad");
	for (unsigned i = 0; i < c->nlisted; i++) {
		const struct atio_check_bad *b = &c->bad[i];

		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "file", c->ds->files[b->file].path);
		atio_json_uint(&j, "offset", b->off);
		atio_json_uint(&j, "bytes", b->len);
		atio_json_string(&j, "kind", atio_check_kind_name(b->kind));
		if (b->kind == ATIO_CHECK_MISPLACED || b->kind == ATIO_CHECK_FOREIGN)
			atio_json_uint(&j, "written_for_offset", b->detail);
		if (b->kind == ATIO_CHECK_MISPLACED)
			atio_json_string(&j, "written_for_file", c->ds->files[b->from_file].path);
		else if (b->kind == ATIO_CHECK_CORRUPT)
			atio_json_uint(&j, "first_bad_byte", b->detail);
		else if (b->kind == ATIO_CHECK_UNREADABLE)
			atio_json_string(&j, "error", strerror((int)b->detail));
		if (b->kind >= ATIO_CHECK_OLDER) {
			atio_json_uint(&j, "expected_generation", b->want_gen);
			atio_json_uint(&j, "expected_key", b->want_key);
		}
		if (b->kind == ATIO_CHECK_OLDER || b->kind == ATIO_CHECK_NEWER)
			atio_json_uint(&j, "found_generation", b->detail);
		else if (b->kind == ATIO_CHECK_OTHER)
			atio_json_uint(&j, "found_key", b->detail);
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	if (c->journal) {
		atio_json_object_begin(&j, "journal");
		atio_json_string(&j, "path", c->journal->path);
		atio_json_uint(&j, "records", c->journal->records);
		atio_json_uint(&j, "blocks", c->journal->n);
		atio_json_uint(&j, "bytes_cut", c->journal->cut);
		atio_json_bool(&j, "headless", c->journal->headless);
		atio_json_object_end(&j);
	} else {
		atio_json_null(&j, "journal");
	}
	atio_json_array_begin(&j, "per_file");
	for (unsigned i = 0; i < c->ds->nfiles; i++) {
		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "file", c->ds->files[i].path);
		atio_json_bool(&j, "missing", c->files[i].missing);
		atio_json_uint(&j, "size", c->files[i].size);
		atio_json_uint(&j, "unwritten", c->files[i].unwritten);
		atio_json_string(&j, "mark", c->files[i].missing ? "none"
				 : mark_name(c->files[i].mark));
		if (c->files[i].mark == ATIO_CHECK_MARK_MALFORMED) {
			atio_json_string(&j, "mark_text", c->files[i].mark_text);
			atio_json_string(&j, "mark_malformed", c->files[i].mark_why);
		}
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
	if (b->kind == ATIO_CHECK_MISPLACED && b->from_path)
		atio_json_string(&j, "written_for_file", b->from_path);
	if (b->kind == ATIO_CHECK_MISPLACED || b->kind == ATIO_CHECK_CORRUPT ||
	    b->kind == ATIO_CHECK_FOREIGN) {
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

void atio_check_report_readback_text(FILE *f, const struct atio_readback *rb)
{
	if (rb->no_io) {
		fputs("verify: the null engine wrote nothing: no block to read back\n", f);
		return;
	}
	if (rb->bad || rb->err) {
		fprintf(f, "verify: reading back the blocks written in the run: %" PRIu64
			" block(s) read, %s (see the message)\n", rb->blocks,
			rb->bad ? "one bad" : "failed");
		return;
	}
	if (!rb->ran) {
		fprintf(f, "verify: not done (interrupted): %" PRIu64 " block(s) read back, "
			"none bad\n", rb->blocks);
		return;
	}
	fprintf(f, "verify: every block written in the run read back and checked: %" PRIu64
		" block(s), %.2f MiB in %.3f sec, none bad\n", rb->blocks, atio_mib(rb->bytes),
		rb->elapsed_ns / 1e9);
}

void atio_check_report_readback_json(struct atio_json *j, const struct atio_readback *rb)
{
	char what[200];

	atio_json_object_begin(j, "verify");
	atio_json_bool(j, "ok", !rb->bad && !rb->err && (rb->ran || rb->no_io));
	atio_json_uint(j, "bytes_checked", rb->bytes);
	atio_json_bool(j, "read_back", rb->ran || rb->bad);
	atio_json_uint(j, "blocks_checked", rb->blocks);
	atio_json_double(j, "time_sec", rb->elapsed_ns / 1e9);
	atio_json_bool(j, "interrupted", !rb->no_io && !rb->ran && !rb->bad && !rb->err);
	if (rb->journal)
		atio_json_string(j, "journal", rb->journal);
	else
		atio_json_null(j, "journal");
	if (rb->bad) {
		atio_check_describe(what, sizeof(what), &rb->b, &rb->found);
		atio_json_string(j, "file", rb->path);
		atio_json_uint(j, "offset", rb->b.off);
		atio_json_uint(j, "block_offset", rb->block_off);
		atio_json_string(j, "kind", atio_check_kind_name(rb->b.kind));
		atio_json_object_begin(j, "expected");
		atio_json_uint(j, "generation", rb->b.want_gen);
		atio_json_uint(j, "key", rb->b.want_key);
		atio_json_object_end(j);
		if (rb->b.kind == ATIO_CHECK_MISPLACED && rb->b.from_path)
			atio_json_string(j, "written_for_file", rb->b.from_path);
		if (rb->b.kind != ATIO_CHECK_ZEROS && rb->b.kind != ATIO_CHECK_NO_STAMP &&
		    rb->b.kind != ATIO_CHECK_UNREADABLE && rb->b.kind != ATIO_CHECK_DAMAGED &&
		    rb->b.kind != ATIO_CHECK_OLD_VERSION && rb->b.kind != ATIO_CHECK_HOLE) {
			atio_json_object_begin(j, "found");
			atio_json_uint(j, "offset", rb->found.offset);
			atio_json_uint(j, "generation", rb->found.gen);
			atio_json_string(j, "kind", rb->found.kind == ATIO_STAMP_FILL ? "fill"
											: "write");
			atio_json_uint(j, "key", rb->found.key);
			atio_json_object_end(j);
		}
		atio_json_string(j, "message", what);
	} else if (rb->err) {
		atio_json_string(j, "message", rb->e.msg);
	}
	atio_json_object_end(j);
}
