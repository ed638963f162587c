/* SPDX-License-Identifier: MIT */
#ifndef ATIO_BUF_H
#define ATIO_BUF_H

/*
 * Memory for I/O buffers: the read buffers and the write pools.
 *
 * Buffers are page-aligned, as O_DIRECT needs, and touched when allocated,
 * so that no page fault lands inside the measured time. A buffer of 2 MiB
 * or more is aligned to 2 MiB and offered to the kernel for transparent
 * huge pages (MADV_HUGEPAGE, which takes effect when THP is "always" or
 * "madvise"): a 16 MiB O_DIRECT request then pins 8 huge pages instead of
 * 4096 small ones, and its pages are physically contiguous, so the kernel
 * builds fewer, larger segments per request. Where THP is off the buffer
 * is simply made of small pages.
 */

#include <stdbool.h>
#include <stddef.h>

#define ATIO_BUF_HUGE (2u << 20)

/*
 * A zero-filled, touched buffer of @len bytes, or NULL (errno set). With
 * @huge false the buffer is never advised for huge pages (--no-thp).
 */
void *atio_buf_alloc(size_t len, bool huge);

/* Whether atio_buf_alloc(@len, @huge) advises the buffer for huge pages. */
static inline bool atio_buf_huge(size_t len, bool huge)
{
	return huge && len >= ATIO_BUF_HUGE;
}

/*
 * Whether the kernel can give this process transparent huge pages for
 * advised memory: THP built in and "always" or "madvise", not "never".
 */
bool atio_buf_thp_available(void);

/* Release a buffer from atio_buf_alloc() of @len bytes; NULL is ignored. */
void atio_buf_free(void *buf, size_t len);

#endif
