/* SPDX-License-Identifier: MIT */
#ifndef ATIO_META_OPTS_H
#define ATIO_META_OPTS_H

/*
 * The options of a metadata run (--meta): its phases in the order given,
 * the shape of the tree, and the phase whose figure is the result. A part
 * of struct atio_opts (atio/base/opts.h); parsing is src/cli/cli_meta.c's,
 * the run src/run/meta.c's and src/cmd/cmd_meta.c's.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum atio_meta_phase {
	ATIO_META_CREATE,          /* open(O_CREAT|O_EXCL), the data, close */
	ATIO_META_STAT,            /* stat() */
	ATIO_META_READ,            /* open, read whole, close */
	ATIO_META_RENAME,          /* rename() in its directory, and back the next time */
	ATIO_META_DELETE,          /* unlink(); the directories after */
	ATIO_META_KINDS,
};

#define ATIO_META_MAX_PHASES 16u
#define ATIO_META_MAX_FILES  (1ull << 32)   /* files a thread */
#define ATIO_META_MAX_DIRS   (1u << 20)     /* directories a tree */
#define ATIO_META_MAX_SIZE   (1ull << 30)   /* bytes a file */
#define ATIO_META_MAX_MEMBERS 4096u         /* --shared-by's N */

struct atio_meta_opts {
	unsigned nphases;          /* 0: no metadata run */
	enum atio_meta_phase phase[ATIO_META_MAX_PHASES];
	const char *phases_text;   /* --meta as given */
	uint64_t files;            /* --files: files a thread */
	uint64_t file_size;        /* --file-size: bytes each file holds */
	unsigned dirs;             /* --dirs: directories a tree */
	bool shared;               /* --shared-dir: one tree for all threads */
	unsigned member, members;  /* --shared-by I/N: member I of N processes sharing one tree; N 0 without */
	bool neighbour;            /* --neighbour: stat and read the next thread's files */
	const char *neighbour_dir; /* --neighbour-dir: stat and read the tree under it, or NULL */
	bool fsync_files;          /* --fsync-files */
	bool fsync_dir;            /* --fsync-dir */
	enum atio_meta_phase figure; /* --figure: the phase on the result line */
	bool figure_given;
};

/* "create", "stat", "read", "rename", "delete". */
const char *atio_meta_phase_name(enum atio_meta_phase p);

/* The phase named @name (@len bytes of it), or -1. */
int atio_meta_phase_parse(const char *name, size_t len);

/*
 * The phases of @text ("create,stat,delete") into @m->phase[] and
 * @m->nphases. Returns 0; -EINVAL with *@bad (and *@badlen) at the name
 * that is not a phase (or empty); -E2BIG when there are more than
 * ATIO_META_MAX_PHASES.
 */
int atio_meta_phases_parse(const char *text, struct atio_meta_opts *m, const char **bad,
			   size_t *badlen);

/* Whether @m has phase @p. */
bool atio_meta_has(const struct atio_meta_opts *m, enum atio_meta_phase p);

#endif
