/* SPDX-License-Identifier: MIT */
/*
 * atio merge [--json] FILE...: when the first FILE is a metadata run's
 * document (atio --meta --json), the documents summed phase by phase
 * (atio/merge/merge_meta.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "atio/document/json_read.h"
#include "atio/merge/merge_meta.h"

/* The first argument that is a file (not an option nor the value of one), or NULL. */
static const char *first_file(int argc, char **argv)
{
	bool options = true;

	for (int i = 1; i < argc; i++) {
		if (options && strcmp(argv[i], "--") == 0) {
			options = false;
			continue;
		}
		if (options && (strcmp(argv[i], "--values") == 0 || strcmp(argv[i], "--csv") == 0 ||
				strcmp(argv[i], "--clock-offset") == 0)) {
			i++;
			continue;
		}
		if (!options || argv[i][0] != '-' || !argv[i][1])
			return argv[i];
	}
	return NULL;
}

/* See cmd.h. */
int merge_meta_main(int argc, char **argv)
{
	struct atio_merge_meta m = { 0 };
	struct atio_error e = { 0 };
	const char *first = first_file(argc, argv);
	bool options = true, json = false;
	json_t *doc = NULL;
	int status = ATIO_EXIT_OK;

	if (!first || atio_json_read_file(first, &doc, &e))
		return -1;
	if (!atio_merge_meta_is(doc)) {
		json_decref(doc);
		return -1;
	}
	json_decref(doc);
	doc = NULL;
	for (int i = 1; i < argc && !status; i++) {
		const char *a = argv[i];

		if (options && strcmp(a, "--") == 0) {
			options = false;
		} else if (options && strcmp(a, "--json") == 0 && !json) {
			json = true;
		} else if (options && a[0] == '-' && a[1]) {
			say("merge: %s: not with metadata documents (atio --meta --json): a merge "
			    "of them takes --json and the files", a);
			status = ATIO_EXIT_USAGE;
		} else if (atio_json_read_file(a, &doc, &e) ||
			   atio_merge_meta_add(&m, doc, a, &e)) {
			say("merge: %s", e.msg);
			status = e.exit ? e.exit : ATIO_EXIT_FAIL;
		}
		json_decref(doc);
		doc = NULL;
	}
	if (!status && json)
		atio_merge_meta_json(stdout, &m);
	else if (!status)
		atio_merge_meta_text(stdout, &m);
	atio_merge_meta_free(&m);
	if (status)
		return status;
	return flush_stdout("the merged result") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
}
