/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: atio merge's readers. The input read as an atio --json run
 * document (atio_merge_read_string(), json_read.c), merged twice with
 * itself (asked first whether it may be: merge_runs.c) and written as
 * text and JSON; and read from a file as an atio
 * merge --json document of one iteration (atio merge --iterations),
 * summed and written.
 */
#include <stdlib.h>

#include "atio/merge/iterations.h"
#include "atio/merge/merge.h"
#include "atio/merge/merge_check.h"
#include "atio/merge/merge_runs.h"
#include "fuzz.h"

static void run_document(const char *text)
{
	struct atio_error e = { 0 };
	struct atio_merge_doc docs[2];
	struct atio_merge m;

	if (atio_merge_read_string(text, "fuzz.json", &docs[0], &e))
		return;
	docs[1] = docs[0];
	atio_merge_init(&m);
	if (atio_merge_add(&m, &docs[0], &e) == 0 &&
	    (atio_merge_check_run(&m, &docs[1], &e), atio_merge_add(&m, &docs[1], &e) == 0)) {
		char warning[256];

		for (unsigned k = 0; k < atio_merge_warnings(&m); k++)
			atio_merge_warning(&m, k, warning, sizeof(warning));
		atio_merge_text(atio_fuzz_null(), &m);
		atio_merge_json(atio_fuzz_null(), &m);
	}
	atio_merge_free(&m);
	atio_merge_doc_free(&docs[0]);
}

static void merge_document(const uint8_t *data, size_t size)
{
	const char *path = atio_fuzz_file("merge.json", data, size);
	struct atio_error e = { 0 };
	struct atio_iteration its[2] = { { 0 } };
	struct atio_iterations s;

	if (atio_iteration_read(path, &its[0], &e))
		return;
	its[1] = its[0];
	atio_iterations_init(&s);
	if (atio_iterations_add(&s, &its[0], &e) == 0 && atio_iterations_add(&s, &its[1], &e) == 0) {
		atio_iterations_text(atio_fuzz_null(), &s);
		atio_iterations_json(atio_fuzz_null(), &s, its, 2);
	}
	atio_iterations_free(&s);
	atio_iteration_free(&its[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = atio_fuzz_text(data, size);

	run_document(text);
	free(text);
	merge_document(data, size);
	return 0;
}
