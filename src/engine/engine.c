/* SPDX-License-Identifier: MIT */
/* The engines built into this atio, and the choice of one for a run. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "atio/engine/engine.h"

static const struct atio_engine_ops *const engines[] = {
	&atio_engine_sync,
#if ATIO_HAVE_LIBURING
	&atio_engine_io_uring,
#endif
#if ATIO_HAVE_LIBAIO
	&atio_engine_libaio,
#endif
	&atio_engine_null,
};

#define NENGINES (sizeof(engines) / sizeof(engines[0]))

bool atio_engine_known(const char *name)
{
	static const char *const all[] = { "sync", "io_uring", "libaio", "null" };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (strcmp(all[i], name) == 0)
			return true;
	return false;
}

const struct atio_engine_ops *atio_engine_find(const char *name)
{
	for (size_t i = 0; i < NENGINES; i++)
		if (strcmp(engines[i]->name, name) == 0)
			return engines[i];
	return NULL;
}

const char *atio_engine_names(void)
{
	static char names[64];

	if (!names[0]) {
		for (size_t i = 0; i < NENGINES; i++) {
			if (i)
				strcat(names, "|");
			strcat(names, engines[i]->name);
		}
	}
	return names;
}

/*
 * See engine.h. An io_uring ring's memory is locked, and the kernel counts
 * it against RLIMIT_MEMLOCK for a user without CAP_IPC_LOCK (root has it):
 * there ENOMEM is almost always that limit, not a lack of memory.
 */
const char *atio_engine_why(const struct atio_engine_ops *eng, int err, char *buf, size_t len)
{
	struct rlimit rl;

	switch (err) {
	case ENOSYS:
		return "the kernel lacks it, or kernel.io_uring_disabled=2";
	case EPERM:
	case EACCES:
		return "refused by kernel.io_uring_disabled, seccomp or a container policy";
	case EAGAIN:
		return "the kernel's limit on AIO contexts (fs.aio-max-nr) is reached";
	case ENOMEM:
		if (strcmp(eng->name, "io_uring") != 0 || geteuid() == 0 ||
		    getrlimit(RLIMIT_MEMLOCK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
			break;
		snprintf(buf, len, "%s: the kernel counts the ring's memory against the "
			 "locked-memory limit, RLIMIT_MEMLOCK (ulimit -l), which is %llu KiB "
			 "here (%llu bytes): raise it (ulimit -l, memlock in "
			 "/etc/security/limits.conf, LimitMEMLOCK= of a systemd unit) or use "
			 "--engine libaio or sync", strerror(err),
			 (unsigned long long)rl.rlim_cur / 1024, (unsigned long long)rl.rlim_cur);
		return buf;
	default:
		break;
	}
	return strerror(err);
}

const struct atio_engine_ops *atio_engine_choose(const char *name, unsigned *depth,
						 char *why, size_t whylen,
						 struct atio_error *e)
{
	static const char *const prefer[] = { "io_uring", "libaio" };
	const struct atio_engine_ops *eng;
	char tried[640] = "", buf[320];
	int ret;

	why[0] = '\0';
	if (name) {
		eng = atio_engine_find(name);
		if (!eng) {
			atio_error_set(e, ATIO_EXIT_FAIL, ENOTSUP,
				       "--engine %s: not built into this atio (built: %s); "
				       "install its development package and rebuild",
				       name, atio_engine_names());
			return NULL;
		}
		ret = eng->probe();
		if (ret) {
			atio_error_set(e, ATIO_EXIT_FAIL, -ret, "--engine %s: not available: %s",
				       name, atio_engine_why(eng, -ret, buf, sizeof(buf)));
			return NULL;
		}
		return eng;
	}
	if (*depth <= 1)
		return &atio_engine_sync;

	for (size_t i = 0; i < sizeof(prefer) / sizeof(prefer[0]); i++) {
		size_t n = strlen(tried);

		eng = atio_engine_find(prefer[i]);
		ret = eng ? eng->probe() : -ENOTSUP;
		if (ret == 0) {
			snprintf(why, whylen, "engine %s for --iodepth %u%s%s", eng->name,
				 *depth, tried[0] ? " (" : "", tried);
			if (tried[0])
				strncat(why, ")", whylen - strlen(why) - 1);
			return eng;
		}
		snprintf(tried + n, sizeof(tried) - n, "%s%s %s", n ? "; " : "", prefer[i],
			 eng ? atio_engine_why(eng, -ret, buf, sizeof(buf)) : "not built");
	}
	snprintf(why, whylen, "engine sync at --iodepth 1, not %u: no asynchronous engine "
		 "can run (%s)", *depth, tried);
	*depth = 1;
	return &atio_engine_sync;
}

int atio_engine_check_depth(const struct atio_engine_ops *eng, unsigned threads,
			    unsigned depth, struct atio_error *e)
{
	unsigned max = 0;
	int ret;

	if (!eng->depth_limit || depth <= 1)
		return 0;
	ret = eng->depth_limit(threads, depth, &max);
	if (ret == -E2BIG && max == 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, E2BIG,
				      "--iodepth %u: the kernel lets %s run no I/O in flight for "
				      "%u threads now (see fs.aio-max-nr and fs.aio-nr); use "
				      "fewer threads or another engine", depth, eng->name, threads);
	if (ret == -E2BIG)
		return atio_error_set(e, ATIO_EXIT_USAGE, E2BIG,
				      "--iodepth %u: the kernel lets %s have at most %u I/Os in "
				      "flight per thread%s; use --iodepth %u or less",
				      depth, eng->name, max,
				      threads > 1 ? " with these threads" : "", max);
	return 0;
}
