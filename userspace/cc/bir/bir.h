/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bir.h - the BIR IR of neuronsim's compiler part 2, its JSON form, the
 * backend passes and the lowering into the compiler's model
 * (Documentation/compiler-passes.rst).
 *
 *   Module -> Function -> BasicBlock -> Instruction
 *   Function owns MemoryLocationSet -> MemoryLocation, and Registers.
 *
 * Every field is typed: opcodes are enum bir_opcode, operands are
 * struct bir_operand (access patterns, register accesses, immediates),
 * and everything the IR does not model (op keys of an instruction, keys
 * the IR does not know) is a struct bir_val, a small tagged union.
 * jansson appears only in json.c, at the JSON boundary.
 *
 * Memory: a module owns an arena (nodes, operand arrays, values) and a
 * string pool (every string of the module, interned: equal strings share
 * one copy).  Both are freed with the module, never piecemeal; freeing a
 * node returns only its growable vectors.  A node belongs to the module
 * it was made for (its strings live in that module's pool); copying
 * between modules goes through bir_inst_clone() / bir_val_copy().
 *
 * Names: every named object has a module-unique id (bir_module.next_id).
 * Names are unique in their container (functions in a module; sets,
 * locations, registers, blocks and instructions in a function); an
 * object added through the API whose name is taken gets a numeric
 * suffix ("x.1").  The JSON reader refuses duplicates instead (they
 * would make operand references ambiguous).
 *
 * Functions return 0 or a negative errno and fill @err (see struct
 * nscc_err) with a message naming the object, field and value.
 */
#ifndef NEURONSIM_BIR_H
#define NEURONSIM_BIR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../neuronsim_cc.h"
#include "kbin_dma.h"

/* ------------------------------------------------------------------ */
/* Enumerations (Documentation/compiler-passes.rst, "The IR")          */
/* ------------------------------------------------------------------ */

/** enum bir_mem_type - MemoryType bit values (compiler-passes.rst). */
enum bir_mem_type {
	BIR_MEM_NONE = 0,	/* no type (an unknown name) */
	BIR_MEM_UNALLOCATED = 1,
	BIR_MEM_INPUT = 2,
	BIR_MEM_OUTPUT = 4,
	BIR_MEM_DRAM = 8,
	BIR_MEM_SB = 16,
	BIR_MEM_PSUM = 32,
	BIR_MEM_RNGSTATE = 64,
	BIR_MEM_REG = 128,
};

/*
 * enum bir_opcode - InstructionType.  The values below 200 are the
 * compiler's (Documentation/compiler-passes.rst); the primitives from
 * 200 on are numbered by neuronsim (JSON persists names, never
 * numbers).  BIR_OP_OTHER is any opcode name this IR does not know:
 * kept in bir_inst.opname and written back verbatim.
 */
enum bir_opcode {
	BIR_OP_OTHER = 0,
	BIR_OP_COLLECTIVE_COMPUTE = 48,
	BIR_OP_BIR_KERNEL = 54,
	BIR_OP_NKI_KERNEL = 55,
	BIR_OP_NKI_KLIR_KERNEL = 56,
	BIR_OP_COMPARE_AND_BRANCH = 78,
	BIR_OP_UNCONDITIONAL_BRANCH = 79,
	BIR_OP_LOOP = 105,
	/* local numbering */
	BIR_OP_TENSOR_COPY = 200,
	BIR_OP_MEMSET,
	BIR_OP_ACTIVATION,
	BIR_OP_TENSOR_TENSOR,
	BIR_OP_TENSOR_SCALAR,
	BIR_OP_TENSOR_REDUCE,
	BIR_OP_MATMULT,
	BIR_OP_TRANSPOSE,
	BIR_OP_REGISTER_LOAD,
	BIR_OP_GENERIC_INDIRECT_LOAD,
};

/** bir_opcode_from_name() - opcode of @name, BIR_OP_OTHER if unknown. */
enum bir_opcode bir_opcode_from_name(const char *name);
/** bir_opcode_name() - canonical name of @op, NULL for BIR_OP_OTHER. */
const char *bir_opcode_name(enum bir_opcode op);
/** bir_mem_type_name() - "SB", "DRAM", ...; NULL for a non-bit value. */
const char *bir_mem_type_name(enum bir_mem_type type);
/** bir_mem_type_from_name() - the bit value of @name, 0 if unknown. */
enum bir_mem_type bir_mem_type_from_name(const char *name);

/* ------------------------------------------------------------------ */
/* Typed values: attributes and kept keys                              */
/* ------------------------------------------------------------------ */

struct bir_module;
struct bir_function;
struct bir_attr;

/** enum bir_val_kind - what a struct bir_val holds (the JSON kinds). */
enum bir_val_kind {
	BIR_VAL_NULL = 0,
	BIR_VAL_BOOL,
	BIR_VAL_INT,
	BIR_VAL_REAL,
	BIR_VAL_STR,
	BIR_VAL_LIST,
	BIR_VAL_OBJ,
};

/**
 * struct bir_val - a typed value (16 bytes).
 * @kind: what it holds.  An all-zero value is null; an object with
 *	no members is kind BIR_VAL_OBJ, n 0.
 * @n: BIR_VAL_LIST: number of @items; BIR_VAL_OBJ: number of @members.
 * @b, @i, @r, @s: bool, 64-bit integer, double, string (interned in the
 *	owning module's pool).  Integers and reals stay apart (1 and 1.0
 *	round-trip as written).
 * @items: BIR_VAL_LIST elements; @members: BIR_VAL_OBJ key/value pairs in
 *	insertion order, keys unique.  Both arrays live in the arena.
 */
struct bir_val {
	enum bir_val_kind kind;
	uint32_t n;
	union {
		bool b;
		int64_t i;
		double r;
		const char *s;
		struct bir_val *items;
		struct bir_attr *members;
	};
};

/** struct bir_attr - one member of an object value. */
struct bir_attr {
	const char *key;
	struct bir_val v;
};

/* value constructors; strings are borrowed until stored with bir_val_set() */
static inline struct bir_val bir_val_int(int64_t i)
{
	return (struct bir_val){ .kind = BIR_VAL_INT, .i = i };
}

static inline struct bir_val bir_val_real(double r)
{
	return (struct bir_val){ .kind = BIR_VAL_REAL, .r = r };
}

static inline struct bir_val bir_val_bool(bool b)
{
	return (struct bir_val){ .kind = BIR_VAL_BOOL, .b = b };
}

static inline struct bir_val bir_val_str(const char *s)
{
	return (struct bir_val){ .kind = BIR_VAL_STR, .s = s };
}

static inline struct bir_val bir_val_obj(void)
{
	return (struct bir_val){ .kind = BIR_VAL_OBJ };
}

/** bir_val_get() - the member @key of object @obj, or NULL. */
const struct bir_val *bir_val_get(const struct bir_val *obj, const char *key);
/**
 * bir_val_set() - set member @key of object @obj (of module @m) to a deep
 * copy of @v: replaced in place when present, else appended.
 * Return: 0 or -ENOMEM (@obj unchanged).
 */
int bir_val_set(struct bir_module *m, struct bir_val *obj, const char *key,
		const struct bir_val *v);
/** bir_val_del() - remove member @key of @obj (order of the rest kept). */
void bir_val_del(struct bir_val *obj, const char *key);
/** bir_val_append() - append a deep copy of @v to list @list. 0/-ENOMEM. */
int bir_val_append(struct bir_module *m, struct bir_val *list,
		   const struct bir_val *v);
/**
 * bir_val_copy() - deep copy of @src (any module) into @dst, allocated
 * in @m.  Return: 0 or -ENOMEM (*dst null).
 */
int bir_val_copy(struct bir_module *m, struct bir_val *dst,
		 const struct bir_val *src);
/**
 * bir_val_equal() - same kind and value; lists element by element,
 * objects as sets of members (order ignored), reals by ==.
 */
bool bir_val_equal(const struct bir_val *a, const struct bir_val *b);

/* ------------------------------------------------------------------ */
/* IR                                                                  */
/* ------------------------------------------------------------------ */

/* what a function's name index holds, one index each */
enum bir_name_kind { BIR_NK_SET, BIR_NK_LOC, BIR_NK_REG, BIR_NK_BLOCK,
		     BIR_NK_INST, BIR_NK_COUNT };

/**
 * struct bir_names - a name index (open addressing, FNV-1a): name ->
 * object and how many objects of the container carry that name.
 * Maintained by the ir.c API (add, insert, unlink, remove); code that
 * renames an object must do so while it is detached.  @key borrows the
 * carrier's name (pool strings live as long as the module).  @obj is
 * NULL when the name is carried more than once and the first carrier
 * left (the lookups then fall back to a walk in program order).
 */
struct bir_name_ent {
	const char *key;
	void *obj;
	uint32_t hash;
	uint32_t count;
};

struct bir_names {
	struct bir_name_ent *tab;
	uint32_t cap;	/* slots, a power of two or 0 */
	uint32_t used;	/* live + deleted slots */
	uint32_t live;
};
struct bir_block;
struct bir_inst;
struct bir_memloc_set;
struct bir_mem;

/**
 * struct bir_dtype - an element type: resolved once, when it is set, to
 * the plan core's enum kbin_dtype (kmod/plan/kbin_dma.h, the one dtype
 * table of the DMA element types and the float8 types), the name kept
 * as written for the JSON text and messages.
 * @id: the type; KBIN_DTYPE_NONE when absent or a name the table lacks.
 * @name: the name as written (pool string), NULL when absent.
 */
struct bir_dtype {
	enum kbin_dtype id;
	const char *name;
};

/**
 * bir_dtype_set() - set @d to the type named @name (NULL: absent), the
 * name interned in @m.  Return: 0 or -ENOMEM.
 */
int bir_dtype_set(struct bir_module *m, struct bir_dtype *d, const char *name);
/** bir_dtype_size() - bytes per element of @d, 0 when unknown. */
static inline uint32_t bir_dtype_size(const struct bir_dtype *d)
{
	const struct kbin_dma_dtype_info *t = kbin_dtype(d->id);

	return t ? t->size : 0;
}

/**
 * struct bir_memloc - a MemoryLocation: one placement of a tensor.
 * @type: its MemoryType (one bit).
 * @addr: per-partition byte offset (SB, PSUM); byte offset (DRAM).
 * @dims: [partitions, bytes per partition].
 * @bank: PSUM bank.  @base: base partition.
 * @allocated, @pinned, @runtime_reserved: flags (RuntimeMemoryReservation).
 * @tensor_id: the id the set's tensor-id index uses (-1 none).
 * @addr_space_dirty: address-space dirty bits (JSON "addr_space_dirty",
 *	written when not 0): InlineNKIKernel sets bit k on a location it
 *	re-creates from a kernel of source kind k (0, 1, 2).
 * @extra: keys the IR does not model (object), written back in order.
 */
struct bir_memloc {
	const char *name;
	uint64_t id;
	enum bir_mem_type type;
	uint64_t addr;
	uint64_t dims[2];
	uint32_t bank;
	uint32_t base;
	bool allocated;
	bool pinned;
	bool runtime_reserved;
	int64_t tensor_id;
	uint32_t addr_space_dirty;
	struct bir_val extra;
	struct bir_memloc_set *set;
};

/**
 * struct bir_memloc_set - a MemoryLocationSet (a logical tensor).
 * @dtype, @shape/@nshape: element type and tensor_shape (@shape NULL:
 *	no tensor_shape key).
 * @scope: 2 for a set re-created by an inliner.
 * @locs/@nlocs: the locations (vector owned, nodes in the arena).
 * @tid_index/@ntid: tensor_id -> location (buildTensorId2MemLoc).
 */
struct bir_memloc_set {
	const char *name;
	uint64_t id;
	struct bir_dtype dtype;
	uint64_t *shape;
	uint32_t nshape;
	int scope;
	struct bir_memloc **locs;
	uint32_t nlocs, caplocs;
	struct bir_memloc **tid_index;
	uint32_t ntid;
	struct bir_val extra;
	struct bir_function *fn;
};

/** struct bir_register - a Register of function @fn. */
struct bir_register {
	const char *name;
	uint64_t id;
	struct bir_val extra;
	struct bir_function *fn;
};

/** struct bir_ap_pair - one [step, num] of an access pattern. */
struct bir_ap_pair {
	int64_t step;
	int64_t num;
};

/**
 * struct bir_dyn - a run-time term of an access pattern's offset:
 * offset += value(@axis) * @step bytes, where @axis names a loop axis
 * (resolved by Unroll) or a register (resolved at run time).
 */
struct bir_dyn {
	const char *axis;
	int64_t step;
};

enum bir_operand_kind {
	BIR_OPND_AP = 1,	/* physical_ap */
	BIR_OPND_REG,		/* register_access */
	BIR_OPND_IMM,		/* imm_value */
};

/**
 * struct bir_operand - an instruction argument.
 * @kind: physical_ap, register_access or imm_value.
 * @name: physical_ap: the MemoryLocation name (JSON "memref");
 *	register_access: the register name (JSON "reg").  Kept for the JSON
 *	text and messages: the passes follow @ml and @reg.
 * @ml: physical_ap: the location @name names in the function of the
 *	instruction, NULL when it names none there.
 * @reg: register_access: the register @name names, NULL when none.
 *	Both are typed references resolved once from the name: when a
 *	function is read (json.c, after all of it, so a reference may
 *	precede its location), when an instruction is inserted into a
 *	function (its operands not yet bound to that function), and by
 *	bir_operand_set_name(); bir_operand_copy() keeps them within a
 *	module and clears them across modules.
 * @offset: byte offset into the location (per partition).
 * @ap/@nap: [step, num] pairs; the first is the partition dimension
 *	(step in partitions), the others are in elements.
 * @dyn/@ndyn: run-time offset terms.
 * @dtype: element type (name NULL: the location's set's).
 * @imm: imm_value.
 * @extra: keys the IR does not model (object).
 */
struct bir_operand {
	enum bir_operand_kind kind;
	const char *name;
	struct bir_memloc *ml;
	struct bir_register *reg;
	int64_t offset;
	struct bir_ap_pair *ap;
	uint32_t nap;
	uint32_t ndyn;
	struct bir_dyn *dyn;
	struct bir_dtype dtype;
	double imm;
	struct bir_val extra;
};

/**
 * bir_operand_dtype() - the element type of AP operand @o on location
 * @ml: its own, else (@ml not NULL) its location's set's.
 */
static inline const struct bir_dtype *
bir_operand_dtype(const struct bir_operand *o, const struct bir_memloc *ml)
{
	return o->dtype.name || !ml ? &o->dtype : &ml->set->dtype;
}

/** struct bir_loop_axis - the LoopAxis of a Loop: lb <= i < ub by stride. */
struct bir_loop_axis {
	const char *name;
	int64_t lb, ub, stride;
};

/**
 * struct bir_inst - an Instruction.
 * @op: the opcode; @opname the opcode name (the table's for a known
 *	opcode; change both with bir_inst_set_op()).
 * @engine: NULL or the engine name.
 * @ins/@nins, @outs/@nouts: operands (arrays in the arena).
 * @axis, @blocks/@nblocks: Loop only (nested body blocks).
 * @scope: scope bits (JSON "scope", written when not 0); InlineNKIKernel
 *	clears bits 2 and 3 (0xC) on every instruction it clones in.
 * @deps/@ndeps: names of instructions of the function this one must
 *	follow (JSON "deps", written when there are any; pool strings),
 *	kept for the JSON text and messages: the passes follow @dep_insts.
 *	Unroll makes each copy of a body instruction follow the copy of
 *	the previous iteration (its "unroll dep").
 * @dep_insts: for each dep, the instruction it names: a typed reference
 *	(a pointer: instruction nodes live in the arena and never move, so
 *	inserting, unlinking, moving and renaming instructions leave it
 *	valid), resolved once from the name when a function is read
 *	(bir_function_bind(), after all of it, so a dep may name a later
 *	instruction), NULL when the name names none there (kept so that
 *	the text comes back as written; bir_run_passes() refuses it,
 *	bir_function_check_deps()).  Passes set a dep with
 *	bir_inst_add_dep() and bir_inst_set_dep(), which keep the name
 *	that of the instruction; bir_inst_clone() keeps references within
 *	the module, points those into the cloned subtree at their copies,
 *	and clears the others across modules (InlineNKIKernel re-points
 *	its clones' deps through the kernel instructions' references).
 * @attrs: every other key (op keys such as kernel_name, target, func,
 *	and keys the IR does not know), an object in input order.
 * @parent: the block holding it, NULL while detached.
 * @mod: the module it belongs to.
 */
struct bir_inst {
	const char *name;
	uint64_t id;
	enum bir_opcode op;
	const char *opname;
	const char *engine;
	struct bir_operand *ins, *outs;
	uint32_t nins, nouts;
	struct bir_loop_axis *axis;
	struct bir_block **blocks;
	uint32_t nblocks;
	uint32_t scope;
	const char **deps;
	struct bir_inst **dep_insts;
	uint32_t ndeps;
	struct bir_val attrs;
	struct bir_block *parent;
	struct bir_module *mod;
};

/** struct bir_block - a BasicBlock; falls through to the next at its end. */
struct bir_block {
	const char *name;
	uint64_t id;
	struct bir_inst **insts;
	uint32_t ninsts, capinsts;
	struct bir_val extra;
	struct bir_function *fn;
	struct bir_inst *loop;	/* enclosing Loop, NULL at top level */
};

/** struct bir_function - a Function. */
struct bir_function {
	const char *name;
	uint64_t id;
	struct bir_val attrs;
	struct bir_memloc_set **sets;
	uint32_t nsets, capsets;
	struct bir_register **regs;
	uint32_t nregs, capregs;
	struct bir_block **blocks;
	uint32_t nblocks, capblocks;
	struct bir_val extra;
	struct bir_module *mod;
	struct bir_names names[BIR_NK_COUNT];	/* name indexes */
};

/**
 * struct bir_module - a Module.
 * @version: JSON "version" (2).
 * @arch: the JSON "arch" value as written: a name (string, e.g. "trn2")
 *	or an arch level (integer).
 * @arch_level: 10/20/30/40 for gen 1-4 (the generation table's arch
 *	level column, Documentation/hardware.rst).
 * @attrs: "attributes" (object); @extra: keys the IR does not model.
 * @sb_allocated: the SBUF allocator (order 40) has run: the NKI inliner
 *	places the SB locations it creates.
 * @sb_colored: the SB coloring allocator (order 50) has run ("BIR SB
 *	coloring allocator is on"): a BIR kernel expanded after it is
 *	post-coloring and places its own temporaries.
 * @tensor_map: tensor name -> {dtype, shape} (object), null when none.
 * @mem: the arena and string pool (private to ir.c).
 */
struct bir_module {
	int64_t version;
	struct bir_val arch;
	int arch_level;
	struct bir_val attrs;
	struct bir_function **fns;
	uint32_t nfns, capfns;
	struct bir_val extra;
	uint64_t next_id;
	bool sb_allocated;
	bool sb_colored;
	struct bir_val tensor_map;
	struct bir_names fnames;	/* function name -> function */
	struct bir_mem *mem;
};

/**
 * bir_arch_level() - arch level of a name or number value, 0 unknown: a
 * number 10..49, or a generation name or alias of the generation table
 * (kmod/plan/kbin_gen.h, Documentation/hardware.rst).
 */
int bir_arch_level(const struct bir_val *arch);
/** bir_arch_gen() - generation 1-4 of @arch_level (level / 10). */
static inline int bir_arch_gen(int arch_level) { return arch_level / 10; }
/**
 * bir_sb_partition_bytes() - SBUF bytes per partition for @arch_level,
 * from the generation table; 0 if unknown.
 */
uint64_t bir_sb_partition_bytes(int arch_level);
/**
 * bir_sb_partitions() - SBUF partitions for @arch_level, from the
 * generation table; 0 if unknown.
 */
uint32_t bir_sb_partitions(int arch_level);

/** bir_module_new() - an empty module (version 2); NULL on ENOMEM. */
struct bir_module *bir_module_new(int arch_level);
/** bir_module_free() - free @m and everything it owns; NULL ok. */
void bir_module_free(struct bir_module *m);
/**
 * bir_module_mem_bytes() - bytes the module holds: arena chunks, string
 * pool table, name indexes and node vectors (a measurement aid).
 */
size_t bir_module_mem_bytes(const struct bir_module *m);

/**
 * bir_alloc() - @n zeroed bytes, 8-byte aligned, from @m's arena; they
 * live until bir_module_free().  NULL on ENOMEM.
 */
void *bir_alloc(struct bir_module *m, size_t n);
/**
 * bir_str() - the pool copy of @s in @m (equal strings give the same
 * pointer; lives until bir_module_free()).  NULL for a NULL @s or on
 * ENOMEM.
 */
const char *bir_str(struct bir_module *m, const char *s);

/**
 * bir_function_add() - a new empty function named @name (suffixed on a
 * collision).  NULL on ENOMEM.
 */
struct bir_function *bir_function_add(struct bir_module *m, const char *name);
/**
 * bir_function_is_nki_callee() - is @f named by an NKIKernel call site
 * ("func") of another function.  Such a function belongs to its call
 * sites (the compiler stores it on the call site; InlineNKIKernel) and is
 * not a program function: RuntimeMemoryReservation reserves in the
 * program function, never in it, and the SBUF allocator leaves its
 * call-site-relative SB addresses alone.
 */
bool bir_function_is_nki_callee(const struct bir_function *f);
/** bir_function_remove() - unlink and free @f (Module::removeFunction). */
void bir_function_remove(struct bir_module *m, struct bir_function *f);
/** bir_function_find() - the function named @name, or NULL. */
struct bir_function *bir_function_find(const struct bir_module *m,
				       const char *name);

/** bir_set_add() - a new MemoryLocationSet (name suffixed); NULL ENOMEM. */
struct bir_memloc_set *bir_set_add(struct bir_function *f, const char *name);
/**
 * bir_set_set_shape() - set @s's tensor_shape to @n dims (copied).
 * Return: 0 or -ENOMEM.
 */
int bir_set_set_shape(struct bir_memloc_set *s, const uint64_t *dims,
		      uint32_t n);
/**
 * bir_memloc_add() - a new MemoryLocation in @s (name suffixed so that it
 * is unique in the function); type SB, tensor_id -1.  NULL on ENOMEM.
 */
struct bir_memloc *bir_memloc_add(struct bir_memloc_set *s, const char *name);
/** bir_memloc_find() - the location named @name in @f, or NULL. */
struct bir_memloc *bir_memloc_find(const struct bir_function *f,
				   const char *name);
/** bir_memloc_remove() - unlink and free @ml from its set. */
void bir_memloc_remove(struct bir_memloc *ml);
/** bir_set_remove() - unlink and free @s. */
void bir_set_remove(struct bir_memloc_set *s);
/**
 * bir_set_build_tid_index() - rebuild the tensor_id -> MemoryLocation
 * index of @s (MemoryLocationSet::buildTensorId2MemLoc).  0 or -ENOMEM.
 */
int bir_set_build_tid_index(struct bir_memloc_set *s);
/** bir_memloc_bytes() - partitions x bytes per partition. */
static inline uint64_t bir_memloc_bytes(const struct bir_memloc *ml)
{
	return ml->dims[0] * ml->dims[1];
}

/** bir_register_add() - a new register (name suffixed); NULL on ENOMEM. */
struct bir_register *bir_register_add(struct bir_function *f,
				      const char *name);
/** bir_register_find() - the register named @name, or NULL. */
struct bir_register *bir_register_find(const struct bir_function *f,
				       const char *name);

/**
 * bir_block_add() - a new block at index @pos of @f (-1 = at the end),
 * name suffixed.  NULL on ENOMEM.
 */
struct bir_block *bir_block_add(struct bir_function *f, const char *name,
				int pos);
/**
 * bir_loop_block_add() - a new body block named @name at the end of Loop
 * @loop (detached or not; names of nested blocks are not indexed).
 * NULL on ENOMEM.
 */
struct bir_block *bir_loop_block_add(struct bir_inst *loop, const char *name);
/** bir_block_find() - the top-level block named @name, or NULL. */
struct bir_block *bir_block_find(const struct bir_function *f,
				 const char *name);
/** bir_block_index() - index of @b in its function, -1 if nested. */
int bir_block_index(const struct bir_block *b);
/** bir_block_free() - free a block that is in no function. */
void bir_block_free(struct bir_block *b);

/**
 * bir_inst_new() - a new detached instruction of opcode name @opname,
 * named @name (suffixed when inserted), belonging to @m.  NULL on ENOMEM.
 */
struct bir_inst *bir_inst_new(struct bir_module *m, const char *opname,
			      const char *name);
/**
 * bir_inst_set_op() - change @i's opcode to the known opcode @op (its
 * table name becomes @i->opname).  Return: 0, -EINVAL for BIR_OP_OTHER
 * or an unknown value.
 */
int bir_inst_set_op(struct bir_inst *i, enum bir_opcode op);
/**
 * bir_inst_rename() - give detached @i the name @name.  0 or -ENOMEM.
 */
int bir_inst_rename(struct bir_inst *i, const char *name);
/** bir_inst_free() - free a detached instruction. */
void bir_inst_free(struct bir_inst *i);
/**
 * bir_inst_insert() - insert detached @i into @b at @pos (-1 = end);
 * its name is made unique in the function.  0 or -ENOMEM.
 */
int bir_inst_insert(struct bir_block *b, struct bir_inst *i, int pos);
/**
 * bir_inst_add_dep() - append a dep on @to, an instruction of @i's module
 * (its name is the dep's name), to @i's deps; @to NULL: an unresolved
 * dep named @name (copied into @i's module), the JSON reader's until
 * bir_function_bind().  0 or -ENOMEM.
 */
int bir_inst_add_dep(struct bir_inst *i, struct bir_inst *to,
		     const char *name);
/**
 * bir_inst_set_dep() - re-point dep @k of @i at @to, an instruction of
 * @i's module (the dep's name becomes @to's).
 */
static inline void bir_inst_set_dep(struct bir_inst *i, uint32_t k,
				    struct bir_inst *to)
{
	i->dep_insts[k] = to;
	i->deps[k] = to->name;
}
/** bir_inst_unlink() - remove @i from its block (not freed). */
void bir_inst_unlink(struct bir_inst *i);
/** bir_inst_index() - index of @i in its block. */
int bir_inst_index(const struct bir_inst *i);
/**
 * bir_inst_clone() - deep copy of @i (operands, attrs, loop body), which
 * may belong to another module, into @m with new ids; detached; nested
 * names kept.  NULL on ENOMEM.
 */
struct bir_inst *bir_inst_clone(struct bir_module *m, const struct bir_inst *i);
/** bir_inst_find() - the instruction named @name in @f (any depth). */
struct bir_inst *bir_inst_find(const struct bir_function *f,
			       const char *name);
/**
 * bir_operand_add() - append a zeroed operand of @kind naming @name (may
 * be NULL) to @i's ins or outs.  Pointers to @i's earlier operands of
 * that side are invalidated.  NULL on ENOMEM.
 */
struct bir_operand *bir_operand_add(struct bir_inst *i, bool out,
				    enum bir_operand_kind kind,
				    const char *name);
/**
 * bir_operand_copy() - deep copy @src (an operand of any module) into
 * @dst, allocated in @m.  0 or -ENOMEM.
 */
int bir_operand_copy(struct bir_module *m, struct bir_operand *dst,
		     const struct bir_operand *src);
/**
 * bir_operand_set_name() - make operand @o of instruction @i name @name
 * (copied into @i's module) and bind it again (@i in a function: the
 * location or register @name names there; detached: unbound until
 * inserted).  Return: 0 or -ENOMEM.
 */
int bir_operand_set_name(struct bir_inst *i, struct bir_operand *o,
			 const char *name);
/**
 * bir_function_bind() - bind every operand of @f (loop bodies included)
 * to the location or register its name names in @f, and every dep to
 * the instruction its name names in @f, NULL for none: the JSON
 * reader's one resolution of the names of a function.
 */
void bir_function_bind(struct bir_function *f);
/**
 * bir_function_check_deps() - is every dep of @f resolved (names an
 * instruction of @f).  bir_run_passes() calls it on every function
 * before the first pass.
 * Return: 0, or -EINVAL with "function 'F': instruction 'I': dep 'D'
 * names no instruction of the function" in @err for the first one that
 * is not.
 */
int bir_function_check_deps(const struct bir_function *f,
			    struct nscc_err *err);
/** bir_operand_remove() - drop operand @k of @i's ins or outs. */
void bir_operand_remove(struct bir_inst *i, bool out, uint32_t k);
/** bir_ap_set() - set an AP operand's pairs (copied). 0 or -ENOMEM. */
int bir_ap_set(struct bir_module *m, struct bir_operand *o,
	       const struct bir_ap_pair *p, uint32_t n);
/** bir_dyn_add() - append the run-time term (@axis, @step). 0/-ENOMEM. */
int bir_dyn_add(struct bir_module *m, struct bir_operand *o,
		const char *axis, int64_t step);

/**
 * bir_name_taken() - is @name used by any object of @kind in @f
 * (instructions: at any depth).  O(1): the function's name index.
 */
bool bir_name_taken(const struct bir_function *f, enum bir_name_kind kind,
		    const char *name);

/**
 * bir_function_check_index() - rebuild the name counts of @f by walking
 * it and compare them with its name indexes, then check that every
 * operand references (@ml, @reg) what its name names in @f, and that
 * every dep references an instruction of that name (of @f when it is in
 * a function), or none when no instruction of @f has it (a test aid).
 * Return: 0, or -EINVAL with the first difference in @err.
 */
int bir_function_check_index(const struct bir_function *f,
			     struct nscc_err *err);

/**
 * bir_block_move_tail() - move the instructions of @from at index @at and
 * after to the end of @to, a block of the same function, in one step
 * (the names stay in the function).
 * Return: 0 or -ENOMEM (nothing moved).
 */
int bir_block_move_tail(struct bir_block *from, uint32_t at,
			struct bir_block *to);

/**
 * bir_foreach_inst() - call @cb for every instruction of @f, loop bodies
 * included, in program order; stops at the first non-zero return.
 */
int bir_foreach_inst(struct bir_function *f,
		     int (*cb)(struct bir_inst *i, void *arg), void *arg);

/* instruction attributes (NULL/default when absent or of another kind) */
/** bir_attr_get() - attribute @key of @i, or NULL. */
const struct bir_val *bir_attr_get(const struct bir_inst *i, const char *key);
/** bir_attr_str() - string attribute @key, or NULL. */
const char *bir_attr_str(const struct bir_inst *i, const char *key);
/** bir_attr_int() - integer (or bool as 0/1) attribute @key, or @def. */
int64_t bir_attr_int(const struct bir_inst *i, const char *key, int64_t def);
/** bir_attr_num() - integer or real attribute @key, or @def. */
double bir_attr_num(const struct bir_inst *i, const char *key, double def);
/** bir_attr_set() - bir_val_set() on @i's attributes. 0/-ENOMEM. */
int bir_attr_set(struct bir_inst *i, const char *key, const struct bir_val *v);
/** bir_attr_del() - remove attribute @key of @i. */
void bir_attr_del(struct bir_inst *i, const char *key);

/* ------------------------------------------------------------------ */
/* BIR JSON (json.c): the only user of jansson                         */
/* ------------------------------------------------------------------ */

/**
 * bir_module_from_string() - build a module from @len bytes of BIR JSON
 * text (Documentation/compiler-passes.rst, KLR-compatible).  Keys the IR
 * does not model are kept, in order.  The text is read piecewise (one
 * instruction, set or small value at a time), so no JSON tree of the
 * whole module is ever built.
 * Return: 0; -EINVAL with "bir: JSON line L column C: ..." for text that
 * is not JSON (duplicate keys included), or a message naming the
 * object, field and value; -ENOMEM.
 */
int bir_module_from_string(const char *text, size_t len,
			   struct bir_module **out, struct nscc_err *err);
/** bir_module_from_file() - as above, from a file (-ENOENT etc.). */
int bir_module_from_file(const char *path, struct bir_module **out,
			 struct nscc_err *err);
/**
 * bir_module_to_string() - canonical text (2-space indent, modeled keys
 * in a fixed order, then kept keys in input order, final newline),
 * written piecewise; malloc'd, NULL on ENOMEM.  Writing a module twice,
 * or writing what was read from canonical text, gives byte-identical
 * text.
 */
char *bir_module_to_string(const struct bir_module *m);
/**
 * bir_function_to_string() - one function (Function::toJson) as compact
 * JSON text; malloc'd, NULL on ENOMEM.
 */
char *bir_function_to_string(const struct bir_function *f);
/**
 * bir_function_from_string() - add the function in JSON text @text to
 * @m.  Return: as bir_module_from_string(); @out may be NULL.
 */
int bir_function_from_string(struct bir_module *m, const char *text,
			     size_t len, struct bir_function **out,
			     struct nscc_err *err);
/**
 * bir_val_from_string() - the JSON value in @text as a typed value of
 * @m.  Return: 0; -EINVAL (message names line and column); -ENOMEM.
 */
int bir_val_from_string(struct bir_module *m, const char *text,
			struct bir_val *out, struct nscc_err *err);
/**
 * bir_tensor_map_load() - read the tensor map file @path into
 * m->tensor_map; a missing or unreadable file gives an empty map.
 * Return: 0; -EINVAL the file holds JSON that is not an object; -ENOMEM.
 */
int bir_tensor_map_load(struct bir_module *m, const char *path,
			struct nscc_err *err);
/**
 * bir_tensor_map_save() - write m->tensor_map to @path (2-space indent,
 * keys sorted).  Return: 0 or -EIO / -ENOMEM with @err set.
 */
int bir_tensor_map_save(const struct bir_module *m, const char *path,
			struct nscc_err *err);

/* ------------------------------------------------------------------ */
/* Passes (passmgr.c and pass_*.c)                                     */
/* ------------------------------------------------------------------ */

#define BIR_EVTACCEL_NAME	"EvalAccelReservedLoc"

/**
 * struct bir_stats - what a pass run counted (filled when
 * bir_opts.stats is set; the caller zeroes it).
 * @warnings: warnings reported (bir_warn()), printed or not.
 */
struct bir_stats {
	uint32_t warnings;
};

/**
 * struct bir_opts - options of a pass run.
 * @log: where passes log (NULL: silent).
 * @rsv_offset: RuntimeMemoryReservation config offset (the compiler's
 *	pass-config field at +0x1E4): bytes per partition; 0 = SBUF
 *	partition bytes - 8 (229368 on trn2).
 * @rsv_name: the reserved location name; NULL = BIR_EVTACCEL_NAME.
 * @rsv_path: the size path: 1 capacity - config offset, placed at the
 *	offset; 2 the pinned-SB high-water mark, placed at 0; 0 (default)
 *	the compiler's choice, by comparing @rsv_name with
 *	BIR_EVTACCEL_NAME (equal: 1, different: 2).
 * @warn: where warnings are printed ("<@warn_prefix>warning: MSG"),
 *	NULL: not printed (still counted).
 * @warn_prefix: NULL or text before "warning: " (the command's
 *	"neuronsim-cc: FILE: ").
 * @werror: a warning fails the pass that reports it (-EINVAL).
 * @stats: NULL or counters the passes add to.
 * @enable_bir_kernel: the compiler's enableBirKernel: inline BIR kernels
 *	at order 48, before the SB coloring allocator, and not at 60; false
 *	(the default, neuronsim-cc --enable-bir-kernel sets it): at 60.
 * @tensor_map_path: the tensor_map.json inline_nki_kernel loads (a
 *	missing file: an empty map) and writes back with the sets it
 *	creates (neuronsim-cc --tensor-map); NULL = no tensor map (the
 *	compiler's needNoTensorMap()).
 * @dump_after, @dump: print the module after the pass of that name.
 */
struct bir_opts {
	FILE *log;
	uint32_t rsv_offset;
	const char *rsv_name;
	int rsv_path;
	FILE *warn;
	const char *warn_prefix;
	bool werror;
	struct bir_stats *stats;
	bool enable_bir_kernel;
	const char *tensor_map_path;
	const char *dump_after;
	FILE *dump;
};

/** struct bir_pass - one schedule entry. */
struct bir_pass {
	int order;
	const char *name;
	bool flag;	/* placement flag (the pass constructor's bool) */
	int (*run)(struct bir_module *m, const struct bir_opts *o, bool flag,
		   struct nscc_err *err);
};

/** bir_log() - printf to o->log when set. */
void bir_log(const struct bir_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/**
 * bir_warn() - report a warning (the compiler's reportError with
 * fatal=false): counted in o->stats, printed to o->warn as
 * "<o->warn_prefix>warning: MSG".
 * Return: 0 (go on), or -EINVAL with "MSG (a warning; -Werror makes it
 * an error)" in @err when o->werror.
 */
int bir_warn(const struct bir_opts *o, struct nscc_err *err,
	     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/**
 * bir_schedule() - the backend schedule: 39 runtime_memory_reservation,
 * 40 sb_allocator, 41 inline_nki_kernel(false), 42 coalesce, 48
 * inline_bir_kernel(false), 50 sb_coloring_allocator, 60
 * inline_bir_kernel(true), 61 inline_nki_kernel(true), 62 coalesce.  @n
 * is set to the count.
 */
const struct bir_pass *bir_schedule(uint32_t *n);

/**
 * bir_run_passes() - run the schedule in order on @m, logging each pass's
 * time ("pass NN NAME: S s") to o->log.  When o->dump_after names a
 * pass, the module is printed to o->dump after it.
 * Return: 0; the first failing pass's error, message prefixed with its
 * name; -ENOENT when dump_after names no pass.
 */
int bir_run_passes(struct bir_module *m, const struct bir_opts *o,
		   struct nscc_err *err);

/**
 * RuntimeMemoryReservation (pass_rtmemres.c).  A module without exactly
 * one Function is a warning (bir_warn(); -EINVAL under o->werror); the
 * reservation goes into the first program function.  -EINVAL the
 * config offset is not below the SBUF partition size, or o->rsv_path is
 * not 0, 1 or 2.
 */
int bir_pass_rtmemres(struct bir_module *m, const struct bir_opts *o,
		      bool flag, struct nscc_err *err);
/** RuntimeMemoryReservation's aligned(): round @n up to a multiple of 8. */
static inline uint64_t bir_rtmemres_aligned(uint64_t n)
{
	return (n & 7) ? n + 8 - (n & 7) : n;
}
/**
 * SBUF allocator (pass_sballoc.c): order 40 (@flag false) and the SB
 * coloring allocator's place at order 50 (@flag true, sets
 * m->sb_colored).  -ENOSPC when exhausted.
 */
int bir_pass_sballoc(struct bir_module *m, const struct bir_opts *o,
		     bool flag, struct nscc_err *err);
/**
 * bir_sballoc_function() - place every unallocated SB location of @f
 * (first fit per partition range, around allocated and reserved ones).
 */
int bir_sballoc_function(struct bir_function *f, struct nscc_err *err);
/**
 * InlineNKIKernel (pass_inline_nki.c).  -ELOOP the NKIKernel calls form
 * a cycle (a kernel calling itself included; the message names the
 * functions and call sites, nothing is changed); -EINVAL a bad call site.
 */
int bir_pass_inline_nki(struct bir_module *m, const struct bir_opts *o,
			bool flag, struct nscc_err *err);
/**
 * InlineBIRKernel (pass_inline_bir.c).  @flag is the pass position the
 * wrappers get (posFlag): false at 48, pre-coloring (temporaries left
 * unallocated for the SB coloring allocator), true at 60, post-coloring
 * (each wrapper places its temporaries).  On error @m is unchanged.
 */
int bir_pass_inline_bir(struct bir_module *m, const struct bir_opts *o,
			bool flag, struct nscc_err *err);
/** coalesce_multichannel_cc_ops (pass_coalesce.c), orders 42 and 62. */
int bir_pass_coalesce(struct bir_module *m, const struct bir_opts *o,
		      bool flag, struct nscc_err *err);
/**
 * address_rotation_psum (pass_psum_rotation.c), order 46: every PSUM
 * location of a program function that is neither allocated nor pinned is
 * placed in a bank (KBIN_PSUM_BANK_SIZE bytes per partition, the
 * generation's psum_banks), 8-byte aligned, first fit, the banks taken in
 * turn in the order of first use; bank and addr (bank x bank size +
 * offset) set, allocated.  -EINVAL a location outside the PSUM
 * partitions, over a bank, or in a module of no known generation;
 * -ENOSPC no bank has room (@err names the location).
 */
int bir_pass_psum_rotation(struct bir_module *m, const struct bir_opts *o,
			   bool flag, struct nscc_err *err);

/* KLR cleanup passes run on the NKI temp module (pass_klr.c) */
/**
 * Unroll: Loop instructions -> per-iteration clones; a CollectiveCompute
 * clone's channel becomes channel x trip count + iteration index.
 * -EINVAL a branch in a Loop body or a channel that overflows.
 */
int bir_unroll(struct bir_module *m, struct nscc_err *err);
/** LowerGenericIndirect: GenericIndirectLoad -> TensorCopy + dyn term. */
int bir_lower_generic_indirect(struct bir_module *m, struct nscc_err *err);
/**
 * ConstantPropagate: copies of zero tensors -> Memset 0; dead results
 * (locations written and never read, with their writers) removed.
 * @params, @nparams: the kernel's parameter names (the call site's
 *	func_args and func_outs); a parameter is the kernel's effect and is
 *	never removed, whatever its MemoryType, nor are its writers; NULL, 0
 *	for none.  Input, Output, pinned and runtime-reserved locations are
 *	kept too.
 * Return: 0 or -ENOMEM.
 */
int bir_constant_propagate(struct bir_module *m, const char *const *params,
			   uint32_t nparams, struct nscc_err *err);

/* ------------------------------------------------------------------ */
/* Lowering (lower.c) and the neuronsim-cc entry points (cli.c)        */
/* ------------------------------------------------------------------ */

/**
 * bir_lower_model() - add the final module's var table to @model as
 * subgraph "sg00" (Documentation/compiler-passes.rst, "Lowering"): var
 * 0 "state-buffer" (MR_SB), then one var per Input (MR_INPUT), Output
 * (MR_OUTPUT) and DRAM (MR_TMP_BUF: its own HBM allocation)
 * MemoryLocation in set and location order, size partitions x bytes per
 * partition, alignment 64, dtype and shape those of its set (dtype,
 * tensor_shape; nscc_compile_model() refuses a dtype over 15 characters
 * or a shape over 8 dimensions); each runtime-reserved SB location becomes an
 * evtaccel SBUF carve-out (nscc_model_add_carveout()).
 * Return: 0; -EINVAL (not exactly one function, an SB location not
 * allocated, a location of size 0 or too large, a location named
 * "state-buffer", a carve-out the model refuses; @err names it); -E2BIG
 * too many carve-outs; -ENOMEM.  On error @model may hold a partial
 * subgraph: free it.
 */
int bir_lower_model(const struct bir_module *m, struct nscc_model *model,
		    struct nscc_err *err);

/*
 * The lowering's shared pieces (lower.c), used by lower_prog.c: where a
 * DMA refusal points (the instruction and its operand, "ins[0]",
 * "outs[0]" or NULL for the instruction), the var_id a DRAM location
 * becomes (0: none), and one side of a DMA descriptor from a physical_ap
 * operand (Documentation/compiler-passes.rst, "DMA").
 */
struct kbin_gen;

struct dma_at {
	const struct bir_inst *i;
	const char *opnd;
	const struct bir_operand *o;
	struct nscc_err *err;
};

uint32_t bir_lower_var_id(const struct bir_function *f,
			  const struct bir_memloc *want);
int bir_lower_dma_side(const struct bir_function *f, const struct kbin_gen *g,
		       const struct dma_at *at, const struct bir_operand *o,
		       struct kbin_dma_side *sd, uint32_t *mem_type);

/**
 * bir_lower_prog() - the engine program of the final module (after
 * bir_lower_model() on the same @model): the five streams of neuronsim's
 * compute encoding with their triggers and waits, the staging DMA blocks
 * and queues, and KBIN_PROG_F_COMPUTE (Documentation/compiler-passes.rst,
 * "Lowering to engine programs").
 * @m: the final module.
 * @model: the model bir_lower_model() built; left untouched on a refusal.
 * @why: out: on a refusal, the message ("lowering: instruction 'NAME'
 *	(OPCODE) cannot be lowered to an engine program: ...").
 *
 * Return: 0 the program is set; 1 refused (@why says why; the plan is
 * written without a program); -ENOMEM (@why says so).
 */
int bir_lower_prog(const struct bir_module *m, struct nscc_model *model,
		   struct nscc_err *why);

/**
 * nscc_bir_compile_module() - the final module @m (after bir_run_passes())
 * -> lowering (bir_lower_model(), bir_lower_prog()) -> KBIN plan (@buf
 * malloc'd, @len bytes): the in-memory half of nscc_bir_compile_file().
 * @why: out: the engine program's refusal (the plan is then written
 *	without a program), an empty message when the plan has one.
 * Return: 0 or the first error (-errno) with @err filled.
 */
int nscc_bir_compile_module(const struct bir_module *m, void **buf,
			    size_t *len, struct nscc_err *why,
			    struct nscc_err *err);
/**
 * nscc_bir_neff_module() - as nscc_bir_compile_module(), but once the
 * lowered model compiles (the same checks and messages), @buf gets the
 * NEFF of that model instead of its plan (nscc_model_to_neff(), header
 * fields from @nopts, NULL: the defaults): the NEFF reader turns it into
 * the same plan byte for byte (Documentation/compiler.rst, "Writing a
 * NEFF"), which is checked before the NEFF is handed out.
 * Return: 0 or the first error (-errno) with @err filled; -EPROTO when
 * the NEFF would compile into another plan (a writer bug).
 */
int nscc_bir_neff_module(const struct bir_module *m,
			 const struct nscc_neff_opts *nopts, void **buf,
			 size_t *len, struct nscc_err *why,
			 struct nscc_err *err);
/**
 * nscc_bir_compile_file() - BIR JSON file -> all passes -> lowering ->
 * KBIN plan (@buf malloc'd, @len bytes).
 * Return: 0 or the first error (-errno) with @err filled.
 */
int nscc_bir_compile_file(const char *path, void **buf, size_t *len,
			  struct nscc_err *err);
/**
 * struct nscc_prog_names - the names of a lowered program's instructions:
 *	per stream (enum kbin_dma_engine - 1) @num[e] names, the BIR
 *	instruction each record came from (a wait, a trigger or a compute
 *	instruction), each owned, or NULL; subgraph 0 (the lowering's only).
 * @name: per stream, the names, or NULL when there are none.
 * @num: per stream, entries of @name[e].
 */
struct nscc_prog_names {
	char **name[KBIN_PROG_ENGINES];
	uint32_t num[KBIN_PROG_ENGINES];
};
/**
 * nscc_bir_compile_file_names() - nscc_bir_compile_file() that also hands
 * out the names of the program's instructions (@names, zeroed first; free
 * them with nscc_prog_names_free(), also after a failure).
 * Return: as nscc_bir_compile_file().
 */
int nscc_bir_compile_file_names(const char *path, void **buf, size_t *len,
				struct nscc_prog_names *names,
				struct nscc_err *err);
/** nscc_prog_names_free() - free the names and zero @names. */
void nscc_prog_names_free(struct nscc_prog_names *names);
/**
 * nscc_bir_passes_file() - run the passes on a BIR JSON file and print
 * the module after the pass named @dump_after (NULL: after the last)
 * to @out, pass timings to @log (may be NULL).
 */
int nscc_bir_passes_file(const char *path, const char *dump_after,
			 FILE *out, FILE *log, struct nscc_err *err);
/**
 * nscc_bir_compile_file_opts() - nscc_bir_compile_file() with the pass
 * options @o (the neuronsim-cc switches, Documentation/
 * compiler-passes.rst); @o->dump_after and @o->dump are ignored.
 * Return: as nscc_bir_compile_file().
 */
int nscc_bir_compile_file_opts(const char *path, const struct bir_opts *o,
			       void **buf, size_t *len, struct nscc_err *err);
/**
 * nscc_bir_neff_file_opts() - nscc_bir_compile_file_opts() writing the
 * NEFF of the lowered model (nscc_bir_neff_module()) instead of its plan:
 * neuronsim-cc compile --neff.
 * Return: as nscc_bir_compile_file().
 */
int nscc_bir_neff_file_opts(const char *path, const struct bir_opts *o,
			    const struct nscc_neff_opts *nopts, void **buf,
			    size_t *len, struct nscc_err *err);
/**
 * nscc_bir_passes_file_opts() - nscc_bir_passes_file() with the pass
 * options @o: the module is printed to @out after the pass
 * @o->dump_after names (NULL: after the last); @o->dump is ignored.
 * Return: as nscc_bir_passes_file().
 */
int nscc_bir_passes_file_opts(const char *path, const struct bir_opts *o,
			      FILE *out, struct nscc_err *err);

#endif /* NEURONSIM_BIR_H */
