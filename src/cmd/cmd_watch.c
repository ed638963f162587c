/* SPDX-License-Identifier: MIT */
/*
 * The command layer's plumbing: messages on stderr, stdout's fate, and the
 * main thread's waits, which watch the signals (see cmd.h).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cmd.h"
#include "atio/base/clock.h"
#include "atio/run/worker.h"

void say(const char *fmt, ...)
{
	char line[4096];
	va_list ap;
	int n;

	/*
	 * One write for the line: stderr is unbuffered, and the threads'
	 * -vvv traces go there at the same time; in pieces, one could come
	 * between "atio: " and the message.
	 */
	va_start(ap, fmt);
	n = vsnprintf(line + 6, sizeof(line) - 7, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(line) - 7) {
		memcpy(line, "atio: ", 6);
		line[6 + n] = '\n';
		fwrite(line, 1, (size_t)n + 7, stderr);
		return;
	}
	va_start(ap, fmt);
	fputs("atio: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

struct timespec ns_to_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

const char *sig_name(int signo)
{
	return signo == SIGINT ? "SIGINT" : signo == SIGHUP ? "SIGHUP" : "SIGTERM";
}

void take_signal(struct watch *wt)
{
	struct signalfd_siginfo si;

	while (read(wt->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (wt->signo) {
			say("interrupted again: exiting without results");
			_exit(ATIO_EXIT_INTERRUPTED);
		}
		wt->signo = (int)si.ssi_signo;
		wt->sig_ns = atio_now_ns();
		wt->sig_phase = wt->phase;
		__atomic_store_n(wt->stop, 1, __ATOMIC_RELAXED);
		for (unsigned i = 0; i < wt->nmore; i++)
			__atomic_store_n(wt->more_stops[i], 1, __ATOMIC_RELAXED);
		say("%s: stopping; press Ctrl-C again to exit at once", sig_name(wt->signo));
	}
}

int watch_open(struct watch *wt, struct atio_error *e)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	wt->sig_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	wt->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wt->sig_fd >= 0 && wt->done_fd >= 0)
		return 0;
	return atio_error_set(e, ATIO_EXIT_FAIL, errno, "cannot set up signal handling: %s",
			      strerror(errno));
}

void watch_close(struct watch *wt)
{
	if (wt->sig_fd >= 0)
		close(wt->sig_fd);
	if (wt->done_fd >= 0)
		close(wt->done_fd);
	wt->sig_fd = wt->done_fd = -1;
}

void wait_threads(struct watch *wt, unsigned count,
		  void (*tick)(void *arg, unsigned sec), void *arg)
{
	struct pollfd pfd[2] = { { .fd = wt->sig_fd, .events = POLLIN },
				 { .fd = wt->done_fd, .events = POLLIN } };
	uint64_t period = wt->tick_ns ? wt->tick_ns : 1000000000u;
	uint64_t next = atio_now_ns() + period;
	unsigned done = 0, sec = 0;

	while (done < count) {
		uint64_t now = atio_now_ns(), n;
		int timeout = tick ? (now >= next ? 0 : (int)((next - now) / 1000000u) + 1) : -1;

		if (poll(pfd, 2, timeout) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN)
			take_signal(wt);
		if ((pfd[1].revents & POLLIN) && read(wt->done_fd, &n, sizeof(n)) == sizeof(n))
			done += (unsigned)n;
		if (tick && atio_now_ns() >= next) {
			next += period;
			tick(arg, ++sec);
		}
	}
}

/*
 * Sleep until the CLOCK_REALTIME instant @ns, or a signal. poll() watches
 * the signals but sleeps in whole milliseconds, up to one late; the last
 * 2 ms go to clock_nanosleep() on the absolute instant, which wakes within
 * the timer slack (50 us by default), so that hosts given one instant start
 * within their clocks' offsets of each other.
 */
void wait_realtime(struct watch *wt, uint64_t ns)
{
	struct pollfd pfd = { .fd = wt->sig_fd, .events = POLLIN };
	struct timespec at = ns_to_ts(ns);

	while (!wt->signo) {
		uint64_t now = realtime_ns();

		if (now >= ns)
			break;
		if (ns - now <= 2000000u) {
			while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, NULL) == EINTR)
				;
			break;
		}
		if (poll(&pfd, 1, (int)((ns - now - 2000000u) / 1000000u)) > 0)
			take_signal(wt);
	}
}

int flush_stdout(const char *what)
{
	int bad = fflush(stdout) != 0, err = errno;

	if (!bad && !ferror(stdout))
		return 0;
	say("cannot write %s to standard output: %s", what,
	    strerror(bad && err ? err : errno ? errno : EIO));
	return -1;
}

int fail(const struct atio_error *e)
{
	say("%s", e->msg);
	return e->exit ? e->exit : ATIO_EXIT_FAIL;
}
