/* SPDX-License-Identifier: MIT */
/* CPU seconds, percent and context switches of a run or a thread: see atio/print/cpu.h. */
#include <inttypes.h>

#include "atio/print/cpu.h"

double atio_cpu_pct(uint64_t cpu_ns, uint64_t elapsed_ns)
{
	return elapsed_ns ? 100.0 * (double)cpu_ns / (double)elapsed_ns : 0.0;
}

void atio_cpu_text(FILE *f, const struct atio_stats *s, uint64_t elapsed_ns)
{
	fprintf(f, "cpu (sec): user %.3f, system %.3f (user %.2f%%, system %.2f%% of %.3f sec); "
		"context switches: %" PRIu64 " voluntary, %" PRIu64 " involuntary\n",
		(double)s->cpu_user_ns / 1e9, (double)s->cpu_sys_ns / 1e9,
		atio_cpu_pct(s->cpu_user_ns, elapsed_ns), atio_cpu_pct(s->cpu_sys_ns, elapsed_ns),
		(double)elapsed_ns / 1e9, s->ctx_vol, s->ctx_invol);
}

void atio_cpu_json(struct atio_json *j, const struct atio_stats *s, uint64_t elapsed_ns)
{
	atio_json_double(j, "cpu_user_sec", (double)s->cpu_user_ns / 1e9);
	atio_json_double(j, "cpu_sys_sec", (double)s->cpu_sys_ns / 1e9);
	atio_json_double(j, "cpu_user_pct", atio_cpu_pct(s->cpu_user_ns, elapsed_ns));
	atio_json_double(j, "cpu_sys_pct", atio_cpu_pct(s->cpu_sys_ns, elapsed_ns));
	atio_json_uint(j, "ctx_voluntary", s->ctx_vol);
	atio_json_uint(j, "ctx_involuntary", s->ctx_invol);
}
