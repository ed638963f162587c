/* SPDX-License-Identifier: MIT */
/* atio --check: the command around the check (atio/data/check.h). */
#include <stdbool.h>
#include <stdio.h>

#include "cmd.h"
#include "config.h"
#include "atio/data/check.h"
#include "atio/print/check_report.h"
#include "atio/data/journal.h"
#include "atio/base/units.h"

/* -v: one line a second on stderr while --check reads. */
static void check_tick(void *arg, unsigned sec)
{
	struct atio_check *c = arg;
	uint64_t done = __atomic_load_n(&c->checked, __ATOMIC_RELAXED);

	say("check: %u s: %.2f of %.2f MiB (%.0f%%)", sec, atio_mib(done),
	    atio_mib(c->to_check), c->to_check ? 100.0 * (double)done / (double)c->to_check : 100.0);
}

/*
 * --check: plan the dataset as a run of the same -p, -n, -u and -f would,
 * look at its files (shared lock, foreign files refused) and their marks,
 * read them whole and check every sector. Exit 0 when every sector is
 * good, no file is missing and no file's mark names another file or
 * dataset; 1 when one is not (the report names them), the dataset was
 * made by an older atio, or the check failed;
 * 130 when interrupted, after printing what was checked.
 */
int check_main(struct atio_opts *o)
{
	struct atio_error e = { 0 };
	struct atio_dataset ds;
	int stop = 0, ret, status;
	struct watch wt = { .stop = &stop, .phase = "while checking" };
	struct atio_check c = { .ds = &ds, .unit = (size_t)o->bs, .nthreads = o->threads,
				.direct = o->direct, .stop = &stop };

	if (watch_open(&wt, &e))
		return fail(&e);
	c.done_fd = wt.done_fd;
	if (atio_dataset_plan(&ds, o, &e))
		return fail(&e);
	ret = atio_dataset_look(&ds, o, &e);
	if (!ret)
		say_lock(&ds.lock);
	if (!ret)
		ret = atio_check_marks(&c, &e);
	if (!ret)
		ret = atio_journal_load(&c.journal, &ds, &e);
	if (!ret)
		ret = atio_check_start(&c, &e);
	if (ret) {
		status = fail(&e);
		goto out;
	}
	wait_threads(&wt, c.started, o->verbose ? check_tick : NULL, &c);
	ret = atio_check_finish(&c, &e);
	if (ret) {
		status = fail(&e);
		goto out;
	}
	if (o->json)
		atio_check_report_json(stdout, &c, ATIO_VERSION, wt.signo != 0);
	else
		atio_check_report_text(stdout, &c, wt.signo != 0);
	status = wt.signo ? ATIO_EXIT_INTERRUPTED
		: atio_check_ok(&c) ? ATIO_EXIT_OK : ATIO_EXIT_FAIL;
out:
	atio_check_free(&c);
	atio_journal_claims_free(c.journal);
	atio_dataset_close(&ds, false, &e);
	atio_dataset_free(&ds);
	if (flush_stdout("the check") && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_FAIL;
	return status;
}
