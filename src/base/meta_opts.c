/* SPDX-License-Identifier: MIT */
/* The phases of a metadata run in words (atio/base/meta_opts.h). */
#include <errno.h>
#include <string.h>

#include "atio/base/meta_opts.h"

static const char *const names[ATIO_META_KINDS] = {
	[ATIO_META_CREATE] = "create",
	[ATIO_META_STAT] = "stat",
	[ATIO_META_READ] = "read",
	[ATIO_META_RENAME] = "rename",
	[ATIO_META_DELETE] = "delete",
};

const char *atio_meta_phase_name(enum atio_meta_phase p)
{
	return (unsigned)p < ATIO_META_KINDS ? names[p] : "?";
}

int atio_meta_phase_parse(const char *name, size_t len)
{
	for (int i = 0; i < ATIO_META_KINDS; i++)
		if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
			return i;
	return -1;
}

int atio_meta_phases_parse(const char *text, struct atio_meta_opts *m, const char **bad,
			   size_t *badlen)
{
	const char *s = text;

	m->nphases = 0;
	for (;;) {
		size_t len = strcspn(s, ",");
		int p = atio_meta_phase_parse(s, len);

		if (p < 0) {
			*bad = s;
			*badlen = len;
			return -EINVAL;
		}
		if (m->nphases == ATIO_META_MAX_PHASES)
			return -E2BIG;
		m->phase[m->nphases++] = (enum atio_meta_phase)p;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

bool atio_meta_has(const struct atio_meta_opts *m, enum atio_meta_phase p)
{
	for (unsigned i = 0; i < m->nphases; i++)
		if (m->phase[i] == p)
			return true;
	return false;
}
