/* SPDX-License-Identifier: MIT */
/*
 * atio with --and, --then or --jobs: a plan (plan.h). Every job is set up
 * before anything runs, so that a bad one stops the plan before the first
 * byte is written; then each phase opens its jobs' datasets, measures them
 * at once in one run (run.h), prints the run and closes them. A failure or
 * a signal ends the plan after the phase it came in; the output of the
 * phases run is whole: text, or one JSON document with every phase.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "plan.h"
#include "run.h"
#include "steady.h"
#include "config.h"
#include "atio/base/clock.h"
#include "atio/print/csv.h"

/*
 * --csv FILE in the first job: the plan's rows, a row per job of each
 * phase (and per direction), with the phase in front of a run's columns
 * and the percentile points of the first job's --percentiles.
 */
struct plan_csv {
	FILE *f;                   /* NULL: no CSV */
	const char *name;
	double p[ATIO_CSV_POINTS];
	unsigned n;
};

/* Whether the plan's CSV goes to stdout, instead of the text. */
static bool csv_on_stdout(const struct plan_csv *c)
{
	return c->f && (strcmp(c->name, "-") == 0 || strcmp(c->name, "stdout") == 0);
}

/* Open the CSV of the plan @p, if it has one; 0 or the exit status, said. */
static int csv_open(const struct plan *p, struct plan_csv *c)
{
	const struct atio_opts *o = &p->phases[0].jobs[0].o;
	struct atio_error e = { 0 };
	char header[8192];

	if (!o->csv)
		return ATIO_EXIT_OK;
	c->name = o->csv;
	c->n = atio_csv_points(o->pct, o->npct, c->p);
	atio_csv_columns(header, sizeof(header), "phase", c->p, c->n);
	c->f = atio_csv_open("--csv", c->name, header, &e);
	return c->f ? ATIO_EXIT_OK : fail(&e);
}

/* The rows of phase @k's jobs @jobs[@n] to the plan's CSV. */
static void csv_rows(struct plan_csv *c, unsigned k, struct atio_result **jobs, unsigned n)
{
	char phase[16];
	struct atio_csv_row lead = { .lead = { phase } };

	snprintf(phase, sizeof(phase), "%u", k + 1);
	for (unsigned j = 0; j < n; j++) {
		lead.job = j + 1;
		atio_csv_job_rows(c->f, jobs[j], &lead, 1, c->p, c->n);
	}
	fflush(c->f);
}

/*
 * Set a job up as a run of its own is (run.h), and plan its dataset, so
 * that a -f that is no directory is found before the first phase, not
 * when its phase comes; 0 or the exit status, said.
 */
static int setup_job(const struct plan_phase *ph, unsigned j)
{
	struct plan_job *jb = &ph->jobs[j];
	struct atio_error e = { 0 };
	struct atio_dataset ds;
	int status = run_setup(&jb->o, &jb->engine, &jb->tg);

	if (!status && !jb->engine->no_io) {
		if (atio_dataset_plan(&ds, &jb->o, &e))
			status = fail(&e);
		else
			atio_dataset_free(&ds);
	}
	/* The null engine's I/O is no storage's: not summed with a job's that is. */
	if (!status && j > 0 && jb->engine->no_io != ph->jobs[0].engine->no_io) {
		say("%s: --engine null does no I/O, and the run's value would sum it with the "
		    "I/O of jobs that do: run it on its own", jb->engine->no_io ? jb->where
		    : ph->jobs[0].where);
		status = ATIO_EXIT_USAGE;
	}
	if (status)
		say("(in %s)", jb->where);
	return status;
}

/* -v: each job's settings, as atio prints them for a run of one job. */
static void print_headers(const struct plan *p, unsigned k)
{
	const struct plan_phase *ph = &p->phases[k];

	for (unsigned j = 0; j < ph->njobs; j++) {
		if (p->nphases > 1 || ph->njobs > 1)
			printf("settings of %s:\n", ph->jobs[j].where);
		atio_report_header(stdout, &ph->jobs[j].o, ATIO_VERSION, ph->jobs[j].engine->name);
	}
	fflush(stdout);
}

/* Print one phase's run: a single job as atio prints it alone, else the jobs. */
static void print_run(const struct plan *p, unsigned k, struct run_result *outs, unsigned n,
		      bool json, struct plan_csv *csv)
{
	struct atio_result **jobs = calloc(n, sizeof(*jobs)), all;

	if (!jobs) {
		say("out of memory for the results of phase %u", k + 1);
		return;
	}
	for (unsigned j = 0; j < n; j++)
		jobs[j] = &outs[j].res;
	atio_result_combine(&all, (const struct atio_result *const *)jobs, n);
	if (json) {
		fprintf(stdout, "%s{\"phase\":%u,", k ? "," : "", k + 1);
		atio_report_jobs_json(stdout, &all, jobs, n);
		fputc('}', stdout);
	} else if (!csv_on_stdout(csv)) {
		if (p->nphases > 1)
			printf("phase: %u of %u\n", k + 1, p->nphases);
		if (n == 1)
			atio_report_text(stdout, jobs[0]);
		else
			atio_report_jobs_text(stdout, &all, jobs, n);
	}
	if (csv->f)
		csv_rows(csv, k, jobs, n);
	free(jobs);
}

/*
 * One phase: open every job's dataset, measure them at once, print, close.
 * *@printed counts the phases whose run was printed.
 */
static int run_phase(const struct plan *p, unsigned k, bool json, unsigned *printed,
		     struct plan_csv *csv)
{
	const struct plan_phase *ph = &p->phases[k];
	struct run *rs = calloc(ph->njobs, sizeof(*rs));
	struct run **rp = calloc(ph->njobs, sizeof(*rp));
	struct run_result *outs = calloc(ph->njobs, sizeof(*outs));
	struct atio_error e = { 0 };
	unsigned opened = 0;
	int status = ATIO_EXIT_OK;

	if (!rs || !rp || !outs) {
		say("out of memory for phase %u", k + 1);
		status = ATIO_EXIT_FAIL;
		goto out;
	}
	for (; opened < ph->njobs; opened++) {
		rp[opened] = &rs[opened];
		if (run_open(&rs[opened], &ph->jobs[opened].o, ph->jobs[opened].engine, &e)) {
			say("%s: the dataset of -f %s:", ph->jobs[opened].where,
			    ph->jobs[opened].o.path ? ph->jobs[opened].o.path : "(none)");
			status = fail(&e);
			opened++;
			goto out;
		}
	}
	if (run_measure_jobs(rp, outs, ph->njobs, &e)) {
		status = fail(&e);
		for (unsigned j = 0; j < ph->njobs; j++)
			for (unsigned i = 0; outs[j].w && i < ph->jobs[j].o.threads; i++)
				if (outs[j].w[i].failed || outs[j].w[i].setup_failed) {
					say("(in %s)", ph->jobs[j].where);
					j = ph->njobs;
					break;
				}
		goto out;
	}
	/* --steady: a phase of one job each (plan.c); its rounds may never have held. */
	if (ph->jobs[0].o.steady && !rs[0].wt.signo)
		steady_warn(&outs[0]);
	print_run(p, *printed, outs, ph->njobs, json, csv);
	++*printed;
	if (rs[0].wt.signo)
		status = ATIO_EXIT_INTERRUPTED;
	for (unsigned j = 0; j < ph->njobs; j++) {
		if (outs[j].rb.bad || outs[j].rb.err)
			status = fail(&outs[j].rb.e);
		if (outs[j].flush_ret)
			status = fail(&outs[j].flush_err);
	}
out:
	for (unsigned j = 0; outs && j < ph->njobs; j++)
		run_result_free(&outs[j]);
	for (unsigned j = 0; j < opened; j++)
		if (run_close(&rs[j], &e) && status == ATIO_EXIT_OK)
			status = fail(&e);
	free(outs);
	free(rp);
	free(rs);
	return status;
}

int plan_main(int argc, char **argv)
{
	struct atio_error e = { 0 };
	struct plan p;
	struct plan_csv csv = { 0 };
	unsigned printed = 0;
	bool json;
	int status = ATIO_EXIT_OK;

	if (plan_read(&p, argc, argv, &e)) {
		say("%s", e.msg);
		if (e.exit == ATIO_EXIT_USAGE)
			fputs("Try 'atio --help' for more information.\n", stderr);
		plan_free(&p);
		return e.exit ? e.exit : ATIO_EXIT_FAIL;
	}
	for (unsigned i = 0; !status && i < p.nphases; i++)
		for (unsigned j = 0; !status && j < p.phases[i].njobs; j++)
			status = setup_job(&p.phases[i], j);
	if (!status)
		status = csv_open(&p, &csv);
	if (status) {
		plan_free(&p);
		return status;
	}
	json = p.phases[0].jobs[0].o.json;
	atio_clock_init();
	if (json)
		printf("{\"atio\":{\"version\":\"%s\"},\"plan\":{\"phases\":%u},\"phases\":[",
		       ATIO_VERSION, p.nphases);
	for (unsigned k = 0; k < p.nphases && status == ATIO_EXIT_OK; k++) {
		if (p.phases[0].jobs[0].o.verbose && !json && !csv_on_stdout(&csv))
			print_headers(&p, k);
		status = run_phase(&p, k, json, &printed, &csv);
		fflush(stdout);
	}
	if (json)
		printf("],\"phases_run\":%u,\"complete\":%s}\n", printed,
		       printed == p.nphases && status == ATIO_EXIT_OK ? "true" : "false");
	else if (printed < p.nphases && !csv_on_stdout(&csv))
		printf("plan: stopped after %u of %u phases\n", printed, p.nphases);
	if (csv.f && atio_csv_close("--csv", csv.name, csv.f, &e) && status == ATIO_EXIT_OK)
		status = fail(&e);
	plan_free(&p);
	if (flush_stdout("the results") && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_FAIL;
	return status;
}
