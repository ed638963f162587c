/* SPDX-License-Identifier: MIT */
/*
 * The node's memory and CPUs, read in one place. See include/atio/base/node.h.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atio/base/node.h"

/*
 * /proc/meminfo has lines "MemTotal:       16310788 kB"; the key is
 * matched whole, so "MemTotal" never takes "MemTotalX".
 */
uint64_t atio_node_meminfo(const char *key)
{
	char line[128];
	size_t n = strlen(key);
	unsigned long long kib = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, n) == 0 && line[n] == ':') {
			if (sscanf(line + n + 1, " %llu kB", &kib) != 1)
				kib = 0;
			break;
		}
	fclose(f);
	return (uint64_t)kib << 10;
}

/*
 * The mask is read at its glibc size (1024 CPUs); a larger machine makes
 * sched_getaffinity fail with EINVAL, and then the online count serves.
 */
unsigned atio_node_cpus(void)
{
	cpu_set_t set;
	long online;
	int n;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && (n = CPU_COUNT(&set)) > 0)
		return (unsigned)n;
	online = sysconf(_SC_NPROCESSORS_ONLN);
	return online > 0 ? (unsigned)online : 1;
}
