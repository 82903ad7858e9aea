// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * kbin_gen.c - the one table of device generations (kbin_gen.h) and its
 * lookups.  Documentation/hardware.rst gives the source of every number
 * and what the simulator assumes where nothing is public.
 */

#include <linux/neuronsim_kbin.h>

#include "kbin_compat.h"
#include "kbin_gen.h"

#define KBIN_KIB	1024ULL
#define KBIN_MIB	(1024 * KBIN_KIB)
#define KBIN_GIB	(1024 * KBIN_MIB)

/* SBUF partitions per NeuronCore, on every generation */
#define KBIN_PARTS	128U
/* the SBUF window of a NeuronCore in the device address map */
#define KBIN_WINDOW	(32 * KBIN_MIB)
/* semaphores per NeuronCore, on every simulated generation (execute.rst) */
#define KBIN_SEMAPHORES	128U

const struct kbin_gen kbin_gens[] = {
	{
		/* known by name (BIR arch levels); not simulated */
		.name = "inf1", .device_name = "Inferentia",
		.gen = 1, .arch_level = 10,
		.num_cores = 4, .num_hbm_channels = 2,
		.hbm_channel_size = 4 * KBIN_GIB,
		.sbuf_partitions = KBIN_PARTS, .sbuf_partition_size = 96 * KBIN_KIB,
		.psum_size = 4 * 64 * 2 * KBIN_KIB, .psum_banks = 4,
	},
	{
		.name = "trn1", .device_name = "Trainium1", .aliases = { "sunda", "inf2", "v2" },
		.gen = KBIN_TARGET_TRN1, .arch_level = 20, .loadable = 1,
		.num_cores = 2, .num_hbm_channels = 2,
		.hbm_channel_size = 16 * KBIN_GIB,
		.sbuf_partitions = KBIN_PARTS, .sbuf_partition_size = 192 * KBIN_KIB,
		.sbuf_window_size = KBIN_WINDOW,
		.sbuf_partition_stride = KBIN_WINDOW / KBIN_PARTS,
		.psum_size = 2 * KBIN_MIB, .psum_banks = 8,
		/* 820 GB/s of HBM per device, 2 NeuronCores */
		.semaphores = KBIN_SEMAPHORES, .dma_bytes_per_us = 410000,
	},
	{
		.name = "trn2", .device_name = "Trainium2", .aliases = { "cayman", "v3" },
		.gen = KBIN_TARGET_TRN2, .arch_level = 30, .loadable = 1,
		.carveout_required = 1,
		.num_cores = 8, .num_hbm_channels = 4,
		.hbm_channel_size = 24 * KBIN_GIB,
		.sbuf_partitions = KBIN_PARTS, .sbuf_partition_size = 224 * KBIN_KIB,
		.sbuf_window_size = KBIN_WINDOW,
		.sbuf_partition_stride = KBIN_WINDOW / KBIN_PARTS,
		.psum_size = 2 * KBIN_MIB, .psum_banks = 8,
		/* 2.9 TB/s of HBM per device, 8 NeuronCores */
		.semaphores = KBIN_SEMAPHORES, .dma_bytes_per_us = 362500,
	},
	{
		/* cores and HBM are not public: assumed (hardware.rst) */
		.name = "trn3", .device_name = "Trainium3", .aliases = { "mariana", "v4" },
		.gen = KBIN_TARGET_TRN3, .arch_level = 40, .loadable = 1,
		.num_cores = 8, .num_hbm_channels = 4,
		.hbm_channel_size = 36 * KBIN_GIB,
		.sbuf_partitions = KBIN_PARTS, .sbuf_partition_size = 256 * KBIN_KIB,
		.sbuf_window_size = KBIN_WINDOW,
		.sbuf_partition_stride = KBIN_WINDOW / KBIN_PARTS,
		.psum_size = 2 * KBIN_MIB, .psum_banks = 8,
		/* assumed: trn2's rate (hardware.rst) */
		.semaphores = KBIN_SEMAPHORES, .dma_bytes_per_us = 362500,
	},
};

const unsigned int kbin_num_gens = KBIN_ARRAY_SIZE(kbin_gens);

/**
 * kbin_gen_by_number() - look a generation up by its number.
 * @gen: generation number (1..4).
 *
 * Return: the row, simulated or not; NULL for an unknown number.
 */
const struct kbin_gen *kbin_gen_by_number(unsigned int gen)
{
	unsigned int i;

	for (i = 0; i < kbin_num_gens; i++)
		if (kbin_gens[i].gen == gen)
			return &kbin_gens[i];
	return NULL;
}

/**
 * kbin_gen_by_name() - look a generation up by its canonical name or an
 *	alias ("trn2", "cayman", "v3").
 * @name: NUL-terminated; compared exactly.
 *
 * Return: the row, simulated or not; NULL for an unknown name.
 */
const struct kbin_gen *kbin_gen_by_name(const char *name)
{
	unsigned int i, k;

	for (i = 0; i < kbin_num_gens; i++) {
		const struct kbin_gen *g = &kbin_gens[i];

		if (!strcmp(name, g->name))
			return g;
		for (k = 0; k < KBIN_GEN_ALIASES && g->aliases[k]; k++)
			if (!strcmp(name, g->aliases[k]))
				return g;
	}
	return NULL;
}

/**
 * kbin_gen_target() - a generation a KBIN plan may target.
 * @gen: kbin_header.target_gen.
 *
 * Return: the row when the module simulates @gen; NULL otherwise
 * (unknown, or known by name only such as generation 1).
 */
const struct kbin_gen *kbin_gen_target(unsigned int gen)
{
	const struct kbin_gen *g = kbin_gen_by_number(gen);

	return g && g->loadable ? g : NULL;
}

/**
 * kbin_gen_target_by_name() - kbin_gen_by_name(), limited to the
 *	generations a KBIN plan may target (a NEFF kelf "target").
 * @name: NUL-terminated.
 *
 * Return: the row, or NULL when @name is unknown or names a generation
 * the module does not simulate ("inf1").
 */
const struct kbin_gen *kbin_gen_target_by_name(const char *name)
{
	const struct kbin_gen *g = kbin_gen_by_name(name);

	return g && g->loadable ? g : NULL;
}

/* append @sep and @s to the @n bytes of text @buf holds; the new length */
static unsigned long kbin_gen_cat(char *buf, unsigned long len,
				  unsigned long n, const char *sep, const char *s)
{
	return n + snprintf(buf + (n < len ? n : len), n < len ? len - n : 0,
			    "%s%s", sep, s);
}

/**
 * kbin_gen_list() - the generations a KBIN plan may target, as a list for
 *	a message ("unknown arch 'x' (use trn1, trn2 or trn3)"), built from
 *	the table, so a new generation is one row here and no message.
 * @buf: output, NUL-terminated, truncated to @len bytes.
 * @len: bytes of @buf; KBIN_GEN_LIST_MAX hold the table's lists.
 * @style: enum kbin_gen_list_style: names, aliases or numbers.
 *
 * Return: @buf.
 */
char *kbin_gen_list(char *buf, unsigned long len, unsigned int style)
{
	unsigned int i, k, total = 0, seen = 0;
	unsigned long n = 0;
	char num[12];

	if (!buf || !len)
		return buf;
	buf[0] = 0;
	for (i = 0; i < kbin_num_gens; i++)
		total += kbin_gens[i].loadable;
	for (i = 0; i < kbin_num_gens; i++) {
		const struct kbin_gen *g = &kbin_gens[i];
		const char *sep = !seen ? "" : style == KBIN_GEN_LIST_NAMES &&
				  seen + 1 == total ? " or " : ", ";

		if (!g->loadable)
			continue;
		seen++;
		if (style == KBIN_GEN_LIST_NUMBERS) {
			snprintf(num, sizeof(num), "%u", g->gen);
			n = kbin_gen_cat(buf, len, n, sep, num);
		} else if (style != KBIN_GEN_LIST_ALIASES) {
			n = kbin_gen_cat(buf, len, n, sep, g->name);
		} else {
			for (k = 0; k < KBIN_GEN_ALIASES && g->aliases[k]; k++)
				n = kbin_gen_cat(buf, len, n, k ? "/" : sep,
						 g->aliases[k]);
		}
	}
	return buf;
}
