// SPDX-License-Identifier: GPL-2.0
/*
 * monitor_report_test.c - host tests of the report of "neuronsim monitor"
 * (userspace/tools/neuronsim/monitor_report.h) from fixed samples: fixed
 * /proc text, a fixed snapshot of one trn2 device whose NeuronCores 0-1
 * a process holds with one model, and fixed executions.  Every key of
 * neuron-monitor's report with its type; utilization from known busy
 * time; latency percentiles from a known list; the execution status
 * table; CPU and memory from /proc text; the configuration (filtering,
 * periods, every kind of bad file); groups with periods of their own;
 * the Prometheus exposition of the report.  Documentation/userspace.rst,
 * "monitor".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "monitor_report.h"

#define SEC	1000000000ULL
#define PID	4242U
#define KIB	1024ULL

/* two vCPUs; between A and B cpu0 is 50% user, 50% idle; cpu1 25%
 * system, 75% idle; 120 context switches */
static const char stat_a[] =
	"cpu  1000 0 500 8000 0 0 0 0 0 0\n"
	"cpu0 500 0 250 4000 0 0 0 0 0 0\n"
	"cpu1 500 0 250 4000 0 0 0 0 0 0\n"
	"intr 1 2 3\nctxt 1000\nbtime 1\n";
static const char stat_b[] =
	"cpu  1050 0 525 8125 0 0 0 0 0 0\n"
	"cpu0 550 0 250 4050 0 0 0 0 0 0\n"
	"cpu1 500 0 275 4075 0 0 0 0 0 0\n"
	"intr 1 2 3\nctxt 1120\nbtime 1\n";
static const char meminfo[] =
	"MemTotal:       16384000 kB\nMemFree:         1000000 kB\n"
	"MemAvailable:   12384000 kB\nBuffers:           1000 kB\n"
	"SwapTotal:       2048000 kB\nSwapFree:        1024000 kB\n";

/* the model's NeuronCores: core 0 and core 1, by category */
static const __u64 core_mem[2][KBIN_MEMCAT_MAX] = {
	{ [KBIN_MEMCAT_MODEL_CODE] = 4 * KIB, [KBIN_MEMCAT_TENSORS] = 8 * KIB,
	  [KBIN_MEMCAT_CONSTANTS] = 16 * KIB,
	  [KBIN_MEMCAT_MODEL_SHARED_SCRATCHPAD] = 4 * KIB,
	  [KBIN_MEMCAT_RUNTIME_MEMORY] = 4 * KIB,
	  [KBIN_MEMCAT_NONSHARED_SCRATCHPAD] = 12 * KIB },
	{ [KBIN_MEMCAT_TENSORS] = 4 * KIB, [KBIN_MEMCAT_CONSTANTS] = 4 * KIB },
};

/*
 * A sample at @t seconds: device 0 (trn2), NeuronCores 0-1 held by PID
 * with model 7 (two subgraphs), @utime/@stime ticks, @flops on core 0.
 */
static struct mr_sample *sample(double t, const char *stat, __u64 utime,
				__u64 stime, __u64 flops)
{
	struct mr_sample *s = mr_sample_new();
	struct snap_dev *d;
	__u32 c, k;

	s->t_ns = (__u64)(t * SEC);
	s->proc_stat = strdup(stat);
	s->meminfo = strdup(meminfo);
	s->snap_ok = true;
	s->snap.dev = calloc(1, sizeof(*s->snap.dev));
	s->snap.ndev = 1;
	d = &s->snap.dev[0];
	strcpy(d->d.arch_name, "trn2");
	d->d.arch_gen = 3;
	d->d.num_cores = 8;
	d->d.num_hbm_channels = 4;
	d->d.hbm_channel_size = 24ULL << 30;
	d->d.device = 0;
	d->sysfs = true;
	strcpy(d->dev_path, "/dev/neuronsim0");
	for (c = 0; c < 2; c++) {
		d->d.cores[c].owner_pid = PID;
		d->d.cores[c].num_models = 1;
		for (k = 0; k < KBIN_MEMCAT_MAX; k++) {
			d->core[c].mem[k] = core_mem[c][k];
			d->core[c].used += core_mem[c][k];
		}
	}
	d->core[0].flops = flops;
	s->snap.models = calloc(1, sizeof(*s->snap.models));
	s->snap.nmodels = s->snap.cap = 1;
	s->snap.models[0] = (struct neuronsim_nl_model){
		.model_id = 7, .owner_pid = PID, .target_gen = 3,
		.num_subgraphs = 2, .first_core = 0, .device = 0,
	};
	s->procs = calloc(1, sizeof(*s->procs));
	s->nprocs = 1;
	s->procs[0] = (struct mr_proc){ .pid = PID, .stat_ok = true,
					.utime = utime, .stime = stime,
					.rss_bytes = 300 * KIB };
	snprintf(s->procs[0].tag, sizeof(s->procs[0].tag), "%u", PID);
	s->execs_known = true;
	return s;
}

static void add_exec(struct mr_sample *s, double end, double wall_s,
		     double virt_s, __u32 status)
{
	struct mr_exec *x;

	s->execs = realloc(s->execs, (s->nexecs + 1) * sizeof(*s->execs));
	x = &s->execs[s->nexecs++];
	*x = (struct mr_exec){ .end_ns = (__u64)llround(end * SEC),
			       .wall_ns = (__u64)llround(wall_s * SEC),
			       .virtual_ns = (__u64)llround(virt_s * SEC),
			       .status = status, .device = 0, .model_id = 7,
			       .pid = PID, .first_core = 0, .num_cores = 2 };
}

static const struct mr_opts opts = { .dev_filter = -1, .clk_tck = 100 };

/* the value at a path: keys apart by '.', "[N]" an array index */
static json_t *at(json_t *j, const char *path)
{
	char buf[512], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, ".", &save); j && tok; tok = strtok_r(NULL, ".", &save)) {
		char *br = strchr(tok, '[');

		if (br)
			*br = '\0';
		if (*tok)
			j = json_object_get(j, tok);
		while (j && br) {
			j = json_array_get(j, strtoul(br + 1, NULL, 10));
			br = strchr(br + 1, '[');
		}
	}
	return j;
}

static double num_at(json_t *j, const char *path)
{
	return json_number_value(at(j, path));
}

#define RT	"neuron_runtime_data[0]"
#define REP	RT ".report"

/* every key of neuron-monitor's report, with its JSON type */
static const struct {
	const char *path;
	char type;	/* s string, i integer, f real, o object, a array, b bool, z null */
} keys[] = {
	{ "neuron_runtime_data", 'a' },
	{ RT ".pid", 'i' }, { RT ".address", 's' }, { RT ".neuron_runtime_tag", 's' },
	{ RT ".error", 's' }, { REP, 'o' },
	{ REP ".neuroncore_counters.period", 'f' },
	{ REP ".neuroncore_counters.error", 's' },
	{ REP ".neuroncore_counters.neuroncores_in_use.0.neuroncore_utilization", 'f' },
	{ REP ".neuroncore_counters.neuroncores_in_use.0.flops", 'i' },
	{ REP ".neuroncore_counters.neuroncores_in_use.1.neuroncore_utilization", 'f' },
	{ REP ".execution_stats.period", 'f' }, { REP ".execution_stats.error", 's' },
	{ REP ".execution_stats.error_summary.generic", 'i' },
	{ REP ".execution_stats.error_summary.numerical", 'i' },
	{ REP ".execution_stats.error_summary.transient", 'i' },
	{ REP ".execution_stats.error_summary.model", 'i' },
	{ REP ".execution_stats.error_summary.runtime", 'i' },
	{ REP ".execution_stats.error_summary.hardware", 'i' },
	{ REP ".execution_stats.execution_summary.completed", 'i' },
	{ REP ".execution_stats.execution_summary.completed_with_err", 'i' },
	{ REP ".execution_stats.execution_summary.completed_with_num_err", 'i' },
	{ REP ".execution_stats.execution_summary.timed_out", 'i' },
	{ REP ".execution_stats.execution_summary.incorrect_input", 'i' },
	{ REP ".execution_stats.execution_summary.failed_to_queue", 'i' },
	{ REP ".execution_stats.latency_stats.total_latency.p0", 'f' },
	{ REP ".execution_stats.latency_stats.total_latency.p1", 'f' },
	{ REP ".execution_stats.latency_stats.total_latency.p25", 'f' },
	{ REP ".execution_stats.latency_stats.total_latency.p50", 'f' },
	{ REP ".execution_stats.latency_stats.total_latency.p75", 'f' },
	{ REP ".execution_stats.latency_stats.total_latency.p99", 'f' },
	{ REP ".execution_stats.latency_stats.total_latency.p100", 'f' },
	{ REP ".execution_stats.latency_stats.device_latency.p0", 'f' },
	{ REP ".execution_stats.latency_stats.device_latency.p100", 'f' },
	{ REP ".memory_used.period", 'f' }, { REP ".memory_used.error", 's' },
	{ REP ".memory_used.neuron_runtime_used_bytes.host", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.neuron_device", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.host.application_memory", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.host.constants", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.host.dma_buffers", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.host.tensors", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.neuroncore_memory_usage.0.constants", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.neuroncore_memory_usage.0.model_code", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.neuroncore_memory_usage.0.model_shared_scratchpad", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.neuroncore_memory_usage.0.runtime_memory", 'i' },
	{ REP ".memory_used.neuron_runtime_used_bytes.usage_breakdown.neuroncore_memory_usage.0.tensors", 'i' },
	{ REP ".memory_used.loaded_models[0].name", 's' },
	{ REP ".memory_used.loaded_models[0].uuid", 's' },
	{ REP ".memory_used.loaded_models[0].model_id", 'i' },
	{ REP ".memory_used.loaded_models[0].is_running", 'b' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.host", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.neuron_device", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.usage_breakdown.host.application_memory", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.usage_breakdown.host.constants", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.usage_breakdown.host.dma_buffers", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.usage_breakdown.host.tensors", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.usage_breakdown.neuron_device.constants", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.usage_breakdown.neuron_device.model_code", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.usage_breakdown.neuron_device.runtime_memory", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.memory_used_bytes.usage_breakdown.neuron_device.tensors", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.neuroncore_index", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_00.neuron_device_index", 'i' },
	{ REP ".memory_used.loaded_models[0].subgraphs.sg_01.neuroncore_index", 'i' },
	{ REP ".neuron_runtime_vcpu_usage.period", 'f' },
	{ REP ".neuron_runtime_vcpu_usage.error", 's' },
	{ REP ".neuron_runtime_vcpu_usage.vcpu_usage.user", 'f' },
	{ REP ".neuron_runtime_vcpu_usage.vcpu_usage.system", 'f' },
	{ "system_data.neuron_hw_counters.period", 'f' },
	{ "system_data.neuron_hw_counters.error", 's' },
	{ "system_data.neuron_hw_counters.neuron_devices[0].neuron_device_index", 'i' },
	{ "system_data.neuron_hw_counters.neuron_devices[0].mem_ecc_corrected", 'i' },
	{ "system_data.neuron_hw_counters.neuron_devices[0].mem_ecc_uncorrected", 'i' },
	{ "system_data.neuron_hw_counters.neuron_devices[0].sram_ecc_corrected", 'i' },
	{ "system_data.neuron_hw_counters.neuron_devices[0].sram_ecc_uncorrected", 'i' },
	{ "system_data.vcpu_usage.period", 'f' }, { "system_data.vcpu_usage.error", 's' },
	{ "system_data.vcpu_usage.average_usage.user", 'f' },
	{ "system_data.vcpu_usage.average_usage.nice", 'f' },
	{ "system_data.vcpu_usage.average_usage.system", 'f' },
	{ "system_data.vcpu_usage.average_usage.idle", 'f' },
	{ "system_data.vcpu_usage.average_usage.io_wait", 'f' },
	{ "system_data.vcpu_usage.average_usage.irq", 'f' },
	{ "system_data.vcpu_usage.average_usage.soft_irq", 'f' },
	{ "system_data.vcpu_usage.usage_data.0.user", 'f' },
	{ "system_data.vcpu_usage.usage_data.1.soft_irq", 'f' },
	{ "system_data.vcpu_usage.context_switch_count", 'i' },
	{ "system_data.memory_info.period", 'f' }, { "system_data.memory_info.error", 's' },
	{ "system_data.memory_info.memory_total_bytes", 'i' },
	{ "system_data.memory_info.memory_used_bytes", 'i' },
	{ "system_data.memory_info.swap_total_bytes", 'i' },
	{ "system_data.memory_info.swap_used_bytes", 'i' },
	{ "instance_info.instance_name", 's' }, { "instance_info.instance_id", 's' },
	{ "instance_info.instance_type", 's' },
	{ "instance_info.instance_availability_zone", 's' },
	{ "instance_info.instance_availability_zone_id", 's' },
	{ "instance_info.instance_region", 's' }, { "instance_info.ami_id", 's' },
	{ "instance_info.subnet_id", 's' }, { "instance_info.error", 's' },
	{ "neuron_hardware_info.neuron_device_type", 's' },
	{ "neuron_hardware_info.neuron_device_version", 's' },
	{ "neuron_hardware_info.neuroncore_version", 's' },
	{ "neuron_hardware_info.neuron_device_count", 'i' },
	{ "neuron_hardware_info.neuron_device_memory_size", 'i' },
	{ "neuron_hardware_info.neuroncore_per_device_count", 'i' },
	{ "neuron_hardware_info.logical_neuroncore_config", 'i' },
	{ "neuron_hardware_info.error", 's' },
};

static bool has_type(json_t *j, char t)
{
	switch (t) {
	case 's': return json_is_string(j);
	case 'i': return json_is_integer(j);
	case 'f': return json_is_real(j);
	case 'o': return json_is_object(j);
	case 'a': return json_is_array(j);
	case 'b': return json_is_boolean(j);
	case 'z': return json_is_null(j);
	}
	return false;
}

/* the default configuration's report between a sample at 1 s and one at 2 s */
static json_t *report_1s(struct mr_sample **pa, struct mr_sample **pb)
{
	struct mr_config cfg;
	json_t *r;

	*pa = sample(1, stat_a, 1000, 200, 0);
	*pb = sample(2, stat_b, 1050, 210, 3000000);
	if (mr_config_default(&cfg, MR_DEFAULT_PERIOD))
		return NULL;
	r = mr_report(&cfg, &opts, *pa, *pb);
	mr_config_free(&cfg);
	return r;
}

TEST(every_key_with_its_type)
{
	struct mr_sample *a, *b;
	json_t *r;
	size_t i;

	a = sample(1, stat_a, 0, 0, 0);
	b = sample(2, stat_b, 0, 0, 0);
	add_exec(b, 1.5, 0.01, 0.001, 0);
	{
		struct mr_config cfg;

		ASSERT_EQ(0, mr_config_default(&cfg, MR_DEFAULT_PERIOD));
		r = mr_report(&cfg, &opts, a, b);
		mr_config_free(&cfg);
	}
	ASSERT_NE(NULL, r);
	ASSERT_EQ(4, json_object_size(r));
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		json_t *v = at(r, keys[i].path);

		EXPECT_TRUE(v && has_type(v, keys[i].type))
			TH_LOG("%s: %s, want type %c", keys[i].path,
			       v ? json_dumps(v, JSON_ENCODE_ANY) : "missing", keys[i].type);
	}
	/* every group: "period" first, "error" last, as neuron-monitor */
	{
		json_t *parents[2] = { at(r, REP), at(r, "system_data") }, *g;
		const char *name, *k, *last;
		void *it;
		int p;

		for (p = 0; p < 2; p++)
			json_object_foreach(parents[p], name, g) {
				it = json_object_iter(g);
				EXPECT_STREQ("period", json_object_iter_key(it));
				for (last = NULL; it; it = json_object_iter_next(g, it))
					last = json_object_iter_key(it);
				EXPECT_STREQ("error", last) TH_LOG("%s", name);
				k = json_string_value(json_object_get(g, "error"));
				EXPECT_STREQ("", k) TH_LOG("%s", name);
			}
		EXPECT_EQ(4, json_object_size(parents[0]));
		EXPECT_EQ(3, json_object_size(parents[1]));
	}
	/* the groups' errors are empty: nothing is missing */
	EXPECT_STREQ("", json_string_value(at(r, REP ".execution_stats.error")));
	EXPECT_STREQ("", json_string_value(at(r, "system_data.vcpu_usage.error")));
	EXPECT_STREQ("4242", json_string_value(at(r, RT ".neuron_runtime_tag")));
	EXPECT_STREQ("/dev/neuronsim0", json_string_value(at(r, RT ".address")));
	/* trn2: 96 GiB, NeuronCore v3, 8 per device */
	EXPECT_STREQ("trainium2", json_string_value(at(r, "neuron_hardware_info.neuron_device_type")));
	EXPECT_STREQ("v3", json_string_value(at(r, "neuron_hardware_info.neuroncore_version")));
	EXPECT_EQ(103079215104.0, num_at(r, "neuron_hardware_info.neuron_device_memory_size"));
	EXPECT_EQ(8, num_at(r, "neuron_hardware_info.neuroncore_per_device_count"));
	/* NeuronCores the runtime holds, and only those */
	EXPECT_EQ(2, json_object_size(at(r, REP ".neuroncore_counters.neuroncores_in_use")));
	json_decref(r);
	mr_sample_put(a);
	mr_sample_put(b);
}

TEST(utilization_from_busy_time)
{
	struct mr_sample *a, *b;
	json_t *r;

	a = sample(1, stat_a, 0, 0, 0);
	b = sample(2, stat_b, 0, 0, 4000000);
	/* 0.25 s inside the period, 0.1 s of one that began before it,
	 * one that ended before it (not counted) */
	add_exec(b, 1.5, 0.25, 0.001, 0);
	add_exec(b, 1.1, 0.3, 0.001, 0);
	add_exec(b, 0.9, 0.5, 0.001, 0);
	{
		struct mr_config cfg;

		ASSERT_EQ(0, mr_config_default(&cfg, 1));
		r = mr_report(&cfg, &opts, a, b);
		mr_config_free(&cfg);
	}
	ASSERT_NE(NULL, r);
	EXPECT_TRUE(fabs(num_at(r, REP ".neuroncore_counters.neuroncores_in_use.0.neuroncore_utilization") - 35.0) < 1e-9)
		TH_LOG("%f", num_at(r, REP ".neuroncore_counters.neuroncores_in_use.0.neuroncore_utilization"));
	/* both subgraphs' NeuronCores were busy */
	EXPECT_TRUE(fabs(num_at(r, REP ".neuroncore_counters.neuroncores_in_use.1.neuroncore_utilization") - 35.0) < 1e-9);
	/* sysfs flop_count: 4e6 in 1 s */
	EXPECT_EQ(4000000, num_at(r, REP ".neuroncore_counters.neuroncores_in_use.0.flops"));
	EXPECT_EQ(1.0, num_at(r, REP ".neuroncore_counters.period"));
	EXPECT_EQ(2, num_at(r, REP ".execution_stats.execution_summary.completed"));
	json_decref(r);
	mr_sample_put(a);
	mr_sample_put(b);
}

TEST(percentiles_and_statuses)
{
	static const double v[] = { 1, 2, 3, 4 };
	struct mr_sample *a, *b;
	json_t *r;
	int i;

	/* nearest rank */
	EXPECT_EQ(1, mr_percentile(v, 4, 0));
	EXPECT_EQ(1, mr_percentile(v, 4, 1));
	EXPECT_EQ(1, mr_percentile(v, 4, 25));
	EXPECT_EQ(2, mr_percentile(v, 4, 50));
	EXPECT_EQ(3, mr_percentile(v, 4, 75));
	EXPECT_EQ(4, mr_percentile(v, 4, 99));
	EXPECT_EQ(4, mr_percentile(v, 4, 100));
	a = sample(1, stat_a, 0, 0, 0);
	b = sample(2, stat_b, 0, 0, 0);
	/* 100 executions of 100 .. 1 ms wall, 1/10 of it virtual */
	for (i = 100; i >= 1; i--)
		add_exec(b, 1.5, i / 1000.0, i / 10000.0, 0);
	add_exec(b, 1.9, 0.0005, 0.0001, ETIME);
	add_exec(b, 1.9, 0.0005, 0.0001, EDEADLK);
	add_exec(b, 1.9, 0.0005, 0.0001, EIO);
	add_exec(b, 1.9, 0.0005, 0.0001, ENOSPC);
	{
		struct mr_config cfg;

		ASSERT_EQ(0, mr_config_default(&cfg, 1));
		r = mr_report(&cfg, &opts, a, b);
		mr_config_free(&cfg);
	}
	ASSERT_NE(NULL, r);
#define LAT(k) num_at(r, REP ".execution_stats.latency_stats.total_latency." k)
	/* 104 values: 0.0005 four times, then 0.001 .. 0.1 */
	EXPECT_EQ(0.0005, LAT("p0"));
	EXPECT_EQ(0.0005, LAT("p1"));
	EXPECT_EQ(0.022, LAT("p25"));
	EXPECT_EQ(0.048, LAT("p50"));
	EXPECT_EQ(0.074, LAT("p75"));
	EXPECT_EQ(0.099, LAT("p99"));
	EXPECT_EQ(0.1, LAT("p100"));
	EXPECT_TRUE(fabs(num_at(r, REP ".execution_stats.latency_stats.device_latency.p100") - 0.01) < 1e-12);
	/* the status table */
	EXPECT_EQ(100, num_at(r, REP ".execution_stats.execution_summary.completed"));
	EXPECT_EQ(1, num_at(r, REP ".execution_stats.execution_summary.timed_out"));
	EXPECT_EQ(3, num_at(r, REP ".execution_stats.execution_summary.completed_with_err"));
	EXPECT_EQ(1, num_at(r, REP ".execution_stats.error_summary.runtime"));
	EXPECT_EQ(1, num_at(r, REP ".execution_stats.error_summary.model"));
	EXPECT_EQ(1, num_at(r, REP ".execution_stats.error_summary.hardware"));
	EXPECT_EQ(1, num_at(r, REP ".execution_stats.error_summary.generic"));
	EXPECT_EQ(0, num_at(r, REP ".execution_stats.error_summary.numerical"));
	json_decref(r);
	mr_sample_put(a);
	mr_sample_put(b);
}

TEST(no_executions_and_not_root)
{
	struct mr_sample *a, *b;
	json_t *r;

	r = report_1s(&a, &b);
	ASSERT_NE(NULL, r);
	/* none in the period: null percentiles */
	EXPECT_TRUE(json_is_null(at(r, REP ".execution_stats.latency_stats.total_latency")));
	EXPECT_TRUE(json_is_null(at(r, REP ".execution_stats.latency_stats.device_latency")));
	json_decref(r);
	mr_sample_put(a);
	/* without "runs": said in the error, every key still there */
	b->execs_known = false;
	add_exec(b, 1.5, 0.5, 0.1, 0);
	a = sample(1, stat_a, 0, 0, 0);
	{
		struct mr_config cfg;

		ASSERT_EQ(0, mr_config_default(&cfg, 1));
		r = mr_report(&cfg, &opts, a, b);
		mr_config_free(&cfg);
	}
	EXPECT_NE(NULL, strstr(json_string_value(at(r, REP ".execution_stats.error")), "CAP_SYS_ADMIN"));
	EXPECT_NE(NULL, strstr(json_string_value(at(r, REP ".neuroncore_counters.error")), "CAP_SYS_ADMIN"));
	EXPECT_EQ(0, num_at(r, REP ".execution_stats.execution_summary.completed"));
	EXPECT_EQ(0.0, num_at(r, REP ".neuroncore_counters.neuroncores_in_use.0.neuroncore_utilization"));
	EXPECT_TRUE(json_is_null(at(r, REP ".execution_stats.latency_stats.total_latency")));
	json_decref(r);
	mr_sample_put(a);
	mr_sample_put(b);
}

TEST(cpu_memory_and_devices)
{
	struct mr_sample *a, *b;
	json_t *r;

	r = report_1s(&a, &b);
	ASSERT_NE(NULL, r);
	/* all CPUs: 50 user, 25 system, 125 idle of 200 ticks */
	EXPECT_EQ(25.0, num_at(r, "system_data.vcpu_usage.average_usage.user"));
	EXPECT_EQ(12.5, num_at(r, "system_data.vcpu_usage.average_usage.system"));
	EXPECT_EQ(62.5, num_at(r, "system_data.vcpu_usage.average_usage.idle"));
	EXPECT_EQ(50.0, num_at(r, "system_data.vcpu_usage.usage_data.0.user"));
	EXPECT_EQ(25.0, num_at(r, "system_data.vcpu_usage.usage_data.1.system"));
	EXPECT_EQ(75.0, num_at(r, "system_data.vcpu_usage.usage_data.1.idle"));
	EXPECT_EQ(2, json_object_size(at(r, "system_data.vcpu_usage.usage_data")));
	EXPECT_EQ(120, num_at(r, "system_data.vcpu_usage.context_switch_count"));
	/* the process: 50 + 10 ticks of 100/s over 2 vCPUs in 1 s */
	EXPECT_EQ(25.0, num_at(r, REP ".neuron_runtime_vcpu_usage.vcpu_usage.user"));
	EXPECT_EQ(5.0, num_at(r, REP ".neuron_runtime_vcpu_usage.vcpu_usage.system"));
	/* meminfo: total - available, swap total - free */
	EXPECT_EQ(16384000.0 * 1024, num_at(r, "system_data.memory_info.memory_total_bytes"));
	EXPECT_EQ(4000000.0 * 1024, num_at(r, "system_data.memory_info.memory_used_bytes"));
	EXPECT_EQ(1024000.0 * 1024, num_at(r, "system_data.memory_info.swap_used_bytes"));
	/* memory_used: the cores' bytes, the process's RSS */
#define MU REP ".memory_used.neuron_runtime_used_bytes"
	EXPECT_EQ(56.0 * KIB, num_at(r, MU ".neuron_device"));
	EXPECT_EQ(300.0 * KIB, num_at(r, MU ".host"));
	EXPECT_EQ(300.0 * KIB, num_at(r, MU ".usage_breakdown.host.application_memory"));
	EXPECT_EQ(8.0 * KIB, num_at(r, MU ".usage_breakdown.neuroncore_memory_usage.0.tensors"));
	EXPECT_EQ(4.0 * KIB, num_at(r, MU ".usage_breakdown.neuroncore_memory_usage.0.model_shared_scratchpad"));
	EXPECT_EQ(4.0 * KIB, num_at(r, MU ".usage_breakdown.neuroncore_memory_usage.1.constants"));
#define LM REP ".memory_used.loaded_models[0]"
	EXPECT_EQ(7, num_at(r, LM ".model_id"));
	EXPECT_STREQ("neuronsim0-model7", json_string_value(at(r, LM ".name")));
	EXPECT_EQ(32, strlen(json_string_value(at(r, LM ".uuid"))));
	EXPECT_TRUE(json_is_true(at(r, LM ".is_running")));
	/* sg_00 on NeuronCore 0: constants 16 + code 4 + runtime 4 + tensors 8 KiB */
	EXPECT_EQ(32.0 * KIB, num_at(r, LM ".subgraphs.sg_00.memory_used_bytes.neuron_device"));
	EXPECT_EQ(1, num_at(r, LM ".subgraphs.sg_01.neuroncore_index"));
	EXPECT_EQ(1, json_array_size(at(r, "system_data.neuron_hw_counters.neuron_devices")));
	json_decref(r);
	mr_sample_put(a);
	mr_sample_put(b);
}

/*
 * A holder whose process exited (its NeuronCores are held through a file
 * a child of it kept): the sampler lists it with /proc unread; the
 * groups that read /proc say so, and the exposition has no host memory
 * for it
 */
TEST(process_gone)
{
	struct mr_sample *a = sample(0, stat_a, 0, 0, 0);
	struct mr_sample *b = sample(1, stat_b, 0, 0, 0);
	struct mr_prom prom;
	struct mr_config cfg;
	size_t len;
	char *text;
	json_t *r;

	b->procs[0] = (struct mr_proc){ .pid = PID };
	snprintf(b->procs[0].tag, sizeof(b->procs[0].tag), "%u", PID);
	ASSERT_EQ(0, mr_config_default(&cfg, 1));
	r = mr_report(&cfg, &opts, a, b);
	mr_config_free(&cfg);
	ASSERT_NE(NULL, r);
	EXPECT_EQ(PID, num_at(r, RT ".pid"));
	EXPECT_STREQ("the process is gone (/proc/PID is unreadable)",
		     json_string_value(at(r, REP ".memory_used.error")));
	EXPECT_NE(NULL, strstr(json_string_value(at(r, REP ".neuron_runtime_vcpu_usage.error")),
			       "unreadable"));
	EXPECT_EQ(0, num_at(r, REP ".memory_used.neuron_runtime_used_bytes.host"));
	EXPECT_EQ(56.0 * KIB, num_at(r, REP ".memory_used.neuron_runtime_used_bytes.neuron_device"));
	ASSERT_EQ(0, mr_prom_init(&prom));
	text = mr_prom_render(&prom, r, &len);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, "neuron_runtime_memory_used_bytes{"));
	EXPECT_NE(NULL, strstr(text, "neuroncore_utilization_ratio{"));
	free(text);
	mr_prom_free(&prom);
	json_decref(r);
	mr_sample_put(a);
	mr_sample_put(b);
}

TEST(periods)
{
	static const struct {
		const char *s;
		double v;
	} good[] = {
		{ "5s", 5 }, { "500ms", 0.5 }, { "1m", 60 }, { "1m30s", 90 },
		{ "2h", 7200 }, { "2", 2 }, { "0.25", 0.25 }, { "1.5s", 1.5 },
		{ "10000us", 0.01 },
	};
	static const char *const bad[] = {
		"", "0s", "1d", "s", "-1s", "5 s", "1e6s", "0.001s", "1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h1h",
	};
	size_t i;
	double v;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		EXPECT_EQ(0, mr_parse_period(good[i].s, &v)) TH_LOG("%s", good[i].s);
		EXPECT_TRUE(fabs(v - good[i].v) < 1e-12) TH_LOG("%s: %f", good[i].s, v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = mr_parse_period(bad[i], &v);

		EXPECT_EQ(-EINVAL, rc) TH_LOG("bad period %zu", i);
	}
}

TEST(config_filters_the_groups)
{
	static const char text[] =
		"{\"period\": \"1s\","
		" \"neuron_runtimes\": [{\"tag_filter\": \"^nomatch$\", \"metrics\": [{\"type\": \"neuroncore_counters\"}]},"
		"                      {\"tag_filter\": \"42\", \"metrics\": [{\"type\": \"memory_used\"}]}],"
		" \"system_metrics\": [{\"type\": \"memory_info\", \"period\": \"2s\"}]}";
	struct mr_sample *a, *b;
	struct mr_config cfg;
	char err[256];
	json_t *r;

	ASSERT_EQ(0, mr_config_parse(&cfg, text, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(1.0, cfg.period);
	EXPECT_EQ(2, cfg.nrules);
	EXPECT_EQ(2.0, mr_config_period(&cfg, NULL, MR_MEMORY_INFO));
	EXPECT_EQ(1.0, mr_config_period(&cfg, &cfg.rules[1], MR_MEMORY_USED));
	a = sample(1, stat_a, 0, 0, 0);
	b = sample(2, stat_b, 0, 0, 0);
	r = mr_report(&cfg, &opts, a, b);
	ASSERT_NE(NULL, r);
	/* the four members always; the runtime by the second rule: memory_used only */
	EXPECT_EQ(4, json_object_size(r));
	EXPECT_EQ(1, json_array_size(at(r, "neuron_runtime_data")));
	EXPECT_EQ(1, json_object_size(at(r, REP)));
	EXPECT_NE(NULL, at(r, REP ".memory_used"));
	EXPECT_EQ(1, json_object_size(at(r, "system_data")));
	EXPECT_NE(NULL, at(r, "system_data.memory_info"));
	json_decref(r);
	mr_config_free(&cfg);
	/* a tag no rule matches: no runtime; no system_metrics: {} */
	ASSERT_EQ(0, mr_config_parse(&cfg, "{\"neuron_runtimes\": [{\"tag_filter\": \"^x\"}]}",
				     err, sizeof(err)));
	r = mr_report(&cfg, &opts, a, b);
	EXPECT_EQ(0, json_array_size(at(r, "neuron_runtime_data")));
	EXPECT_TRUE(json_is_object(at(r, "system_data")));
	EXPECT_EQ(0, json_object_size(at(r, "system_data")));
	EXPECT_NE(NULL, at(r, "instance_info"));
	EXPECT_NE(NULL, at(r, "neuron_hardware_info"));
	json_decref(r);
	mr_config_free(&cfg);
	/* NEURON_PROCESS_TAG, when the process has one, is the tag */
	snprintf(b->procs[0].tag, sizeof(b->procs[0].tag), "my_app_1");
	ASSERT_EQ(0, mr_config_parse(&cfg, "{\"neuron_runtimes\": [{\"tag_filter\": \"^my_app\", \"metrics\": [{\"type\": \"memory_used\"}]}]}",
				     err, sizeof(err)));
	r = mr_report(&cfg, &opts, a, b);
	EXPECT_STREQ("my_app_1", json_string_value(at(r, RT ".neuron_runtime_tag")));
	json_decref(r);
	mr_config_free(&cfg);
	mr_sample_put(a);
	mr_sample_put(b);
}

TEST(bad_configs_name_the_key_and_value)
{
	static const struct {
		const char *text;
		const char *msg;
	} bad[] = {
		{ "{\"period\": \"1x\"}", "period: \"1x\": not a period" },
		{ "{\"period\": 0}", "period: 0: not a period" },
		{ "{\"perod\": \"1s\"}", "perod: \"1s\": unknown key" },
		{ "[]", "(top level): []: not an object" },
		{ "{\"neuron_runtimes\": {}}", "neuron_runtimes: {}: not an array" },
		{ "{\"neuron_runtimes\": [{\"tag_filter\": \"(\"}]}",
		  "neuron_runtimes[0].tag_filter: \"(\": not a regular expression" },
		{ "{\"neuron_runtimes\": [{\"tag_filter\": 3}]}",
		  "neuron_runtimes[0].tag_filter: 3: not a string" },
		{ "{\"neuron_runtimes\": [{\"metrics\": [{\"type\": \"vcpu_usage\"}]}]}",
		  "neuron_runtimes[0].metrics[0].type: \"vcpu_usage\": not a metric group of neuron_runtimes" },
		{ "{\"neuron_runtimes\": [{\"metrics\": [{}]}]}",
		  "neuron_runtimes[0].metrics[0].type: (missing): not a metric group name" },
		{ "{\"neuron_runtimes\": [{\"metrics\": [{\"type\": \"memory_used\", \"period\": \"0s\"}]}]}",
		  "neuron_runtimes[0].metrics[0].period: \"0s\": not a period" },
		{ "{\"neuron_runtimes\": [{\"metrics\": [{\"type\": \"memory_used\", \"kind\": 1}]}]}",
		  "neuron_runtimes[0].metrics[0].kind: 1: unknown key" },
		{ "{\"system_metrics\": [{\"type\": \"memory_used\"}]}",
		  "system_metrics[0].type: \"memory_used\": not a metric group of system_metrics" },
		{ "{\"system_metrics\": [3]}", "system_metrics[0]: 3: not an object" },
		{ "{\"period\": \"1s\"", "line 1, column" },
		{ "{\"period\": \"1s\", \"period\": \"2s\"}", "duplicate" },
	};
	struct mr_config cfg;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		EXPECT_EQ(-EINVAL, mr_config_parse(&cfg, bad[i].text, err, sizeof(err)))
			TH_LOG("%s", bad[i].text);
		EXPECT_NE(NULL, strstr(err, bad[i].msg))
			TH_LOG("%s: '%s', want '%s'", bad[i].text, err, bad[i].msg);
		EXPECT_EQ(0, cfg.nrules);
	}
}

TEST(groups_with_periods_of_their_own)
{
	struct mr_sample *s0, *s1, *s2, *s3;
	struct mr_config cfg;
	struct mr_state st;
	json_t *r1, *r2, *r3;
	char err[256];

	ASSERT_EQ(0, mr_config_parse(&cfg, "{\"period\": \"1s\", \"system_metrics\": ["
				     "{\"type\": \"vcpu_usage\"}, {\"type\": \"memory_info\", \"period\": \"2s\"}]}",
				     err, sizeof(err)));
	s0 = sample(0, stat_a, 0, 0, 0);
	s1 = sample(1, stat_b, 0, 0, 0);
	s2 = sample(2, stat_a, 0, 0, 0);
	s3 = sample(3, stat_b, 0, 0, 0);
	ASSERT_EQ(0, mr_state_init(&st, &cfg, &opts, s0, 1 * SEC));
	EXPECT_EQ(1 * SEC, mr_state_next_ns(&st));
	r1 = mr_state_report(&st, s1);
	/* both collected at 1 s; vcpu next at 2 s, memory_info at 3 s */
	EXPECT_EQ(1.0, num_at(r1, "system_data.memory_info.period"));
	EXPECT_EQ(2 * SEC, mr_state_next_ns(&st));
	r2 = mr_state_report(&st, s2);
	EXPECT_EQ(1.0, num_at(r2, "system_data.vcpu_usage.period"));
	/* memory_info is not due: the same object again */
	EXPECT_EQ(at(r1, "system_data.memory_info"), at(r2, "system_data.memory_info"));
	EXPECT_EQ(0, num_at(r2, "system_data.vcpu_usage.context_switch_count"));
	/* memory_info's previous sample is still the one at 1 s */
	EXPECT_EQ(1 * SEC, mr_state_oldest_ns(&st));
	r3 = mr_state_report(&st, s3);
	EXPECT_EQ(2.0, num_at(r3, "system_data.memory_info.period"));
	EXPECT_NE(at(r1, "system_data.memory_info"), at(r3, "system_data.memory_info"));
	EXPECT_EQ(3 * SEC, mr_state_oldest_ns(&st));
	json_decref(r1);
	json_decref(r2);
	json_decref(r3);
	mr_state_free(&st);
	mr_config_free(&cfg);
	mr_sample_put(s0);
	mr_sample_put(s1);
	mr_sample_put(s2);
	mr_sample_put(s3);
}

/* the value of the series @name{...} (@prefix, up to its '}'); NAN when none */
static double series(const char *text, const char *prefix)
{
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			return strtod(p + strlen(prefix), NULL);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NAN;
}

/* the instance labels: identity.c's simulated instance, a trn2 device */
#define INST "instance_name=\"neuronsim\",instance_id=\"i-0000000000000000\"," \
	"instance_type=\"trn2.48xlarge\",availability_zone=\"sim-1a\"," \
	"region=\"sim-1\",subnet_id=\"subnet-0000000000000000\""

TEST(prometheus_exposition)
{
	struct mr_sample *a, *b;
	struct mr_config cfg;
	struct mr_prom p;
	json_t *r;
	char *t;
	size_t len;

	a = sample(1, stat_a, 1000, 200, 0);
	b = sample(2, stat_b, 1050, 210, 0);
	add_exec(b, 1.5, 0.25, 0.001, 0);
	add_exec(b, 1.6, 0.001, 0.001, EDEADLK);
	ASSERT_EQ(0, mr_config_default(&cfg, 1));
	r = mr_report(&cfg, &opts, a, b);
	ASSERT_EQ(0, mr_prom_init(&p));
	t = mr_prom_render(&p, r, &len);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(strlen(t), len);
	EXPECT_NE(NULL, strstr(t, "# HELP neuroncore_utilization_ratio "));
	EXPECT_NE(NULL, strstr(t, "# TYPE neuroncore_utilization_ratio gauge\n"));
	EXPECT_NE(NULL, strstr(t, "# TYPE execution_errors_total counter\n"));
	EXPECT_NE(NULL, strstr(t, "# TYPE hardware_ecc_events_total counter\n"));
	EXPECT_TRUE(fabs(series(t, "neuroncore_utilization_ratio{" INST ",runtime_tag=\"4242\",neuroncore=\"0\"}") - 0.251) < 1e-12)
		TH_LOG("%s", t);
	EXPECT_EQ(0.25, series(t, "neuron_runtime_vcpu_usage_ratio{" INST ",runtime_tag=\"4242\",usage_type=\"user\"}"));
	EXPECT_EQ(300.0 * KIB, series(t, "neuron_runtime_memory_used_bytes{" INST ",runtime_tag=\"4242\",memory_location=\"host\"}"));
	EXPECT_EQ(56.0 * KIB, series(t, "neuron_runtime_memory_used_bytes{" INST ",runtime_tag=\"4242\",memory_location=\"neuron_device\"}"));
	EXPECT_EQ(8.0 * KIB, series(t, "neuroncore_memory_usage_tensors{" INST ",runtime_tag=\"4242\",memory_location=\"None\",neuroncore=\"0\"}"));
	EXPECT_EQ(4.0 * KIB, series(t, "neuroncore_memory_usage_model_shared_scratchpad{" INST ",runtime_tag=\"4242\",memory_location=\"None\",neuroncore=\"0\"}"));
	EXPECT_EQ(1, series(t, "execution_status_total{" INST ",runtime_tag=\"4242\",status_type=\"completed\"}"));
	EXPECT_EQ(1, series(t, "execution_status_total{" INST ",runtime_tag=\"4242\",status_type=\"completed_with_err\"}"));
	EXPECT_EQ(1, series(t, "execution_errors_total{" INST ",runtime_tag=\"4242\",error_type=\"model\"}"));
	EXPECT_EQ(0.25, series(t, "execution_latency_seconds{" INST ",runtime_tag=\"4242\",percentile=\"p100\"}"));
	EXPECT_EQ(0, series(t, "hardware_ecc_events_total{" INST ",event_type=\"mem_ecc_corrected\",neuron_device_index=\"0\"}"));
	EXPECT_EQ(2, series(t, "system_vcpu_count{" INST "}"));
	EXPECT_EQ(0.25, series(t, "system_vcpu_usage_ratio{" INST ",usage_type=\"user\"}"));
	EXPECT_EQ(0.125, series(t, "system_vcpu_usage_ratio{" INST ",usage_type=\"system\"}"));
	EXPECT_EQ(16384000.0 * 1024, series(t, "system_memory_total_bytes{" INST "}"));
	EXPECT_EQ(2048000.0 * 1024, series(t, "system_swap_total_bytes{" INST "}"));
	EXPECT_EQ(1, series(t, "instance_info{" INST "}"));
	EXPECT_EQ(1, series(t, "neuron_hardware_info{neuron_device_count=\"1\",neuroncore_per_device_count=\"8\"," INST "}"));
	free(t);
	/* the same report again (a repeated group): counters stay */
	t = mr_prom_render(&p, r, &len);
	EXPECT_EQ(1, series(t, "execution_status_total{" INST ",runtime_tag=\"4242\",status_type=\"completed\"}"));
	free(t);
	/* a new report: counters add its counts */
	json_decref(r);
	r = mr_report(&cfg, &opts, a, b);
	t = mr_prom_render(&p, r, &len);
	EXPECT_EQ(2, series(t, "execution_status_total{" INST ",runtime_tag=\"4242\",status_type=\"completed\"}"));
	free(t);
	json_decref(r);
	/* a group with an error gives no series, as in the exporter */
	b->execs_known = false;
	r = mr_report(&cfg, &opts, a, b);
	t = mr_prom_render(&p, r, &len);
	EXPECT_EQ(NULL, strstr(t, "execution_status_total{"));
	EXPECT_EQ(NULL, strstr(t, "neuroncore_utilization_ratio{"));
	EXPECT_NE(NULL, strstr(t, "neuroncore_memory_usage_constants{"));
	free(t);
	json_decref(r);
	mr_prom_free(&p);
	mr_config_free(&cfg);
	mr_sample_put(a);
	mr_sample_put(b);
}

TEST_HARNESS_MAIN
