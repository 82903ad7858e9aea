/* SPDX-License-Identifier: GPL-2.0 */
/*
 * monitor_report.h - the report of "neuronsim monitor", in neuron-monitor's
 * JSON shape, built from two samples of the machine (monitor_report.c);
 * neuron-monitor's configuration file (monitor_config.c); and the
 * Prometheus exposition of a report, with the series names and labels
 * of the exporter that ships with neuron-monitor (monitor_prom.c).
 *
 * Nothing here reads the machine: a sample (struct mr_sample) is filled
 * by monitor.c (or by a test, with fixed /proc text and a fixed
 * snapshot), and every number of a report is a function of the sample
 * a group was last collected from and the current one.
 * Documentation/userspace.rst, "monitor", has every field and its source.
 */
#ifndef _NEURONSIM_MONITOR_REPORT_H
#define _NEURONSIM_MONITOR_REPORT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#include "main.h"

/**
 * enum mr_group - neuron-monitor's metric groups: the four of a runtime
 *	(neuron_runtime_data[].report), then the three of system_data.
 * @MR_NEURONCORE_COUNTERS: "neuroncore_counters".
 * @MR_EXECUTION_STATS: "execution_stats".
 * @MR_MEMORY_USED: "memory_used".
 * @MR_RUNTIME_VCPU_USAGE: "neuron_runtime_vcpu_usage".
 * @MR_NEURON_HW_COUNTERS: "neuron_hw_counters".
 * @MR_VCPU_USAGE: "vcpu_usage".
 * @MR_MEMORY_INFO: "memory_info".
 * @MR_NGROUPS: number of groups.
 */
enum mr_group {
	MR_NEURONCORE_COUNTERS,
	MR_EXECUTION_STATS,
	MR_MEMORY_USED,
	MR_RUNTIME_VCPU_USAGE,
	MR_NEURON_HW_COUNTERS,
	MR_VCPU_USAGE,
	MR_MEMORY_INFO,
	MR_NGROUPS,
};

/* groups below this are a runtime's, the others system_data's */
#define MR_RUNTIME_GROUPS	MR_NEURON_HW_COUNTERS

/* neuron-monitor's period when its configuration names none, seconds */
#define MR_DEFAULT_PERIOD	5.0

/* the group's key in the report */
const char *mr_group_name(enum mr_group g);

/**
 * struct mr_exec - one execution that ended (an EXEC_DONE event).
 * @end_ns: CLOCK_MONOTONIC when the event came.
 * @wall_ns: its wall-clock time (EXEC_DONE wall_ns).
 * @virtual_ns: its virtual time (EXEC_DONE virtual_ns).
 * @status: 0 or the positive errno it ended with.
 * @device: device index.
 * @model_id: the model.
 * @pid: the model's owner, 0 when unknown.
 * @first_core: the NeuronCore of its subgraph 0, on @device.
 * @num_cores: its subgraphs, one NeuronCore each.
 */
struct mr_exec {
	__u64 end_ns;
	__u64 wall_ns;
	__u64 virtual_ns;
	__u32 status;
	__u32 device;
	__u32 model_id;
	__u32 pid;
	__u32 first_core;
	__u32 num_cores;
};

/**
 * struct mr_proc - a process holding NeuronCores, from /proc/PID.
 * @pid: the process.
 * @stat_ok: @utime and @stime were read.
 * @utime: /proc/PID/stat utime, clock ticks.
 * @stime: /proc/PID/stat stime, clock ticks.
 * @rss_bytes: resident bytes: /proc/PID/smaps_rollup Rss, else
 *	/proc/PID/status VmRSS (0 unread).
 * @tag: neuron-monitor's runtime tag: NEURON_PROCESS_TAG of its
 *	environment when readable and set, else the pid in decimal.
 */
struct mr_proc {
	__u32 pid;
	bool stat_ok;
	__u64 utime;
	__u64 stime;
	__u64 rss_bytes;
	char tag[256];
};

/**
 * struct mr_sample - the machine at one moment; reference counted
 *	(mr_sample_new(), mr_sample_get(), mr_sample_put()).
 * @refs: references.
 * @t_ns: CLOCK_MONOTONIC of the sample.
 * @proc_stat: the text of /proc/stat, NULL when unread.
 * @meminfo: the text of /proc/meminfo, NULL when unread.
 * @snap: the devices, models and sysfs counters (snapshot.c).
 * @snap_ok: @snap was taken.
 * @snap_error: why not, when not.
 * @procs: one per process holding a NeuronCore of @snap.
 * @nprocs: entries of @procs.
 * @execs_known: EXEC_DONE events reach the sampler (netlink group
 *	"runs" joined); when false @execs is empty and says nothing.
 * @execs_lost: events were lost since the previous sample (the socket's
 *	buffer overflowed: ENOBUFS), so @execs misses some.
 * @execs: the executions that ended before @t_ns, as far back as the
 *	sampler keeps them.
 * @nexecs: entries of @execs.
 */
struct mr_sample {
	unsigned int refs;
	__u64 t_ns;
	char *proc_stat;
	char *meminfo;
	struct snap snap;
	bool snap_ok;
	char snap_error[256];
	struct mr_proc *procs;
	size_t nprocs;
	bool execs_known;
	bool execs_lost;
	struct mr_exec *execs;
	size_t nexecs;
};

/* a sample with one reference, all empty; NULL when out of memory */
struct mr_sample *mr_sample_new(void);
struct mr_sample *mr_sample_get(struct mr_sample *s);
/* drop a reference (NULL is fine); the last frees what it holds */
void mr_sample_put(struct mr_sample *s);
/* the entry of @pid in @s->procs, or NULL */
const struct mr_proc *mr_sample_proc(const struct mr_sample *s, __u32 pid);

/**
 * struct mr_metric - one metric group of the configuration.
 * @on: collected.
 * @period: its own period in seconds, 0 when it takes its parent's.
 */
struct mr_metric {
	bool on;
	double period;
};

/**
 * struct mr_rule - one entry of the configuration's "neuron_runtimes".
 * @tag_filter: the regular expression runtime tags must match
 *	(POSIX extended, unanchored), NULL for every tag.
 * @re: @tag_filter compiled.
 * @period: the entry's period in seconds, 0 when it takes the root's.
 * @m: its runtime groups.
 */
struct mr_rule {
	char *tag_filter;
	regex_t re;
	double period;
	struct mr_metric m[MR_RUNTIME_GROUPS];
};

/**
 * struct mr_config - neuron-monitor's configuration (monitor_config.c).
 * @period: the root period in seconds (MR_DEFAULT_PERIOD when unset).
 * @rules: "neuron_runtimes", in order: a runtime is reported with the
 *	groups of the first entry whose tag_filter matches its tag.
 * @nrules: entries of @rules.
 * @sys: "system_metrics", indexed by enum mr_group (the system ones).
 */
struct mr_config {
	double period;
	struct mr_rule *rules;
	size_t nrules;
	struct mr_metric sys[MR_NGROUPS];
};

/* every group, every runtime, @period seconds (neuron-monitor with no
 * configuration file) */
int mr_config_default(struct mr_config *c, double period);
/*
 * Parse a configuration file's text.  Return: 0, or -EINVAL with a
 * message in @err naming the key (as a path: neuron_runtimes[0].metrics
 * [1].type) and its value; the configuration is then empty.
 */
int mr_config_parse(struct mr_config *c, const char *text, char *err,
		    size_t errlen);
void mr_config_free(struct mr_config *c);
/* a period string of the configuration ("5s", "500ms", "1m", "2h",
 * or a number of seconds) in seconds; -EINVAL when it is none */
int mr_parse_period(const char *s, double *out);
/* the period a group is collected at: its own, else its rule's, else the
 * root's (@rule NULL for a system group) */
double mr_config_period(const struct mr_config *c, const struct mr_rule *rule,
			enum mr_group g);

/**
 * struct mr_opts - what a report is of.
 * @dev_filter: the device index of -d, -1 for every device.
 * @clk_tck: clock ticks per second of /proc/PID/stat (sysconf
 *	_SC_CLK_TCK).
 */
struct mr_opts {
	int dev_filter;
	long clk_tck;
};

/**
 * struct mr_slot - one configured group: when it was last collected and
 *	what it said.
 * @period: its period, nanoseconds.
 * @prev: the sample it was last collected at (its next values are
 *	from @prev to the current sample).
 * @due_ns: when it is collected next.
 * @last: a system group's last object; for a runtime group an object of
 *	them by pid ("1234": {...}).
 */
struct mr_slot {
	__u64 period;
	struct mr_sample *prev;
	__u64 due_ns;
	json_t *last;
};

/**
 * struct mr_state - the groups of a configuration between reports.
 * @cfg: the configuration (not owned).
 * @opts: what the reports are of.
 * @rt: per rule, its MR_RUNTIME_GROUPS slots.
 * @sys: the system groups' slots, by enum mr_group.
 * @tick: the root period's, when no group is configured (the report of
 *	the members that are always there).
 */
struct mr_state {
	const struct mr_config *cfg;
	struct mr_opts opts;
	struct mr_slot *rt;
	struct mr_slot sys[MR_NGROUPS];
	struct mr_slot tick;
};

/*
 * Start: every group's previous sample is @first and it is first
 * collected at @first_due_ns.  Return: 0 or -ENOMEM.
 */
int mr_state_init(struct mr_state *st, const struct mr_config *cfg,
		  const struct mr_opts *o, struct mr_sample *first,
		  __u64 first_due_ns);
void mr_state_free(struct mr_state *st);
/*
 * The report at @cur: each group that is due (or has no value yet) is
 * collected from its previous sample to @cur, the others repeat their
 * last value (the same object: monitor_prom.c counts a counter group
 * once).  Return: a new reference, NULL when out of memory.
 */
json_t *mr_state_report(struct mr_state *st, struct mr_sample *cur);
/* the earliest time a group is due */
__u64 mr_state_next_ns(const struct mr_state *st);
/* the oldest previous sample's time: executions that ended before it
 * are not needed any more */
__u64 mr_state_oldest_ns(const struct mr_state *st);

/* every configured group collected from @prev to @cur: one report */
json_t *mr_report(const struct mr_config *cfg, const struct mr_opts *o,
		  struct mr_sample *prev, struct mr_sample *cur);

/*
 * The nearest-rank percentile @p (0..100) of @n values sorted in
 * increasing order: the smallest value for 0, else the value at rank
 * ceil(p / 100 * n).
 */
double mr_percentile(const double *sorted, size_t n, unsigned int p);

/*
 * neuron-monitor's instance_info object (instance_name, instance_id,
 * instance_type, instance_availability_zone,
 * instance_availability_zone_id, instance_region, ami_id, subnet_id,
 * error): the simulated instance of identity.c, whose type is the first
 * device's of @s.
 */
json_t *mr_instance_info(const struct snap *s);

/**
 * struct mr_prom - the exposition's state between reports: the counters
 *	(Prometheus counters add up each report's counts).
 * @counters: series text (name and labels) -> accumulated value.
 * @seen: group key -> the group object last added (a repeated group is
 *	not added twice).
 */
struct mr_prom {
	json_t *counters;
	json_t *seen;
};

int mr_prom_init(struct mr_prom *p);
void mr_prom_free(struct mr_prom *p);
/*
 * The Prometheus text exposition (format 0.0.4) of @report: every
 * series neuron-monitor-prometheus.py makes of it.  Return: a malloc'ed
 * NUL-terminated text (its length in @len), NULL when out of memory.
 */
char *mr_prom_render(struct mr_prom *p, json_t *report, size_t *len);

#endif /* _NEURONSIM_MONITOR_REPORT_H */
