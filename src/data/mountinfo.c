/* SPDX-License-Identifier: MIT */
/* /proc/self/mountinfo read line by line (atio/data/mountinfo.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/data/mountinfo.h"

/* Room for a line: two paths escaped (up to 4 bytes a character) and more. */
#define LINE_MAX_LEN (9 * PATH_MAX)

/*
 * Copy the field that starts at @s (up to a space or the end) into @buf of
 * @len, octal escapes read back; returns the end of the field, or NULL when
 * it is empty or does not fit.
 */
static const char *field(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	while (*s == ' ')
		s++;
	for (; *s && *s != ' ' && *s != '\n'; s++) {
		char c = *s;

		if (c == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			c = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		}
		if (n + 1 >= len)
			return NULL;
		buf[n++] = c;
	}
	if (n == 0)
		return NULL;
	buf[n] = '\0';
	return s;
}

bool atio_mount_parse(const char *line, struct atio_mount *m)
{
	const char *dash = strstr(line, " - ");
	char skip[PATH_MAX], dev[32];
	const char *p = line;

	if (!dash)
		return false;
	/* ID, PARENT, MAJ:MIN, ROOT, POINT */
	if (!(p = field(p, skip, sizeof(skip))) || !(p = field(p, skip, sizeof(skip))) ||
	    !(p = field(p, dev, sizeof(dev))) || !(p = field(p, m->root, sizeof(m->root))) ||
	    !(p = field(p, m->point, sizeof(m->point))) || p > dash)
		return false;
	if (sscanf(dev, "%u:%u", &m->major, &m->minor) != 2)
		return false;
	/* TYPE, SOURCE, SUPER-OPTIONS */
	p = dash + 3;
	return (p = field(p, m->type, sizeof(m->type))) && (p = field(p, skip, sizeof(skip))) &&
	       field(p, m->super_opts, sizeof(m->super_opts));
}

bool atio_mounts_find(bool (*fn)(const struct atio_mount *m, void *arg), void *arg)
{
	struct atio_mount *m = malloc(sizeof(*m)); /* PATH_MAX twice: off the stack */
	char *line = malloc(LINE_MAX_LEN);
	bool taken = false;
	FILE *f = m && line ? fopen("/proc/self/mountinfo", "re") : NULL;

	while (f && !taken && fgets(line, LINE_MAX_LEN, f))
		taken = atio_mount_parse(line, m) && fn(m, arg);
	if (f)
		fclose(f);
	free(line);
	free(m);
	return taken;
}

struct want_dev {
	unsigned major, minor;
	struct atio_mount *out;
};

static bool is_of_dev(const struct atio_mount *m, void *arg)
{
	struct want_dev *w = arg;

	if (m->major != w->major || m->minor != w->minor)
		return false;
	*w->out = *m;
	return true;
}

bool atio_mount_of_dev(unsigned major, unsigned minor, struct atio_mount *m)
{
	struct want_dev w = { major, minor, m };

	return atio_mounts_find(is_of_dev, &w);
}

const char *atio_path_under(const char *path, const char *root)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return path;
	if (strncmp(path, root, n) != 0 || (path[n] != '/' && path[n] != '\0'))
		return NULL;
	return path + n;
}
