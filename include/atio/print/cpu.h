/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CPU_H
#define ATIO_CPU_H

/*
 * The CPU the load threads used, as fio users read it: seconds, percent of
 * the measured time and context switches, in text and JSON, for a run or a
 * thread (src/print/report.cpu.c).
 */

#include <stdint.h>
#include <stdio.h>

#include "atio/base/json.h"
#include "atio/stats/stats.h"

/*
 * @cpu_ns as a percentage of @elapsed_ns: of one CPU, so that the threads of
 * a run together may show more than 100% (two busy threads, 200%), as top
 * shows a process. 0 when nothing was measured.
 */
double atio_cpu_pct(uint64_t cpu_ns, uint64_t elapsed_ns);

/*
 * "cpu (sec): user U, system S (user P%, system Q% of T sec); context
 * switches: V voluntary, I involuntary\n".
 */
void atio_cpu_text(FILE *f, const struct atio_stats *s, uint64_t elapsed_ns);

/*
 * Into the JSON object being written: cpu_user_sec, cpu_sys_sec,
 * cpu_user_pct, cpu_sys_pct, ctx_voluntary, ctx_involuntary.
 */
void atio_cpu_json(struct atio_json *j, const struct atio_stats *s, uint64_t elapsed_ns);

#endif
