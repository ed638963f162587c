/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: atio report's reader (report_read.c), which takes an atio
 * --json run, an atio merge --json merge and an atio-parallel.sh -o
 * driver document, and the page it writes from what it read
 * (report_html.c, svg.c, report_record.c).
 */
#include "atio/page/report_page.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = atio_fuzz_file("doc.json", data, size);
	struct atio_error e = { 0 };
	struct atio_rfile f;

	if (atio_rfile_read(path, &f, &e) == 0)
		atio_report_page(atio_fuzz_null(), &f, 1, "fuzz");
	atio_rfile_free(&f);
	return 0;
}
