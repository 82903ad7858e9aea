/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kbin_names.h - the one place every name and text of the plan layer is
 * spelled: mr_type names (from the kind table), checker and staging
 * reason texts, checker field names, HBM usage categories, the driver's
 * device-memory categories, staging modes, backing buffers and SBUF
 * carve-out types, and the states RUN and EXECUTE report of a DMA queue
 * (NEURONSIM_RUN_*) and of an engine (NEURONSIM_ENGINE_*).  The module,
 * the library, the compiler and the commands all print these; none keeps
 * a copy.  The DMA names (element
 * types, engines, queue types, ops) live with their table in kbin_dma.h.
 * Every *_str() function returns a static string and never NULL; a value
 * outside its enum gets the "unknown" text the function documents.
 * kbin_resolve_strerror() writes the text of a resolve failure (libnrt's
 * words, then ours) into the caller's buffer.
 */
#ifndef _NEURONSIM_KBIN_NAMES_H
#define _NEURONSIM_KBIN_NAMES_H

#include <linux/neuronsim_kbin.h>

/**
 * enum kbin_stage_mode - how the loader staged a variable (debugfs
 * memrefs "mode", the "Staged memref" log line).
 * @KBIN_MODE_NONE: "-", not staged yet.
 * @KBIN_MODE_ALLOC_COPY: "alloc+copy": HBM allocated, payload copied in.
 * @KBIN_MODE_ALLOC_ONLY: "alloc only": HBM allocated, no payload.
 * @KBIN_MODE_SBUF: "sbuf window": the NeuronCore's SBUF window.
 * @KBIN_MODE_SCRATCHPAD: "scratchpad": a scratchpad page.
 * @KBIN_MODE_POINTER: "pointer": its target's address.
 * @KBIN_MODE_LIST: "index list": the index list kept, nothing staged.
 * @KBIN_MODE_TABLE: "ptr table": a table of addresses written to HBM.
 * @KBIN_MODE_REMOTE: "remote": another subgraph's variable.
 * @KBIN_MODE_PSUM: "psum window": the NeuronCore's PSUM window.
 * @KBIN_MODE_MAX: number of modes.
 */
enum kbin_stage_mode {
	KBIN_MODE_NONE = 0,
	KBIN_MODE_ALLOC_COPY,
	KBIN_MODE_ALLOC_ONLY,
	KBIN_MODE_SBUF,
	KBIN_MODE_SCRATCHPAD,
	KBIN_MODE_POINTER,
	KBIN_MODE_LIST,
	KBIN_MODE_TABLE,
	KBIN_MODE_REMOTE,
	KBIN_MODE_PSUM,
	KBIN_MODE_MAX,
};

const char *kbin_mr_type_str(unsigned int mr_type);
const char *kbin_reason_str(unsigned int reason);
const char *kbin_field_str(unsigned int field);
const char *kbin_usage_str(unsigned int usage);
const char *kbin_mem_category_str(unsigned int category);
const char *kbin_stage_mode_str(unsigned int mode);
const char *kbin_backing_buf_str(unsigned int backing_buf);
const char *kbin_carveout_type_str(unsigned int type);
const char *kbin_run_state_str(unsigned int state);
const char *kbin_engine_state_str(unsigned int state);
/* bytes a kbin_resolve_strerror() text takes at most, with the NUL */
#define KBIN_RESOLVE_TEXT_MAX	(2 * KBIN_NAME_MAX + 192)

char *kbin_resolve_strerror(char *buf, unsigned long len, int err,
			    const char *name, unsigned int mr_type,
			    __u64 var_size, __u64 offset, __u64 size);
char *kbin_sbuf_gap_strerror(char *buf, unsigned long len, const char *name,
			     __u64 offset, __u64 size, __u32 part_size,
			     __u32 stride);

#endif /* _NEURONSIM_KBIN_NAMES_H */
