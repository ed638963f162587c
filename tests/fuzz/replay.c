/* SPDX-License-Identifier: MIT */
/*
 * The test suite's runner of a fuzz target, without libFuzzer: the
 * target's LLVMFuzzerTestOneInput() fed every file of its corpus, then a
 * fixed number of mutations of them made by a fixed PRNG from a fixed seed.
 * A short, deterministic run (the same inputs every time) in the sanitized
 * build, where a heap error, a leak or undefined behaviour aborts it.
 * scripts/fuzz.sh runs the same targets for as long as one wants, under
 * libFuzzer and clang.
 *
 *   fuzz-NAME [-n MUTATIONS] [-s SEED] PATH...
 *
 * PATH: a corpus directory (its files, in name order) or one input file
 * (a crash file of libFuzzer's or of this runner, to reproduce it).
 * When an input kills the run (a sanitizer's report, a signal), it is
 * written to ./fuzz-NAME.last, to be run again as a FILE. Exit 0
 * when every input was run, 2 on bad usage or an unreadable PATH; a
 * sanitizer's abort is the failure.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX (256u << 10)

struct input {
	char *name;
	uint8_t *data;
	size_t size;
};

static struct input *inputs;
static size_t ninputs;
static const char *prog = "fuzz";

static uint64_t next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A number in [0, n), n > 0. */
static size_t below(uint64_t *s, size_t n)
{
	return (size_t)(next(s) % n);
}

static int add_file(const char *path)
{
	struct input *in;
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		return -1;
	}
	buf = malloc(REPLAY_MAX);
	n = buf ? fread(buf, 1, REPLAY_MAX, f) : 0;
	if (!buf || ferror(f)) {
		fprintf(stderr, "%s: %s: cannot read\n", prog, path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	in = realloc(inputs, (ninputs + 1) * sizeof(*inputs));
	if (!in) {
		free(buf);
		return -1;
	}
	inputs = in;
	inputs[ninputs++] = (struct input){ .name = strdup(path), .data = buf, .size = n };
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every regular file of directory @dir, in name order, or @dir itself when it is a file. */
static int add_path(const char *dir)
{
	struct dirent **list;
	int n, ret = 0;

	n = scandir(dir, &list, NULL, by_name);
	if (n < 0 && errno == ENOTDIR)
		return add_file(dir);
	if (n < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (!ret && list[i]->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
			ret = add_file(path);
		}
		free(list[i]);
	}
	free(list);
	return ret;
}

/* Values that make readers take their edges: numbers, JSON's marks, options. */
static const char *const tokens[] = {
	"0", "-1", "1e308", "-1e308", "1.7976931348623157e309", "18446744073709551616",
	"4294967296", "9007199254740993", "-0", "0.000001", "1e-320", "NaN", "null", "true",
	"\"\"", "[]", "{}", "\"\\u0000\"", "\"\\ud800\"", "{\"a\":", "[[[[[[[[", ",", ":",
	"\"buckets\"", "\"count\"", "\"intervals\"", "\"results\"", "\"atio\"", "\"value\"",
	"\n-f\n", "\n--json\n", "\n-u\nauto\n", "\n-p\nauto\n", "\n--rate\n", "\n--mix\n",
	"\n--start-at\n", "=", "K", "M", "G", "T", "ms", "us",
};

/* Values put in place of a number: the document stays JSON, its values do not stay sane. */
static const char *const values[] = {
	"0", "-1", "1", "2", "7", "0.5", "-0.0", "1e308", "-1e308", "1e-320", "100000",
	"4294967295", "4294967296", "9007199254740993", "18446744073709551615",
	"18446744073709551616", "1e19", "null", "true", "\"\"", "\"MB/s\"", "[]", "{}", "[0]",
};

static bool is_num(uint8_t c)
{
	return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
}

/* Replace @len bytes at @at of @buf (*@n bytes of @cap) with the text @t. */
static void put(uint8_t *buf, size_t *n, size_t cap, size_t at, size_t len, const char *t)
{
	size_t tl = strlen(t);

	if (*n - len + tl > cap)
		return;
	memmove(buf + at + tl, buf + at + len, *n - at - len);
	memcpy(buf + at, t, tl);
	*n = *n - len + tl;
}

/*
 * Replace the first number at or after @at (digits with their sign,
 * point and exponent) with one of values[]. Returns false when there is none.
 */
static bool new_value(uint8_t *buf, size_t *n, size_t cap, size_t at, uint64_t *s)
{
	size_t end;

	while (at < *n && !(buf[at] >= '0' && buf[at] <= '9'))
		at++;
	if (at == *n)
		return false;
	while (at > 0 && is_num(buf[at - 1]))
		at--;
	for (end = at; end < *n && is_num(buf[end]); end++)
		;
	put(buf, n, cap, at, end - at, values[below(s, sizeof(values) / sizeof(values[0]))]);
	return true;
}

/* One edit of @buf (*@n bytes of @cap) drawn from @s. */
static void mutate_once(uint8_t *buf, size_t *n, size_t cap, uint64_t *s)
{
	size_t at = *n ? below(s, *n) : 0, len;

	switch (below(s, 12)) {
	case 0: /* flip a bit */
		if (*n)
			buf[at] ^= (uint8_t)(1u << below(s, 8));
		break;
	case 1: /* a byte of any value */
		if (*n)
			buf[at] = (uint8_t)next(s);
		break;
	case 2: /* cut the end */
		*n = at;
		break;
	case 3: /* remove a range */
		len = below(s, 64) + 1;
		if (at + len <= *n) {
			memmove(buf + at, buf + at + len, *n - at - len);
			*n -= len;
		}
		break;
	case 4: /* a range repeated */
		len = below(s, 64) + 1;
		if (at + len <= *n && *n + len <= cap) {
			memmove(buf + at + len, buf + at, *n - at);
			*n += len;
		}
		break;
	case 5: /* a range of another input put in */
	{
		const struct input *o = &inputs[below(s, ninputs)];
		size_t from = o->size ? below(s, o->size) : 0;

		len = below(s, 256) + 1;
		if (from + len > o->size)
			len = o->size - from;
		if (*n + len <= cap) {
			memmove(buf + at + len, buf + at, *n - at);
			memcpy(buf + at, o->data + from, len);
			*n += len;
		}
		break;
	}
	case 6: /* a token in place of a byte, or put in */
		put(buf, n, cap, at, below(s, 2) && *n ? 1 : 0,
		    tokens[below(s, sizeof(tokens) / sizeof(tokens[0]))]);
		break;
	default: /* another value for a number: most edits keep the document well formed */
		new_value(buf, n, cap, at, s);
		break;
	}
}

/* The input being run, written out when the run dies of it. */
static const uint8_t *current;
static size_t current_size;
static char last_path[256];

static void save_current(void)
{
	int fd = open(last_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return;
	for (size_t off = 0; off < current_size;) {
		ssize_t w = write(fd, current + off, current_size - off);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(fd);
	write(2, "replay: the input is in ", 24);
	write(2, last_path, strlen(last_path));
	write(2, "\n", 1);
}

static void on_signal(int sig)
{
	save_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void run(const uint8_t *data, size_t size)
{
	/* An exact copy, so that the sanitizer sees reads past its end. */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	current = copy;
	current_size = size;
	LLVMFuzzerTestOneInput(copy, size);
	current = NULL;
	current_size = 0;
	free(copy);
}

int main(int argc, char **argv)
{
	unsigned long mutations = 0;
	uint64_t seed = 1;
	uint8_t *buf;
	int c;

	prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	while ((c = getopt(argc, argv, "n:s:")) != -1) {
		if (c == 'n')
			mutations = strtoul(optarg, NULL, 10);
		else if (c == 's')
			seed = strtoull(optarg, NULL, 10);
		else
			return 2;
	}
	if (optind == argc) {
		fprintf(stderr, "usage: %s [-n MUTATIONS] [-s SEED] CORPUS-DIR|FILE...\n", prog);
		return 2;
	}
	for (int i = optind; i < argc; i++)
		if (add_path(argv[i]))
			return 2;
	if (!ninputs) {
		fprintf(stderr, "%s: no input in %s\n", prog, argv[optind]);
		return 2;
	}
	snprintf(last_path, sizeof(last_path), "%s.last", prog);
#ifdef __SANITIZE_ADDRESS__
	__sanitizer_set_death_callback(save_current);
#endif
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGABRT, on_signal);
	for (size_t i = 0; i < ninputs; i++)
		run(inputs[i].data, inputs[i].size);
	buf = malloc(REPLAY_MAX);
	if (!buf)
		return 2;
	for (unsigned long k = 0; k < mutations; k++) {
		const struct input *in = &inputs[below(&seed, ninputs)];
		size_t n = in->size, edits = below(&seed, 4) + 1;

		memcpy(buf, in->data, n);
		for (size_t j = 0; j < edits; j++)
			mutate_once(buf, &n, REPLAY_MAX, &seed);
		run(buf, n);
	}
	printf("%s: %zu corpus input(s) and %lu mutation(s) run\n", prog, ninputs, mutations);
	for (size_t i = 0; i < ninputs; i++) {
		free(inputs[i].name);
		free(inputs[i].data);
	}
	free(inputs);
	free(buf);
	return 0;
}
