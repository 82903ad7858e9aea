// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - a device's counters in the Neuron driver's sysfs layout, so a
 * tool that reads the driver's tree reads ours with another path prefix
 * (Documentation/sysfs.rst).  The tree hangs off a device of the module's
 * own class, /sys/class/neuronsim/neuronsimN, or with neuron_compat the
 * driver's names, /sys/class/neuron_device/neuronN (then refused while
 * the driver is loaded); the class device has no parent, as the
 * driver's, so it is /sys/devices/virtual/<class>/<name>:
 *
 *   core_count, connected_devices
 *   info/{notify_delay,serial_number}
 *   info/architecture/{arch_type,instance_type,device_name}
 *   stats/memory_usage/host_mem/<host category>/{total,present,peak}
 *   stats/hardware/{mem_ecc_uncorrected,mem_ecc_repairable_uncorrected,
 *                   sram_ecc_uncorrected}
 *   stats/power/utilization
 *   neuron_coreM/info/architecture/arch_type
 *   neuron_coreM/stats/memory_usage/host_mem/{total,present,peak}
 *   neuron_coreM/stats/memory_usage/device_mem/{total,present,peak}
 *   neuron_coreM/stats/memory_usage/device_mem/<category>/{total,present,peak}
 *   neuron_coreM/stats/status/<counter>/{total,present}
 *   neuron_coreM/stats/other_info/<counter>/{total,present}
 *
 * Each directory is a kobject whose type lists its files as attribute
 * groups (one named group per category or counter), so the files come
 * and go with the kobject and nothing is created file by file.  The
 * device-memory categories are the plan library's (kbin_mem_category_str(),
 * fed by the one usage table kbin_usage_category()); the values are the
 * HBM accounting of hbm.c, read under the device's HBM lock, and the
 * load counters below, atomics.
 *
 * A write to a counter file clears that field, as the driver's do: a
 * memory field's "shown" copy (struct nrsim_usage_acct.shown) under the
 * HBM lock, a count's base (what it had at the clear, subtracted when
 * it is read; struct nrsim_sysfs_files), and the models loaded now
 * directly.  With info/notify_delay at 0 a counter that moves notifies
 * its files: their kernfs nodes are looked up once, when the tree is
 * built, and sysfs_notify_dirent() is callable in atomic context, where
 * hbm.c and engine.c count.
 *
 * A load ends in one status counter per nrsim_status_reasons[] (the one
 * table from a failed load's reason to the driver's status counter), and
 * "success" or "failure" besides.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/device.h>
#include <linux/kernfs.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "nrsim.h"

/*
 * the driver's status counters, in its order (Documentation/sysfs.rst,
 * "Load and execution status"); index: enum nrsim_status
 */
static const char *const nrsim_status_names[NRSIM_STATUS_MAX] = {
	[NRSIM_STATUS_SUCCESS] = "success",
	[NRSIM_STATUS_FAILURE] = "failure",
	[NRSIM_STATUS_TIMEOUT] = "timeout",
	[NRSIM_STATUS_EXEC_BAD_INPUT] = "exec_bad_input",
	[NRSIM_STATUS_HW_ERROR] = "hw_error",
	[NRSIM_STATUS_EXEC_COMPLETED_WITH_ERR] = "execute_completed_with_error",
	[NRSIM_STATUS_EXEC_COMPLETED_WITH_NUM_ERR] = "execute_completed_with_num_error",
	[NRSIM_STATUS_GENERIC_ERROR] = "generic_error",
	[NRSIM_STATUS_RESOURCE_ERROR] = "resource_error",
	[NRSIM_STATUS_RESOURCE_NC_ERROR] = "resource_nc_error",
	[NRSIM_STATUS_EXEC_FAILED_TO_QUEUE] = "execute_failed_to_queue",
	[NRSIM_STATUS_INVALID_ERROR] = "invalid_error",
	[NRSIM_STATUS_UNSUPPORTED_NEFF_VERSION] = "unsupported_neff_version",
	[NRSIM_STATUS_OOB_ERROR] = "oob_error",
	[NRSIM_STATUS_HW_COLLECTIVES_ERROR] = "hw_collectives_error",
	[NRSIM_STATUS_HW_HBM_UE_ERROR] = "hw_hbm_ue_error",
	[NRSIM_STATUS_HW_NC_UE_ERROR] = "hw_nc_ue_error",
	[NRSIM_STATUS_HW_DMA_ABORT_ERROR] = "hw_dma_abort_error",
	[NRSIM_STATUS_EXEC_SW_NQ_OVERFLOW] = "execute_sw_nq_overflow",
	[NRSIM_STATUS_EXEC_SW_SEMAPHORE_ERROR] = "execute_sw_semaphore_error",
	[NRSIM_STATUS_EXEC_SW_EVENT_ERROR] = "execute_sw_event_error",
	[NRSIM_STATUS_EXEC_SW_PSUM_COLLISION] = "execute_sw_psum_collision",
	[NRSIM_STATUS_EXEC_SW_SEQUENCER_FATAL] = "execute_sw_sequencer_fatal",
	[NRSIM_STATUS_HW_REPAIRABLE_HBM_UE_ERROR] = "hw_repairable_hbm_ue_error",
};

/*
 * The one table from the status of an execution of a subgraph that did
 * not finish (struct neuronsim_exec_sg.status) to the driver's status
 * counter it is counted in besides "failure" (Documentation/sysfs.rst,
 * "Execution status").  A status in no row is a generic_error.
 */
static const struct {
	int status;
	u8 counter;
} nrsim_status_execs[] = {
	{ -EDEADLK, NRSIM_STATUS_EXEC_SW_SEMAPHORE_ERROR },
	{ -ETIME, NRSIM_STATUS_TIMEOUT },
	{ -EIO, NRSIM_STATUS_EXEC_COMPLETED_WITH_ERR },
	{ -EOPNOTSUPP, NRSIM_STATUS_EXEC_COMPLETED_WITH_ERR },
	{ -ENOMEM, NRSIM_STATUS_RESOURCE_ERROR },
};

/*
 * The one table from a failed load's reason (enum kbin_check_reason,
 * struct neuronsim_load.err_reason) to the driver's status counter it is
 * counted in besides "failure" (Documentation/sysfs.rst, "Load status").
 * Rows are ranges [first, last]; the first row that holds the reason
 * wins; a reason in no row (0: the load failed outside the checker and
 * staging) is a generic_error.
 */
static const struct {
	u16 first, last;
	u8 status;
} nrsim_status_reasons[] = {
	{ KBIN_ERR_VERSION, KBIN_ERR_VERSION, NRSIM_STATUS_UNSUPPORTED_NEFF_VERSION },
	{ KBIN_ERR_TARGET, KBIN_ERR_TARGET, NRSIM_STATUS_UNSUPPORTED_NEFF_VERSION },
	{ KBIN_ERR_TRUNCATED, KBIN_ERR_CHECK_MAX - 1, NRSIM_STATUS_INVALID_ERROR },
	{ KBIN_ERR_STAGE_HBM, KBIN_ERR_STAGE_SCRATCHPAD, NRSIM_STATUS_RESOURCE_ERROR },
	{ KBIN_ERR_STAGE_CORES, KBIN_ERR_STAGE_CORES, NRSIM_STATUS_RESOURCE_NC_ERROR },
	{ KBIN_ERR_STAGE_LIMIT, KBIN_ERR_STAGE_LIMIT, NRSIM_STATUS_RESOURCE_ERROR },
	{ KBIN_ERR_STAGE_NOMEM, KBIN_ERR_STAGE_NOMEM, NRSIM_STATUS_RESOURCE_ERROR },
	{ KBIN_ERR_STAGE_SBUF, KBIN_ERR_STAGE_SBUF, NRSIM_STATUS_OOB_ERROR },
	{ KBIN_ERR_RELOC_BOUNDS, KBIN_ERR_RELOC_BOUNDS, NRSIM_STATUS_OOB_ERROR },
	{ KBIN_ERR_RELOC_VAR, KBIN_ERR_RELOC_VAR, NRSIM_STATUS_INVALID_ERROR },
};

/* the driver's host-memory categories; index: enum nrsim_host_mem */
static const char *const nrsim_host_mem_names[NRSIM_HOST_MEM_MAX] = {
	[NRSIM_HOST_MEM_DMA_BUFFERS] = "dma_buffers",
	[NRSIM_HOST_MEM_TENSORS] = "tensors",
	[NRSIM_HOST_MEM_CONSTANTS] = "constants",
	[NRSIM_HOST_MEM_APPLICATION_MEMORY] = "application_memory",
	[NRSIM_HOST_MEM_DRIVER_MEMORY] = "driver_memory",
	[NRSIM_HOST_MEM_NOTIFICATIONS] = "notifications",
	[NRSIM_HOST_MEM_DMA_RINGS] = "dma_rings",
	[NRSIM_HOST_MEM_UNCATEGORIZED] = "uncategorized",
};

/*
 * the driver's other_info counters (model_load_count, inference_count and
 * nc_time_in_use are counted), then the DMA engine's (struct
 * nrsim_engine_stats)
 */
enum {
	NRSIM_OTHER_MODEL_LOAD_COUNT,
	NRSIM_OTHER_RESET_REQ_COUNT,
	NRSIM_OTHER_RESET_FAIL_COUNT,
	NRSIM_OTHER_INFERENCE_COUNT,
	NRSIM_OTHER_FLOP_COUNT,
	NRSIM_OTHER_NC_TIME_IN_USE,
	NRSIM_OTHER_DMA_BYTES,
	NRSIM_OTHER_DMA_DESCRIPTORS,
	NRSIM_OTHER_DMA_UDMA_DESCRIPTORS,
	NRSIM_OTHER_DMA_RUNS,
	NRSIM_OTHER_DMA_ERRORS,
	NRSIM_OTHER_DMA_BUSY_NS,
	NRSIM_OTHER_MAX,
};

static const char *const nrsim_other_names[NRSIM_OTHER_MAX] = {
	[NRSIM_OTHER_MODEL_LOAD_COUNT] = "model_load_count",
	[NRSIM_OTHER_RESET_REQ_COUNT] = "reset_req_count",
	[NRSIM_OTHER_RESET_FAIL_COUNT] = "reset_fail_count",
	[NRSIM_OTHER_INFERENCE_COUNT] = "inference_count",
	[NRSIM_OTHER_FLOP_COUNT] = "flop_count",
	[NRSIM_OTHER_NC_TIME_IN_USE] = "nc_time_in_use",
	[NRSIM_OTHER_DMA_BYTES] = "dma_bytes",
	[NRSIM_OTHER_DMA_DESCRIPTORS] = "dma_descriptors",
	[NRSIM_OTHER_DMA_UDMA_DESCRIPTORS] = "dma_udma_descriptors",
	[NRSIM_OTHER_DMA_RUNS] = "dma_runs",
	[NRSIM_OTHER_DMA_ERRORS] = "dma_errors",
	[NRSIM_OTHER_DMA_BUSY_NS] = "dma_busy_ns",
};

/* the fields of a counter's directory */
enum { NRSIM_F_TOTAL, NRSIM_F_PRESENT, NRSIM_F_PEAK, NRSIM_F_MAX };

static const char *const nrsim_field_names[NRSIM_F_MAX] = {
	"total", "present", "peak",
};

/*
 * Where the kernfs node of each counter file is kept (struct
 * nrsim_sysfs_files.kn): per NeuronCore a block of NRSIM_KN_CORE - its
 * status and other_info counters (total, present), device_mem's
 * categories and device_mem itself (total, present, peak), host_mem -
 * then the device's host_mem categories.
 */
#define NRSIM_KN_STATUS		0
#define NRSIM_KN_OTHER		(NRSIM_KN_STATUS + NRSIM_STATUS_MAX * 2)
#define NRSIM_KN_DEVICE_MEM	(NRSIM_KN_OTHER + NRSIM_OTHER_MAX * 2)
#define NRSIM_KN_HOST_MEM	(NRSIM_KN_DEVICE_MEM + (KBIN_MEMCAT_MAX + 1) * NRSIM_F_MAX)
#define NRSIM_KN_CORE		(NRSIM_KN_HOST_MEM + NRSIM_F_MAX)
#define NRSIM_KN_DEV_HOST_MEM	(NEURONSIM_MAX_CORES * NRSIM_KN_CORE)
#define NRSIM_KN_MAX		(NRSIM_KN_DEV_HOST_MEM + NRSIM_HOST_MEM_MAX * NRSIM_F_MAX)

/**
 * struct nrsim_sysfs_files - what sysfs.c keeps of a device's tree
 *	besides its directories (struct nrsim_dev_sysfs.files).
 * @clear_lock: serializes the clears of the counts, so each base only
 *	grows.
 * @status_base: per NeuronCore, status counter and field (total,
 *	present), the count when the field was last cleared: the file shows
 *	the count less it.
 * @other_base: the same for the other_info counters (model_load_count's
 *	present excepted: the models loaded now are cleared directly).
 * @kn: the counter files' kernfs nodes (NRSIM_KN_*), each a reference,
 *	NULL where the lookup failed (never notified).
 */
struct nrsim_sysfs_files {
	struct mutex clear_lock;	/* the bases */
	atomic64_t status_base[NEURONSIM_MAX_CORES][NRSIM_STATUS_MAX][2];
	atomic64_t other_base[NEURONSIM_MAX_CORES][NRSIM_OTHER_MAX][2];
	struct kernfs_node *kn[NRSIM_KN_MAX];
};

/* a count since its field was cleared (see nrsim_base_clear()) */
static u64 nrsim_since(const atomic64_t *count, const atomic64_t *base)
{
	s64 b = atomic64_read_acquire(base);
	s64 v = atomic64_read(count);

	return v > b ? v - b : 0;
}

/*
 * Clear a count's field: its base is the count now.  The count only
 * grows, and a reader reads the base (acquire) before the count, so it
 * never sees a count older than the base it subtracts.
 */
static void nrsim_base_clear(struct nrsim_device *nd, const atomic64_t *count,
			     atomic64_t *base)
{
	mutex_lock(&nd->sysfs.files->clear_lock);
	atomic64_set_release(base, atomic64_read(count));
	mutex_unlock(&nd->sysfs.files->clear_lock);
}

/* ---- notification (info/notify_delay 0) ---- */

static bool nrsim_notifying(struct nrsim_device *nd)
{
	return READ_ONCE(nd->sysfs.notify);
}

/* wake the pollers of file @slot (NRSIM_KN_*); any context */
static void nrsim_notify(struct nrsim_device *nd, unsigned int slot)
{
	struct kernfs_node *kn = nd->sysfs.files->kn[slot];

	if (kn)
		sysfs_notify_dirent(kn);
}

/* the fields @mask (bit NRSIM_F_*) of counter @idx of NeuronCore @core */
static void nrsim_notify_ctr(struct nrsim_device *nd, u32 core,
			     unsigned int first, unsigned int idx,
			     unsigned int nfields, unsigned int mask)
{
	unsigned int f;

	for (f = 0; f < nfields; f++)
		if (mask & BIT(f))
			nrsim_notify(nd, core * NRSIM_KN_CORE + first +
				     idx * nfields + f);
}

#define NRSIM_BOTH	(BIT(NRSIM_F_TOTAL) | BIT(NRSIM_F_PRESENT))

/* NRSIM_ACCT_* bits to BIT(NRSIM_F_*) */
static unsigned int nrsim_acct_fields(unsigned int moved)
{
	return (moved & NRSIM_ACCT_TOTAL ? BIT(NRSIM_F_TOTAL) : 0) |
	       (moved & NRSIM_ACCT_PRESENT ? BIT(NRSIM_F_PRESENT) : 0) |
	       (moved & NRSIM_ACCT_PEAK ? BIT(NRSIM_F_PEAK) : 0);
}

/**
 * nrsim_status_of_reason() - the status counter a failed load is counted in.
 * @reason: enum kbin_check_reason of the failure.
 *
 * Return: enum nrsim_status.
 */
static unsigned int nrsim_status_of_reason(u32 reason)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(nrsim_status_reasons); i++)
		if (reason >= nrsim_status_reasons[i].first &&
		    reason <= nrsim_status_reasons[i].last)
			return nrsim_status_reasons[i].status;
	return NRSIM_STATUS_GENERIC_ERROR;
}

/* count one more in status counter @c of @core (both fields) */
static void nrsim_status_inc(struct nrsim_device *nd, u32 core, unsigned int c)
{
	atomic64_inc(&nd->sysfs.core[core].status[c]);
	if (nrsim_notifying(nd))
		nrsim_notify_ctr(nd, core, NRSIM_KN_STATUS, c, 2, NRSIM_BOTH);
}

/**
 * nrsim_sysfs_count_load() - count the end of a LOAD in its NeuronCore's
 *	status counters: "success", or "failure" and the counter of its
 *	reason (nrsim_status_reasons[]).
 * @nd: the device.
 * @core: the load's first NeuronCore; a load that asked for any core
 *	and failed before one was chosen passes 0.
 * @ret: 0 or the load's negative errno.
 * @reason: enum kbin_check_reason of a failure (0 when none applies).
 */
void nrsim_sysfs_count_load(struct nrsim_device *nd, u32 core, long ret,
			    u32 reason)
{
	if (core >= nd->arch->num_cores)
		core = 0;
	if (!ret) {
		nrsim_status_inc(nd, core, NRSIM_STATUS_SUCCESS);
		atomic64_inc(&nd->sysfs.core[core].model_loads);
		if (nrsim_notifying(nd))
			nrsim_notify_ctr(nd, core, NRSIM_KN_OTHER,
					 NRSIM_OTHER_MODEL_LOAD_COUNT, 2,
					 BIT(NRSIM_F_TOTAL));
		return;
	}
	nrsim_status_inc(nd, core, NRSIM_STATUS_FAILURE);
	nrsim_status_inc(nd, core, nrsim_status_of_reason(reason));
}

/**
 * nrsim_sysfs_count_exec() - count the end of the execution of a subgraph
 *	in its NeuronCore's counters: "success", inference_count and
 *	nc_time_in_use, or "failure" and the counter of its status
 *	(nrsim_status_execs[]).
 * @nd: the device.
 * @core: the subgraph's NeuronCore.
 * @status: 0 or the subgraph's negative status (not -ECANCELED: an
 *	execution UNLOAD or close cancelled is not counted).
 * @virtual_ns: its virtual duration.
 */
void nrsim_sysfs_count_exec(struct nrsim_device *nd, u32 core, int status,
			    u64 virtual_ns)
{
	struct nrsim_core_stats *s = &nd->sysfs.core[core];
	unsigned int c = NRSIM_STATUS_GENERIC_ERROR;
	size_t i;

	atomic64_add(virtual_ns, &s->time_ns);
	if (virtual_ns && nrsim_notifying(nd))
		nrsim_notify_ctr(nd, core, NRSIM_KN_OTHER,
				 NRSIM_OTHER_NC_TIME_IN_USE, 2, NRSIM_BOTH);
	if (!status) {
		nrsim_status_inc(nd, core, NRSIM_STATUS_SUCCESS);
		atomic64_inc(&s->inferences);
		if (nrsim_notifying(nd))
			nrsim_notify_ctr(nd, core, NRSIM_KN_OTHER,
					 NRSIM_OTHER_INFERENCE_COUNT, 2,
					 NRSIM_BOTH);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(nrsim_status_execs); i++)
		if (nrsim_status_execs[i].status == status)
			c = nrsim_status_execs[i].counter;
	nrsim_status_inc(nd, core, NRSIM_STATUS_FAILURE);
	nrsim_status_inc(nd, core, c);
}

/**
 * nrsim_sysfs_dma_counted() - a NeuronCore's DMA engine counted a queue
 *	run or an execution's blocks (struct nrsim_engine_stats): notify its
 *	other_info/dma_* files when info/notify_delay is 0.
 * @nd: the device.
 * @core: the NeuronCore.
 * @error: dma_errors moved too.
 *
 * Context: any; engine.c calls it under a spinlock.
 */
void nrsim_sysfs_dma_counted(struct nrsim_device *nd, u32 core, bool error)
{
	unsigned int o;

	if (!nrsim_notifying(nd))
		return;
	for (o = NRSIM_OTHER_DMA_BYTES; o <= NRSIM_OTHER_DMA_BUSY_NS; o++)
		if (o != NRSIM_OTHER_DMA_ERRORS || error)
			nrsim_notify_ctr(nd, core, NRSIM_KN_OTHER, o, 2,
					 NRSIM_BOTH);
}

/*
 * struct nrsim_dev_hbm.moved: HBM charged to or released from NeuronCore
 * @core moved its device_mem counters: notify the files that moved
 * (@cat_moved: NRSIM_ACCT_* bits of the category of @usage,
 * @all_moved: of device_mem/{total,present,peak}).  Any context.
 */
static void nrsim_sysfs_mem_moved(struct nrsim_device *nd, u32 core,
				  u32 usage, unsigned int cat_moved,
				  unsigned int all_moved)
{
	if (!nrsim_notifying(nd))
		return;
	nrsim_notify_ctr(nd, core, NRSIM_KN_DEVICE_MEM,
			 kbin_usage_category(usage), NRSIM_F_MAX,
			 nrsim_acct_fields(cat_moved));
	nrsim_notify_ctr(nd, core, NRSIM_KN_DEVICE_MEM, KBIN_MEMCAT_MAX,
			 NRSIM_F_MAX, nrsim_acct_fields(all_moved));
}

/* the host memory of model @m moved (NRSIM_ACCT_* bits @dev, @core) */
static void nrsim_host_mem_moved(struct nrsim_model *m, unsigned int dev,
				 unsigned int core)
{
	struct nrsim_device *nd = m->nd;
	unsigned int f;

	if (!nrsim_notifying(nd))
		return;
	nrsim_notify_ctr(nd, m->first_core, NRSIM_KN_HOST_MEM, 0, NRSIM_F_MAX,
			 nrsim_acct_fields(core));
	dev = nrsim_acct_fields(dev);
	for (f = 0; f < NRSIM_F_MAX; f++)
		if (dev & BIT(f))
			nrsim_notify(nd, NRSIM_KN_DEV_HOST_MEM +
				     NRSIM_HOST_MEM_DRIVER_MEMORY * NRSIM_F_MAX + f);
}

/**
 * nrsim_sysfs_model_published() - account a model that is now loaded:
 *	one more model on its first NeuronCore, its kernel memory in the
 *	host driver_memory category of the device and in the host_mem of
 *	that NeuronCore.
 * @m: the model, being published.
 */
void nrsim_sysfs_model_published(struct nrsim_model *m)
{
	struct nrsim_device *nd = m->nd;
	unsigned int dev, core;

	atomic64_inc(&nd->sysfs.core[m->first_core].models);
	spin_lock(&nd->hbm.lock);
	dev = nrsim_acct_add(&nd->sysfs.host_mem[NRSIM_HOST_MEM_DRIVER_MEMORY],
			     m->kmem_bytes);
	core = nrsim_acct_add(&nd->sysfs.core_host_mem[m->first_core],
			      m->kmem_bytes);
	spin_unlock(&nd->hbm.lock);
	if (nrsim_notifying(nd))
		nrsim_notify_ctr(nd, m->first_core, NRSIM_KN_OTHER,
				 NRSIM_OTHER_MODEL_LOAD_COUNT, 2,
				 BIT(NRSIM_F_PRESENT));
	nrsim_host_mem_moved(m, dev, core);
}

/**
 * nrsim_sysfs_model_unpublished() - undo nrsim_sysfs_model_published()
 *	(the models loaded now do not go below 0: a write may have cleared
 *	them while this one was loaded).
 * @m: the model, being unpublished.
 */
void nrsim_sysfs_model_unpublished(struct nrsim_model *m)
{
	struct nrsim_device *nd = m->nd;
	unsigned int dev, core;
	bool moved;

	moved = atomic64_dec_if_positive(&nd->sysfs.core[m->first_core].models) >= 0;
	spin_lock(&nd->hbm.lock);
	dev = nrsim_acct_sub(&nd->sysfs.host_mem[NRSIM_HOST_MEM_DRIVER_MEMORY],
			     m->kmem_bytes);
	core = nrsim_acct_sub(&nd->sysfs.core_host_mem[m->first_core],
			      m->kmem_bytes);
	spin_unlock(&nd->hbm.lock);
	if (moved && nrsim_notifying(nd))
		nrsim_notify_ctr(nd, m->first_core, NRSIM_KN_OTHER,
				 NRSIM_OTHER_MODEL_LOAD_COUNT, 2,
				 BIT(NRSIM_F_PRESENT));
	nrsim_host_mem_moved(m, dev, core);
}

/**
 * nrsim_sysfs_ring() - the simulated topology (Documentation/sysfs.rst,
 *	"Connected devices"): the devices that exist form a ring in index
 *	order, each connected to the one before and the one after it.
 * @index: a device index (its device need not be in the list yet).
 * @peer: the devices @index is connected to, lowest index first.
 *
 * Return: how many: 0 (no other device), 1 (one other) or 2.
 */
static unsigned int nrsim_sysfs_ring(u32 index, u32 peer[2])
{
	u32 first = U32_MAX, last = 0, prev = U32_MAX, next = U32_MAX;
	struct nrsim_device *d;
	unsigned long i;

	nrsim_devices_lock();
	for (i = 0; (d = nrsim_device_next(&i)); i++) {
		if (d->index == index)
			continue;
		if (first == U32_MAX)
			first = d->index;
		last = d->index;
		if (d->index < index)
			prev = d->index;
		else if (next == U32_MAX)
			next = d->index;
	}
	nrsim_devices_unlock();
	if (first == U32_MAX)
		return 0;
	if (prev == U32_MAX)
		prev = last;
	if (next == U32_MAX)
		next = first;
	if (prev == next) {
		peer[0] = prev;
		return 1;
	}
	peer[0] = min(prev, next);
	peer[1] = max(prev, next);
	return 2;
}

/* ---- the tree ---- */

/* a directory of the tree: a kobject, its device and NeuronCore */
struct nrsim_sysfs_dir {
	struct kobject kobj;
	struct nrsim_device *nd;
	u32 core;
};

struct nrsim_sysfs_attr;

/*
 * a kind of counter file: its value, what a write clears, and where its
 * kernfs nodes are kept (NRSIM_KN_*, per NeuronCore unless @dev)
 */
struct nrsim_ctr_ops {
	u64 (*value)(struct nrsim_sysfs_dir *d, const struct nrsim_sysfs_attr *a);
	void (*clear)(struct nrsim_sysfs_dir *d, const struct nrsim_sysfs_attr *a);
	unsigned int kn;
	unsigned int nfields;
	bool dev;
};

/* one file: its kind, and which category/counter and field */
struct nrsim_sysfs_attr {
	struct attribute attr;
	const struct nrsim_ctr_ops *ops;
	u16 idx;
	u16 field;
};

static u64 *nrsim_acct_shown(struct nrsim_usage_acct *u, unsigned int field)
{
	return field == NRSIM_F_TOTAL ? &u->shown.total :
	       field == NRSIM_F_PRESENT ? &u->shown.present : &u->shown.peak;
}

static u64 nrsim_acct_read(struct nrsim_device *nd, struct nrsim_usage_acct *u,
			   unsigned int field)
{
	u64 v;

	spin_lock(&nd->hbm.lock);
	v = *nrsim_acct_shown(u, field);
	spin_unlock(&nd->hbm.lock);
	return v;
}

static void nrsim_acct_clear(struct nrsim_device *nd, struct nrsim_usage_acct *u,
			     unsigned int field)
{
	spin_lock(&nd->hbm.lock);
	*nrsim_acct_shown(u, field) = 0;
	spin_unlock(&nd->hbm.lock);
}

/* idx KBIN_MEMCAT_MAX: every category (device_mem/{total,present,peak}) */
static struct nrsim_usage_acct *nrsim_device_mem_acct(struct nrsim_sysfs_dir *d,
						      const struct nrsim_sysfs_attr *a)
{
	struct nrsim_mem_acct *acct = &d->nd->hbm.core[d->core];

	return a->idx == KBIN_MEMCAT_MAX ? &acct->all : &acct->category[a->idx];
}

static u64 nrsim_device_mem_value(struct nrsim_sysfs_dir *d,
				  const struct nrsim_sysfs_attr *a)
{
	return nrsim_acct_read(d->nd, nrsim_device_mem_acct(d, a), a->field);
}

static void nrsim_device_mem_clear(struct nrsim_sysfs_dir *d,
				   const struct nrsim_sysfs_attr *a)
{
	nrsim_acct_clear(d->nd, nrsim_device_mem_acct(d, a), a->field);
}

static u64 nrsim_host_mem_value(struct nrsim_sysfs_dir *d,
				const struct nrsim_sysfs_attr *a)
{
	return nrsim_acct_read(d->nd, &d->nd->sysfs.host_mem[a->idx], a->field);
}

static void nrsim_host_mem_clear(struct nrsim_sysfs_dir *d,
				 const struct nrsim_sysfs_attr *a)
{
	nrsim_acct_clear(d->nd, &d->nd->sysfs.host_mem[a->idx], a->field);
}

static u64 nrsim_core_host_mem_value(struct nrsim_sysfs_dir *d,
				     const struct nrsim_sysfs_attr *a)
{
	return nrsim_acct_read(d->nd, &d->nd->sysfs.core_host_mem[d->core],
			       a->field);
}

static void nrsim_core_host_mem_clear(struct nrsim_sysfs_dir *d,
				      const struct nrsim_sysfs_attr *a)
{
	nrsim_acct_clear(d->nd, &d->nd->sysfs.core_host_mem[d->core], a->field);
}

/* status counters: the count less its field's base */
static u64 nrsim_status_value(struct nrsim_sysfs_dir *d,
			      const struct nrsim_sysfs_attr *a)
{
	return nrsim_since(&d->nd->sysfs.core[d->core].status[a->idx],
			   &d->nd->sysfs.files->status_base[d->core][a->idx][a->field]);
}

static void nrsim_status_clear(struct nrsim_sysfs_dir *d,
			       const struct nrsim_sysfs_attr *a)
{
	nrsim_base_clear(d->nd, &d->nd->sysfs.core[d->core].status[a->idx],
			 &d->nd->sysfs.files->status_base[d->core][a->idx][a->field]);
}

/*
 * The count of other_info counter @idx of @d's NeuronCore: loads ever
 * (model_load_count), executions, virtual nanoseconds, the DMA engine's
 * counters; NULL for a counter the simulator does not count (0).
 */
static atomic64_t *nrsim_other_count(struct nrsim_sysfs_dir *d,
				     unsigned int idx)
{
	struct nrsim_core_stats *s = &d->nd->sysfs.core[d->core];
	struct nrsim_engine_stats *e = &d->nd->engine.stats[d->core];

	switch (idx) {
	case NRSIM_OTHER_MODEL_LOAD_COUNT:
		return &s->model_loads;
	case NRSIM_OTHER_INFERENCE_COUNT:
		return &s->inferences;
	case NRSIM_OTHER_NC_TIME_IN_USE:
		return &s->time_ns;
	case NRSIM_OTHER_DMA_BYTES:
		return &e->bytes;
	case NRSIM_OTHER_DMA_DESCRIPTORS:
		return &e->descs;
	case NRSIM_OTHER_DMA_UDMA_DESCRIPTORS:
		return &e->udma_descs;
	case NRSIM_OTHER_DMA_RUNS:
		return &e->runs;
	case NRSIM_OTHER_DMA_ERRORS:
		return &e->errors;
	case NRSIM_OTHER_DMA_BUSY_NS:
		return &e->busy_ns;
	default:
		return NULL;
	}
}

/*
 * model_load_count: loads (total), models loaded now (present); the
 * others: present is total, each field cleared on its own;
 * nc_time_in_use in microseconds
 */
static u64 nrsim_other_value(struct nrsim_sysfs_dir *d,
			     const struct nrsim_sysfs_attr *a)
{
	atomic64_t *count = nrsim_other_count(d, a->idx);
	u64 v;

	if (a->idx == NRSIM_OTHER_MODEL_LOAD_COUNT && a->field == NRSIM_F_PRESENT)
		return atomic64_read(&d->nd->sysfs.core[d->core].models);
	if (!count)
		return 0;
	v = nrsim_since(count, &d->nd->sysfs.files->other_base[d->core][a->idx][a->field]);
	return a->idx == NRSIM_OTHER_NC_TIME_IN_USE ? div_u64(v, NSEC_PER_USEC) : v;
}

static void nrsim_other_clear(struct nrsim_sysfs_dir *d,
			      const struct nrsim_sysfs_attr *a)
{
	atomic64_t *count = nrsim_other_count(d, a->idx);

	if (a->idx == NRSIM_OTHER_MODEL_LOAD_COUNT && a->field == NRSIM_F_PRESENT)
		atomic64_set(&d->nd->sysfs.core[d->core].models, 0);
	else if (count)
		nrsim_base_clear(d->nd, count,
				 &d->nd->sysfs.files->other_base[d->core][a->idx][a->field]);
}

static const struct nrsim_ctr_ops nrsim_device_mem_ops = {
	.value = nrsim_device_mem_value, .clear = nrsim_device_mem_clear,
	.kn = NRSIM_KN_DEVICE_MEM, .nfields = NRSIM_F_MAX,
};

static const struct nrsim_ctr_ops nrsim_core_host_mem_ops = {
	.value = nrsim_core_host_mem_value, .clear = nrsim_core_host_mem_clear,
	.kn = NRSIM_KN_HOST_MEM, .nfields = NRSIM_F_MAX,
};

static const struct nrsim_ctr_ops nrsim_host_mem_ops = {
	.value = nrsim_host_mem_value, .clear = nrsim_host_mem_clear,
	.kn = NRSIM_KN_DEV_HOST_MEM, .nfields = NRSIM_F_MAX, .dev = true,
};

static const struct nrsim_ctr_ops nrsim_status_ops = {
	.value = nrsim_status_value, .clear = nrsim_status_clear,
	.kn = NRSIM_KN_STATUS, .nfields = 2,
};

static const struct nrsim_ctr_ops nrsim_other_ops = {
	.value = nrsim_other_value, .clear = nrsim_other_clear,
	.kn = NRSIM_KN_OTHER, .nfields = 2,
};

static ssize_t nrsim_ctr_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	struct nrsim_sysfs_dir *d = container_of(kobj, struct nrsim_sysfs_dir, kobj);
	const struct nrsim_sysfs_attr *a =
		container_of(attr, struct nrsim_sysfs_attr, attr);

	return sysfs_emit(buf, "%llu\n", a->ops->value(d, a));
}

/* a write clears the field, whatever it says (the driver's files do) */
static ssize_t nrsim_ctr_store(struct kobject *kobj, struct attribute *attr,
			       const char *buf, size_t count)
{
	struct nrsim_sysfs_dir *d = container_of(kobj, struct nrsim_sysfs_dir, kobj);
	const struct nrsim_sysfs_attr *a =
		container_of(attr, struct nrsim_sysfs_attr, attr);
	const struct nrsim_ctr_ops *ops = a->ops;

	ops->clear(d, a);
	if (nrsim_notifying(d->nd))
		nrsim_notify(d->nd, (ops->dev ? 0 : d->core * NRSIM_KN_CORE) +
			     ops->kn + a->idx * ops->nfields + a->field);
	return count;
}

static const struct sysfs_ops nrsim_ctr_sysfs_ops = {
	.show = nrsim_ctr_show,
	.store = nrsim_ctr_store,
};

/*
 * The counter files: per category or counter a named group of its
 * fields.  Names are filled in by nrsim_sysfs_init() from the tables
 * (kbin_mem_category_str() for the device categories).
 */
struct nrsim_counter_dir {
	struct nrsim_sysfs_attr attr[NRSIM_F_MAX];
	struct attribute *attrs[NRSIM_F_MAX + 1];
	struct attribute_group group;
};

static struct nrsim_counter_dir nrsim_device_mem_dirs[KBIN_MEMCAT_MAX + 1];
static struct nrsim_counter_dir nrsim_core_host_mem_dirs[1];
static struct nrsim_counter_dir nrsim_host_mem_dirs[NRSIM_HOST_MEM_MAX];
static struct nrsim_counter_dir nrsim_status_dirs[NRSIM_STATUS_MAX];
static struct nrsim_counter_dir nrsim_other_dirs[NRSIM_OTHER_MAX];

static const struct attribute_group *nrsim_device_mem_groups[KBIN_MEMCAT_MAX + 2];
static const struct attribute_group *nrsim_core_host_mem_groups[2];
static const struct attribute_group *nrsim_host_mem_groups[NRSIM_HOST_MEM_MAX + 1];
static const struct attribute_group *nrsim_status_groups[NRSIM_STATUS_MAX + 1];
static const struct attribute_group *nrsim_other_groups[NRSIM_OTHER_MAX + 1];

/*
 * Fill @n counter directories of kind @ops: directory i is named @name(i)
 * (NULL: the fields sit in the directory itself), has @ops->nfields
 * fields, mode 0644 (root clears them), and reads idx @i.
 */
static void nrsim_counter_dirs_init(struct nrsim_counter_dir *dirs,
				    const struct attribute_group **groups,
				    unsigned int n,
				    const char *(*name)(unsigned int i),
				    const struct nrsim_ctr_ops *ops)
{
	unsigned int i, f;

	for (i = 0; i < n; i++) {
		struct nrsim_counter_dir *c = &dirs[i];

		for (f = 0; f < ops->nfields; f++) {
			c->attr[f].attr.name = nrsim_field_names[f];
			c->attr[f].attr.mode = 0644;
			c->attr[f].ops = ops;
			c->attr[f].idx = i;
			c->attr[f].field = f;
			c->attrs[f] = &c->attr[f].attr;
		}
		c->attrs[ops->nfields] = NULL;
		c->group.name = name(i);
		c->group.attrs = c->attrs;
		groups[i] = &c->group;
	}
	groups[n] = NULL;
}

static const char *nrsim_device_mem_name(unsigned int i)
{
	return i < KBIN_MEMCAT_MAX ? kbin_mem_category_str(i) : NULL;
}

static const char *nrsim_no_name(unsigned int i)
{
	return NULL;
}

static const char *nrsim_host_mem_name(unsigned int i)
{
	return nrsim_host_mem_names[i];
}

static const char *nrsim_status_name(unsigned int i)
{
	return nrsim_status_names[i];
}

static const char *nrsim_other_name(unsigned int i)
{
	return nrsim_other_names[i];
}

/* ---- the other files: info/, stats/hardware/, stats/power/ ---- */

enum {
	NRSIM_FILE_DEV_ARCH_TYPE,	/* NDvG */
	NRSIM_FILE_CORE_ARCH_TYPE,	/* NCvG */
	NRSIM_FILE_INSTANCE_TYPE,
	NRSIM_FILE_DEVICE_NAME,
	NRSIM_FILE_NOTIFY_DELAY,
	NRSIM_FILE_SERIAL_NUMBER,
	NRSIM_FILE_ZERO,		/* stats/hardware: no ECC */
	NRSIM_FILE_POWER,
};

/* the simulated serial number of device N: "NSIM" then N */
#define NRSIM_SERIAL_BASE	0x4e53494d00000000ULL

static ssize_t nrsim_file_show(struct kobject *kobj, struct attribute *attr,
			       char *buf)
{
	struct nrsim_sysfs_dir *d = container_of(kobj, struct nrsim_sysfs_dir, kobj);
	const struct nrsim_sysfs_attr *a =
		container_of(attr, struct nrsim_sysfs_attr, attr);
	const struct kbin_gen *g = d->nd->arch;

	switch (a->idx) {
	case NRSIM_FILE_DEV_ARCH_TYPE:
		return sysfs_emit(buf, "NDv%u\n", g->gen);
	case NRSIM_FILE_CORE_ARCH_TYPE:
		return sysfs_emit(buf, "NCv%u\n", g->gen);
	case NRSIM_FILE_INSTANCE_TYPE:
		/* the driver's spelling of the generation: Trn2 */
		return sysfs_emit(buf, "%s\n", g->arch_instance);
	case NRSIM_FILE_DEVICE_NAME:
		return sysfs_emit(buf, "%s\n", g->device_name);
	case NRSIM_FILE_NOTIFY_DELAY:
		return sysfs_emit(buf, "%d\n", nrsim_notifying(d->nd) ? 0 : -1);
	case NRSIM_FILE_SERIAL_NUMBER:
		return sysfs_emit(buf, "%016llx\n",
				  NRSIM_SERIAL_BASE | d->nd->index);
	case NRSIM_FILE_POWER:
		/* the driver's line when it has no samples, as on a simulator */
		return sysfs_emit(buf, "POWER_STATUS_NO_DATA,%lld,0.00,0.00,0.00\n",
				  (long long)ktime_get_real_seconds());
	default:
		return sysfs_emit(buf, "0\n");
	}
}

/* info/notify_delay: "0" notifies the pollers of counters, "-1" not */
static ssize_t nrsim_file_store(struct kobject *kobj, struct attribute *attr,
				const char *buf, size_t count)
{
	struct nrsim_sysfs_dir *d = container_of(kobj, struct nrsim_sysfs_dir, kobj);
	const struct nrsim_sysfs_attr *a =
		container_of(attr, struct nrsim_sysfs_attr, attr);
	int v;

	if (a->idx != NRSIM_FILE_NOTIFY_DELAY)
		return -EIO;
	if (kstrtoint(buf, 10, &v) || (v != 0 && v != -1)) {
		size_t n = strnlen(buf, count);

		if (n && buf[n - 1] == '\n')
			n--;
		pr_err_ratelimited("%s: info/notify_delay: '%*pE' is neither 0 nor -1\n",
				   d->nd->name, (int)min_t(size_t, n, 32), buf);
		return -EINVAL;
	}
	WRITE_ONCE(d->nd->sysfs.notify, !v);
	return count;
}

static const struct sysfs_ops nrsim_file_sysfs_ops = {
	.show = nrsim_file_show,
	.store = nrsim_file_store,
};

#define NRSIM_FILE_ATTR(_var, _name, _mode, _idx) \
	static struct nrsim_sysfs_attr _var = { \
		.attr = { .name = _name, .mode = _mode }, .idx = _idx, \
	}

NRSIM_FILE_ATTR(nrsim_dev_arch_type, "arch_type", 0444, NRSIM_FILE_DEV_ARCH_TYPE);
NRSIM_FILE_ATTR(nrsim_core_arch_type, "arch_type", 0444, NRSIM_FILE_CORE_ARCH_TYPE);
NRSIM_FILE_ATTR(nrsim_instance_type, "instance_type", 0444, NRSIM_FILE_INSTANCE_TYPE);
NRSIM_FILE_ATTR(nrsim_device_name, "device_name", 0444, NRSIM_FILE_DEVICE_NAME);
NRSIM_FILE_ATTR(nrsim_notify_delay, "notify_delay", 0644, NRSIM_FILE_NOTIFY_DELAY);
NRSIM_FILE_ATTR(nrsim_serial_number, "serial_number", 0444, NRSIM_FILE_SERIAL_NUMBER);
NRSIM_FILE_ATTR(nrsim_mem_ecc, "mem_ecc_uncorrected", 0444, NRSIM_FILE_ZERO);
NRSIM_FILE_ATTR(nrsim_mem_ecc_rep, "mem_ecc_repairable_uncorrected", 0444,
		NRSIM_FILE_ZERO);
NRSIM_FILE_ATTR(nrsim_sram_ecc, "sram_ecc_uncorrected", 0444, NRSIM_FILE_ZERO);
NRSIM_FILE_ATTR(nrsim_power, "utilization", 0444, NRSIM_FILE_POWER);

static struct attribute *nrsim_dev_info_attrs[] = {
	&nrsim_notify_delay.attr, &nrsim_serial_number.attr, NULL,
};

static struct attribute *nrsim_dev_arch_attrs[] = {
	&nrsim_dev_arch_type.attr, &nrsim_instance_type.attr,
	&nrsim_device_name.attr, NULL,
};

static struct attribute *nrsim_core_arch_attrs[] = {
	&nrsim_core_arch_type.attr, NULL,
};

static struct attribute *nrsim_hardware_attrs[] = {
	&nrsim_mem_ecc.attr, &nrsim_mem_ecc_rep.attr, &nrsim_sram_ecc.attr,
	NULL,
};

static struct attribute *nrsim_power_attrs[] = {
	&nrsim_power.attr, NULL,
};

static const struct attribute_group nrsim_dev_info_group = {
	.attrs = nrsim_dev_info_attrs,
};

static const struct attribute_group nrsim_dev_arch_group = {
	.name = "architecture", .attrs = nrsim_dev_arch_attrs,
};

static const struct attribute_group nrsim_core_arch_group = {
	.name = "architecture", .attrs = nrsim_core_arch_attrs,
};

static const struct attribute_group nrsim_hardware_group = {
	.attrs = nrsim_hardware_attrs,
};

static const struct attribute_group nrsim_power_group = {
	.attrs = nrsim_power_attrs,
};

static const struct attribute_group *nrsim_dev_info_groups[] = {
	&nrsim_dev_info_group, &nrsim_dev_arch_group, NULL,
};

static const struct attribute_group *nrsim_core_info_groups[] = {
	&nrsim_core_arch_group, NULL,
};

static const struct attribute_group *nrsim_hardware_groups[] = {
	&nrsim_hardware_group, NULL,
};

static const struct attribute_group *nrsim_power_groups[] = {
	&nrsim_power_group, NULL,
};

/* ---- the class device's own files ---- */

/*
 * The NeuronCores.  Without a newline on purpose: the driver prints the
 * number alone, and readers of its file may compare it as it is.
 */
static ssize_t core_count_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	struct nrsim_device *nd = dev_get_drvdata(dev);
	int len = sysfs_emit(buf, "%u", nd->arch->num_cores);

	return len;
}
static DEVICE_ATTR_RO(core_count);

/* "a, b\n", "a\n" or "\n" (nrsim_sysfs_ring()) */
static ssize_t connected_devices_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	struct nrsim_device *nd = dev_get_drvdata(dev);
	unsigned int i, n;
	u32 peer[2];
	int len = 0;

	n = nrsim_sysfs_ring(nd->index, peer);
	for (i = 0; i < n; i++)
		len += sysfs_emit_at(buf, len, "%s%u", i ? ", " : "", peer[i]);
	return len + sysfs_emit_at(buf, len, "\n");
}
static DEVICE_ATTR_RO(connected_devices);

static struct attribute *nrsim_root_attrs[] = {
	&dev_attr_core_count.attr, &dev_attr_connected_devices.attr, NULL,
};
ATTRIBUTE_GROUPS(nrsim_root);

static void nrsim_sysfs_dir_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct nrsim_sysfs_dir, kobj));
}

/* the kinds of directory: their files */
#define NRSIM_KTYPE(_var, _ops, _groups) \
	static const struct kobj_type _var = { \
		.release = nrsim_sysfs_dir_release, \
		.sysfs_ops = _ops, .default_groups = _groups, \
	}

NRSIM_KTYPE(nrsim_plain_ktype, &nrsim_ctr_sysfs_ops, NULL);
NRSIM_KTYPE(nrsim_dev_info_ktype, &nrsim_file_sysfs_ops, nrsim_dev_info_groups);
NRSIM_KTYPE(nrsim_core_info_ktype, &nrsim_file_sysfs_ops, nrsim_core_info_groups);
NRSIM_KTYPE(nrsim_hardware_ktype, &nrsim_file_sysfs_ops, nrsim_hardware_groups);
NRSIM_KTYPE(nrsim_power_ktype, &nrsim_file_sysfs_ops, nrsim_power_groups);
NRSIM_KTYPE(nrsim_host_mem_ktype, &nrsim_ctr_sysfs_ops, nrsim_host_mem_groups);
NRSIM_KTYPE(nrsim_core_host_mem_ktype, &nrsim_ctr_sysfs_ops,
	    nrsim_core_host_mem_groups);
NRSIM_KTYPE(nrsim_device_mem_ktype, &nrsim_ctr_sysfs_ops, nrsim_device_mem_groups);
NRSIM_KTYPE(nrsim_status_ktype, &nrsim_ctr_sysfs_ops, nrsim_status_groups);
NRSIM_KTYPE(nrsim_other_ktype, &nrsim_ctr_sysfs_ops, nrsim_other_groups);

/* directories per device and per NeuronCore (nrsim_sysfs_add()) */
#define NRSIM_SYSFS_DEV_DIRS	6
#define NRSIM_SYSFS_CORE_DIRS	8

static struct class *nrsim_class;

/*
 * Add directory @name of @kt under @parent, charged to @nd's list of
 * directories (removed in reverse order by nrsim_sysfs_del()).
 */
static struct kobject *nrsim_sysfs_dir_add(struct nrsim_device *nd,
					   struct kobject *parent,
					   const struct kobj_type *kt, u32 core,
					   const char *name)
{
	struct nrsim_sysfs_dir *d;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL_ACCOUNT);
	if (!d)
		return ERR_PTR(-ENOMEM);
	d->nd = nd;
	d->core = core;
	ret = kobject_init_and_add(&d->kobj, kt, parent, "%s", name);
	if (ret) {
		kobject_put(&d->kobj);
		return ERR_PTR(ret);
	}
	nd->sysfs.dirs[nd->sysfs.ndirs++] = &d->kobj;
	return &d->kobj;
}

/*
 * Keep the kernfs nodes of the counter files of directory @k (its
 * @kt->default_groups, @nfields fields each) from slot @slot on, to
 * notify them.  A file not found keeps NULL: it is not notified.
 */
static void nrsim_sysfs_keep_files(struct nrsim_device *nd, struct kobject *k,
				   unsigned int nfields, unsigned int slot)
{
	const struct attribute_group *const *g = k->ktype->default_groups;
	struct kernfs_node **kn = nd->sysfs.files->kn;
	unsigned int i, f;

	for (i = 0; g[i]; i++) {
		struct kernfs_node *dir = k->sd;

		if (g[i]->name)
			dir = sysfs_get_dirent(k->sd, g[i]->name);
		if (!dir)
			continue;
		for (f = 0; f < nfields; f++)
			kn[slot + i * nfields + f] =
				sysfs_get_dirent(dir, nrsim_field_names[f]);
		if (g[i]->name)
			sysfs_put(dir);
	}
}

/* a counter directory under @parent, its files kept (nrsim_sysfs_keep_files()) */
static int nrsim_sysfs_ctr_add(struct nrsim_device *nd, struct kobject *parent,
			       const struct kobj_type *kt, u32 core,
			       const char *name, const struct nrsim_ctr_ops *ops)
{
	struct kobject *k = nrsim_sysfs_dir_add(nd, parent, kt, core, name);

	if (IS_ERR(k))
		return PTR_ERR(k);
	nrsim_sysfs_keep_files(nd, k, ops->nfields,
			       (ops->dev ? 0 : core * NRSIM_KN_CORE) + ops->kn);
	return 0;
}

/* a NeuronCore's directories */
static int nrsim_sysfs_core_add(struct nrsim_device *nd, u32 core)
{
	struct kobject *c, *stats, *mu, *k;
	char name[24];
	int ret;

	snprintf(name, sizeof(name), "neuron_core%u", core);
	c = nrsim_sysfs_dir_add(nd, &nd->sysfs.dev->kobj, &nrsim_plain_ktype,
				core, name);
	if (IS_ERR(c))
		return PTR_ERR(c);
	k = nrsim_sysfs_dir_add(nd, c, &nrsim_core_info_ktype, core, "info");
	if (IS_ERR(k))
		return PTR_ERR(k);
	stats = nrsim_sysfs_dir_add(nd, c, &nrsim_plain_ktype, core, "stats");
	if (IS_ERR(stats))
		return PTR_ERR(stats);
	mu = nrsim_sysfs_dir_add(nd, stats, &nrsim_plain_ktype, core,
				 "memory_usage");
	if (IS_ERR(mu))
		return PTR_ERR(mu);
	ret = nrsim_sysfs_ctr_add(nd, mu, &nrsim_core_host_mem_ktype, core,
				  "host_mem", &nrsim_core_host_mem_ops);
	if (ret)
		return ret;
	ret = nrsim_sysfs_ctr_add(nd, mu, &nrsim_device_mem_ktype, core,
				  "device_mem", &nrsim_device_mem_ops);
	if (ret)
		return ret;
	ret = nrsim_sysfs_ctr_add(nd, stats, &nrsim_status_ktype, core,
				  "status", &nrsim_status_ops);
	if (ret)
		return ret;
	return nrsim_sysfs_ctr_add(nd, stats, &nrsim_other_ktype, core,
				   "other_info", &nrsim_other_ops);
}

/* the device's directories under its class device */
static int nrsim_sysfs_dev_dirs_add(struct nrsim_device *nd)
{
	struct kobject *root = &nd->sysfs.dev->kobj, *stats, *mu, *k;

	k = nrsim_sysfs_dir_add(nd, root, &nrsim_dev_info_ktype, 0, "info");
	if (IS_ERR(k))
		return PTR_ERR(k);
	stats = nrsim_sysfs_dir_add(nd, root, &nrsim_plain_ktype, 0, "stats");
	if (IS_ERR(stats))
		return PTR_ERR(stats);
	mu = nrsim_sysfs_dir_add(nd, stats, &nrsim_plain_ktype, 0, "memory_usage");
	if (IS_ERR(mu))
		return PTR_ERR(mu);
	k = nrsim_sysfs_dir_add(nd, stats, &nrsim_hardware_ktype, 0, "hardware");
	if (IS_ERR(k))
		return PTR_ERR(k);
	k = nrsim_sysfs_dir_add(nd, stats, &nrsim_power_ktype, 0, "power");
	if (IS_ERR(k))
		return PTR_ERR(k);
	return nrsim_sysfs_ctr_add(nd, mu, &nrsim_host_mem_ktype, 0, "host_mem",
				   &nrsim_host_mem_ops);
}

/**
 * nrsim_sysfs_add() - create a device's tree: its class device (neuronsimN
 *	of class neuronsim, or neuronN of class neuron_device with
 *	neuron_compat; no parent) and the directories Documentation/sysfs.rst
 *	lists.
 * @nd: the device, not yet published.
 *
 * Return: 0; -ENOMEM; or the error of device_create_with_groups() or
 * kobject_add().  On error nothing is left.
 */
int nrsim_sysfs_add(struct nrsim_device *nd)
{
	struct device *cdev;
	u32 core;
	int ret;

	nd->sysfs.files = kvzalloc(sizeof(*nd->sysfs.files), GFP_KERNEL_ACCOUNT);
	if (!nd->sysfs.files)
		return -ENOMEM;
	mutex_init(&nd->sysfs.files->clear_lock);
	nd->sysfs.dirs = kcalloc(NRSIM_SYSFS_DEV_DIRS + NRSIM_SYSFS_CORE_DIRS *
				 nd->arch->num_cores, sizeof(*nd->sysfs.dirs),
				 GFP_KERNEL_ACCOUNT);
	if (!nd->sysfs.dirs) {
		ret = -ENOMEM;
		goto err_files;
	}
	nd->sysfs.ndirs = 0;
	cdev = device_create_with_groups(nrsim_class, NULL, MKDEV(0, 0), nd,
					 nrsim_root_groups, "%s", nd->node);
	if (IS_ERR(cdev)) {
		ret = PTR_ERR(cdev);
		goto err_dirs;
	}
	nd->sysfs.dev = cdev;
	WRITE_ONCE(nd->hbm.moved, nrsim_sysfs_mem_moved);

	ret = nrsim_sysfs_dev_dirs_add(nd);
	if (ret)
		goto err_tree;
	for (core = 0; core < nd->arch->num_cores; core++) {
		ret = nrsim_sysfs_core_add(nd, core);
		if (ret)
			goto err_tree;
	}
	return 0;

err_tree:
	nrsim_sysfs_del(nd);
	return ret;
err_dirs:
	kfree(nd->sysfs.dirs);
	nd->sysfs.dirs = NULL;
err_files:
	kvfree(nd->sysfs.files);
	nd->sysfs.files = NULL;
	return ret;
}

/**
 * nrsim_sysfs_del() - remove a device's tree (nrsim_sysfs_add()): the
 *	directories deepest first, then the counter files' kernfs nodes it
 *	kept, then the class device.  kobject_del() waits for readers and
 *	writers in a show or store function, so none runs afterwards; the
 *	device has no open file by then, so nothing counts either.
 * @nd: the device (its tree may be partly built).
 */
void nrsim_sysfs_del(struct nrsim_device *nd)
{
	unsigned int i;

	WRITE_ONCE(nd->sysfs.notify, false);
	WRITE_ONCE(nd->hbm.moved, NULL);
	while (nd->sysfs.ndirs) {
		struct kobject *k = nd->sysfs.dirs[--nd->sysfs.ndirs];

		kobject_del(k);
		kobject_put(k);
	}
	kfree(nd->sysfs.dirs);
	nd->sysfs.dirs = NULL;
	if (nd->sysfs.files) {
		for (i = 0; i < NRSIM_KN_MAX; i++)
			sysfs_put(nd->sysfs.files->kn[i]);
		mutex_destroy(&nd->sysfs.files->clear_lock);
		kvfree(nd->sysfs.files);
		nd->sysfs.files = NULL;
	}
	if (nd->sysfs.dev)
		device_unregister(nd->sysfs.dev);
	nd->sysfs.dev = NULL;
}

/*
 * The paths that tell the Neuron driver is loaded (its module, its
 * class), and the one a test may add (compat_check_path): neuron_compat
 * would take the driver's names, so it is refused while one exists.
 */
static int nrsim_sysfs_driver_absent(void)
{
	const char *const paths[] = {
		"/sys/module/neuron", "/sys/class/neuron_device",
		nrsim_param_compat_refuse,
	};
	struct path p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		if (!paths[i] || !*paths[i] ||
		    kern_path(paths[i], LOOKUP_FOLLOW, &p))
			continue;
		path_put(&p);
		pr_err("neuron_compat: %s exists: the Neuron driver is loaded, whose names neuron_compat takes; unload it, or load neuronsim without neuron_compat\n",
		       paths[i]);
		return -EEXIST;
	}
	return 0;
}

/**
 * nrsim_sysfs_init() - register the class (neuronsim, or neuron_device
 *	with neuron_compat, refused with -EEXIST while the Neuron driver
 *	is loaded) and fill the counter files' tables (names from
 *	kbin_mem_category_str() and the tables above).
 *
 * Return: 0, -EEXIST, or the error of class_create().
 */
int nrsim_sysfs_init(void)
{
	int ret;

	if (nrsim_param_compat) {
		ret = nrsim_sysfs_driver_absent();
		if (ret)
			return ret;
	}
	nrsim_counter_dirs_init(nrsim_device_mem_dirs, nrsim_device_mem_groups,
				KBIN_MEMCAT_MAX + 1, nrsim_device_mem_name,
				&nrsim_device_mem_ops);
	nrsim_counter_dirs_init(nrsim_core_host_mem_dirs,
				nrsim_core_host_mem_groups, 1, nrsim_no_name,
				&nrsim_core_host_mem_ops);
	nrsim_counter_dirs_init(nrsim_host_mem_dirs, nrsim_host_mem_groups,
				NRSIM_HOST_MEM_MAX, nrsim_host_mem_name,
				&nrsim_host_mem_ops);
	nrsim_counter_dirs_init(nrsim_status_dirs, nrsim_status_groups,
				NRSIM_STATUS_MAX, nrsim_status_name,
				&nrsim_status_ops);
	nrsim_counter_dirs_init(nrsim_other_dirs, nrsim_other_groups,
				NRSIM_OTHER_MAX, nrsim_other_name,
				&nrsim_other_ops);
	nrsim_class = nrsim_class_create(nrsim_param_compat ?
					 "neuron_device" :
					 NEURONSIM_DEVICE_NAME);
	return PTR_ERR_OR_ZERO(nrsim_class);
}

/**
 * nrsim_sysfs_exit() - unregister the class (every device is gone).
 */
void nrsim_sysfs_exit(void)
{
	class_destroy(nrsim_class);
}
