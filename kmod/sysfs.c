// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs.c - a device's counters in the Neuron driver's sysfs layout, so a
 * tool that reads the driver's tree reads ours with another path prefix
 * (Documentation/sysfs.rst).  The tree hangs off a device of the module's
 * own class, /sys/class/neuronsim/neuronsimN, never the driver's
 * neuron_device class:
 *
 *   info/architecture/{arch_type,instance_type,device_name}
 *   stats/memory_usage/host_mem/<host category>/{total,present,peak}
 *   neuron_coreM/info/architecture/arch_type
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
 * A load ends in one status counter per nrsim_status_reasons[] (the one
 * table from a failed load's reason to the driver's status counter), and
 * "success" or "failure" besides.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#include "nrsim.h"

/*
 * the driver's status counters, in its order (aws-neuron-driver's
 * neuron_sysfs_metrics.c); index: enum nrsim_status
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
	struct nrsim_core_stats *s;

	if (core >= nd->arch->num_cores)
		core = 0;
	s = &nd->sysfs.core[core];
	if (!ret) {
		atomic64_inc(&s->status[NRSIM_STATUS_SUCCESS]);
		atomic64_inc(&s->model_loads);
		return;
	}
	atomic64_inc(&s->status[NRSIM_STATUS_FAILURE]);
	atomic64_inc(&s->status[nrsim_status_of_reason(reason)]);
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
	if (!status) {
		atomic64_inc(&s->status[NRSIM_STATUS_SUCCESS]);
		atomic64_inc(&s->inferences);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(nrsim_status_execs); i++)
		if (nrsim_status_execs[i].status == status)
			c = nrsim_status_execs[i].counter;
	atomic64_inc(&s->status[NRSIM_STATUS_FAILURE]);
	atomic64_inc(&s->status[c]);
}

static void nrsim_acct_add(struct nrsim_usage_acct *a, u64 n)
{
	a->total += n;
	a->present += n;
	if (a->present > a->peak)
		a->peak = a->present;
}

/**
 * nrsim_sysfs_model_published() - account a model that is now loaded:
 *	one more model on its first NeuronCore, its kernel memory in the
 *	host driver_memory category.
 * @m: the model, being published.
 */
void nrsim_sysfs_model_published(struct nrsim_model *m)
{
	struct nrsim_device *nd = m->nd;

	atomic64_inc(&nd->sysfs.core[m->first_core].models);
	spin_lock(&nd->hbm.lock);
	nrsim_acct_add(&nd->sysfs.host_mem[NRSIM_HOST_MEM_DRIVER_MEMORY], m->kmem_bytes);
	spin_unlock(&nd->hbm.lock);
}

/**
 * nrsim_sysfs_model_unpublished() - undo nrsim_sysfs_model_published().
 * @m: the model, being unpublished.
 */
void nrsim_sysfs_model_unpublished(struct nrsim_model *m)
{
	struct nrsim_device *nd = m->nd;

	atomic64_dec(&nd->sysfs.core[m->first_core].models);
	spin_lock(&nd->hbm.lock);
	nd->sysfs.host_mem[NRSIM_HOST_MEM_DRIVER_MEMORY].present -= m->kmem_bytes;
	spin_unlock(&nd->hbm.lock);
}

/* ---- the tree ---- */

/* a directory of the tree: a kobject, its device and NeuronCore */
struct nrsim_sysfs_dir {
	struct kobject kobj;
	struct nrsim_device *nd;
	u32 core;
};

enum { NRSIM_F_TOTAL, NRSIM_F_PRESENT, NRSIM_F_PEAK, NRSIM_F_MAX };

static const char *const nrsim_field_names[NRSIM_F_MAX] = {
	"total", "present", "peak",
};

struct nrsim_sysfs_attr;
typedef u64 (*nrsim_value_fn)(struct nrsim_sysfs_dir *d,
			     const struct nrsim_sysfs_attr *a);

/* one file: its value function, and which category/counter and field */
struct nrsim_sysfs_attr {
	struct attribute attr;
	nrsim_value_fn value;
	u16 idx;
	u16 field;
};

static u64 nrsim_acct_field(struct nrsim_device *nd,
			    const struct nrsim_usage_acct *u, unsigned int field)
{
	u64 v;

	spin_lock(&nd->hbm.lock);
	v = field == NRSIM_F_TOTAL ? u->total :
	    field == NRSIM_F_PRESENT ? u->present : u->peak;
	spin_unlock(&nd->hbm.lock);
	return v;
}

/* idx KBIN_MEMCAT_MAX: every category (device_mem/{total,present,peak}) */
static u64 nrsim_device_mem_value(struct nrsim_sysfs_dir *d,
				  const struct nrsim_sysfs_attr *a)
{
	const struct nrsim_mem_acct *acct = &d->nd->hbm.core[d->core];

	return nrsim_acct_field(d->nd, a->idx == KBIN_MEMCAT_MAX ? &acct->all :
			       &acct->category[a->idx], a->field);
}

static u64 nrsim_host_mem_value(struct nrsim_sysfs_dir *d,
				const struct nrsim_sysfs_attr *a)
{
	return nrsim_acct_field(d->nd, &d->nd->sysfs.host_mem[a->idx], a->field);
}

/* status counters: present is total (no runtime restarts to reset it) */
static u64 nrsim_status_value(struct nrsim_sysfs_dir *d,
			      const struct nrsim_sysfs_attr *a)
{
	return atomic64_read(&d->nd->sysfs.core[d->core].status[a->idx]);
}

/*
 * model_load_count: loads ever (total), models loaded now (present);
 * inference_count, nc_time_in_use (virtual microseconds) and the DMA
 * engine's counters: present is total (since the device was created)
 */
static u64 nrsim_other_value(struct nrsim_sysfs_dir *d,
			     const struct nrsim_sysfs_attr *a)
{
	const struct nrsim_core_stats *s = &d->nd->sysfs.core[d->core];
	struct nrsim_engine_stats *e = &d->nd->engine.stats[d->core];

	if (a->idx == NRSIM_OTHER_DMA_BYTES)
		return atomic64_read(&e->bytes);
	if (a->idx == NRSIM_OTHER_DMA_DESCRIPTORS)
		return atomic64_read(&e->descs);
	if (a->idx == NRSIM_OTHER_DMA_UDMA_DESCRIPTORS)
		return atomic64_read(&e->udma_descs);
	if (a->idx == NRSIM_OTHER_DMA_RUNS)
		return atomic64_read(&e->runs);
	if (a->idx == NRSIM_OTHER_DMA_ERRORS)
		return atomic64_read(&e->errors);
	if (a->idx == NRSIM_OTHER_DMA_BUSY_NS)
		return atomic64_read(&e->busy_ns);
	if (a->idx == NRSIM_OTHER_INFERENCE_COUNT)
		return atomic64_read(&s->inferences);
	if (a->idx == NRSIM_OTHER_NC_TIME_IN_USE)
		return div_u64(atomic64_read(&s->time_ns), NSEC_PER_USEC);
	if (a->idx != NRSIM_OTHER_MODEL_LOAD_COUNT)
		return 0;
	return atomic64_read(a->field == NRSIM_F_TOTAL ? &s->model_loads :
			     &s->models);
}

static ssize_t nrsim_sysfs_show(struct kobject *kobj, struct attribute *attr,
				char *buf)
{
	struct nrsim_sysfs_dir *d = container_of(kobj, struct nrsim_sysfs_dir, kobj);
	const struct nrsim_sysfs_attr *a =
		container_of(attr, struct nrsim_sysfs_attr, attr);

	return sysfs_emit(buf, "%llu\n", a->value(d, a));
}

static const struct sysfs_ops nrsim_sysfs_ops = {
	.show = nrsim_sysfs_show,
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
static struct nrsim_counter_dir nrsim_host_mem_dirs[NRSIM_HOST_MEM_MAX];
static struct nrsim_counter_dir nrsim_status_dirs[NRSIM_STATUS_MAX];
static struct nrsim_counter_dir nrsim_other_dirs[NRSIM_OTHER_MAX];

static const struct attribute_group *nrsim_device_mem_groups[KBIN_MEMCAT_MAX + 2];
static const struct attribute_group *nrsim_host_mem_groups[NRSIM_HOST_MEM_MAX + 1];
static const struct attribute_group *nrsim_status_groups[NRSIM_STATUS_MAX + 1];
static const struct attribute_group *nrsim_other_groups[NRSIM_OTHER_MAX + 1];

/*
 * Fill @n counter directories: directory i is named @name(i) (NULL: the
 * fields sit in the directory itself), has @nfields fields and reads
 * @value with idx @i.
 */
static void nrsim_counter_dirs_init(struct nrsim_counter_dir *dirs,
				    const struct attribute_group **groups,
				   unsigned int n, unsigned int nfields,
				   const char *(*name)(unsigned int i),
				   nrsim_value_fn value)
{
	unsigned int i, f;

	for (i = 0; i < n; i++) {
		struct nrsim_counter_dir *c = &dirs[i];

		for (f = 0; f < nfields; f++) {
			c->attr[f].attr.name = nrsim_field_names[f];
			c->attr[f].attr.mode = 0444;
			c->attr[f].value = value;
			c->attr[f].idx = i;
			c->attr[f].field = f;
			c->attrs[f] = &c->attr[f].attr;
		}
		c->attrs[nfields] = NULL;
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

/* info/architecture/ of the device, and of a NeuronCore (arch_type only) */
enum { NRSIM_ARCH_TYPE, NRSIM_ARCH_INSTANCE_TYPE, NRSIM_ARCH_DEVICE_NAME };

static ssize_t nrsim_arch_show(struct kobject *kobj, struct attribute *attr,
			       char *buf)
{
	struct nrsim_sysfs_dir *d = container_of(kobj, struct nrsim_sysfs_dir, kobj);
	const struct nrsim_sysfs_attr *a =
		container_of(attr, struct nrsim_sysfs_attr, attr);
	const struct kbin_gen *g = d->nd->arch;

	switch (a->idx) {
	case NRSIM_ARCH_TYPE:
		return sysfs_emit(buf, "NCv%u\n", g->gen);
	case NRSIM_ARCH_INSTANCE_TYPE:
		return sysfs_emit(buf, "%s\n", g->name);
	default:
		return sysfs_emit(buf, "%s\n", g->device_name);
	}
}

static const struct sysfs_ops nrsim_arch_ops = {
	.show = nrsim_arch_show,
};

#define NRSIM_ARCH_ATTR(_var, _name, _idx) \
	static struct nrsim_sysfs_attr _var = { \
		.attr = { .name = _name, .mode = 0444 }, .idx = _idx, \
	}

NRSIM_ARCH_ATTR(nrsim_arch_type, "arch_type", NRSIM_ARCH_TYPE);
NRSIM_ARCH_ATTR(nrsim_instance_type, "instance_type", NRSIM_ARCH_INSTANCE_TYPE);
NRSIM_ARCH_ATTR(nrsim_device_name, "device_name", NRSIM_ARCH_DEVICE_NAME);

static struct attribute *nrsim_dev_arch_attrs[] = {
	&nrsim_arch_type.attr, &nrsim_instance_type.attr, &nrsim_device_name.attr,
	NULL,
};

static struct attribute *nrsim_core_arch_attrs[] = {
	&nrsim_arch_type.attr, NULL,
};

static const struct attribute_group nrsim_dev_arch_group = {
	.name = "architecture", .attrs = nrsim_dev_arch_attrs,
};

static const struct attribute_group nrsim_core_arch_group = {
	.name = "architecture", .attrs = nrsim_core_arch_attrs,
};

static const struct attribute_group *nrsim_dev_info_groups[] = {
	&nrsim_dev_arch_group, NULL,
};

static const struct attribute_group *nrsim_core_info_groups[] = {
	&nrsim_core_arch_group, NULL,
};

static void nrsim_sysfs_dir_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct nrsim_sysfs_dir, kobj));
}

/* the kinds of directory: their files */
static const struct kobj_type nrsim_plain_ktype = {
	.release = nrsim_sysfs_dir_release,
	.sysfs_ops = &nrsim_sysfs_ops,
};

static const struct kobj_type nrsim_dev_info_ktype = {
	.release = nrsim_sysfs_dir_release,
	.sysfs_ops = &nrsim_arch_ops,
	.default_groups = nrsim_dev_info_groups,
};

static const struct kobj_type nrsim_core_info_ktype = {
	.release = nrsim_sysfs_dir_release,
	.sysfs_ops = &nrsim_arch_ops,
	.default_groups = nrsim_core_info_groups,
};

static const struct kobj_type nrsim_host_mem_ktype = {
	.release = nrsim_sysfs_dir_release,
	.sysfs_ops = &nrsim_sysfs_ops,
	.default_groups = nrsim_host_mem_groups,
};

static const struct kobj_type nrsim_device_mem_ktype = {
	.release = nrsim_sysfs_dir_release,
	.sysfs_ops = &nrsim_sysfs_ops,
	.default_groups = nrsim_device_mem_groups,
};

static const struct kobj_type nrsim_status_ktype = {
	.release = nrsim_sysfs_dir_release,
	.sysfs_ops = &nrsim_sysfs_ops,
	.default_groups = nrsim_status_groups,
};

static const struct kobj_type nrsim_other_ktype = {
	.release = nrsim_sysfs_dir_release,
	.sysfs_ops = &nrsim_sysfs_ops,
	.default_groups = nrsim_other_groups,
};

/* directories per device and per NeuronCore (nrsim_sysfs_add()) */
#define NRSIM_SYSFS_DEV_DIRS	4
#define NRSIM_SYSFS_CORE_DIRS	7

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

	d = kzalloc(sizeof(*d), GFP_KERNEL);
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

/* a NeuronCore's directories */
static int nrsim_sysfs_core_add(struct nrsim_device *nd, u32 core)
{
	struct kobject *c, *stats, *mu, *k;
	char name[24];

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
	k = nrsim_sysfs_dir_add(nd, mu, &nrsim_device_mem_ktype, core,
				"device_mem");
	if (IS_ERR(k))
		return PTR_ERR(k);
	k = nrsim_sysfs_dir_add(nd, stats, &nrsim_status_ktype, core, "status");
	if (IS_ERR(k))
		return PTR_ERR(k);
	k = nrsim_sysfs_dir_add(nd, stats, &nrsim_other_ktype, core,
				"other_info");
	return PTR_ERR_OR_ZERO(k);
}

/**
 * nrsim_sysfs_add() - create a device's tree: its device neuronsimN of
 *	class neuronsim (child of its bus device) and the directories
 *	Documentation/sysfs.rst lists.
 * @nd: the device, not yet published.
 *
 * Return: 0; -ENOMEM; or the error of device_create() or kobject_add().
 * On error nothing is left.
 */
int nrsim_sysfs_add(struct nrsim_device *nd)
{
	struct kobject *stats, *mu, *k;
	struct device *cdev;
	u32 core;
	int ret;

	nd->sysfs.dirs = kcalloc(NRSIM_SYSFS_DEV_DIRS + NRSIM_SYSFS_CORE_DIRS *
				 nd->arch->num_cores, sizeof(*nd->sysfs.dirs),
				 GFP_KERNEL);
	if (!nd->sysfs.dirs)
		return -ENOMEM;
	nd->sysfs.ndirs = 0;
	cdev = device_create(nrsim_class, &nd->dev, MKDEV(0, 0), nd, "%s",
			     nd->name);
	if (IS_ERR(cdev)) {
		ret = PTR_ERR(cdev);
		goto err_dirs;
	}
	nd->sysfs.dev = cdev;

	k = nrsim_sysfs_dir_add(nd, &cdev->kobj, &nrsim_dev_info_ktype, 0, "info");
	if (IS_ERR(k))
		goto err_tree;
	stats = nrsim_sysfs_dir_add(nd, &cdev->kobj, &nrsim_plain_ktype, 0, "stats");
	if (IS_ERR(stats)) {
		k = stats;
		goto err_tree;
	}
	mu = nrsim_sysfs_dir_add(nd, stats, &nrsim_plain_ktype, 0, "memory_usage");
	if (IS_ERR(mu)) {
		k = mu;
		goto err_tree;
	}
	k = nrsim_sysfs_dir_add(nd, mu, &nrsim_host_mem_ktype, 0, "host_mem");
	if (IS_ERR(k))
		goto err_tree;
	for (core = 0; core < nd->arch->num_cores; core++) {
		ret = nrsim_sysfs_core_add(nd, core);
		if (ret)
			goto err_cores;
	}
	return 0;

err_tree:
	ret = PTR_ERR(k);
err_cores:
	nrsim_sysfs_del(nd);
	return ret;
err_dirs:
	kfree(nd->sysfs.dirs);
	nd->sysfs.dirs = NULL;
	return ret;
}

/**
 * nrsim_sysfs_del() - remove a device's tree (nrsim_sysfs_add()): the
 *	directories deepest first, then the class device.  kobject_del()
 *	waits for readers in a show function, so none runs afterwards.
 * @nd: the device (its tree may be partly built).
 */
void nrsim_sysfs_del(struct nrsim_device *nd)
{
	while (nd->sysfs.ndirs) {
		struct kobject *k = nd->sysfs.dirs[--nd->sysfs.ndirs];

		kobject_del(k);
		kobject_put(k);
	}
	kfree(nd->sysfs.dirs);
	nd->sysfs.dirs = NULL;
	if (nd->sysfs.dev)
		device_unregister(nd->sysfs.dev);
	nd->sysfs.dev = NULL;
}

/**
 * nrsim_sysfs_init() - register the class neuronsim and fill the counter
 *	files' tables (names from kbin_mem_category_str() and the tables
 *	above).
 *
 * Return: 0 or the error of class_create().
 */
int nrsim_sysfs_init(void)
{
	nrsim_counter_dirs_init(nrsim_device_mem_dirs, nrsim_device_mem_groups,
				KBIN_MEMCAT_MAX + 1, NRSIM_F_MAX,
			       nrsim_device_mem_name, nrsim_device_mem_value);
	nrsim_counter_dirs_init(nrsim_host_mem_dirs, nrsim_host_mem_groups,
				NRSIM_HOST_MEM_MAX, NRSIM_F_MAX,
			       nrsim_host_mem_name, nrsim_host_mem_value);
	nrsim_counter_dirs_init(nrsim_status_dirs, nrsim_status_groups,
				NRSIM_STATUS_MAX, NRSIM_F_PEAK,
			       nrsim_status_name, nrsim_status_value);
	nrsim_counter_dirs_init(nrsim_other_dirs, nrsim_other_groups,
				NRSIM_OTHER_MAX, NRSIM_F_PEAK,
			       nrsim_other_name, nrsim_other_value);
	nrsim_class = class_create(THIS_MODULE, NEURONSIM_DEVICE_NAME);
	return PTR_ERR_OR_ZERO(nrsim_class);
}

/**
 * nrsim_sysfs_exit() - unregister the class (every device is gone).
 */
void nrsim_sysfs_exit(void)
{
	class_destroy(nrsim_class);
}
