/* SPDX-License-Identifier: MIT */
#ifndef ATIO_UNITS_H
#define ATIO_UNITS_H

/*
 * Sizes, durations and whole numbers from the command line, and back to
 * text. Nothing here prints.
 */

#include <stddef.h>
#include <stdint.h>

/* @bytes (or bytes a second) in MiB (2^20 bytes): atio's unit for sizes and MB/s. */
static inline double atio_mib(double bytes)
{
	return bytes / 1048576.0;
}

/*
 * @bytes as "12.34 MiB", or in KiB ("4.00 KiB") or bytes ("512 bytes") when
 * MiB would read 0.00 for more than nothing, into @buf (24 bytes is room enough). Returns what
 * snprintf returns.
 */
int atio_format_mib(char *buf, size_t len, uint64_t bytes);

/* Longest -t or -w: a year and a day. */
#define ATIO_MAX_TIME_NS (366ULL * 24 * 3600 * 1000000000ULL)

/*
 * Parse a size: a whole or decimal number with an optional suffix K, M, G
 * or T (powers of 1024, either case, optionally followed by "B" or "iB"; a
 * bare "B" is allowed too). Returns 0 and sets *out; -EINVAL when the text
 * is not a size; -ERANGE when it overflows 64 bits; -EDOM when it is not a
 * whole number of bytes ("0.3K"). *out is untouched on error.
 */
int atio_parse_size(const char *s, uint64_t *out);

/*
 * Parse a duration: a whole or decimal number with an optional suffix
 * s, m or h (seconds by default; lower case only, "M" could be months).
 * Returns 0 and sets *ns, -EINVAL when the text is not a duration or is
 * negative, -ERANGE when it is longer than ATIO_MAX_TIME_NS.
 */
int atio_parse_time(const char *s, uint64_t *ns);

/*
 * Parse a whole number into [min, max]. Returns 0, -EINVAL (not a number)
 * or -ERANGE (outside the range).
 */
int atio_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * Parse "SECONDS[.FRACTION]" without suffix into whole seconds and
 * nanoseconds (digits past the ninth are dropped). Returns 0, -EINVAL
 * (not such a number) or -ERANGE (the seconds overflow 64 bits).
 */
int atio_parse_seconds(const char *s, uint64_t *whole, uint32_t *nanos);

/*
 * Write @bytes with the largest suffix that divides it exactly ("16M",
 * "4K", "1536K", "3G", "1000"). Returns what snprintf returns.
 */
int atio_format_size(char *buf, size_t len, uint64_t bytes);

/*
 * Write a duration in seconds: "60", "0.5", "1.25", "0.0004": exactly the
 * nanoseconds that will run, without trailing zeros. Returns what snprintf
 * returns.
 */
int atio_format_time(char *buf, size_t len, uint64_t ns);

#endif
