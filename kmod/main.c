// SPDX-License-Identifier: GPL-2.0
/*
 * neuronsim - a simulated AWS-Neuron-style device.
 *
 * main.c: module parameters, init and exit.  The devices (bus.c,
 * device.c), their memory, loading and resolving live in the other files
 * of kmod/.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "nrsim.h"
#include "netlink.h"

char *nrsim_param_arch = "trn2";
module_param_named(arch, nrsim_param_arch, charp, 0444);
MODULE_PARM_DESC(arch, "generation of device 0: trn1, trn2 (default) or trn3");

unsigned long nrsim_max_plan_bytes = 1UL << 30;
module_param_named(max_plan_bytes, nrsim_max_plan_bytes, ulong, 0644);
MODULE_PARM_DESC(max_plan_bytes, "largest KBIN plan LOAD accepts, bytes (default 1 GiB)");

unsigned long nrsim_max_loading_bytes;
module_param_named(max_loading_bytes, nrsim_max_loading_bytes, ulong, 0644);
MODULE_PARM_DESC(max_loading_bytes, "plan bytes all LOADs in progress may hold at once; more wait (default 0 at insmod: a quarter of RAM)");

unsigned int nrsim_max_models_per_fd = 64;
module_param_named(max_models_per_fd, nrsim_max_models_per_fd, uint, 0644);
MODULE_PARM_DESC(max_models_per_fd, "models one open file may hold (default 64)");

unsigned int nrsim_max_runs_per_fd = 64;
module_param_named(max_runs_per_fd, nrsim_max_runs_per_fd, uint, 0644);
MODULE_PARM_DESC(max_runs_per_fd,
		 "DMA queue runs (RUN calls) one open file may have queued or running (default 64)");

unsigned int nrsim_max_tensors_per_fd = 4096;
module_param_named(max_tensors_per_fd, nrsim_max_tensors_per_fd, uint, 0644);
MODULE_PARM_DESC(max_tensors_per_fd, "device tensors (TENSOR_ALLOC) one open file may hold (default 4096)");

unsigned int nrsim_max_vars_per_subgraph = KBIN_MAX_VARS_PER_SG_DEFAULT;
module_param_named(max_vars_per_subgraph, nrsim_max_vars_per_subgraph, uint, 0644);
MODULE_PARM_DESC(max_vars_per_subgraph, "mem_ref records per subgraph (default 4194304)");

unsigned long nrsim_backing_limit = 1UL << 30;
module_param_named(backing_limit, nrsim_backing_limit, ulong, 0644);
MODULE_PARM_DESC(backing_limit, "RAM the sparse simulated memory of each device may use, bytes (default 1 GiB)");

unsigned long nrsim_backing_limit_total;
module_param_named(backing_limit_total, nrsim_backing_limit_total, ulong, 0644);
MODULE_PARM_DESC(backing_limit_total, "RAM the sparse simulated memory of all devices together may use, bytes (default 0 at insmod: half of RAM)");

unsigned long nrsim_scratchpad_page_size = KBIN_SCRATCHPAD_PAGE_SIZE_DEFAULT;
module_param_named(scratchpad_page_size, nrsim_scratchpad_page_size, ulong, 0444);
MODULE_PARM_DESC(scratchpad_page_size, "scratchpad page, bytes (default 512 MiB, as libnrt)");

unsigned int nrsim_scratchpad_max_pages = KBIN_SCRATCHPAD_MAX_PAGES_DEFAULT;
module_param_named(scratchpad_max_pages, nrsim_scratchpad_max_pages, uint, 0644);
MODULE_PARM_DESC(scratchpad_max_pages, "scratchpad pages per model (default 1024, as libnrt)");

unsigned int nrsim_max_udma_descs = KBIN_MAX_UDMA_DESCS_DEFAULT;
module_param_named(max_udma_descs, nrsim_max_udma_descs, uint, 0644);
MODULE_PARM_DESC(max_udma_descs, "UDMA descriptors (M2S and S2M) one LOAD may write into its rings (default 8388608; the largest real NEFF needs 4516104)");

unsigned long nrsim_max_run_bytes = KBIN_MAX_RUN_BYTES_DEFAULT;
module_param_named(max_run_bytes, nrsim_max_run_bytes, ulong, 0644);
MODULE_PARM_DESC(max_run_bytes, "bytes one run of a DMA queue may read, and may write; LOAD refuses a queue above it (default 4 GiB; the largest real NEFF queue moves 1030231040)");

unsigned int nrsim_dma_ring_max_descs = UDMA_RING_LOADER_MAX_DESCS;
module_param_named(dma_ring_max_descs, nrsim_dma_ring_max_descs, uint, 0644);
MODULE_PARM_DESC(dma_ring_max_descs, "descriptors of one UDMA ring; a queue side needing more gets several rings (default and maximum 16777088, minimum 128, a multiple of 128)");

bool nrsim_param_compat;
module_param_named(neuron_compat, nrsim_param_compat, bool, 0444);
MODULE_PARM_DESC(neuron_compat, "the Neuron driver's names: class neuron_device, devices and nodes neuronN (default off; refused while the driver is loaded)");

char *nrsim_param_compat_refuse;
module_param_named(compat_check_path, nrsim_param_compat_refuse, charp, 0444);
MODULE_PARM_DESC(compat_check_path, "for tests: a path whose existence refuses neuron_compat as the Neuron driver's do (default none)");

static int __init nrsim_init(void)
{
	const struct kbin_gen *arch;
	int ret;

	arch = nrsim_arch_find(nrsim_param_arch);
	if (!arch) {
		char names[KBIN_GEN_LIST_MAX];

		pr_err("unknown arch '%s' (use %s)\n", nrsim_param_arch,
		       kbin_gen_list(names, sizeof(names), KBIN_GEN_LIST_NAMES));
		return -EINVAL;
	}

	if (!nrsim_scratchpad_page_size ||
	    nrsim_scratchpad_page_size % NRSIM_HBM_GRANULE) {
		pr_err("scratchpad_page_size %lu is not a non-zero multiple of 4096\n",
		       nrsim_scratchpad_page_size);
		return -EINVAL;
	}

	if (!nrsim_max_loading_bytes)
		nrsim_max_loading_bytes = (totalram_pages() << PAGE_SHIFT) / 4;
	if (!nrsim_backing_limit_total)
		nrsim_backing_limit_total = (totalram_pages() << PAGE_SHIFT) / 2;

	nrsim_debugfs_root_init();
	ret = nrsim_netlink_init();
	if (ret)
		goto err_debugfs;
	ret = nrsim_sysfs_init();
	if (ret)
		goto err_netlink;
	ret = nrsim_bus_init(arch);
	if (ret)
		goto err_sysfs;
	ret = nrsim_alias_register();
	if (ret)
		goto err_bus;
	return 0;

err_bus:
	nrsim_bus_exit();
err_sysfs:
	nrsim_sysfs_exit();
err_netlink:
	nrsim_netlink_exit();
err_debugfs:
	nrsim_debugfs_root_exit();
	return ret;
}

static void __exit nrsim_exit(void)
{
	nrsim_alias_unregister();
	nrsim_bus_exit();
	nrsim_sysfs_exit();
	nrsim_netlink_exit();
	nrsim_debugfs_root_exit();
}

module_init(nrsim_init);
module_exit(nrsim_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("neuronsim: simulated Neuron devices with a KBIN static memory plan loader");
