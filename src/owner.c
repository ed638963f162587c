/* SPDX-License-Identifier: MIT */
/*
 * atio's own files: the user.atio mark and how much of a file is data.
 * See include/atio/owner.h for the rules.
 */
#include <errno.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "atio/owner.h"

/* Extents asked of FIEMAP at a time. */
#define FIEMAP_BATCH 64u

const char *atio_owner_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The mark's text for @name; NULL when it does not fit (names are short). */
static const char *mark_text(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "atio-file 1 %s", name);

	return n > 0 && (size_t)n < len ? buf : NULL;
}

int atio_owner_mark(int fd, const char *name)
{
	char buf[320];
	const char *v = mark_text(buf, sizeof(buf), name);

	if (!v)
		return -ENAMETOOLONG;
	if (fsetxattr(fd, ATIO_OWNER_XATTR, v, strlen(v), 0) != 0)
		return errno == ENOTSUP ? -EOPNOTSUPP : -errno;
	return 0;
}

int atio_owner_check(int fd, const char *name)
{
	char want[320], got[320];
	const char *v = mark_text(want, sizeof(want), name);
	ssize_t n = fgetxattr(fd, ATIO_OWNER_XATTR, got, sizeof(got));

	if (n < 0 && errno == ENODATA)
		return ATIO_OWNER_FOREIGN;
	if (n < 0 && errno == ENOTSUP)
		return ATIO_OWNER_NO_XATTR;
	if (n < 0 && errno == ERANGE)
		return ATIO_OWNER_FOREIGN;      /* longer than any mark of atio's */
	if (n < 0)
		return -errno;
	got[(size_t)n < sizeof(got) ? (size_t)n : sizeof(got) - 1] = '\0';
	if (!v || (size_t)n != strlen(v) || memcmp(got, v, (size_t)n) != 0)
		return strncmp(got, "atio-file ", 10) == 0 ? ATIO_OWNER_OTHER_NAME
							 : ATIO_OWNER_FOREIGN;
	return ATIO_OWNER_OURS;
}

/*
 * The first offset below *@end that FIEMAP shows as a hole or unwritten,
 * lowering *@end to it. Returns 0, or -EOPNOTSUPP where the filesystem has
 * no FIEMAP (then SEEK_HOLE's answer stands), or -errno.
 */
static int fiemap_end(int fd, uint64_t *end)
{
	size_t len = sizeof(struct fiemap) + FIEMAP_BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm = malloc(len);
	uint64_t pos = 0;
	int ret = 0;

	if (!fm)
		return -ENOMEM;
	while (pos < *end) {
		memset(fm, 0, len);
		fm->fm_start = pos;
		fm->fm_length = *end - pos;
		fm->fm_extent_count = FIEMAP_BATCH;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0) {
			ret = errno == ENOTTY || errno == EOPNOTSUPP || errno == ENOTSUP
				? -EOPNOTSUPP : -errno;
			break;
		}
		if (fm->fm_mapped_extents == 0) {
			*end = pos;     /* nothing mapped from here: a hole */
			break;
		}
		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *x = &fm->fm_extents[i];

			if (x->fe_logical > pos || (x->fe_flags & FIEMAP_EXTENT_UNWRITTEN)) {
				*end = x->fe_logical > pos ? pos : x->fe_logical;
				goto out;
			}
			pos = x->fe_logical + x->fe_length;
			if ((x->fe_flags & FIEMAP_EXTENT_LAST) && pos < *end) {
				*end = pos;
				goto out;
			}
		}
	}
out:
	free(fm);
	return ret;
}

int atio_owner_data_end(int fd, uint64_t size, uint64_t *end)
{
	off_t hole = lseek(fd, 0, SEEK_HOLE);
	int ret;

	*end = size;
	if (hole < 0 && errno != ENXIO)
		return -errno;
	if (hole >= 0 && (uint64_t)hole < *end)
		*end = (uint64_t)hole;
	ret = fiemap_end(fd, end);
	return ret == -EOPNOTSUPP ? 0 : ret;
}

bool atio_owner_same(int fd, const char *path)
{
	struct stat a, b;

	return fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}
