/* SPDX-License-Identifier: MIT */
/*
 * Parsing one JSON document from a file or a string for the readers of
 * atio's JSON (atio/document/json_read.h): jansson's parser, with the same
 * flags and the same messages for every reader, and what follows the
 * document checked here.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "atio/document/json_read.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

/*
 * Common end of the readers: jansson's verdict, then the checks. They all
 * read every integer as a double (JSON_DECODE_INT_AS_REAL): jansson's
 * integers stop at 2^63, and a document may hold a 64-bit seed above it.
 * jansson stops at the end of the document (JSON_DISABLE_EOF_CHECK) and
 * the readers look at what follows themselves: anything but white space
 * there is trailing data, which jansson's own check would call a cut
 * document when it is a cut token ("nu", '"a').
 */
#define READ_FLAGS (JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL | JSON_DISABLE_EOF_CHECK)

static int parsed(json_t *doc, const json_error_t *je, bool at_end, bool blank,
		  const char *name, struct atio_error *e)
{
	/*
	 * A document cut inside a literal ("nu" of null) is an invalid token
	 * to jansson; @at_end says the error came where the input ended.
	 * @blank: the input held nothing but white space (an output file
	 * that a failed run left empty): no document, not a cut one.
	 */
	if (!doc && blank)
		return BAD("%s: empty: no JSON document in it", name);
	if (!doc) {
		if (json_error_code(je) == json_error_premature_end_of_input || at_end)
			return BAD("%s: truncated: the JSON ends at line %d column %d before "
				   "the document does", name, je->line, je->column);
		return BAD("%s: not JSON: line %d column %d: %s", name, je->line, je->column,
			   je->text);
	}
	return 0;
}

/*
 * @doc, which ended at byte @end of an input whose last byte that is not
 * white space is byte @last - 1: 0, or -EINVAL naming the trailing data.
 */
static int trailing(json_t *doc, size_t end, size_t last, const char *name,
		    struct atio_error *e)
{
	if (!doc || last <= end)
		return 0;
	return BAD("%s: trailing data after the JSON document, which ends at byte %zu: one "
		   "document a file", name, end);
}


/*
 * A file read for jansson, noting whether any byte of it was not white
 * space, and where the last such byte was.
 */
struct source {
	FILE *f;
	size_t len;                /* bytes read */
	size_t last;               /* 1 + the offset of the last byte not white space */
	bool blank;
};

static size_t read_source(void *buf, size_t len, void *data)
{
	struct source *s = data;
	size_t n = fread(buf, 1, len, s->f);

	for (size_t i = 0; i < n; i++) {
		char c = ((char *)buf)[i];

		if (!c || !strchr(" \t\r\n", c)) {
			s->blank = false;
			s->last = s->len + i + 1;
		}
	}
	s->len += n;
	return n ? n : ferror(s->f) ? (size_t)-1 : 0;
}

int atio_json_read_file(const char *path, json_t **doc, struct atio_error *e)
{
	struct source s = { .blank = true };
	char rest[4096];
	json_error_t je;
	struct stat st;
	bool at_end;
	int ret;

	*doc = NULL;
	s.f = fopen(path, "r");
	if (!s.f)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: cannot open: %s", path,
				      strerror(errno));
	if (fstat(fileno(s.f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(s.f);
		return atio_error_set(e, ATIO_EXIT_USAGE, EISDIR, "%s: is a directory, not a "
				      "JSON document", path);
	}
	*doc = json_load_callback(read_source, &s, READ_FLAGS, &je);
	at_end = !*doc && feof(s.f) && (size_t)je.position >= s.len;
	/* What follows the document: read to the end to see whether it is blank. */
	for (size_t n = 1; *doc && n && n != (size_t)-1;)
		n = read_source(rest, sizeof(rest), &s);
	if (*doc && ferror(s.f)) {
		ret = atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: cannot read: %s", path,
				     strerror(errno));
		json_decref(*doc);
		*doc = NULL;
		fclose(s.f);
		return ret;
	}
	fclose(s.f);
	ret = parsed(*doc, &je, at_end, at_end && s.blank, path, e);
	if (!ret)
		ret = trailing(*doc, (size_t)je.position, s.last, path, e);
	if (ret) {
		json_decref(*doc);
		*doc = NULL;
	}
	return ret;
}

int atio_json_read_text(const char *text, const char *name, json_t **doc,
			struct atio_error *e)
{
	size_t len = strlen(text), end;
	json_error_t je;
	int ret;

	*doc = json_loads(text, READ_FLAGS, &je);
	end = (size_t)je.position;
	ret = parsed(*doc, &je, !*doc && end >= len, strspn(text, " \t\r\n") == len, name, e);
	while (!ret && len > end && strchr(" \t\r\n", text[len - 1]))
		len--;
	if (!ret)
		ret = trailing(*doc, end, len, name, e);
	if (ret) {
		json_decref(*doc);
		*doc = NULL;
	}
	return ret;
}
