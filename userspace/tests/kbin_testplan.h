/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kbin_testplan.h - valid KBIN plans for the host tests, the fuzzer seed
 * generator and the format documentation, built with the KBIN writer.
 */
#ifndef _NEURONSIM_KBIN_TESTPLAN_H
#define _NEURONSIM_KBIN_TESTPLAN_H

#include <stddef.h>
#include <stdint.h>

#include "kbin_writer.h"

/* Subgraph 0 of the full plan: one record of every kind (var_id order). */
enum tp_sg0_var {
	TP_SB,		/* MR_SB */
	TP_STAGED,	/* MR_BUFFER_STAGED with payload */
	TP_BUF,		/* MR_BUFFER with payload and debug md */
	TP_BUF_NOPAY,	/* MR_BUFFER without payload */
	TP_TMP,		/* MR_TMP_BUF with debug md */
	TP_IN,		/* MR_INPUT */
	TP_OUT,		/* MR_OUTPUT */
	TP_PTR,		/* MR_PTR -> TP_IN, io_ref 1 */
	TP_VLOCAL,	/* MR_VIRTUAL_TMP_BUF, LOCAL */
	TP_VSHARED,	/* MR_VIRTUAL_TMP_BUF, SHARED */
	TP_LIST,	/* MR_LIST {0, 3, 4} */
	TP_PTAB,	/* MR_PTR_TABLE {1, 2, 3} */
	TP_REMOTE,	/* MR_REMOTE -> sg 1 var TP1_BUF */
	TP_SG0_NMEM,
};

/* Subgraph 1 of the full plan. */
enum tp_sg1_var {
	TP1_SB,		/* MR_SB, same name as sg 0's (deduped) */
	TP1_BUF,	/* MR_BUFFER, 4096 bytes, no payload */
	TP1_REMOTE,	/* MR_REMOTE -> sg 0 var TP_TMP */
	TP1_NMEM,
};

#define TP_TARGET		KBIN_TARGET_TRN2
#define TP_LOCAL_SP		(1ULL << 20)	/* sg 0 local scratchpad */
#define TP_SHARED_SP		(2ULL << 20)	/* sg 0 shared scratchpad */

/**
 * struct tp_plan - the writer inputs of the full plan, for round trips.
 * @in: per subgraph, the records as given to kbin_writer_add_record().
 * @n: records per subgraph.
 * @name: subgraph names.
 * @local_sp: local scratchpad sizes.
 * @shared_sp: shared scratchpad sizes.
 * @co: carve-outs per subgraph.
 * @nco: carve-outs used per subgraph.
 */
struct tp_plan {
	struct kbin_rec_in in[2][TP_SG0_NMEM];
	uint32_t n[2];
	const char *name[2];
	uint64_t local_sp[2];
	uint64_t shared_sp[2];
	struct kbin_sb_carveout co[2][KBIN_MAX_CARVEOUTS];
	uint32_t nco[2];
};

const struct tp_plan *tp_inputs(void);
int tp_build(void **buf, size_t *len);
int tp_build_n(uint32_t n, void **buf, size_t *len);
int tp_build_small(void **buf, size_t *len);

struct kbin_subgraph *tp_sg(void *buf, uint32_t sg);
struct kbin_mem_ref_set *tp_set(void *buf, uint32_t sg);
struct kbin_mem_ref *tp_rec(void *buf, uint32_t sg, uint32_t i);

#endif /* _NEURONSIM_KBIN_TESTPLAN_H */
