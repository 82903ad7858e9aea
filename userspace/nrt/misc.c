// SPDX-License-Identifier: GPL-2.0
/*
 * misc.c - the smaller calls of neuronsim's libnrt-compatible runtime:
 * device ids, a NeuronCore's memory figures (the driver's sysfs), and the
 * calls it answers "not supported" (Documentation/nrt.rst, "What is
 * implemented").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <libneuronsim.h>

#include "internal.h"

NRT_STATUS nrt_host_device_id_get(int neuron_dev, uint32_t *host_device_id)
{
	if (neuron_dev < 0 || !host_device_id)
		return NRT_INVALID;
	*host_device_id = (uint32_t)neuron_dev;
	return NRT_SUCCESS;
}

NRT_STATUS nrt_get_vnc_memory_stats(uint32_t vnc, nrt_vnc_memory_stats_t *stats,
				    size_t stats_size_in, size_t *stats_size_out)
{
	nrt_vnc_memory_stats_t m = { 0 };
	unsigned long long used;
	char root[64], path[160];
	NRT_STATUS s;
	FILE *f;
	size_t n;
	int ok;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nsrt_up();
	if (!s && (!stats || !stats_size_out || vnc >= nsrt_rt.num_visible)) {
		NRT_ERR("vnc %u (visible 0..%u), stats %p, stats_size_out %p", vnc,
			nsrt_rt.num_visible - 1, (void *)stats, (void *)stats_size_out);
		s = NRT_INVALID;
	}
	if (s)
		goto out;
	if (neuronsim_sysfs_path(nsrt_rt.device, root, sizeof(root)))
		snprintf(root, sizeof(root), "(device %u)", nsrt_rt.device);
	snprintf(path, sizeof(path),
		 "%s/neuron_core%u/stats/memory_usage/device_mem/present", root,
		 nsrt_rt.first_visible + vnc);
	f = fopen(path, "re");
	ok = f && fscanf(f, "%llu", &used) == 1;
	if (f)
		fclose(f);
	if (!ok) {
		NRT_ERR("%s: %s", path, f ? "not a number" : strerror(errno));
		s = NRT_FAILURE;
		goto out;
	}
	m.bytes_used = used;
	m.bytes_limit = nsrt_rt.hbm_bytes;
	n = stats_size_in < sizeof(m) ? stats_size_in : sizeof(m);
	memcpy(stats, &m, n);
	*stats_size_out = n;
out:
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_async_drain_queued_execs(int32_t vnc)
{
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nsrt_up();
	if (!s && (vnc < 0 || (uint32_t)vnc >= nsrt_rt.num_visible))
		s = NRT_INVALID;
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_get_dmabuf_fd(uint64_t va, uint64_t size, int *fd)
{
	(void)va; (void)size; (void)fd;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_host_device_id_rid_map_get(uint32_t *count, uint32_t *host_did_to_rid_map)
{
	(void)count; (void)host_did_to_rid_map;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_get_hbm_mmap_va(int device_id, int hbm_idx, void **addr, size_t *size)
{
	(void)device_id; (void)hbm_idx; (void)addr; (void)size;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_get_attached_efa_bdf(const void *va, char *efa_bdf, size_t *len)
{
	(void)va; (void)efa_bdf; (void)len;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_trace_start(bool trace_mem)
{
	(void)trace_mem;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_trace_stop(const char *filename)
{
	(void)filename;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_set_pool_eng_ucode(const nrt_ucode_info *ucode_info)
{
	(void)ucode_info;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_memcpy_to_device(void *dest, const void *src, size_t size)
{
	(void)dest; (void)src; (void)size;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_register_async_exec_callback(NRT_ASYNC_EXEC_STATUS_CALLBACK callback, void *params)
{
	(void)callback; (void)params;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_barrier(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count)
{
	(void)vnc; (void)g_device_id; (void)g_device_count;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_all_gather(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count,
			  uint32_t rank_input_size, void *input, void *output)
{
	(void)vnc; (void)g_device_id; (void)g_device_count;
	(void)rank_input_size; (void)input; (void)output;
	return nsrt_unsupported(__func__);
}
