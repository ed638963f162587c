/* SPDX-License-Identifier: MIT */
/*
 * The cluster driver's -o document (atio/merge/driver_record.h): its
 * settings, its nodes, and per thread count and test the summary and
 * every iteration's record, put together from the files the driver keeps.
 * Everything is read and checked first, into a buffer, so that a bad
 * file leaves nothing half written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atio/merge/driver_record.h"
#include "atio/document/json_read.h"

/* How a setting is written. */
enum kind {
	STR,                       /* a string */
	NUM,                       /* a number */
	WORDS,                     /* the words as an array of strings */
	WORDS_N,                   /* the same, whole numbers as numbers */
	STR_OR_NULL,               /* a string, null when empty */
};

/* The settings of the document, in its order. */
static const struct {
	const char *key;
	enum kind kind;
} settings_table[] = {
	{ "atio_version", STR }, { "time_sec", NUM }, { "file_size", STR },
	{ "threads", WORDS_N }, { "iterations", NUM }, { "blocksize", STR },
	{ "remote_binaries_path", STR }, { "remote_pcs_mount_path", STR }, { "node_dir", STR },
	{ "pause_sec", NUM }, { "tests", WORDS }, { "atio_opts", STR },
	{ "warmup_time_sec", NUM }, { "start_margin_sec", NUM }, { "overrun_sec", NUM },
	{ "ready_timeout_sec", NUM }, { "max_skew_percent", NUM }, { "profile", STR },
	{ "node_cap", STR_OR_NULL },
};

#define NKEYS (sizeof(settings_table) / sizeof(settings_table[0]))

/* The value of setting @key in @set[@n] ("KEY=VALUE"), or NULL. */
static const char *setting(char *const *set, size_t n, const char *key)
{
	size_t len = strlen(key);
	const char *v = NULL;

	for (size_t i = 0; i < n; i++)
		if (strncmp(set[i], key, len) == 0 && set[i][len] == '=')
			v = set[i] + len + 1;
	return v;
}

/* True when @text is a finite number in decimal, as a setting's number must be. */
static bool number_ok(const char *text)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	return text[0] && !*end && !errno && v == v && v - v == 0 && !strpbrk(text, "xXpP");
}

/* True when @w is a thread count of the driver: a whole number above 0, or auto. */
static bool threads_ok(const char *w)
{
	size_t zeros = strspn(w, "0");

	return strcmp(w, "auto") == 0 || (w[zeros] && strspn(w, "0123456789") == strlen(w) &&
					   strlen(w + zeros) < 10);
}

/* True when every word of @v is a thread count; the first that is not into *@bad. */
static bool thread_words_ok(const char *v, char *bad, size_t len)
{
	char *copy = strdup(v), *save = NULL;
	bool ok = copy != NULL;

	for (char *w = copy ? strtok_r(copy, " \t\n", &save) : NULL; ok && w;
	     w = strtok_r(NULL, " \t\n", &save))
		if (!threads_ok(w)) {
			snprintf(bad, len, "%s", w);
			ok = false;
		}
	free(copy);
	return ok;
}

static int check_settings(char *const *set, size_t n, struct atio_error *e)
{
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(set[i], '=');
		size_t k;

		for (k = 0; eq && k < NKEYS; k++)
			if (strlen(settings_table[k].key) == (size_t)(eq - set[i]) &&
			    strncmp(settings_table[k].key, set[i], (size_t)(eq - set[i])) == 0)
				break;
		if (!eq || k == NKEYS)
			return atio_error_set(e, ATIO_EXIT_USAGE, 0, "--set %s: not a setting of "
					      "the document (KEY=VALUE, KEY one of its \"settings\")",
					      set[i]);
		if (settings_table[k].kind == NUM && !number_ok(eq + 1))
			return atio_error_set(e, ATIO_EXIT_USAGE, 0, "--set %s: not a number", set[i]);
		if (settings_table[k].kind == WORDS_N) {
			char bad[32] = "";

			if (!thread_words_ok(eq + 1, bad, sizeof(bad)))
				return atio_error_set(e, ATIO_EXIT_USAGE, 0, "--set %s: %s%s not a "
						      "thread count (a whole number above 0, or "
						      "auto)", set[i], bad, bad[0] ? ":" : "");
		}
	}
	for (size_t k = 0; k < NKEYS; k++)
		if (!setting(set, n, settings_table[k].key))
			return atio_error_set(e, ATIO_EXIT_USAGE, 0, "--set %s=VALUE: missing "
					      "(the document has every setting)",
					      settings_table[k].key);
	return 0;
}

static void words(struct atio_json *j, const char *key, const char *v, bool numbers)
{
	char *copy = strdup(v), *save = NULL;

	atio_json_array_begin(j, key);
	for (char *w = copy ? strtok_r(copy, " \t\n", &save) : NULL; w;
	     w = strtok_r(NULL, " \t\n", &save))
		if (!numbers || strspn(w, "0123456789") != strlen(w) ||
		    !atio_json_number_text(j, NULL, w))
			atio_json_string(j, NULL, w);
	atio_json_array_end(j);
	free(copy);
}

static void write_settings(struct atio_json *j, char *const *set, size_t n)
{
	atio_json_object_begin(j, "settings");
	for (size_t k = 0; k < NKEYS; k++) {
		const char *key = settings_table[k].key, *v = setting(set, n, key);

		switch (settings_table[k].kind) {
		case NUM:
			atio_json_number_text(j, key, v);
			break;
		case WORDS:
		case WORDS_N:
			words(j, key, v, settings_table[k].kind == WORDS_N);
			break;
		case STR_OR_NULL:
			atio_json_string(j, key, v[0] ? v : NULL);
			break;
		default:
			atio_json_string(j, key, v);
		}
	}
	atio_json_object_end(j);
}

/*
 * Split @line at its tabs into @field[@n]; false unless it has exactly
 * @n fields.
 */
static bool fields(char *line, char **field, unsigned n)
{
	unsigned k = 0;

	for (char *p = line; k < n; k++) {
		field[k] = p;
		p = strchr(p, '\t');
		if (!p)
			return k + 1 == n;
		*p++ = '\0';
	}
	return false;
}

/*
 * Line @no of @path, of @len bytes read by getline(), without its newline:
 * -EINVAL with @e filled when it holds a carriage return (a file written
 * with CRLF line ends) or a NUL, which a field would keep or cut.
 */
static int plain_line(char *line, ssize_t *len, const char *path, size_t no,
		      struct atio_error *e)
{
	if (*len && line[*len - 1] == '\n')
		line[--*len] = '\0';
	if (strlen(line) != (size_t)*len)
		return atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: a NUL byte in it",
				      path, no);
	if (strchr(line, '\r'))
		return atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: a carriage return "
				      "in it (CRLF line ends?): lines end with a newline alone",
				      path, no);
	return 0;
}

/* Open @path for reading; -errno with @e filled naming it. */
static int open_list(const char *path, FILE **f, struct atio_error *e)
{
	*f = fopen(path, "r");
	if (!*f)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: cannot open: %s", path,
				      strerror(errno));
	return 0;
}

/* The keys of a list met so far (its hosts, its thread counts and tests). */
struct seen {
	char **key;
	size_t *line;
	size_t n;
};

/* The line of @a (with @b, when not NULL) in @s, 0 when not there. */
static size_t seen(const struct seen *s, const char *a, const char *b)
{
	for (size_t i = 0; i < s->n; i++) {
		const char *k = s->key[i];
		size_t len = strlen(a);

		if (strncmp(k, a, len) == 0 &&
		    (b ? k[len] == '\t' && strcmp(k + len + 1, b) == 0 : !k[len]))
			return s->line[i];
	}
	return 0;
}

/* Keep @a (with @b), met at line @no, in @s; -ENOMEM. */
static int remember_at(struct seen *s, const char *a, const char *b, size_t no)
{
	char **key = realloc(s->key, (s->n + 1) * sizeof(*key));
	size_t *line;

	if (!key)
		return -ENOMEM;
	s->key = key;
	line = realloc(s->line, (s->n + 1) * sizeof(*line));
	if (!line)
		return -ENOMEM;
	s->line = line;
	if (asprintf(&s->key[s->n], "%s%s%s", a, b ? "\t" : "", b ? b : "") < 0)
		return -ENOMEM;
	s->line[s->n++] = no;
	return 0;
}

static void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->key[i]);
	free(s->key);
	free(s->line);
}

/*
 * The nodes of file @path, one HOST<TAB>CLOCK_OFFSET_SEC<TAB>ATIO line
 * each, with <TAB>TEST_DIR after it where the line has it: the directory
 * the node ran in.
 */
static int write_nodes(struct atio_json *j, const char *path, struct atio_error *e)
{
	struct seen hosts = { 0 };
	char *line = NULL, *f[4];
	size_t cap = 0, no = 0;
	ssize_t len;
	FILE *in;
	unsigned n;
	int ret = open_list(path, &in, e);

	if (ret)
		return ret;
	atio_json_array_begin(j, "nodes");
	while ((len = getline(&line, &cap, in)) >= 0) {
		no++;
		ret = plain_line(line, &len, path, no, e);
		if (ret)
			break;
		n = 1;
		for (const char *p = line; (p = strchr(p, '\t')); p++)
			n++;
		if ((n != 3 && n != 4) || !fields(line, f, n) || !f[0][0]) {
			ret = atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: not "
					     "HOST<TAB>CLOCK_OFFSET_SEC<TAB>ATIO[<TAB>TEST_DIR]",
					     path, no);
			break;
		}
		if (seen(&hosts, f[0], NULL)) {
			ret = atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: node %s again "
					     "(line %zu): a node is listed once", path, no, f[0],
					     seen(&hosts, f[0], NULL));
			break;
		}
		if (remember_at(&hosts, f[0], NULL, no)) {
			ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
			break;
		}
		atio_json_object_begin(j, NULL);
		atio_json_string(j, "host", f[0]);
		if (strcmp(f[1], "unknown") == 0) {
			atio_json_null(j, "clock_offset_sec");
		} else if (!atio_json_number_text(j, "clock_offset_sec", f[1])) {
			atio_json_object_end(j);
			ret = atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: clock offset "
					     "'%s': not a finite number of seconds (or unknown)",
					     path, no, f[1]);
			break;
		}
		atio_json_string(j, "atio", f[2][0] ? f[2] : NULL);
		if (n == 4)
			atio_json_string(j, "test_dir", f[3][0] ? f[3] : NULL);
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
	seen_free(&hosts);
	free(line);
	fclose(in);
	return ret;
}

/*
 * The iteration records of file @path, one JSON document a line, into
 * array "iterations" of @j.
 */
static int write_records(struct atio_json *j, const char *path, struct atio_error *e)
{
	char *line = NULL;
	size_t cap = 0, no = 0;
	ssize_t len;
	json_error_t je;
	json_t *rec;
	FILE *in;
	int ret = open_list(path, &in, e);

	if (ret)
		return ret;
	atio_json_array_begin(j, "iterations");
	while ((len = getline(&line, &cap, in)) >= 0) {
		no++;
		rec = json_loadb(line, (size_t)len, JSON_REJECT_DUPLICATES |
				 JSON_DECODE_INT_AS_REAL, &je);
		if (!json_is_object(rec)) {
			ret = atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: not an "
					     "iteration's record: %s", path, no,
					     rec ? "not a JSON object" : je.text);
			json_decref(rec);
			break;
		}
		atio_json_copy(j, NULL, rec);
		json_decref(rec);
	}
	atio_json_array_end(j);
	free(line);
	fclose(in);
	return ret;
}

/* One test of the results: its summary's members, then its iterations. */
static int write_test(struct atio_json *j, char **f, struct atio_error *e)
{
	json_t *sum = NULL;
	const char *k;
	json_t *v;
	int ret;

	if (f[2][0]) {
		ret = atio_json_read_file(f[2], &sum, e);
		if (ret)
			return ret;
		if (!json_is_object(sum)) {
			json_decref(sum);
			return atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: not a test's summary "
					      "(a JSON object)", f[2]);
		}
	}
	atio_json_object_begin(j, NULL);
	if (sum) {
		json_object_foreach(sum, k, v)
			if (strcmp(k, "iterations") != 0)
				atio_json_copy(j, k, v);
	} else {
		atio_json_string(j, "test", f[1]);
	}
	json_decref(sum);
	ret = write_records(j, f[3], e);
	atio_json_object_end(j);
	return ret;
}

static int write_results(struct atio_json *j, const char *path, struct atio_error *e)
{
	struct seen tests = { 0 };
	char *line = NULL, *f[4], *last = NULL;
	size_t cap = 0, no = 0;
	ssize_t len;
	FILE *in;
	int ret = open_list(path, &in, e);

	if (ret)
		return ret;
	atio_json_array_begin(j, "results");
	while (!ret && (len = getline(&line, &cap, in)) >= 0) {
		no++;
		ret = plain_line(line, &len, path, no, e);
		if (ret)
			break;
		if (!fields(line, f, 4) || !f[0][0] || !f[1][0] || !f[3][0]) {
			ret = atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: not THREADS<TAB>"
					     "TEST<TAB>SUMMARY<TAB>RECORDS", path, no);
			break;
		}
		if (!threads_ok(f[0])) {
			ret = atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: thread count '%s': "
					     "not a whole number above 0, or auto", path, no, f[0]);
			break;
		}
		if (seen(&tests, f[0], f[1])) {
			ret = atio_error_set(e, ATIO_EXIT_USAGE, 0, "%s: line %zu: test %s with %s "
					     "threads again (line %zu): each has one line", path, no,
					     f[1], f[0], seen(&tests, f[0], f[1]));
			break;
		}
		if (remember_at(&tests, f[0], f[1], no)) {
			ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
			break;
		}
		if (!last || strcmp(last, f[0]) != 0) {
			if (last)
				atio_json_array_end(j), atio_json_object_end(j);
			free(last);
			last = strdup(f[0]);
			if (!last) {
				ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
				break;
			}
			atio_json_object_begin(j, NULL);
			if (strspn(f[0], "0123456789") == strlen(f[0]))
				atio_json_number_text(j, "threads", f[0]);
			else
				atio_json_string(j, "threads", f[0]);
			atio_json_array_begin(j, "tests");
		}
		ret = write_test(j, f, e);
	}
	if (last)
		atio_json_array_end(j), atio_json_object_end(j);
	atio_json_array_end(j);
	seen_free(&tests);
	free(last);
	free(line);
	fclose(in);
	return ret;
}

int atio_record_matrix(FILE *out, char *const *settings, size_t nsettings, const char *nodes,
		       const char *results, bool interrupted, int exit_status,
		       struct atio_error *e)
{
	struct atio_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret = check_settings(settings, nsettings, e);

	if (ret)
		return ret;
	f = open_memstream(&buf, &len);
	if (!f)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "out of memory for the document");
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	write_settings(&j, settings, nsettings);
	ret = write_nodes(&j, nodes, e);
	if (!ret)
		ret = write_results(&j, results, e);
	atio_json_bool(&j, "interrupted", interrupted);
	atio_json_int(&j, "exit_status", exit_status);
	atio_json_object_end(&j);
	if (fclose(f) && !ret)
		ret = atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory for the document");
	if (!ret && fwrite(buf, 1, len, out) != len)
		ret = atio_error_set(e, ATIO_EXIT_FAIL, errno, "cannot write the document: %s",
				     strerror(errno));
	free(buf);
	return ret;
}
