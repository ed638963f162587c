/* SPDX-License-Identifier: MIT */
/*
 * atio sweep's words (sweep.h): the axes (NAME=LIST), --knee and --target
 * taken out, the rest the run's options; each point's command line is
 * those options and one value of every axis.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "atio/base/units.h"

static const struct {
	const char *name, *alias, *option;
} axis_names[] = {
	{ "iodepth", NULL, "--iodepth" },
	{ "p", "threads", "-p" },
	{ "s", "bs", "-s" },
	{ "mix", NULL, "--mix" },
	{ "u", NULL, "-u" },
	{ "rate", "cap", "--cap" },
};

#define NAXIS_NAMES (sizeof(axis_names) / sizeof(axis_names[0]))

/* The axis a NAME=LIST word names, or -1. */
static int axis_of(const char *word)
{
	const char *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word) : 0;

	for (size_t i = 0; eq && i < NAXIS_NAMES; i++)
		if ((strlen(axis_names[i].name) == len && !strncmp(word, axis_names[i].name, len)) ||
		    (axis_names[i].alias && strlen(axis_names[i].alias) == len &&
		     !strncmp(word, axis_names[i].alias, len)))
			return (int)i;
	return -1;
}

static int add_value(struct sweep_axis *ax, const char *v, size_t len, struct atio_error *e)
{
	if (ax->nvalues >= SWEEP_MAX_VALUES)
		return atio_error_set(e, ATIO_EXIT_USAGE, E2BIG, "%s=: more than %d values",
				      ax->name, SWEEP_MAX_VALUES);
	if (!len)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s=%s: an empty value", ax->name, ax->text);
	snprintf(ax->values[ax->nvalues++], sizeof(ax->values[0]), "%.*s", (int)len, v);
	return 0;
}

/* A range A-B: A, 2A, 4A ... up to B, and B itself when doubling misses it. */
static int add_range(struct sweep_axis *ax, const char *item, const char *dash,
		     struct atio_error *e)
{
	char lo_text[SWEEP_VALUE_LEN], num[32];
	uint64_t lo, hi;
	int ret = 0;

	snprintf(lo_text, sizeof(lo_text), "%.*s", (int)(dash - item), item);
	if (atio_parse_size(lo_text, &lo) || atio_parse_size(dash + 1, &hi) || lo == 0 ||
	    hi < lo)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s=%s: %s is not a range LOW-HIGH of numbers (sizes "
				      "with K, M, G), 0 < LOW <= HIGH", ax->name, ax->text, item);
	for (uint64_t v = lo; v <= hi && !ret; v = v > hi / 2 ? hi + 1 : v * 2) {
		snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
		ret = add_value(ax, num, strlen(num), e);
		/* The last doubling below HIGH: HIGH itself next, when doubling misses it. */
		if (!ret && v > hi / 2 && v != hi) {
			snprintf(num, sizeof(num), "%llu", (unsigned long long)hi);
			ret = add_value(ax, num, strlen(num), e);
		}
	}
	return ret;
}

/* NAME=LIST: values by commas, each a value or a range of powers of two. */
static int read_axis(struct sweep *sw, int which, const char *word, struct atio_error *e)
{
	struct sweep_axis *ax;
	const char *list = strchr(word, '=') + 1;
	int ret = 0;

	for (unsigned i = 0; i < sw->naxes; i++)
		if (sw->axes[i].option == axis_names[which].option)
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
					      "%s: the axis %s is given twice", word,
					      axis_names[which].name);
	if (sw->naxes >= SWEEP_MAX_AXES)
		return atio_error_set(e, ATIO_EXIT_USAGE, E2BIG, "%s: more than %d axes",
				      word, SWEEP_MAX_AXES);
	ax = &sw->axes[sw->naxes++];
	*ax = (struct sweep_axis){ .name = axis_names[which].name,
				   .option = axis_names[which].option, .text = list };
	if (!*list)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s: no values (e.g. %s=1,2,4 or %s=1-64)", word, ax->name,
				      ax->name);
	while (!ret) {
		const char *comma = strchr(list, ',');
		size_t len = comma ? (size_t)(comma - list) : strlen(list);
		char item[SWEEP_VALUE_LEN];
		const char *dash;

		if (len >= sizeof(item))
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s=: a value of "
					      "more than %zu characters", ax->name, sizeof(item) - 1);
		snprintf(item, sizeof(item), "%.*s", (int)len, list);
		dash = len > 1 ? strchr(item + 1, '-') : NULL;
		ret = dash ? add_range(ax, item, dash, e) : add_value(ax, item, len, e);
		if (!comma)
			break;
		list = comma + 1;
	}
	return ret;
}

/*
 * @opt pNN=TIME (--target, --stop-latency): a percentile and a latency
 * with its unit (ns, us, ms, s), into @pct and @ns.
 */
static int read_pct_time(const char *opt, const char *spec, double *pct, double *ns,
			 struct atio_error *e)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double p, lim;

	if (spec[0] != 'p')
		goto bad;
	p = strtod(spec + 1, &end);
	if (end == spec + 1 || *end != '=' || !(p > 0 && p <= 100))
		goto bad;
	lim = strtod(end + 1, &end);
	if (end == spec || !(lim > 0) || !isfinite(lim))
		goto bad;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*pct = p;
			*ns = lim * units[i].ns;
			return 0;
		}
bad:
	return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
			      "%s %s: not a percentile and a latency, e.g. p99=2ms "
			      "(p0 < N <= p100; units ns, us, ms, s)", opt, spec);
}

/* --curve's LIST: percentages of the maximum by commas, each 0 < P <= 100. */
static int read_curve(struct sweep *sw, const char *list, struct atio_error *e)
{
	const char *p = list;

	sw->ncurve = 0;
	for (;;) {
		char *end;
		double pct = strtod(p, &end);

		if (end == p || (*end && *end != ',') || !(pct > 0 && pct <= 100))
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
					      "--curve %s: %s percentages of the maximum by commas, "
					      "each more than 0 and at most 100 (e.g. %s)", list,
					      *list ? "not" : "an empty list: give",
					      SWEEP_CURVE_DEFAULT);
		if (sw->ncurve >= SWEEP_MAX_VALUES - 1)
			return atio_error_set(e, ATIO_EXIT_USAGE, E2BIG,
					      "--curve %s: more than %d steps", list,
					      SWEEP_MAX_VALUES - 1);
		sw->curve_pct[sw->ncurve++] = pct;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* The value of an option word at @i (--name VALUE or --name=VALUE); NULL when missing. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
	size_t len = strlen(name);

	if (!strncmp(argv[*i], name, len) && argv[*i][len] == '=')
		return argv[*i] + len + 1;
	if (!strcmp(argv[*i], name) && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

/*
 * What kind of sweep the words make: a grid needs an axis; a curve and a
 * search take none and make their own; options of one kind alone are
 * refused with the others.
 */
static int read_kind(struct sweep *sw, const char *curve_text, int search,
		     struct atio_error *e)
{
	if (curve_text && search >= 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "--curve and --search: one at a time (a curve caps one "
				      "load; a search finds the load)");
	if (sw->kind != SWEEP_GRID && sw->naxes)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "%s and %s=%s: %s makes its own points; leave the axes out",
				      curve_text ? "--curve" : "--search", sw->axes[0].name,
				      sw->axes[0].text, curve_text ? "--curve" : "--search");
	if (sw->kind == SWEEP_GRID && !sw->naxes)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "atio sweep: no axis: give one or more of iodepth=, p=, s=, "
				      "mix=, u=, rate= with a list (1,2,4) or a range (1-64), "
				      "or --curve, or --search");
	if (sw->stop_text && sw->kind != SWEEP_CURVE)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "--stop-latency %s: ends a curve: give --curve too",
				      sw->stop_text);
	if (sw->search_time_text && sw->kind != SWEEP_SEARCH)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
				      "--search-time %s: limits a search: give --search too",
				      sw->search_time_text);
	if (sw->kind == SWEEP_CURVE) {
		sw->axes[0] = (struct sweep_axis){ .name = "rate", .option = "--cap",
						   .text = curve_text };
		sw->naxes = 1;
	} else if (sw->kind == SWEEP_SEARCH) {
		sw->axes[0] = (struct sweep_axis){ .name = search ? "p" : "iodepth",
						   .option = search ? "-p" : "--iodepth",
						   .text = search ? "threads" : "depth" };
		sw->naxes = 1;
		if (!sw->search_ns)
			atio_parse_time(SWEEP_SEARCH_TIME_DEFAULT, &sw->search_ns);
	}
	return 0;
}

/* See sweep.h. */
int sweep_add_point(struct sweep *sw, const char *value)
{
	struct sweep_axis *ax = &sw->axes[0];

	if (ax->nvalues >= SWEEP_MAX_VALUES)
		return -E2BIG;
	snprintf(ax->values[ax->nvalues++], sizeof(ax->values[0]), "%s", value);
	sw->npoints = ax->nvalues;
	return 0;
}

/*
 * The sweep's own option that word @w names (its index in the table), or
 * -1: each is taken once, as the run's options are.
 */
static int sweep_option(const char *w)
{
	static const char *const names[] = { "--knee", "--target", "--curve", "--stop-latency",
					     "--arrivals", "--search-time", "--search" };

	for (int k = 0; k < (int)(sizeof(names) / sizeof(names[0])); k++) {
		size_t n = strlen(names[k]);

		if (!strncmp(w, names[k], n) && (w[n] == '=' || !w[n]))
			return k;
	}
	return -1;
}

/* Whether word @w is option @opt, alone or as --OPT=VALUE. */
static bool names_option(const char *w, const char *opt)
{
	size_t n = strlen(opt);

	return !strcmp(w, opt) || (opt[1] == '-' && !strncmp(w, opt, n) && w[n] == '=');
}

int sweep_read(struct sweep *sw, int argc, char **argv, struct atio_error *e)
{
	int ret = 0;

	const char *curve_text = NULL, *given[8] = { NULL };
	int arrivals = -1, narrivals = 0, search = -1;

	*sw = (struct sweep){ .knee_pct = 95, .prog = argv[0] };
	sw->base = calloc((size_t)argc + 1, sizeof(*sw->base));
	if (!sw->base)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	for (int i = 1; i < argc && !ret; i++) {
		const char *w = argv[i], *v;
		int which = axis_of(w), opt = sweep_option(w);

		if (opt >= 0 && given[opt]) {
			ret = atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: given twice (%s, then "
					     "%s): give it once", w, given[opt], w);
			break;
		}
		if (opt >= 0)
			given[opt] = w;
		if (which >= 0) {
			ret = read_axis(sw, which, w, e);
		} else if (!strncmp(w, "--knee", 6) && (w[6] == '=' || !w[6])) {
			char *end = NULL;

			v = option_value(argc, argv, &i, "--knee");
			if (v)
				sw->knee_pct = strtod(v, &end);
			if (!v || end == v || *end || !(sw->knee_pct > 0 && sw->knee_pct <= 100))
				ret = atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						     "--knee %s: a percentage of the peak, more "
						     "than 0 and at most 100", v ? v : "(none)");
		} else if (!strncmp(w, "--target", 8) && (w[8] == '=' || !w[8])) {
			v = option_value(argc, argv, &i, "--target");
			ret = v ? read_pct_time("--target", v, &sw->target_pct, &sw->target_ns, e)
				: atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						 "--target: needs a value, e.g. p99=2ms");
			sw->target_text = v;
		} else if (!strncmp(w, "--curve", 7) && (w[7] == '=' || !w[7])) {
			/* The list is optional: the next word when it is no option nor axis. */
			v = w[7] == '=' ? w + 8 : i + 1 < argc && argv[i + 1][0] != '-' &&
			    !strchr(argv[i + 1], '=') ? argv[++i] : SWEEP_CURVE_DEFAULT;
			ret = read_curve(sw, v, e);
			curve_text = v;
			sw->kind = SWEEP_CURVE;
		} else if (!strncmp(w, "--stop-latency", 14) && (w[14] == '=' || !w[14])) {
			v = option_value(argc, argv, &i, "--stop-latency");
			ret = v ? read_pct_time("--stop-latency", v, &sw->stop_pct, &sw->stop_ns, e)
				: atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						 "--stop-latency: needs a value, e.g. p99=5ms");
			sw->stop_text = v;
		} else if (!strncmp(w, "--arrivals", 10) && (w[10] == '=' || !w[10])) {
			/* The run judges the word; a curve gives it to its capped steps only. */
			arrivals = i;
			sw->arrivals = option_value(argc, argv, &i, "--arrivals");
			narrivals = i - arrivals + 1;
		} else if (!strncmp(w, "--search-time", 13) && (w[13] == '=' || !w[13])) {
			v = option_value(argc, argv, &i, "--search-time");
			sw->search_time_text = v ? v : "(none)";
			if (!v || atio_parse_time(v, &sw->search_ns) || !sw->search_ns)
				ret = atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						     "--search-time %s: a time more than 0, e.g. 10m "
						     "or 90s", v ? v : "(none)");
		} else if (!strncmp(w, "--search", 8) && (w[8] == '=' || !w[8])) {
			v = w[8] == '=' ? w + 9 : i + 1 < argc && argv[i + 1][0] != '-' &&
			    !strchr(argv[i + 1], '=') ? argv[++i] : "depth";
			if (!strcmp(v, "depth") || !strcmp(v, "iodepth"))
				search = 0;
			else if (!strcmp(v, "threads") || !strcmp(v, "p"))
				search = 1;
			else
				ret = atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						     "--search %s: depth or threads", v);
			sw->kind = SWEEP_SEARCH;
		} else {
			sw->base[sw->nbase++] = argv[i];
		}
	}
	if (!ret && sw->kind == SWEEP_CURVE && narrivals &&
	    (!sw->arrivals || (strcmp(sw->arrivals, "uniform") &&
			       strcmp(sw->arrivals, "exponential"))))
		ret = atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "--arrivals %s: uniform (a "
				     "fixed gap) or exponential (random gaps of that mean)",
				     sw->arrivals ? sw->arrivals : "(none)");
	if (!ret)
		ret = read_kind(sw, curve_text, search, e);
	/* --arrivals with a grid or a search: the run's own option, given to every point. */
	for (int k = 0; !ret && sw->kind != SWEEP_CURVE && k < narrivals; k++)
		sw->base[sw->nbase++] = argv[arrivals + k];
	/*
	 * An axis's option among the run's options: the point would give it
	 * twice (the cap under either of its names).
	 */
	for (unsigned a = 0; !ret && a < sw->naxes; a++)
		for (int i = 0; !ret && i < sw->nbase; i++)
			if (names_option(sw->base[i], sw->axes[a].option) ||
			    (!strcmp(sw->axes[a].option, "--cap") &&
			     names_option(sw->base[i], "--rate")))
				ret = atio_error_set(e, ATIO_EXIT_USAGE, EINVAL,
						     "%s: %s is swept (%s=%s): leave %s out of the "
						     "run's options", sw->base[i], sw->axes[a].option,
						     sw->axes[a].name, sw->axes[a].text,
						     sw->axes[a].option);
	sw->npoints = sw->kind == SWEEP_GRID;
	for (unsigned a = 0; !ret && sw->kind == SWEEP_GRID && a < sw->naxes; a++) {
		sw->npoints *= sw->axes[a].nvalues;
		if (sw->npoints > SWEEP_MAX_POINTS)
			ret = atio_error_set(e, ATIO_EXIT_USAGE, E2BIG,
					     "atio sweep: more than %d points", SWEEP_MAX_POINTS);
	}
	return ret;
}

/* See sweep.h. */
void sweep_point_values(const struct sweep *sw, unsigned point, const char **values)
{
	for (int a = (int)sw->naxes - 1; a >= 0; a--) {
		values[a] = sw->axes[a].values[point % sw->axes[a].nvalues];
		point /= sw->axes[a].nvalues;
	}
}

/* See sweep.h. */
int sweep_point_argv(const struct sweep *sw, unsigned point, char **argv)
{
	const char *values[SWEEP_MAX_AXES];
	int n = 0;

	sweep_point_values(sw, point, values);
	argv[n++] = (char *)sw->prog;
	for (int i = 0; i < sw->nbase; i++)
		argv[n++] = sw->base[i];
	for (unsigned a = 0; a < sw->naxes; a++) {
		/* A curve's first point, the maximum, runs uncapped. */
		if (!*values[a])
			continue;
		argv[n++] = (char *)sw->axes[a].option;
		argv[n++] = (char *)values[a];
	}
	if (sw->kind == SWEEP_CURVE && *values[0] && sw->arrivals) {
		argv[n++] = "--arrivals";
		argv[n++] = (char *)sw->arrivals;
	}
	argv[n] = NULL;
	return n;
}

/* See sweep.h. */
void sweep_point_name(const struct sweep *sw, unsigned point, char *buf, size_t len)
{
	const char *values[SWEEP_MAX_AXES];
	size_t used = 0;

	sweep_point_values(sw, point, values);
	buf[0] = '\0';
	if (sw->kind == SWEEP_CURVE && !*values[0]) {
		snprintf(buf, len, "maximum (uncapped)");
		return;
	}
	for (unsigned a = 0; a < sw->naxes && used < len; a++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s", a ? " " : "",
					 sw->axes[a].option, values[a]);
}

void sweep_free(struct sweep *sw)
{
	free(sw->base);
	sw->base = NULL;
}
