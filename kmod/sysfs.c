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
 * HBM accounting of hbm.c, read under the device's hbm_lock, and the
 * load counters below, atomics.
 *
 * A load ends in one status counter per nsim_status_reasons[] (the one
 * table from a failed load's reason to the driver's status counter), and
 * "success" or "failure" besides.
 */
#include <linux/device.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>

#include "neuronsim.h"

/*
 * the driver's status counters, in its order (aws-neuron-driver's
 * neuron_sysfs_metrics.c); index: enum nsim_status
 */
static const char *const nsim_status_names[NSIM_STATUS_MAX] = {
	[NSIM_STATUS_SUCCESS] = "success",
	[NSIM_STATUS_FAILURE] = "failure",
	[NSIM_STATUS_TIMEOUT] = "timeout",
	[NSIM_STATUS_EXEC_BAD_INPUT] = "exec_bad_input",
	[NSIM_STATUS_HW_ERROR] = "hw_error",
	[NSIM_STATUS_EXEC_COMPLETED_WITH_ERR] = "execute_completed_with_error",
	[NSIM_STATUS_EXEC_COMPLETED_WITH_NUM_ERR] = "execute_completed_with_num_error",
	[NSIM_STATUS_GENERIC_ERROR] = "generic_error",
	[NSIM_STATUS_RESOURCE_ERROR] = "resource_error",
	[NSIM_STATUS_RESOURCE_NC_ERROR] = "resource_nc_error",
	[NSIM_STATUS_EXEC_FAILED_TO_QUEUE] = "execute_failed_to_queue",
	[NSIM_STATUS_INVALID_ERROR] = "invalid_error",
	[NSIM_STATUS_UNSUPPORTED_NEFF_VERSION] = "unsupported_neff_version",
	[NSIM_STATUS_OOB_ERROR] = "oob_error",
	[NSIM_STATUS_HW_COLLECTIVES_ERROR] = "hw_collectives_error",
	[NSIM_STATUS_HW_HBM_UE_ERROR] = "hw_hbm_ue_error",
	[NSIM_STATUS_HW_NC_UE_ERROR] = "hw_nc_ue_error",
	[NSIM_STATUS_HW_DMA_ABORT_ERROR] = "hw_dma_abort_error",
	[NSIM_STATUS_EXEC_SW_NQ_OVERFLOW] = "execute_sw_nq_overflow",
	[NSIM_STATUS_EXEC_SW_SEMAPHORE_ERROR] = "execute_sw_semaphore_error",
	[NSIM_STATUS_EXEC_SW_EVENT_ERROR] = "execute_sw_event_error",
	[NSIM_STATUS_EXEC_SW_PSUM_COLLISION] = "execute_sw_psum_collision",
	[NSIM_STATUS_EXEC_SW_SEQUENCER_FATAL] = "execute_sw_sequencer_fatal",
	[NSIM_STATUS_HW_REPAIRABLE_HBM_UE_ERROR] = "hw_repairable_hbm_ue_error",
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
} nsim_status_execs[] = {
	{ -EDEADLK, NSIM_STATUS_EXEC_SW_SEMAPHORE_ERROR },
	{ -ETIME, NSIM_STATUS_TIMEOUT },
	{ -EIO, NSIM_STATUS_EXEC_COMPLETED_WITH_ERR },
	{ -EOPNOTSUPP, NSIM_STATUS_EXEC_COMPLETED_WITH_ERR },
	{ -ENOMEM, NSIM_STATUS_RESOURCE_ERROR },
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
} nsim_status_reasons[] = {
	{ KBIN_ERR_VERSION, KBIN_ERR_VERSION, NSIM_STATUS_UNSUPPORTED_NEFF_VERSION },
	{ KBIN_ERR_TARGET, KBIN_ERR_TARGET, NSIM_STATUS_UNSUPPORTED_NEFF_VERSION },
	{ KBIN_ERR_TRUNCATED, KBIN_ERR_CHECK_MAX - 1, NSIM_STATUS_INVALID_ERROR },
	{ KBIN_ERR_STAGE_HBM, KBIN_ERR_STAGE_SCRATCHPAD, NSIM_STATUS_RESOURCE_ERROR },
	{ KBIN_ERR_STAGE_CORES, KBIN_ERR_STAGE_CORES, NSIM_STATUS_RESOURCE_NC_ERROR },
	{ KBIN_ERR_STAGE_LIMIT, KBIN_ERR_STAGE_LIMIT, NSIM_STATUS_RESOURCE_ERROR },
	{ KBIN_ERR_STAGE_NOMEM, KBIN_ERR_STAGE_NOMEM, NSIM_STATUS_RESOURCE_ERROR },
	{ KBIN_ERR_STAGE_SBUF, KBIN_ERR_STAGE_SBUF, NSIM_STATUS_OOB_ERROR },
	{ KBIN_ERR_RELOC_BOUNDS, KBIN_ERR_RELOC_BOUNDS, NSIM_STATUS_OOB_ERROR },
	{ KBIN_ERR_RELOC_VAR, KBIN_ERR_RELOC_VAR, NSIM_STATUS_INVALID_ERROR },
};

/* the driver's host-memory categories; index: enum nsim_host_mem */
static const char *const nsim_host_mem_names[NSIM_HOST_MEM_MAX] = {
	[NSIM_HOST_MEM_DMA_BUFFERS] = "dma_buffers",
	[NSIM_HOST_MEM_TENSORS] = "tensors",
	[NSIM_HOST_MEM_CONSTANTS] = "constants",
	[NSIM_HOST_MEM_APPLICATION_MEMORY] = "application_memory",
	[NSIM_HOST_MEM_DRIVER_MEMORY] = "driver_memory",
	[NSIM_HOST_MEM_NOTIFICATIONS] = "notifications",
	[NSIM_HOST_MEM_DMA_RINGS] = "dma_rings",
	[NSIM_HOST_MEM_UNCATEGORIZED] = "uncategorized",
};

/*
 * the driver's other_info counters (model_load_count, inference_count and
 * nc_time_in_use are counted), then the DMA engine's (struct
 * nsim_engine_stats)
 */
enum {
	NSIM_OTHER_MODEL_LOAD_COUNT,
	NSIM_OTHER_RESET_REQ_COUNT,
	NSIM_OTHER_RESET_FAIL_COUNT,
	NSIM_OTHER_INFERENCE_COUNT,
	NSIM_OTHER_FLOP_COUNT,
	NSIM_OTHER_NC_TIME_IN_USE,
	NSIM_OTHER_DMA_BYTES,
	NSIM_OTHER_DMA_DESCRIPTORS,
	NSIM_OTHER_DMA_UDMA_DESCRIPTORS,
	NSIM_OTHER_DMA_RUNS,
	NSIM_OTHER_DMA_ERRORS,
	NSIM_OTHER_DMA_BUSY_NS,
	NSIM_OTHER_MAX,
};

static const char *const nsim_other_names[NSIM_OTHER_MAX] = {
	[NSIM_OTHER_MODEL_LOAD_COUNT] = "model_load_count",
	[NSIM_OTHER_RESET_REQ_COUNT] = "reset_req_count",
	[NSIM_OTHER_RESET_FAIL_COUNT] = "reset_fail_count",
	[NSIM_OTHER_INFERENCE_COUNT] = "inference_count",
	[NSIM_OTHER_FLOP_COUNT] = "flop_count",
	[NSIM_OTHER_NC_TIME_IN_USE] = "nc_time_in_use",
	[NSIM_OTHER_DMA_BYTES] = "dma_bytes",
	[NSIM_OTHER_DMA_DESCRIPTORS] = "dma_descriptors",
	[NSIM_OTHER_DMA_UDMA_DESCRIPTORS] = "dma_udma_descriptors",
	[NSIM_OTHER_DMA_RUNS] = "dma_runs",
	[NSIM_OTHER_DMA_ERRORS] = "dma_errors",
	[NSIM_OTHER_DMA_BUSY_NS] = "dma_busy_ns",
};

/**
 * nsim_status_of_reason() - the status counter a failed load is counted in.
 * @reason: enum kbin_check_reason of the failure.
 *
 * Return: enum nsim_status.
 */
static unsigned int nsim_status_of_reason(u32 reason)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(nsim_status_reasons); i++)
		if (reason >= nsim_status_reasons[i].first &&
		    reason <= nsim_status_reasons[i].last)
			return nsim_status_reasons[i].status;
	return NSIM_STATUS_GENERIC_ERROR;
}

/**
 * nsim_sysfs_count_load() - count the end of a LOAD in its NeuronCore's
 *	status counters: "success", or "failure" and the counter of its
 *	reason (nsim_status_reasons[]).
 * @nd: the device.
 * @core: the load's first NeuronCore; a load that asked for any core
 *	and failed before one was chosen passes 0.
 * @ret: 0 or the load's negative errno.
 * @reason: enum kbin_check_reason of a failure (0 when none applies).
 */
void nsim_sysfs_count_load(struct nsim_device *nd, u32 core, long ret,
			   u32 reason)
{
	struct nsim_core_stats *s;

	if (core >= nd->arch->num_cores)
		core = 0;
	s = &nd->core_stats[core];
	if (!ret) {
		atomic64_inc(&s->status[NSIM_STATUS_SUCCESS]);
		atomic64_inc(&s->model_loads);
		return;
	}
	atomic64_inc(&s->status[NSIM_STATUS_FAILURE]);
	atomic64_inc(&s->status[nsim_status_of_reason(reason)]);
}

/**
 * nsim_sysfs_count_exec() - count the end of the execution of a subgraph
 *	in its NeuronCore's counters: "success", inference_count and
 *	nc_time_in_use, or "failure" and the counter of its status
 *	(nsim_status_execs[]).
 * @nd: the device.
 * @core: the subgraph's NeuronCore.
 * @status: 0 or the subgraph's negative status (not -ECANCELED: an
 *	execution UNLOAD or close cancelled is not counted).
 * @virtual_ns: its virtual duration.
 */
void nsim_sysfs_count_exec(struct nsim_device *nd, u32 core, int status,
			   u64 virtual_ns)
{
	struct nsim_core_stats *s = &nd->core_stats[core];
	unsigned int c = NSIM_STATUS_GENERIC_ERROR;
	size_t i;

	atomic64_add(virtual_ns, &s->time_ns);
	if (!status) {
		atomic64_inc(&s->status[NSIM_STATUS_SUCCESS]);
		atomic64_inc(&s->inferences);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(nsim_status_execs); i++)
		if (nsim_status_execs[i].status == status)
			c = nsim_status_execs[i].counter;
	atomic64_inc(&s->status[NSIM_STATUS_FAILURE]);
	atomic64_inc(&s->status[c]);
}

static void nsim_acct_add(struct nsim_usage_acct *a, u64 n)
{
	a->total += n;
	a->present += n;
	if (a->present > a->peak)
		a->peak = a->present;
}

/**
 * nsim_sysfs_model_published() - account a model that is now loaded:
 *	one more model on its first NeuronCore, its kernel memory in the
 *	host driver_memory category.
 * @m: the model, being published.
 */
void nsim_sysfs_model_published(struct nsim_model *m)
{
	struct nsim_device *nd = m->nd;

	atomic64_inc(&nd->core_stats[m->first_core].models);
	spin_lock(&nd->hbm_lock);
	nsim_acct_add(&nd->host_mem[NSIM_HOST_MEM_DRIVER_MEMORY], m->kmem_bytes);
	spin_unlock(&nd->hbm_lock);
}

/**
 * nsim_sysfs_model_unpublished() - undo nsim_sysfs_model_published().
 * @m: the model, being unpublished.
 */
void nsim_sysfs_model_unpublished(struct nsim_model *m)
{
	struct nsim_device *nd = m->nd;

	atomic64_dec(&nd->core_stats[m->first_core].models);
	spin_lock(&nd->hbm_lock);
	nd->host_mem[NSIM_HOST_MEM_DRIVER_MEMORY].present -= m->kmem_bytes;
	spin_unlock(&nd->hbm_lock);
}

/* ---- the tree ---- */

/* a directory of the tree: a kobject, its device and NeuronCore */
struct nsim_sysfs_dir {
	struct kobject kobj;
	struct nsim_device *nd;
	u32 core;
};

enum { NSIM_F_TOTAL, NSIM_F_PRESENT, NSIM_F_PEAK, NSIM_F_MAX };

static const char *const nsim_field_names[NSIM_F_MAX] = {
	"total", "present", "peak",
};

struct nsim_sysfs_attr;
typedef u64 (*nsim_value_fn)(struct nsim_sysfs_dir *d,
			     const struct nsim_sysfs_attr *a);

/* one file: its value function, and which category/counter and field */
struct nsim_sysfs_attr {
	struct attribute attr;
	nsim_value_fn value;
	u16 idx;
	u16 field;
};

static u64 nsim_acct_field(struct nsim_device *nd,
			   const struct nsim_usage_acct *u, unsigned int field)
{
	u64 v;

	spin_lock(&nd->hbm_lock);
	v = field == NSIM_F_TOTAL ? u->total :
	    field == NSIM_F_PRESENT ? u->present : u->peak;
	spin_unlock(&nd->hbm_lock);
	return v;
}

/* idx KBIN_MEMCAT_MAX: every category (device_mem/{total,present,peak}) */
static u64 nsim_device_mem_value(struct nsim_sysfs_dir *d,
				 const struct nsim_sysfs_attr *a)
{
	const struct nsim_mem_acct *acct = &d->nd->core_hbm[d->core];

	return nsim_acct_field(d->nd, a->idx == KBIN_MEMCAT_MAX ? &acct->all :
			       &acct->category[a->idx], a->field);
}

static u64 nsim_host_mem_value(struct nsim_sysfs_dir *d,
			       const struct nsim_sysfs_attr *a)
{
	return nsim_acct_field(d->nd, &d->nd->host_mem[a->idx], a->field);
}

/* status counters: present is total (no runtime restarts to reset it) */
static u64 nsim_status_value(struct nsim_sysfs_dir *d,
			     const struct nsim_sysfs_attr *a)
{
	return atomic64_read(&d->nd->core_stats[d->core].status[a->idx]);
}

/*
 * model_load_count: loads ever (total), models loaded now (present);
 * inference_count, nc_time_in_use (virtual microseconds) and the DMA
 * engine's counters: present is total (since the device was created)
 */
static u64 nsim_other_value(struct nsim_sysfs_dir *d,
			    const struct nsim_sysfs_attr *a)
{
	const struct nsim_core_stats *s = &d->nd->core_stats[d->core];
	struct nsim_engine_stats *e = &d->nd->engine[d->core];

	if (a->idx == NSIM_OTHER_DMA_BYTES)
		return atomic64_read(&e->bytes);
	if (a->idx == NSIM_OTHER_DMA_DESCRIPTORS)
		return atomic64_read(&e->descs);
	if (a->idx == NSIM_OTHER_DMA_UDMA_DESCRIPTORS)
		return atomic64_read(&e->udma_descs);
	if (a->idx == NSIM_OTHER_DMA_RUNS)
		return atomic64_read(&e->runs);
	if (a->idx == NSIM_OTHER_DMA_ERRORS)
		return atomic64_read(&e->errors);
	if (a->idx == NSIM_OTHER_DMA_BUSY_NS)
		return atomic64_read(&e->busy_ns);
	if (a->idx == NSIM_OTHER_INFERENCE_COUNT)
		return atomic64_read(&s->inferences);
	if (a->idx == NSIM_OTHER_NC_TIME_IN_USE)
		return div_u64(atomic64_read(&s->time_ns), NSEC_PER_USEC);
	if (a->idx != NSIM_OTHER_MODEL_LOAD_COUNT)
		return 0;
	return atomic64_read(a->field == NSIM_F_TOTAL ? &s->model_loads :
			     &s->models);
}

static ssize_t nsim_sysfs_show(struct kobject *kobj, struct attribute *attr,
			       char *buf)
{
	struct nsim_sysfs_dir *d = container_of(kobj, struct nsim_sysfs_dir, kobj);
	const struct nsim_sysfs_attr *a =
		container_of(attr, struct nsim_sysfs_attr, attr);

	return sysfs_emit(buf, "%llu\n", a->value(d, a));
}

static const struct sysfs_ops nsim_sysfs_ops = {
	.show = nsim_sysfs_show,
};

/*
 * The counter files: per category or counter a named group of its
 * fields.  Names are filled in by nsim_sysfs_init() from the tables
 * (kbin_mem_category_str() for the device categories).
 */
struct nsim_counter_dir {
	struct nsim_sysfs_attr attr[NSIM_F_MAX];
	struct attribute *attrs[NSIM_F_MAX + 1];
	struct attribute_group group;
};

static struct nsim_counter_dir nsim_device_mem_dirs[KBIN_MEMCAT_MAX + 1];
static struct nsim_counter_dir nsim_host_mem_dirs[NSIM_HOST_MEM_MAX];
static struct nsim_counter_dir nsim_status_dirs[NSIM_STATUS_MAX];
static struct nsim_counter_dir nsim_other_dirs[NSIM_OTHER_MAX];

static const struct attribute_group *nsim_device_mem_groups[KBIN_MEMCAT_MAX + 2];
static const struct attribute_group *nsim_host_mem_groups[NSIM_HOST_MEM_MAX + 1];
static const struct attribute_group *nsim_status_groups[NSIM_STATUS_MAX + 1];
static const struct attribute_group *nsim_other_groups[NSIM_OTHER_MAX + 1];

/*
 * Fill @n counter directories: directory i is named @name(i) (NULL: the
 * fields sit in the directory itself), has @nfields fields and reads
 * @value with idx @i.
 */
static void nsim_counter_dirs_init(struct nsim_counter_dir *dirs,
				   const struct attribute_group **groups,
				   unsigned int n, unsigned int nfields,
				   const char *(*name)(unsigned int i),
				   nsim_value_fn value)
{
	unsigned int i, f;

	for (i = 0; i < n; i++) {
		struct nsim_counter_dir *c = &dirs[i];

		for (f = 0; f < nfields; f++) {
			c->attr[f].attr.name = nsim_field_names[f];
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

static const char *nsim_device_mem_name(unsigned int i)
{
	return i < KBIN_MEMCAT_MAX ? kbin_mem_category_str(i) : NULL;
}

static const char *nsim_host_mem_name(unsigned int i)
{
	return nsim_host_mem_names[i];
}

static const char *nsim_status_name(unsigned int i)
{
	return nsim_status_names[i];
}

static const char *nsim_other_name(unsigned int i)
{
	return nsim_other_names[i];
}

/* info/architecture/ of the device, and of a NeuronCore (arch_type only) */
enum { NSIM_ARCH_TYPE, NSIM_ARCH_INSTANCE_TYPE, NSIM_ARCH_DEVICE_NAME };

static ssize_t nsim_arch_show(struct kobject *kobj, struct attribute *attr,
			      char *buf)
{
	struct nsim_sysfs_dir *d = container_of(kobj, struct nsim_sysfs_dir, kobj);
	const struct nsim_sysfs_attr *a =
		container_of(attr, struct nsim_sysfs_attr, attr);
	const struct kbin_gen *g = d->nd->arch;

	switch (a->idx) {
	case NSIM_ARCH_TYPE:
		return sysfs_emit(buf, "NCv%u\n", g->gen);
	case NSIM_ARCH_INSTANCE_TYPE:
		return sysfs_emit(buf, "%s\n", g->name);
	default:
		return sysfs_emit(buf, "%s\n", g->device_name);
	}
}

static const struct sysfs_ops nsim_arch_ops = {
	.show = nsim_arch_show,
};

#define NSIM_ARCH_ATTR(_var, _name, _idx) \
	static struct nsim_sysfs_attr _var = { \
		.attr = { .name = _name, .mode = 0444 }, .idx = _idx, \
	}

NSIM_ARCH_ATTR(nsim_arch_type, "arch_type", NSIM_ARCH_TYPE);
NSIM_ARCH_ATTR(nsim_instance_type, "instance_type", NSIM_ARCH_INSTANCE_TYPE);
NSIM_ARCH_ATTR(nsim_device_name, "device_name", NSIM_ARCH_DEVICE_NAME);

static struct attribute *nsim_dev_arch_attrs[] = {
	&nsim_arch_type.attr, &nsim_instance_type.attr, &nsim_device_name.attr,
	NULL,
};

static struct attribute *nsim_core_arch_attrs[] = {
	&nsim_arch_type.attr, NULL,
};

static const struct attribute_group nsim_dev_arch_group = {
	.name = "architecture", .attrs = nsim_dev_arch_attrs,
};

static const struct attribute_group nsim_core_arch_group = {
	.name = "architecture", .attrs = nsim_core_arch_attrs,
};

static const struct attribute_group *nsim_dev_info_groups[] = {
	&nsim_dev_arch_group, NULL,
};

static const struct attribute_group *nsim_core_info_groups[] = {
	&nsim_core_arch_group, NULL,
};

static void nsim_sysfs_dir_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct nsim_sysfs_dir, kobj));
}

/* the kinds of directory: their files */
static const struct kobj_type nsim_plain_ktype = {
	.release = nsim_sysfs_dir_release,
	.sysfs_ops = &nsim_sysfs_ops,
};

static const struct kobj_type nsim_dev_info_ktype = {
	.release = nsim_sysfs_dir_release,
	.sysfs_ops = &nsim_arch_ops,
	.default_groups = nsim_dev_info_groups,
};

static const struct kobj_type nsim_core_info_ktype = {
	.release = nsim_sysfs_dir_release,
	.sysfs_ops = &nsim_arch_ops,
	.default_groups = nsim_core_info_groups,
};

static const struct kobj_type nsim_host_mem_ktype = {
	.release = nsim_sysfs_dir_release,
	.sysfs_ops = &nsim_sysfs_ops,
	.default_groups = nsim_host_mem_groups,
};

static const struct kobj_type nsim_device_mem_ktype = {
	.release = nsim_sysfs_dir_release,
	.sysfs_ops = &nsim_sysfs_ops,
	.default_groups = nsim_device_mem_groups,
};

static const struct kobj_type nsim_status_ktype = {
	.release = nsim_sysfs_dir_release,
	.sysfs_ops = &nsim_sysfs_ops,
	.default_groups = nsim_status_groups,
};

static const struct kobj_type nsim_other_ktype = {
	.release = nsim_sysfs_dir_release,
	.sysfs_ops = &nsim_sysfs_ops,
	.default_groups = nsim_other_groups,
};

/* directories per device and per NeuronCore (nsim_sysfs_add()) */
#define NSIM_SYSFS_DEV_DIRS	4
#define NSIM_SYSFS_CORE_DIRS	7

static struct class *nsim_class;

/*
 * Add directory @name of @kt under @parent, charged to @nd's list of
 * directories (removed in reverse order by nsim_sysfs_del()).
 */
static struct kobject *nsim_sysfs_dir_add(struct nsim_device *nd,
					  struct kobject *parent,
					  const struct kobj_type *kt, u32 core,
					  const char *name)
{
	struct nsim_sysfs_dir *d;
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
	nd->sysfs_dirs[nd->sysfs_ndirs++] = &d->kobj;
	return &d->kobj;
}

/* a NeuronCore's directories */
static int nsim_sysfs_core_add(struct nsim_device *nd, u32 core)
{
	struct kobject *c, *stats, *mu, *k;
	char name[24];

	snprintf(name, sizeof(name), "neuron_core%u", core);
	c = nsim_sysfs_dir_add(nd, &nd->sysfs_dev->kobj, &nsim_plain_ktype,
			       core, name);
	if (IS_ERR(c))
		return PTR_ERR(c);
	k = nsim_sysfs_dir_add(nd, c, &nsim_core_info_ktype, core, "info");
	if (IS_ERR(k))
		return PTR_ERR(k);
	stats = nsim_sysfs_dir_add(nd, c, &nsim_plain_ktype, core, "stats");
	if (IS_ERR(stats))
		return PTR_ERR(stats);
	mu = nsim_sysfs_dir_add(nd, stats, &nsim_plain_ktype, core,
				"memory_usage");
	if (IS_ERR(mu))
		return PTR_ERR(mu);
	k = nsim_sysfs_dir_add(nd, mu, &nsim_device_mem_ktype, core,
			       "device_mem");
	if (IS_ERR(k))
		return PTR_ERR(k);
	k = nsim_sysfs_dir_add(nd, stats, &nsim_status_ktype, core, "status");
	if (IS_ERR(k))
		return PTR_ERR(k);
	k = nsim_sysfs_dir_add(nd, stats, &nsim_other_ktype, core,
			       "other_info");
	return PTR_ERR_OR_ZERO(k);
}

/**
 * nsim_sysfs_add() - create a device's tree: its device neuronsimN of
 *	class neuronsim (child of its bus device) and the directories
 *	Documentation/sysfs.rst lists.
 * @nd: the device, not yet published.
 *
 * Return: 0; -ENOMEM; or the error of device_create() or kobject_add().
 * On error nothing is left.
 */
int nsim_sysfs_add(struct nsim_device *nd)
{
	struct kobject *stats, *mu, *k;
	struct device *cdev;
	u32 core;
	int ret;

	nd->sysfs_dirs = kcalloc(NSIM_SYSFS_DEV_DIRS + NSIM_SYSFS_CORE_DIRS *
				 nd->arch->num_cores, sizeof(*nd->sysfs_dirs),
				 GFP_KERNEL);
	if (!nd->sysfs_dirs)
		return -ENOMEM;
	nd->sysfs_ndirs = 0;
	cdev = device_create(nsim_class, &nd->dev, MKDEV(0, 0), nd, "%s",
			     nd->name);
	if (IS_ERR(cdev)) {
		ret = PTR_ERR(cdev);
		goto err_dirs;
	}
	nd->sysfs_dev = cdev;

	k = nsim_sysfs_dir_add(nd, &cdev->kobj, &nsim_dev_info_ktype, 0, "info");
	if (IS_ERR(k))
		goto err_tree;
	stats = nsim_sysfs_dir_add(nd, &cdev->kobj, &nsim_plain_ktype, 0, "stats");
	if (IS_ERR(stats)) {
		k = stats;
		goto err_tree;
	}
	mu = nsim_sysfs_dir_add(nd, stats, &nsim_plain_ktype, 0, "memory_usage");
	if (IS_ERR(mu)) {
		k = mu;
		goto err_tree;
	}
	k = nsim_sysfs_dir_add(nd, mu, &nsim_host_mem_ktype, 0, "host_mem");
	if (IS_ERR(k))
		goto err_tree;
	for (core = 0; core < nd->arch->num_cores; core++) {
		ret = nsim_sysfs_core_add(nd, core);
		if (ret)
			goto err_cores;
	}
	return 0;

err_tree:
	ret = PTR_ERR(k);
err_cores:
	nsim_sysfs_del(nd);
	return ret;
err_dirs:
	kfree(nd->sysfs_dirs);
	nd->sysfs_dirs = NULL;
	return ret;
}

/**
 * nsim_sysfs_del() - remove a device's tree (nsim_sysfs_add()): the
 *	directories deepest first, then the class device.  kobject_del()
 *	waits for readers in a show function, so none runs afterwards.
 * @nd: the device (its tree may be partly built).
 */
void nsim_sysfs_del(struct nsim_device *nd)
{
	while (nd->sysfs_ndirs) {
		struct kobject *k = nd->sysfs_dirs[--nd->sysfs_ndirs];

		kobject_del(k);
		kobject_put(k);
	}
	kfree(nd->sysfs_dirs);
	nd->sysfs_dirs = NULL;
	if (nd->sysfs_dev)
		device_unregister(nd->sysfs_dev);
	nd->sysfs_dev = NULL;
}

/**
 * nsim_sysfs_init() - register the class neuronsim and fill the counter
 *	files' tables (names from kbin_mem_category_str() and the tables
 *	above).
 *
 * Return: 0 or the error of class_create().
 */
int nsim_sysfs_init(void)
{
	nsim_counter_dirs_init(nsim_device_mem_dirs, nsim_device_mem_groups,
			       KBIN_MEMCAT_MAX + 1, NSIM_F_MAX,
			       nsim_device_mem_name, nsim_device_mem_value);
	nsim_counter_dirs_init(nsim_host_mem_dirs, nsim_host_mem_groups,
			       NSIM_HOST_MEM_MAX, NSIM_F_MAX,
			       nsim_host_mem_name, nsim_host_mem_value);
	nsim_counter_dirs_init(nsim_status_dirs, nsim_status_groups,
			       NSIM_STATUS_MAX, NSIM_F_PEAK,
			       nsim_status_name, nsim_status_value);
	nsim_counter_dirs_init(nsim_other_dirs, nsim_other_groups,
			       NSIM_OTHER_MAX, NSIM_F_PEAK,
			       nsim_other_name, nsim_other_value);
	nsim_class = class_create(THIS_MODULE, NEURONSIM_DEVICE_NAME);
	return PTR_ERR_OR_ZERO(nsim_class);
}

/**
 * nsim_sysfs_exit() - unregister the class (every device is gone).
 */
void nsim_sysfs_exit(void)
{
	class_destroy(nsim_class);
}
