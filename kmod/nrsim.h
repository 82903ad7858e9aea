/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nrsim.h - structures shared by the files of the neuronsim module.
 *
 * One file per concern, the files a tree of layers: the lifecycle on top
 * (main.c, bus.c, device.c, ioctl.c, model.c), the features below it
 * (engine.c RUN, exec.c EXECUTE, resolve.c RESOLVE, tensor.c device tensors,
 * netlink.c, debugfs.c, sysfs.c, stage.c and relocate.c LOAD) and the leaves at the bottom
 * (dmaeng.c, lookup.c, devlist.c, core.c, hbm.c, mem.c, addrmap.c,
 * fault.c); no two files call each other (Documentation/module.rst).
 * Each ioctl's handler is its feature's; ioctl.c only dispatches.  Every piece of
 * state belongs to a struct nrsim_device; the module keeps only the list
 * of devices (devlist.c).
 */
#ifndef _NRSIM_H
#define _NRSIM_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <linux/neuronsim.h>
#include <linux/neuronsim_kbin.h>
#include <linux/neuronsim_udma.h>

#include "kbin_check.h"
#include "kbin_gen.h"
#include "kbin_kind.h"
#include "kbin_memory.h"
#include "kbin_names.h"
#include "resolve_core.h"

/*
 * The device address map (Documentation/uapi.rst).  The SBUF window size
 * and every other per-generation number are the generation table's
 * (kbin_gen.h).
 */
#define NRSIM_SBUF_BASE		0x100000000ULL		/* 4 GiB: core 0's window */
/* 8 GiB: core 0's PSUM window; core N's at N * psum_size past it */
#define NRSIM_PSUM_BASE		0x200000000ULL
#define NRSIM_HBM_STRIDE		0x1000000000ULL		/* 64 GiB between channels */
#define NRSIM_HBM_BASE		NRSIM_HBM_STRIDE		/* channel 0 */
/* the end of the address map: past the last possible HBM channel */
#define NRSIM_ADDR_END		(NRSIM_HBM_BASE + \
				 NEURONSIM_MAX_HBM_CHANNELS * NRSIM_HBM_STRIDE)

/* the files of device 0 that neuronsim/ keeps links to (debugfs.c) */
#define NRSIM_DEBUGFS_LINKS	7

/* HBM allocation granule: 4 KiB (genalloc min_alloc_order; kbin_memory.h) */
#define NRSIM_HBM_ORDER		KBIN_HBM_ORDER
#define NRSIM_HBM_GRANULE	KBIN_HBM_GRANULE

struct gen_pool;
struct seq_file;

/**
 * struct nrsim_mem - a device's sparse backing memory (mem.c).
 * @pages: device page frame (address >> PAGE_SHIFT) -> struct page.
 * @backing: bytes of RAM @pages holds (a multiple of PAGE_SIZE).
 */
struct nrsim_mem {
	struct xarray pages;
	atomic64_t backing;
};

/**
 * struct nrsim_usage_acct - bytes of one HBM usage category or channel.
 * @total: bytes allocated since the device was created.
 * @present: bytes held now.
 * @peak: largest @present seen.
 * @shown: the three as the sysfs files show them (Documentation/sysfs.rst,
 *	"Clearing a counter"): a write to a file sets its field to 0; then
 *	@shown.total counts on, @shown.present moves with @present but never
 *	below 0, @shown.peak is the largest @shown.present since.  So
 *	@shown.present <= @present at all times, and both are 0 when nothing
 *	is held.  The three above are never cleared.
 */
struct nrsim_usage_acct {
	u64 total;
	u64 present;
	u64 peak;
	struct {
		u64 total;
		u64 present;
		u64 peak;
	} shown;
};

/* which fields of a struct nrsim_usage_acct moved (sysfs notification) */
#define NRSIM_ACCT_TOTAL	0x1
#define NRSIM_ACCT_PRESENT	0x2
#define NRSIM_ACCT_PEAK		0x4

/*
 * nrsim_acct_add - account @n bytes more held in @a (and in @a->shown).
 * Context: the lock of @a held.  Return: the NRSIM_ACCT_* bits of the
 * fields of @a->shown that moved.
 */
static inline unsigned int nrsim_acct_add(struct nrsim_usage_acct *a, u64 n)
{
	unsigned int moved = n ? NRSIM_ACCT_TOTAL | NRSIM_ACCT_PRESENT : 0;

	a->total += n;
	a->present += n;
	if (a->present > a->peak)
		a->peak = a->present;
	a->shown.total += n;
	a->shown.present += n;
	if (a->shown.present > a->shown.peak) {
		a->shown.peak = a->shown.present;
		moved |= NRSIM_ACCT_PEAK;
	}
	return moved;
}

/*
 * nrsim_acct_sub - account @n bytes of @a released; @a->shown.present
 * stops at 0 (it was cleared while they were held).
 * Context: the lock of @a held.  Return: NRSIM_ACCT_PRESENT when
 * @a->shown.present moved, else 0.
 */
static inline unsigned int nrsim_acct_sub(struct nrsim_usage_acct *a, u64 n)
{
	u64 s = min(n, a->shown.present);

	a->present -= n;
	a->shown.present -= s;
	return s ? NRSIM_ACCT_PRESENT : 0;
}

/**
 * struct nrsim_mem_acct - the HBM accounting of one channel or NeuronCore
 *	(Documentation/hardware.rst, "HBM usage categories").
 * @all: every byte.
 * @usage: per libnrt usage category (enum kbin_usage).
 * @category: per device-memory category of the Neuron driver's sysfs
 *	(enum kbin_mem_category, kbin_usage_category()).
 */
struct nrsim_mem_acct {
	struct nrsim_usage_acct all;
	struct nrsim_usage_acct usage[KBIN_USAGE_MAX + 1];
	struct nrsim_usage_acct category[KBIN_MEMCAT_MAX];
};

/**
 * struct nrsim_hbm_channel - one HBM channel (hbm.c).
 * @pool: genalloc pool over the channel's device addresses.
 * @acct: the channel's accounting.
 */
struct nrsim_hbm_channel {
	struct gen_pool *pool;
	struct nrsim_mem_acct acct;
};

/**
 * struct nrsim_hbm_cursor - where a run of HBM allocations of one caller
 *	(a LOAD) starts looking, per channel (hbm.c).
 * @first_free: per channel, a granule index (address - channel base, in
 *	NRSIM_HBM_GRANULE units) below which the caller saw every granule in
 *	use; zero-initialised means "from the start".
 */
struct nrsim_hbm_cursor {
	unsigned long first_free[NEURONSIM_MAX_HBM_CHANNELS];
};

/**
 * struct nrsim_stats - a device's memory accounting (debugfs "stats").
 * @models: models loaded.
 * @mem_refs: kernel mem_refs held by loaded models.
 * @kmem_bytes: bytes of kernel memory held by loaded models.
 * @loads: successful loads since the device was created.
 * @load_failures: failed loads since the device was created.
 */
struct nrsim_stats {
	atomic64_t models;
	atomic64_t mem_refs;
	atomic64_t kmem_bytes;
	atomic64_t loads;
	atomic64_t load_failures;
};

/**
 * enum nrsim_status - the Neuron driver's per-NeuronCore status counters,
 *	stats/status/<name> in sysfs, in the driver's order (sysfs.c;
 *	Documentation/sysfs.rst).  A LOAD ends in @NRSIM_STATUS_SUCCESS, or
 *	in @NRSIM_STATUS_FAILURE and the counter its reason maps to; the
 *	execution of a subgraph in @NRSIM_STATUS_SUCCESS, or in
 *	@NRSIM_STATUS_FAILURE and the counter its status maps to.
 * @NRSIM_STATUS_SUCCESS: "success".
 * @NRSIM_STATUS_FAILURE: "failure".
 * @NRSIM_STATUS_TIMEOUT: "timeout".
 * @NRSIM_STATUS_EXEC_BAD_INPUT: "exec_bad_input".
 * @NRSIM_STATUS_HW_ERROR: "hw_error".
 * @NRSIM_STATUS_EXEC_COMPLETED_WITH_ERR: "execute_completed_with_error".
 * @NRSIM_STATUS_EXEC_COMPLETED_WITH_NUM_ERR:
 *	"execute_completed_with_num_error".
 * @NRSIM_STATUS_GENERIC_ERROR: "generic_error".
 * @NRSIM_STATUS_RESOURCE_ERROR: "resource_error".
 * @NRSIM_STATUS_RESOURCE_NC_ERROR: "resource_nc_error".
 * @NRSIM_STATUS_EXEC_FAILED_TO_QUEUE: "execute_failed_to_queue".
 * @NRSIM_STATUS_INVALID_ERROR: "invalid_error".
 * @NRSIM_STATUS_UNSUPPORTED_NEFF_VERSION: "unsupported_neff_version".
 * @NRSIM_STATUS_OOB_ERROR: "oob_error".
 * @NRSIM_STATUS_HW_COLLECTIVES_ERROR: "hw_collectives_error".
 * @NRSIM_STATUS_HW_HBM_UE_ERROR: "hw_hbm_ue_error".
 * @NRSIM_STATUS_HW_NC_UE_ERROR: "hw_nc_ue_error".
 * @NRSIM_STATUS_HW_DMA_ABORT_ERROR: "hw_dma_abort_error".
 * @NRSIM_STATUS_EXEC_SW_NQ_OVERFLOW: "execute_sw_nq_overflow".
 * @NRSIM_STATUS_EXEC_SW_SEMAPHORE_ERROR: "execute_sw_semaphore_error".
 * @NRSIM_STATUS_EXEC_SW_EVENT_ERROR: "execute_sw_event_error".
 * @NRSIM_STATUS_EXEC_SW_PSUM_COLLISION: "execute_sw_psum_collision".
 * @NRSIM_STATUS_EXEC_SW_SEQUENCER_FATAL: "execute_sw_sequencer_fatal".
 * @NRSIM_STATUS_HW_REPAIRABLE_HBM_UE_ERROR: "hw_repairable_hbm_ue_error".
 * @NRSIM_STATUS_MAX: number of counters.
 */
enum nrsim_status {
	NRSIM_STATUS_SUCCESS,
	NRSIM_STATUS_FAILURE,
	NRSIM_STATUS_TIMEOUT,
	NRSIM_STATUS_EXEC_BAD_INPUT,
	NRSIM_STATUS_HW_ERROR,
	NRSIM_STATUS_EXEC_COMPLETED_WITH_ERR,
	NRSIM_STATUS_EXEC_COMPLETED_WITH_NUM_ERR,
	NRSIM_STATUS_GENERIC_ERROR,
	NRSIM_STATUS_RESOURCE_ERROR,
	NRSIM_STATUS_RESOURCE_NC_ERROR,
	NRSIM_STATUS_EXEC_FAILED_TO_QUEUE,
	NRSIM_STATUS_INVALID_ERROR,
	NRSIM_STATUS_UNSUPPORTED_NEFF_VERSION,
	NRSIM_STATUS_OOB_ERROR,
	NRSIM_STATUS_HW_COLLECTIVES_ERROR,
	NRSIM_STATUS_HW_HBM_UE_ERROR,
	NRSIM_STATUS_HW_NC_UE_ERROR,
	NRSIM_STATUS_HW_DMA_ABORT_ERROR,
	NRSIM_STATUS_EXEC_SW_NQ_OVERFLOW,
	NRSIM_STATUS_EXEC_SW_SEMAPHORE_ERROR,
	NRSIM_STATUS_EXEC_SW_EVENT_ERROR,
	NRSIM_STATUS_EXEC_SW_PSUM_COLLISION,
	NRSIM_STATUS_EXEC_SW_SEQUENCER_FATAL,
	NRSIM_STATUS_HW_REPAIRABLE_HBM_UE_ERROR,
	NRSIM_STATUS_MAX,
};

/**
 * enum nrsim_host_mem - the Neuron driver's host-memory categories,
 *	stats/memory_usage/host_mem/<name> in sysfs (sysfs.c).  Only
 *	@NRSIM_HOST_MEM_DRIVER_MEMORY is used: the kernel memory the module
 *	holds for loaded models.
 * @NRSIM_HOST_MEM_DMA_BUFFERS: "dma_buffers".
 * @NRSIM_HOST_MEM_TENSORS: "tensors".
 * @NRSIM_HOST_MEM_CONSTANTS: "constants".
 * @NRSIM_HOST_MEM_APPLICATION_MEMORY: "application_memory".
 * @NRSIM_HOST_MEM_DRIVER_MEMORY: "driver_memory".
 * @NRSIM_HOST_MEM_NOTIFICATIONS: "notifications".
 * @NRSIM_HOST_MEM_DMA_RINGS: "dma_rings".
 * @NRSIM_HOST_MEM_UNCATEGORIZED: "uncategorized".
 * @NRSIM_HOST_MEM_MAX: number of categories.
 */
enum nrsim_host_mem {
	NRSIM_HOST_MEM_DMA_BUFFERS,
	NRSIM_HOST_MEM_TENSORS,
	NRSIM_HOST_MEM_CONSTANTS,
	NRSIM_HOST_MEM_APPLICATION_MEMORY,
	NRSIM_HOST_MEM_DRIVER_MEMORY,
	NRSIM_HOST_MEM_NOTIFICATIONS,
	NRSIM_HOST_MEM_DMA_RINGS,
	NRSIM_HOST_MEM_UNCATEGORIZED,
	NRSIM_HOST_MEM_MAX,
};

/**
 * struct nrsim_core_stats - a NeuronCore's load and execution counters
 *	(sysfs.c).
 * @status: per enum nrsim_status, the LOADs and the executions of a
 *	subgraph on the core that ended so.
 * @model_loads: successful LOADs whose first subgraph is on the core.
 * @models: models loaded now whose first subgraph is on the core, as
 *	sysfs shows it: a write to model_load_count/present sets it to 0,
 *	and an unload takes it down to 0, not below.
 * @inferences: executions of a subgraph on the core that finished.
 * @time_ns: virtual nanoseconds of the executions of a subgraph on the
 *	core.
 */
struct nrsim_core_stats {
	atomic64_t status[NRSIM_STATUS_MAX];
	atomic64_t model_loads;
	atomic64_t models;
	atomic64_t inferences;
	atomic64_t time_ns;
};

/* device indices are 0..NRSIM_MAX_DEVICES - 1 */
#define NRSIM_MAX_DEVICES	NEURONSIM_MAX_DEVICES

/**
 * struct nrsim_core - one NeuronCore of a device (core.c).
 * @owner: the thread group holding the core's reservation (a reference),
 *	or NULL when the core is free.
 * @users: the owner's models on the core and its loads in progress.
 */
struct nrsim_core {
	struct pid *owner;
	u32 users;
};

/**
 * struct nrsim_engine_stats - the counters of one NeuronCore's DMA engine
 *	(engine.c; debugfs "engine", Documentation/dma.rst, "Counters").
 * @bytes: bytes its queues wrote (S2M), since the device was created.
 * @udma_descs: UDMA descriptors it executed, both sides.
 * @descs: DMA descriptors it completed.
 * @runs: queue runs it finished (any status).
 * @errors: queue runs that ended with an error (not cancellations).
 * @busy_ns: nanoseconds it spent running queues.
 */
struct nrsim_engine_stats {
	atomic64_t bytes;
	atomic64_t udma_descs;
	atomic64_t descs;
	atomic64_t runs;
	atomic64_t errors;
	atomic64_t busy_ns;
};

/**
 * struct nrsim_dev_open - the files open on a device (device.c).
 * @lock: protects @nfiles and @removing.
 * @nfiles: files open on the device (its node or the alias).
 * @removing: set when del_device takes it away; no file opens any more.
 */
struct nrsim_dev_open {
	spinlock_t lock;	/* nfiles, removing */
	u32 nfiles;
	bool removing;
};

struct nrsim_device;

/**
 * struct nrsim_dev_hbm - a device's HBM (hbm.c; nrsim_hbm_init()).
 * @lock: protects the accounting in @channel and @core, and sysfs's
 *	host memory counters (struct nrsim_dev_sysfs.host_mem).
 * @channel: its HBM channels, arch->num_hbm_channels of them.
 * @core: per NeuronCore, the HBM charged to it (arch->num_cores).
 * @moved: called after a NeuronCore's accounting moved, outside @lock,
 *	with the NRSIM_ACCT_* bits of the usage's device category and of
 *	@core's @all that moved; any context.  Set by sysfs.c (its pollers,
 *	Documentation/sysfs.rst) while the device's tree exists, else NULL:
 *	hbm.c, a leaf, calls no file above it.
 */
struct nrsim_dev_hbm {
	spinlock_t lock;	/* HBM accounting */
	struct nrsim_hbm_channel channel[NEURONSIM_MAX_HBM_CHANNELS];
	struct nrsim_mem_acct core[NEURONSIM_MAX_CORES];
	void (*moved)(struct nrsim_device *nd, u32 core, u32 usage,
		      unsigned int cat_moved, unsigned int all_moved);
};

/**
 * struct nrsim_dev_cores - a device's NeuronCores (core.c;
 *	nrsim_cores_init()).
 * @lock: protects @core.
 * @core: arch->num_cores of them: who owns each.
 */
struct nrsim_dev_cores {
	struct mutex lock;	/* core */
	struct nrsim_core core[NEURONSIM_MAX_CORES];
};

/**
 * struct nrsim_dev_models - a device's published models (model.c;
 *	nrsim_models_init()).
 * @xa: the models by id (ids >= 1, unique on the device); RESOLVE reads
 *	it under RCU.
 * @next_id: cursor of the cyclic id allocation.
 */
struct nrsim_dev_models {
	struct xarray xa;
	u32 next_id;
};

/**
 * struct nrsim_dev_faults - a device's debugfs fault knobs (fault.c;
 *	nrsim_fault_init()): when a knob is N > 0, the Nth of its steps from
 *	now fails (then the knob is 0).
 * @hbm_alloc_nth: the HBM placements of a variable.
 * @copyin_nth: the payload copy-ins.
 * @reloc_nth: the steps of relocation (kernel arrays, each ring's HBM
 *	allocation, each ring's write; relocate.c).
 * @run_nth: the DMA descriptors the engines execute (engine.c): the Nth
 *	fails with -EIO.
 */
struct nrsim_dev_faults {
	atomic_t hbm_alloc_nth;
	atomic_t copyin_nth;
	atomic_t reloc_nth;
	atomic_t run_nth;
};

/**
 * struct nrsim_dev_engine - a device's DMA engines (engine.c;
 *	nrsim_engine_init()).
 * @wq: per NeuronCore, the ordered workqueue of its DMA engine: its
 *	queue runs one after another, other cores' in parallel.
 * @stats: per NeuronCore, the DMA engine's counters.
 */
struct nrsim_dev_engine {
	struct workqueue_struct *wq[NEURONSIM_MAX_CORES];
	struct nrsim_engine_stats stats[NEURONSIM_MAX_CORES];
};

/**
 * struct nrsim_dev_exec - a device's executions (exec.c;
 *	nrsim_exec_init()).
 * @lock: protects @core.
 * @core: per NeuronCore, the model whose execution holds it, or NULL:
 *	one execution per core at a time.
 */
struct nrsim_dev_exec {
	spinlock_t lock;	/* core */
	const struct nrsim_model *core[NEURONSIM_MAX_CORES];
};

/**
 * struct nrsim_dev_tensors - the device tensors of a device's open files
 *	(tensor.c; nrsim_tensors_dev_init()), for debugfs "tensors".
 * @lock: protects @list.
 * @list: the tensors published (TENSOR_ALLOC wrote their id back) and
 *	not yet freed.
 */
struct nrsim_dev_tensors {
	spinlock_t lock;	/* list */
	struct list_head list;
};

/**
 * struct nrsim_dev_debugfs - a device's debugfs files (debugfs.c;
 *	nrsim_debugfs_init()).
 * @dir: its directory, neuronsim/neuronsimN.
 * @models: its models/ directory.
 * @links: device 0 only: the links neuronsim/NAME -> neuronsim0/NAME
 *	that keep the paths of a single-device module.
 */
struct nrsim_dev_debugfs {
	struct dentry *dir;
	struct dentry *models;
	struct dentry *links[NRSIM_DEBUGFS_LINKS];
};

struct nrsim_sysfs_files;

/**
 * struct nrsim_dev_sysfs - a device's Neuron-driver sysfs tree and its
 *	counters (sysfs.c; nrsim_sysfs_add()).
 * @dev: the device neuronsimN of class neuronsim (neuronN of class
 *	neuron_device with neuron_compat), the root of the tree; NULL until
 *	nrsim_sysfs_add().
 * @dirs: the tree's directories in the order they were added.
 * @ndirs: entries in @dirs.
 * @notify: info/notify_delay is 0: a counter that moves notifies its
 *	files' pollers (sysfs_notify_dirent()); READ_ONCE/WRITE_ONCE.
 * @files: what sysfs.c keeps of the tree besides: the counter files'
 *	kernfs nodes (to notify them) and the bases of cleared counters;
 *	NULL until nrsim_sysfs_add().
 * @host_mem: host memory per enum nrsim_host_mem (host_mem/), under the
 *	HBM lock (struct nrsim_dev_hbm).
 * @core_host_mem: per NeuronCore, the host memory of
 *	neuron_coreM/stats/memory_usage/host_mem (the kernel memory of the
 *	models whose first subgraph is on M), under the HBM lock.
 * @core: per NeuronCore, its load and execution counters (status/ and
 *	other_info/).
 */
struct nrsim_dev_sysfs {
	struct device *dev;
	struct kobject **dirs;
	u32 ndirs;
	bool notify;
	struct nrsim_sysfs_files *files;
	struct nrsim_usage_acct host_mem[NRSIM_HOST_MEM_MAX];
	struct nrsim_usage_acct core_host_mem[NEURONSIM_MAX_CORES];
	struct nrsim_core_stats core[NEURONSIM_MAX_CORES];
};

/**
 * struct nrsim_device - one simulated device: a struct device on the
 *	neuronsim bus and one member per feature, each set up by its
 *	feature's init in nrsim_device_create() and torn down by its exit
 *	(Documentation/module.rst, "A device's features").
 * @dev: the struct device "neuronsimN" on the neuronsim bus; frees the
 *	whole struct when its last reference goes.
 * @index: device index N (/dev/neuronsimN).
 * @arch: its row of the generation table (kbin_gen.h): the geometry.
 * @name: "neuronsimN", its name on the bus, in debugfs and in messages.
 * @node: the name of its device node and of its sysfs class device:
 *	"neuronsimN", or "neuronN" with neuron_compat (nrsim_node_prefix()).
 * @misc: its device node /dev/<@node>.
 * @probed: the driver's probe ran, or may no longer run (device.c);
 *	under the device lock.
 * @probe_ret: what the probe returned, -ENODEV before it runs.
 * @open: its open files (device.c).
 * @mem: sparse backing memory of its whole address map (mem.c).
 * @hbm: its HBM channels and their accounting (hbm.c).
 * @cores: its NeuronCores (core.c).
 * @models: its published models (model.c).
 * @stats: counters (model.c; debugfs "stats").
 * @fault: its debugfs fault knobs (fault.c).
 * @engine: its DMA engines (engine.c).
 * @exec: its executions (exec.c).
 * @tensors: its open files' device tensors (tensor.c).
 * @debugfs: its debugfs files (debugfs.c).
 * @sysfs: its sysfs tree (sysfs.c).
 */
struct nrsim_device {
	struct device dev;
	u32 index;
	const struct kbin_gen *arch;
	char name[16];
	char node[16];
	struct miscdevice misc;
	bool probed;
	int probe_ret;
	struct nrsim_dev_open open;
	struct nrsim_mem mem;
	struct nrsim_dev_hbm hbm;
	struct nrsim_dev_cores cores;
	struct nrsim_dev_models models;
	struct nrsim_stats stats;
	struct nrsim_dev_faults fault;
	struct nrsim_dev_engine engine;
	struct nrsim_dev_exec exec;
	struct nrsim_dev_tensors tensors;
	struct nrsim_dev_debugfs debugfs;
	struct nrsim_dev_sysfs sysfs;
};

/* struct nrsim_mr.flags */
#define NRSIM_MR_REMOTE		0x1

/* struct nrsim_mr, the hot mem_ref, is in resolve_core.h */

/* where a variable lives (struct nrsim_mr_cold.where) */
enum nrsim_where {
	NRSIM_WHERE_NONE = 0,
	NRSIM_WHERE_HBM,		/* where_idx: channel */
	NRSIM_WHERE_SBUF,	/* where_idx: core */
	/* a scratchpad arena, NRSIM_WHERE_SP_LOCAL + backing_buf; where_idx: channel */
	NRSIM_WHERE_SP_LOCAL,
	NRSIM_WHERE_SP_SHARED,
	NRSIM_WHERE_SP_SHARDED,
	NRSIM_WHERE_SP_MAIN,
	NRSIM_WHERE_REMOTE,	/* where_idx: relative subgraph */
	NRSIM_WHERE_TARGET,	/* MR_PTR: its target's place */
	NRSIM_WHERE_PSUM,	/* where_idx: core */
};

/**
 * struct nrsim_mr_cold - per-variable data only debugfs reads.  32 bytes.
 * @name_off: offset of the NUL-terminated name in the subgraph's names.
 * @dims_off: index of the first dimension in the subgraph's dims pool.
 * @alignment_log2: log2 of the alignment.
 * @ndims: dimensions in use (0..8).
 * @mode: enum kbin_stage_mode.
 * @where: enum nrsim_where.
 * @where_idx: channel, core or subgraph (see enum nrsim_where).
 * @usage: enum kbin_usage of an HBM placement.
 * @has_payload: the record carried a payload.
 * @dtype: NUL-terminated.
 */
struct nrsim_mr_cold {
	u32 name_off;
	u32 dims_off;
	u8 alignment_log2;
	u8 ndims;
	u8 mode;
	u8 where;
	u16 where_idx;
	u8 usage;
	u8 has_payload;
	char dtype[KBIN_DTYPE_MAX];
};

/**
 * struct nrsim_hbm_region - one genalloc allocation held by a model (a
 *	scratchpad page).
 * @addr: device address (0: none).
 * @size: bytes (a multiple of NRSIM_HBM_GRANULE).
 * @core: the NeuronCore it is charged to; it lies in that core's HBM
 *	channel.
 * @usage: enum kbin_usage it is charged to.
 */
struct nrsim_hbm_region {
	u64 addr;
	u64 size;
	u32 core;
	u32 usage;
};

/**
 * struct nrsim_scratchpad - a scratchpad arena: pages in HBM.
 * @size: bytes the plan asks for (a header size, or its variables' extent).
 * @npages: pages allocated.
 * @pages: @npages regions; page i covers arena bytes
 *	[i * page_size, (i + 1) * page_size).
 */
struct nrsim_scratchpad {
	u64 size;
	u32 npages;
	struct nrsim_hbm_region *pages;
};

/* the two sides of a UDMA copy, the index of a queue's rings */
enum nrsim_dma_dir {
	NRSIM_DMA_M2S = 0,	/* read side: a descriptor's from */
	NRSIM_DMA_S2M = 1,	/* write side: its to */
	NRSIM_DMA_DIRS = 2,
};

/**
 * struct nrsim_dma_ring - one UDMA ring of a DMA queue side, its own HBM
 *	allocation charged to DMA_RING (relocate.c).
 * @addr: device address of the submission ring; the completion ring
 *	follows at @addr + @entries * UDMA_DESC_SIZE.
 * @first: index of its first descriptor among the queue side's.
 * @count: descriptors written into it.
 * @entries: its size in descriptors, UDMA_RING_GRANULE_DESCS multiple.
 * @reserved: padding.
 */
struct nrsim_dma_ring {
	u64 addr;
	u32 first;
	u32 count;
	u32 entries;
	u32 reserved;
};

/**
 * struct nrsim_dma_queue - one relocated DMA queue.
 * @name_off: its name in the subgraph's @dma_names.
 * @type: enum kbin_dma_queue_type.
 * @owner: enum kbin_dma_engine.
 * @reserved: padding.
 * @first_block: index of its first block among the subgraph's.
 * @num_blocks: its blocks.
 * @first_desc: index of its first descriptor among the subgraph's.
 * @num_descs: its descriptors.
 * @count: per side (enum nrsim_dma_dir), UDMA descriptors.
 * @first_ring: per side, index of its first ring in the subgraph's rings.
 * @num_rings: per side, rings.
 * @ring_bytes: bytes of its rings, submission and completion, both sides.
 * @first_sem: index of its semaphore set's first entry in the subgraph's
 *	@sem_ids and @sem_vals (struct nrsim_dma).
 * @num_sems: entries of its semaphore set.
 * @num_queues: the plan's num_queues, the hardware rings of its queue
 *	set: what each of its finished blocks adds to its semaphore
 *	(Documentation/dma.rst).
 * @nd: its device (the views read the rings back through it).
 * @sg: its subgraph.
 */
struct nrsim_dma_queue {
	u32 name_off;
	u8 type;
	u8 owner;
	u16 reserved;
	u32 num_queues;
	u32 first_block;
	u32 num_blocks;
	u32 first_desc;
	u32 num_descs;
	u32 count[NRSIM_DMA_DIRS];
	u32 first_ring[NRSIM_DMA_DIRS];
	u32 num_rings[NRSIM_DMA_DIRS];
	u64 ring_bytes;
	u32 first_sem;
	u32 num_sems;
	struct nrsim_device *nd;
	const struct nrsim_sg *sg;
};

/**
 * struct nrsim_dma_op - what the engine needs of a descriptor beyond its
 *	rings: the op and element types (engine.c), 24 bytes.
 * @op: enum kbin_dma_op.
 * @from_dtype: enum kbin_dma_dtype of the from side.
 * @to_dtype: enum kbin_dma_dtype of the to side.
 * @transpose_elem_size: KBIN_DMA_OP_TRANSPOSE: bytes per element.
 * @transpose_op: KBIN_DMA_OP_TRANSPOSE: the permutation ("WZXY").
 * @transpose_shape: KBIN_DMA_OP_TRANSPOSE: the element array's shape.
 */
struct nrsim_dma_op {
	u8 op;
	u8 from_dtype;
	u8 to_dtype;
	u8 transpose_elem_size;
	char transpose_op[KBIN_DMA_TRANSPOSE_DIMS];
	u32 transpose_shape[KBIN_DMA_TRANSPOSE_DIMS];
};

/**
 * struct nrsim_dma_block - what the engine and the sequencers need of a
 *	block.
 * @semaphore: the semaphore it adds to when done (its id in the plan):
 *	RUN's in its queue's set, an execution's in the NeuronCore's file.
 * @sem_index: its place in its queue's semaphore set.
 * @queue: its queue's index.
 * @first_desc: its first descriptor's index among the subgraph's.
 * @num_descs: its descriptors.
 * @reserved: zero.
 * @bytes: the bytes its descriptors write (kbin_prog_block_bytes()).
 * @ns: its virtual duration (kbin_prog_block_ns(); exec.c).
 */
struct nrsim_dma_block {
	u32 semaphore;
	u32 sem_index;
	u32 queue;
	u32 first_desc;
	u32 num_descs;
	u32 reserved;
	u64 bytes;
	u64 ns;
};

/* struct nrsim_dma_qrun.state: NEURONSIM_RUN_* of uapi/linux/neuronsim.h */

/**
 * struct nrsim_dma_qrun - the state of a queue's latest run (engine.c),
 *	under its file's @run_lock.
 * @state: NEURONSIM_RUN_IDLE, _QUEUED, _RUNNING or _DONE.
 * @unwaited: done and not reported by WAIT yet (counts in the file's
 *	@unwaited).
 * @status: 0 or the negative errno it stopped with.
 * @blocks: blocks done.
 * @descs: DMA descriptors done.
 * @udma_descs: UDMA descriptors executed, both sides.
 * @bytes: bytes written (S2M).
 * @ns: run time, from start to completion.
 * @fail_block: the block (its id in the queue) it stopped in, or U32_MAX.
 * @fail_desc: the descriptor (its index in the block), or U32_MAX.
 * @runs: runs finished since LOAD.
 */
struct nrsim_dma_qrun {
	u8 state;
	bool unwaited;
	int status;
	u32 blocks;
	u32 descs;
	u64 udma_descs;
	u64 bytes;
	u64 ns;
	u32 fail_block;
	u32 fail_desc;
	u64 runs;
};

/**
 * struct nrsim_dma_desc - what the kernel keeps of one DMA descriptor: the
 *	provenance of its UDMA descriptors.  144 bytes per descriptor (about
 *	half a byte per UDMA descriptor on real NEFFs).
 * @side: its from (M2S) and to (S2M) access patterns.
 * @first: per side, index of its first UDMA descriptor among its queue
 *	side's.
 * @block: index of its block among the subgraph's.
 * @index: its place in the block.
 */
struct nrsim_dma_desc {
	struct kbin_dma_side side[NRSIM_DMA_DIRS];
	u32 first[NRSIM_DMA_DIRS];
	u32 block;
	u32 index;
};

/**
 * struct nrsim_dma - the relocated DMA program of one subgraph.
 * @num_queues: queues.
 * @num_blocks: blocks.
 * @num_descs: descriptors.
 * @num_rings: rings over all queues and sides.
 * @queues: @num_queues queues.
 * @descs: @num_descs descriptors, queue by queue, block by block.
 * @rings: @num_rings rings.
 * @names: the queues' names.
 * @ring_bytes: bytes of all its rings.
 * @ops: @num_descs ops, as @descs (the engine's op table).
 * @blocks: @num_blocks blocks.
 * @num_sems: entries of all its queues' semaphore sets.
 * @sem_ids: @num_sems semaphore ids, queue by queue.
 * @sem_vals: @num_sems semaphore values, incremented by the blocks.
 * @qrun: @num_queues run states.
 * @dir: debugfs directory models/<id>/sg<N>/dma.
 */
struct nrsim_dma {
	u32 num_queues;
	u32 num_blocks;
	u32 num_descs;
	u32 num_rings;
	struct nrsim_dma_queue *queues;
	struct nrsim_dma_desc *descs;
	struct nrsim_dma_ring *rings;
	char *names;
	u64 ring_bytes;
	struct nrsim_dma_op *ops;
	struct nrsim_dma_block *blocks;
	u32 num_sems;
	u32 *sem_ids;
	u32 *sem_vals;
	struct nrsim_dma_qrun *qrun;
	struct dentry *dir;
};

/**
 * struct nrsim_prog - a subgraph's program as its sequencers walk it
 *	(exec.c): the decoded entries of its five streams, copied from the
 *	checked plan at LOAD (Documentation/execute.rst).
 * @sync: every stream's entries, PE's first, then ACT, POOL, DVE, SP.
 * @first: per engine (enum kbin_dma_engine - 1), its first entry in @sync.
 * @num: per engine, its instructions.
 * @instrs: the sum of @num.
 * @recs: with KBIN_PROG_F_COMPUTE, every stream's 64-byte records in the
 *	order of @sync (a compute instruction's record is what its engine
 *	executes, kbin_compute_run()); NULL for a plan without the flag.
 */
struct nrsim_prog {
	struct kbin_prog_sync *sync;
	u8 *recs;
	u32 first[KBIN_PROG_ENGINES];
	u32 num[KBIN_PROG_ENGINES];
	u64 instrs;
};

struct nrsim_exec_sg;

/**
 * struct nrsim_sg - one staged subgraph.
 * @buckets: hashtable, 1 << @hash_bits buckets (a power of two >= nmem).
 * @hash_bits: log2 of the bucket count.
 * @nmem: records.
 * @mrs: the kernel mem_refs, var_id order.
 * @cold: per-variable debugfs data, var_id order.
 * @names: name strings.
 * @dims: shape dimensions.
 * @lists: MR_LIST / MR_PTR_TABLE index lists.
 * @table_addrs: MR_PTR_TABLE runtime form (libnrt's addrs), by index in
 *	@lists: each row's device address, 0 when it needs no translation;
 *	NULL when the subgraph has no table.
 * @table_mask: MR_PTR_TABLE runtime form (libnrt's needs_translation), a
 *	bitmap by index in @lists: the row's variable resolved to an address.
 * @core: NeuronCore.
 * @channel: HBM channel of @core.
 * @local_sp: local scratchpad.
 * @num_carveouts: SBUF carve-outs.
 * @carveouts: SBUF carve-outs (reserved, never handed out).
 * @name: subgraph name.
 * @dma: its relocated DMA program (relocate.c).
 * @prog: its engines' program (exec.c); empty without one.
 * @exec: its part of the model's execution state, or NULL (exec.c).
 * @dir: debugfs directory models/<id>/sg<N>.
 */
struct nrsim_sg {
	struct hlist_head *buckets;
	u32 hash_bits;
	u32 nmem;
	struct nrsim_mr *mrs;
	struct nrsim_mr_cold *cold;
	char *names;
	u64 *dims;
	u32 *lists;
	u64 *table_addrs;
	unsigned long *table_mask;
	u32 core;
	u32 channel;
	struct nrsim_scratchpad local_sp;
	u32 num_carveouts;
	struct kbin_sb_carveout carveouts[KBIN_MAX_CARVEOUTS];
	char name[KBIN_SG_NAME_MAX];
	struct nrsim_dma dma;
	struct nrsim_prog prog;
	struct nrsim_exec_sg *exec;
	struct dentry *dir;
};

struct nrsim_file;
struct nrsim_exec;

/**
 * struct nrsim_model - a loaded model.
 * @id: model id (>= 1), unique on its device.
 * @nd: its device.
 * @owner: the open file that loaded it.
 * @owner_tgid: the thread group that loaded it (a reference).
 * @node: in @owner's model list.
 * @target_gen: KBIN target generation.
 * @first_core: NeuronCore of subgraph 0.
 * @num_sg: subgraphs.
 * @num_vars: records over all subgraphs.
 * @hbm_bytes: HBM bytes held (variables and scratchpad pages).
 * @scratchpad_bytes: scratchpad bytes held.
 * @kmem_bytes: kernel memory held by the model.
 * @dma_ring_bytes: HBM bytes of its UDMA rings (in @hbm_bytes too).
 * @udma_descs: UDMA descriptors in its rings, both sides.
 * @dma_kmem_bytes: the part of @kmem_bytes the relocation holds.
 * @reloc_ns: how long the relocation took.
 * @load_sp: the load's scratchpad arenas by backing_buf (SHARED, SHARDED,
 *	MAIN; the LOCAL slot is unused: each subgraph has its own), on the
 *	first NeuronCore (kbin_backing(), Documentation/hardware.rst).
 * @cores_reserved: its NeuronCores [first_core, first_core + num_sg) are
 *	reserved for it (core.c).
 * @stopping: UNLOAD or close: its queued runs are cancelled, a running
 *	one stops at its next UDMA descriptor (engine.c).
 * @active_runs: its runs queued or running, and its execution's
 *	subgraphs queued or running (under the file's @run_lock).
 * @exec_tails: of @active_runs, its execution's subgraphs that ended
 *	(they touch its memory no more) and have yet to drop their count:
 *	READ_VAR, WRITE_VAR and TENSOR_COPY do not wait for them (under the
 *	file's @run_lock; exec.c).
 * @exec_state: its latest execution's state, NEURONSIM_EXEC_IDLE,
 *	_RUNNING or _DONE (exec.c): written under the file's @run_lock
 *	(WRITE_ONCE), read under it or, under the file's @lock alone, with
 *	READ_ONCE; RUN refuses
 *	its queues while it is _RUNNING (engine.c), so neither calls the
 *	other.
 * @exec: its execution state (exec.c), when the plan has a program;
 *	else NULL.
 * @dir: debugfs directory models/<id>.
 * @sg: the subgraphs.
 */
struct nrsim_model {
	u32 id;
	struct nrsim_device *nd;
	struct nrsim_file *owner;
	struct pid *owner_tgid;
	struct list_head node;
	u32 target_gen;
	u32 first_core;
	u32 num_sg;
	u64 num_vars;
	u64 hbm_bytes;
	u64 scratchpad_bytes;
	u64 kmem_bytes;
	u64 dma_ring_bytes;
	u64 udma_descs;
	u64 dma_kmem_bytes;
	u64 reloc_ns;
	struct nrsim_scratchpad load_sp[KBIN_BACKING_BUF_MAX + 1];
	bool cores_reserved;
	bool stopping;
	u8 exec_state;
	u32 active_runs;
	u32 exec_tails;
	struct nrsim_exec *exec;
	struct dentry *dir;
	struct nrsim_sg sg[];
};

/**
 * struct nrsim_file - per open file of a device node.
 * @nd: the device the file is open on.
 * @lock: serialises LOAD, UNLOAD, READ_VAR, WRITE_VAR, MODEL_INFO.
 * @models: its models.
 * @nmodels: entries in @models.
 * @last_model: its newest published model, or NULL once that one is
 *	unpublished (model.c); read under RCU by nrsim_model_lookup_rcu().
 * @run_lock: protects the run states of its models' queues and the
 *	counts below (engine.c).
 * @run_wq: woken when a run of its models finishes (WAIT, poll, UNLOAD).
 * @run_seq: bumped on every finished run.
 * @runs: its runs queued or running, at most max_runs_per_fd (a run
 *	counts until its last queue is reported done).
 * @unwaited: its queues whose run is done and not waited for (poll).
 * @queued: its runs queued on an engine and not started yet (engine.c),
 *	under @run_lock: UNLOAD and close take a stopping model's off the
 *	engine's workqueue instead of waiting for the runs ahead of them.
 * @tensors: its device tensors by id (ids >= 1; tensor.c), under the
 *	xarray's own lock; a slot is reserved (NULL to readers) until
 *	TENSOR_ALLOC has written the id back.
 * @ntensors: tensors it holds or is allocating, at most
 *	max_tensors_per_fd; under @tensors' lock.
 * @next_tensor_id: cursor of the cyclic tensor id allocation.
 */
struct nrsim_file {
	struct nrsim_device *nd;
	struct mutex lock;	/* LOAD/UNLOAD/READ/WRITE/MODEL_INFO */
	struct list_head models;
	u32 nmodels;
	struct nrsim_model __rcu *last_model;
	spinlock_t run_lock;	/* qrun states, runs, unwaited */
	wait_queue_head_t run_wq;
	u64 run_seq;
	u32 runs;
	u32 unwaited;
	struct list_head queued;
	struct xarray tensors;
	u32 ntensors;
	u32 next_tensor_id;
};

/* module parameters (main.c) */
extern char *nrsim_param_arch;
extern unsigned long nrsim_max_plan_bytes;
extern unsigned long nrsim_max_loading_bytes;
extern unsigned int nrsim_max_models_per_fd;
extern unsigned int nrsim_max_vars_per_subgraph;
extern unsigned long nrsim_backing_limit;
extern unsigned long nrsim_backing_limit_total;
extern unsigned long nrsim_scratchpad_page_size;
extern unsigned int nrsim_scratchpad_max_pages;
extern unsigned int nrsim_max_udma_descs;
extern unsigned int nrsim_dma_ring_max_descs;
extern unsigned int nrsim_max_runs_per_fd;
extern unsigned long nrsim_max_run_bytes;
extern unsigned int nrsim_max_tensors_per_fd;
extern bool nrsim_param_compat;
extern char *nrsim_param_compat_refuse;

/**
 * nrsim_copy_out() - write an ioctl's output struct back: the first
 *	min(@usize, @ksize) bytes of @kbuf, and zeros past @ksize when the
 *	caller's struct is larger (uapi/linux/neuronsim.h, "extensible by
 *	size").
 * @uarg: the user's struct.
 * @usize: the caller's struct size (the command's size field).
 * @kbuf: the kernel's struct.
 * @ksize: its size.
 *
 * Return: 0, or -EFAULT.
 */
static inline int nrsim_copy_out(void __user *uarg, size_t usize,
				 const void *kbuf, size_t ksize)
{
	size_t n = min(usize, ksize);

	if (copy_to_user(uarg, kbuf, n))
		return -EFAULT;
	if (usize > ksize && clear_user(uarg + ksize, usize - ksize))
		return -EFAULT;
	return 0;
}

/* addrmap.c */
u64 nrsim_hbm_base(const struct nrsim_device *nd, u32 channel);
u64 nrsim_sbuf_base(const struct nrsim_device *nd, u32 core);
u64 nrsim_psum_base(const struct nrsim_device *nd, u32 core);
u32 nrsim_core_channel(const struct nrsim_device *nd, u32 core);
long nrsim_ioctl_get_info(struct nrsim_file *nf, void __user *uarg,
			  size_t usize);

/* fault.c */
bool nrsim_fault_hit(atomic_t *knob);
void nrsim_fault_init(struct nrsim_device *nd);

/* devlist.c */
void nrsim_devices_lock(void);
void nrsim_devices_unlock(void);
struct nrsim_device *nrsim_device_next(unsigned long *index);
struct nrsim_device *nrsim_device_find(u32 index);
int nrsim_devices_reserve(u32 index);
void nrsim_devices_publish(struct nrsim_device *nd);
void nrsim_devices_erase(u32 index);

/* device.c */
const struct kbin_gen *nrsim_arch_find(const char *name);
const char *nrsim_node_prefix(void);
int nrsim_device_probe(struct device *dev);
int nrsim_device_unprobe(struct device *dev);
struct nrsim_device *nrsim_device_create(u32 index, const struct kbin_gen *arch);
int nrsim_device_remove(u32 index);
int nrsim_alias_register(void);
void nrsim_alias_unregister(void);

/* mem.c */
void nrsim_mem_init(struct nrsim_mem *mem);
void nrsim_mem_exit(struct nrsim_mem *mem);
int nrsim_mem_write(struct nrsim_mem *mem, u64 addr, const void *src, u64 len);
int nrsim_mem_write_user(struct nrsim_mem *mem, u64 addr,
			 const void __user *src, u64 len);
int nrsim_mem_read(struct nrsim_mem *mem, u64 addr, void *dst, u64 len);
void *nrsim_mem_map(struct nrsim_mem *mem, u64 addr);
int nrsim_mem_read_user(struct nrsim_mem *mem, u64 addr, void __user *dst,
			u64 len);
void nrsim_mem_discard(struct nrsim_mem *mem, u64 addr, u64 len);
int nrsim_mem_fill(struct nrsim_mem *mem, u64 addr, u8 value, u64 len);
int nrsim_mem_copy(struct nrsim_mem *mem, u64 dst, u64 src, u64 len);
u64 nrsim_mem_backing_bytes(struct nrsim_mem *mem);
u64 nrsim_mem_backing_total(void);
const char *nrsim_mem_cap_str(struct nrsim_mem *mem, char *buf, size_t size);

/* hbm.c */
int nrsim_hbm_init(struct nrsim_device *nd);
void nrsim_hbm_exit(struct nrsim_device *nd);
u64 nrsim_hbm_alloc(struct nrsim_device *nd, u32 core, u64 size, u64 align,
		    u32 usage, struct nrsim_hbm_cursor *cur);
void nrsim_hbm_free(struct nrsim_device *nd, u32 core, u64 addr, u64 size,
		    u32 usage);
u64 nrsim_hbm_avail(struct nrsim_device *nd, u32 channel);
size_t nrsim_hbm_usage_str(struct nrsim_device *nd, u32 channel, char *buf,
			   size_t size);
u64 nrsim_hbm_used_total(struct nrsim_device *nd);
void nrsim_hbm_show(struct nrsim_device *nd, struct seq_file *m);

/* core.c */
int nrsim_cores_reserve(struct nrsim_device *nd, struct pid *tgid, u32 *first,
			u32 n, u32 *busy, pid_t *busy_pid);
void nrsim_cores_release(struct nrsim_device *nd, u32 first, u32 n);
void nrsim_cores_get(struct nrsim_device *nd, pid_t *owner_pid, u32 *users);
bool nrsim_sbuf_touches_carveout(const struct nrsim_model *m, u64 pa, u64 len);
void nrsim_cores_init(struct nrsim_device *nd);
void nrsim_cores_exit(struct nrsim_device *nd);

/* model.c */
struct nrsim_file *nrsim_file_new(struct nrsim_device *nd);
void nrsim_file_release(struct nrsim_file *nf);
long nrsim_ioctl_load(struct nrsim_file *nf, void __user *uarg, size_t usize);
long nrsim_ioctl_unload(struct nrsim_file *nf, void __user *uarg,
			size_t usize);
long nrsim_ioctl_model_info(struct nrsim_file *nf, void __user *uarg,
			    size_t usize);
void nrsim_models_init(struct nrsim_device *nd);
void nrsim_models_exit(struct nrsim_device *nd);

/* lookup.c */
struct nrsim_model *nrsim_model_find_rcu(struct nrsim_file *nf, u32 id);
struct nrsim_model *nrsim_model_get_locked(struct nrsim_file *nf, u32 id);

/**
 * nrsim_model_lookup_rcu() - find one of a file's models (RESOLVE's path).
 * @nf: the caller's file.
 * @id: model id.
 *
 * The file's newest model is tried first, one pointer and one compare;
 * any other id goes through the device's model xarray
 * (nrsim_model_find_rcu()).
 *
 * Context: rcu_read_lock() held; the model stays valid until it is
 * dropped.
 * Return: the model, or NULL when @id is unknown or another file's.
 */
static inline struct nrsim_model *
nrsim_model_lookup_rcu(struct nrsim_file *nf, u32 id)
{
	struct nrsim_model *m = rcu_dereference(nf->last_model);

	if (likely(m && m->id == id))
		return m;
	return nrsim_model_find_rcu(nf, id);
}

/* stage.c */
int nrsim_stage(struct nrsim_model *m, const void *plan, u64 len, u32 first_core,
		struct kbin_err *err);
void nrsim_unstage(struct nrsim_model *m);
void *nrsim_kvcalloc(struct nrsim_model *m, size_t n, size_t size);
long nrsim_ioctl_read_var(struct nrsim_file *nf, void __user *uarg,
			  size_t usize);
long nrsim_ioctl_write_var(struct nrsim_file *nf, void __user *uarg,
			   size_t usize);
struct nrsim_model *nrsim_var_find_locked(struct nrsim_file *nf,
					  const struct neuronsim_var_io *io,
					  bool write, const char *what,
					  const struct nrsim_mr **mr);
int nrsim_var_read_dev(struct nrsim_mem *mem, const struct nrsim_mr *mr,
		       u64 off, u64 dst, u64 len);

/* tensor.c */
void nrsim_tensors_dev_init(struct nrsim_device *nd);
void nrsim_tensors_show(struct nrsim_device *nd, struct seq_file *m);
void nrsim_tensors_init(struct nrsim_file *nf);
void nrsim_tensors_release(struct nrsim_file *nf);
long nrsim_ioctl_tensor_alloc(struct nrsim_file *nf, void __user *uarg,
			      size_t usize);
long nrsim_ioctl_tensor_free(struct nrsim_file *nf, void __user *uarg,
			     size_t usize);
long nrsim_ioctl_tensor_io(struct nrsim_file *nf, void __user *uarg,
			   size_t usize);
long nrsim_ioctl_tensor_copy(struct nrsim_file *nf, void __user *uarg,
			     size_t usize);

/* relocate.c */
int nrsim_relocate(struct nrsim_model *m, const void *plan, u64 len,
		   struct kbin_err *err);
void nrsim_unrelocate(struct nrsim_model *m);
u32 nrsim_dma_ring_locate(const struct nrsim_sg *sg,
			  const struct nrsim_dma_queue *q, u32 dir, u32 idx,
			 u64 *addr);
u32 nrsim_dma_desc_count(const struct nrsim_dma *dma,
			 const struct nrsim_dma_queue *q, u32 d, u32 dir);
u32 nrsim_dma_desc_find(const struct nrsim_sg *sg,
			const struct nrsim_dma_queue *q, u32 dir, u32 idx);
long nrsim_ioctl_dma_info(struct nrsim_file *nf, void __user *uarg,
			  size_t usize);

/* resolve.c */
int nrsim_sg_hash_init(struct nrsim_sg *sg);
void nrsim_sg_hash_insert(struct nrsim_sg *sg, struct nrsim_mr *mr);
struct nrsim_mr *nrsim_sg_find(const struct nrsim_sg *sg, u32 var_id);
void nrsim_resolve_note(const struct nrsim_model *m, u32 subgraph, u32 var_id,
			u64 offset, u64 size, int err);
long nrsim_ioctl_resolve(struct nrsim_file *nf, void __user *uarg,
			 size_t usize);
long nrsim_ioctl_resolve_batch(struct nrsim_file *nf, void __user *uarg,
			       size_t usize);

/**
 * nrsim_resolve_one_quiet() - nrsim_resolve_one() without the log line:
 *	the subgraph's bound, then the resolve core.  (RESOLVE_BATCH's
 *	in-place path, inside a user access window, keeps the table of the
 *	subgraph at hand itself, resolve.c.)
 * @m: the model.
 * @subgraph: index in the plan's subgraph table.
 * @var_id: the variable.
 * @offset: bytes into the variable.
 * @size: bytes the access covers.
 * @addr: out: the device address, offset + physical_address.
 *
 * Context: as nrsim_resolve_one().
 * Return: as nrsim_resolve_one().
 */
static __always_inline int nrsim_resolve_one_quiet(const struct nrsim_model *m,
						   u32 subgraph, u32 var_id,
						  u64 offset, u64 size,
						  u64 *addr)
{
	const struct nrsim_sg *sg;

	if (subgraph >= m->num_sg)
		return -ENOENT;
	sg = &m->sg[subgraph];
	return nrsim_rc_resolve(sg->buckets, sg->hash_bits, var_id, offset,
			       size, addr);
}

/**
 * nrsim_resolve_one() - resolve one (subgraph, var_id, offset, size) of a
 *	model: the lookup, bounds check and add of resolve_core.h, inlined
 *	into the RESOLVE handlers (the code bench/resolve_bench.c counts).
 * @m: the model.
 * @subgraph: index in the plan's subgraph table.
 * @var_id: the variable.
 * @offset: bytes into the variable.
 * @size: bytes the access covers.
 * @addr: out: the device address, offset + physical_address.
 *
 * A failure of the rule itself (a variable that exists) is logged at
 * debug level by nrsim_resolve_note(); a successful resolve never calls it.
 *
 * Context: under rcu_read_lock(), or with the model held by its fd lock.
 * Return: 0, or the errno of the resolve rule (Documentation/uapi.rst):
 * -ENOENT unknown subgraph or var; -ERANGE; -EINVAL MR_PTR with an
 * offset; -ENODATA.
 */
static inline int nrsim_resolve_one(const struct nrsim_model *m, u32 subgraph,
				    u32 var_id, u64 offset, u64 size, u64 *addr)
{
	int ret = nrsim_resolve_one_quiet(m, subgraph, var_id, offset, size,
					 addr);

	if (unlikely(ret) && ret != -ENOENT)
		nrsim_resolve_note(m, subgraph, var_id, offset, size, ret);
	return ret;
}

/* dmaeng.c */
/**
 * struct nrsim_eng_result - what nrsim_eng_block() did of one block,
 *	or nrsim_eng_queue() of one queue.
 * @descs: DMA descriptors done.
 * @fail_desc: the descriptor (its index in the block) it stopped in, or
 *	U32_MAX.
 * @udma_descs: UDMA descriptors executed, both sides.
 * @bytes: bytes written.
 */
struct nrsim_eng_result {
	u32 descs;
	u32 fail_desc;
	u64 udma_descs;
	u64 bytes;
};

struct nrsim_eng;
struct nrsim_eng *nrsim_eng_alloc(void);
void nrsim_eng_free(struct nrsim_eng *e);
void nrsim_eng_bind(struct nrsim_eng *e, struct nrsim_model *m, u32 sg,
		    const int *abort, u64 deadline);
int nrsim_eng_block(struct nrsim_eng *e, u32 qi, u32 blk,
		    struct nrsim_eng_result *out);
int nrsim_eng_queue(struct nrsim_eng *e, u32 qi, struct nrsim_eng_result *out);

/* engine.c */
int nrsim_engine_init(struct nrsim_device *nd);
void nrsim_engine_exit(struct nrsim_device *nd);
void nrsim_run_stop(struct nrsim_file *nf, struct nrsim_model *m);
void nrsim_run_forget_locked(struct nrsim_file *nf, struct nrsim_model *m);
long nrsim_ioctl_run(struct nrsim_file *nf, void __user *uarg, size_t usize);
long nrsim_ioctl_wait(struct nrsim_file *nf, void __user *uarg, size_t usize);
__poll_t nrsim_engine_poll(struct nrsim_file *nf, struct file *file,
			   struct poll_table_struct *wait);

/* exec.c */
int nrsim_exec_stage(struct nrsim_model *m, const void *plan, u64 len,
		     struct kbin_err *err);
void nrsim_exec_free(struct nrsim_model *m);
void nrsim_exec_stop_locked(struct nrsim_file *nf, struct nrsim_model *m);
void nrsim_exec_forget_locked(struct nrsim_file *nf, struct nrsim_model *m);
long nrsim_ioctl_execute(struct nrsim_file *nf, void __user *uarg, size_t usize);
long nrsim_ioctl_exec_wait(struct nrsim_file *nf, void __user *uarg,
			   size_t usize);
void nrsim_exec_debugfs_add(struct nrsim_model *m);
void nrsim_exec_init(struct nrsim_device *nd);
void nrsim_exec_exit(struct nrsim_device *nd);

/* ioctl.c */
long nrsim_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* bus.c */
extern struct bus_type nrsim_bus_type;
int nrsim_bus_init(const struct kbin_gen *arch0);
void nrsim_bus_exit(void);

/* debugfs.c */
void nrsim_debugfs_root_init(void);
void nrsim_debugfs_root_exit(void);
void nrsim_debugfs_init(struct nrsim_device *nd);
void nrsim_debugfs_exit(struct nrsim_device *nd);
void nrsim_debugfs_model_add(struct nrsim_model *m);
void nrsim_debugfs_model_del(struct nrsim_model *m);

/* sysfs.c */
int nrsim_sysfs_init(void);
void nrsim_sysfs_exit(void);
int nrsim_sysfs_add(struct nrsim_device *nd);
void nrsim_sysfs_del(struct nrsim_device *nd);
void nrsim_sysfs_count_load(struct nrsim_device *nd, u32 core, long ret,
			    u32 reason);
void nrsim_sysfs_model_published(struct nrsim_model *m);
void nrsim_sysfs_count_exec(struct nrsim_device *nd, u32 core, int status,
			    u64 virtual_ns);
void nrsim_sysfs_model_unpublished(struct nrsim_model *m);
void nrsim_sysfs_dma_counted(struct nrsim_device *nd, u32 core, bool error);

#endif /* _NRSIM_H */
