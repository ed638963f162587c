/* SPDX-License-Identifier: MIT */
/*
 * A plan's words (plan.h): the command line cut at --and and --then, or
 * --jobs' file cut into lines and words, each job parsed as a command
 * line of its own. What only one run of the process can have (output,
 * the start instant, a command other than a run) belongs to the first
 * job and is refused in the others, rather than taken from one of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plan.h"
#include "atio/cli/cli.h"
#include "atio/stats/steady.h"

#define JOBS_FILE_MAX (1u << 20)

bool plan_wanted(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--and") || !strcmp(argv[i], "--then") ||
		    !strcmp(argv[i], "--jobs") || !strncmp(argv[i], "--jobs=", 7))
			return true;
	return false;
}

static struct plan_phase *add_phase(struct plan *p, struct atio_error *e)
{
	struct plan_phase *ph;

	if (p->nphases >= PLAN_MAX_PHASES) {
		atio_error_set(e, ATIO_EXIT_USAGE, E2BIG, "more than %u phases", PLAN_MAX_PHASES);
		return NULL;
	}
	ph = realloc(p->phases, (p->nphases + 1) * sizeof(*ph));
	if (!ph) {
		atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
		return NULL;
	}
	p->phases = ph;
	ph = &p->phases[p->nphases++];
	*ph = (struct plan_phase){ 0 };
	return ph;
}

/* A job of @words (argv[0] first), where @where names it in messages. */
static int add_job(struct plan *p, char **words, int n, const char *where,
		   struct atio_error *e)
{
	struct plan_phase *ph = &p->phases[p->nphases - 1];
	struct plan_job *jb;

	if (n <= 1)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: no options: a job is a whole atio command line "
				      "(--and and --then go between jobs, never at an end, "
				      "and never two in a row)", where);
	if (ph->njobs >= PLAN_MAX_JOBS)
		return atio_error_set(e, ATIO_EXIT_USAGE, E2BIG,
				      "%s: more than %u jobs in one run", where, PLAN_MAX_JOBS);
	jb = realloc(ph->jobs, (ph->njobs + 1) * sizeof(*jb));
	if (!jb)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	ph->jobs = jb;
	jb = &ph->jobs[ph->njobs++];
	*jb = (struct plan_job){ .argc = n };
	jb->argv = malloc((size_t)(n + 1) * sizeof(*jb->argv));
	if (!jb->argv)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	memcpy(jb->argv, words, (size_t)n * sizeof(*words));
	jb->argv[n] = NULL;
	snprintf(jb->where, sizeof(jb->where), "%s", where);
	return 0;
}

/* The command line cut at --and and --then; words[0] is argv[0] for each job. */
static int cut_argv(struct plan *p, int argc, char **argv, struct atio_error *e)
{
	char **words = malloc((size_t)(argc + 1) * sizeof(*words));
	char where[64];
	int n = 1, ret = 0;

	if (!words)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	words[0] = argv[0];
	if (!add_phase(p, e)) {
		free(words);
		return -EINVAL;
	}
	for (int i = 1; i <= argc && !ret; i++) {
		bool end = i == argc, and = !end && !strcmp(argv[i], "--and");
		bool then = !end && !strcmp(argv[i], "--then");

		if (!end && !and && !then) {
			words[n++] = argv[i];
			continue;
		}
		snprintf(where, sizeof(where), "job %u of phase %u",
			 p->phases[p->nphases - 1].njobs + 1, p->nphases);
		ret = add_job(p, words, n, where, e);
		n = 1;
		if (!ret && then && !add_phase(p, e))
			ret = -EINVAL;
	}
	free(words);
	return ret;
}

/*
 * One line of --jobs' file cut into words in place: blanks between words,
 * '...' and "..." quote (no escapes inside single quotes), a backslash
 * takes the next character as it is, '#' at a word's start begins a
 * comment. Returns the number of words, or -1 for an unclosed quote.
 */
static int split_line(char *s, char **words, int max)
{
	int n = 0;

	for (;;) {
		char *out;
		char quote = 0;

		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s || *s == '#')
			return n;
		if (n >= max)
			return -2;
		words[n++] = out = s;
		for (; *s; s++) {
			if (quote && *s == quote) {
				quote = 0;
			} else if (!quote && (*s == '\'' || *s == '"')) {
				quote = *s;
			} else if (!quote && (*s == ' ' || *s == '\t' || *s == '\r')) {
				break;
			} else if (*s == '\\' && quote != '\'' && s[1]) {
				*out++ = *++s;
			} else {
				*out++ = *s;
			}
		}
		if (quote)
			return -1;
		if (*s)
			s++;
		*out = '\0';
	}
}

static int read_text(const char *path, char **text, struct atio_error *e)
{
	/* Not blocking: a FIFO is refused below, not waited for. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	size_t len = 0;
	char *buf;

	if (fd < 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "--jobs %s: %s", path,
				      strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > JOBS_FILE_MAX) {
		close(fd);
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "--jobs %s: not a regular file of at most %u bytes",
				      path, JOBS_FILE_MAX);
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && len < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + len, (size_t)st.st_size - len);

		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (!buf)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	buf[len] = '\0';
	if (strlen(buf) != len) {
		free(buf);
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "--jobs %s: holds a NUL byte: not a text file", path);
	}
	*text = buf;
	return 0;
}

/* --jobs FILE: a job per line, "--then" alone on a line between phases. */
static int read_file(struct plan *p, const char *prog, const char *path,
		     struct atio_error *e)
{
	enum { MAX_WORDS = 256 };
	char *words[MAX_WORDS + 1], *line, *next, where[64];
	unsigned lineno = 0;
	int ret;

	if ((ret = read_text(path, &p->text, e)) != 0)
		return ret;
	if (!add_phase(p, e))
		return -EINVAL;
	for (line = p->text; line && !ret; line = next) {
		int n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		snprintf(where, sizeof(where), "--jobs %.40s:%u", path, lineno);
		n = split_line(line, words + 1, MAX_WORDS);
		if (n == -1)
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
					      "%s: a quote is not closed", where);
		if (n < 0)
			return atio_error_set(e, ATIO_EXIT_USAGE, E2BIG,
					      "%s: more than %d words", where, MAX_WORDS);
		if (n == 0)
			continue;
		if (n == 1 && !strcmp(words[1], "--then")) {
			if (p->phases[p->nphases - 1].njobs == 0)
				return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						      "%s: --then with no job before it", where);
			if (!add_phase(p, e))
				return -EINVAL;
			continue;
		}
		for (int i = 1; i <= n; i++)
			if (!strcmp(words[i], "--and") || !strcmp(words[i], "--then") ||
			    !strcmp(words[i], "--jobs") || !strncmp(words[i], "--jobs=", 7))
				return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						      "%s: %s: in a jobs file each line is one "
						      "job, and a line of its own --then starts "
						      "the next phase", where, words[i]);
		words[0] = (char *)prog;
		ret = add_job(p, words, n + 1, where, e);
	}
	if (!ret && p->phases[p->nphases - 1].njobs == 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, p->nphases > 1
				      ? "--jobs %s: --then with no job after it"
				      : "--jobs %s: no job in the file", path);
	return ret;
}

/*
 * What -f names, to tell two spellings of one apart: a directory or a
 * device by itself, a file-name prefix by its directory and last name.
 */
struct target_id {
	dev_t dev;
	ino_t ino;
	dev_t rdev;
	const char *name;          /* a prefix's last name, else "" */
};

static bool target_id(const char *path, struct target_id *id)
{
	char dir[4096];
	const char *slash;
	struct stat st;

	if (stat(path, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode))) {
		*id = (struct target_id){ st.st_dev, st.st_ino,
					  S_ISBLK(st.st_mode) ? st.st_rdev : 0, "" };
		return true;
	}
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + 1 : 1,
		 slash ? path : ".");
	if (stat(dir, &st) != 0)
		return false;
	*id = (struct target_id){ st.st_dev, st.st_ino, 0, slash ? slash + 1 : path };
	return true;
}

/* Whether -f @a and -f @b name one target (also by other spellings, links among them). */
static bool same_target(const char *a, const char *b)
{
	struct target_id x, y;

	if (!strcmp(a, b))
		return true;
	if (!target_id(a, &x) || !target_id(b, &y))
		return false;
	if (x.rdev || y.rdev)
		return x.rdev == y.rdev;
	return x.dev == y.dev && x.ino == y.ino && !strcmp(x.name, y.name);
}

/*
 * Options only the first job of the plan may give: they belong to the
 * process (the output's form, the start instant) or make it no run at all.
 */
static int judge_job(const struct plan_job *jb, bool first, const struct plan_phase *ph,
		     struct atio_error *e)
{
	const struct atio_opts *o = &jb->o;
	const char *what = o->settings_only ? "-a" : o->check ? "--check"
		: o->prepare ? "--prepare" : NULL;

	if (what)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: %s: a plan of jobs and phases runs tests; run %s "
				      "on its own", jb->where, what, what);
	if (!first && (o->json || o->csv || o->start_at_ns || o->start_at_stdin))
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: %s: the output's form and the start instant are "
				      "the plan's, given once, in the first job", jb->where,
				      o->json ? "--json" : o->csv ? "--csv" : "--start-at");
	/*
	 * A warm-up inside a run of several jobs would be I/O in the run's time
	 * that no figure counts: --delay starts a job late instead.
	 */
	if (ph->njobs > 1 && o->warmup_ns)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: -w: a run of several jobs counts every job's I/O "
				      "over its time, and a warm-up's is counted nowhere: "
				      "leave -w out (--delay starts a job later)", jb->where);
	/*
	 * --steady: a phase's run warms up until its one job is steady; the
	 * jobs of one run would each end their rounds apart. --precondition is
	 * a run of its own: a phase before, as the plan's first.
	 */
	if (ph->njobs > 1 && o->steady)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: --steady %s: each job of a run would be steady at its "
				      "own round, and the run has one measured start: give "
				      "--steady in a phase of one job (--then)", jb->where,
				      atio_steady_name(o->steady));
	if (o->precondition)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: --precondition: not in a plan; make its first phase "
				      "the same writes: --write --seq -s 128K --loops 2 ... --then",
				      jb->where);
	/* Two jobs of one run on one dataset would lock each other out, or count it twice. */
	for (const struct plan_job *other = ph->jobs; other < jb; other++)
		if (o->path && other->o.path && same_target(o->path, other->o.path))
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
					      "%s: -f %s: %s uses it too (-f %s): the jobs of "
					      "one run each need their own -f", jb->where, o->path,
					      other->where, other->o.path);
	return 0;
}

int plan_read(struct plan *p, int argc, char **argv, struct atio_error *e)
{
	const char *file = NULL;
	int ret;

	*p = (struct plan){ 0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--jobs") && strncmp(a, "--jobs=", 7))
			continue;
		file = a[6] == '=' ? a + 7 : i + 1 < argc ? argv[i + 1] : NULL;
		if (!file || !*file)
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
					      "--jobs: needs a value (a file of jobs, one per line)");
		if (argc != (a[6] == '=' ? 2 : 3))
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
					      "--jobs %s: the jobs are all in the file: give "
					      "--jobs alone", file);
	}
	ret = file ? read_file(p, argv[0], file, e) : cut_argv(p, argc, argv, e);
	for (unsigned k = 0; !ret && k < p->nphases; k++) {
		struct plan_phase *ph = &p->phases[k];

		for (unsigned j = 0; !ret && j < ph->njobs; j++) {
			struct plan_job *jb = &ph->jobs[j];
			struct atio_error pe = { 0 };
			int act = atio_cli_parse(jb->argc, jb->argv, &jb->o, &pe);

			if (act < 0)
				return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: %s",
						      jb->where, pe.msg);
			if (act != ATIO_CLI_RUN)
				return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						      "%s: --help and --version go alone",
						      jb->where);
			if (jb->o.meta.nphases)
				return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: --meta: a "
						      "metadata run has phases of its own: it "
						      "goes alone, not in a plan", jb->where);
			ret = judge_job(jb, k == 0 && j == 0, ph, e);
		}
	}
	return ret;
}

void plan_free(struct plan *p)
{
	for (unsigned k = 0; k < p->nphases; k++) {
		for (unsigned j = 0; j < p->phases[k].njobs; j++)
			free(p->phases[k].jobs[j].argv);
		free(p->phases[k].jobs);
	}
	free(p->phases);
	free(p->text);
	*p = (struct plan){ 0 };
}
