/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: atio's command line (cli.c). The input is the arguments,
 * one a line, after "atio"; when they parse, the command line atio prints
 * is made from the options, and the batch chosen.
 */
#include <stdlib.h>
#include <string.h>

#include "atio/cli/cli.h"
#include "fuzz.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = atio_fuzz_text(data, size), *argv[MAX_ARGS + 2], *p = text;
	struct atio_error e = { 0 };
	struct atio_opts o;
	char line[4096];
	int argc = 0;

	argv[argc++] = "atio";
	while (argc <= MAX_ARGS && *p) {
		char *nl = strchr(p, '\n');

		argv[argc++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	argv[argc] = NULL;
	if (atio_cli_parse(argc, argv, &o, &e) == ATIO_CLI_RUN) {
		atio_opts_batch(&o, 8);
		atio_opts_cmdline(line, sizeof(line), &o);
	}
	free(text);
	return 0;
}
