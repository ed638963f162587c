/* SPDX-License-Identifier: MIT */
/*
 * Unit test of one I/O engine, named by argv[1] (meson runs it once per
 * engine). The engine is driven the way the worker drives it, through
 * struct atio_engine_ops and a struct atio_engine_io built by hand, and must
 * move the right bytes to the right places:
 *
 *  - 512 distinct 4 KiB blocks written at shuffled offsets of a 16 MiB
 *    file, up to 32 in flight, each completion with res == 4096;
 *  - an fdatasync and an fsync that complete with 0;
 *  - the 512 blocks read back through the engine, up to 32 in flight, in
 *    another order, each equal to what was written (and, through the page
 *    cache, equal to what plain pread() sees, so an engine that writes the
 *    wrong buffer but reads it back consistently is caught too);
 *  - a read past the end of the file completing with 0 bytes, and one
 *    straddling the end with the bytes up to the end.
 *
 * Both with the page cache and with O_DIRECT (skipped, with the reason,
 * where the temporary directory's filesystem refuses O_DIRECT). The null
 * engine moves no data: for it only the results are checked.
 *
 * Exit status: 0 passed, 1 failed, 77 (meson's "skipped") when the engine
 * is not built into libatio or the kernel refuses it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atio/engine/engine.h"
#include "atio/data/pool.h"

#define BLK       4096u                 /* bytes per request */
#define DEPTH     32u                   /* requests in flight at most */
#define NBLOCKS   512u                  /* blocks written and read back */
#define FILE_SIZE (16u << 20)           /* the test file */
#define FILE_BLKS (FILE_SIZE / BLK)
#define HALF      ((size_t)DEPTH * BLK) /* write half, then read half */

/* What a request's res holds before the engine has set it. */
#define RES_UNSET INT64_MIN

static const struct atio_engine_ops *eng;

/*
 * One test's file, worker and buffers; the teardown frees what is set
 * (path: the file while it still has a name).
 */
struct fixture {
	char path[4096];
	int fd;
	bool engine_up;
	struct atio_engine_io w;
	int fds[1];
	struct atio_req reqs[DEPTH];
	struct atio_req *done[DEPTH];
	unsigned char *area;          /* buf_base: write half, then read half */
	unsigned char *expect;        /* [NBLOCKS][BLK]: what each block holds */
	uint64_t offs[NBLOCKS];       /* file offset of each block */
	unsigned order[NBLOCKS];      /* the order blocks are read back in */
};

/* A small deterministic generator for the shuffles (xorshift64*). */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static void shuffle(unsigned *a, unsigned n, uint64_t *s)
{
	for (unsigned i = n - 1; i > 0; i--) {
		unsigned j = (unsigned)(next_rand(s) % (i + 1));
		unsigned t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->fd = -1;
	if (posix_memalign((void **)&f->area, 4096, 2 * HALF)) {
		free(f);
		return -1;
	}
	f->expect = malloc((size_t)NBLOCKS * BLK);
	if (!f->expect) {
		free(f->area);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->engine_up)
		eng->cleanup(&f->w);
	if (f->fd >= 0)
		close(f->fd);
	if (f->path[0])
		unlink(f->path);
	free(f->area);
	free(f->expect);
	free(f);
	return 0;
}

/*
 * Make the worker the engine sees: depth 32, every request with its index,
 * the file table {fd} and the buffer area, zero everywhere else. Then let
 * the engine start on it.
 */
static void start_engine(struct fixture *f, int fd)
{
	struct atio_engine_io *w = &f->w;
	int ret;

	memset(w, 0, sizeof(*w));
	memset(f->reqs, 0, sizeof(f->reqs));
	for (unsigned i = 0; i < DEPTH; i++)
		f->reqs[i].index = i;
	f->fds[0] = fd;
	w->depth = DEPTH;
	w->reqs = f->reqs;
	w->done = f->done;
	w->fds = f->fds;
	w->nfds = 1;
	w->buf_base = f->area;
	w->buf_len = 2 * HALF;
	ret = eng->init(w);
	if (ret)
		fail_msg("%s: init() failed: %s", eng->name, strerror(-ret));
	f->engine_up = true;
}

/* A completion must be one of ours, in flight, with the full length. */
static struct atio_req *completed(struct fixture *f, struct atio_req *r, bool *inflight,
				  size_t len)
{
	if (r < f->reqs || r >= f->reqs + DEPTH)
		fail_msg("%s: reap() returned %p, not one of the requests", eng->name, (void *)r);
	if (!inflight[r->index])
		fail_msg("%s: request %u completed but was not in flight", eng->name, r->index);
	inflight[r->index] = false;
	if (r->res != (int64_t)len)
		fail_msg("%s: %s of %zu bytes at offset %" PRIu64 ": res %" PRId64 ", expected %zu",
			 eng->name, r->op == ATIO_REQ_READ ? "read" : "write", r->len, r->off,
			 r->res, len);
	return r;
}

/*
 * Read (@writing false) or write @n blocks, block order[k] at offs[...],
 * keeping up to DEPTH requests in flight: queue until the engine is busy
 * or DEPTH are in flight, submit, reap at least one, repeat. Request i
 * uses slot i of the write or the read half. Writes fill their slot with
 * the block's expected content first; reads poison their slot first and,
 * with @verify, compare it with the expected content once completed.
 */
static void transfer(struct fixture *f, bool writing, const unsigned *order, unsigned n,
		     size_t len, bool verify)
{
	struct atio_engine_io *w = &f->w;
	unsigned char *half = f->area + (writing ? 0 : HALF);
	unsigned spare[DEPTH], nspare = DEPTH, block_of[DEPTH];
	bool inflight[DEPTH] = { false };
	unsigned next = 0, ndone = 0, nflight = 0;
	int got;

	for (unsigned i = 0; i < DEPTH; i++)
		spare[i] = DEPTH - 1 - i;
	while (ndone < n) {
		while (next < n && nspare) {
			struct atio_req *r = &f->reqs[spare[nspare - 1]];
			unsigned b = order[next];
			enum atio_q q;

			r->op = writing ? ATIO_REQ_WRITE : ATIO_REQ_READ;
			r->fd = f->fds[0];
			r->slot = 0;
			r->buf = half + (size_t)r->index * BLK;
			r->len = len;
			r->off = f->offs[b];
			r->res = RES_UNSET;
			if (writing)
				memcpy(r->buf, f->expect + (size_t)b * BLK, len);
			else
				memset(r->buf, 0x5a, len);
			q = eng->queue(w, r);
			if (q == ATIO_Q_BUSY)
				break;
			nspare--;
			next++;
			block_of[r->index] = b;
			inflight[r->index] = true;
			if (q == ATIO_Q_QUEUED) {
				nflight++;
				continue;
			}
			/* Completed in queue(): the sync and null engines. */
			assert_int_equal(q, ATIO_Q_COMPLETED);
			completed(f, r, inflight, len);
			if (verify && !writing &&
			    memcmp(r->buf, f->expect + (size_t)b * BLK, len) != 0)
				fail_msg("%s: block %u read back at offset %" PRIu64
					 " differs from what was written", eng->name, b, r->off);
			spare[nspare++] = r->index;
			ndone++;
		}
		if (ndone == n)
			break;
		if (nflight == 0)
			fail_msg("%s: queue() is busy with nothing in flight", eng->name);
		if (eng->submit(w) < 0)
			fail_msg("%s: submit() failed", eng->name);
		got = eng->reap(w, 1, nflight);
		if (got < 1 || (unsigned)got > nflight)
			fail_msg("%s: reap(1, %u) returned %d", eng->name, nflight, got);
		for (int i = 0; i < got; i++) {
			struct atio_req *r = completed(f, w->done[i], inflight, len);
			unsigned b = block_of[r->index];

			if (verify && !writing &&
			    memcmp(r->buf, f->expect + (size_t)b * BLK, len) != 0)
				fail_msg("%s: block %u read back at offset %" PRIu64
					 " differs from what was written", eng->name, b, r->off);
			spare[nspare++] = r->index;
		}
		nflight -= (unsigned)got;
		ndone += (unsigned)got;
	}
	assert_int_equal(nflight, 0);
	assert_int_equal(nspare, DEPTH);
}

/*
 * One request on its own, waited for: queue, and when the engine holds it,
 * submit and reap it. Returns its res.
 */
static int64_t one(struct fixture *f, enum atio_req_op op, void *buf, size_t len, uint64_t off)
{
	struct atio_engine_io *w = &f->w;
	struct atio_req *r = &f->reqs[0];
	enum atio_q q;
	int got;

	r->op = op;
	r->fd = f->fds[0];
	r->slot = 0;
	r->buf = buf;
	r->len = len;
	r->off = off;
	r->res = RES_UNSET;
	q = eng->queue(w, r);
	if (q == ATIO_Q_BUSY)
		fail_msg("%s: queue() is busy with nothing in flight", eng->name);
	if (q == ATIO_Q_QUEUED) {
		if (eng->submit(w) < 0)
			fail_msg("%s: submit() failed", eng->name);
		got = eng->reap(w, 1, 1);
		if (got != 1)
			fail_msg("%s: reap(1, 1) of a lone request returned %d", eng->name, got);
		if (w->done[0] != r)
			fail_msg("%s: reap() returned another request than the one queued",
				 eng->name);
	}
	if (r->res == RES_UNSET)
		fail_msg("%s: the request completed without a result", eng->name);
	return r->res;
}

/*
 * Create the 16 MiB test file (with O_DIRECT when @direct; the case is
 * skipped when the filesystem refuses it), pick 512 distinct block offsets
 * in it in a shuffled order and give each block its own keystream content.
 */
static void make_file(struct fixture *f, bool direct)
{
	const char *dir = getenv("TMPDIR");
	unsigned perm[FILE_BLKS];
	uint64_t s = direct ? 0x5eed0d1ec7ULL : 0x5eedcac4edULL;
	int fd;

	if (!dir || !dir[0])
		dir = "/var/tmp";       /* on disk everywhere; /tmp may be a tmpfs */
	snprintf(f->path, sizeof(f->path), "%s/atio-unit-engine.XXXXXX", dir);
	fd = mkstemp(f->path);
	if (fd < 0) {
		f->path[0] = '\0';
		fail_msg("mkstemp in %s: %s", dir, strerror(errno));
	}
	f->fd = fd;
	if (ftruncate(fd, FILE_SIZE))
		fail_msg("ftruncate %s: %s", f->path, strerror(errno));
	if (direct) {
		fd = open(f->path, O_RDWR | O_DIRECT);
		if (fd < 0 && errno == EINVAL) {
			print_message("skipped: O_DIRECT is refused in %s (set TMPDIR to "
				      "another filesystem to test it)\n", dir);
			skip();
		}
		if (fd < 0)
			fail_msg("open %s with O_DIRECT: %s", f->path, strerror(errno));
		close(f->fd);
		f->fd = fd;
	}
	/*
	 * The open descriptor is all the test needs from here on: unlinked
	 * now, the file goes away even when a hung engine gets the test killed.
	 */
	if (unlink(f->path))
		fail_msg("unlink %s: %s", f->path, strerror(errno));
	f->path[0] = '\0';

	for (unsigned i = 0; i < FILE_BLKS; i++)
		perm[i] = i;
	shuffle(perm, FILE_BLKS, &s);
	for (unsigned b = 0; b < NBLOCKS; b++) {
		f->offs[b] = (uint64_t)perm[b] * BLK;
		/* The keystream at the block's offset: every block differs. */
		assert_int_equal(atio_keystream(f->expect + (size_t)b * BLK, BLK,
						0xa7105eedULL + direct, f->offs[b]), 0);
		f->order[b] = b;
	}
	/* The comparisons below can fail: two blocks' contents differ. */
	assert_memory_not_equal(f->expect, f->expect + BLK, BLK);
}

static void write_sync_read(void **state, bool direct)
{
	struct fixture *f = *state;
	unsigned char *rbuf;
	uint64_t s = 0xbadc0ffeeULL;
	unsigned perm[NBLOCKS];
	int64_t res;

	make_file(f, direct);
	start_engine(f, f->fd);

	/* 512 blocks written in the shuffled order of make_file(). */
	transfer(f, true, f->order, NBLOCKS, BLK, false);

	res = one(f, ATIO_REQ_FDATASYNC, NULL, 0, 0);
	if (res != 0)
		fail_msg("%s: fdatasync: res %" PRId64 ", expected 0", eng->name, res);
	res = one(f, ATIO_REQ_FSYNC, NULL, 0, 0);
	if (res != 0)
		fail_msg("%s: fsync: res %" PRId64 ", expected 0", eng->name, res);

	/* Read back in another order than written, each block checked. */
	for (unsigned i = 0; i < NBLOCKS; i++)
		perm[i] = i;
	shuffle(perm, NBLOCKS, &s);
	transfer(f, false, perm, NBLOCKS, BLK, true);

	/* At and past the end of the file: a short read of nothing. */
	rbuf = f->area + HALF;
	res = one(f, ATIO_REQ_READ, rbuf, BLK, FILE_SIZE);
	if (res != 0)
		fail_msg("%s: read at the end of the file (offset %u): res %" PRId64
			 ", expected 0", eng->name, FILE_SIZE, res);
	res = one(f, ATIO_REQ_READ, rbuf, BLK, FILE_SIZE + 64 * BLK);
	if (res != 0)
		fail_msg("%s: read past the end of the file (offset %u): res %" PRId64
			 ", expected 0", eng->name, FILE_SIZE + 64 * BLK, res);
	/* Straddling the end: the bytes up to it, and no more. */
	res = one(f, ATIO_REQ_READ, rbuf, 2 * BLK, FILE_SIZE - BLK);
	if (res != BLK)
		fail_msg("%s: read of %u bytes at offset %u: res %" PRId64 ", expected %u",
			 eng->name, 2 * BLK, FILE_SIZE - BLK, res, BLK);

	/* What the file holds, seen without the engine (page cache only). */
	if (!direct) {
		unsigned char *p = f->area + HALF;

		for (unsigned b = 0; b < NBLOCKS; b++) {
			ssize_t n = pread(f->fd, p, BLK, (off_t)f->offs[b]);

			if (n != (ssize_t)BLK)
				fail_msg("pread of block %u at offset %" PRIu64 ": %zd", b,
					 f->offs[b], n);
			if (memcmp(p, f->expect + (size_t)b * BLK, BLK) != 0)
				fail_msg("%s: block %u at offset %" PRIu64 " holds other bytes "
					 "than the engine was given to write", eng->name, b,
					 f->offs[b]);
		}
	}

	eng->cleanup(&f->w);
	f->engine_up = false;
}

static void test_cached(void **state)
{
	write_sync_read(state, false);
}

static void test_direct(void **state)
{
	write_sync_read(state, true);
}

/*
 * The null engine does no I/O: reads and writes of any length complete in
 * queue() with their length, syncs with 0, nothing is left to reap.
 */
static void test_null(void **state)
{
	struct fixture *f = *state;
	static const size_t lens[] = { 512, BLK };

	assert_false(eng->async);
	/* No file: the engine must not need one. */
	start_engine(f, -1);
	for (unsigned b = 0; b < NBLOCKS; b++) {
		f->offs[b] = (uint64_t)b * BLK;
		f->order[b] = b;
	}
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		transfer(f, true, f->order, NBLOCKS, lens[i], false);
		transfer(f, false, f->order, NBLOCKS, lens[i], false);
	}
	assert_true(one(f, ATIO_REQ_FSYNC, NULL, 0, 0) == 0);
	assert_true(one(f, ATIO_REQ_FDATASYNC, NULL, 0, 0) == 0);
	assert_int_equal(eng->reap(&f->w, 0, DEPTH), 0);
	eng->cleanup(&f->w);
	f->engine_up = false;
}

/*
 * The depth check: a depth the kernel takes passes; the engines that have a
 * kernel limit refuse one far above it (65536 threads of 65536) with exit
 * 2 and a message naming the depth and a limit below it; sync and null,
 * which run one I/O at a time, have no limit to check.
 */
static void test_depth_limit(void **state)
{
	struct atio_error e = { 0 };
	unsigned max = 0;
	int ret;

	assert_int_equal(atio_engine_check_depth(eng, 1, 1, &e), 0);
	assert_int_equal(atio_engine_check_depth(eng, 1, 8, &e), 0);
	if (!eng->depth_limit) {
		assert_true(strcmp(eng->name, "sync") == 0 || strcmp(eng->name, "null") == 0);
		return;
	}
	ret = eng->depth_limit(65536, 65536, &max);
	assert_int_equal(ret, -E2BIG);
	assert_true(max < 65536);
	assert_int_equal(atio_engine_check_depth(eng, 65536, 65536, &e), -E2BIG);
	assert_int_equal(e.exit, ATIO_EXIT_USAGE);
	assert_non_null(strstr(e.msg, "--iodepth 65536: the kernel lets "));
	assert_non_null(strstr(e.msg, eng->name));
	if (max) {
		assert_int_equal(eng->depth_limit(1, max, &max), 0);
	}
	(void)state;
}

int main(int argc, char **argv)
{
	const struct CMUnitTest data_tests[] = {
		cmocka_unit_test_setup_teardown(test_cached, setup, teardown),
		cmocka_unit_test_setup_teardown(test_direct, setup, teardown),
	};
	const struct CMUnitTest null_tests[] = {
		cmocka_unit_test_setup_teardown(test_null, setup, teardown),
	};
	const struct CMUnitTest depth_tests[] = {
		cmocka_unit_test(test_depth_limit),
	};
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: %s ENGINE\n", argv[0]);
		return 1;
	}
	if (!atio_engine_known(argv[1])) {
		fprintf(stderr, "%s: no engine is called %s\n", argv[0], argv[1]);
		return 1;
	}
	eng = atio_engine_find(argv[1]);
	if (!eng) {
		printf("skipped: engine %s is not built into this atio (built: %s)\n", argv[1],
		       atio_engine_names());
		return 77;
	}
	ret = eng->probe();
	if (ret) {
		printf("skipped: engine %s is refused by the kernel here: %s\n", argv[1],
		       strerror(-ret));
		return 77;
	}
	if (strcmp(eng->name, "null") == 0)
		ret = cmocka_run_group_tests_name("engine null", null_tests, NULL, NULL);
	else
		ret = cmocka_run_group_tests_name(argv[1], data_tests, NULL, NULL);
	return ret ? ret : cmocka_run_group_tests_name("depth", depth_tests, NULL, NULL);
}
