/* SPDX-License-Identifier: MIT */
/*
 * atio --meta PHASES: a metadata run (atio/run/meta.h). Lock and look at
 * the tree under -f (atio/data/meta_tree.h): a tree a run left is removed
 * before a create, or reused by a run that begins with another phase;
 * then the threads go through the phases, each between two barriers, the
 * main thread keeping the tree's mark and dropping the caches between
 * them; then the result (atio/print/report_meta.h). With --start-at the
 * first phase waits for the instant; while a phase runs the main thread
 * watches the signals (a first one stops the threads at their next file:
 * the phases done and the cut one's figures so far are the result, exit
 * 130) and, with -vv, prints each interval every thread has closed.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "config.h"
#include "atio/base/clock.h"
#include "atio/base/node.h"
#include "atio/base/units.h"
#include "atio/data/meta_tree.h"
#include "atio/data/owner.h"
#include "atio/data/stamp.h"
#include "atio/data/target.h"
#include "atio/print/report_meta.h"
#include "atio/run/meta.h"
#include "start.h"

/* A file and its dentry and inode take about this much of the kernel's caches. */
#define CACHED_PER_FILE 1024u

struct meta_run {
	struct atio_opts *o;
	struct atio_meta_tree tree;
	struct atio_meta_shared sh;
	struct atio_meta_worker *w;
	struct atio_meta_rec *rec;
	struct atio_meta_result res;
	struct atio_target tg;
	struct watch wt;           /* the signals, and the threads' ends of a phase */
	char *neighbour_top;       /* --neighbour-dir's tree */
	char cache[256];
	bool drop;                 /* the caches are dropped between phases */
	unsigned started;          /* threads started */
	bool barriers;             /* the barriers are made: finish() is due */
	const struct atio_ival_series **ivs; /* [threads]: each thread's intervals, for -vv */
	size_t printed;            /* -vv: intervals of the phase printed */
};

/* The tree's shape as the mark says it, for @o. */
static struct atio_meta_mark mark_of(const struct atio_opts *o, uint64_t id)
{
	return (struct atio_meta_mark){ .id = id, .threads = o->threads,
		.files = o->meta.files, .dirs = o->meta.dirs, .file_size = o->meta.file_size,
		.shared = o->meta.shared, .members = o->meta.members, .seed = o->seed };
}

/*
 * --shared-by: the id of the members' tree, of the seed they all give, so
 * that each knows it whichever made it.
 */
static uint64_t member_tree_id(const struct atio_opts *o)
{
	return atio_stamp_fmix(o->seed ^ 0x6d656d6265727321ull) | 1;
}

/*
 * Whether the files of @member in the shared tree @top are at their
 * second names (1) or their first (0), by its first file; -1 when it has
 * none there (@path: the name looked for).
 */
static int member_renamed(const char *top, const struct atio_opts *o, unsigned member,
			  char *path, size_t len)
{
	char root[4096];
	struct stat st;

	atio_meta_root(root, sizeof(root), top, 0, true);
	for (int renamed = 0; renamed < 2; renamed++) {
		atio_meta_path(path, len, root, o, member * o->threads, 0, renamed);
		if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			return renamed;
	}
	atio_meta_path(path, len, root, o, member * o->threads, 0, false);
	return -1;
}

/*
 * --shared-by: the tree there is this run's (the other members'), or
 * another run's, refused and left as it is.
 */
static int judge_member_tree(struct meta_run *mr, struct atio_error *e)
{
	const struct atio_opts *o = mr->o;
	struct atio_meta_tree *t = &mr->tree;
	struct atio_meta_mark want = mark_of(o, member_tree_id(o)), *m = &t->mark;
	const char *first = atio_meta_phase_name(o->meta.phase[0]);
	char path[4096 + 64];

	if (t->exists && (m->id != want.id || m->threads != want.threads ||
			  m->files != want.files || m->dirs != want.dirs ||
			  m->file_size != want.file_size || m->members != want.members ||
			  m->seed != want.seed))
		return atio_meta_tree_other(t->top, m, &want, e);
	if (o->meta.phase[0] == ATIO_META_CREATE) {
		if (!t->exists)
			return 0;
		/* Its own files an earlier create of this member left go first, untimed. */
		return atio_meta_member_remove(t->top, o, e);
	}
	if (!t->exists)
		return atio_error_set(e, ATIO_EXIT_USAGE, ENOENT, "--meta %s: no tree at %s to "
				      "%s: begin with create, or run a create first", o->meta.phases_text,
				      t->top, first);
	/*
	 * The members go through their phases each at its own pace: the mark
	 * keeps no state of theirs, each finds its files by their names (and
	 * with --neighbour the next member's).
	 */
	for (unsigned i = 0; i < (o->meta.neighbour ? 2u : 1u); i++) {
		unsigned member = (o->meta.member + i) % o->meta.members;
		int renamed = member_renamed(t->top, o, member, path, sizeof(path));

		if (renamed < 0)
			return atio_error_set(e, ATIO_EXIT_USAGE, ENOENT, "--meta %s: the shared "
					      "tree at %s holds no files of member %u (no %s): "
					      "begin with create, or run a create first",
					      o->meta.phases_text, t->top, member, path);
		*(i ? &mr->sh.neighbour_renamed : &mr->sh.renamed) = renamed;
	}
	return 0;
}

/*
 * A tree that is there: removed when the run begins with create, else
 * reused when it holds every file, made with this run's shape.
 */
static int judge_tree(struct meta_run *mr, struct atio_error *e)
{
	const struct atio_opts *o = mr->o;
	struct atio_meta_tree *t = &mr->tree;
	struct atio_meta_mark want = mark_of(o, t->mark.id), *m = &t->mark;
	const char *first = atio_meta_phase_name(o->meta.phase[0]);

	if (o->meta.members)
		return judge_member_tree(mr, e);
	if (o->meta.phase[0] == ATIO_META_CREATE) {
		if (!t->exists)
			return 0;
		say("%s: removing the tree a run left (%s)", t->top, atio_meta_state_name(m->state));
		return atio_meta_tree_remove(t, e);
	}
	if (!t->exists)
		return atio_error_set(e, ATIO_EXIT_USAGE, ENOENT, "--meta %s: no tree at %s to "
				      "%s: begin with create, or run a create first", o->meta.phases_text,
				      t->top, first);
	if (m->state != ATIO_META_FILES && m->state != ATIO_META_RENAMED)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "--meta %s: the tree at %s "
				      "holds %s: a run was cut or removed its files; begin with "
				      "create (which removes it first), or remove it with "
				      "--meta create,delete", o->meta.phases_text, t->top,
				      m->state == ATIO_META_EMPTY ? "no files" : "part of its files");
	if (m->threads != want.threads || m->files != want.files || m->dirs != want.dirs ||
	    m->file_size != want.file_size || m->shared != want.shared ||
	    m->members != want.members)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "--meta %s: the tree at %s was "
				      "made with -p %u --files %" PRIu64 " --dirs %u --file-size %"
				      PRIu64 "%s: give the same to %s its files", o->meta.phases_text,
				      t->top, m->threads, m->files, m->dirs, m->file_size,
				      m->members ? " --shared-by (a tree several atio share)" :
				      m->shared ? " --shared-dir" : "", first);
	mr->sh.renamed = m->state == ATIO_META_RENAMED;
	return 0;
}

/*
 * --neighbour-dir: the other tree holds every file, made with this run's
 * shape, and is not this run's own.
 */
static int judge_neighbour(struct meta_run *mr, struct atio_error *e)
{
	const struct atio_opts *o = mr->o;
	const char *dir = o->meta.neighbour_dir;
	struct atio_meta_mark m, want = mark_of(o, 0);
	int ret;

	if (!dir)
		return 0;
	if ((ret = atio_meta_tree_peek(dir, &m, e)))
		return ret;
	if (mr->tree.exists && m.id == mr->tree.mark.id)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "--neighbour-dir %s: the "
				      "tree of this run itself (-f %s): give another node's",
				      dir, o->path);
	if (m.state != ATIO_META_FILES && m.state != ATIO_META_RENAMED)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "--neighbour-dir %s: its tree "
				      "holds %s: nothing whole to stat and read", dir,
				      m.state == ATIO_META_EMPTY ? "no files" : "part of its files");
	if (m.threads != want.threads || m.files != want.files || m.dirs != want.dirs ||
	    m.file_size != want.file_size || m.shared != want.shared)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "--neighbour-dir %s: its tree "
				      "was made with -p %u --files %" PRIu64 " --dirs %u --file-size %"
				      PRIu64 "%s: give the same", dir, m.threads, m.files, m.dirs,
				      m.file_size, m.shared ? " --shared-dir" : "");
	if (asprintf(&mr->neighbour_top, "%s/%s", dir, ATIO_META_TREE) < 0) {
		mr->neighbour_top = NULL;
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	mr->sh.neighbour_top = mr->neighbour_top;
	mr->sh.neighbour_id = m.id;
	mr->sh.neighbour_renamed = m.state == ATIO_META_RENAMED;
	return 0;
}

/*
 * Whether the caches are dropped between phases (the first drop tried
 * now), in words for the header; and a warning when they are not and the
 * tree fits in them.
 */
static void plan_cache(struct meta_run *mr)
{
	const struct atio_opts *o = mr->o;
	uint64_t files = o->meta.files * o->threads, ram = atio_node_meminfo("MemTotal");
	uint64_t bytes = files * (CACHED_PER_FILE + (o->meta.file_size + 4095) / 4096 * 4096);
	char why[200];

	if (o->keep_cache) {
		snprintf(mr->cache, sizeof(mr->cache), "kept between phases (--keep-cache)");
	} else if (!mr->tree.exists && access("/proc/sys/vm/drop_caches", W_OK) != 0) {
		snprintf(mr->cache, sizeof(mr->cache), "not dropped: /proc/sys/vm/drop_caches: "
			 "%s (only root, outside a container, may drop the caches)", strerror(errno));
	} else if (!mr->tree.exists) {
		snprintf(mr->cache, sizeof(mr->cache), "the page, dentry and inode caches "
			 "dropped between phases (syncfs, drop_caches)");
		mr->drop = true;
	} else if (atio_meta_tree_drop(&mr->tree, why, sizeof(why)) == 0) {
		snprintf(mr->cache, sizeof(mr->cache), "the page, dentry and inode caches "
			 "dropped before and between phases (syncfs, drop_caches)");
		mr->drop = true;
	} else {
		snprintf(mr->cache, sizeof(mr->cache), "not dropped: %s", why);
	}
	if (!mr->drop && ram && bytes < ram / 2)
		say("warning: the tree (%" PRIu64 " files, about %.2f MiB with their inodes and "
		    "dentries) fits in the caches of the %.2f MiB of RAM, which are not dropped "
		    "between phases: stat and read may measure memory", files, atio_mib(bytes),
		    atio_mib(ram));
}

/* The threads, set up and started; they wait at the first barrier. */
static int start(struct meta_run *mr, struct atio_error *e)
{
	const struct atio_opts *o = mr->o;
	int err;

	mr->w = calloc(o->threads, sizeof(*mr->w));
	mr->rec = calloc(o->meta.nphases, sizeof(*mr->rec));
	mr->ivs = calloc(o->threads, sizeof(*mr->ivs));
	if (!mr->w || !mr->rec || !mr->ivs)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	for (unsigned i = 0; i < o->meta.nphases; i++) {
		mr->rec[i].phase = o->meta.phase[i];
		atio_hist_init(&mr->rec[i].lat);
		mr->rec[i].thread_ops = calloc(o->threads, sizeof(uint64_t));
		mr->rec[i].thread_ns = calloc(o->threads, sizeof(uint64_t));
		if (!mr->rec[i].thread_ops || !mr->rec[i].thread_ns)
			return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	for (unsigned i = 0; i < o->threads; i++) {
		if (atio_meta_worker_setup(&mr->w[i], &mr->sh, i)) {
			*e = mr->w[i].err;
			return -ENOMEM;
		}
		mr->ivs[i] = &mr->w[i].iv.s;
	}
	/* The barriers count the threads there are: they wait at the gate meanwhile. */
	pthread_mutex_lock(&mr->sh.gate);
	for (; mr->started < o->threads; mr->started++) {
		err = pthread_create(&mr->w[mr->started].thread, NULL, atio_meta_worker_main,
				     &mr->w[mr->started]);
		if (err)
			break;
	}
	pthread_barrier_init(&mr->sh.start, NULL, mr->started + 1);
	pthread_barrier_init(&mr->sh.end, NULL, mr->started + 1);
	mr->barriers = true;
	pthread_mutex_unlock(&mr->sh.gate);
	if (mr->started < o->threads)
		return atio_error_set(e, ATIO_EXIT_FAIL, err, "cannot start thread %u of %u: %s",
				      mr->started + 1, o->threads, strerror(err));
	return 0;
}

/* The threads told to return, and joined. */
static void finish(struct meta_run *mr)
{
	if (!mr->barriers)
		return;
	mr->sh.quit = true;
	pthread_barrier_wait(&mr->sh.start);
	for (unsigned i = 0; i < mr->started; i++)
		pthread_join(mr->w[i].thread, NULL);
	pthread_barrier_destroy(&mr->sh.start);
	pthread_barrier_destroy(&mr->sh.end);
	mr->barriers = false;
}

/* Before phase @p: its directories made for create, the mark saying a phase is on. */
static int before(struct meta_run *mr, enum atio_meta_phase p, struct atio_error *e)
{
	struct atio_meta_tree *t = &mr->tree;
	struct atio_meta_mark m = mark_of(mr->o, mr->sh.tree_id);

	if (p == ATIO_META_CREATE) {
		/* A pass after a rename makes its files at their first names again. */
		mr->sh.renamed = false;
		if (mr->o->meta.members ? atio_meta_tree_join(t, &m, e)
		    : atio_meta_tree_make(t, &m, e))
			return -EIO;
		if (atio_meta_dirs(t->top, mr->o, true, e))
			return -EIO;
	}
	/* A shared tree's members write no state: each is at its own phase. */
	return mr->o->meta.members ? 0 : atio_meta_tree_state(t, ATIO_META_PARTIAL, e);
}

/* After phase @p: the mark saying what the tree holds; after delete, the tree removed. */
static int after(struct meta_run *mr, enum atio_meta_phase p, struct atio_error *e)
{
	if (p == ATIO_META_DELETE)
		return mr->o->meta.members ? atio_meta_tree_prune(&mr->tree, mr->o->meta.dirs, e)
		       : atio_meta_tree_remove(&mr->tree, e);
	if (p == ATIO_META_RENAME)
		mr->sh.renamed = !mr->sh.renamed;
	if (mr->o->meta.members)
		return 0;
	return atio_meta_tree_state(&mr->tree, mr->sh.renamed ? ATIO_META_RENAMED
				    : ATIO_META_FILES, e);
}

/*
 * --start-at: the threads are set up and waiting; say so and read the
 * instant (--start-at -), then wait for it. A signal meanwhile: no phase.
 */
static int start_instant(struct meta_run *mr, struct atio_error *e)
{
	const struct atio_opts *o = mr->o;
	int64_t at = o->start_at_ns;
	uint64_t now;
	int ret;

	mr->wt.phase = "waiting for the start instant";
	if (o->start_at_stdin && (ret = read_start_at(&mr->wt, &at, e)))
		return ret;
	if (!at || mr->wt.signo)
		return 0;
	now = realtime_ns();
	if (now > (uint64_t)at)
		say("warning: --start-at passed %.3f s ago (clock skew, or set too close); "
		    "starting now", (double)(now - (uint64_t)at) / 1e9);
	wait_realtime(&mr->wt, (uint64_t)at);
	return 0;
}

/* -vv: a line on stderr for each interval every thread has closed, as a data run's. */
static void live(void *arg, unsigned sec)
{
	struct meta_run *mr = arg;
	size_t ready = SIZE_MAX;
	char line[512];

	(void)sec;
	for (unsigned i = 0; i < mr->o->threads; i++)
		if (atio_ival_rec_closed(&mr->w[i].iv) < ready)
			ready = atio_ival_rec_closed(&mr->w[i].iv);
	for (; mr->printed < ready; mr->printed++) {
		atio_ival_live_line(line, sizeof(line), mr->ivs, mr->o->threads, mr->printed);
		say("%s: %s", atio_meta_phase_name(mr->sh.phase), line);
	}
}

/* Every pass of every phase. Returns 0 or -errno with @e filled. */
static int phases(struct meta_run *mr, struct atio_error *e)
{
	const struct atio_opts *o = mr->o;
	uint64_t passes = o->loops ? o->loops : 1;
	char why[200];

	for (uint64_t l = 0; l < passes; l++) {
		for (unsigned i = 0; i < o->meta.nphases; i++) {
			enum atio_meta_phase p = o->meta.phase[i];
			bool last = l + 1 == passes && i + 1 == o->meta.nphases;

			/* A signal between phases: the next one does not begin. */
			take_signal(&mr->wt);
			if (mr->wt.signo) {
				if (!l)
					mr->res.nrec = i;
				return 0;
			}
			if (before(mr, p, e))
				return -EIO;
			mr->sh.phase = p;
			mr->wt.phase = atio_meta_phase_name(p);
			atio_meta_begin(mr->w, o->threads);
			mr->printed = 0;
			pthread_barrier_wait(&mr->sh.start);
			wait_threads(&mr->wt, mr->started, o->verbose >= 2 ? live : NULL, mr);
			if (o->verbose >= 2)
				live(mr, 0);
			pthread_barrier_wait(&mr->sh.end);
			atio_meta_gather(&mr->rec[i], mr->w, o->threads);
			for (unsigned t = 0; t < o->threads; t++)
				if (mr->w[t].failed) {
					*e = mr->w[t].err;
					/* stat and read change no file: the tree is as it was. */
					if (p == ATIO_META_STAT || p == ATIO_META_READ)
						after(mr, p, NULL);
					return -EIO;
				}
			if (mr->wt.signo) {
				/* Cut: the phase's figures so far; stat and read changed nothing. */
				mr->res.interrupted = &mr->rec[i];
				mr->res.nrec = i + 1;
				if (p == ATIO_META_STAT || p == ATIO_META_READ)
					after(mr, p, NULL);
				return 0;
			}
			if (after(mr, p, e))
				return -EIO;
			if (mr->drop && !last && mr->tree.exists &&
			    atio_meta_tree_drop(&mr->tree, why, sizeof(why)))
				say("warning: the caches could not be dropped after %s: %s",
				    atio_meta_phase_name(p), why);
		}
		mr->res.passes++;
	}
	return 0;
}

/* --remove: the tree, or with --shared-by this member's files in it (the last one's directories). */
static int remove_tree(struct meta_run *mr, struct atio_error *e)
{
	const struct atio_opts *o = mr->o;

	if (!o->meta.members)
		return atio_meta_tree_remove(&mr->tree, e);
	if (atio_meta_member_remove(mr->tree.top, o, e))
		return -EIO;
	return atio_meta_tree_prune(&mr->tree, o->meta.dirs, e);
}

static void free_run(struct meta_run *mr)
{
	for (unsigned i = 0; mr->w && i < mr->o->threads; i++)
		atio_meta_worker_teardown(&mr->w[i]);
	for (unsigned i = 0; mr->rec && i < mr->o->meta.nphases; i++) {
		free(mr->rec[i].thread_ops);
		free(mr->rec[i].thread_ns);
		if (mr->rec[i].timeline)
			atio_ival_series_free(mr->rec[i].timeline);
		free(mr->rec[i].timeline);
	}
	free(mr->ivs);
	free(mr->w);
	free(mr->rec);
	free(mr->neighbour_top);
	atio_meta_tree_close(&mr->tree);
	watch_close(&mr->wt);
}

/* See cmd.h. */
int meta_main(struct atio_opts *o)
{
	struct meta_run mr = { .o = o, .tree = { .lock = { .fd = -1 } },
			       .wt = { .sig_fd = -1, .done_fd = -1 } };
	struct atio_error e = { 0 };
	char top[4096];
	int status = ATIO_EXIT_OK, ret;

	/* Room for the longest name in the tree: t4095/d1048575/t4095.f4294967295. */
	if (o->path && strlen(o->path) + sizeof(ATIO_META_TREE) + 48 > sizeof(top)) {
		say("-f %.64s...: a path of %zu bytes leaves no room for the tree's names "
		    "(ENAMETOOLONG)", o->path, strlen(o->path));
		return ATIO_EXIT_USAGE;
	}
	snprintf(top, sizeof(top), "%s/%s", o->path ? o->path : ".", ATIO_META_TREE);
	if (!o->seed_given)
		o->seed = realtime_ns() ^ ((uint64_t)getpid() << 32);
	mr.res = (struct atio_meta_result){ .opts = o, .version = ATIO_VERSION, .tree = top,
					    .nrec = o->meta.nphases };
	if (o->path && atio_target_identify(&mr.tg, o->path, &e) == 0 && mr.tg.fstype[0])
		mr.res.fstype = mr.tg.fstype;
	if (o->settings_only) {
		mr.res.cache = o->keep_cache ? "kept between phases (--keep-cache)"
			: "dropped between phases where atio may (syncfs, drop_caches)";
		/* -a --json: the settings as the result's document has them, no phase run. */
		mr.res.nrec = 0;
		if (o->json)
			atio_report_meta_json(stdout, &mr.res);
		else
			atio_report_meta_header(stdout, &mr.res);
		return flush_stdout("the settings") ? ATIO_EXIT_FAIL : ATIO_EXIT_OK;
	}
	if (mr.tg.memory && !o->allow_memory_fs) {
		say("-f %s: a memory filesystem (%s): a metadata run there measures RAM; give "
		    "--allow-memory-fs to run anyway", o->path, mr.tg.fstype);
		return ATIO_EXIT_USAGE;
	}
	atio_clock_init();
	/* Before the threads: they inherit the blocked signals. */
	ret = watch_open(&mr.wt, &e);
	if (!ret)
		ret = atio_meta_tree_open(&mr.tree, o->path, o->meta.members != 0, &e);
	if (!ret)
		ret = judge_tree(&mr, &e);
	if (ret) {
		free_run(&mr);
		return fail(&e);
	}
	mr.sh = (struct atio_meta_shared){ .o = o, .top = mr.tree.top,
					   .tree_id = mr.tree.mark.id, .renamed = mr.sh.renamed,
					   .gate = PTHREAD_MUTEX_INITIALIZER, .done_fd = mr.wt.done_fd };
	mr.wt.stop = &mr.sh.stop;
	mr.wt.tick_ns = o->interval_ns;
	ret = judge_neighbour(&mr, &e);
	if (ret) {
		free_run(&mr);
		return fail(&e);
	}
	if (o->meta.members)
		mr.sh.tree_id = member_tree_id(o);
	else if (!mr.tree.exists && atio_owner_new_id(&mr.sh.tree_id))
		mr.sh.tree_id = realtime_ns() | 1;
	plan_cache(&mr);
	mr.res.cache = mr.cache;
	if (o->verbose && !o->json) {
		atio_report_meta_header(stdout, &mr.res);
		fflush(stdout);
	}
	ret = start(&mr, &e);
	if (!ret)
		ret = start_instant(&mr, &e);
	mr.res.wall_start = ns_to_ts(realtime_ns());
	if (!ret && mr.wt.signo)
		mr.res.nrec = 0;
	else if (!ret)
		ret = phases(&mr, &e);
	mr.res.signo = mr.wt.signo;
	if (ret)
		status = fail(&e);
	finish(&mr);
	mr.res.wall_end = ns_to_ts(realtime_ns());
	mr.res.rec = mr.rec;
	/* --remove: what is left of the tree goes, only names of its layout. */
	if (o->remove && mr.tree.exists && remove_tree(&mr, &e) && !status)
		status = fail(&e);
	if (!status && mr.wt.signo)
		status = ATIO_EXIT_INTERRUPTED;
	if (!status || status == ATIO_EXIT_INTERRUPTED) {
		if (o->json)
			atio_report_meta_json(stdout, &mr.res);
		else
			atio_report_meta_text(stdout, &mr.res);
	}
	free_run(&mr);
	if (flush_stdout("the results") && status == ATIO_EXIT_OK)
		status = ATIO_EXIT_FAIL;
	return status;
}
