/* SPDX-License-Identifier: MIT */
/*
 * -S: the sync after the measured time (atio/run/flush.h), on a thread of its
 * own while the main thread watches the signals, as the fill does.
 */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "cmd.h"
#include "atio/run/flush.h"

struct flush_arg {
	const struct atio_dataset *ds;
	struct watch *wt;
	struct atio_error e;
	int ret;
};

static void *flush_main(void *p)
{
	struct flush_arg *fa = p;
	uint64_t one = 1;

	fa->ret = atio_flush_dataset(fa->ds, fa->wt->stop, &fa->e);
	(void)!write(fa->wt->done_fd, &one, sizeof(one));
	return NULL;
}

int flush_after(const struct atio_dataset *ds, struct watch *wt, struct atio_error *e)
{
	struct flush_arg fa = { .ds = ds, .wt = wt };
	pthread_t th;

	wt->phase = "in the sync after the measured time (-S)";
	if (pthread_create(&th, NULL, flush_main, &fa) != 0)
		return atio_error_set(e, ATIO_EXIT_FAIL, EAGAIN, "-S: cannot start the thread "
				      "that syncs the files after the measured time");
	wait_threads(wt, 1, NULL, NULL);
	pthread_join(th, NULL);
	if (fa.ret == -EINTR)
		return atio_error_set(e, ATIO_EXIT_INTERRUPTED, EINTR, "%s %s: not every "
				      "file was synced: whether the writes reached the storage "
				      "is not known", sig_name(wt->signo), wt->phase);
	if (fa.ret)
		*e = fa.e;
	return fa.ret;
}
