// SPDX-License-Identifier: GPL-2.0
/*
 * monitor_prom.c - the Prometheus text exposition of a neuron-monitor
 * report (monitor_report.h): the series neuron-monitor-prometheus.py,
 * the exporter that ships with neuron-monitor, makes of the report, with
 * its names and labels, so that dashboards and alerts written for it
 * read "neuronsim monitor --prometheus".  A rendering of the report and
 * nothing else: a group whose "error" is not empty, and a runtime whose
 * "error" is not, give no series, as in the exporter; counters add up
 * the counts of each report.  Documentation/userspace.rst, "monitor".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor_report.h"

/* the families, in the order they are printed */
enum fam {
	F_NC_UTIL, F_RT_VCPU, F_RT_MEM,
	F_NC_CONSTANTS, F_NC_MODEL_CODE, F_NC_SCRATCHPAD, F_NC_RUNTIME, F_NC_TENSORS,
	F_EXEC_ERRORS, F_EXEC_STATUS, F_EXEC_LATENCY,
	F_ECC, F_VCPU_COUNT, F_VCPU_RATIO,
	F_MEM_TOTAL, F_MEM_USED, F_SWAP_TOTAL, F_SWAP_USED,
	F_INSTANCE, F_HARDWARE,
	F_COUNT,
};

static const struct {
	const char *name;
	const char *type;
	const char *help;
} fams[F_COUNT] = {
	[F_NC_UTIL] = { "neuroncore_utilization_ratio", "gauge",
		"Share of the period a NeuronCore was executing" },
	[F_RT_VCPU] = { "neuron_runtime_vcpu_usage_ratio", "gauge",
		"Share of all vCPUs' time a Neuron runtime used, by usage type" },
	[F_RT_MEM] = { "neuron_runtime_memory_used_bytes", "gauge",
		"Memory a Neuron runtime uses, host or device" },
	[F_NC_CONSTANTS] = { "neuroncore_memory_usage_constants", "gauge",
		"Device memory of a NeuronCore holding constants" },
	[F_NC_MODEL_CODE] = { "neuroncore_memory_usage_model_code", "gauge",
		"Device memory of a NeuronCore holding model code" },
	[F_NC_SCRATCHPAD] = { "neuroncore_memory_usage_model_shared_scratchpad", "gauge",
		"Device memory of a NeuronCore holding the shared scratchpad" },
	[F_NC_RUNTIME] = { "neuroncore_memory_usage_runtime_memory", "gauge",
		"Device memory of a NeuronCore the runtime holds" },
	[F_NC_TENSORS] = { "neuroncore_memory_usage_tensors", "gauge",
		"Device memory of a NeuronCore holding tensors" },
	[F_EXEC_ERRORS] = { "execution_errors_total", "counter",
		"Executions that failed, by error type" },
	[F_EXEC_STATUS] = { "execution_status_total", "counter",
		"Executions, by how they ended" },
	[F_EXEC_LATENCY] = { "execution_latency_seconds", "gauge",
		"Execution latency of the period, by percentile" },
	[F_ECC] = { "hardware_ecc_events_total", "counter",
		"ECC events of a Neuron device, by type" },
	[F_VCPU_COUNT] = { "system_vcpu_count", "gauge", "vCPUs of the system" },
	[F_VCPU_RATIO] = { "system_vcpu_usage_ratio", "gauge",
		"Share of all vCPUs' time in use, by usage type" },
	[F_MEM_TOTAL] = { "system_memory_total_bytes", "gauge", "Host memory" },
	[F_MEM_USED] = { "system_memory_used_bytes", "gauge", "Host memory in use" },
	[F_SWAP_TOTAL] = { "system_swap_total_bytes", "gauge", "Swap space" },
	[F_SWAP_USED] = { "system_swap_used_bytes", "gauge", "Swap space in use" },
	[F_INSTANCE] = { "instance_info", "gauge", "The instance (labels)" },
	[F_HARDWARE] = { "neuron_hardware_info", "gauge",
		"The instance's Neuron hardware (labels)" },
};

/* the five categories, as neuroncore_memory_usage_<category> */
static const char *const nc_cats[] = {
	"constants", "model_code", "model_shared_scratchpad", "runtime_memory",
	"tensors",
};

static const char *const ecc_keys[] = {
	"mem_ecc_corrected", "mem_ecc_uncorrected", "sram_ecc_corrected",
	"sram_ecc_uncorrected",
};

/* one rendering: a text per family, the new counters and groups seen */
struct render {
	struct mr_prom *p;
	char *text[F_COUNT];
	size_t len[F_COUNT];
	FILE *f[F_COUNT];
	json_t *counters;
	json_t *seen;
	bool failed;
};

int mr_prom_init(struct mr_prom *p)
{
	p->counters = json_object();
	p->seen = json_object();
	if (p->counters && p->seen)
		return 0;
	mr_prom_free(p);
	return -ENOMEM;
}

void mr_prom_free(struct mr_prom *p)
{
	json_decref(p->counters);
	json_decref(p->seen);
	p->counters = p->seen = NULL;
}

/* a label value: backslash, double quote and newline escaped */
static void put_label(FILE *f, const char *name, const char *value)
{
	fprintf(f, ",%s=\"", name);
	for (; *value; value++) {
		if (*value == '\\' || *value == '"')
			fprintf(f, "\\%c", *value);
		else if (*value == '\n')
			fputs("\\n", f);
		else
			fputc(*value, f);
	}
	fputc('"', f);
}

/* the shortest of %.15g and %.17g that reads back as @v */
static void put_value(FILE *f, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fprintf(f, " %s\n", buf);
}

/*
 * One sample: @labels is ",a=\"x\",..." (the instance's and the
 * runtime's), @extra more of them; a counter adds @v to what it had
 * when @add, else keeps it.
 */
static void sample(struct render *r, enum fam fm, const char *labels,
		   const char *extra, double v, bool add)
{
	char *series = NULL;
	size_t slen = 0;
	FILE *s = open_memstream(&series, &slen);

	if (!s) {
		r->failed = true;
		return;
	}
	fprintf(s, "%s{%s%s}", fams[fm].name, labels + 1, extra ? extra : "");
	fclose(s);
	if (!strcmp(fams[fm].type, "counter")) {
		json_t *old = json_object_get(r->p->counters, series);
		double sum = (old ? json_number_value(old) : 0) + (add ? v : 0);

		if (!old && !add)
			sum = v;
		json_object_set_new(r->counters, series, json_real(sum));
		v = sum;
	}
	if (!r->f[fm]) {
		r->f[fm] = open_memstream(&r->text[fm], &r->len[fm]);
		if (!r->f[fm]) {
			r->failed = true;
			free(series);
			return;
		}
		fprintf(r->f[fm], "# HELP %s %s\n# TYPE %s %s\n", fams[fm].name,
			fams[fm].help, fams[fm].name, fams[fm].type);
	}
	fputs(series, r->f[fm]);
	put_value(r->f[fm], v);
	free(series);
}

/* an extra label list of one or two labels */
static const char *extra1(char *buf, size_t len, const char *n, const char *v)
{
	char *t = NULL;
	size_t tl = 0;
	FILE *f = open_memstream(&t, &tl);

	buf[0] = '\0';
	if (!f)
		return buf;
	put_label(f, n, v);
	fclose(f);
	snprintf(buf, len, "%s", t);
	free(t);
	return buf;
}

static const char *extra2(char *buf, size_t len, const char *n1, const char *v1,
			  const char *n2, const char *v2)
{
	char a[256], b[256];

	extra1(a, sizeof(a), n1, v1);
	extra1(b, sizeof(b), n2, v2);
	snprintf(buf, len, "%s%s", a, b);
	return buf;
}

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

/* a group to render: present, an object, its error empty */
static json_t *group(json_t *parent, const char *name)
{
	json_t *g = json_object_get(parent, name);
	const char *err = json_string_value(json_object_get(g, "error"));

	return json_is_object(g) && (!err || !*err) ? g : NULL;
}

/* whether a counter group is new since the last rendering (a repeated
 * group, the same object, is not counted twice) */
static bool fresh(struct render *r, const char *key, json_t *g)
{
	json_object_set(r->seen, key, g);
	return json_object_get(r->p->seen, key) != g;
}

static void runtime_series(struct render *r, json_t *rt, const char *base)
{
	json_t *rep = json_object_get(rt, "report"), *g, *v, *o;
	const char *tag = json_string_value(json_object_get(rt, "neuron_runtime_tag"));
	char labels[2048], ex[1024], key[320];
	const char *k;
	size_t i;
	bool add;

	snprintf(labels, sizeof(labels), "%s%s", base,
		 extra1(ex, sizeof(ex), "runtime_tag", tag ? tag : ""));
	g = group(rep, "neuroncore_counters");
	json_object_foreach(json_object_get(g, "neuroncores_in_use"), k, v)
		sample(r, F_NC_UTIL, labels, extra1(ex, sizeof(ex), "neuroncore", k),
		       num(v, "neuroncore_utilization") / 100.0, false);
	g = group(rep, "neuron_runtime_vcpu_usage");
	if (g) {
		o = json_object_get(g, "vcpu_usage");
		sample(r, F_RT_VCPU, labels, extra1(ex, sizeof(ex), "usage_type", "user"),
		       num(o, "user") / 100.0, false);
		sample(r, F_RT_VCPU, labels, extra1(ex, sizeof(ex), "usage_type", "system"),
		       num(o, "system") / 100.0, false);
	}
	g = group(rep, "memory_used");
	if (g) {
		o = json_object_get(g, "neuron_runtime_used_bytes");
		sample(r, F_RT_MEM, labels, extra1(ex, sizeof(ex), "memory_location", "host"),
		       num(o, "host"), false);
		sample(r, F_RT_MEM, labels,
		       extra1(ex, sizeof(ex), "memory_location", "neuron_device"),
		       num(o, "neuron_device"), false);
		o = json_object_get(json_object_get(o, "usage_breakdown"),
				    "neuroncore_memory_usage");
		/* the exporter leaves memory_location unset: Python's None */
		for (i = 0; i < sizeof(nc_cats) / sizeof(nc_cats[0]); i++)
			json_object_foreach(o, k, v)
				sample(r, F_NC_CONSTANTS + i, labels,
				       extra2(ex, sizeof(ex), "memory_location", "None",
					      "neuroncore", k),
				       num(v, nc_cats[i]), false);
	}
	g = group(rep, "execution_stats");
	if (g) {
		snprintf(key, sizeof(key), "runtime %s execution_stats", tag ? tag : "");
		add = fresh(r, key, g);
		json_object_foreach(json_object_get(g, "error_summary"), k, v)
			sample(r, F_EXEC_ERRORS, labels, extra1(ex, sizeof(ex), "error_type", k),
			       json_number_value(v), add);
		json_object_foreach(json_object_get(g, "execution_summary"), k, v)
			sample(r, F_EXEC_STATUS, labels, extra1(ex, sizeof(ex), "status_type", k),
			       json_number_value(v), add);
		o = json_object_get(json_object_get(g, "latency_stats"), "total_latency");
		json_object_foreach(o, k, v)
			sample(r, F_EXEC_LATENCY, labels, extra1(ex, sizeof(ex), "percentile", k),
			       json_number_value(v), false);
	}
}

static void system_series(struct render *r, json_t *sys, const char *labels)
{
	char ex[512], idx[16];
	json_t *g, *v, *o;
	size_t i, k;
	bool add;

	g = group(sys, "neuron_hw_counters");
	if (g) {
		add = fresh(r, "system neuron_hw_counters", g);
		json_array_foreach(json_object_get(g, "neuron_devices"), i, v) {
			snprintf(idx, sizeof(idx), "%lld", (long long)
				 json_integer_value(json_object_get(v, "neuron_device_index")));
			for (k = 0; k < sizeof(ecc_keys) / sizeof(ecc_keys[0]); k++)
				sample(r, F_ECC, labels,
				       extra2(ex, sizeof(ex), "event_type", ecc_keys[k],
					      "neuron_device_index", idx),
				       num(v, ecc_keys[k]), add);
		}
	}
	g = group(sys, "vcpu_usage");
	if (g) {
		o = json_object_get(g, "average_usage");
		sample(r, F_VCPU_COUNT, labels, NULL,
		       json_object_size(json_object_get(g, "usage_data")), false);
		/* the exporter's two kinds: user (user, nice) and system
		 * (system, io_wait, irq, soft_irq), at most 100 % */
		sample(r, F_VCPU_RATIO, labels, extra1(ex, sizeof(ex), "usage_type", "user"),
		       (num(o, "user") + num(o, "nice") > 100 ? 100 :
			num(o, "user") + num(o, "nice")) / 100.0, false);
		sample(r, F_VCPU_RATIO, labels, extra1(ex, sizeof(ex), "usage_type", "system"),
		       (num(o, "system") + num(o, "io_wait") + num(o, "irq") +
			num(o, "soft_irq") > 100 ? 100 : num(o, "system") +
			num(o, "io_wait") + num(o, "irq") + num(o, "soft_irq")) / 100.0,
		       false);
	}
	g = group(sys, "memory_info");
	if (g) {
		sample(r, F_MEM_TOTAL, labels, NULL, num(g, "memory_total_bytes"), false);
		sample(r, F_MEM_USED, labels, NULL, num(g, "memory_used_bytes"), false);
		sample(r, F_SWAP_TOTAL, labels, NULL, num(g, "swap_total_bytes"), false);
		sample(r, F_SWAP_USED, labels, NULL, num(g, "swap_used_bytes"), false);
	}
}

/* the instance labels every series has, as ",name=\"v\"..." */
static void instance_labels(json_t *ii, char *buf, size_t len)
{
	static const char *const map[][2] = {
		{ "instance_name", "instance_name" },
		{ "instance_id", "instance_id" },
		{ "instance_type", "instance_type" },
		{ "availability_zone", "instance_availability_zone" },
		{ "region", "instance_region" },
		{ "subnet_id", "subnet_id" },
	};
	char ex[256];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		const char *v = json_string_value(json_object_get(ii, map[i][1]));

		extra1(ex, sizeof(ex), map[i][0], v ? v : "");
		n += snprintf(buf + n, n < len ? len - n : 0, "%s", ex);
	}
}

char *mr_prom_render(struct mr_prom *p, json_t *report, size_t *len)
{
	struct render r = { .p = p, .counters = json_object(), .seen = json_object() };
	json_t *rt, *hw = json_object_get(report, "neuron_hardware_info");
	char labels[1024], ex[512], cnt[2][24];
	char *out = NULL;
	size_t i, olen = 0;
	FILE *f;

	instance_labels(json_object_get(report, "instance_info"), labels, sizeof(labels));
	json_array_foreach(json_object_get(report, "neuron_runtime_data"), i, rt) {
		const char *err = json_string_value(json_object_get(rt, "error"));

		if (!err || !*err)
			runtime_series(&r, rt, labels);
	}
	system_series(&r, json_object_get(report, "system_data"), labels);
	sample(&r, F_INSTANCE, labels, NULL, 1, false);
	snprintf(cnt[0], sizeof(cnt[0]), "%lld", (long long)
		 json_integer_value(json_object_get(hw, "neuron_device_count")));
	snprintf(cnt[1], sizeof(cnt[1]), "%lld", (long long)
		 json_integer_value(json_object_get(hw, "neuroncore_per_device_count")));
	/* the exporter's Info: the hardware's labels, then the instance's */
	snprintf(ex, sizeof(ex), ",neuron_device_count=\"%s\",neuroncore_per_device_count=\"%s\"",
		 cnt[0], cnt[1]);
	{
		char hl[1536];

		snprintf(hl, sizeof(hl), "%s%s", ex, labels);
		sample(&r, F_HARDWARE, hl, NULL, 1, false);
	}
	f = open_memstream(&out, &olen);
	for (i = 0; i < F_COUNT; i++) {
		if (r.f[i]) {
			fclose(r.f[i]);
			if (f)
				fwrite(r.text[i], 1, r.len[i], f);
			free(r.text[i]);
		}
	}
	if (f)
		fclose(f);
	if (!f || r.failed || !r.counters || !r.seen) {
		free(out);
		json_decref(r.counters);
		json_decref(r.seen);
		return NULL;
	}
	json_decref(p->counters);
	json_decref(p->seen);
	p->counters = r.counters;
	p->seen = r.seen;
	*len = olen;
	return out;
}
