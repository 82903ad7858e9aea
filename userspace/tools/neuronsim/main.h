/* SPDX-License-Identifier: GPL-2.0 */
/*
 * main.h - what the files of the neuronsim command share, in the manner
 * of bpftool: one file per command group, each defining a struct
 * nsim_cmd that the command table (userspace/tools/neuronsim.c) lists;
 * the device and netlink helpers, the variable table and the error
 * messages are here (common.c, vartab.c).  Output goes through the JSON
 * writer and error reporter both commands share (userspace/tools/tool.h).
 *
 * Adding a subcommand: a file here defining "const struct nsim_cmd
 * nsim_cmd_NAME", and NAME in NSIM_COMMANDS (neuronsim.c).
 */
#ifndef _NEURONSIM_TOOL_MAIN_H
#define _NEURONSIM_TOOL_MAIN_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>

#include "libneuronsim.h"
#include "kbin_kind.h"
#include "kbin_names.h"
#include "tool.h"

/* READ_VAR without a size reads at most this many bytes */
#define READ_DEFAULT_MAX	4096U

/**
 * struct nsim_cmd - one subcommand.
 * @name: what the user types.
 * @summary: one line for the command list.
 * @usage: the words after "neuronsim [-j|-p] [-d N] " in its usage line.
 * @help: the text after the usage line (--help), lines of two-space
 *	indent ending in '\n'.
 * @run: the subcommand, given its words (argv[0] is @name; -j, -p and
 *	-d N are already taken out); returns the exit status: 0, 1 the
 *	operation failed, 2 bad usage.
 */
struct nsim_cmd {
	const char *name;
	const char *summary;
	const char *usage;
	const char *help;
	int (*run)(int argc, char **argv);
};

/* -d N: the device index, -1 when not given (device 0) */
extern int dev_index;
/* the subcommand running, for messages */
extern const char *cmd_name;
/* set by the SIGINT/SIGTERM handler of install_stop_handlers() */
extern volatile sig_atomic_t stop_signal;

/* the device -d N names, 0 without it */
static inline __u32 dev_or_0(void)
{
	return dev_index > 0 ? (__u32)dev_index : 0;
}

/* errors, through tool_error() with the subcommand's name (common.c) */
void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void errmsg_errno(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* common.c */
int open_device(void);
int nl_open_device(struct neuronsim_nl **nl);
int nl_open_msg(struct neuronsim_nl **nl, bool with_device);
int parse_u32_arg(const char *what, const char *s, __u32 *out);
int parse_seconds_arg(const char *what, const char *s, double *out);
bool is_model_id(const char *s, __u32 *id);
void install_stop_handlers(void);
int device_info(struct neuronsim_info *info);
void print_load_failure(const char *plan, int err,
			const struct neuronsim_load_opts *o, const char *log);
const char *event_name(__u8 cmd);

/**
 * struct vartab - the variables of one model, from netlink GET_VARS: of
 *	a plan loaded for the command or of a loaded model (vartab.c).
 * @v: per variable libneuronsim's map entry (name, kind, size, address).
 * @n: entries in @v.
 * @cap: allocated entries.
 * @plan: the plan file's bytes, when loaded from a plan.
 * @plan_len: bytes of @plan.
 * @fd: the device fd holding the plan's model, or -1.
 * @model_id: the model the table describes.
 * @from_plan: loaded from a plan (RESOLVE on @fd) rather than netlink.
 * @sb_part_size: the device's SBUF partition size, for the resolve
 *	rule's MR_SB test (0 when unknown).
 * @sb_stride: bytes from one SBUF partition to the next in the window.
 */
struct vartab {
	struct neuronsim_map_var *v;
	size_t n, cap;
	void *plan;
	size_t plan_len;
	int fd;
	__u32 model_id;
	bool from_plan;
	__u32 sb_part_size;
	__u32 sb_stride;
};

void vartab_init(struct vartab *t);
void vartab_free(struct vartab *t);
int vartab_from_plan(struct vartab *t, const char *path, __u32 core);
int vartab_open(struct vartab *t, const char *src, __u32 core);
const struct neuronsim_map_var *vartab_find(const struct vartab *t,
					    const struct neuronsim_var_ref *r,
					    const char *text);
int table_resolve(const struct vartab *t, const struct neuronsim_map_var *v,
		  __u64 off, __u64 size, __u64 *addr);
const char *sbuf_gap_note(const struct vartab *t, const struct neuronsim_map_var *v,
			  __u64 off, __u64 size, char *buf, size_t cap);
void var_errmsg(const char *text, const struct neuronsim_map_var *v,
		const char *what, int err);
void resolve_errmsg(const struct vartab *t, const char *text,
		    const struct neuronsim_map_var *v,
		    const struct neuronsim_var_ref *r, int err, json_t *o);

/* what the load --hold commands share with the subcommands (resolve.c) */
int do_resolve(const struct vartab *t, int n, char **refs);
int do_read(const struct vartab *t, const char *text);
void do_vars(const struct vartab *t);
int print_model(const struct vartab *t, const char *plan, const char *tail,
		bool hold);
/* the holder's and the subcommand's dma (dma.c) */
int do_dma(const struct vartab *t, int argc, char **argv);
/* the holder's run, wait, write VAR FILE, read ... --out FILE (run.c);
 * -1 when the line is none of them */
int do_run_hold(const struct vartab *t, int argc, char **argv);
/* the holder's exec [--timeout MS] [--trace FILE] (exec.c) */
int do_exec_hold(const struct vartab *t, int argc, char **argv);


/**
 * struct snap_core - one NeuronCore in a snapshot (snapshot.c).
 * @mem: per enum kbin_mem_category, the bytes held now (sysfs
 *	device_mem/<category>/present).
 * @used: device_mem/present: every category.
 * @model_loads: other_info/model_load_count/total.
 * @flops: other_info/flop_count/total.
 * @dma: its DMA engine's counters since the device was created
 *	(neuronsim_engine_stats(), sysfs other_info/dma_*; all 0 on a
 *	kernel without them).
 */
struct snap_core {
	__u64 mem[KBIN_MEMCAT_MAX];
	__u64 used;
	__u64 model_loads;
	__u64 flops;
	struct neuronsim_engine_stats dma;
};

/**
 * struct snap_dev - one device in a snapshot.
 * @d: netlink GET_DEVICE: generation, cores and who holds each, HBM.
 * @global_core0: index of its NeuronCore 0 among every device's
 *	NeuronCores, in device order (neuron-monitor's core numbering).
 * @sysfs: the sysfs counters below were read.
 * @host_driver_memory: host_mem/driver_memory/present.
 * @mem_ecc_uncorrected: stats/hardware/mem_ecc_uncorrected, 0 without it.
 * @sram_ecc_uncorrected: stats/hardware/sram_ecc_uncorrected, 0 without it.
 * @dev_path: its device node (neuronsim_dev_path()).
 * @core: per NeuronCore.
 */
struct snap_dev {
	struct neuronsim_nl_device d;
	__u32 global_core0;
	bool sysfs;
	__u64 host_driver_memory;
	__u64 mem_ecc_uncorrected;
	__u64 sram_ecc_uncorrected;
	char dev_path[32];
	struct snap_core core[NEURONSIM_MAX_CORES];
};

/**
 * struct snap - every device and model at one moment.
 * @dev: @ndev devices, in index order.
 * @ndev: devices.
 * @taken_ns: CLOCK_MONOTONIC when it was taken, in nanoseconds.
 * @models: @nmodels models, by device then model id.
 * @nmodels: models.
 * @cap: allocated entries of @models.
 */
struct snap {
	struct snap_dev *dev;
	size_t ndev;
	__u64 taken_ns;
	struct neuronsim_nl_model *models;
	size_t nmodels, cap;
};

/* what a snapshot holds (inline: the monitor's report frees samples) */
static inline void snap_free(struct snap *s)
{
	free(s->dev);
	free(s->models);
	memset(s, 0, sizeof(*s));
}

/* snapshot.c */
int snap_take(struct snap *s);
/* snap_take() without a message: -errno, and its text in @err */
int snap_read(struct snap *s, char *err, size_t len);
bool snap_wanted(const struct snap_dev *d);
/*
 * the command line of @pid, its NULs as spaces, in @buf (len > 0): ""
 * when it cannot be read (the process is gone, a kernel thread, /proc
 * hides it).  Return: @buf.
 */
const char *proc_cmdline(__u32 pid, char *buf, size_t len);
void human_bytes(char *out, size_t cap, __u64 n);

/**
 * struct nsim_instance - the simulated EC2 instance (identity.c;
 *	Documentation/userspace.rst, "Simulated values"): neuron-monitor's
 *	instance_info and the exporter's instance labels.  Static strings.
 * @name: instance_name.
 * @id: instance_id.
 * @type: instance_type, by the first device's generation.
 * @availability_zone: instance_availability_zone.
 * @availability_zone_id: instance_availability_zone_id.
 * @region: instance_region.
 * @ami_id: ami_id.
 * @subnet_id: subnet_id.
 */
struct nsim_instance {
	const char *name, *id, *type, *availability_zone;
	const char *availability_zone_id, *region, *ami_id, *subnet_id;
};

/**
 * struct nsim_dev_ident - what neuron-ls shows of a device besides its
 *	NeuronCores (identity.c).
 * @bdf: simulated PCI bus:device.function, "10:00.0" for device 0.
 * @cpu_affinity: the CPUs near the device: every online CPU of the host.
 * @numa_node: its NUMA node, a string as neuron-ls prints it: "0".
 * @memory_size: HBM bytes.
 * @connected: the devices it is connected to (sysfs connected_devices).
 * @nconnected: entries of @connected; -1 when the module does not say.
 */
struct nsim_dev_ident {
	char bdf[16];
	char cpu_affinity[256];
	char numa_node[8];
	__u64 memory_size;
	__u32 connected[NEURONSIM_MAX_DEVICES];
	int nconnected;
};

/* identity.c */
void nsim_instance_get(const struct snap *s, struct nsim_instance *out);
void nsim_dev_ident_get(const struct snap_dev *d, struct nsim_dev_ident *out);
const char *nsim_runtime_version(void);

#endif /* _NEURONSIM_TOOL_MAIN_H */
