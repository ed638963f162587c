/* SPDX-License-Identifier: MIT */
/*
 * atio report FILE... -o PAGE: the subcommand. It reads every document
 * first, so that a bad one stops it before anything is written, then
 * writes the page as atio/document/out_file.h replaces an -o file: whole, through
 * a temporary file renamed over PAGE (or over the file it leads to, a
 * symbolic link followed only where the kernel's protected_symlinks rule
 * would), keeping its mode and owner. Part of the command layer (cmd.h):
 * it prints its errors (on stderr, prefixed "atio: report: ") and returns
 * the exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "atio/document/out_file.h"
#include "atio/page/report_page.h"

#define USAGE "atio report [-o|--output PAGE.html] FILE..."

/* Say "atio: report: " and the message on stderr; return @status. */
static int refuse(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(int status, const char *fmt, ...)
{
	va_list ap;

	fputs("atio: report: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/* True when @a and @b name one file. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* The documents a page is made of, for write_page(). */
struct page {
	const struct atio_rfile *files;
	unsigned n;
};

static int write_page(FILE *f, void *arg)
{
	const struct page *p = arg;

	return atio_report_page(f, p->files, p->n, ATIO_VERSION);
}

int report_main(int argc, char **argv)
{
	struct atio_rfile *files = calloc(argc > 1 ? (size_t)argc : 1, sizeof(*files));
	const char *out = NULL;
	struct atio_error e = { 0 };
	unsigned n = 0;
	int status = ATIO_EXIT_OK;

	if (!files)
		return refuse(ATIO_EXIT_FAIL, "out of memory");
	for (int i = 1; i < argc && status == ATIO_EXIT_OK; i++) {
		const char *a = argv[i];

		if (out && (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
			    strncmp(a, "--output=", 9) == 0)) {
			status = refuse(ATIO_EXIT_USAGE, "%s: -o given twice: the page goes to one "
				     "file (%s given before)", a, out);
		} else if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (i + 1 >= argc || !argv[i + 1][0])
				status = refuse(ATIO_EXIT_USAGE, "%s: give the file to write the page "
					     "to (" USAGE ")", a);
			else
				out = argv[++i];
		} else if (strncmp(a, "--output=", 9) == 0) {
			out = a + 9;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			printf("usage: " USAGE "\n");
			free(files);
			return ATIO_EXIT_OK;
		} else if (a[0] == '-' && a[1]) {
			status = refuse(ATIO_EXIT_USAGE, "%s: unknown option (" USAGE ")", a);
		} else if (atio_rfile_read(a, &files[n++], &e)) {
			status = refuse(e.exit, "%s", e.msg);
		}
	}
	if (status == ATIO_EXIT_OK && !n)
		status = refuse(ATIO_EXIT_USAGE, "no document given (" USAGE ")");
	if (status == ATIO_EXIT_OK && (!out || !out[0]))
		status = refuse(ATIO_EXIT_USAGE, "no -o PAGE.html: say where to write the page (" USAGE
			     ")");
	/* Two files of one name (a/run.json, b/run.json) go by their paths. */
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			if (strcmp(files[i].name, files[j].name) == 0)
				files[i].clash = files[j].clash = true;
	for (unsigned i = 0; i < n; i++)
		if (files[i].clash)
			files[i].name = files[i].path;
	for (unsigned i = 0; i < n && status == ATIO_EXIT_OK; i++)
		if (same_file(files[i].path, out))
			status = refuse(ATIO_EXIT_USAGE, "-o %s: is the document %s: it would be "
				     "overwritten", out, files[i].path);
	if (status == ATIO_EXIT_OK) {
		struct page p = { files, n };

		atio_report_align(files, n);

		if (atio_out_file_write(out, write_page, &p, &e))
			status = refuse(e.exit, "-o %s", e.msg);
	}
	for (unsigned i = 0; i < n; i++)
		atio_rfile_free(&files[i]);
	free(files);
	return status;
}
