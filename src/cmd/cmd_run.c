/* SPDX-License-Identifier: MIT */
/*
 * atio [run] OPTIONS: the at_io_iops command. Read the options, choose the
 * engine, look at the target, then either print the settings (-a), check
 * the dataset (--check), prepare it (--prepare), or run once (run.h) and
 * print the result.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "plan.h"
#include "run.h"
#include "steady.h"
#include "config.h"
#include "atio/base/clock.h"
#include "atio/cli/cli.h"
#include "atio/data/target.h"
#include "atio/print/check_report.h"
#include "atio/print/csv.h"

/* --csv - or --csv stdout: the CSV is stdout's, alone. */
static bool csv_on_stdout(const struct atio_opts *o)
{
	return o->csv && (strcmp(o->csv, "-") == 0 || strcmp(o->csv, "stdout") == 0);
}

/*
 * The result on stdout, as JSON or text, and with --csv as CSV too: into
 * its file, or instead of the text when its file is stdout. Returns 0, or
 * the exit status of a CSV that could not be written.
 */
static int print_result(const struct atio_result *res)
{
	const struct atio_opts *o = res->opts;
	struct atio_error e = { 0 };

	if (o->json)
		atio_report_json(stdout, res);
	else if (!csv_on_stdout(o))
		atio_report_text(stdout, res);
	if (o->csv && atio_csv_write(res, &e))
		return fail(&e);
	return 0;
}

/*
 * --verify --json with a bad block: the block as a record on stdout, beside
 * the message on stderr.
 */
static void print_bad_block(const struct run_result *rr, unsigned threads)
{
	for (unsigned i = 0; i < threads; i++)
		if (rr->w && rr->w[i].vfailed) {
			atio_check_report_verify_json(stdout, ATIO_VERSION, rr->w[i].vpath,
						      &rr->w[i].vbad, &rr->w[i].vfound);
			return;
		}
}

/* Prepare, run once, print the result; the exit status. */
static int run_once(struct atio_opts *o, const struct atio_engine_ops *engine,
		    const struct atio_target *tg)
{
	struct atio_error e = { 0 };
	struct run r;
	struct run_result rr = { 0 };
	uint64_t pre_bytes = 0, pre_ns = 0;
	int status, signo = 0;

	/* --precondition: its writes first, a run of their own on the same files. */
	if (o->precondition &&
	    (status = steady_precondition(o, engine, tg, &pre_bytes, &pre_ns, &signo))) {
		/* A signal in it: nothing measured, said as for the warm-up. */
		if (signo && status == ATIO_EXIT_INTERRUPTED) {
			r.o = o;
			r.engine = engine;
			r.wt.signo = signo;
			run_unmeasured(&r, &rr.res);
			(void)print_result(&rr.res);
		}
		return status;
	}
	if (run_open(&r, o, engine, &e)) {
		status = fail(&e);
		/* A signal in the fill: nothing measured, said as for the warm-up. */
		if (r.wt.signo && e.exit == ATIO_EXIT_INTERRUPTED && !o->prepare) {
			run_unmeasured(&r, &rr.res);
			(void)print_result(&rr.res);
		}
		goto out;
	}
	if (o->prepare) {
		status = prepare_done(o, &r.ds, &r.fs, r.fill_ns);
		goto out;
	}
	r.preconditioned = o->precondition;
	r.pre_bytes = pre_bytes;
	r.pre_ns = pre_ns;
	if (run_measure(&r, &rr, &e)) {
		if (o->json)
			print_bad_block(&rr, o->threads);
		status = fail(&e);
		goto out;
	}
	if (rr.res.nothing_measured)
		say("%s before the measured time began (%s): no result", sig_name(r.wt.signo),
		    rr.sh.start_ns <= r.wt.sig_ns ? "in the warm-up" : r.wt.sig_phase);
	else if (o->steady)
		steady_warn(&rr);
	status = print_result(&rr.res);
	if (!status)
		status = r.wt.signo ? ATIO_EXIT_INTERRUPTED : ATIO_EXIT_OK;
	if (rr.rb.bad || rr.rb.err)
		status = fail(&rr.rb.e);
	if (rr.flush_ret)
		status = fail(&rr.flush_err);
out:
	run_result_free(&rr);
	if (run_close(&r, &e) && status == ATIO_EXIT_OK)
		status = fail(&e);
	if (flush_stdout("the results") && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_FAIL;
	return status;
}

int run_main(int argc, char **argv)
{
	struct atio_error e = { 0 };
	struct atio_opts o;
	const struct atio_engine_ops *engine;
	struct atio_target tg;
	int act, status;

	if (plan_wanted(argc, argv))
		return plan_main(argc, argv);
	act = atio_cli_parse(argc, argv, &o, &e);
	if (act < 0) {
		say("%s", e.msg);
		fputs("Try 'atio --help' for more information.\n", stderr);
		return ATIO_EXIT_USAGE;
	}
	if (act == ATIO_CLI_HELP) {
		errno = 0;
		atio_cli_usage(stdout);
		return flush_stdout("the help") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
	}
	if (act == ATIO_CLI_VERSION) {
		printf("atio %s\n", ATIO_VERSION);
		return flush_stdout("the version") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
	}
	if (o.meta.nphases)
		return meta_main(&o);
	status = run_setup(&o, &engine, &tg);
	if (status)
		return status;
	if (o.check)
		return check_main(&o);
	if (o.settings_only) {
		if (o.json)
			atio_report_settings_json(stdout, &o, ATIO_VERSION, engine->name);
		else
			atio_report_header(stdout, &o, ATIO_VERSION, engine->name);
		return flush_stdout("the settings") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
	}
	/* --csv FILE: a file that would refuse the rows is said before the run, not after. */
	if (o.csv) {
		char header[8192];

		atio_csv_header(header, sizeof(header), &o);
		if (atio_csv_check("--csv", o.csv, header, &e))
			return fail(&e);
	}
	if (o.verbose && !o.json && !o.prepare && !csv_on_stdout(&o)) {
		atio_report_header(stdout, &o, ATIO_VERSION, engine->name);
		fflush(stdout);
	}
	atio_clock_init();
	return run_once(&o, engine, &tg);
}
