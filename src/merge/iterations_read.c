/* SPDX-License-Identifier: MIT */
/*
 * Reading an atio merge --json document back, for atio merge
 * --iterations: its sum, unit and each document's value, with the parser
 * and checks of json_read.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "atio/merge/iterations.h"
#include "atio/document/json_read.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

/* The members of an atio merge --json document the summary reads. */
static int iteration_from_json(json_t *doc, const char *name, struct atio_iteration *it,
			       struct atio_error *e)
{
	json_t *u = json_object_get(doc, "unit"), *dm, *el;
	size_t k;

	if (!json_is_object(doc))
		return BAD("%s: not an atio merge --json document (not an object)", name);
	if (json_object_get(doc, "result"))
		return BAD("%s: an atio run's result, not an atio merge --json document "
			   "(merge the nodes' results of each iteration first)", name);
	dm = json_object_get(doc, "documents_merged");
	if (!json_is_array(dm) || !json_is_string(u))
		return BAD("%s: not an atio merge --json document (no \"unit\" and "
			   "\"documents_merged\" in it)", name);
	if (!atio_json_unit_ok(u))
		return BAD("%s: unit: not MB/s, IOPS or sync/s", name);
	snprintf(it->unit, sizeof(it->unit), "%s", json_string_value(u));
	if (atio_json_get_number(doc, "", "sum", &it->sum, name, e))
		return -EINVAL;
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		json_t *d = json_object_get(doc, atio_dir_name(i));
		char where[16];

		if (!json_is_object(d))
			continue;
		snprintf(where, sizeof(where), "%s.", atio_dir_name(i));
		if (atio_json_get_number(d, where, "iops", &it->dir_iops[i], name, e) ||
		    atio_json_get_number(d, where, "mbs", &it->dir_mbs[i], name, e))
			return -EINVAL;
		it->mixed = true;
	}
	if (json_array_size(dm) == 0)
		return BAD("%s: documents_merged: empty", name);
	it->values = calloc(json_array_size(dm), sizeof(*it->values));
	if (!it->values)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	json_array_foreach(dm, k, el) {
		char where[48];

		snprintf(where, sizeof(where), "documents_merged[%zu].", k);
		if (!json_is_object(el))
			return BAD("%s: documents_merged[%zu]: not an object", name, k);
		if (atio_json_get_number(el, where, "value", &it->values[k], name, e))
			return -EINVAL;
		it->nvalues++;
	}
	return 0;
}

int atio_iteration_read(const char *path, struct atio_iteration *it, struct atio_error *e)
{
	json_t *doc;
	int ret;

	memset(it, 0, sizeof(*it));
	it->file = path;
	ret = atio_json_read_file(path, &doc, e);
	if (ret)
		return ret;
	ret = iteration_from_json(doc, path, it, e);
	json_decref(doc);
	if (ret)
		atio_iteration_free(it);
	return ret;
}
