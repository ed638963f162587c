/* SPDX-License-Identifier: MIT */
#ifndef ATIO_READBACK_H
#define ATIO_READBACK_H

/*
 * --verify on writes: after the measured time, once every thread has
 * ended it (so that no thread's reads weigh on another's measurement),
 * every block written in the run is read back and checked: its sectors
 * must be good (atio_check_block()) and hold the last write the thread
 * issued to that block (the generation map, atio/run/genmap.h: its generation
 * and the thread's key). That catches what a check of the stamps alone
 * cannot: a lost write (an older generation, or the fill, found), a
 * misdirected write (a later generation of the thread, meant for another
 * block, or another thread's data), besides corruption.
 *
 * One thread per load thread reads that thread's blocks, in order, with
 * pread(). Through the page cache (--cached) the thread's files are
 * first written back (fdatasync) and its ranges dropped from the cache
 * (POSIX_FADV_DONTNEED), so that the storage answers, not the cache;
 * with --uncached the reads are O_DIRECT. The first bad block of a thread
 * ends its pass. None of this is in the result's time or counts.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "atio/data/check.h"
#include "atio/base/error.h"
#include "atio/data/stamp.h"

struct atio_worker;

struct atio_readback {
	bool ran;                  /* the pass was made (not the null engine, not interrupted) */
	bool no_io;                /* the null engine: nothing was written to read back */
	bool interrupted;          /* a signal stopped the pass */
	bool bad;                  /* a block read back was not its last write */
	uint64_t blocks;           /* blocks read back and checked */
	uint64_t bytes;
	uint64_t elapsed_ns;
	const char *path;          /* bad: the file */
	uint64_t block_off;        /* bad: the block's offset */
	uint64_t block_len;
	struct atio_check_bad b;   /* bad: the first bad sector */
	struct atio_stamp found;   /* bad: what it held */
	int err;                   /* a failure (not a bad block): see e */
	struct atio_error e;       /* the message for a bad block or a failure */
	const char *journal;       /* the journal kept (atio/data/journal.h), or NULL */
	uint64_t t0;               /* private: the pass's start */
};

/*
 * Start the read-back pass of the @n workers @w (their run ended, their
 * dataset still open), one thread each, recorded in @th[@n]; each signals
 * w->sh->done_fd when it ends. Returns how many started; fewer than @n
 * (with @e filled) when a thread could not be made, and then the others
 * are asked to stop.
 */
unsigned atio_readback_start(struct atio_worker *w, unsigned n, pthread_t *th,
			     struct atio_error *e);

/*
 * Join the @started threads and sum the workers' passes into @total
 * (the first bad block, by thread order, is the one named); its
 * journal is kept.
 */
void atio_readback_finish(struct atio_worker *w, unsigned n, unsigned started, pthread_t *th,
			  struct atio_readback *total);

#endif
