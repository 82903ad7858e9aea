// SPDX-License-Identifier: GPL-2.0
/*
 * monitor_config.c - neuron-monitor's JSON configuration file (the
 * -c FILE of "neuronsim monitor"): the root "period", "neuron_runtimes"
 * (per entry a "tag_filter" regular expression, a "period" and its
 * "metrics") and "system_metrics", each metric group an object with a
 * "type" and an optional "period".  A key this file does not know, a
 * value of the wrong type, a period that is not one, an unknown group
 * or a regular expression regcomp() refuses is an error naming the key
 * and its value.  Documentation/userspace.rst, "monitor".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_report.h"

/* the shortest and longest period, seconds (as --period) */
#define MR_PERIOD_MIN	0.01
#define MR_PERIOD_MAX	86400.0

/* a unit is @mul / @div seconds */
static const struct {
	const char *unit;
	double mul, div;
} units[] = {
	{ "ns", 1, 1e9 }, { "us", 1, 1e6 }, { "\xc2\xb5s", 1, 1e6 },
	{ "ms", 1, 1e3 }, { "s", 1, 1 }, { "m", 60, 1 }, { "h", 3600, 1 },
};

/* one or more NUMBER UNIT terms ("1m30s"), as neuron-monitor's periods */
static int parse_duration(const char *s, double *out)
{
	double total = 0;

	if (!*s)
		return -EINVAL;
	while (*s) {
		size_t i, best = 0, blen = 0;
		char *end;
		double v;

		if (*s == '-' || *s == '+')
			return -EINVAL;
		v = strtod(s, &end);
		if (end == s || !(v >= 0))
			return -EINVAL;
		s = end;
		/* the longest unit that matches: "ms" before "m" */
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t l = strlen(units[i].unit);

			if (!strncmp(s, units[i].unit, l) && l > blen) {
				best = i;
				blen = l;
			}
		}
		if (!blen)
			return -EINVAL;
		total += v * units[best].mul / units[best].div;
		s += blen;
	}
	*out = total;
	return 0;
}

int mr_parse_period(const char *s, double *out)
{
	char *end;
	double v;

	if (!s)
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || *end) {
		if (parse_duration(s, &v))
			return -EINVAL;
	}
	if (!(v >= MR_PERIOD_MIN && v <= MR_PERIOD_MAX))
		return -EINVAL;
	*out = v;
	return 0;
}

double mr_config_period(const struct mr_config *c, const struct mr_rule *rule,
			enum mr_group g)
{
	const struct mr_metric *m = rule ? (g < MR_RUNTIME_GROUPS ? &rule->m[g] : NULL) :
				    (g < MR_NGROUPS ? &c->sys[g] : NULL);

	if (m && m->period > 0)
		return m->period;
	if (rule && rule->period > 0)
		return rule->period;
	return c->period > 0 ? c->period : MR_DEFAULT_PERIOD;
}

void mr_config_free(struct mr_config *c)
{
	size_t i;

	for (i = 0; i < c->nrules; i++) {
		if (c->rules[i].tag_filter)
			regfree(&c->rules[i].re);
		free(c->rules[i].tag_filter);
	}
	free(c->rules);
	memset(c, 0, sizeof(*c));
}

int mr_config_default(struct mr_config *c, double period)
{
	size_t g;

	memset(c, 0, sizeof(*c));
	c->period = period;
	c->rules = calloc(1, sizeof(*c->rules));
	if (!c->rules)
		return -ENOMEM;
	c->nrules = 1;
	for (g = 0; g < MR_RUNTIME_GROUPS; g++)
		c->rules[0].m[g].on = true;
	for (g = MR_RUNTIME_GROUPS; g < MR_NGROUPS; g++)
		c->sys[g].on = true;
	return 0;
}

/* the key paths of messages: the root's, an entry's, a key of an entry's */
#define PATH0	64
#define PATH1	128
#define PATH2	192

/* the parser's place in the file, for messages */
struct cfg_ctx {
	char *err;
	size_t errlen;
};

/* "PATH: VALUE: WHY" */
static int bad(struct cfg_ctx *x, const char *path, json_t *v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int bad(struct cfg_ctx *x, const char *path, json_t *v, const char *fmt, ...)
{
	char *text = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
	size_t n;
	va_list ap;

	n = (size_t)snprintf(x->err, x->errlen, "%s: %s%.60s%s: ", path,
			     text ? "" : "(missing)", text ? text : "",
			     text && strlen(text) > 60 ? "..." : "");
	if (n < x->errlen) {
		va_start(ap, fmt);
		vsnprintf(x->err + n, x->errlen - n, fmt, ap);
		va_end(ap);
	}
	free(text);
	return -EINVAL;
}

/* every key of @o is one of @keys (NULL-terminated) */
static int known_keys(struct cfg_ctx *x, const char *path, json_t *o,
		      const char *const *keys)
{
	const char *k;
	json_t *v;

	json_object_foreach(o, k, v) {
		size_t i;
		char p[PATH2];

		for (i = 0; keys[i] && strcmp(keys[i], k); i++)
			;
		if (!keys[i]) {
			snprintf(p, sizeof(p), "%.*s%s%.50s", PATH1, path, *path ? "." : "", k);
			return bad(x, p, v, "unknown key");
		}
	}
	return 0;
}

static int get_period(struct cfg_ctx *x, const char *path, json_t *o, double *out)
{
	json_t *v = json_object_get(o, "period");
	char p[PATH2];

	*out = 0;
	if (!v)
		return 0;
	snprintf(p, sizeof(p), "%.*s%speriod", PATH1, path, *path ? "." : "");
	if (json_is_string(v) && !mr_parse_period(json_string_value(v), out))
		return 0;
	if (json_is_number(v) && json_number_value(v) >= MR_PERIOD_MIN &&
	    json_number_value(v) <= MR_PERIOD_MAX) {
		*out = json_number_value(v);
		return 0;
	}
	return bad(x, p, v, "not a period from 0.01 s to 86400 s (\"5s\", \"500ms\", \"1m\", \"1h\", or a number of seconds)");
}

/* one metric group object: its type among [lo, hi) and its period */
static int metric(struct cfg_ctx *x, const char *path, json_t *o,
		  enum mr_group lo, enum mr_group hi, struct mr_metric *m)
{
	static const char *const keys[] = { "type", "period", NULL };
	json_t *t = json_object_get(o, "type");
	char p[PATH2], list[256] = "";
	double period;
	int g, err;

	if (!json_is_object(o))
		return bad(x, path, o, "not an object");
	err = known_keys(x, path, o, keys);
	if (err)
		return err;
	snprintf(p, sizeof(p), "%.*s.type", PATH1, path);
	for (g = lo; g < (int)hi; g++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 g > (int)lo ? ", " : "", mr_group_name(g));
	if (!json_is_string(t))
		return bad(x, p, t, "not a metric group name (%s)", list);
	for (g = lo; g < (int)hi && strcmp(mr_group_name(g), json_string_value(t)); g++)
		;
	if (g == (int)hi)
		return bad(x, p, t, "not a metric group of %s (%s)",
			   lo ? "system_metrics" : "neuron_runtimes", list);
	err = get_period(x, path, o, &period);
	if (err)
		return err;
	m[g].on = true;
	m[g].period = period;
	return 0;
}

static int runtime_rule(struct cfg_ctx *x, const char *path, json_t *o,
			struct mr_rule *r)
{
	static const char *const keys[] = { "tag_filter", "metrics", "period", NULL };
	json_t *tf, *ms, *m;
	char p[PATH1];
	size_t i;
	int err;

	if (!json_is_object(o))
		return bad(x, path, o, "not an object");
	err = known_keys(x, path, o, keys);
	if (!err)
		err = get_period(x, path, o, &r->period);
	if (err)
		return err;
	tf = json_object_get(o, "tag_filter");
	if (tf) {
		char msg[128];

		snprintf(p, sizeof(p), "%.*s.tag_filter", PATH0, path);
		if (!json_is_string(tf))
			return bad(x, p, tf, "not a string");
		r->tag_filter = strdup(json_string_value(tf));
		if (!r->tag_filter)
			return bad(x, p, tf, "out of memory");
		err = regcomp(&r->re, r->tag_filter, REG_EXTENDED | REG_NOSUB);
		if (err) {
			regerror(err, &r->re, msg, sizeof(msg));
			free(r->tag_filter);
			r->tag_filter = NULL;
			return bad(x, p, tf, "not a regular expression: %s", msg);
		}
	}
	ms = json_object_get(o, "metrics");
	snprintf(p, sizeof(p), "%.*s.metrics", PATH0, path);
	if (ms && !json_is_array(ms))
		return bad(x, p, ms, "not an array");
	json_array_foreach(ms, i, m) {
		snprintf(p, sizeof(p), "%.*s.metrics[%zu]", PATH0, path, i);
		err = metric(x, p, m, 0, MR_RUNTIME_GROUPS, r->m);
		if (err)
			return err;
	}
	return 0;
}

int mr_config_parse(struct mr_config *c, const char *text, char *err,
		    size_t errlen)
{
	static const char *const keys[] = { "period", "neuron_runtimes",
					    "system_metrics", NULL };
	struct cfg_ctx x = { err, errlen };
	json_t *root, *rts, *sys, *v;
	json_error_t je;
	char p[PATH0];
	size_t i;
	int ret;

	memset(c, 0, sizeof(*c));
	root = json_loads(text, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		snprintf(err, errlen, "line %d, column %d: %s", je.line,
			 je.column, je.text);
		return -EINVAL;
	}
	if (!json_is_object(root)) {
		ret = bad(&x, "(top level)", root, "not an object");
		goto out;
	}
	ret = known_keys(&x, "", root, keys);
	if (!ret)
		ret = get_period(&x, "", root, &c->period);
	if (ret)
		goto out;
	rts = json_object_get(root, "neuron_runtimes");
	if (rts && !json_is_array(rts)) {
		ret = bad(&x, "neuron_runtimes", rts, "not an array");
		goto out;
	}
	if (json_array_size(rts)) {
		c->rules = calloc(json_array_size(rts), sizeof(*c->rules));
		if (!c->rules) {
			ret = bad(&x, "neuron_runtimes", NULL, "out of memory");
			goto out;
		}
	}
	json_array_foreach(rts, i, v) {
		snprintf(p, sizeof(p), "neuron_runtimes[%zu]", i);
		c->nrules++;
		ret = runtime_rule(&x, p, v, &c->rules[i]);
		if (ret)
			goto out;
	}
	sys = json_object_get(root, "system_metrics");
	if (sys && !json_is_array(sys)) {
		ret = bad(&x, "system_metrics", sys, "not an array");
		goto out;
	}
	json_array_foreach(sys, i, v) {
		snprintf(p, sizeof(p), "system_metrics[%zu]", i);
		ret = metric(&x, p, v, MR_RUNTIME_GROUPS, MR_NGROUPS, c->sys);
		if (ret)
			goto out;
	}
out:
	json_decref(root);
	if (ret)
		mr_config_free(c);
	return ret;
}
