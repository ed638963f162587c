/* SPDX-License-Identifier: MIT */
/*
 * Option values that are neither sizes nor times of the run: --start-at's
 * instant, --rate's cap and --fadvise's advice (see atio/cli/cli.h). Nothing here prints.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "atio/cli/cli.h"
#include "atio/base/error.h"
#include "atio/base/units.h"

#define NS_PER_SEC     1000000000ULL
#define START_AT_MIN   978307200ULL    /* 2001-01-01 00:00:00 UTC */
#define START_AT_END   7289654400ULL   /* 2201-01-01 00:00:00 UTC */

/* Every error here is bad usage. */
#define USAGE(...)     atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

/*
 * Seconds since the epoch, decimals allowed, into nanoseconds. A time
 * before 2001 or after 2200 is a mistake (milliseconds, a relative time),
 * not a plan.
 */
int atio_cli_start_at(const char *arg, int64_t *ns, struct atio_error *e)
{
	uint64_t s;
	uint32_t nanos;
	int r = atio_parse_seconds(arg, &s, &nanos);

	if (r == -EINVAL)
		return USAGE("--start-at %s: not a number of seconds since the epoch",
			     arg);
	if (r < 0 || s < START_AT_MIN || s >= START_AT_END)
		return USAGE("--start-at %s: not a time between 2001 and 2200 "
			     "(give seconds since the epoch, as date +%%s prints)",
			     arg);
	*ns = (int64_t)(s * NS_PER_SEC + nanos);
	return 0;
}

/* See cli.h. */
bool atio_cli_plain_decimal(const char *s)
{
	bool digit = false, point = false;

	for (; *s; s++) {
		if (*s == '.' && !point)
			point = true;
		else if (*s >= '0' && *s <= '9')
			digit = true;
		else
			return false;
	}
	return digit;
}

/*
 * See cli.h. Only digits and one point: strtod would also take "1e3",
 * "0x10", "inf" and "nan", which are more likely typing errors than caps;
 * a number in such a form is said to be one, and one not above 0 too.
 */
int atio_cli_rate(const char *arg, double *rate, struct atio_error *e)
{
	char *end;
	double v = strtod(arg, &end);
	bool number = end != arg && !*end && v == v;

	if (number && !(v > 0.0))
		return USAGE("--cap %s: the cap must be more than 0", arg);
	if (!atio_cli_plain_decimal(arg))
		return USAGE("--cap %s: %s (give the cap in the unit of the result in plain "
			     "digits, e.g. --cap 1000 or --cap 2.5)", arg,
			     number ? "a number in a form --cap does not take" : "not a number");
	*rate = v;
	return 0;
}

/* See cli.h. */
int atio_cli_fadvise(const char *arg, enum atio_fadvise *a, struct atio_error *e)
{
	static const enum atio_fadvise all[] = { ATIO_FADVISE_RANDOM, ATIO_FADVISE_SEQUENTIAL,
						 ATIO_FADVISE_NORMAL, ATIO_FADVISE_NONE };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(arg, atio_fadvise_name(all[i])) == 0) {
			*a = all[i];
			return 0;
		}
	return USAGE("--fadvise %s: unknown advice (random, sequential, normal or none)", arg);
}
