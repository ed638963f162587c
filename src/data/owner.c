/* SPDX-License-Identifier: MIT */
/*
 * atio's own files: the user.atio mark and how much of a file is data.
 * See include/atio/data/owner.h for the rules.
 */
#include <errno.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "atio/data/owner.h"

/* Extents asked of FIEMAP at a time. */
#define FIEMAP_BATCH 64u

const char *atio_owner_basename(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

#define MARK_V1 "atio-file 1 "
#define MARK_V2 "atio-file 2 "
#define MARK_ID 16                 /* hexadecimal digits of the id */

/* The mark's text for @name and @id; NULL when it does not fit (names are short). */
static const char *mark_text(char *buf, size_t len, const char *name, uint64_t id)
{
	int n = snprintf(buf, len, MARK_V2 "%016llx %s", (unsigned long long)id, name);

	return n > 0 && (size_t)n < len ? buf : NULL;
}

int atio_owner_mark(int fd, const char *name, uint64_t id)
{
	char buf[320];
	const char *v = mark_text(buf, sizeof(buf), name, id);

	if (!v)
		return -ENAMETOOLONG;
	if (fsetxattr(fd, ATIO_OWNER_XATTR, v, strlen(v), 0) != 0)
		return errno == ENOTSUP ? -EOPNOTSUPP : -errno;
	return 0;
}

/*
 * Read the mark at @got (NUL-terminated, "atio-file ..."): NULL with
 * *@version, *@id (0 for version 1) and *@name set when it is a mark atio
 * writes, else why it is none. The names atio marks (PREFIXN, PREFIXjournal)
 * end in a digit or a letter, never in a blank or control character.
 */
static const char *parse_mark(const char *got, unsigned *version, uint64_t *id,
			      const char **name)
{
	const char *p;
	unsigned char last;
	uint64_t v = 0;

	if (strncmp(got, MARK_V1, sizeof(MARK_V1) - 1) == 0) {
		*version = 1;
		p = got + sizeof(MARK_V1) - 1;
	} else if (strncmp(got, MARK_V2, sizeof(MARK_V2) - 1) == 0) {
		*version = 2;
		p = got + sizeof(MARK_V2) - 1;
		for (int i = 0; i < MARK_ID; i++, p++) {
			if (*p >= '0' && *p <= '9')
				v = v << 4 | (uint64_t)(*p - '0');
			else if (*p >= 'a' && *p <= 'f')
				v = v << 4 | (uint64_t)(*p - 'a' + 10);
			else if (*p >= 'A' && *p <= 'F')
				return "its dataset id has upper-case digits (atio writes 16 "
				       "lower-case hexadecimal digits)";
			else
				return "its dataset id is not 16 hexadecimal digits";
		}
		if (*p++ != ' ')
			return "its dataset id is not 16 hexadecimal digits and a space";
	} else {
		return "no version this atio reads (1 or 2) follows \"atio-file \"";
	}
	if (!*p)
		return "it names no file";
	if (strchr(p, '/'))
		return "its file name holds a '/'";
	last = (unsigned char)p[strlen(p) - 1];
	if (last == '\n')
		return "its file name ends in a newline";
	if (last <= ' ' || last == 0x7f)
		return "its file name ends in a blank or control character";
	*id = v;
	*name = p;
	return NULL;
}

const char *atio_owner_malformed(const char *text)
{
	const char *name;
	unsigned version;
	uint64_t id;

	if (strncmp(text, "atio-file ", 10) != 0)
		return NULL;
	return parse_mark(text, &version, &id, &name);
}

int atio_owner_read(int fd, char *buf, size_t len)
{
	ssize_t n = fgetxattr(fd, ATIO_OWNER_XATTR, buf, len - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

int atio_owner_check(int fd, const char *name, uint64_t *id)
{
	char got[320];
	ssize_t n = fgetxattr(fd, ATIO_OWNER_XATTR, got, sizeof(got) - 1);
	const char *named;
	unsigned version;
	uint64_t v;

	if (id)
		*id = 0;
	if (n < 0 && errno == ENODATA)
		return ATIO_OWNER_FOREIGN;
	if (n < 0 && errno == ENOTSUP)
		return ATIO_OWNER_NO_XATTR;
	if (n < 0 && errno == ERANGE)
		return ATIO_OWNER_FOREIGN;      /* longer than any mark of atio's */
	if (n < 0)
		return -errno;
	got[n] = '\0';
	if (memchr(got, '\0', (size_t)n) || strncmp(got, "atio-file ", 10) != 0)
		return ATIO_OWNER_FOREIGN;
	if (parse_mark(got, &version, &v, &named))
		return ATIO_OWNER_MALFORMED;
	if (id)
		*id = v;
	if (strcmp(named, name) != 0)
		return ATIO_OWNER_OTHER_NAME;
	return version == 1 ? ATIO_OWNER_OLD : ATIO_OWNER_OURS;
}

int atio_owner_new_id(uint64_t *id)
{
	uint64_t v = 0;

	while (v == 0) {
		ssize_t n = getrandom(&v, sizeof(v), 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n != (ssize_t)sizeof(v))
			return n < 0 ? -errno : -EIO;
	}
	*id = v;
	return 0;
}

int atio_owner_xattrs(const char *dir)
{
	char c;

	if (getxattr(dir, ATIO_OWNER_XATTR, &c, 0) >= 0 || errno == ENODATA || errno == ERANGE)
		return 1;
	if (errno == ENOTSUP)
		return 0;
	return -errno;
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
