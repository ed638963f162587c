/* SPDX-License-Identifier: MIT */
/* What the fuzz targets share: see fuzz.h. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char dir[4096];
static char path[4096 + 256];

static void remove_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

const char *atio_fuzz_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/atio-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("atio-fuzz: mkdtemp");
		abort();
	}
	atexit(remove_dir);
	return dir;
}

const char *atio_fuzz_file(const char *name, const uint8_t *data, size_t size)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", atio_fuzz_dir(), name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
		perror(path);
		abort();
	}
	return path;
}

FILE *atio_fuzz_null(void)
{
	static FILE *null;

	if (!null && !(null = fopen("/dev/null", "w"))) {
		perror("/dev/null");
		abort();
	}
	return null;
}

char *atio_fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
