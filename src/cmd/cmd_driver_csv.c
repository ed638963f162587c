/* SPDX-License-Identifier: MIT */
/*
 * atio merge --matrix-csv: the cluster driver's --csv, the rows of its -o
 * document (atio/merge/driver_csv.h) written as atio --csv writes a run's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "driver_args.h"
#include "atio/document/json_read.h"
#include "atio/merge/driver_csv.h"
#include "atio/print/csv.h"

static const char *const csv_names[] = { NULL };
#define CSV_SYNOPSIS "FILE [DOCUMENT]"

/*
 * atio merge --matrix-csv FILE [DOCUMENT]: the driver's --csv. Without
 * DOCUMENT, check that FILE could take the rows, before anything runs;
 * with it, the rows of the -o document DOCUMENT (atio/merge/driver_csv.h)
 * to FILE as atio --csv writes a run's (appended under the same header;
 * - or stdout: standard output). Exit 0; 2 for a FILE that is refused or a
 * DOCUMENT that is not the driver's, naming it; 1 for a write that failed.
 */
int driver_csv_main(int argc, char **argv)
{
	struct args a = { .mode = "--matrix-csv", .names = csv_names };
	struct atio_error e = { 0 };
	char header[8192];
	json_t *doc = NULL;
	FILE *f;
	int ret = driver_parse(argc, argv, &a, CSV_SYNOPSIS);

	if (!ret && (a.nfiles < 1 || a.nfiles > 2))
		ret = driver_usage(&a, "give FILE, and the -o DOCUMENT to write the rows of",
				   CSV_SYNOPSIS);
	atio_driver_csv_header(header, sizeof(header));
	if (!ret && atio_csv_check("merge --matrix-csv", a.files[0], header, &e)) {
		say("%s", e.msg);
		ret = ATIO_EXIT_USAGE;
	}
	if (!ret && a.nfiles == 2) {
		if (atio_json_read_file(a.files[1], &doc, &e)) {
			say("merge --matrix-csv: %s", e.msg);
			ret = ATIO_EXIT_USAGE;
		} else {
			/* Every row made before the file is touched. */
			char *rows = NULL;
			size_t len = 0;
			FILE *mem = open_memstream(&rows, &len);

			if (!mem || atio_driver_csv_rows(mem, doc, &e) || fclose(mem)) {
				say("merge --matrix-csv: %s: %s", a.files[1],
				    e.msg[0] ? e.msg : "out of memory");
				ret = e.exit ? e.exit : ATIO_EXIT_FAIL;
			} else if (!(f = atio_csv_open("merge --matrix-csv", a.files[0], header,
						      &e))) {
				say("%s", e.msg);
				ret = e.exit;
			} else {
				if (fwrite(rows, 1, len, f) != len)
					ret = ATIO_EXIT_FAIL;
				if (atio_csv_close("merge --matrix-csv", a.files[0], f, &e)) {
					say("%s", e.msg);
					ret = ATIO_EXIT_FAIL;
				}
			}
			free(rows);
		}
	}
	json_decref(doc);
	driver_args_free(&a);
	return ret;
}
