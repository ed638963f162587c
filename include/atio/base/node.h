/* SPDX-License-Identifier: MIT */
#ifndef ATIO_NODE_H
#define ATIO_NODE_H

/*
 * What the machine atio runs on offers: its memory, as /proc/meminfo
 * counts it, and the CPUs atio may run on. The one place that reads them,
 * for -u auto and -p auto, the memory check of the buffers and the page
 * cache warning.
 */

#include <stdint.h>

/*
 * The field @key of /proc/meminfo ("MemTotal", "MemAvailable", ...) in
 * bytes. Returns 0 when the file cannot be read or has no such field.
 */
uint64_t atio_node_meminfo(const char *key);

/*
 * The CPUs this process may run on: the count of its affinity mask, as
 * nproc prints it. On a node without restriction those are all its online
 * CPUs; under taskset, numactl or a container's cpuset only the ones it is
 * given, since threads beyond them would take turns on the same CPUs. When
 * the mask cannot be read, the online CPUs (sysconf). Returns at least 1.
 */
unsigned atio_node_cpus(void);

#endif
