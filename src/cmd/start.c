/* SPDX-License-Identifier: MIT */
/* The start instant a driver sends on standard input (start.h). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "start.h"
#include "atio/cli/cli.h"

int read_start_at(struct watch *wt, int64_t *ns, struct atio_error *e)
{
	struct pollfd pfd[2] = { { .fd = wt->sig_fd, .events = POLLIN },
				 { .fd = STDIN_FILENO, .events = POLLIN } };
	char line[128];
	size_t len = 0;

	say("ready: waiting for the start instant (seconds since the epoch) on standard input");
	fflush(stderr);
	while (!wt->signo) {
		char c;
		ssize_t n;

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return atio_error_set(e, ATIO_EXIT_FAIL, errno, "--start-at -: poll: %s",
					      strerror(errno));
		}
		if (pfd[0].revents & POLLIN)
			take_signal(wt);
		if (pfd[1].revents & POLLNVAL)
			return atio_error_set(e, ATIO_EXIT_USAGE, EBADF,
					      "--start-at -: standard input is closed");
		if (!(pfd[1].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(STDIN_FILENO, &c, 1);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, errno,
					      "--start-at -: cannot read standard input: %s",
					      strerror(errno));
		if (n == 0)
			return atio_error_set(e, ATIO_EXIT_FAIL, EPIPE,
					      "--start-at -: standard input ended before a start "
					      "instant came: not starting");
		if (c == '\n') {
			line[len] = '\0';
			if (len && line[len - 1] == '\r')
				line[len - 1] = '\0';
			if (atio_cli_start_at(line, ns, e) == 0)
				return 0;
			memmove(e->msg + 30, e->msg, sizeof(e->msg) - 31);
			memcpy(e->msg, "--start-at -: standard input: ", 30);
			e->msg[sizeof(e->msg) - 1] = '\0';
			return -EINVAL;
		}
		if (len + 1 >= sizeof(line))
			return atio_error_set(e, ATIO_EXIT_USAGE, 0,
					      "--start-at -: a line of more than %zu bytes on "
					      "standard input is no start instant", sizeof(line) - 2);
		line[len++] = c;
	}
	return 0;
}
