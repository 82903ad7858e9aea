// SPDX-License-Identifier: GPL-2.0
/*
 * monitor_report.c - neuron-monitor's report from two samples of the
 * machine (monitor_report.h): per process holding NeuronCores its
 * runtime groups (neuroncore_counters, execution_stats, memory_used,
 * neuron_runtime_vcpu_usage), the system groups (neuron_hw_counters,
 * vcpu_usage, memory_info), instance_info and neuron_hardware_info; and
 * the schedule of groups that have periods of their own.  Which source
 * feeds which field: Documentation/userspace.rst, "monitor".
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_gen.h"
#include "monitor_report.h"

#define NS_PER_S	1000000000.0

static const char *const group_names[MR_NGROUPS] = {
	[MR_NEURONCORE_COUNTERS] = "neuroncore_counters",
	[MR_EXECUTION_STATS] = "execution_stats",
	[MR_MEMORY_USED] = "memory_used",
	[MR_RUNTIME_VCPU_USAGE] = "neuron_runtime_vcpu_usage",
	[MR_NEURON_HW_COUNTERS] = "neuron_hw_counters",
	[MR_VCPU_USAGE] = "vcpu_usage",
	[MR_MEMORY_INFO] = "memory_info",
};

const char *mr_group_name(enum mr_group g)
{
	return (unsigned int)g < MR_NGROUPS ? group_names[g] : "?";
}

/*
 * The one table from how an execution ended (EXEC_DONE's status; the
 * kernel's side of it is Documentation/sysfs.rst, "Load and execution
 * status") to neuron-monitor's execution_summary and error_summary keys.
 * The last row is every other status.  No execution is incorrect_input,
 * failed_to_queue or completed_with_num_err: an EXECUTE the kernel
 * refuses never starts and sends no EXEC_DONE, and nothing checks the
 * numbers an execution computes.
 */
static const struct {
	int err;
	const char *status;
	const char *error;
} status_map[] = {
	{ 0, "completed", NULL },
	{ ETIME, "timed_out", "runtime" },
	{ EDEADLK, "completed_with_err", "model" },
	{ EOPNOTSUPP, "completed_with_err", "model" },
	{ ERANGE, "completed_with_err", "model" },
	{ EIO, "completed_with_err", "hardware" },
	{ ENOMEM, "completed_with_err", "runtime" },
	{ EDQUOT, "completed_with_err", "runtime" },
	{ EINTR, "completed_with_err", "generic" },
	{ -1, "completed_with_err", "generic" },
};

static const char *const summary_keys[] = {
	"completed", "completed_with_err", "completed_with_num_err",
	"timed_out", "incorrect_input", "failed_to_queue",
};

static const char *const error_keys[] = {
	"generic", "numerical", "transient", "model", "runtime", "hardware",
};

static const unsigned int percentiles[] = { 0, 1, 25, 50, 75, 99, 100 };

/* the categories of neuron-monitor's neuroncore_memory_usage, in its order */
static const unsigned int nc_cats[] = {
	KBIN_MEMCAT_CONSTANTS, KBIN_MEMCAT_MODEL_CODE,
	KBIN_MEMCAT_MODEL_SHARED_SCRATCHPAD, KBIN_MEMCAT_RUNTIME_MEMORY,
	KBIN_MEMCAT_TENSORS,
};

/* ... and of a subgraph's usage_breakdown.neuron_device */
static const unsigned int sg_cats[] = {
	KBIN_MEMCAT_CONSTANTS, KBIN_MEMCAT_MODEL_CODE,
	KBIN_MEMCAT_RUNTIME_MEMORY, KBIN_MEMCAT_TENSORS,
};

static const char *const host_keys[] = {
	"application_memory", "constants", "dma_buffers", "tensors",
};

/* /proc/stat's columns, in its order, as neuron-monitor names them */
static const char *const cpu_keys[] = {
	"user", "nice", "system", "idle", "io_wait", "irq", "soft_irq",
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NCPU_COLS	8	/* user .. steal: the time of a CPU */

/* ---- samples */

struct mr_sample *mr_sample_new(void)
{
	struct mr_sample *s = calloc(1, sizeof(*s));

	if (s)
		s->refs = 1;
	return s;
}

struct mr_sample *mr_sample_get(struct mr_sample *s)
{
	if (s)
		s->refs++;
	return s;
}

void mr_sample_put(struct mr_sample *s)
{
	if (!s || --s->refs)
		return;
	free(s->proc_stat);
	free(s->meminfo);
	snap_free(&s->snap);
	free(s->procs);
	free(s->execs);
	free(s);
}

const struct mr_proc *mr_sample_proc(const struct mr_sample *s, __u32 pid)
{
	size_t i;

	for (i = 0; s && i < s->nprocs; i++)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	return NULL;
}

/* ---- small helpers */

static bool wanted(const struct mr_opts *o, const struct snap_dev *d)
{
	return o->dev_filter < 0 || d->d.device == (__u32)o->dev_filter;
}

static const struct snap_dev *find_dev(const struct mr_sample *s, __u32 device)
{
	size_t i;

	for (i = 0; s && s->snap_ok && i < s->snap.ndev; i++)
		if (s->snap.dev[i].d.device == device)
			return &s->snap.dev[i];
	return NULL;
}

static double seconds(const struct mr_sample *prev, const struct mr_sample *cur)
{
	return cur->t_ns > prev->t_ns ? (cur->t_ns - prev->t_ns) / NS_PER_S : 0;
}

/* a percentage as neuron-monitor prints CPU time: two decimals */
static json_t *pct2(double v)
{
	return json_real(round(v * 100) / 100);
}

static void set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v);
}

static void set_u64(json_t *o, const char *key, __u64 v)
{
	json_object_set_new(o, key, json_integer((json_int_t)v));
}

/* a new group object: its period (first) and error (collect() puts it last) */
static json_t *group_new(double period, const char *error)
{
	json_t *g = json_object();

	set(g, "period", json_real(period));
	set(g, "error", json_string(error ? error : ""));
	return g;
}

static void group_error(json_t *g, const char *error)
{
	set(g, "error", json_string(error));
}

/* ---- /proc parsers */

/* one cpu line: the name after "cpu" ("" for the sum) and 8 columns */
struct cpu_line {
	char name[16];
	__u64 v[NCPU_COLS];
};

/* the cpu lines of /proc/stat text and its ctxt; -1 when none */
static int parse_stat(const char *text, struct cpu_line **out, size_t *n,
		      __u64 *ctxt)
{
	const char *p = text;
	struct cpu_line *l = NULL;
	size_t cap = 0;

	*n = 0;
	*ctxt = 0;
	while (p && *p) {
		const char *eol = strchr(p, '\n');

		if (!strncmp(p, "cpu", 3)) {
			struct cpu_line c = { 0 };
			const char *q = p + 3;
			size_t k = 0;
			char *end;

			while (isdigit((unsigned char)*q) && k < sizeof(c.name) - 1)
				c.name[k++] = *q++;
			for (k = 0; k < NCPU_COLS; k++) {
				c.v[k] = strtoull(q, &end, 10);
				if (end == q)
					break;
				q = end;
			}
			if (*n == cap) {
				struct cpu_line *nl;

				cap = cap ? 2 * cap : 16;
				nl = realloc(l, cap * sizeof(*l));
				if (!nl) {
					free(l);
					return -1;
				}
				l = nl;
			}
			l[(*n)++] = c;
		} else if (!strncmp(p, "ctxt ", 5)) {
			*ctxt = strtoull(p + 5, NULL, 10);
		}
		p = eol ? eol + 1 : NULL;
	}
	*out = l;
	return *n ? 0 : -1;
}

static const struct cpu_line *find_cpu(const struct cpu_line *l, size_t n,
				       const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(l[i].name, name))
			return &l[i];
	return NULL;
}

/* the CPUs of /proc/stat text (its cpuN lines), 0 when unknown */
static unsigned int stat_ncpu(const char *text)
{
	struct cpu_line *l;
	unsigned int c = 0;
	__u64 ctxt;
	size_t n, i;

	if (!text || parse_stat(text, &l, &n, &ctxt))
		return 0;
	for (i = 0; i < n; i++)
		c += l[i].name[0] != '\0';
	free(l);
	return c;
}

/* one cpu's usage between two lines: percent of its time per column */
static json_t *cpu_usage(const struct cpu_line *a, const struct cpu_line *b)
{
	json_t *o = json_object();
	__u64 d[NCPU_COLS], total = 0;
	size_t k;

	for (k = 0; k < NCPU_COLS; k++) {
		d[k] = b->v[k] >= a->v[k] ? b->v[k] - a->v[k] : 0;
		total += d[k];
	}
	for (k = 0; k < ARRAY_SIZE(cpu_keys); k++)
		set(o, cpu_keys[k], pct2(total ? 100.0 * d[k] / total : 0));
	return o;
}

/* a "Key:   N kB" line of /proc/meminfo in bytes; false when absent */
static bool meminfo_bytes(const char *text, const char *key, __u64 *v)
{
	size_t len = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, len) && p[len] == ':') {
			*v = strtoull(p + len + 1, NULL, 10) * 1024;
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

/* ---- neuroncore_counters */

/* the NeuronCores a process holds in @s, as (device, core) pairs */
struct held {
	const struct snap_dev *dev;
	__u32 core;
};

static size_t held_cores(const struct mr_sample *s, const struct mr_opts *o,
			 __u32 pid, struct held *h, size_t cap)
{
	size_t n = 0, i;
	__u32 c;

	for (i = 0; s->snap_ok && i < s->snap.ndev; i++) {
		const struct snap_dev *d = &s->snap.dev[i];

		for (c = 0; wanted(o, d) && c < d->d.num_cores &&
		     c < NEURONSIM_MAX_CORES; c++)
			if (d->d.cores[c].owner_pid == pid && n < cap)
				h[n++] = (struct held){ d, c };
	}
	return n;
}

/* nanoseconds of [a0, a1) inside [b0, b1) */
static __u64 overlap(__u64 a0, __u64 a1, __u64 b0, __u64 b1)
{
	__u64 lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

/* an execution of @prev .. @cur's window */
static bool in_window(const struct mr_exec *x, const struct mr_sample *prev,
		      const struct mr_sample *cur)
{
	return x->end_ns > prev->t_ns && x->end_ns <= cur->t_ns;
}

static const char no_runs[] =
	"executions are not seen: EXEC_DONE events go to the netlink group 'runs', which needs CAP_SYS_ADMIN";
static const char lost_runs[] =
	"netlink events were lost (ENOBUFS): executions are undercounted";

/* the error of a group that counts executions, "" when none */
static const char *execs_error(const struct mr_sample *cur)
{
	return !cur->execs_known ? no_runs : cur->execs_lost ? lost_runs : "";
}

static json_t *neuroncore_counters(const struct mr_sample *prev,
				   const struct mr_sample *cur,
				   const struct mr_opts *o, __u32 pid)
{
	struct held h[NEURONSIM_MAX_DEVICES * NEURONSIM_MAX_CORES];
	double period = seconds(prev, cur);
	json_t *g = group_new(period, NULL), *in_use = json_object();
	size_t n, i, k;
	char key[16];

	n = held_cores(cur, o, pid, h, ARRAY_SIZE(h));
	for (i = 0; i < n; i++) {
		const struct snap_dev *pd = find_dev(prev, h[i].dev->d.device);
		__u32 global = h[i].dev->global_core0 + h[i].core;
		__u64 busy = 0, flops = 0, f1, f0;
		json_t *c = json_object();

		for (k = 0; cur->execs_known && k < cur->nexecs; k++) {
			const struct mr_exec *x = &cur->execs[k];
			__u64 start;

			if (!in_window(x, prev, cur) ||
			    x->device != h[i].dev->d.device ||
			    h[i].core < x->first_core ||
			    h[i].core >= x->first_core + x->num_cores)
				continue;
			start = x->end_ns > x->wall_ns ? x->end_ns - x->wall_ns : 0;
			busy += overlap(start, x->end_ns, prev->t_ns, cur->t_ns);
		}
		f1 = h[i].dev->core[h[i].core].flops;
		f0 = pd && h[i].core < pd->d.num_cores ? pd->core[h[i].core].flops : f1;
		if (period > 0 && f1 > f0)
			flops = (__u64)((f1 - f0) / period);
		set(c, "neuroncore_utilization",
		    json_real(period > 0 ? fmin(100.0, 100.0 * busy / NS_PER_S / period) : 0));
		set_u64(c, "flops", flops);
		snprintf(key, sizeof(key), "%u", global);
		set(in_use, key, c);
	}
	set(g, "neuroncores_in_use", in_use);
	group_error(g, execs_error(cur));
	return g;
}

/* ---- execution_stats */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double mr_percentile(const double *sorted, size_t n, unsigned int p)
{
	size_t rank;

	if (!n)
		return 0;
	if (!p)
		return sorted[0];
	rank = (p * n + 99) / 100;	/* ceil(p / 100 * n), exactly */
	return sorted[(rank > n ? n : rank) - 1];
}

/* the percentiles object of @n values, null when there are none */
static json_t *latency(double *v, size_t n)
{
	json_t *o;
	size_t i;
	char key[8];

	if (!n)
		return json_null();
	qsort(v, n, sizeof(*v), cmp_double);
	o = json_object();
	for (i = 0; i < ARRAY_SIZE(percentiles); i++) {
		snprintf(key, sizeof(key), "p%u", percentiles[i]);
		set(o, key, json_real(mr_percentile(v, n, percentiles[i])));
	}
	return o;
}

static void count(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	json_integer_set(v, json_integer_value(v) + 1);
}

static json_t *execution_stats(const struct mr_sample *prev,
			       const struct mr_sample *cur,
			       const struct mr_opts *o, __u32 pid)
{
	json_t *g = group_new(seconds(prev, cur), NULL);
	json_t *errs = json_object(), *sum = json_object(), *lat = json_object();
	double *total = NULL, *device = NULL;
	size_t i, k, n = 0;

	for (i = 0; i < ARRAY_SIZE(error_keys); i++)
		set_u64(errs, error_keys[i], 0);
	for (i = 0; i < ARRAY_SIZE(summary_keys); i++)
		set_u64(sum, summary_keys[i], 0);
	if (cur->execs_known && cur->nexecs) {
		total = malloc(cur->nexecs * sizeof(*total));
		device = malloc(cur->nexecs * sizeof(*device));
	}
	for (i = 0; total && device && i < cur->nexecs; i++) {
		const struct mr_exec *x = &cur->execs[i];

		if (x->pid != pid || !in_window(x, prev, cur) ||
		    (o->dev_filter >= 0 && x->device != (__u32)o->dev_filter))
			continue;
		for (k = 0; status_map[k].err >= 0 &&
		     status_map[k].err != (int)x->status; k++)
			;
		count(sum, status_map[k].status);
		if (status_map[k].error)
			count(errs, status_map[k].error);
		total[n] = x->wall_ns / NS_PER_S;
		device[n++] = x->virtual_ns / NS_PER_S;
	}
	set(g, "error_summary", errs);
	set(g, "execution_summary", sum);
	set(lat, "total_latency", latency(total, n));
	set(lat, "device_latency", latency(device, n));
	set(g, "latency_stats", lat);
	free(total);
	free(device);
	group_error(g, execs_error(cur));
	return g;
}

/* ---- memory_used */

static json_t *host_breakdown(__u64 application)
{
	json_t *o = json_object();
	size_t k;

	for (k = 0; k < ARRAY_SIZE(host_keys); k++)
		set_u64(o, host_keys[k], k ? 0 : application);
	return o;
}

/* a loaded model's subgraphs: each on its NeuronCore */
static json_t *model_subgraphs(const struct mr_sample *cur,
			       const struct neuronsim_nl_model *m)
{
	const struct snap_dev *d = find_dev(cur, m->device);
	json_t *sgs = json_object();
	char key[16];
	__u32 i;
	size_t k;

	for (i = 0; d && i < m->num_subgraphs; i++) {
		__u32 c = m->first_core + i;
		json_t *sg = json_object(), *mem = json_object();
		json_t *bd = json_object(), *dev = json_object();
		bool alone = c < d->d.num_cores && c < NEURONSIM_MAX_CORES &&
			     d->d.cores[c].num_models == 1;
		__u64 sum = 0;

		/* a NeuronCore of one model: its bytes are that subgraph's */
		for (k = 0; k < ARRAY_SIZE(sg_cats); k++) {
			__u64 v = alone ? d->core[c].mem[sg_cats[k]] : 0;

			set_u64(dev, kbin_mem_category_str(sg_cats[k]), v);
			sum += v;
		}
		set_u64(mem, "host", 0);
		set_u64(mem, "neuron_device", sum);
		set(bd, "host", host_breakdown(0));
		set(bd, "neuron_device", dev);
		set(mem, "usage_breakdown", bd);
		set(sg, "memory_used_bytes", mem);
		set_u64(sg, "neuroncore_index", d->global_core0 + c);
		set_u64(sg, "neuron_device_index", m->device);
		snprintf(key, sizeof(key), "sg_%02u", i);
		set(sgs, key, sg);
	}
	return sgs;
}

static json_t *memory_used(const struct mr_sample *prev,
			   const struct mr_sample *cur,
			   const struct mr_opts *o, __u32 pid)
{
	struct held h[NEURONSIM_MAX_DEVICES * NEURONSIM_MAX_CORES];
	json_t *g = group_new(seconds(prev, cur), NULL);
	json_t *used = json_object(), *bd = json_object(), *cores = json_object();
	json_t *models = json_array();
	const struct mr_proc *p = mr_sample_proc(cur, pid);
	__u64 device = 0, rss = p ? p->rss_bytes : 0;
	size_t n, i, k;
	char key[48];

	n = held_cores(cur, o, pid, h, ARRAY_SIZE(h));
	for (i = 0; i < n; i++) {
		const struct snap_core *sc = &h[i].dev->core[h[i].core];
		json_t *c = json_object();

		for (k = 0; k < ARRAY_SIZE(nc_cats); k++)
			set_u64(c, kbin_mem_category_str(nc_cats[k]), sc->mem[nc_cats[k]]);
		snprintf(key, sizeof(key), "%u", h[i].dev->global_core0 + h[i].core);
		set(cores, key, c);
		device += sc->used;
	}
	set_u64(used, "host", rss);
	set_u64(used, "neuron_device", device);
	set(bd, "host", host_breakdown(rss));
	set(bd, "neuroncore_memory_usage", cores);
	set(used, "usage_breakdown", bd);
	set(g, "neuron_runtime_used_bytes", used);
	for (i = 0; cur->snap_ok && i < cur->snap.nmodels; i++) {
		const struct neuronsim_nl_model *m = &cur->snap.models[i];
		const struct snap_dev *d = find_dev(cur, m->device);
		json_t *lm;

		if (m->owner_pid != pid || !d || !wanted(o, d))
			continue;
		lm = json_object();
		snprintf(key, sizeof(key), "neuronsim%u-model%u", m->device, m->model_id);
		set(lm, "name", json_string(key));
		/* "NSIM", then device, model and owner: unique while loaded */
		snprintf(key, sizeof(key), "4e53494d%08x%08x%08x", m->device,
			 m->model_id, m->owner_pid);
		set(lm, "uuid", json_string(key));
		set_u64(lm, "model_id", m->model_id);
		/* loaded is started: it may execute (neuron-monitor's sense) */
		set(lm, "is_running", json_true());
		set(lm, "subgraphs", model_subgraphs(cur, m));
		json_array_append_new(models, lm);
	}
	set(g, "loaded_models", models);
	/* every owner has an entry (take_sample()): its /proc may be gone */
	if (!p || !p->stat_ok)
		group_error(g, "the process is gone (/proc/PID is unreadable)");
	return g;
}

/* ---- neuron_runtime_vcpu_usage */

static json_t *runtime_vcpu(const struct mr_sample *prev,
			    const struct mr_sample *cur, const struct mr_opts *o,
			    __u32 pid)
{
	double period = seconds(prev, cur);
	json_t *g = group_new(period, NULL), *u = json_object();
	const struct mr_proc *a = mr_sample_proc(prev, pid);
	const struct mr_proc *b = mr_sample_proc(cur, pid);
	unsigned int ncpu = stat_ncpu(cur->proc_stat);
	/* a share of every vCPU's time: 0..100 */
	double ticks = period * o->clk_tck * (ncpu ? ncpu : 1);
	double user = 0, sys = 0;

	if (a && b && a->stat_ok && b->stat_ok && ticks > 0) {
		if (b->utime > a->utime)
			user = 100.0 * (b->utime - a->utime) / ticks;
		if (b->stime > a->stime)
			sys = 100.0 * (b->stime - a->stime) / ticks;
	}
	set(u, "user", pct2(fmin(user, 100)));
	set(u, "system", pct2(fmin(sys, 100)));
	set(g, "vcpu_usage", u);
	if (!b || !b->stat_ok)
		group_error(g, "/proc/PID/stat of the process is unreadable");
	return g;
}

/* ---- system groups */

static json_t *hw_counters(const struct mr_sample *prev,
			   const struct mr_sample *cur, const struct mr_opts *o)
{
	json_t *g = group_new(seconds(prev, cur), NULL), *devs = json_array();
	size_t i;

	for (i = 0; cur->snap_ok && i < cur->snap.ndev; i++) {
		const struct snap_dev *d = &cur->snap.dev[i];
		const struct snap_dev *p = find_dev(prev, d->d.device);
		json_t *e;

		if (!wanted(o, d))
			continue;
		e = json_object();
		set_u64(e, "neuron_device_index", d->d.device);
		/* the driver's tree has no corrected counters */
		set_u64(e, "mem_ecc_corrected", 0);
		set_u64(e, "mem_ecc_uncorrected", p && d->mem_ecc_uncorrected >
			p->mem_ecc_uncorrected ? d->mem_ecc_uncorrected -
			p->mem_ecc_uncorrected : 0);
		set_u64(e, "sram_ecc_corrected", 0);
		set_u64(e, "sram_ecc_uncorrected", p && d->sram_ecc_uncorrected >
			p->sram_ecc_uncorrected ? d->sram_ecc_uncorrected -
			p->sram_ecc_uncorrected : 0);
		json_array_append_new(devs, e);
	}
	set(g, "neuron_devices", devs);
	set(g, "error", json_string(cur->snap_ok ? "" : cur->snap_error));
	return g;
}

static json_t *vcpu_usage(const struct mr_sample *prev, const struct mr_sample *cur)
{
	json_t *g = group_new(seconds(prev, cur), NULL), *per = json_object();
	struct cpu_line *a = NULL, *b = NULL, zero = { 0 };
	const struct cpu_line *x = NULL, *y = NULL;
	size_t na = 0, nb = 0, i;
	__u64 ca = 0, cb = 0;

	if (prev->proc_stat && cur->proc_stat &&
	    !parse_stat(prev->proc_stat, &a, &na, &ca) &&
	    !parse_stat(cur->proc_stat, &b, &nb, &cb)) {
		x = find_cpu(a, na, "");
		y = find_cpu(b, nb, "");
	}
	set(g, "average_usage", x && y ? cpu_usage(x, y) : cpu_usage(&zero, &zero));
	for (i = 0; x && y && i < nb; i++) {
		const struct cpu_line *c = b[i].name[0] ? find_cpu(a, na, b[i].name) : NULL;

		if (c)
			set(per, b[i].name, cpu_usage(c, &b[i]));
	}
	set(g, "usage_data", per);
	set_u64(g, "context_switch_count", x && y && cb > ca ? cb - ca : 0);
	set(g, "error", json_string(x && y ? "" : "/proc/stat is unreadable or has no cpu line"));
	free(a);
	free(b);
	return g;
}

static json_t *memory_info(const struct mr_sample *prev, const struct mr_sample *cur)
{
	json_t *g = group_new(seconds(prev, cur), NULL);
	__u64 total = 0, avail = 0, swap = 0, sfree = 0;
	bool ok = cur->meminfo &&
		  meminfo_bytes(cur->meminfo, "MemTotal", &total) &&
		  meminfo_bytes(cur->meminfo, "MemAvailable", &avail) &&
		  meminfo_bytes(cur->meminfo, "SwapTotal", &swap) &&
		  meminfo_bytes(cur->meminfo, "SwapFree", &sfree);

	set_u64(g, "memory_total_bytes", ok ? total : 0);
	set_u64(g, "memory_used_bytes", ok && total > avail ? total - avail : 0);
	set_u64(g, "swap_total_bytes", ok ? swap : 0);
	set_u64(g, "swap_used_bytes", ok && swap > sfree ? swap - sfree : 0);
	set(g, "error", json_string(ok ? "" : "/proc/meminfo is unreadable"));
	return g;
}

static json_t *collect_group(enum mr_group g, const struct mr_sample *prev,
			     const struct mr_sample *cur, const struct mr_opts *o,
			     __u32 pid)
{
	switch (g) {
	case MR_NEURONCORE_COUNTERS:
		return neuroncore_counters(prev, cur, o, pid);
	case MR_EXECUTION_STATS:
		return execution_stats(prev, cur, o, pid);
	case MR_MEMORY_USED:
		return memory_used(prev, cur, o, pid);
	case MR_RUNTIME_VCPU_USAGE:
		return runtime_vcpu(prev, cur, o, pid);
	case MR_NEURON_HW_COUNTERS:
		return hw_counters(prev, cur, o);
	case MR_VCPU_USAGE:
		return vcpu_usage(prev, cur);
	case MR_MEMORY_INFO:
		return memory_info(prev, cur);
	default:
		return json_object();
	}
}

/* a group, its "error" last as neuron-monitor writes it */
static json_t *collect(enum mr_group g, const struct mr_sample *prev,
		       const struct mr_sample *cur, const struct mr_opts *o,
		       __u32 pid)
{
	json_t *grp = collect_group(g, prev, cur, o, pid);
	json_t *err = json_incref(json_object_get(grp, "error"));

	if (err) {
		json_object_del(grp, "error");
		json_object_set_new(grp, "error", err);
	}
	return grp;
}

/* ---- the always-present members */

json_t *mr_instance_info(const struct snap *s)
{
	struct nsim_instance in;

	nsim_instance_get(s, &in);
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:s}",
			 "instance_name", in.name,
			 "instance_id", in.id,
			 "instance_type", in.type,
			 "instance_availability_zone", in.availability_zone,
			 "instance_availability_zone_id", in.availability_zone_id,
			 "instance_region", in.region,
			 "ami_id", in.ami_id,
			 "subnet_id", in.subnet_id,
			 "error", "");
}

/*
 * neuron-monitor's neuron_device_version: the order Neuron devices came
 * in (inf1 v1, trn1 v2, inf2 v3, trn2 v4), by generation number; trn3's
 * v5 is assumed.
 */
static const char *device_version(__u32 gen)
{
	static const char *const v[] = { [1] = "v1", [2] = "v2", [3] = "v4", [4] = "v5" };

	return gen < ARRAY_SIZE(v) && v[gen] ? v[gen] : "";
}

static const struct snap_dev *first_dev(const struct mr_sample *s,
					const struct mr_opts *o)
{
	size_t i;

	for (i = 0; s->snap_ok && i < s->snap.ndev; i++)
		if (wanted(o, &s->snap.dev[i]))
			return &s->snap.dev[i];
	return NULL;
}

static json_t *hardware_info(const struct mr_sample *cur, const struct mr_opts *o)
{
	const struct snap_dev *d = first_dev(cur, o);
	const struct kbin_gen *kg = d ? kbin_gen_by_number(d->d.arch_gen) : NULL;
	json_t *h = json_object();
	char type[32] = "", ncv[16] = "";
	size_t i, ndev = 0;

	for (i = 0; cur->snap_ok && i < cur->snap.ndev; i++)
		ndev += wanted(o, &cur->snap.dev[i]);
	for (i = 0; kg && kg->device_name[i] && i < sizeof(type) - 1; i++)
		type[i] = tolower((unsigned char)kg->device_name[i]);
	if (d)	/* sysfs arch_type's NCv<gen> */
		snprintf(ncv, sizeof(ncv), "v%u", d->d.arch_gen);
	set(h, "neuron_device_type", json_string(type));
	set(h, "neuron_device_version", json_string(d ? device_version(d->d.arch_gen) : ""));
	set(h, "neuroncore_version", json_string(ncv));
	set_u64(h, "neuron_device_count", ndev);
	set_u64(h, "neuron_device_memory_size",
		d ? d->d.hbm_channel_size * d->d.num_hbm_channels : 0);
	set_u64(h, "neuroncore_per_device_count", d ? d->d.num_cores : 0);
	set_u64(h, "logical_neuroncore_config", 1);
	set(h, "error", json_string(cur->snap_ok ? "" : cur->snap_error));
	return h;
}

/* ---- runtimes */

/* the pids holding a NeuronCore of a wanted device, in increasing order */
static size_t runtime_pids(const struct mr_sample *s, const struct mr_opts *o,
			   __u32 *pids, size_t cap)
{
	size_t n = 0, i, k;
	__u32 c;

	for (i = 0; s->snap_ok && i < s->snap.ndev; i++) {
		const struct snap_dev *d = &s->snap.dev[i];

		for (c = 0; wanted(o, d) && c < d->d.num_cores &&
		     c < NEURONSIM_MAX_CORES; c++) {
			__u32 pid = d->d.cores[c].owner_pid;

			for (k = 0; pid && k < n && pids[k] != pid; k++)
				;
			if (pid && k == n && n < cap) {
				for (k = n++; k > 0 && pids[k - 1] > pid; k--)
					pids[k] = pids[k - 1];
				pids[k] = pid;
			}
		}
	}
	return n;
}

/* the runtime's address: the device node of its first NeuronCore */
static void runtime_address(const struct mr_sample *s, const struct mr_opts *o,
			    __u32 pid, char *buf, size_t len)
{
	struct held h[1];

	buf[0] = '\0';
	if (held_cores(s, o, pid, h, 1))
		snprintf(buf, len, "%s", h[0].dev->dev_path);
}

static void pid_tag(const struct mr_sample *s, __u32 pid, char *buf, size_t len)
{
	const struct mr_proc *p = mr_sample_proc(s, pid);

	if (p && p->tag[0])
		snprintf(buf, len, "%s", p->tag);
	else
		snprintf(buf, len, "%u", pid);
}

static const struct mr_rule *match_rule(const struct mr_config *c,
					const char *tag, size_t *idx)
{
	size_t i;

	for (i = 0; i < c->nrules; i++)
		if (!c->rules[i].tag_filter ||
		    !regexec(&c->rules[i].re, tag, 0, NULL, 0)) {
			*idx = i;
			return &c->rules[i];
		}
	return NULL;
}

/* ---- the schedule */

static __u64 period_ns(double s)
{
	return (__u64)llround(s * NS_PER_S);
}

int mr_state_init(struct mr_state *st, const struct mr_config *cfg,
		  const struct mr_opts *o, struct mr_sample *first,
		  __u64 first_due_ns)
{
	size_t r, g;

	memset(st, 0, sizeof(*st));
	st->cfg = cfg;
	st->opts = *o;
	if (cfg->nrules) {
		st->rt = calloc(cfg->nrules * MR_RUNTIME_GROUPS, sizeof(*st->rt));
		if (!st->rt)
			return -ENOMEM;
	}
	for (r = 0; r < cfg->nrules; r++)
		for (g = 0; g < MR_RUNTIME_GROUPS; g++) {
			struct mr_slot *sl = &st->rt[r * MR_RUNTIME_GROUPS + g];

			if (!cfg->rules[r].m[g].on)
				continue;
			sl->period = period_ns(mr_config_period(cfg, &cfg->rules[r], g));
			sl->prev = mr_sample_get(first);
			sl->due_ns = first_due_ns;
			sl->last = json_object();
		}
	for (g = MR_RUNTIME_GROUPS; g < MR_NGROUPS; g++) {
		if (!cfg->sys[g].on)
			continue;
		st->sys[g].period = period_ns(mr_config_period(cfg, NULL, g));
		st->sys[g].prev = mr_sample_get(first);
		st->sys[g].due_ns = first_due_ns;
	}
	if (mr_state_next_ns(st) == UINT64_MAX) {
		st->tick.period = period_ns(mr_config_period(cfg, NULL, MR_NGROUPS));
		st->tick.prev = mr_sample_get(first);
		st->tick.due_ns = first_due_ns;
	}
	return 0;
}

static void slot_free(struct mr_slot *sl)
{
	mr_sample_put(sl->prev);
	json_decref(sl->last);
	memset(sl, 0, sizeof(*sl));
}

void mr_state_free(struct mr_state *st)
{
	size_t i;

	for (i = 0; st->rt && i < st->cfg->nrules * MR_RUNTIME_GROUPS; i++)
		slot_free(&st->rt[i]);
	for (i = 0; i < MR_NGROUPS; i++)
		slot_free(&st->sys[i]);
	slot_free(&st->tick);
	free(st->rt);
	memset(st, 0, sizeof(*st));
}

/* a slot's tolerance: a group due within 1% of its period is due now */
static bool slot_due(const struct mr_slot *sl, __u64 now)
{
	return sl->prev && now + sl->period / 100 >= sl->due_ns;
}

/* the slot collected at @now: its next due time and previous sample */
static void slot_advance(struct mr_slot *sl, struct mr_sample *cur)
{
	sl->due_ns += sl->period;
	if (sl->due_ns <= cur->t_ns)
		sl->due_ns = cur->t_ns + sl->period;
	mr_sample_put(sl->prev);
	sl->prev = mr_sample_get(cur);
}

__u64 mr_state_next_ns(const struct mr_state *st)
{
	__u64 next = UINT64_MAX;
	size_t i;

	for (i = 0; st->rt && i < st->cfg->nrules * MR_RUNTIME_GROUPS; i++)
		if (st->rt[i].prev && st->rt[i].due_ns < next)
			next = st->rt[i].due_ns;
	for (i = 0; i < MR_NGROUPS; i++)
		if (st->sys[i].prev && st->sys[i].due_ns < next)
			next = st->sys[i].due_ns;
	if (st->tick.prev && st->tick.due_ns < next)
		next = st->tick.due_ns;
	return next;
}

__u64 mr_state_oldest_ns(const struct mr_state *st)
{
	__u64 old = UINT64_MAX;
	size_t i;

	for (i = 0; st->rt && i < st->cfg->nrules * MR_RUNTIME_GROUPS; i++)
		if (st->rt[i].prev && st->rt[i].prev->t_ns < old)
			old = st->rt[i].prev->t_ns;
	for (i = 0; i < MR_NGROUPS; i++)
		if (st->sys[i].prev && st->sys[i].prev->t_ns < old)
			old = st->sys[i].prev->t_ns;
	return old;
}

/* one neuron_runtime_data[] entry with the groups of rule @r */
static json_t *runtime_entry(struct mr_state *st, struct mr_sample *cur,
			     size_t r, __u32 pid, const char *tag,
			     const bool *due)
{
	json_t *e = json_object(), *rep = json_object();
	char key[16], addr[64];
	size_t g;

	snprintf(key, sizeof(key), "%u", pid);
	runtime_address(cur, &st->opts, pid, addr, sizeof(addr));
	set_u64(e, "pid", pid);
	set(e, "address", json_string(addr));
	set(e, "neuron_runtime_tag", json_text(tag));
	set(e, "error", json_string(""));
	for (g = 0; g < MR_RUNTIME_GROUPS; g++) {
		struct mr_slot *sl = &st->rt[r * MR_RUNTIME_GROUPS + g];
		json_t *v;

		if (!sl->prev)
			continue;
		v = json_object_get(sl->last, key);
		if (due[r * MR_RUNTIME_GROUPS + g] || !v) {
			v = collect(g, sl->prev, cur, &st->opts, pid);
			json_object_set_new(sl->last, key, v);
		}
		json_object_set(rep, mr_group_name(g), v);
	}
	set(e, "report", rep);
	return e;
}

json_t *mr_state_report(struct mr_state *st, struct mr_sample *cur)
{
	const struct mr_config *cfg = st->cfg;
	__u32 pids[NEURONSIM_MAX_DEVICES * NEURONSIM_MAX_CORES];
	size_t nslots = cfg->nrules * MR_RUNTIME_GROUPS, n, i, r;
	json_t *rep = json_object(), *rts = json_array(), *sys = json_object();
	bool *due = calloc(nslots ? nslots : 1, sizeof(*due));
	char tag[256];

	if (!rep || !rts || !sys || !due) {
		json_decref(rep);
		json_decref(rts);
		json_decref(sys);
		free(due);
		return NULL;
	}
	for (i = 0; i < nslots; i++) {
		due[i] = slot_due(&st->rt[i], cur->t_ns);
		/* what was said of runtimes that are gone is dropped */
		if (due[i])
			json_object_clear(st->rt[i].last);
	}
	n = runtime_pids(cur, &st->opts, pids, ARRAY_SIZE(pids));
	for (i = 0; i < n; i++) {
		pid_tag(cur, pids[i], tag, sizeof(tag));
		if (match_rule(cfg, tag, &r))
			json_array_append_new(rts, runtime_entry(st, cur, r, pids[i],
								 tag, due));
	}
	for (i = 0; i < nslots; i++)
		if (due[i])
			slot_advance(&st->rt[i], cur);
	for (i = MR_RUNTIME_GROUPS; i < MR_NGROUPS; i++) {
		struct mr_slot *sl = &st->sys[i];

		if (!sl->prev)
			continue;
		if (slot_due(sl, cur->t_ns) || !sl->last) {
			json_decref(sl->last);
			sl->last = collect(i, sl->prev, cur, &st->opts, 0);
			slot_advance(sl, cur);
		}
		json_object_set(sys, mr_group_name(i), sl->last);
	}
	if (st->tick.prev && slot_due(&st->tick, cur->t_ns))
		slot_advance(&st->tick, cur);
	set(rep, "neuron_runtime_data", rts);
	set(rep, "system_data", sys);
	set(rep, "instance_info", mr_instance_info(&cur->snap));
	set(rep, "neuron_hardware_info", hardware_info(cur, &st->opts));
	free(due);
	return rep;
}

json_t *mr_report(const struct mr_config *cfg, const struct mr_opts *o,
		  struct mr_sample *prev, struct mr_sample *cur)
{
	struct mr_state st;
	json_t *rep;

	if (mr_state_init(&st, cfg, o, prev, 0))
		return NULL;
	rep = mr_state_report(&st, cur);
	mr_state_free(&st);
	return rep;
}
