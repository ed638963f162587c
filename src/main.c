/* SPDX-License-Identifier: MIT */
/*
 * atio: the command word, and the command it names (src/cmd/). Without
 * one, the options are those of a run, as at_io_iops takes them. The
 * commands print diagnostics and return the exit status; only here does
 * atio exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"

static const struct command {
	const char *name;
	int (*main)(int argc, char **argv); /* argv[0] is the command word */
} commands[] = {
	{ "run", run_main },
	{ "merge", merge_main },
	{ "report", report_main },
	{ "sweep", sweep_main },
};

/*
 * Give a closed standard descriptor /dev/null: left closed, the next file
 * atio opens would take its number, and stdin, stdout or stderr would be
 * that file.
 */
static void open_std_fds(void)
{
	for (int fd = 0; fd <= STDERR_FILENO; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY) < 0)
			break;
}

int main(int argc, char **argv)
{
	open_std_fds();
	for (size_t i = 0; argc >= 2 && i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].main(argc - 1, argv + 1);
	return run_main(argc, argv);
}
