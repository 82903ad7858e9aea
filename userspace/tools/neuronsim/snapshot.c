// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - what "ls", "top" and the reports of "monitor" show: every
 * device (netlink GET_DEVICE dump: generation, NeuronCores and who holds
 * each, HBM), every model (GET_MODEL dump) and per NeuronCore its device
 * memory by category, read from the module's copy of the Neuron driver's
 * sysfs tree (neuronsim_sysfs_path(), Documentation/sysfs.rst)
 * as any tool of the driver reads it.  The category names are the plan
 * library's (kbin_mem_category_str()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "main.h"

/* one number of a device's sysfs tree (neuronsim_sysfs_path()), or -errno */
static int sysfs_u64(__u64 *v, const char *fmt, ...)
{
	char path[512], buf[32];
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n < 0 ? -errno : -EIO;
	buf[n] = '\0';
	*v = strtoull(buf, NULL, 10);
	return 0;
}

static int snap_dev_cb(const struct neuronsim_nl_device *d, void *ctx)
{
	struct snap *s = ctx;
	struct snap_dev *nd;

	if (s->ndev == NEURONSIM_MAX_DEVICES)
		return 1;
	nd = &s->dev[s->ndev++];
	memset(nd, 0, sizeof(*nd));
	nd->d = *d;
	return 0;
}

static int snap_model_cb(const struct neuronsim_nl_model *m, void *ctx)
{
	struct snap *s = ctx;

	if (s->nmodels == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		struct neuronsim_nl_model *nm = realloc(s->models, cap * sizeof(*nm));

		if (!nm)
			return 1;
		s->models = nm;
		s->cap = cap;
	}
	s->models[s->nmodels++] = *m;
	return 0;
}

/*
 * One counter of the device's stats/hardware/ (@root: its sysfs tree): a
 * file of one number, or a directory of the driver's {total,present}
 * pair (its total); 0 when the module has neither.
 */
static __u64 snap_hw(const char *root, const char *name)
{
	__u64 v = 0;

	if (sysfs_u64(&v, "%s/stats/hardware/%s", root, name) &&
	    sysfs_u64(&v, "%s/stats/hardware/%s/total", root, name))
		v = 0;
	return v;
}

/* the sysfs counters of one device */
static void snap_sysfs(struct snap_dev *d)
{
	char root[64];
	unsigned int c, k;

	if (neuronsim_dev_path(d->d.device, d->dev_path, sizeof(d->dev_path)))
		d->dev_path[0] = '\0';
	d->sysfs = !neuronsim_sysfs_path(d->d.device, root, sizeof(root)) &&
		   !sysfs_u64(&d->host_driver_memory,
			      "%s/stats/memory_usage/host_mem/driver_memory/present",
			      root);
	if (d->sysfs) {
		d->mem_ecc_uncorrected = snap_hw(root, "mem_ecc_uncorrected");
		d->sram_ecc_uncorrected = snap_hw(root, "sram_ecc_uncorrected");
	}
	for (c = 0; d->sysfs && c < d->d.num_cores && c < NEURONSIM_MAX_CORES; c++) {
		struct snap_core *sc = &d->core[c];
		const char *core = "stats/memory_usage/device_mem";

		if (sysfs_u64(&sc->used, "%s/neuron_core%u/%s/present", root,
			      c, core))
			d->sysfs = false;
		for (k = 0; k < KBIN_MEMCAT_MAX; k++)
			if (sysfs_u64(&sc->mem[k], "%s/neuron_core%u/%s/%s/present",
				      root, c, core, kbin_mem_category_str(k)))
				d->sysfs = false;
		sysfs_u64(&sc->model_loads,
			  "%s/neuron_core%u/stats/other_info/model_load_count/total",
			  root, c);
		sysfs_u64(&sc->flops,
			  "%s/neuron_core%u/stats/other_info/flop_count/total",
			  root, c);
		if (neuronsim_engine_stats(d->d.device, c, &sc->dma))
			memset(&sc->dma, 0, sizeof(sc->dma));
	}
}

int snap_read(struct snap *s, char *err, size_t len)
{
	struct neuronsim_nl *nl;
	struct timespec now;
	__u32 global = 0;
	size_t i;
	int ret;

	memset(s, 0, sizeof(*s));
	s->dev = calloc(NEURONSIM_MAX_DEVICES, sizeof(*s->dev));
	if (!s->dev) {
		snprintf(err, len, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = neuronsim_nl_open(&nl);
	if (ret) {
		snprintf(err, len, "generic netlink family '%s': %s%s",
			 NEURONSIM_GENL_NAME, strerror(-ret),
			 ret == -ENOENT ? " (is neuronsim.ko loaded?)" : "");
		snap_free(s);
		return ret;
	}
	ret = neuronsim_nl_list_devices(nl, snap_dev_cb, s);
	if (!ret)
		ret = neuronsim_nl_list_models(nl, snap_model_cb, s);
	neuronsim_nl_close(nl);
	if (ret) {
		snprintf(err, len, "netlink '%s': %s", NEURONSIM_GENL_NAME,
			 strerror(-ret));
		snap_free(s);
		return ret;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	s->taken_ns = (__u64)now.tv_sec * 1000000000ull + (__u64)now.tv_nsec;
	for (i = 0; i < s->ndev; i++) {
		s->dev[i].global_core0 = global;
		global += s->dev[i].d.num_cores;
		snap_sysfs(&s->dev[i]);
	}
	return 0;
}

int snap_take(struct snap *s)
{
	char err[256];
	int ret = snap_read(s, err, sizeof(err));

	if (ret)
		errmsg_errno(ret, "%s", err);
	return ret ? -1 : 0;
}

bool snap_wanted(const struct snap_dev *d)
{
	return dev_index < 0 || d->d.device == (__u32)dev_index;
}

const char *proc_cmdline(__u32 pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n, i;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%u/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return buf;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0) {
		buf[0] = '\0';
		return buf;
	}
	while (n > 0 && buf[n - 1] == '\0')
		n--;
	for (i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[n] = '\0';
	return buf;
}

void human_bytes(char *out, size_t cap, __u64 n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;
	double v = (double)n;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (!u || v == (double)(__u64)v)
		snprintf(out, cap, "%" PRIu64 " %s", (uint64_t)v, unit[u]);
	else
		snprintf(out, cap, "%.1f %s", v, unit[u]);
}
