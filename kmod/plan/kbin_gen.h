/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_gen.h - the one table of device generations: per generation its
 * number, names, compiler arch level and geometry; and the lists of
 * generations messages give, built from it (kbin_gen_list()).
 *
 * Every layer reads it: the module (the simulated device, the plan
 * checker, SBUF sizes in staging, the resolve rule's SBUF gap, ioctls and
 * debugfs), the DMA rules of kbin_dma.h (window, partitions), the compiler
 * (NEFF kelf targets, MR_SB sizes, def.json carve-outs), the BIR passes
 * (arch names and levels, SBUF partitions) and the library and commands
 * where they print geometry.  The numbers and where they come from are
 * in Documentation/hardware.rst, which also says how to add a generation.
 */
#ifndef _NEURONSIM_KBIN_GEN_H
#define _NEURONSIM_KBIN_GEN_H

#include <linux/types.h>

/* names per generation besides the canonical one, NULL-terminated */
#define KBIN_GEN_ALIASES	4

/**
 * struct kbin_gen - one device generation.
 * @name: canonical name ("trn2"): the module's arch= parameter,
 *	neuronsim_info.arch_name.
 * @device_name: the product name of the device ("Trainium2"), the Neuron
 *	driver's sysfs info/architecture/device_name.
 * @arch_instance: the instance family as the Neuron driver's sysfs
 *	info/architecture/instance_type shows it ("Trn2").
 * @instance_type: the EC2 instance type whose devices the generation's
 *	are ("trn2.48xlarge"): neuron-monitor's instance_info.instance_type
 *	and the Prometheus instance labels of the simulated host
 *	(Documentation/userspace.rst, "Simulated values").
 * @aliases: the other names NEFF kelf "target" strings and BIR "arch"
 *	values use ("cayman", "v3"); the list ends at the first NULL.
 * @hbm_channel_size: bytes per HBM channel.
 * @sbuf_window_size: bytes of a NeuronCore's SBUF window in the device
 *	address map (0 when the generation is not simulated).
 * @psum_size: PSUM bytes per NeuronCore: @psum_banks banks of
 *	KBIN_PSUM_BANK_SIZE bytes per partition
 *	(kbin_gen_psum_partitions() partitions).
 * @gen: generation number; kbin_header.target_gen and
 *	neuronsim_info.arch_gen.
 * @arch_level: the compiler's arch level, 10 * @gen.
 * @num_cores: NeuronCores per device.
 * @num_hbm_channels: HBM channels per device.
 * @sbuf_partitions: SBUF partitions per NeuronCore.
 * @sbuf_partition_size: SBUF bytes per partition; SBUF bytes per
 *	NeuronCore are @sbuf_partitions * @sbuf_partition_size.
 * @sbuf_partition_stride: bytes from one partition to the next in the
 *	SBUF window as DMA access patterns address it
 *	(@sbuf_window_size / @sbuf_partitions).
 * @loadable: 1 when the module simulates the generation and a KBIN plan
 *	may target it; 0 for a generation known by name only.
 * @carveout_required: 1 when the runtime requires an evtaccel SBUF
 *	carve-out in every subgraph (def.json
 *	runtime_statebuffer_reservation).
 * @psum_banks: PSUM banks per NeuronCore.
 * @semaphores: semaphores per NeuronCore, the size of its semaphore
 *	file: an instruction or DMA block of a plan's program names
 *	indices 0 .. @semaphores - 1 (the simulator's count,
 *	Documentation/execute.rst); 0 for a generation not simulated.
 * @dma_bytes_per_us: the cost model's DMA rate of a NeuronCore, bytes
 *	per microsecond of virtual time (Documentation/execute.rst); 0 for
 *	a generation not simulated.
 */
struct kbin_gen {
	const char *name;
	const char *device_name;
	const char *arch_instance;
	const char *instance_type;
	const char *aliases[KBIN_GEN_ALIASES];
	__u64 hbm_channel_size;
	__u64 sbuf_window_size;
	__u64 psum_size;
	__u32 gen;
	__u32 arch_level;
	__u32 num_cores;
	__u32 num_hbm_channels;
	__u32 sbuf_partitions;
	__u32 sbuf_partition_size;
	__u32 sbuf_partition_stride;
	__u32 semaphores;
	__u32 dma_bytes_per_us;
	__u8 loadable;
	__u8 carveout_required;
	__u8 psum_banks;
};

/* bytes of one PSUM bank in each partition, on every generation */
#define KBIN_PSUM_BANK_SIZE	2048U

/* the table, in generation order; kbin_num_gens rows */
extern const struct kbin_gen kbin_gens[];
extern const unsigned int kbin_num_gens;

const struct kbin_gen *kbin_gen_by_number(unsigned int gen);
const struct kbin_gen *kbin_gen_by_name(const char *name);
const struct kbin_gen *kbin_gen_target(unsigned int gen);
const struct kbin_gen *kbin_gen_target_by_name(const char *name);

/**
 * enum kbin_gen_list_style - what kbin_gen_list() lists of each
 *	generation a KBIN plan may target, for a message.
 * @KBIN_GEN_LIST_NAMES: the canonical names, the last after "or": "trn1,
 *	trn2 or trn3" (the arch= parameter, new_device).
 * @KBIN_GEN_LIST_ALIASES: the aliases of each, joined by "/": "sunda/inf2/v2,
 *	cayman/v3, mariana/v4" (NEFF kelf targets).
 * @KBIN_GEN_LIST_NUMBERS: the generation numbers: "2, 3, 4".
 */
enum kbin_gen_list_style {
	KBIN_GEN_LIST_NAMES,
	KBIN_GEN_LIST_ALIASES,
	KBIN_GEN_LIST_NUMBERS,
};

/* bytes a kbin_gen_list() text takes at most, with the NUL */
#define KBIN_GEN_LIST_MAX	128

char *kbin_gen_list(char *buf, unsigned long len, unsigned int style);

/**
 * kbin_gen_sbuf_bytes() - SBUF bytes per NeuronCore of a generation.
 * @g: the generation.
 *
 * Return: @g->sbuf_partitions * @g->sbuf_partition_size.
 */
static inline __u64 kbin_gen_sbuf_bytes(const struct kbin_gen *g)
{
	return (__u64)g->sbuf_partitions * g->sbuf_partition_size;
}

/**
 * kbin_gen_psum_partitions() - PSUM partitions per NeuronCore.
 * @g: the generation.
 *
 * Return: @g->psum_size / (@g->psum_banks * KBIN_PSUM_BANK_SIZE).
 */
static inline __u32 kbin_gen_psum_partitions(const struct kbin_gen *g)
{
	return (__u32)(g->psum_size / ((__u64)g->psum_banks * KBIN_PSUM_BANK_SIZE));
}

/**
 * kbin_gen_psum_partition_size() - PSUM bytes per partition, which is
 *	also the partition stride of the PSUM window (the banks of a
 *	partition side by side: no gap, unlike SBUF).
 * @g: the generation.
 *
 * Return: @g->psum_banks * KBIN_PSUM_BANK_SIZE.
 */
static inline __u32 kbin_gen_psum_partition_size(const struct kbin_gen *g)
{
	return (__u32)g->psum_banks * KBIN_PSUM_BANK_SIZE;
}

/**
 * kbin_gen_core_channel() - the HBM channel a NeuronCore allocates from:
 *	cores are spread evenly over the channels (trn2: cores 0-1 use
 *	channel 0, 2-3 channel 1, ...; Documentation/uapi.rst).
 * @g: the generation.
 * @core: NeuronCore, < @g->num_cores.
 *
 * Return: @core * @g->num_hbm_channels / @g->num_cores.
 */
static inline __u32 kbin_gen_core_channel(const struct kbin_gen *g, __u32 core)
{
	return core * g->num_hbm_channels / g->num_cores;
}

#endif /* _NEURONSIM_KBIN_GEN_H */
