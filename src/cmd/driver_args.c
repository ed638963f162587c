/* SPDX-License-Identifier: MIT */
/* The command lines of atio merge's driver modes, and their outputs (driver_args.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "driver_args.h"

int driver_usage(const struct args *a, const char *what, const char *synopsis)
{
	say("merge %s: %s: atio merge %s %s", a->mode, what, a->mode, synopsis);
	return ATIO_EXIT_USAGE;
}

/* The --set before that set the KEY of --set @kv (KEY=VALUE), or NULL. */
static const char *set_before(const struct args *a, const char *kv)
{
	size_t len = strcspn(kv, "=");

	for (int i = 0; kv[len] == '=' && i < a->nsets; i++)
		if (strncmp(a->sets[i], kv, len) == 0 && a->sets[i][len] == '=')
			return a->sets[i];
	return NULL;
}

/* Parse @argv into @a; ATIO_EXIT_OK, or the exit status after a message. */
int driver_parse(int argc, char **argv, struct args *a, const char *synopsis)
{
	bool options = true, mode_seen = false;

	a->files = calloc((size_t)argc, sizeof(*a->files));
	a->sets = calloc((size_t)argc, sizeof(*a->sets));
	if (!a->files || !a->sets) {
		say("merge: out of memory for %d arguments", argc);
		return ATIO_EXIT_FAIL;
	}
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		unsigned k;

		if (!options || w[0] != '-' || !w[1]) {
			a->files[a->nfiles++] = argv[i];
			continue;
		}
		if (strcmp(w, "--") == 0) {
			options = false;
			continue;
		}
		if (strcmp(w, a->mode) == 0) {
			if (mode_seen)
				return driver_usage(a, "given twice", synopsis);
			mode_seen = true;
			continue;
		}
		if (strcmp(a->mode, "--matrix") == 0 && strcmp(w, "--interrupted") == 0) {
			if (a->interrupted)
				return driver_usage(a, "--interrupted: given twice", synopsis);
			a->interrupted = true;
			continue;
		}
		if (strcmp(a->mode, "--test-summary") == 0 && strcmp(w, "--iterations") == 0)
			continue;
		for (k = 0; a->names[k] && strcmp(a->names[k], w) != 0; k++)
			;
		if (!a->names[k] && !(strcmp(a->mode, "--matrix") == 0 && strcmp(w, "--set") == 0)) {
			say("merge %s: %s: unknown option: atio merge %s %s", a->mode, w, a->mode,
			    synopsis);
			return ATIO_EXIT_USAGE;
		}
		if (i + 1 == argc) {
			say("merge %s: %s: give its value: atio merge %s %s", a->mode, w, a->mode,
			    synopsis);
			return ATIO_EXIT_USAGE;
		}
		if (!a->names[k] && set_before(a, argv[i + 1])) {
			say("merge %s: --set %s, then --set %s: one KEY given twice", a->mode,
			    set_before(a, argv[i + 1]), argv[i + 1]);
			return ATIO_EXIT_USAGE;
		}
		if (a->names[k] && a->val[k]) {
			say("merge %s: %s: given twice (%s, then %s)", a->mode, w, a->val[k],
			    argv[i + 1]);
			return ATIO_EXIT_USAGE;
		}
		if (!a->names[k])
			a->sets[a->nsets++] = argv[++i];
		else
			a->val[k] = argv[++i];
	}
	for (unsigned k = 0; a->names[k]; k++)
		if (!a->val[k] && !(a->optional & 1u << k)) {
			char what[64];

			snprintf(what, sizeof(what), "%s missing", a->names[k]);
			return driver_usage(a, what, synopsis);
		}
	return ATIO_EXIT_OK;
}

void driver_args_free(struct args *a)
{
	free(a->files);
	free(a->sets);
}

/* Option @name's value as a whole number from @lo to @hi into *@out. */
int driver_whole(const struct args *a, unsigned k, long lo, long hi, long *out)
{
	const char *v = a->val[k];
	char *end;

	errno = 0;
	*out = strtol(v, &end, 10);
	if (!v[0] || *end || errno || *out < lo || *out > hi) {
		say("merge %s: %s %s: not a whole number from %ld to %ld", a->mode, a->names[k], v,
		    lo, hi);
		return ATIO_EXIT_USAGE;
	}
	return ATIO_EXIT_OK;
}

/* Option @k's value, true or false, into *@out. */
int driver_bool(const struct args *a, unsigned k, bool *out)
{
	*out = strcmp(a->val[k], "true") == 0;
	if (!*out && strcmp(a->val[k], "false") != 0) {
		say("merge %s: %s %s: not true or false", a->mode, a->names[k], a->val[k]);
		return ATIO_EXIT_USAGE;
	}
	return ATIO_EXIT_OK;
}

/* Option @k's value, a number of seconds (or "null" where @null_ok), into *@out. */
int driver_seconds(const struct args *a, unsigned k, bool null_ok, double *out)
{
	const char *v = a->val[k];
	char *end;

	*out = NAN;
	if (null_ok && strcmp(v, "null") == 0)
		return ATIO_EXIT_OK;
	errno = 0;
	*out = strtod(v, &end);
	if (!v[0] || *end || errno || !isfinite(*out) || *out < 0 || strpbrk(v, "xXpP")) {
		say("merge %s: %s %s: not a number of seconds%s", a->mode, a->names[k], v,
		    null_ok ? " (or null)" : "");
		return ATIO_EXIT_USAGE;
	}
	return ATIO_EXIT_OK;
}

/* Open @path for writing as the output named by option @opt; NULL after a message. */
FILE *driver_open_out(const struct args *a, const char *opt, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f)
		say("merge %s: %s %s: cannot write: %s", a->mode, opt, path, strerror(errno));
	return f;
}

/* Close @f, written as @path; non-zero after a message when anything was lost. */
int driver_close_out(const struct args *a, FILE *f, const char *path)
{
	int bad = ferror(f);

	if (fclose(f) || bad) {
		say("merge %s: %s: cannot write: %s", a->mode, path, strerror(errno));
		return ATIO_EXIT_FAIL;
	}
	return ATIO_EXIT_OK;
}

/*
 * Print the line KEY<TAB>VALUE, @v escaped so that it stays one line of
 * one field: a backslash as \\, a tab as \t, a newline as \n, a carriage
 * return as \r and any other control byte as \xHH. A shell's read -r
 * takes the line whole; the text is for people to read.
 */
void driver_print_value(const char *key, const char *v)
{
	printf("%s\t", key);
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", stdout);
		else if (*p == '\t')
			fputs("\\t", stdout);
		else if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\r')
			fputs("\\r", stdout);
		else if (*p < 0x20 || *p == 0x7f)
			printf("\\x%02x", *p);
		else
			putchar(*p);
	}
	putchar('\n');
}

