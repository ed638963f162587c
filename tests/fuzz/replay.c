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
 * Before each input is run it is also written to ./fuzz-NAME.last: when a
 * sanitizer aborts the run, that file holds the input that did it. Exit 0
 * when every input was run, 2 on bad usage or an unreadable PATH; a
 * sanitizer's abort is the failure.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT (256u << 10)

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
	buf = malloc(MAX_INPUT);
	n = buf ? fread(buf, 1, MAX_INPUT, f) : 0;
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

/* One edit of @buf (*@n bytes of @cap) drawn from @s. */
static void mutate_once(uint8_t *buf, size_t *n, size_t cap, uint64_t *s)
{
	size_t at = *n ? below(s, *n) : 0, len;

	switch (below(s, 8)) {
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
	default: /* a token in place of a byte or put in */
	{
		const char *t = tokens[below(s, sizeof(tokens) / sizeof(tokens[0]))];
		size_t tl = strlen(t), drop = below(s, 2) && *n ? 1 : 0;

		/* Over a number when there is one here: replace its digits. */
		while (at + drop < *n && drop < 24 &&
		       ((buf[at + drop] >= '0' && buf[at + drop] <= '9') || buf[at + drop] == '.'))
			drop++;
		if (*n - drop + tl <= cap) {
			memmove(buf + at + tl, buf + at + drop, *n - at - drop);
			memcpy(buf + at, t, tl);
			*n = *n - drop + tl;
		}
		break;
	}
	}
}

static void save_last(const uint8_t *buf, size_t n)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s.last", prog);
	f = fopen(path, "wb");
	if (!f)
		return;
	fwrite(buf, 1, n, f);
	fclose(f);
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
	for (size_t i = 0; i < ninputs; i++) {
		/* An exact copy, so that the sanitizer sees reads past its end. */
		uint8_t *copy = malloc(inputs[i].size ? inputs[i].size : 1);

		if (!copy)
			return 2;
		memcpy(copy, inputs[i].data, inputs[i].size);
		save_last(copy, inputs[i].size);
		LLVMFuzzerTestOneInput(copy, inputs[i].size);
		free(copy);
	}
	buf = malloc(MAX_INPUT);
	if (!buf)
		return 2;
	for (unsigned long k = 0; k < mutations; k++) {
		const struct input *in = &inputs[below(&seed, ninputs)];
		size_t n = in->size, edits = below(&seed, 4) + 1;
		uint8_t *copy;

		memcpy(buf, in->data, n);
		for (size_t j = 0; j < edits; j++)
			mutate_once(buf, &n, MAX_INPUT, &seed);
		save_last(buf, n);
		copy = malloc(n ? n : 1);
		if (!copy)
			return 2;
		memcpy(copy, buf, n);
		LLVMFuzzerTestOneInput(copy, n);
		free(copy);
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
