/* SPDX-License-Identifier: MIT */
/*
 * Fuzz target: the reader of --check's journal (journal.c). The input is
 * a journal file, atio.journal of a dataset of the shape its header names
 * (so that the reader gets past the shape check; at most 16 files, each a
 * whole number of 4 KiB).
 * When it loads, the input's sectors are judged against its claims as
 * --check judges what it reads: from offset 0 and from each of the first
 * claims of each file, within the file's size.
 *
 * The records carry a check word; random bytes rarely make one. So the
 * input is read twice: as it is, and with the check word of every whole
 * record made right (the word as journal.c computes it, written again
 * here: should it change there, the second read only finds the records cut).
 */
#include <stdlib.h>
#include <string.h>

#include "atio/data/dataset.h"
#include "atio/data/journal.h"
#include "atio/data/stamp.h"
#include "fuzz.h"

#define MAX_FILES 16u
#define REC 40u

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t mix(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* Make the check word of every whole record in @buf (@size bytes) right. */
static void sign(uint8_t *buf, size_t size)
{
	for (size_t at = ATIO_JOURNAL_HEAD; at + REC <= size; at += REC) {
		uint8_t *r = buf + at;
		uint64_t h = mix(((uint64_t)le32(r) << 32 | le32(r + 4)) ^ 0x6a6f75726e616cull);

		h = mix(h ^ le64(r + 8));
		h = mix(h ^ le64(r + 16));
		put64(r + 32, mix(h ^ le64(r + 24)));
	}
}

static void unseen(void *arg, const struct atio_check_bad *b)
{
	(void)arg;
	(void)b;
}

/* Judge @len bytes of @sectors at @off of file @file (stamp tag @tag), as check.c does. */
static void judge(struct atio_journal_claims *jc, unsigned file, uint64_t tag, uint64_t off,
		  const uint8_t *sectors, size_t len)
{
	struct atio_check_bad bad;
	struct atio_stamp found;
	uint64_t from = off;
	size_t n = 0;

	while (atio_journal_judge(jc, file, off, sectors, len, tag, &from, &bad,
				  &found)) {
		/* Each bad sector is named once: more than there are is a loop. */
		if (++n > len / ATIO_SECTOR) {
			fprintf(stderr, "fuzz-journal: more bad sectors than the %zu read\n",
				len / ATIO_SECTOR);
			abort();
		}
	}
}

static void load(const uint8_t *data, size_t size, const struct atio_dataset *d)
{
	struct atio_journal_claims *jc = NULL;
	struct atio_error e = { 0 };
	size_t len = (size + ATIO_SECTOR - 1) / ATIO_SECTOR * ATIO_SECTOR;
	uint8_t *sectors;

	atio_fuzz_file("atio.journal", data, size);
	if (atio_journal_load(&jc, d, &e) != 0 || !jc) {
		atio_journal_claims_free(jc);
		return;
	}
	if (len > d->file_size)
		len = (size_t)d->file_size;
	sectors = calloc(1, len ? len : 1);
	if (!sectors)
		abort();
	memcpy(sectors, data, size < len ? size : len);
	for (unsigned f = 0; f < d->nfiles && len; f++) {
		judge(jc, f, atio_stamp_tag(d->id, f), 0, sectors, len);
		for (size_t i = jc->first[f]; i < jc->first[f + 1] && i < jc->first[f] + 4; i++) {
			uint64_t off = jc->c[i].off / ATIO_SECTOR * ATIO_SECTOR;

			if (off < d->file_size && d->file_size - off >= len)
				judge(jc, f, atio_stamp_tag(d->id, f), off, sectors, len);
		}
	}
	atio_journal_unseen(jc, unseen, NULL);
	free(sectors);
	atio_journal_claims_free(jc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct atio_dataset d = { 0 };
	char prefix[4200];
	uint8_t *copy;

	snprintf(prefix, sizeof(prefix), "%s/atio.", atio_fuzz_dir());
	d.prefix = prefix;
	d.nfiles = 1;
	d.file_size = 1 << 20;
	if (size >= ATIO_JOURNAL_HEAD) {
		uint64_t n = le64(data + 32);

		d.nfiles = n >= 1 && n <= MAX_FILES ? (unsigned)n : 1;
		/* A dataset's files are whole 4 KiB (atio_dataset_file_size()). */
		d.file_size = le64(data + 40) / 4096 * 4096;
	}
	load(data, size, &d);
	if (size < ATIO_JOURNAL_HEAD + REC)
		return 0;
	copy = malloc(size);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	sign(copy, size);
	load(copy, size, &d);
	free(copy);
	return 0;
}
