/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_DRIVER_ARGS_H
#define ATIO_CMD_DRIVER_ARGS_H

/*
 * The command lines of atio merge's driver modes (cmd_driver.c): each mode
 * takes --NAME VALUE options of its own, once each, then files; and the
 * outputs they write (driver_args.c).
 */

#include <stdbool.h>
#include <stdio.h>

/* The options of a mode: each --NAME VALUE, the flags, then the files. */
struct args {
	const char *mode;          /* "--record" ... */
	const char *const *names;  /* the options with a value it takes, NULL-ended */
	const char *val[16];       /* their values, NULL when not given */
	char **files;              /* the other words */
	int nfiles;
	char **sets;               /* --set KEY=VALUE (--matrix) */
	int nsets;
	bool interrupted;          /* --interrupted (--matrix) */
	unsigned optional;         /* bit k: names[k] may be left out */
};

/* Say what is wrong and the mode's synopsis; returns exit status 2. */
int driver_usage(const struct args *a, const char *what, const char *synopsis);

/*
 * Parse @argv into @a (a->mode and a->names set): an option given twice, an
 * unknown one, one without its value or a required one missing is said,
 * naming it. Returns ATIO_EXIT_OK or the exit status.
 */
int driver_parse(int argc, char **argv, struct args *a, const char *synopsis);
void driver_args_free(struct args *a);

/* Option @k's value: a whole number from @lo to @hi; true or false; seconds. */
int driver_whole(const struct args *a, unsigned k, long lo, long hi, long *out);
int driver_bool(const struct args *a, unsigned k, bool *out);
int driver_seconds(const struct args *a, unsigned k, bool null_ok, double *out);

/* Open @path for writing as the output of option @opt; NULL after a message. */
FILE *driver_open_out(const struct args *a, const char *opt, const char *path);

/* Close @f, written as @path; non-zero after a message when anything was lost. */
int driver_close_out(const struct args *a, FILE *f, const char *path);

/*
 * Print the line KEY<TAB>VALUE, @v escaped so that it stays one line of
 * one field: a backslash as \\, a tab as \t, a newline as \n, a carriage
 * return as \r and any other control byte as \xHH. A shell's read -r
 * takes the line whole; the text is for people to read.
 */
void driver_print_value(const char *key, const char *v);

/*
 * atio merge --matrix-csv FILE [DOCUMENT]: the driver's --csv
 * (cmd_driver_csv.c). Returns the exit status.
 */
int driver_csv_main(int argc, char **argv);

#endif
