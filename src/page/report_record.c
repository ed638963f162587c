/* SPDX-License-Identifier: MIT */
/*
 * The record at the end of atio report's page: whatever the documents say
 * about how they were made (settings, versions, kernel, host, device,
 * filesystem, the driver's nodes), one row per member and one column per
 * document, so that two setups compared on one page show where their
 * settings differ. Members the charts show (histograms, intervals,
 * threads, the driver's results) are left out; every scalar else is kept,
 * whatever later versions add.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atio/page/report_page.h"
#include "atio/page/svg.h"

struct row {
	char *path;
	char **val;                /* one per document, NULL where it has none */
};

/*
 * The rows in order of first appearance, and an index of them by path: an
 * open-addressing table of row numbers + 1 (0: empty), at most half full,
 * so that a document of N members makes N rows in O(N), not O(N^2).
 */
struct rows {
	unsigned n, cap, ndocs;
	struct row *r;
	unsigned *slot;
	size_t nslots;             /* a power of 2 */
	bool nomem;
};

unsigned long long atio_report_record_compares;

/* FNV-1a of @s. */
static size_t hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

/* The slot of @path in the index: the one that holds its row, or the empty one it would take. */
static size_t lookup(const struct rows *t, const char *path)
{
	size_t i = hash(path) & (t->nslots - 1);

	while (t->slot[i]) {
		atio_report_record_compares++;
		if (strcmp(t->r[t->slot[i] - 1].path, path) == 0)
			break;
		i = (i + 1) & (t->nslots - 1);
	}
	return i;
}

/* Room in the index for one more row: grown to twice its size when half full. */
static int index_room(struct rows *t)
{
	size_t n = t->nslots ? 2 * t->nslots : 256;
	unsigned *old = t->slot;

	if (t->nslots && (t->n + 1) * 2 <= t->nslots)
		return 0;
	t->slot = calloc(n, sizeof(*t->slot));
	if (!t->slot) {
		t->slot = old;
		return -ENOMEM;
	}
	t->nslots = n;
	for (unsigned k = 0; k < t->n; k++)
		t->slot[lookup(t, t->r[k].path)] = k + 1;
	free(old);
	return 0;
}

/* Members left out: the charts and tables above show them. */
static bool skipped(const char *key)
{
	static const char *const skip[] = {
		"buckets", "intervals", "threads", "results", "interval_values", "stall_list",
		"latency_ns", "sync_latency_ns", "service_latency_ns", "read", "write",
	};

	for (unsigned i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strcmp(key, skip[i]) == 0)
			return true;
	return false;
}

/* A scalar as text: whole numbers without ".0", others with up to 12 digits, null as "none". */
static char *scalar(json_t *v)
{
	char *s = NULL;

	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_null(v))
		return strdup("none");
	if (json_is_number(v)) {
		double x = json_number_value(v);

		if (x == floor(x) && fabs(x) < 9007199254740992.0)
			return asprintf(&s, "%.0f", x) < 0 ? NULL : s;
		return asprintf(&s, "%.12g", x) < 0 ? NULL : s;
	}
	return json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
}

/* Put @val (owned) in row @path, column @doc. */
static void put(struct rows *t, const char *path, unsigned doc, char *val)
{
	size_t s;
	unsigned i;

	if (index_room(t))
		goto nomem;
	s = lookup(t, path);
	if (!t->slot[s]) {
		i = t->n;
		if (t->n == t->cap) {
			unsigned cap = t->cap ? 2 * t->cap : 64;
			struct row *r = realloc(t->r, cap * sizeof(*r));

			if (!r)
				goto nomem;
			t->r = r;
			t->cap = cap;
		}
		t->r[i].path = strdup(path);
		t->r[i].val = calloc(t->ndocs, sizeof(char *));
		if (!t->r[i].path || !t->r[i].val) {
			free(t->r[i].path);
			free(t->r[i].val);
			goto nomem;
		}
		t->n++;
		t->slot[s] = t->n;
	}
	i = t->slot[s] - 1;
	if (!val)
		t->nomem = true;
	free(t->r[i].val[doc]);
	t->r[i].val[doc] = val;
	return;
nomem:
	free(val);
	t->nomem = true;
}

/*
 * Whether number @x of member @key of @obj has a "KEY_string" beside it (the
 * seed: a 64-bit number that a double, as JSON readers hold it, rounds):
 * then the string's row says it exactly and the number's is left out.
 */
static bool has_string_twin(json_t *obj, const char *key, json_t *x)
{
	char twin[256];

	if (!json_is_number(x) || snprintf(twin, sizeof(twin), "%s_string", key) >= (int)sizeof(twin))
		return false;
	return json_is_string(json_object_get(obj, twin));
}

/* A flat array's scalars joined by spaces, in one pass; NULL without memory. */
static char *joined(json_t *v)
{
	char *s = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&s, &len);
	bool bad = !f;
	json_t *x;

	json_array_foreach(v, i, x) {
		char *one = bad ? NULL : scalar(x);

		bad = bad || !one || (i && putc(' ', f) == EOF) || fputs(one, f) == EOF;
		free(one);
	}
	if (f && fclose(f) != 0)
		bad = true;
	if (bad) {
		free(s);
		return NULL;
	}
	return s;
}

/* Every scalar under @v, as "path" rows; arrays of scalars on one row. */
static void walk(struct rows *t, unsigned doc, const char *path, json_t *v, int depth)
{
	const char *key;
	json_t *x;
	size_t i;
	char sub[512];

	if (depth > 6)
		return;
	if (json_is_object(v)) {
		json_object_foreach(v, key, x) {
			if (skipped(key) || has_string_twin(v, key, x))
				continue;
			snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "." : "", key);
			walk(t, doc, sub, x, depth + 1);
		}
		return;
	}
	if (json_is_array(v)) {
		bool flat = true;
		char *s;

		json_array_foreach(v, i, x)
			flat = flat && !json_is_object(x) && !json_is_array(x);
		if (!flat) {
			json_array_foreach(v, i, x) {
				snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
				walk(t, doc, sub, x, depth + 1);
			}
			return;
		}
		s = joined(v);
		put(t, path, doc, s);
		return;
	}
	put(t, path, doc, scalar(v));
}

/*
 * A driver's nodes, from its iterations: each node record's "system"
 * object (kernel, host name, device), "filesystem" and "atio" go under
 * "node HOST", the same rows however many iterations repeat them.
 */
static void driver_nodes(struct rows *t, unsigned doc, json_t *d)
{
	json_t *row, *test, *it, *node;
	size_t a, b, c, k;
	char sub[256];

	json_array_foreach(json_object_get(d, "results"), a, row)
		json_array_foreach(json_object_get(row, "tests"), b, test)
			json_array_foreach(json_object_get(test, "iterations"), c, it)
				json_array_foreach(json_object_get(it, "nodes"), k, node) {
			const char *host = json_string_value(json_object_get(node, "host"));

			snprintf(sub, sizeof(sub), "node %s.system", host ? host : "?");
			if (json_is_object(json_object_get(node, "system")))
				walk(t, doc, sub, json_object_get(node, "system"), 1);
			snprintf(sub, sizeof(sub), "node %s.filesystem", host ? host : "?");
			if (json_is_string(json_object_get(node, "filesystem")))
				walk(t, doc, sub, json_object_get(node, "filesystem"), 1);
			snprintf(sub, sizeof(sub), "node %s.atio", host ? host : "?");
			if (json_is_object(json_object_get(node, "atio")))
				walk(t, doc, sub, json_object_get(node, "atio"), 1);
		}
}

int atio_report_record(FILE *f, const struct atio_rfile *files, unsigned n)
{
	struct rows t = { .ndocs = n };
	int ret = 0;

	atio_report_record_compares = 0;
	for (unsigned d = 0; d < n; d++) {
		walk(&t, d, "", files[d].doc, 0);
		if (files[d].kind == ATIO_RDOC_DRIVER)
			driver_nodes(&t, d, files[d].doc);
	}
	fputs("<h2>Record: settings, versions, systems</h2>\n<table class=\"record\">\n"
	      "<tr><th>member</th>", f);
	for (unsigned d = 0; d < n; d++) {
		fputs("<th class=\"k\">", f);
		atio_html_escape(f, files[d].name);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (unsigned i = 0; i < t.n; i++) {
		bool differ = false;

		for (unsigned d = 1; d < n; d++) {
			const char *a = t.r[i].val[0], *b = t.r[i].val[d];

			differ = differ || !a != !b || (a && b && strcmp(a, b) != 0);
		}
		fprintf(f, "<tr%s><td class=\"k\">", differ ? " class=\"differ\"" : "");
		atio_html_escape(f, t.r[i].path);
		fputs("</td>", f);
		for (unsigned d = 0; d < n; d++) {
			fputs("<td class=\"k\">", f);
			atio_html_escape(f, t.r[i].val[d] ? t.r[i].val[d] : "-");
			fputs("</td>", f);
			free(t.r[i].val[d]);
		}
		fputs("</tr>\n", f);
		free(t.r[i].val);
		free(t.r[i].path);
	}
	fputs("</table>\n", f);
	if (n > 1)
		fputs("<p class=\"note\">Rows in bold differ between the documents.</p>\n", f);
	if (t.nomem)
		ret = -ENOMEM;
	free(t.r);
	free(t.slot);
	return ret;
}
