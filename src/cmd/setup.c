/* SPDX-License-Identifier: MIT */
/*
 * What a run's options need before the run (run.h): the seed, the engine
 * and its depth, -f identified and judged, the write pools sized. Every
 * command that runs (a run, a plan's jobs, a sweep's points) sets its
 * options up here, all before the first byte moves.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cmd.h"
#include "run.h"
#include "atio/base/buf.h"
#include "atio/base/clock.h"
#include "atio/cli/cli.h"
#include "atio/data/target.h"

/*
 * What -f is and what it is on, for the header and JSON; then, unless only
 * the settings are asked for (or @io is false: the null engine), whether
 * atio may work there. Returns 0 or an exit status.
 */
static int check_target(struct atio_opts *o, struct atio_target *tg, bool io)
{
	struct atio_error e = { 0 };

	if (atio_target_identify(tg, o->path, &e))
		return o->settings_only || !io ? 0 : fail(&e);
	o->fstype = tg->fstype[0] ? tg->fstype : NULL;
	atio_target_defaults(tg, o);
	if (o->settings_only || !io)
		return 0;
	if (atio_target_check(tg, o, &e))
		return fail(&e);
	/* A file-name prefix, said: a mistyped directory would make files beside it. */
	if (tg->kind == ATIO_TARGET_PREFIX && o->nfiles > 1)
		say("-f %s: not a directory: files %s.0 .. %s.%u in %s", o->path, o->path,
		    o->path, o->nfiles - 1, tg->dir);
	else if (tg->kind == ATIO_TARGET_PREFIX)
		say("-f %s: not a directory: file %s.0 in %s", o->path, o->path, tg->dir);
	return 0;
}

/* See run.h. */
int run_setup(struct atio_opts *o, const struct atio_engine_ops **engine,
	      struct atio_target *tg)
{
	struct atio_error e = { 0 };
	char why[1024];
	int status;

	if (!o->seed_given && getrandom(&o->seed, sizeof(o->seed), 0) != sizeof(o->seed))
		o->seed = realtime_ns() ^ ((uint64_t)getpid() << 32);
	*engine = atio_engine_choose(o->engine, &o->iodepth, why, sizeof(why), &e);
	if (!*engine)
		return fail(&e);
	if (why[0])
		say("%s", why);
	if (atio_engine_check_depth(*engine, o->threads, o->iodepth, &e))
		return fail(&e);
	atio_opts_batch(o, (*engine)->direct_batch);
	/* Say what the buffers will be, not what was hoped for. */
	if (o->thp && !atio_buf_thp_available())
		o->thp = false;
	if (strcmp((*engine)->name, "libaio") == 0 && !o->direct)
		say("warning: libaio is only asynchronous with --uncached: with the page "
		    "cache each submit waits for its I/O, as the sync engine does");

	/* The null engine touches no file: nothing to refuse. */
	status = check_target(o, tg, !(*engine)->no_io);
	if (status)
		return status;
	if (!o->check)
		plan_pool(o, o->iodepth, (*engine)->no_io);
	return 0;
}

