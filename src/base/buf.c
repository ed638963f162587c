/* SPDX-License-Identifier: MIT */
/*
 * I/O buffer memory: anonymous mappings, 2 MiB-aligned and advised for
 * transparent huge pages when large enough (see atio/base/buf.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "atio/base/buf.h"

/* The bytes mapped for a buffer of @len: whole pages, or whole huge pages. */
static size_t mapped_len(size_t len)
{
	size_t unit = len >= ATIO_BUF_HUGE ? ATIO_BUF_HUGE : (size_t)sysconf(_SC_PAGESIZE);

	return (len + unit - 1) / unit * unit;
}

void *atio_buf_alloc(size_t len, bool huge)
{
	size_t map = mapped_len(len), extra = 0, head;
	unsigned char *p;

	if (len == 0 || map < len) {
		errno = EINVAL;
		return NULL;
	}
	/* Map one huge page more than needed and trim to a 2 MiB boundary. */
	if (atio_buf_huge(len, huge)) {
		extra = ATIO_BUF_HUGE;
		if (map + extra < map) {
			errno = ENOMEM;
			return NULL;
		}
	}
	p = mmap(NULL, map + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	if (extra) {
		head = (ATIO_BUF_HUGE - (uintptr_t)p % ATIO_BUF_HUGE) % ATIO_BUF_HUGE;
		if (head)
			munmap(p, head);
		if (extra - head)
			munmap(p + head + map, extra - head);
		p += head;
		/* Advice only: without THP the buffer works the same. */
		madvise(p, map, MADV_HUGEPAGE);
	}
	memset(p, 0, len);
	return p;
}

bool atio_buf_thp_available(void)
{
	char mode[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

	if (!f)
		return false;
	if (!fgets(mode, sizeof(mode), f))
		mode[0] = '\0';
	fclose(f);
	return strstr(mode, "[always]") || strstr(mode, "[madvise]");
}

void atio_buf_free(void *buf, size_t len)
{
	if (buf)
		munmap(buf, mapped_len(len));
}
