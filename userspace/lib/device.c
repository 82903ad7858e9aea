// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * device.c - libneuronsim: /dev/neuronsim ioctl wrappers
 * (uapi/linux/neuronsim.h).  Each function returns 0 or -errno.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "nsim_file.h"

static int nrsim_ioctl(int fd, unsigned long cmd, void *arg)
{
	if (fd < 0)
		return -EBADF;
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

/*
 * The module's neuron_compat: 1 on, 0 off.  Read once; not kept while
 * the module is not loaded (it may be loaded later, either way).
 */
static int nsim_compat(void)
{
	static _Atomic int compat = -1;
	int v = atomic_load_explicit(&compat, memory_order_relaxed);
	char c;
	int fd;

	if (v >= 0)
		return v;
	fd = open(NEURONSIM_COMPAT_PARAM, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	v = read(fd, &c, 1) == 1 && (c == 'Y' || c == '1');
	close(fd);
	atomic_store_explicit(&compat, v, memory_order_relaxed);
	return v;
}

/* "PREFIX<name><index>": the one place of the module's two namings */
static int nsim_name_path(unsigned int index, char *buf, size_t size,
			  const char *plain, const char *compat)
{
	int n;

	if (!buf || index >= NEURONSIM_MAX_DEVICES)
		return -EINVAL;
	n = snprintf(buf, size, "%s%u", nsim_compat() ? compat : plain, index);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

NSIM_EXPORT int neuronsim_dev_path(unsigned int index, char *buf, size_t size)
{
	return nsim_name_path(index, buf, size, "/dev/" NEURONSIM_DEVICE_NAME,
			      "/dev/neuron");
}

NSIM_EXPORT int neuronsim_sysfs_path(unsigned int index, char *buf,
				     size_t size)
{
	return nsim_name_path(index, buf, size,
			      NEURONSIM_SYSFS_CLASS "/" NEURONSIM_DEVICE_NAME,
			      "/sys/class/neuron_device/neuron");
}

NSIM_EXPORT int neuronsim_open(const struct neuronsim_open_opts *opts)
{
	char node[64];
	const char *path;
	__u32 device;
	int fd, err;

	err = OPTS_CHECK(opts);
	if (err)
		return err;
	path = OPTS_GET(opts, path, NULL);
	device = OPTS_GET(opts, device, 0);
	if ((path && device) || device >= NEURONSIM_MAX_DEVICES)
		return -EINVAL;
	if (!path && device) {
		err = neuronsim_dev_path(device, node, sizeof(node));
		if (err)
			return err;
		path = node;
	}
	if (!path)
		path = NEURONSIM_DEV_PATH;
	fd = open(path, O_RDWR | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int nsim_ent_cmp(const void *a, const void *b)
{
	const struct neuronsim_device_ent *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

NSIM_EXPORT int neuronsim_list_devices(struct neuronsim_device_ent *ents,
				       size_t max)
{
	struct neuronsim_device_ent found[NEURONSIM_MAX_DEVICES];
	struct dirent *de;
	size_t n = 0, i;
	DIR *d;

	if (!ents && max)
		return -EINVAL;
	d = opendir(NEURONSIM_BUS_DEVICES);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < NEURONSIM_MAX_DEVICES) {
		char path[sizeof(NEURONSIM_BUS_DEVICES) + 300], tail;
		unsigned int index;
		FILE *f;

		if (sscanf(de->d_name, NEURONSIM_DEVICE_NAME "%u%c", &index,
			   &tail) != 1 || index >= NEURONSIM_MAX_DEVICES)
			continue;
		memset(&found[n], 0, sizeof(found[n]));
		found[n].index = index;
		snprintf(path, sizeof(path), "%s/%s/arch", NEURONSIM_BUS_DEVICES,
			 de->d_name);
		f = fopen(path, "re");
		if (f) {
			if (fgets(found[n].arch_name, sizeof(found[n].arch_name), f))
				found[n].arch_name[strcspn(found[n].arch_name, "\n")] = '\0';
			fclose(f);
		}
		n++;
	}
	closedir(d);
	qsort(found, n, sizeof(found[0]), nsim_ent_cmp);
	for (i = 0; i < n && i < max; i++)
		ents[i] = found[i];
	return (int)n;
}

NSIM_EXPORT int neuronsim_close(int fd)
{
	if (fd < 0)
		return -EBADF;
	return close(fd) ? -errno : 0;
}

NSIM_EXPORT int neuronsim_get_info(int fd, struct neuronsim_info *info)
{
	if (!info)
		return -EINVAL;
	return nrsim_ioctl(fd, NEURONSIM_IOC_GET_INFO, info);
}

NSIM_EXPORT int neuronsim_load(int fd, const void *plan, size_t len,
			       struct neuronsim_load_opts *opts,
			       __u32 *model_id)
{
	struct neuronsim_load ld;
	char *log_buf;
	int err;

	err = OPTS_CHECK(opts);
	if (err)
		return err;
	if (!plan || !len || !model_id)
		return -EINVAL;
	log_buf = OPTS_GET(opts, log_buf, NULL);
	memset(&ld, 0, sizeof(ld));
	ld.plan_ptr = (uintptr_t)plan;
	ld.plan_len = len;
	ld.first_core = OPTS_GET(opts, first_core, 0);
	ld.flags = OPTS_GET(opts, flags, 0);
	if (log_buf) {
		ld.log_buf = (uintptr_t)log_buf;
		ld.log_size = OPTS_GET(opts, log_size, 0);
		if (ld.log_size)
			log_buf[0] = '\0';
	}
	err = nrsim_ioctl(fd, NEURONSIM_IOC_LOAD, &ld);
	OPTS_SET(opts, log_len, ld.log_len);
	OPTS_SET(opts, err_subgraph, err ? ld.err_subgraph : -1);
	OPTS_SET(opts, err_record, err ? ld.err_record : -1);
	OPTS_SET(opts, err_reason, err ? ld.err_reason : 0);
	OPTS_SET(opts, err_field, err ? ld.err_field : 0);
	if (!err)
		*model_id = ld.model_id;
	return err;
}

NSIM_EXPORT int neuronsim_load_file(int fd, const char *path,
				    struct neuronsim_load_opts *opts,
				    __u32 *model_id)
{
	void *buf = NULL;
	size_t len = 0;
	int err;

	if (!path || !model_id)
		return -EINVAL;
	err = OPTS_CHECK(opts);
	if (err)
		return err;
	err = nsim_read_file(path, &buf, &len);
	if (err)
		return err;
	if (!len) {
		free(buf);
		return -EINVAL;
	}
	err = neuronsim_load(fd, buf, len, opts, model_id);
	free(buf);
	return err;
}

NSIM_EXPORT int neuronsim_unload(int fd, __u32 model_id)
{
	struct neuronsim_unload u = { .model_id = model_id };

	return nrsim_ioctl(fd, NEURONSIM_IOC_UNLOAD, &u);
}

NSIM_EXPORT int neuronsim_model_info(int fd, __u32 model_id,
				     struct neuronsim_model_info *info)
{
	if (!info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->model_id = model_id;
	return nrsim_ioctl(fd, NEURONSIM_IOC_MODEL_INFO, info);
}

NSIM_EXPORT int neuronsim_dma_queues(int fd, __u32 model_id,
				     const struct neuronsim_dma_opts *opts,
				     struct neuronsim_dma_queue_info *queues,
				     __u32 max)
{
	struct neuronsim_dma_info di = {
		.model_id = model_id,
		.num_queues = max,
		.queues = (uintptr_t)queues,
	};
	int err = OPTS_CHECK(opts);

	if (err)
		return err;
	if (max && !queues)
		return -EINVAL;
	di.subgraph = OPTS_GET(opts, subgraph, 0);
	err = nrsim_ioctl(fd, NEURONSIM_IOC_DMA_INFO, &di);
	return err ? err : (int)di.num_queues;
}

NSIM_EXPORT int neuronsim_dma_ring(int fd, __u32 model_id,
				   const struct neuronsim_dma_opts *opts,
				   struct neuronsim_dma_desc_info *descs,
				   __u32 max)
{
	struct neuronsim_dma_info di = {
		.model_id = model_id,
		.flags = NEURONSIM_DMA_INFO_F_RING,
	};
	__u32 done = 0;
	int err = OPTS_CHECK(opts);

	if (err)
		return err;
	if ((max && !descs) || max > INT32_MAX)
		return -EINVAL;
	di.subgraph = OPTS_GET(opts, subgraph, 0);
	di.queue = OPTS_GET(opts, queue, 0);
	di.side = OPTS_GET(opts, side, NEURONSIM_DMA_M2S);
	di.first = OPTS_GET(opts, first, 0);
	do {
		di.count = max - done > NEURONSIM_DMA_INFO_MAX_DESCS ?
			   NEURONSIM_DMA_INFO_MAX_DESCS : max - done;
		di.descs = (uintptr_t)(descs + done);
		di.num_queues = 0;	/* out: the subgraph's queue count */
		err = nrsim_ioctl(fd, NEURONSIM_IOC_DMA_INFO, &di);
		if (err)
			return err;
		done += di.count;
		di.first += di.count;
	} while (di.count && done < max);
	return (int)done;
}

NSIM_EXPORT int neuronsim_run(int fd, __u32 model_id,
			      const struct neuronsim_run_opts *opts,
			      const __u32 *queues, __u32 n)
{
	struct neuronsim_run r = {
		.model_id = model_id,
		.num_queues = n,
		.queues = (uintptr_t)queues,
	};
	int err = OPTS_CHECK(opts);

	if (err)
		return err;
	if (!queues || !n)
		return -EINVAL;
	r.subgraph = OPTS_GET(opts, subgraph, 0);
	return nrsim_ioctl(fd, NEURONSIM_IOC_RUN, &r);
}

NSIM_EXPORT int neuronsim_wait(int fd, __u32 model_id,
			       const struct neuronsim_run_opts *opts,
			       const __u32 *queues,
			       struct neuronsim_run_result *results, __u32 n)
{
	struct neuronsim_wait w = {
		.model_id = model_id,
		.num_queues = n,
		.queues = (uintptr_t)queues,
		.results = (uintptr_t)results,
	};
	__s64 t;
	int err = OPTS_CHECK(opts);

	if (err)
		return err;
	if (!queues || !results || !n)
		return -EINVAL;
	w.subgraph = OPTS_GET(opts, subgraph, 0);
	t = OPTS_GET(opts, timeout_ns, 0);
	/* the library's 0 is "for ever", the kernel's "check once" */
	w.timeout_ns = !t ? -1 : t < 0 ? 0 : t;
	return nrsim_ioctl(fd, NEURONSIM_IOC_WAIT, &w);
}

NSIM_EXPORT int neuronsim_exec_start(int fd, __u32 model_id,
				     const struct neuronsim_exec_opts *opts)
{
	struct neuronsim_exec x = { .model_id = model_id };
	int err = OPTS_CHECK(opts);

	if (err)
		return err;
	x.timeout_ns = OPTS_GET(opts, timeout_ns, 0);
	x.max_events = OPTS_GET(opts, max_events, 0);
	x.flags = OPTS_GET(opts, flags, 0);
	if (x.flags & ~NEURONSIM_EXEC_F_RACE)
		return -EINVAL;
	if (x.max_events)
		x.flags |= NEURONSIM_EXEC_F_TRACE;
	return nrsim_ioctl(fd, NEURONSIM_IOC_EXECUTE, &x);
}

NSIM_EXPORT void neuronsim_exec_result_free(struct neuronsim_exec_result *res)
{
	if (!res)
		return;
	free(res->sg);
	free(res->queues);
	free(res->events);
	free(res);
}

NSIM_EXPORT int neuronsim_exec_wait(int fd, __u32 model_id, __s64 timeout_ns,
				    struct neuronsim_exec_result **res)
{
	struct neuronsim_exec_wait w = { .model_id = model_id };
	struct neuronsim_exec_result *r;
	int err;

	if (!res)
		return -EINVAL;
	*res = NULL;
	/* the library's 0 is "for ever", the kernel's "check once" */
	w.timeout_ns = !timeout_ns ? -1 : timeout_ns < 0 ? 0 : timeout_ns;
	/* the counts first, then the arrays of the same (ended) execution */
	err = nrsim_ioctl(fd, NEURONSIM_IOC_EXEC_WAIT, &w);
	if (err)
		return err;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->num_sg = w.state == NEURONSIM_EXEC_IDLE ? 0 : w.num_sg;
	r->num_queues = w.num_queues;
	r->num_events = w.num_events;
	r->sg = calloc(r->num_sg + 1, sizeof(*r->sg));
	r->queues = calloc(r->num_queues + 1, sizeof(*r->queues));
	r->events = r->num_events ? calloc(r->num_events, sizeof(*r->events)) : NULL;
	if (!r->sg || !r->queues || (r->num_events && !r->events)) {
		neuronsim_exec_result_free(r);
		return -ENOMEM;
	}
	w.timeout_ns = 0;
	w.subgraphs = (uintptr_t)r->sg;
	w.num_subgraphs = r->num_sg;
	w.queues = (uintptr_t)r->queues;
	w.num_queues = r->num_queues;
	w.events = (uintptr_t)r->events;
	w.num_events = r->num_events;
	err = nrsim_ioctl(fd, NEURONSIM_IOC_EXEC_WAIT, &w);
	if (err) {
		neuronsim_exec_result_free(r);
		return err;
	}
	r->summary = w;
	*res = r;
	return 0;
}

NSIM_EXPORT int neuronsim_exec(int fd, __u32 model_id,
			       const struct neuronsim_exec_opts *opts,
			       struct neuronsim_exec_result **res)
{
	int err;

	if (!res)
		return -EINVAL;
	*res = NULL;
	err = neuronsim_exec_start(fd, model_id, opts);
	if (err)
		return err;
	err = neuronsim_exec_wait(fd, model_id, OPTS_GET(opts, wait_ns, 0), res);
	if (err)
		return err;
	return (*res)->summary.status;
}

/*
 * One counter of a NeuronCore's DMA engine from the device's sysfs tree
 * (Documentation/sysfs.rst, "Other counters"): 0 or -errno, -EINVAL for
 * a file that is not one decimal number.
 */
static int engine_counter(unsigned int dev_index, __u32 core, const char *name,
			  __u64 *v)
{
	char root[64], path[160], buf[32], *end;
	ssize_t n;
	int fd, err;

	err = neuronsim_sysfs_path(dev_index, root, sizeof(root));
	if (err)
		return err;
	snprintf(path, sizeof(path),
		 "%s/neuron_core%u/stats/other_info/dma_%s/total", root, core,
		 name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	errno = 0;
	*v = strtoull(buf, &end, 10);
	if (end == buf || (*end && *end != '\n') || errno)
		return -EINVAL;
	return 0;
}

NSIM_EXPORT int neuronsim_engine_stats(unsigned int dev_index, __u32 core,
				       struct neuronsim_engine_stats *st)
{
	struct neuronsim_engine_stats out;
	const struct {
		const char *name;
		__u64 *v;
	} f[] = {
		{ "bytes", &out.bytes }, { "udma_descriptors", &out.udma_descs },
		{ "descriptors", &out.descs }, { "runs", &out.runs },
		{ "errors", &out.errors }, { "busy_ns", &out.busy_ns },
	};
	size_t i;
	int err;

	if (!st)
		return -EINVAL;
	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		err = engine_counter(dev_index, core, f[i].name, f[i].v);
		if (err)
			return err;
	}
	*st = out;
	return 0;
}

NSIM_EXPORT int neuronsim_resolve(int fd, __u32 model_id, __u32 subgraph,
				  __u32 var_id, __u64 offset, __u64 size,
				  __u64 *address)
{
	struct neuronsim_resolve r = {
		.model_id = model_id,
		.subgraph = subgraph,
		.var_id = var_id,
		.offset = offset,
		.size = size,
	};
	int err;

	if (!address)
		return -EINVAL;
	err = nrsim_ioctl(fd, NEURONSIM_IOC_RESOLVE, &r);
	if (!err)
		*address = r.address;
	return err;
}

NSIM_EXPORT int neuronsim_resolve_batch(int fd, __u32 model_id,
					struct neuronsim_resolve_entry *entries,
					__u32 count, __u32 *num_ok)
{
	struct neuronsim_resolve_batch b = {
		.model_id = model_id,
		.count = count,
		.entries = (uintptr_t)entries,
	};
	int err;

	if (!entries || !count || count > NEURONSIM_RESOLVE_BATCH_MAX)
		return -EINVAL;
	err = nrsim_ioctl(fd, NEURONSIM_IOC_RESOLVE_BATCH, &b);
	if (!err && num_ok)
		*num_ok = b.num_ok;
	return err;
}

static int nsim_var_io(int fd, unsigned long cmd, __u32 model_id,
		       __u32 subgraph, __u32 var_id, __u64 offset,
		       const void *buf, __u64 len)
{
	struct neuronsim_var_io io = {
		.model_id = model_id,
		.subgraph = subgraph,
		.var_id = var_id,
		.offset = offset,
		.len = len,
		.buf = (uintptr_t)buf,
	};

	if (!buf && len)
		return -EINVAL;
	return nrsim_ioctl(fd, cmd, &io);
}

NSIM_EXPORT int neuronsim_read_var(int fd, __u32 model_id, __u32 subgraph,
				   __u32 var_id, __u64 offset, void *buf,
				   __u64 len)
{
	return nsim_var_io(fd, NEURONSIM_IOC_READ_VAR, model_id, subgraph,
			   var_id, offset, buf, len);
}

NSIM_EXPORT int neuronsim_write_var(int fd, __u32 model_id, __u32 subgraph,
				    __u32 var_id, __u64 offset,
				    const void *buf, __u64 len)
{
	return nsim_var_io(fd, NEURONSIM_IOC_WRITE_VAR, model_id, subgraph,
			   var_id, offset, buf, len);
}

NSIM_EXPORT int neuronsim_tensor_alloc(int fd, __u32 core, __u64 size,
				       const char *name, __u32 *tensor_id,
				       __u64 *physical_address)
{
	struct neuronsim_tensor_alloc a = { .core = core, .size = size };
	int err;

	if (!tensor_id)
		return -EINVAL;
	if (name)
		snprintf(a.name, sizeof(a.name), "%s", name);
	err = nrsim_ioctl(fd, NEURONSIM_IOC_TENSOR_ALLOC, &a);
	if (err)
		return err;
	*tensor_id = a.tensor_id;
	if (physical_address)
		*physical_address = a.physical_address;
	return 0;
}

NSIM_EXPORT int neuronsim_tensor_free(int fd, __u32 tensor_id)
{
	struct neuronsim_tensor_free f = { .tensor_id = tensor_id };

	return nrsim_ioctl(fd, NEURONSIM_IOC_TENSOR_FREE, &f);
}

static int nsim_tensor_io(int fd, __u32 tensor_id, __u32 op, __u64 offset,
			  const void *buf, __u32 value, __u64 len)
{
	struct neuronsim_tensor_io io = {
		.tensor_id = tensor_id,
		.op = op,
		.offset = offset,
		.len = len,
		.buf = (uintptr_t)buf,
		.value = value,
	};

	return nrsim_ioctl(fd, NEURONSIM_IOC_TENSOR_IO, &io);
}

NSIM_EXPORT int neuronsim_tensor_read(int fd, __u32 tensor_id, __u64 offset,
				      void *buf, __u64 len)
{
	if (!buf && len)
		return -EINVAL;
	return nsim_tensor_io(fd, tensor_id, NEURONSIM_TENSOR_READ, offset, buf,
			      0, len);
}

NSIM_EXPORT int neuronsim_tensor_write(int fd, __u32 tensor_id, __u64 offset,
				       const void *buf, __u64 len)
{
	if (!buf && len)
		return -EINVAL;
	return nsim_tensor_io(fd, tensor_id, NEURONSIM_TENSOR_WRITE, offset,
			      buf, 0, len);
}

NSIM_EXPORT int neuronsim_tensor_memset(int fd, __u32 tensor_id, __u64 offset,
					int value, __u64 len)
{
	return nsim_tensor_io(fd, tensor_id, NEURONSIM_TENSOR_MEMSET, offset,
			      NULL, (unsigned char)value, len);
}

NSIM_EXPORT int neuronsim_tensor_copy(int fd,
				      const struct neuronsim_tensor_copy *copies,
				      __u32 count)
{
	struct neuronsim_tensor_copy_batch b = {
		.copies = (uintptr_t)copies,
		.count = count,
	};

	if (!copies || !count || count > NEURONSIM_TENSOR_COPY_MAX)
		return -EINVAL;
	return nrsim_ioctl(fd, NEURONSIM_IOC_TENSOR_COPY, &b);
}
