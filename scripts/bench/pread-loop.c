/*
 * pread-loop: the floor of per-I/O overhead for bench-vs-fio.sh.
 *
 * One thread, one file, pread() of 4 KiB at uniformly random 4 KiB-aligned
 * offsets for a fixed time: no latency recording, no statistics, no data
 * checks, nothing but the system call and a few instructions around it.
 * On a file that sits in the page cache this is the fastest a single
 * thread of any load generator can go with pread(), so the benchmark
 * reports atio's ops/s against it as well as against fio's.
 *
 * Usage: pread-loop FILE SECONDS
 * Prints: ops=N sec=S cpu=C user=U sys=Y
 *   (operations, wall seconds, CPU seconds: user+sys, user, sys)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK 4096
#define CLOCK_EVERY 4096 /* operations between two clock reads */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv_sec(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* splitmix64: fast, good enough to spread offsets over the file */
static uint64_t next_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int main(int argc, char **argv)
{
	static char buf[BLOCK] __attribute__((aligned(BLOCK)));
	struct rusage ru;
	struct stat st;
	uint64_t seed, blocks, ops = 0;
	double secs, start, end, stop;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: pread-loop FILE SECONDS\n");
		return 2;
	}
	secs = atof(argv[2]);
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0) {
		perror(argv[1]);
		return 1;
	}
	blocks = (uint64_t)st.st_size / BLOCK;
	if (blocks == 0 || secs <= 0) {
		fprintf(stderr, "pread-loop: empty file or bad time\n");
		return 2;
	}
	seed = (uint64_t)getpid() ^ (uint64_t)(now() * 1e9);

	start = now();
	stop = start + secs;
	for (;;) {
		for (int i = 0; i < CLOCK_EVERY; i++) {
			/* multiply-high maps 64 random bits onto [0, blocks) */
			uint64_t r = next_rand(&seed);
			uint64_t blk = (uint64_t)(((unsigned __int128)r * blocks) >> 64);

			if (pread(fd, buf, BLOCK, (off_t)(blk * BLOCK)) != BLOCK) {
				perror("pread");
				return 1;
			}
		}
		ops += CLOCK_EVERY;
		end = now();
		if (end >= stop)
			break;
	}
	if (getrusage(RUSAGE_SELF, &ru) != 0) {
		perror("getrusage");
		return 1;
	}
	printf("ops=%llu sec=%.6f cpu=%.6f user=%.6f sys=%.6f\n",
	       (unsigned long long)ops, end - start,
	       tv_sec(ru.ru_utime) + tv_sec(ru.ru_stime), tv_sec(ru.ru_utime),
	       tv_sec(ru.ru_stime));
	return 0;
}
