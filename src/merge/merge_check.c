/* SPDX-License-Identifier: MIT */
/*
 * How the settings of the documents merged compare with the first's, and
 * the warnings that follow (merge_check.h). A document's own figures are
 * checked when it is read (src/document/doc_check.c).
 */
#include <stdio.h>
#include <string.h>

#include "atio/merge/merge_check.h"

/*
 * Whether a run of mode @mode only writes ("write", "fsync", "fdatasync",
 * "expand"); "mix" and "rewrite" read and write.
 */
static bool writes(const char *mode)
{
	return mode[0] && strcmp(mode, "read") != 0 && strcmp(mode, "mix") != 0 &&
	       strcmp(mode, "rewrite") != 0;
}

int atio_merge_settings_fold(struct atio_merge *m, const struct atio_merge_doc *d,
			     struct atio_error *e)
{
	const char *a = m->first.val[0], *b = d->set.val[0];

	if (m->ndocs == 0) {
		m->first = d->set;
		return 0;
	}
	/* Modes unknown to this atio ("" or another word) are only compared below. */
	if ((strcmp(a, "read") == 0 && writes(b)) || (writes(a) && strcmp(b, "read") == 0))
		return atio_error_set(e, ATIO_EXIT_USAGE, 0,
				      "%s: a --%s run, the documents before it --%s runs: a sum of "
				      "reads and writes is neither (a mixed load is one --mix run "
				      "per node)", d->file, b, a);
	for (unsigned i = 0; i < ATIO_MERGE_NSETTINGS; i++) {
		struct atio_merge_differ *x = &m->differ[i];

		if (!m->first.val[i][0] || !d->set.val[i][0] ||
		    strcmp(m->first.val[i], d->set.val[i]) == 0)
			continue;
		if (!x->n++) {
			x->file = d->file;
			memcpy(x->val, d->set.val[i], sizeof(x->val));
		}
	}
	return 0;
}

unsigned atio_merge_warnings(const struct atio_merge *m)
{
	unsigned n = m->lost_by != NULL;

	for (unsigned i = 0; i < ATIO_MERGE_NSETTINGS; i++)
		n += m->differ[i].n > 0;
	return n;
}

/* Seconds of @ns for a message. */
static double sec(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* "FILE has intervals of N s" or "FILE has no intervals" into @buf. */
static void has(char *buf, size_t len, const char *file, uint64_t ns)
{
	if (ns)
		snprintf(buf, len, "%s has intervals of %g s", file, sec(ns));
	else
		snprintf(buf, len, "%s has no intervals (a run without --interval)", file);
}

void atio_merge_warning(const struct atio_merge *m, unsigned k, char *buf, size_t len)
{
	const char *first = m->ndocs ? m->docs[0].file : "?";
	char a[512], b[512], more[64] = "";

	buf[0] = '\0';
	for (unsigned i = 0; i < ATIO_MERGE_NSETTINGS; i++) {
		const struct atio_merge_differ *x = &m->differ[i];

		if (!x->n || k--)
			continue;
		if (x->n > 1)
			snprintf(more, sizeof(more), " and %u more of the documents", x->n - 1);
		snprintf(buf, len, "%s (%s) differs: %s in %s (the first document), %s in %s%s: "
			 "the sum adds up unlike runs", atio_merge_setting_option(i), atio_merge_setting_key(i),
			 m->first.val[i], first, x->val, x->file, more);
		return;
	}
	if (!m->lost_by || k)
		return;
	has(a, sizeof(a), first, m->interval_ns);
	has(b, sizeof(b), m->lost_by, m->lost_interval_ns);
	snprintf(buf, len, "the intervals are left out: %s, %s; they are summed only when every "
		 "document has intervals of one length", a, b);
}
