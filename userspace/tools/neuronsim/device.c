// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - the device: "info" (geometry, limits, who holds each
 * NeuronCore: GET_INFO and netlink GET_DEVICE).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "main.h"

/* who holds each NeuronCore (netlink GET_DEVICE); false without netlink */
static bool core_owners(struct neuronsim_nl_device *d)
{
	struct neuronsim_nl *nl;
	int err;

	err = neuronsim_nl_open(&nl);
	if (!err)
		err = neuronsim_nl_set_device(nl, dev_or_0());
	if (!err)
		err = neuronsim_nl_get_device(nl, d);
	neuronsim_nl_close(nl);
	return !err;
}

static int cmd_info(int argc, char **argv)
{
	struct neuronsim_nl_device d;
	struct neuronsim_info info;
	unsigned int i;
	bool owners;

	if (argc > 1)
		return usage_error("unexpected argument '%s' (try --help)", argv[1]);
	if (device_info(&info))
		return 1;
	owners = core_owners(&d);
	if (tool_json) {
		json_t *hbm = json_array(), *sbuf = json_array(), *cores = json_array();

		for (i = 0; i < info.num_hbm_channels && i < NEURONSIM_MAX_HBM_CHANNELS; i++)
			json_array_append_new(hbm, json_integer(info.hbm_base[i]));
		for (i = 0; i < info.num_cores; i++)
			json_array_append_new(sbuf, json_integer(info.sbuf_base +
								 i * info.sbuf_window_size));
		for (i = 0; owners && i < info.num_cores && i < NEURONSIM_MAX_CORES; i++)
			json_array_append_new(cores, json_pack("{s:I,s:I,s:I}", "core",
				(json_int_t)i, "owner_pid", (json_int_t)d.cores[i].owner_pid,
				"models", (json_int_t)d.cores[i].num_models));
		tool_json_print(json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:o,s:o,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:o}",
				     "arch_name", info.arch_name,
				     "arch_gen", (json_int_t)info.arch_gen,
				     "abi_version", (json_int_t)info.abi_version,
				     "features", (json_int_t)info.features,
				     "num_cores", (json_int_t)info.num_cores,
				     "num_hbm_channels", (json_int_t)info.num_hbm_channels,
				     "hbm_channel_size", (json_int_t)info.hbm_channel_size,
				     "hbm_base", hbm, "sbuf_base", sbuf,
				     "sbuf_window_size", (json_int_t)info.sbuf_window_size,
				     "sbuf_partitions", (json_int_t)info.sbuf_partitions,
				     "sbuf_partition_size", (json_int_t)info.sbuf_partition_size,
				     "psum_size", (json_int_t)info.psum_size,
				     "scratchpad_page_size", (json_int_t)info.scratchpad_page_size,
				     "scratchpad_max_pages", (json_int_t)info.scratchpad_max_pages,
				     "max_models_per_fd", (json_int_t)info.max_models_per_fd,
				     "max_plan_bytes", (json_int_t)info.max_plan_bytes,
				     "backing_limit", (json_int_t)info.backing_limit,
				     "device", (json_int_t)dev_or_0(),
				     "cores", cores));
		return 0;
	}
	printf("device      %s%u: %s (generation %u), ABI %u, features 0x%llx\n",
	       NEURONSIM_DEVICE_NAME, dev_or_0(),
	       info.arch_name, info.arch_gen, info.abi_version,
	       (unsigned long long)info.features);
	printf("NeuronCores %u, SBUF %u x %u bytes each, PSUM %llu bytes each\n",
	       info.num_cores, info.sbuf_partitions, info.sbuf_partition_size,
	       (unsigned long long)info.psum_size);
	for (i = 0; i < info.num_cores; i++) {
		printf("  sbuf%-3u   0x%011llx  window %llu MiB", i,
		       (unsigned long long)(info.sbuf_base + i * info.sbuf_window_size),
		       (unsigned long long)info.sbuf_window_size >> 20);
		if (owners && i < NEURONSIM_MAX_CORES && d.cores[i].num_models)
			printf("  NeuronCore %u: pid %u, %u models", i,
			       d.cores[i].owner_pid, d.cores[i].num_models);
		else if (owners)
			printf("  NeuronCore %u: free", i);
		putchar('\n');
	}
	for (i = 0; i < info.num_hbm_channels && i < NEURONSIM_MAX_HBM_CHANNELS; i++)
		printf("  hbm%-4u   0x%011llx  %llu MiB\n", i,
		       (unsigned long long)info.hbm_base[i],
		       (unsigned long long)info.hbm_channel_size >> 20);
	printf("scratchpad  %llu-byte pages, at most %u per model\n",
	       (unsigned long long)info.scratchpad_page_size,
	       info.scratchpad_max_pages);
	return 0;
}

const struct nsim_cmd nsim_cmd_info = {
	.name = "info",
	.summary = "device geometry and limits, who holds each NeuronCore",
	.usage = "info",
	.help = "  the device's generation, NeuronCores (and which process holds\n"
		"  each), SBUF, PSUM, HBM channels, scratchpad geometry and limits\n"
		"  (NEURONSIM_IOC_GET_INFO, netlink GET_DEVICE)\n",
	.run = cmd_info,
};
