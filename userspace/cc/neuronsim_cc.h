/* SPDX-License-Identifier: GPL-2.0 */
/*
 * neuronsim_cc.h - the neuronsim compiler library (prefix nscc_), part 1:
 * a real NEFF (or an in-memory var table) -> the mem_ref build tree ->
 * a KBIN static memory plan (uapi/linux/neuronsim_kbin.h).
 *
 * Pipeline (Documentation/compiler.rst):
 *
 *   nscc_neff_open()      NEFF header, MD5, feature bits, gzip'd tar
 *   nscc_neff_to_model()  kelf -> subgraphs, def.json var tables,
 *                         tensor_map.json, .npy weights -> struct nscc_model
 *   nscc_compile_model()  rule checks -> symbol table -> mem_ref tree ->
 *                         dump -> KBIN writer -> plan checker -> buffer
 *
 * Every function that can fail returns 0 or a negative errno and, when
 * @err is not NULL, fills err->msg with a message that names the
 * subgraph, var, field and value, e.g.
 *   "sg00: var 'w1' (var_id 4): alignment 3 is not a power of two (libnrt:
 *   alignment provided not power of 2)".
 * The neuronsim-cc command prefixes it with "neuronsim-cc: FILE: ".
 */
#ifndef NEURONSIM_CC_H
#define NEURONSIM_CC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/neuronsim_kbin.h>

#define NSCC_ERR_MAX		512

/** struct nscc_err - the message of the last error (NUL-terminated). */
struct nscc_err {
	char msg[NSCC_ERR_MAX];
};

/**
 * struct nscc_warn - where a compile's warnings go: what libnrt takes
 * without a word and the compiler takes too, saying so
 * (Documentation/compiler.rst, "Warnings").
 * @fp: each warning is printed there as "<@prefix>warning: MSG" and a
 *	newline; NULL: not printed.
 * @prefix: or NULL ("neuronsim-cc: model.neff: ").
 * @count: incremented for each warning, printed or not.
 * @last: the last warning's message (NUL-terminated).
 */
struct nscc_warn {
	FILE *fp;
	const char *prefix;
	uint32_t count;
	char last[NSCC_ERR_MAX];
};

/* ------------------------------------------------------------------ */
/* NEFF reader (neff.c)                                                */
/* ------------------------------------------------------------------ */

/* The NEFF header is 1024 bytes, then gzip'd tar (Documentation/compiler.rst). */
#define NSCC_NEFF_HEADER_SIZE	1024U
/*
 * Feature bits this version supports: every bit seen in the real NEFFs
 * (0x400, 0x800, 0x1000, 0x8000, 0x200000).  Any other bit is refused.
 */
#define NSCC_NEFF_FEATURES_SUPPORTED	0x209c00ULL
/*
 * Cap on the bytes a NEFF's tar stream may decompress to: every member's
 * data with its tar header and padding (decompression bombs;
 * Documentation/security.rst).  The environment variable
 * NEURONSIM_CC_MAX_MEMBER_BYTES, a decimal byte count
 * 1..NSCC_NEFF_MAX_MEMBER_BYTES_CEIL, replaces the default.
 */
#define NSCC_NEFF_MAX_MEMBER_BYTES	(2ULL << 30)
#define NSCC_NEFF_MAX_MEMBER_BYTES_ENV	"NEURONSIM_CC_MAX_MEMBER_BYTES"
#define NSCC_NEFF_MAX_MEMBER_BYTES_CEIL	(1ULL << 40)

/**
 * struct nscc_neff_header - the fields of the 1024-byte neff_header_t
 * (Documentation/compiler.rst; the first three are observed in every
 * real file).
 * @format_version: u64 at 0x0 (2 in real files).
 * @header_size: u64 at 0x8 (1024).
 * @data_size: u64 at 0x10, bytes of the data region after the header.
 * @num_tpb: u32 at 0xa8.
 * @hash: 16 bytes at 0xac, the MD5 of the data region.
 * @md5_word_reversed: 1 when @hash holds the MD5 with each 32-bit word
 *	byte-reversed (compiler 2.18+), 0 when plain (compiler 2.0).
 * @uuid: 16 bytes at 0xcc.
 * @name: at 0xdc, up to 256 bytes, NUL-terminated here.
 * @requested_tpb_count: u32 at 0x1dc.
 * @tpb_per_node: u32 at 0x1e0.
 * @feature_bits: u64 at 0x220.
 * @lnc_size: u32 at 0x228 (logical NeuronCore size, 1 or 2).
 */
struct nscc_neff_header {
	uint64_t format_version;
	uint64_t header_size;
	uint64_t data_size;
	uint32_t num_tpb;
	uint8_t hash[16];
	int md5_word_reversed;
	uint8_t uuid[16];
	char name[257];
	uint32_t requested_tpb_count;
	uint32_t tpb_per_node;
	uint64_t feature_bits;
	uint32_t lnc_size;
};

/** struct nscc_neff_sg - one kelf graph: name ("sg00") and def.json member. */
struct nscc_neff_sg {
	char *name;
	char *definition;
};

struct nscc_members;

/*
 * The program marker: neff.json's top-level key NSCC_NEFF_MARKER_KEY
 * with the value NSCC_NEFF_MARKER_COMPUTE says the engine programs are
 * in neuronsim's compute encoding (Documentation/compute.rst); the plan
 * then gets KBIN_PROG_F_COMPUTE and with it the compute checks at
 * compile and at LOAD.  neuronsim's own key: no real NEFF has it, and
 * any other value is refused (Documentation/compiler.rst, "Writing a
 * NEFF").
 */
#define NSCC_NEFF_MARKER_KEY		"neuronsim_program_encoding"
#define NSCC_NEFF_MARKER_COMPUTE	"compute"

/**
 * struct nscc_neff - an opened NEFF (file or extracted directory).
 * @has_header: 0 for an extracted directory (no header, no MD5).
 * @hdr: the parsed header when @has_header.
 * @kelf_member: the member neff.json names in attrs.kelf.
 * @target: the kelf "target" string; @target_gen its KBIN_TARGET_*.
 * @sgs, @num_sgs: the kelf "graphs", in file order.
 * @prog_flags: KBIN_PROG_F_COMPUTE when neff.json carries the marker
 *	NSCC_NEFF_MARKER_KEY = NSCC_NEFF_MARKER_COMPUTE (a NEFF written by
 *	nscc_model_to_neff() from a model in neuronsim's compute encoding),
 *	else 0 (every real NEFF); nscc_neff_to_model() gives it to the model.
 * @members: the member table (private; use nscc_neff_member()).
 */
struct nscc_neff {
	int has_header;
	struct nscc_neff_header hdr;
	char *kelf_member;
	char *target;
	uint32_t target_gen;
	uint32_t prog_flags;
	struct nscc_neff_sg *sgs;
	uint32_t num_sgs;
	struct nscc_members *members;
};

/**
 * nscc_neff_open() - open a NEFF file or an extracted NEFF directory.
 * @path: a NEFF file (1024-byte header + gzip'd tar) or a directory
 *	holding neff.json, the kelf member and the subgraph folders.
 * @out: the opened NEFF on success; free with nscc_neff_free().
 * @err: the message on failure.
 *
 * A file is checked in this order (Documentation/compiler.rst; the
 * bug-report scenarios 1, 3, 5 of Documentation/running.rst): length >= 1024; MD5 of the data region equals the
 * header hash, plain or word-reversed (else -EBADMSG "corrupted NEFF");
 * feature bits within NSCC_NEFF_FEATURES_SUPPORTED (else -EOPNOTSUPP
 * naming the bits); the data_size field equals the data region length;
 * the gzip'd tar is read fully into a member table (libarchive), its
 * stream bounded by nscc_neff_member_limit(); entries that are not
 * regular files are kept as such, and looking one up is -EINVAL.  Then
 * neff.json -> kelf member -> target and graphs.
 *
 * Return: 0; -ENOENT no such file or a named member is missing (the
 * message names it); -EBADMSG corrupted (short, MD5 mismatch, bad gzip
 * or tar); -EOPNOTSUPP unsupported feature bits; -EINVAL malformed JSON
 * or fields, a named member that is a link or other non-regular entry,
 * or a bad $NEURONSIM_CC_MAX_MEMBER_BYTES; -EFBIG the tar stream holds
 * more than nscc_neff_member_limit() bytes (refused as soon as an entry's
 * header says so, before its data is read); -ENOMEM; -EIO read error.
 */
int nscc_neff_open(const char *path, struct nscc_neff **out,
		   struct nscc_err *err);

/**
 * nscc_neff_member_limit() - the cap on the bytes a NEFF's tar stream
 * may decompress to: $NEURONSIM_CC_MAX_MEMBER_BYTES when set and not
 * empty, else NSCC_NEFF_MAX_MEMBER_BYTES (2 GiB).
 * Return: the cap in bytes; 0 when the variable is not a decimal byte
 * count 1..NSCC_NEFF_MAX_MEMBER_BYTES_CEIL (nscc_neff_open() then
 * refuses every NEFF file with -EINVAL naming the variable and value).
 */
uint64_t nscc_neff_member_limit(void);

/**
 * nscc_neff_open_mem() - as nscc_neff_open() for a NEFF file image.
 * @buf: @len bytes, header then gzip'd tar; copied, the caller keeps it.
 * Return: as nscc_neff_open().
 */
int nscc_neff_open_mem(const void *buf, size_t len, struct nscc_neff **out,
		       struct nscc_err *err);

/**
 * nscc_neff_member() - the bytes of one archive member.
 * @neff: an opened NEFF.
 * @name: member path inside the archive ("sg00/def.json"); a leading
 *	"./" is ignored.
 * @data, @len: set to the member bytes (owned by @neff; NUL-terminated
 *	one byte past @len for convenience).
 * Return: 0, or -ENOENT (message "member 'NAME' is missing from the
 * NEFF"), -EINVAL for a name with a ".." component or a member that is
 * not a regular file ("member 'NAME' is a symbolic link; NEFF members
 * must be regular files", likewise "hard link", "directory", ...),
 * -ENOMEM, -EIO.
 */
int nscc_neff_member(struct nscc_neff *neff, const char *name,
		     const void **data, size_t *len, struct nscc_err *err);

/** nscc_neff_free() - free an opened NEFF; NULL is allowed. */
void nscc_neff_free(struct nscc_neff *neff);

/**
 * nscc_target_gen() - the KBIN target generation of a kelf target name.
 * @target: a name or alias of a generation a plan may target in the
 *	generation table (kmod/plan/kbin_gen.h, Documentation/hardware.rst):
 *	"sunda"/"v2"/"trn1"/"inf2" (2), "cayman"/"v3"/"trn2" (3),
 *	"mariana"/"v4"/"trn3" (4).
 * Return: KBIN_TARGET_*, or 0 when unknown or not a plan target ("inf1").
 */
uint32_t nscc_target_gen(const char *target);

/**
 * nscc_npy_data() - locate the array bytes of a .npy file.
 * @buf, @len: the file.
 * @off: set to the offset of the data (after the header).
 * @descr: when not NULL, set to the dtype descr ("<f2") or "" (up to
 *	15 characters, NUL-terminated, 16 bytes).
 * Versions 1 (u16 header length at 8, data at 10 + len) and 2/3 (u32
 * header length at 8, data at 12 + len).
 * Return: 0 and *off; -EINVAL bad magic, unknown version, or a header
 * that runs past @len (message names the version or length).
 */
int nscc_npy_data(const void *buf, size_t len, size_t *off, char *descr,
		  struct nscc_err *err);

/* ------------------------------------------------------------------ */
/* In-memory model (model.c): the var table the compiler consumes      */
/* ------------------------------------------------------------------ */

/**
 * struct nscc_var - one variable, in the field's terms
 * (Documentation/compiler.rst, Documentation/hardware.rst).
 * @name: unique within its subgraph (owned).
 * @var_id: dense id, 0..n-1 within the subgraph.
 * @mr_type: enum kbin_mr_type, MR_SB..MR_PSUM.
 * @has_size: @size was given; required for every kind but MR_SB,
 *	MR_PSUM, MR_PTR, MR_LIST and MR_PTR_TABLE.
 * @size: bytes.  MR_SB records get the target's SBUF window
 *	(nscc_sbuf_window_size()), MR_PSUM its PSUM window
 *	(nscc_psum_window_size()), MR_PTR 8, MR_LIST/MR_PTR_TABLE 4 * list
 *	length.
 * @alignment: bytes, a power of two; 0 = default (1 for SB, PSUM, PTR,
 *	LIST, PTR_TABLE and REMOTE; 64 otherwise).
 * @dtype: NULL or up to 15 characters (owned).
 * @shape, @ndims: up to 8 dimensions (owned).
 * @offset: MR_VIRTUAL_TMP_BUF byte offset into its scratchpad (a
 *	tmp-buf's def.json backing_variable_off is not read: a tmp-buf is
 *	staged in HBM, not in a scratchpad).
 * @backing_buf: MR_VIRTUAL_TMP_BUF: enum kbin_backing_buf.
 * @referenced_var_id, @io_ref: MR_PTR.
 * @list, @list_len: MR_LIST, MR_PTR_TABLE: var_ids (owned).
 * @remote_sg, @remote_var_id: MR_REMOTE: subgraph index and var_id.
 * @payload, @payload_len: MR_BUFFER/MR_BUFFER_STAGED weight bytes; must
 *	equal @size.  Owned when @payload_owned, else borrowed from the
 *	NEFF the model keeps.
 * @md_prefix, @md_pipe_id: debug tensor metadata (prefix up to 511
 *	characters) for BUFFER, TMP_BUF, VIRTUAL_TMP_BUF; NULL = none.
 * @file_name: the def.json file_name (information only; owned).
 */
struct nscc_var {
	char *name;
	uint32_t var_id;
	uint32_t mr_type;
	int has_size;
	uint64_t size;
	uint64_t alignment;
	char *dtype;
	uint64_t *shape;
	uint32_t ndims;
	uint64_t offset;
	uint32_t backing_buf;
	uint32_t referenced_var_id;
	uint8_t io_ref;
	uint32_t *list;
	uint32_t list_len;
	uint32_t remote_sg;
	uint32_t remote_var_id;
	const void *payload;
	uint64_t payload_len;
	int payload_owned;
	char *md_prefix;
	uint32_t md_pipe_id;
	char *file_name;
};

/**
 * struct nscc_dma_queue - one DMA queue of a subgraph (def.json
 * dma_queue; Documentation/relocation.rst).
 * @name: "qSPIO0" (owned).
 * @type: enum kbin_dma_queue_type.
 * @owner: enum kbin_dma_engine whose member holds the queue's blocks.
 * @num_queues: def.json num_queues.
 * @semaphores, @num_semaphores: the semaphore set (owned).
 * @fabric_path: or NULL (owned).
 * @has_dynamic: dynamic_dma was given: @sb_scratch_offset and
 *	@sb_scratch_size (SB_scratch_partition_offset/size, bytes inside
 *	each SBUF partition).
 */
struct nscc_dma_queue {
	char *name;
	uint32_t type;
	uint32_t owner;
	uint32_t num_queues;
	uint32_t *semaphores;
	uint32_t num_semaphores;
	char *fabric_path;
	int has_dynamic;
	uint32_t sb_scratch_offset;
	uint32_t sb_scratch_size;
};

/**
 * struct nscc_dma_block - one DMA block, in the order its engine member
 * lists it.
 * @queue: index into the subgraph's @dma_queues.
 * @id: def.json id; per queue the ids must run 0..n-1 in order.
 * @semaphore: a member of the queue's semaphore set.
 * @engine: enum kbin_dma_engine whose member holds the block; 0 when the
 *	model was not read from engine members (then the queue's owner).
 * @comment: def.json "#comment", or NULL (owned).
 * @first_desc, @num_descs: the block's range of the subgraph's
 *	@dma_descs.
 */
struct nscc_dma_block {
	uint32_t queue;
	uint32_t id;
	uint32_t semaphore;
	uint32_t engine;
	char *comment;
	uint32_t first_desc;
	uint32_t num_descs;
};

/**
 * struct nscc_subgraph - one subgraph of a model.
 * @name: "sg00", 1..31 characters (owned).
 * @vars, @num_vars: the var table, in any order.
 * @local_scratchpad_size, @shared_scratchpad_size: bytes; the compiler
 *	raises them to max(offset + size) over the MR_VIRTUAL_TMP_BUF vars
 *	they back (LOCAL, and SHARED); SHARDED and MAIN vars have arenas
 *	the loader sizes by the vars themselves, and MR_TMP_BUF vars are
 *	HBM allocations of their own: they count toward neither.
 * @carveouts, @num_carveouts: SBUF carve-outs (up to KBIN_MAX_CARVEOUTS).
 * @dma_queues, @num_dma_queues: its DMA queues.
 * @dma_blocks, @num_dma_blocks: its DMA blocks, engine by engine in
 *	member order.
 * @dma_descs, @num_dma_descs: the blocks' descriptors, block by block,
 *	as they go into the plan (var_ids, the enum codes of
 *	uapi/linux/neuronsim_kbin.h).
 * @dma_members: per enum kbin_dma_engine, the NEFF member its blocks came
 *	from ("sg00/Pool.json"), named in messages; NULL when none (owned).
 * @instr_json: per enum kbin_dma_engine, the "instr" its engine member
 *	names ("Pool.bin"), or NULL (owned).
 * @prog: per enum kbin_dma_engine, its instruction stream:
 *	@prog_count[e] records of KBIN_PROG_RECORD_SIZE bytes, verbatim;
 *	borrowed from the NEFF the model keeps, or owned when
 *	@prog_owned[e]; NULL for none.
 * @prog_count: instructions per engine.
 * @prog_owned: per engine, @prog[e] is the model's to free.
 * @prog_members: per engine, the NEFF member the stream came from
 *	("sg00/Pool.bin"), named in messages; NULL when none (owned).
 * @prog_names: per engine, NULL or @prog_count[e] names of its
 *	instructions (each owned, or NULL): the BIR lowering's, the name of
 *	the BIR instruction each came from (the race report's,
 *	Documentation/races.rst).
 * @has_prog: the subgraph's def.json named an instruction stream (or
 *	nscc_model_set_prog() gave one): the plan gets a program section.
 */
struct nscc_subgraph {
	char *name;
	struct nscc_var *vars;
	uint32_t num_vars;
	uint32_t cap_vars;
	uint64_t local_scratchpad_size;
	uint64_t shared_scratchpad_size;
	struct kbin_sb_carveout carveouts[KBIN_MAX_CARVEOUTS];
	uint32_t num_carveouts;
	struct nscc_dma_queue *dma_queues;
	uint32_t num_dma_queues;
	uint32_t cap_dma_queues;
	struct nscc_dma_block *dma_blocks;
	uint32_t num_dma_blocks;
	uint32_t cap_dma_blocks;
	struct kbin_dma_desc *dma_descs;
	uint32_t num_dma_descs;
	uint32_t cap_dma_descs;
	char *dma_members[KBIN_DMA_ENGINE_MAX + 1];
	char *instr_json[KBIN_DMA_ENGINE_MAX + 1];
	const uint8_t *prog[KBIN_DMA_ENGINE_MAX + 1];
	uint32_t prog_count[KBIN_DMA_ENGINE_MAX + 1];
	uint8_t prog_owned[KBIN_DMA_ENGINE_MAX + 1];
	char *prog_members[KBIN_DMA_ENGINE_MAX + 1];
	char **prog_names[KBIN_DMA_ENGINE_MAX + 1];
	int has_prog;
};

/**
 * struct nscc_model - what nscc_compile_model() compiles.
 * @target_gen: KBIN_TARGET_*.
 * @sgs, @num_sgs: subgraphs; a plan holds 1..KBIN_MAX_SUBGRAPHS.
 * @neff: the NEFF whose bytes the vars borrow, or NULL (owned).
 * @warn: where nscc_compile_model() reports warnings, or NULL (not
 *	owned; they are then neither printed nor counted).
 * @prog_flags: the program section's KBIN_PROG_F_* (KBIN_PROG_F_COMPUTE
 *	for the BIR lowering's programs, Documentation/compiler-passes.rst).
 */
struct nscc_model {
	uint32_t target_gen;
	uint32_t prog_flags;
	struct nscc_subgraph *sgs;
	uint32_t num_sgs;
	uint32_t cap_sgs;
	struct nscc_neff *neff;
	struct nscc_warn *warn;
};

/** nscc_model_new() - an empty model for @target_gen; NULL on ENOMEM. */
struct nscc_model *nscc_model_new(uint32_t target_gen);
/** nscc_model_free() - free the model, its vars and its NEFF; NULL ok. */
void nscc_model_free(struct nscc_model *m);
/**
 * nscc_model_add_subgraph() - append a subgraph named @name.
 * Return: its index, or -ENOMEM.
 */
int nscc_model_add_subgraph(struct nscc_model *m, const char *name);
/**
 * nscc_model_add_var() - append a zeroed var to subgraph @sg.
 * @name, @var_id, @mr_type: copied into the var.
 * Return: the var, valid until the next add to the same subgraph; NULL
 * when @sg is out of range or on ENOMEM.
 */
struct nscc_var *nscc_model_add_var(struct nscc_model *m, int sg,
				    const char *name, uint32_t var_id,
				    uint32_t mr_type);
/**
 * nscc_model_add_dma_queue() - append a zeroed DMA queue named @name to
 * subgraph @sg; the caller fills in the rest.
 * Return: the queue, valid until the next queue added to @sg; NULL when
 * @sg is out of range or on ENOMEM.
 */
struct nscc_dma_queue *nscc_model_add_dma_queue(struct nscc_model *m, int sg,
						const char *name);
/** nscc_dma_queue_set_semaphores() - copy @n semaphores. 0 or -ENOMEM. */
int nscc_dma_queue_set_semaphores(struct nscc_dma_queue *q,
				  const uint32_t *sems, uint32_t n);
/**
 * nscc_model_add_dma_block() - append a block of subgraph @sg with @n
 * descriptors (copied).
 * @b: queue, id, semaphore and engine (the rest is the model's).
 * @comment: copied, or NULL.
 * Return: 0; -EINVAL @sg out of range or the descriptors would pass
 * 2^32 - 1; -ENOMEM.
 */
int nscc_model_add_dma_block(struct nscc_model *m, int sg,
			     const struct nscc_dma_block *b, const char *comment,
			     const struct kbin_dma_desc *descs, uint32_t n);
/**
 * nscc_model_drop_dma_block() - remove block @index (in the subgraph's
 * block table) of subgraph @sg with its descriptors; the later blocks of
 * its queue move down one id, as if it had never been added.
 * Return: 0; -EINVAL @sg or @index out of range.
 */
int nscc_model_drop_dma_block(struct nscc_model *m, int sg, uint32_t index);

/**
 * nscc_model_set_prog() - set one engine's instruction stream of
 * subgraph @sg (copied); the plan gets a program section.
 * @engine: enum kbin_dma_engine (1 PE .. 5 SP).
 * @records, @bytes: the records, verbatim; @bytes a multiple of
 *	KBIN_PROG_RECORD_SIZE (the rule of kbin_prog_stream_count()).
 * @member: the name messages give the stream ("sg00/PE.bin"), or NULL.
 * Return: 0; -EINVAL @sg or @engine out of range, or @bytes not a whole
 * number of records (the message names the stream and its length);
 * -ENOMEM.
 */
int nscc_model_set_prog(struct nscc_model *m, int sg, uint32_t engine,
			const void *records, uint64_t bytes,
			const char *member, struct nscc_err *err);

/** nscc_var_set_dtype() - copy @dtype (any length). 0 or -ENOMEM. */
int nscc_var_set_dtype(struct nscc_var *v, const char *dtype);
/** nscc_var_set_shape() - copy @ndims dimensions. 0 or -ENOMEM. */
int nscc_var_set_shape(struct nscc_var *v, const uint64_t *dims,
		       uint32_t ndims);
/** nscc_var_set_list() - copy @n var_ids. 0 or -ENOMEM. */
int nscc_var_set_list(struct nscc_var *v, const uint32_t *ids, uint32_t n);
/** nscc_var_set_payload() - copy @len payload bytes. 0 or -ENOMEM. */
int nscc_var_set_payload(struct nscc_var *v, const void *data,
			 uint64_t len);
/** nscc_var_set_debug_md() - copy the debug prefix. 0 or -ENOMEM. */
int nscc_var_set_debug_md(struct nscc_var *v, const char *prefix,
			  uint32_t pipe_id);

/**
 * nscc_model_check_carveout_count() - the count rules of subgraph @sg's
 * SBUF carve-outs (the runtime_statebuffer_reservation entries of a
 * def.json), checked before any is added.
 * @given: a carve-out list exists at all (an empty one is allowed).
 * @n: how many entries it has.
 * Return: 0; -EINVAL no list on a generation whose runtime needs the
 * evtaccel carve-out (carveout_required in the generation table,
 * kmod/plan/kbin_gen.h: trn2; Documentation/hardware.rst); -E2BIG more
 * than KBIN_MAX_CARVEOUTS; -EINVAL @sg out of range.
 */
int nscc_model_check_carveout_count(const struct nscc_model *m, int sg,
				    int given, size_t n, struct nscc_err *err);
/**
 * nscc_model_add_carveout() - append one SBUF carve-out to subgraph @sg.
 * @type: its type name; only "evtaccel" (KBIN_CARVEOUT_EVTACCEL, spelled
 *	by kbin_carveout_type_str()) exists.
 * @val: offset and size (bytes within each partition), first partition
 *	and number of partitions; -1 marks a value that is missing or not
 *	an integer.
 * Messages name the entry as runtime_statebuffer_reservation[i].
 * Return: 0; -EINVAL @type not "evtaccel", a value outside 0..UINT32_MAX,
 * size 0 or offset + size beyond the target's SBUF partition size,
 * partitions 0 or beyond the target's SBUF partitions (both from the
 * generation table), @sg out of range; -E2BIG the subgraph has
 * KBIN_MAX_CARVEOUTS already.
 */
int nscc_model_add_carveout(struct nscc_model *m, int sg, const char *type,
			    const int64_t val[4], struct nscc_err *err);

/**
 * nscc_mr_type_from_def() - the mr_type of a def.json var type string
 * (the kind table's def_type column, kmod/plan/kbin_kind.h;
 * Documentation/hardware.rst): state-buffer, input, output, file,
 * tmp-buf, virtual, pointer, dge-table, list, remote.
 * Return: the enum kbin_mr_type value, or MR_INVALID when unknown.
 */
uint32_t nscc_mr_type_from_def(const char *type);

/**
 * nscc_sbuf_bytes() - SBUF bytes per NeuronCore of a generation a plan
 * may target: partitions x partition size from the generation table
 * (kmod/plan/kbin_gen.h, Documentation/hardware.rst); 0 if unknown.
 */
uint64_t nscc_sbuf_bytes(uint32_t target_gen);

/**
 * nscc_sbuf_window_size() - bytes of a NeuronCore's SBUF window of a
 * generation a plan may target, the size of every MR_SB record: 32 MiB,
 * partition p's bytes at p * partition stride (kmod/plan/kbin_gen.h,
 * Documentation/hardware.rst); 0 if unknown.
 */
uint64_t nscc_sbuf_window_size(uint32_t target_gen);

/**
 * nscc_psum_window_size() - bytes of a NeuronCore's PSUM window of a
 * target generation, the size of every MR_PSUM record (psum_size:
 * kbin_gen_psum_partitions() partitions of psum_banks x 2 KiB).
 * Return: bytes, or 0 for a generation no plan may target.
 */
uint64_t nscc_psum_window_size(uint32_t target_gen);

/* ------------------------------------------------------------------ */
/* def.json front end (defjson.c)                                       */
/* ------------------------------------------------------------------ */

/**
 * nscc_neff_to_model() - build the var table of every kelf subgraph.
 * @neff: opened NEFF; on success the model takes ownership of it (it
 *	is freed by nscc_model_free()), on failure the caller keeps it.
 * @out: the model.
 *
 * Per subgraph: def.json "var" (types per the kind table,
 * Documentation/hardware.rst), the DMA queues and blocks (dma_queue and
 * the engine members), the five instruction streams (pe_instr, act_instr,
 * pool_instr, dve_instr, sp_instr: 64-byte records, kept verbatim),
 * "runtime_statebuffer_reservation" (carve-outs; required on gen 3, type
 * "evtaccel" only), a var's own "dtype" and "shape" keys and
 * tensor_map.json (dtype, tf_shape; matched by var name, else by tf_file
 * == file_name; where both give one they must be equal), file vars'
 * weights (.npy v1-3 or raw).
 * For a dtype the dtype table knows (Documentation/compiler.rst), a .npy
 * weight's descr must store it and def.json's size must be the shape's
 * element count times its bytes per element; an empty dtype is refused.
 * Return: 0; -EINVAL a malformed field, or a dtype, shape, descr or size
 * that disagree, or an instruction stream that is not a whole number of
 * 64-byte records (the message names the subgraph, var, field or member
 * and the values); -ENOENT a named member is missing (named); -ENOMEM.
 */
int nscc_neff_to_model(struct nscc_neff *neff, struct nscc_model **out,
		       struct nscc_err *err);

/**
 * nscc_defjson_load_subgraph() - add one subgraph from def.json text.
 * @m: the model; @sg_name its name; @def, @def_len: def.json bytes;
 * @tmap, @tmap_len: tensor_map.json bytes or NULL;
 * @neff, @dir: where file vars' weights are found (@dir + "/" +
 *	file_name); @neff may be NULL, then file vars get no payload;
 *	@dir may be NULL or "" for the archive's top level.
 * Return: as nscc_neff_to_model().
 */
int nscc_defjson_load_subgraph(struct nscc_model *m, const char *sg_name,
			       const void *def, size_t def_len,
			       const void *tmap, size_t tmap_len,
			       struct nscc_neff *neff, const char *dir,
			       struct nscc_err *err);

/* ------------------------------------------------------------------ */
/* Compiler (compile.c)                                                 */
/* ------------------------------------------------------------------ */

/**
 * nscc_compile_model() - compile a model into a KBIN plan.
 * @m: the model (not changed).
 * @buf, @len: the plan (malloc'd; the caller frees it).
 *
 * Per subgraph (Documentation/compiler.rst): per-var rule checks; one
 * mem_ref build object per var added to the symbol table (a var whose
 * name or var_id is taken is skipped, as libnrt's symbol table skips it,
 * with a warning to m->warn); the dense-id rule (max var_id + 1 == count,
 * "Unexpected var_ids set!"); cross-var checks (pointer targets, list
 * entries, remote subgraph and var); scratchpad sizes; dump of every
 * object in var_id order into the KBIN writer, with the DMA program and
 * the engines' instruction streams.  The finished plan is run through
 * the plan checker before it is returned; a program the checker refuses
 * is reported with the NEFF's names: the subgraph, the stream's member,
 * the instruction index and opcode, the queue (Documentation/compiler.rst).
 * Return: 0; -EINVAL a rule (message names subgraph, var, field, value;
 * for a program, the checker's reason); -EEXIST two subgraphs with one
 * name; -E2BIG dtype > 15 characters, shape
 * > 8 dimensions, > KBIN_MAX_SUBGRAPHS subgraphs or a list too long;
 * -ENOMEM.
 */
int nscc_compile_model(const struct nscc_model *m, void **buf, size_t *len,
		       struct nscc_err *err);

/**
 * nscc_compile_neff() - nscc_neff_open() + nscc_neff_to_model() +
 * nscc_compile_model() for a NEFF file or directory at @path.
 * Return: as those functions.
 */
int nscc_compile_neff(const char *path, void **buf, size_t *len,
		      struct nscc_err *err);

/**
 * nscc_compile_neff_warn() - nscc_compile_neff() reporting warnings to
 * @warn (NULL: as nscc_compile_neff()).
 * Return: as nscc_compile_neff().
 */
int nscc_compile_neff_warn(const char *path, struct nscc_warn *warn,
			   void **buf, size_t *len, struct nscc_err *err);

/**
 * nscc_compile_neff_mem() - nscc_neff_open_mem() + nscc_neff_to_model() +
 * nscc_compile_model() of a NEFF image (@neff, @neff_len bytes; not
 * kept), warnings to @warn (NULL: none): what a loader of NEFFs does.
 * Return: as those functions.
 */
int nscc_compile_neff_mem(const void *neff, size_t neff_len,
			  struct nscc_warn *warn, void **buf, size_t *len,
			  struct nscc_err *err);

/* ------------------------------------------------------------------ */
/* Synthetic NEFF writer (neff_writer.c), for tests and tools           */
/* ------------------------------------------------------------------ */

struct nscc_neff_writer;

/**
 * struct nscc_neff_opts - header fields of a written NEFF.
 * @feature_bits: u64 at 0x220.
 * @lnc_size: u32 at 0x228 (0 means 1).
 * @md5_word_reversed: store the MD5 with each 32-bit word byte-reversed.
 * @name: at 0xdc (NULL: "file.neff").
 */
struct nscc_neff_opts {
	uint64_t feature_bits;
	uint32_t lnc_size;
	int md5_word_reversed;
	const char *name;
};

/** nscc_neff_writer_new() - an empty writer; NULL on ENOMEM. */
struct nscc_neff_writer *nscc_neff_writer_new(void);
/** nscc_neff_writer_free() - free the writer; NULL ok. */
void nscc_neff_writer_free(struct nscc_neff_writer *w);
/**
 * nscc_neff_writer_add() - add (or replace) member @name with @len bytes.
 * Return: 0 or -ENOMEM.
 */
int nscc_neff_writer_add(struct nscc_neff_writer *w, const char *name,
			 const void *data, size_t len);
/** nscc_neff_writer_add_str() - add a text (JSON) member. 0/-ENOMEM. */
int nscc_neff_writer_add_str(struct nscc_neff_writer *w, const char *name,
			     const char *text);
/**
 * nscc_neff_writer_add_npy() - add a .npy member.
 * @version: 1, 2 or 3 (header length u16 for 1, u32 otherwise).
 * @descr: numpy dtype descr ("<f4"); @shape/@ndims the array shape;
 * @data/@len the array bytes.
 * Return: 0, -EINVAL bad version, -ENOMEM.
 */
int nscc_neff_writer_add_npy(struct nscc_neff_writer *w, const char *name,
			     int version, const char *descr,
			     const uint64_t *shape, uint32_t ndims,
			     const void *data, size_t len);
/** nscc_neff_writer_remove() - drop member @name. 0 or -ENOENT. */
int nscc_neff_writer_remove(struct nscc_neff_writer *w, const char *name);
/**
 * nscc_neff_writer_finish() - the NEFF image: 1024-byte header (MD5 of
 * the data region, @opts fields) then the members as a gzip'd tar
 * (libarchive).  @buf is malloc'd.  Return: 0, -ENOMEM, -EIO.
 */
int nscc_neff_writer_finish(struct nscc_neff_writer *w,
			    const struct nscc_neff_opts *opts,
			    void **buf, size_t *len);
/**
 * nscc_neff_writer_write_dir() - write the members as an extracted NEFF
 * directory under @dir (created if needed).  Return: 0 or -errno.
 */
int nscc_neff_writer_write_dir(struct nscc_neff_writer *w, const char *dir);

/* ------------------------------------------------------------------ */
/* Model -> NEFF (neff_export.c)                                        */
/* ------------------------------------------------------------------ */

/**
 * nscc_model_to_neff() - add to @w the members of a NEFF that the NEFF
 * reader (nscc_neff_open(), nscc_neff_to_model()) turns back into @m,
 * so that nscc_compile_model() of either gives the same plan byte for
 * byte (Documentation/compiler.rst, "Writing a NEFF").
 * @m: the model (not changed), e.g. the BIR lowering's.
 * @w: the writer; finish it with nscc_neff_writer_finish().
 *
 * Members: neff.json (a "null" node per input and the "__kelf" node
 * naming kelf-0.json, which lists @m's outputs; with @m->prog_flags
 * KBIN_PROG_F_COMPUTE, the marker NSCC_NEFF_MARKER_KEY); kelf-0.json
 * (target: the generation's first alias, "cayman" for trn2; graphs);
 * per subgraph i a folder sgNN (NN = i, two digits or more) holding
 * def.json (the var table with every kind's def.json type, the SBUF
 * carve-outs as runtime_statebuffer_reservation, the DMA queues, the
 * engine members and the instruction streams it names), one engine
 * member per engine with DMA blocks or a stream ("PE.json",
 * "Activation.json", "Pool.json", "DVE.json", "SP.json": its "dma"
 * blocks with their descriptors, its "instr"), the five streams
 * ("PE.bin" ...: 64-byte records, verbatim) when the subgraph has a
 * program, and a .npy weight (w<index>.npy) per var with a payload.
 *
 * Refused, because a def.json cannot hold it (-EOPNOTSUPP): a kind with
 * no def.json type (MR_BUFFER_STAGED), a virtual var not backed by the
 * SHARED arena, debug metadata, a scratchpad size given in the model,
 * prog_flags other than 0 and KBIN_PROG_F_COMPUTE.  Refused as -EINVAL:
 * a name (var, queue) given twice or not valid UTF-8, a number over
 * INT64_MAX, an enum code with no name (queue type or owner, block
 * engine, DMA op or dtype), a descriptor side of 0 or more than 4
 * dimensions, a descriptor naming a var_id no var has.  The model's
 * other rules are the compiler's: compile @m first to have its messages.
 * Return: 0, or a negative errno with the message in @err (-ENOMEM).
 */
int nscc_model_to_neff(const struct nscc_model *m, struct nscc_neff_writer *w,
		       struct nscc_err *err);

/* ------------------------------------------------------------------ */
/* Will it fit: the HBM a plan's LOAD charges (plan_memory.c)          */
/* ------------------------------------------------------------------ */

/*
 * The Neuron driver's device-memory categories, in its order
 * (Documentation/sysfs.rst, "Device memory"): model_code tensors
 * constants model_shared_scratchpad runtime_memory driver_memory
 * collectives nonshared_scratchpad notifications dma_rings uncategorized;
 * nscc_memory_category_name() names index 0 .. NSCC_MEM_CATEGORIES - 1.
 */
#define NSCC_MEM_CATEGORIES	11U
/* HBM channels of a device, at most (NEURONSIM_MAX_HBM_CHANNELS) */
#define NSCC_MEM_CHANNELS	4U
/* problems struct nscc_memory keeps */
#define NSCC_FIT_PROBLEMS_MAX	8U
#define NSCC_FIT_MSG_MAX	320U

/**
 * struct nscc_memory_core - what a LOAD charges one NeuronCore.
 * @core: the NeuronCore, first core + @subgraph.
 * @subgraph: the plan subgraph that runs on it.
 * @hbm_channel: the HBM channel it allocates from; -1 when the
 *	generation has no NeuronCore @core.
 * @allocations: HBM allocations charged to it.
 * @bytes: bytes per device-memory category (sysfs neuron_coreM/stats/
 *	memory_usage/device_mem/<category>/present grows by exactly these).
 * @total: the sum of @bytes (device_mem/present).
 * @sbuf_bytes: the largest MR_SB record of the subgraph, bytes (the SBUF
 *	window it uses; not HBM); 0 when it has none.
 */
struct nscc_memory_core {
	uint32_t core;
	uint32_t subgraph;
	int32_t hbm_channel;
	uint32_t allocations;
	uint64_t bytes[NSCC_MEM_CATEGORIES];
	uint64_t total;
	uint64_t sbuf_bytes;
};

/**
 * enum nscc_fit_why - why a plan does not fit (struct nscc_fit_problem).
 * @NSCC_FIT_TARGET: the plan targets another generation; LOAD refuses
 *	it (-EINVAL).
 * @NSCC_FIT_CORES: its subgraphs, from the first core, need more
 *	NeuronCores than the device has (-ENODEV).
 * @NSCC_FIT_VARS: a subgraph has more records than max_vars_per_subgraph
 *	(-E2BIG).
 * @NSCC_FIT_SBUF: an MR_SB larger than the generation's SBUF window
 *	(-EINVAL).
 * @NSCC_FIT_PSUM: an MR_PSUM larger than the generation's PSUM window
 *	(-EINVAL).
 * @NSCC_FIT_SCRATCHPAD_PAGES: a scratchpad needs more pages than
 *	scratchpad_max_pages (-E2BIG).
 * @NSCC_FIT_SCRATCHPAD_PAGE: a virtual buffer straddles a scratchpad page
 *	(-EINVAL).
 * @NSCC_FIT_HBM: an allocation finds no free range on its HBM channel of
 *	an empty device (-ENOSPC).
 * @NSCC_FIT_UDMA_DESCS: the load's UDMA descriptors are above
 *	max_udma_descs (-E2BIG).
 * @NSCC_FIT_RUN_BYTES: a DMA queue side moves more than max_run_bytes in
 *	one run (-E2BIG).
 */
enum nscc_fit_why {
	NSCC_FIT_TARGET = 1,
	NSCC_FIT_CORES,
	NSCC_FIT_VARS,
	NSCC_FIT_SBUF,
	NSCC_FIT_PSUM,
	NSCC_FIT_SCRATCHPAD_PAGES,
	NSCC_FIT_SCRATCHPAD_PAGE,
	NSCC_FIT_HBM,
	NSCC_FIT_UDMA_DESCS,
	NSCC_FIT_RUN_BYTES,
};

/**
 * struct nscc_fit_problem - one reason the LOAD would fail.
 * @why: enum nscc_fit_why; nscc_fit_why_name() names it.
 * @err: the errno LOAD returns for it, negative.
 * @subgraph: the subgraph it is about, or -1.
 * @core: the NeuronCore, or -1.
 * @channel: the HBM channel (@why NSCC_FIT_HBM), or -1.
 * @category: the device-memory category of the allocation that found no
 *	room (@why NSCC_FIT_HBM), or -1.
 * @need: what the load needs: bytes (HBM: all the load's bytes on the
 *	channel; SBUF, PSUM, a queue's run), NeuronCores, records, pages,
 *	UDMA descriptors.
 * @limit: what the device has or the module allows, in the same unit.
 * @msg: the reason in words, NUL-terminated.
 */
struct nscc_fit_problem {
	uint32_t why;
	int err;
	int32_t subgraph;
	int32_t core;
	int32_t channel;
	int32_t category;
	uint64_t need;
	uint64_t limit;
	char msg[NSCC_FIT_MSG_MAX];
};

/**
 * struct nscc_memory - nscc_plan_memory()'s answer.
 * @target_gen: the plan's generation (kbin_header.target_gen).
 * @arch_gen: the generation of the device assessed.
 * @first_core: the NeuronCore of subgraph 0.
 * @num_cores: NeuronCores the load takes (its subgraphs): the entries of
 *	@core.
 * @device_cores: NeuronCores of the generation.
 * @num_channels: HBM channels of the generation.
 * @channel_size: bytes of one HBM channel.
 * @sbuf_window_size: bytes of a NeuronCore's SBUF window.
 * @core: per NeuronCore the load takes, in core order.
 * @channel_bytes: per HBM channel, the bytes the load charges there.
 * @bytes: per device-memory category, the sum over @core.
 * @total: the sum of @bytes.
 * @allocations: HBM allocations of the load.
 * @udma_descs: UDMA descriptors relocation writes (max_udma_descs).
 * @fits: 1 when an empty device of @arch_gen takes the load, else 0.
 * @num_problems: the reasons it does not (the first
 *	NSCC_FIT_PROBLEMS_MAX are in @problems).
 * @problems: the reasons.
 * @error: when nscc_plan_memory() fails with -EINVAL, why.
 */
struct nscc_memory {
	uint32_t target_gen;
	uint32_t arch_gen;
	uint32_t first_core;
	uint32_t num_cores;
	uint32_t device_cores;
	uint32_t num_channels;
	uint64_t channel_size;
	uint64_t sbuf_window_size;
	struct nscc_memory_core core[KBIN_MAX_SUBGRAPHS];
	uint64_t channel_bytes[NSCC_MEM_CHANNELS];
	uint64_t bytes[NSCC_MEM_CATEGORIES];
	uint64_t total;
	uint64_t allocations;
	uint64_t udma_descs;
	int fits;
	uint32_t num_problems;
	struct nscc_fit_problem problems[NSCC_FIT_PROBLEMS_MAX];
	char error[NSCC_ERR_MAX];
};

/**
 * nscc_plan_memory() - will a plan fit: the HBM its LOAD charges each
 * NeuronCore, per device-memory category, and whether an empty device
 * takes it (Documentation/compiler.rst, "Will it fit").
 * @plan: a KBIN plan (compiled by nscc_compile_model() or read from a
 *	file); checked here with the kernel's checker.
 * @len: its bytes.
 * @target_gen: the generation of the device (KBIN_TARGET_TRN1 ..), 0 for
 *	the plan's own.
 * @first_core: the NeuronCore of subgraph 0 (LOAD's first_core).
 * @out: filled.
 *
 * The figures are the kernel's own: the same shared code
 * (kmod/plan/kbin_memory.h) sizes, aligns and charges every allocation
 * staging and relocation make, each rounded up to 4 KiB, with the
 * module parameters at their defaults (scratchpad_page_size,
 * dma_ring_max_descs; they change the placement, never the bytes
 * charged).  The fit is decided for an empty device: HBM placed as the
 * module places it (first fit at each allocation's alignment, in LOAD's
 * order, per channel), the NeuronCores, SBUF and PSUM windows and the
 * module's limits at their defaults; @out lists every reason it fails,
 * not only the first LOAD would meet.  Units are bytes unless a field
 * says otherwise.
 *
 * Return: 0 (also when the plan does not fit: @out->fits); -EINVAL the
 * plan is refused by the checker, or @target_gen is not a generation a
 * plan may target (@out->error says which); -E2BIG a DMA queue side
 * of 2^32 or more UDMA descriptors.
 */
int nscc_plan_memory(const void *plan, size_t len, uint32_t target_gen,
		     uint32_t first_core, struct nscc_memory *out);

/**
 * nscc_memory_category_name() - the name of a device-memory category
 * ("model_code" .. "uncategorized"), as the sysfs directory is named.
 * @category: 0 .. NSCC_MEM_CATEGORIES - 1.
 *
 * Return: the name; "unknown" out of range.
 */
const char *nscc_memory_category_name(unsigned int category);

/**
 * nscc_fit_why_name() - a short name of an enum nscc_fit_why ("hbm",
 * "cores", ...), as neuronsim-cc plan --memory -j prints it.
 * @why: enum nscc_fit_why.
 *
 * Return: the name; "unknown" out of range.
 */
const char *nscc_fit_why_name(unsigned int why);

/**
 * nscc_write_file() - write @len bytes to @path (created/truncated).
 * Return: 0 or -errno.
 */
int nscc_write_file(const char *path, const void *buf, size_t len);

#endif /* NEURONSIM_CC_H */
