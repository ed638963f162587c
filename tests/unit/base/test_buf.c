/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the I/O buffer allocator: alignment, zeroed memory, and
 * huge pages as the kernel itself accounts them in /proc/self/smaps.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "atio/base/buf.h"

#define MIB (1024u * 1024u)

/* The kernel's THP mode, the bracketed word of the sysfs file, or "". */
static const char *thp_mode(void)
{
	static char mode[16];
	char line[128], *a, *b;
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	mode[0] = '\0';
	if (!f)
		return mode;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) && (b = strchr(a, ']')) &&
	    (size_t)(b - a - 1) < sizeof(mode)) {
		memcpy(mode, a + 1, (size_t)(b - a - 1));
		mode[b - a - 1] = '\0';
	}
	fclose(f);
	return mode;
}

/*
 * AnonHugePages, in KiB, of the mapping that holds @p (smaps lists each
 * mapping's address range, then its counters), or -1 when none does.
 */
static long huge_kib(const void *p)
{
	char line[256];
	bool in = false;
	long kib = -1;
	uintptr_t lo, hi, at = (uintptr_t)p;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 && strchr(line, ' ')) {
			in = lo <= at && at < hi;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}

/* What atio tells the header agrees with the kernel's setting. */
static void test_thp_available(void **state)
{
	const char *mode = thp_mode();
	bool on = strcmp(mode, "always") == 0 || strcmp(mode, "madvise") == 0;

	assert_int_equal(atio_buf_thp_available(), on);
	(void)state;
}

static bool all_zero(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static void test_small_buffer(void **state)
{
	size_t len = 3 * 4096 + 100;
	unsigned char *p = atio_buf_alloc(len, true);

	assert_non_null(p);
	assert_int_equal((uintptr_t)p % 4096, 0);
	assert_true(all_zero(p, len));
	memset(p, 0xa5, len);
	atio_buf_free(p, len);
	(void)state;
}

static void test_zero_length_refused(void **state)
{
	errno = 0;
	assert_null(atio_buf_alloc(0, true));
	assert_int_equal(errno, EINVAL);
	atio_buf_free(NULL, 0);
	(void)state;
}

/* A large buffer is aligned to 2 MiB and, where THP is on, huge. */
static void test_large_buffer_is_huge(void **state)
{
	const char *mode = thp_mode();
	size_t len = 16 * MIB + 4096;
	unsigned char *p = atio_buf_alloc(len, true);

	assert_non_null(p);
	assert_int_equal((uintptr_t)p % ATIO_BUF_HUGE, 0);
	assert_true(all_zero(p, len));
	if (strcmp(mode, "always") == 0 || strcmp(mode, "madvise") == 0) {
		long kib = huge_kib(p);

		/* Touching it at allocation faulted in huge pages, at least one. */
		print_message("THP %s: %ld KiB of %zu KiB in huge pages\n", mode, kib, len / 1024);
		assert_true(kib >= (long)(ATIO_BUF_HUGE / 1024));
	} else {
		print_message("THP is '%s' here: huge pages not checked\n", mode);
	}
	atio_buf_free(p, len);
	(void)state;
}

/* --no-thp: never huge where only advice gives huge pages. */
static void test_no_thp_stays_small(void **state)
{
	size_t len = 16 * MIB;
	unsigned char *p = atio_buf_alloc(len, false);

	assert_non_null(p);
	assert_int_equal((uintptr_t)p % 4096, 0);
	assert_true(all_zero(p, len));
	if (strcmp(thp_mode(), "madvise") == 0)
		assert_int_equal(huge_kib(p), 0);
	atio_buf_free(p, len);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thp_available),
		cmocka_unit_test(test_small_buffer),
		cmocka_unit_test(test_zero_length_refused),
		cmocka_unit_test(test_large_buffer_is_huge),
		cmocka_unit_test(test_no_thp_stays_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
