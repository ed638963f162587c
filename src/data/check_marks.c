/* SPDX-License-Identifier: MIT */
/*
 * --check: what the files' marks say about the dataset, and its id where
 * no file carries a mark. See atio_check_marks() in include/atio/data/check.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atio/data/check.h"
#include "atio/data/owner.h"
#include "atio/data/stamp.h"

static int older(struct atio_error *e, const char *path, const char *what)
{
	return atio_error_set(e, ATIO_EXIT_FAIL, EPROTONOSUPPORT,
			      "%s: made by an older atio (%s of version 1): its sectors carry "
			      "stamps of version 1, without the tag and check word this atio "
			      "checks; make the dataset again with --prepare (it rewrites "
			      "atio's files of the older format; over a block device, a --seq "
			      "write test over all of it) and check that", path, what);
}

/*
 * The dataset id the first sector of file @i names (its tag less the
 * file's part), into *@id: 1 when it holds a whole stamp, 0 when not, or
 * -errno with @e filled (a stamp of version 1 is refused as older()).
 */
static int id_of_data(const struct atio_file *f, unsigned i, uint64_t *id,
		      struct atio_error *e)
{
	unsigned char s[ATIO_SECTOR];
	struct atio_stamp st;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK), ret;
	ssize_t n;

	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, errno, "%s: %s", f->path,
				      strerror(errno));
	n = pread(fd, s, sizeof(s), 0);
	ret = n < 0 ? errno : 0;
	close(fd);
	if (ret)
		return atio_error_set(e, ATIO_EXIT_FAIL, ret, "%s: %s", f->path, strerror(ret));
	if (n != (ssize_t)sizeof(s))
		return 0;
	ret = atio_stamp_get(s, &st);
	if (ret == -EPROTONOSUPPORT)
		return older(e, f->path, "stamps");
	if (ret)
		return 0;
	*id = atio_stamp_tag_dataset(st.tag, i);
	return 1;
}

/*
 * The malformed mark of @f into @cf: its text and what is wrong with it.
 * Returns 0 or -errno with @e filled.
 */
static int malformed(const struct atio_file *f, struct atio_check_file *cf,
		     struct atio_error *e)
{
	char text[320];
	int fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	int ret = fd < 0 ? -errno : atio_owner_read(fd, text, sizeof(text));

	if (fd >= 0)
		close(fd);
	if (ret)
		return atio_error_set(e, ATIO_EXIT_FAIL, -ret, "%s: cannot read its user.atio "
				      "mark: %s", f->path, strerror(-ret));
	cf->mark = ATIO_CHECK_MARK_MALFORMED;
	cf->mark_why = atio_owner_malformed(text);
	if (!cf->mark_why)
		cf->mark_why = "it changed after the survey read it";
	cf->mark_text = strdup(text);
	return cf->mark_text ? 0 : atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
}

/* No file carries a mark: take the id most files' first sectors name. */
static int id_from_data(struct atio_check *c, struct atio_error *e)
{
	struct atio_dataset *d = c->ds;
	uint64_t *ids = calloc(d->nfiles ? d->nfiles : 1, sizeof(*ids));
	unsigned n = 0, best = 0;
	int ret = 0;

	if (!ids)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	for (unsigned i = 0; i < d->nfiles && ret >= 0; i++) {
		if (!d->files[i].exists)
			continue;
		ret = id_of_data(&d->files[i], i, &ids[n], e);
		n += ret > 0;
	}
	d->id = 0;
	for (unsigned i = 0; ret >= 0 && i < n; i++) {
		unsigned same = 0;

		for (unsigned j = 0; j < n; j++)
			same += ids[j] == ids[i];
		if (same > best) {
			best = same;
			d->id = ids[i];
		}
	}
	free(ids);
	c->no_marks = true;
	c->id_from_data = best;
	return ret < 0 ? ret : 0;
}

int atio_check_marks(struct atio_check *c, struct atio_error *e)
{
	struct atio_dataset *d = c->ds;

	if (!c->files)
		c->files = calloc(d->nfiles ? d->nfiles : 1, sizeof(*c->files));
	if (!c->files)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	if (d->device) {
		d->id = 0;
		return 0;
	}
	for (unsigned i = 0; i < d->nfiles; i++) {
		const struct atio_file *f = &d->files[i];
		struct atio_check_file *cf = &c->files[i];

		if (!f->exists)
			continue;
		switch (f->owner) {
		case ATIO_OWNER_OURS:
			cf->mark = ATIO_CHECK_MARK_OK;
			break;
		case ATIO_OWNER_OLD:
			return older(e, f->path, "its mark is");
		case ATIO_OWNER_OTHER_DATASET:
			cf->mark = ATIO_CHECK_MARK_OTHER_DATASET;
			cf->mark_id = f->mark_id;
			c->marks_bad++;
			break;
		case ATIO_OWNER_OTHER_NAME:
			cf->mark = ATIO_CHECK_MARK_OTHER_NAME;
			c->marks_bad++;
			break;
		case ATIO_OWNER_MALFORMED: {
			int ret = malformed(f, cf, e);

			if (ret)
				return ret;
			c->marks_bad++;
			break;
		}
		default:
			cf->mark = ATIO_CHECK_MARK_NONE;
			break;
		}
	}
	return d->marked ? 0 : id_from_data(c, e);
}
