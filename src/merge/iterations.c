/* SPDX-License-Identifier: MIT */
/* The summary of a test's iterations; reading them is iterations_read.c's. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/merge/iterations.h"
#include "atio/base/json.h"

void atio_iteration_free(struct atio_iteration *it)
{
	free(it->values);
	it->values = NULL;
	it->nvalues = 0;
}

void atio_iterations_init(struct atio_iterations *s)
{
	memset(s, 0, sizeof(*s));
}

void atio_iterations_free(struct atio_iterations *s)
{
	free(s->sums);
	free(s->node_sums);
	atio_iterations_init(s);
}

int atio_iterations_add(struct atio_iterations *s, const struct atio_iteration *it,
			struct atio_error *e)
{
	double *sums;

	if (s->n == 0) {
		snprintf(s->unit, sizeof(s->unit), "%s", it->unit);
		s->nvalues = it->nvalues;
		s->node_sums = calloc(it->nvalues ? it->nvalues : 1, sizeof(*s->node_sums));
		if (!s->node_sums)
			return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	} else if (strcmp(s->unit, it->unit) != 0) {
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: its sum is in %s, the iterations before it in %s: "
				      "they do not average", it->file, it->unit, s->unit);
	} else if (it->nvalues != s->nvalues) {
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: it merged %u documents, the iterations before it %u: "
				      "the shares need the same nodes in each", it->file,
				      it->nvalues, s->nvalues);
	}
	sums = realloc(s->sums, (s->n + 1) * sizeof(*sums));
	if (!sums)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	s->sums = sums;
	s->sums[s->n++] = it->sum;
	for (unsigned i = 0; i < it->nvalues; i++)
		s->node_sums[i] += it->values[i];
	if (it->mixed) {
		s->nmixed++;
		for (unsigned i = 0; i < ATIO_DIRS; i++) {
			s->dir_iops[i] += it->dir_iops[i];
			s->dir_mbs[i] += it->dir_mbs[i];
		}
	}
	return 0;
}

bool atio_iterations_dir_average(const struct atio_iterations *s, unsigned dir, double *iops,
				 double *mbs)
{
	bool all = s->n && s->nmixed == s->n && dir < ATIO_DIRS;

	*iops = all ? s->dir_iops[dir] / s->n : NAN;
	*mbs = all ? s->dir_mbs[dir] / s->n : NAN;
	return all;
}

static double total(const struct atio_iterations *s)
{
	double t = 0;

	for (unsigned i = 0; i < s->n; i++)
		t += s->sums[i];
	return t;
}

double atio_iterations_average(const struct atio_iterations *s)
{
	return s->n ? total(s) / s->n : NAN;
}

/* Two passes over the sums: the mean first, then the squares about it. */
double atio_iterations_stddev(const struct atio_iterations *s)
{
	double mean = atio_iterations_average(s), ss = 0;

	if (s->n < 2)
		return NAN;
	for (unsigned i = 0; i < s->n; i++)
		ss += (s->sums[i] - mean) * (s->sums[i] - mean);
	return sqrt(ss / (s->n - 1));
}

void atio_iterations_min_max(const struct atio_iterations *s, double *min, double *max)
{
	*min = *max = s->sums[0];
	for (unsigned i = 1; i < s->n; i++) {
		if (s->sums[i] < *min)
			*min = s->sums[i];
		if (s->sums[i] > *max)
			*max = s->sums[i];
	}
}

double atio_iterations_share(const struct atio_iterations *s, unsigned i)
{
	double t = total(s);

	return t > 0 ? s->node_sums[i] / t * 100.0 : 0.0;
}

void atio_iterations_text(FILE *f, const struct atio_iterations *s)
{
	double min, max, sd = atio_iterations_stddev(s);

	atio_iterations_min_max(s, &min, &max);
	fprintf(f, "Average value = { %.5f } %s; over %u iteration%s\n",
		atio_iterations_average(s), s->unit, s->n, s->n == 1 ? "" : "s");
	fprintf(f, "sums: min %.5f, max %.5f, stddev ", min, max);
	if (isnan(sd))
		fprintf(f, "n/a %s\n", s->unit);
	else
		fprintf(f, "%.5f %s\n", sd, s->unit);
	if (!s->nvalues)
		return;
	fputs("share of the sums:", f);
	for (unsigned i = 0; i < s->nvalues; i++)
		fprintf(f, "%s [%u] %.2f%%", i ? "," : "", i + 1, atio_iterations_share(s, i));
	fputc('\n', f);
}

void atio_iterations_json(FILE *f, const struct atio_iterations *s,
			  const struct atio_iteration *its, unsigned n)
{
	double min, max, sd = atio_iterations_stddev(s);
	struct atio_json j;

	atio_iterations_min_max(s, &min, &max);
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_uint(&j, "iterations", s->n);
	atio_json_string(&j, "unit", s->unit);
	atio_json_double(&j, "average", atio_iterations_average(s));
	atio_json_double(&j, "min", min);
	atio_json_double(&j, "max", max);
	if (isnan(sd))
		atio_json_null(&j, "stddev");
	else
		atio_json_double(&j, "stddev", sd);
	atio_json_array_begin(&j, "shares_percent");
	for (unsigned i = 0; i < s->nvalues; i++)
		atio_json_double(&j, NULL, atio_iterations_share(s, i));
	atio_json_array_end(&j);
	atio_json_array_begin(&j, "sums");
	for (unsigned i = 0; i < n; i++) {
		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "file", its[i].file);
		atio_json_double(&j, "sum", its[i].sum);
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	atio_json_object_end(&j);
}
