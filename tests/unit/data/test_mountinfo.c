/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the mountinfo reader (include/atio/data/mountinfo.h): the
 * fields of a line, escaped paths read back as the kernel wrote them, a
 * line that is not one refused, and a cgroup path under a mount's root
 * only at a '/' boundary.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "atio/data/mountinfo.h"

static struct atio_mount m;

/* An ordinary line, with optional tags before the dash. */
static void test_fields(void **state)
{
	(void)state;
	assert_true(atio_mount_parse("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 shared:7 - ext3 "
				     "/dev/root rw,errors=continue\n", &m));
	assert_int_equal(m.major, 98);
	assert_int_equal(m.minor, 0);
	assert_string_equal(m.root, "/mnt1");
	assert_string_equal(m.point, "/mnt2");
	assert_string_equal(m.type, "ext3");
	assert_string_equal(m.super_opts, "rw,errors=continue");
	assert_true(atio_mount_parse("30 25 0:26 / /sys/fs/cgroup/blkio rw - cgroup cgroup "
				     "rw,blkio", &m));
	assert_string_equal(m.point, "/sys/fs/cgroup/blkio");
	assert_string_equal(m.super_opts, "rw,blkio");
}

/* \040 (space), \011 (tab), \012 (newline) and \134 (backslash) read back. */
static void test_escapes(void **state)
{
	(void)state;
	assert_true(atio_mount_parse("40 1 8:1 / /mnt/my\\040disk\\011x\\012y\\134z rw - xfs "
				     "/dev/sda1 rw", &m));
	assert_string_equal(m.point, "/mnt/my disk\tx\ny\\z");
	/* Not an escape: kept as written. */
	assert_true(atio_mount_parse("40 1 8:1 / /mnt/a\\9b rw - xfs /dev/sda1 rw", &m));
	assert_string_equal(m.point, "/mnt/a\\9b");
}

/* Lines that are not a mount's. */
static void test_refused(void **state)
{
	char longpath[PATH_MAX + 64];

	(void)state;
	assert_false(atio_mount_parse("", &m));
	assert_false(atio_mount_parse("36 35 98:0 /mnt1 /mnt2 rw\n", &m));   /* no dash */
	assert_false(atio_mount_parse("36 35 x:y / /mnt rw - ext4 /dev/x rw", &m));
	assert_false(atio_mount_parse("36 35 8:1 / - ext4 /dev/x rw", &m));  /* no point */
	assert_false(atio_mount_parse("36 35 8:1 / /mnt rw - ext4 /dev/x", &m)); /* no options */
	memset(longpath, 'a', sizeof(longpath));
	longpath[0] = '/';
	memcpy(longpath + sizeof(longpath) - 20, " rw - ext4 /dev/x rw", 20);
	longpath[sizeof(longpath) - 1] = '\0';
	{
		char line[PATH_MAX + 128];

		snprintf(line, sizeof(line), "36 35 8:1 / %s", longpath);
		assert_false(atio_mount_parse(line, &m)); /* a point longer than PATH_MAX */
	}
}

/* A path under a root only at a '/' boundary. */
static void test_under(void **state)
{
	(void)state;
	assert_string_equal(atio_path_under("/a/b", "/a"), "/b");
	assert_string_equal(atio_path_under("/a", "/a"), "");
	assert_string_equal(atio_path_under("/x/y", "/"), "/x/y");
	assert_null(atio_path_under("/ab", "/a"));
	assert_null(atio_path_under("/ab/c", "/a"));
	assert_null(atio_path_under("/b", "/a"));
}

/* This machine's own mountinfo: its root is mounted somewhere. */
static bool is_root(const struct atio_mount *mt, void *arg)
{
	(void)arg;
	return strcmp(mt->point, "/") == 0;
}

static void test_real(void **state)
{
	(void)state;
	assert_true(atio_mounts_find(is_root, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_under),
		cmocka_unit_test(test_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
