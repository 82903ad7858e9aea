// SPDX-License-Identifier: GPL-2.0
/*
 * ir.c - BIR IR containers: Module, Function, BasicBlock, Instruction,
 * MemoryLocationSet, MemoryLocation, Register (Documentation/compiler-passes.rst).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "kbin_gen.h"

static const struct { const char *name; int op; } opcodes[] = {
	{ "CollectiveCompute", BIR_OP_COLLECTIVE_COMPUTE },
	{ "BIRKernel", BIR_OP_BIR_KERNEL },
	{ "NKIKernel", BIR_OP_NKI_KERNEL },
	{ "NKIKLIRKernel", BIR_OP_NKI_KLIR_KERNEL },
	{ "CompareAndBranch", BIR_OP_COMPARE_AND_BRANCH },
	{ "UnconditionalBranch", BIR_OP_UNCONDITIONAL_BRANCH },
	{ "Loop", BIR_OP_LOOP },
	{ "TensorCopy", BIR_OP_TENSOR_COPY },
	{ "Memset", BIR_OP_MEMSET },
	{ "Activation", BIR_OP_ACTIVATION },
	{ "TensorTensor", BIR_OP_TENSOR_TENSOR },
	{ "TensorScalar", BIR_OP_TENSOR_SCALAR },
	{ "TensorReduce", BIR_OP_TENSOR_REDUCE },
	{ "MatMult", BIR_OP_MATMULT },
	{ "Transpose", BIR_OP_TRANSPOSE },
	{ "RegisterLoad", BIR_OP_REGISTER_LOAD },
	{ "GenericIndirectLoad", BIR_OP_GENERIC_INDIRECT_LOAD },
};

int bir_opcode_from_name(const char *name)
{
	for (size_t k = 0; k < sizeof(opcodes) / sizeof(opcodes[0]); k++)
		if (!strcmp(opcodes[k].name, name))
			return opcodes[k].op;
	return BIR_OP_OTHER;
}

const char *bir_opcode_name(int op)
{
	for (size_t k = 0; k < sizeof(opcodes) / sizeof(opcodes[0]); k++)
		if (opcodes[k].op == op)
			return opcodes[k].name;
	return NULL;
}

static const char *const memtype_names[8] = {
	"Unallocated", "Input", "Output", "DRAM", "SB", "PSUM", "RNGSTATE",
	"REG",
};

const char *bir_mem_type_name(uint32_t type)
{
	for (int b = 0; b < 8; b++)
		if (type == (1U << b))
			return memtype_names[b];
	return NULL;
}

uint32_t bir_mem_type_from_name(const char *name)
{
	for (int b = 0; b < 8; b++)
		if (!strcmp(memtype_names[b], name))
			return 1U << b;
	return 0;
}

uint32_t bir_dtype_size(const char *dtype)
{
	static const struct { const char *n; uint32_t sz; } t[] = {
		{ "float32", 4 }, { "int32", 4 }, { "uint32", 4 },
		{ "bfloat16", 2 }, { "float16", 2 }, { "int16", 2 },
		{ "uint16", 2 }, { "int8", 1 }, { "uint8", 1 },
		{ "float8_e4m3", 1 }, { "float8_e5m2", 1 }, { "int64", 8 },
	};

	if (!dtype)
		return 0;
	for (size_t k = 0; k < sizeof(t) / sizeof(t[0]); k++)
		if (!strcmp(t[k].n, dtype))
			return t[k].sz;
	return 0;
}

int bir_arch_level(const json_t *arch)
{
	const struct kbin_gen *g;

	if (json_is_integer(arch)) {
		json_int_t v = json_integer_value(arch);

		return (v >= 10 && v < 50) ? (int)v : 0;
	}
	if (!json_is_string(arch))
		return 0;
	g = kbin_gen_by_name(json_string_value(arch));
	return g ? (int)g->arch_level : 0;
}

uint64_t bir_sb_partition_bytes(int arch_level)
{
	const struct kbin_gen *g = kbin_gen_by_number(bir_arch_gen(arch_level));

	return g ? g->sbuf_partition_size : 0;
}

uint32_t bir_sb_partitions(int arch_level)
{
	const struct kbin_gen *g = kbin_gen_by_number(bir_arch_gen(arch_level));

	return g ? g->sbuf_partitions : 0;
}

/* grow a pointer vector: *v has *cap slots; make room for one more */
static int vec_grow(void *vp, uint32_t n, uint32_t *cap)
{
	void ***v = vp;
	void **nv;
	uint32_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 8;
	nv = realloc(*v, (size_t)nc * sizeof(void *));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = nc;
	return 0;
}

static void vec_insert(void **v, uint32_t *n, uint32_t pos, void *p)
{
	memmove(&v[pos + 1], &v[pos], (size_t)(*n - pos) * sizeof(void *));
	v[pos] = p;
	(*n)++;
}

static void vec_remove(void **v, uint32_t *n, void *p)
{
	for (uint32_t k = 0; k < *n; k++) {
		if (v[k] == p) {
			memmove(&v[k], &v[k + 1],
				(size_t)(*n - k - 1) * sizeof(void *));
			(*n)--;
			return;
		}
	}
}

/* ---- name indexes --------------------------------------------------- */

/* a deleted slot: probing continues past it, inserting may reuse it */
static char names_tomb;
#define NAMES_TOMB (&names_tomb)

static uint32_t names_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static struct bir_name_ent *names_get(const struct bir_names *t,
				      const char *key)
{
	uint32_t h, m, k;

	if (!t->cap)
		return NULL;
	h = names_hash(key);
	m = t->cap - 1;
	for (k = h & m;; k = (k + 1) & m) {
		struct bir_name_ent *e = &t->tab[k];

		if (!e->key)
			return NULL;
		if (e->key != NAMES_TOMB && e->hash == h && !strcmp(e->key, key))
			return e;
	}
}

/* rehash into @cap slots (a power of two), dropping deleted slots */
static int names_resize(struct bir_names *t, uint32_t cap)
{
	struct bir_name_ent *nt = calloc(cap, sizeof(*nt));

	if (!nt)
		return -ENOMEM;
	for (uint32_t k = 0; k < t->cap; k++) {
		struct bir_name_ent *e = &t->tab[k];
		uint32_t j;

		if (!e->key || e->key == NAMES_TOMB)
			continue;
		for (j = e->hash & (cap - 1); nt[j].key; j = (j + 1) & (cap - 1))
			;
		nt[j] = *e;
	}
	free(t->tab);
	t->tab = nt;
	t->cap = cap;
	t->used = t->live;
	return 0;
}

/* one more carrier of @key; @obj becomes the object if it is the first */
static int names_add(struct bir_names *t, const char *key, void *obj)
{
	struct bir_name_ent *e = names_get(t, key), *slot = NULL;
	uint32_t h, m, k;

	if (e) {
		e->count++;
		return 0;
	}
	if ((uint64_t)(t->used + 1) * 4 > (uint64_t)t->cap * 3) {
		uint32_t cap = t->cap ? t->cap : 16;

		while ((uint64_t)(t->live + 1) * 2 > cap)
			cap *= 2;
		if (names_resize(t, cap))
			return -ENOMEM;
	}
	h = names_hash(key);
	m = t->cap - 1;
	for (k = h & m;; k = (k + 1) & m) {
		if (!t->tab[k].key) {
			slot = slot ? slot : &t->tab[k];
			break;
		}
		if (t->tab[k].key == NAMES_TOMB && !slot)
			slot = &t->tab[k];
	}
	if (!slot->key)
		t->used++;
	slot->key = strdup(key);
	if (!slot->key) {
		slot->key = NAMES_TOMB;
		return -ENOMEM;
	}
	slot->hash = h;
	slot->obj = obj;
	slot->count = 1;
	t->live++;
	return 0;
}

/* one carrier (@obj) of @key fewer */
static void names_del(struct bir_names *t, const char *key, const void *obj)
{
	struct bir_name_ent *e = names_get(t, key);

	if (!e)
		return;
	if (e->obj == obj)
		e->obj = NULL;
	if (--e->count)
		return;
	free(e->key);
	e->key = NAMES_TOMB;
	e->obj = NULL;
	t->live--;
}

static void names_free(struct bir_names *t)
{
	for (uint32_t k = 0; k < t->cap; k++)
		if (t->tab[k].key != NAMES_TOMB)
			free(t->tab[k].key);
	free(t->tab);
	memset(t, 0, sizeof(*t));
}

/* the object of @key when exactly one carries it; *count the carriers */
static void *names_obj(const struct bir_names *t, const char *key,
		       uint32_t *count)
{
	const struct bir_name_ent *e = names_get(t, key);

	*count = e ? e->count : 0;
	return e && e->count == 1 ? e->obj : NULL;
}

/* index (@add) or unindex an attached instruction and its loop bodies */
static int index_inst(struct bir_function *f, struct bir_inst *i, bool add)
{
	if (add) {
		if (names_add(&f->names[BIR_NK_INST], i->name, i))
			return -ENOMEM;
	} else {
		names_del(&f->names[BIR_NK_INST], i->name, i);
	}
	for (uint32_t j = 0; j < i->nblocks; j++)
		for (uint32_t k = 0; k < i->blocks[j]->ninsts; k++)
			if (index_inst(f, i->blocks[j]->insts[k], add))
				return -ENOMEM;
	return 0;
}

/* ---- name uniqueness ------------------------------------------------ */

bool bir_name_taken(const struct bir_function *f, int kind, const char *name)
{
	if (kind < 0 || kind >= BIR_NK_COUNT)
		kind = BIR_NK_INST;
	return names_get(&f->names[kind], name) != NULL;
}

/* @base, or @base.N with the smallest N >= 1 not taken */
static char *unique_name(const struct bir_function *f, int kind,
			 const char *base)
{
	char *s;

	if (!f || !bir_name_taken(f, kind, base))
		return strdup(base);
	for (unsigned long n = 1;; n++) {
		if (asprintf(&s, "%s.%lu", base, n) < 0)
			return NULL;
		if (!bir_name_taken(f, kind, s))
			return s;
		free(s);
	}
}

/* ---- module / function ---------------------------------------------- */

struct bir_module *bir_module_new(int arch_level)
{
	struct bir_module *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->version = 2;
	m->arch_level = arch_level;
	m->arch = json_integer(arch_level);
	m->attrs = json_object();
	m->extra = json_object();
	if (!m->arch || !m->attrs || !m->extra) {
		bir_module_free(m);
		return NULL;
	}
	return m;
}

static void set_free(struct bir_memloc_set *s);
static void fn_free(struct bir_function *f);

void bir_module_free(struct bir_module *m)
{
	if (!m)
		return;
	for (uint32_t k = 0; k < m->nfns; k++)
		fn_free(m->fns[k]);
	free(m->fns);
	json_decref(m->arch);
	json_decref(m->attrs);
	json_decref(m->extra);
	json_decref(m->tensor_map);
	names_free(&m->fnames);
	free(m);
}

struct bir_function *bir_function_find(const struct bir_module *m,
				       const char *name)
{
	uint32_t n;
	struct bir_function *f = names_obj(&m->fnames, name, &n);

	if (f || !n)
		return f;
	for (uint32_t k = 0; k < m->nfns; k++)
		if (!strcmp(m->fns[k]->name, name))
			return m->fns[k];
	return NULL;
}

struct bir_function *bir_function_add(struct bir_module *m, const char *name)
{
	struct bir_function *f;
	char *nm = NULL;

	if (vec_grow(&m->fns, m->nfns, &m->capfns))
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	if (!bir_function_find(m, name)) {
		nm = strdup(name);
	} else {
		for (unsigned long n = 1; !nm; n++) {
			if (asprintf(&nm, "%s.%lu", name, n) < 0)
				break;
			if (bir_function_find(m, nm)) {
				free(nm);
				nm = NULL;
			}
		}
	}
	f->name = nm;
	f->attrs = json_object();
	f->extra = json_object();
	if (!f->name || !f->attrs || !f->extra ||
	    names_add(&m->fnames, f->name, f)) {
		fn_free(f);
		return NULL;
	}
	f->id = ++m->next_id;
	f->mod = m;
	m->fns[m->nfns++] = f;
	return f;
}

static void fn_free(struct bir_function *f)
{
	for (uint32_t k = 0; k < f->nsets; k++)
		set_free(f->sets[k]);
	for (uint32_t k = 0; k < f->nregs; k++) {
		free(f->regs[k]->name);
		json_decref(f->regs[k]->extra);
		free(f->regs[k]);
	}
	for (uint32_t k = 0; k < f->nblocks; k++)
		bir_block_free(f->blocks[k]);
	free(f->sets);
	free(f->regs);
	free(f->blocks);
	free(f->name);
	json_decref(f->attrs);
	json_decref(f->extra);
	for (int k = 0; k < BIR_NK_COUNT; k++)
		names_free(&f->names[k]);
	free(f);
}

void bir_function_remove(struct bir_module *m, struct bir_function *f)
{
	names_del(&m->fnames, f->name, f);
	vec_remove((void **)m->fns, &m->nfns, f);
	fn_free(f);
}

/* ---- storages ----------------------------------------------------------- */

struct bir_memloc_set *bir_set_add(struct bir_function *f, const char *name)
{
	struct bir_memloc_set *s;

	if (vec_grow(&f->sets, f->nsets, &f->capsets))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->name = unique_name(f, BIR_NK_SET, name);
	s->extra = json_object();
	if (!s->name || !s->extra ||
	    names_add(&f->names[BIR_NK_SET], s->name, s)) {
		set_free(s);
		return NULL;
	}
	s->id = ++f->mod->next_id;
	s->fn = f;
	f->sets[f->nsets++] = s;
	return s;
}

static void memloc_free(struct bir_memloc *ml)
{
	free(ml->name);
	json_decref(ml->extra);
	free(ml);
}

static void set_free(struct bir_memloc_set *s)
{
	for (uint32_t k = 0; k < s->nlocs; k++)
		memloc_free(s->locs[k]);
	free(s->locs);
	free(s->tid_index);
	free(s->name);
	free(s->dtype);
	free(s->shape);
	json_decref(s->extra);
	free(s);
}

void bir_set_remove(struct bir_memloc_set *s)
{
	names_del(&s->fn->names[BIR_NK_SET], s->name, s);
	for (uint32_t k = 0; k < s->nlocs; k++)
		names_del(&s->fn->names[BIR_NK_LOC], s->locs[k]->name, s->locs[k]);
	vec_remove((void **)s->fn->sets, &s->fn->nsets, s);
	set_free(s);
}

struct bir_memloc *bir_memloc_add(struct bir_memloc_set *s, const char *name)
{
	struct bir_memloc *ml;

	if (vec_grow(&s->locs, s->nlocs, &s->caplocs))
		return NULL;
	ml = calloc(1, sizeof(*ml));
	if (!ml)
		return NULL;
	ml->name = unique_name(s->fn, BIR_NK_LOC, name);
	ml->extra = json_object();
	if (!ml->name || !ml->extra ||
	    names_add(&s->fn->names[BIR_NK_LOC], ml->name, ml)) {
		memloc_free(ml);
		return NULL;
	}
	ml->id = ++s->fn->mod->next_id;
	ml->type = BIR_MEM_SB;
	ml->tensor_id = -1;
	ml->set = s;
	s->locs[s->nlocs++] = ml;
	return ml;
}

struct bir_memloc *bir_memloc_find(const struct bir_function *f,
				   const char *name)
{
	uint32_t n;
	struct bir_memloc *ml = names_obj(&f->names[BIR_NK_LOC], name, &n);

	if (ml || !n)
		return ml;
	for (uint32_t k = 0; k < f->nsets; k++)
		for (uint32_t j = 0; j < f->sets[k]->nlocs; j++)
			if (!strcmp(f->sets[k]->locs[j]->name, name))
				return f->sets[k]->locs[j];
	return NULL;
}

void bir_memloc_remove(struct bir_memloc *ml)
{
	struct bir_memloc_set *s = ml->set;

	names_del(&s->fn->names[BIR_NK_LOC], ml->name, ml);
	vec_remove((void **)s->locs, &s->nlocs, ml);
	memloc_free(ml);
	free(s->tid_index);
	s->tid_index = NULL;
	s->ntid = 0;
}

int bir_set_build_tid_index(struct bir_memloc_set *s)
{
	int64_t max = -1;

	for (uint32_t k = 0; k < s->nlocs; k++)
		if (s->locs[k]->tensor_id > max)
			max = s->locs[k]->tensor_id;
	free(s->tid_index);
	s->tid_index = NULL;
	s->ntid = 0;
	if (max < 0)
		return 0;
	s->tid_index = calloc((size_t)max + 1, sizeof(*s->tid_index));
	if (!s->tid_index)
		return -ENOMEM;
	s->ntid = (uint32_t)max + 1;
	for (uint32_t k = 0; k < s->nlocs; k++)
		if (s->locs[k]->tensor_id >= 0)
			s->tid_index[s->locs[k]->tensor_id] = s->locs[k];
	return 0;
}

struct bir_register *bir_register_add(struct bir_function *f,
				      const char *name)
{
	struct bir_register *r;

	if (vec_grow(&f->regs, f->nregs, &f->capregs))
		return NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->name = unique_name(f, BIR_NK_REG, name);
	r->extra = json_object();
	if (!r->name || !r->extra ||
	    names_add(&f->names[BIR_NK_REG], r->name, r)) {
		free(r->name);
		json_decref(r->extra);
		free(r);
		return NULL;
	}
	r->id = ++f->mod->next_id;
	f->regs[f->nregs++] = r;
	return r;
}

struct bir_register *bir_register_find(const struct bir_function *f,
				       const char *name)
{
	uint32_t n;
	struct bir_register *r = names_obj(&f->names[BIR_NK_REG], name, &n);

	if (r || !n)
		return r;
	for (uint32_t k = 0; k < f->nregs; k++)
		if (!strcmp(f->regs[k]->name, name))
			return f->regs[k];
	return NULL;
}

/* ---- blocks ------------------------------------------------------------- */

struct bir_block *bir_block_add(struct bir_function *f, const char *name,
				int pos)
{
	struct bir_block *b;

	if (vec_grow(&f->blocks, f->nblocks, &f->capblocks))
		return NULL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->name = unique_name(f, BIR_NK_BLOCK, name);
	b->extra = json_object();
	if (!b->name || !b->extra ||
	    names_add(&f->names[BIR_NK_BLOCK], b->name, b)) {
		bir_block_free(b);
		return NULL;
	}
	b->id = ++f->mod->next_id;
	b->fn = f;
	if (pos < 0 || (uint32_t)pos > f->nblocks)
		pos = (int)f->nblocks;
	vec_insert((void **)f->blocks, &f->nblocks, (uint32_t)pos, b);
	return b;
}

struct bir_block *bir_block_find(const struct bir_function *f,
				 const char *name)
{
	uint32_t n;
	struct bir_block *b = names_obj(&f->names[BIR_NK_BLOCK], name, &n);

	if (b || !n)
		return b;
	for (uint32_t k = 0; k < f->nblocks; k++)
		if (!strcmp(f->blocks[k]->name, name))
			return f->blocks[k];
	return NULL;
}

int bir_block_index(const struct bir_block *b)
{
	for (uint32_t k = 0; b->fn && k < b->fn->nblocks; k++)
		if (b->fn->blocks[k] == b)
			return (int)k;
	return -1;
}

void bir_block_free(struct bir_block *b)
{
	if (!b)
		return;
	for (uint32_t k = 0; k < b->ninsts; k++)
		bir_inst_free(b->insts[k]);
	free(b->insts);
	free(b->name);
	json_decref(b->extra);
	free(b);
}

/* ---- instructions --------------------------------------------------- */

struct bir_inst *bir_inst_new(struct bir_module *m, const char *opname,
			      const char *name)
{
	struct bir_inst *i = calloc(1, sizeof(*i));

	if (!i)
		return NULL;
	i->name = strdup(name);
	i->opname = strdup(opname);
	i->attrs = json_object();
	if (!i->name || !i->opname || !i->attrs) {
		bir_inst_free(i);
		return NULL;
	}
	i->op = bir_opcode_from_name(opname);
	i->id = ++m->next_id;
	return i;
}

void bir_operand_fini(struct bir_operand *o)
{
	free(o->name);
	free(o->ap);
	for (uint32_t k = 0; k < o->ndyn; k++)
		free(o->dyn[k].axis);
	free(o->dyn);
	free(o->dtype);
	json_decref(o->extra);
	memset(o, 0, sizeof(*o));
}

void bir_inst_free(struct bir_inst *i)
{
	if (!i)
		return;
	for (uint32_t k = 0; k < i->nins; k++)
		bir_operand_fini(&i->ins[k]);
	for (uint32_t k = 0; k < i->nouts; k++)
		bir_operand_fini(&i->outs[k]);
	free(i->ins);
	free(i->outs);
	if (i->axis)
		free(i->axis->name);
	free(i->axis);
	for (uint32_t k = 0; k < i->nblocks; k++)
		bir_block_free(i->blocks[k]);
	free(i->blocks);
	free(i->name);
	free(i->opname);
	free(i->engine);
	json_decref(i->attrs);
	free(i);
}

static struct bir_function *inst_fn(const struct bir_block *b)
{
	while (b && !b->fn && b->loop)
		b = b->loop->parent;
	return b ? b->fn : NULL;
}

int bir_inst_insert(struct bir_block *b, struct bir_inst *i, int pos)
{
	struct bir_function *f = inst_fn(b);
	char *nm;

	if (vec_grow(&b->insts, b->ninsts, &b->capinsts))
		return -ENOMEM;
	if (f && bir_name_taken(f, BIR_NK_INST, i->name)) {
		nm = unique_name(f, BIR_NK_INST, i->name);
		if (!nm)
			return -ENOMEM;
		free(i->name);
		i->name = nm;
	}
	if (f && index_inst(f, i, true)) {
		index_inst(f, i, false);
		return -ENOMEM;
	}
	if (pos < 0 || (uint32_t)pos > b->ninsts)
		pos = (int)b->ninsts;
	vec_insert((void **)b->insts, &b->ninsts, (uint32_t)pos, i);
	i->parent = b;
	return 0;
}

void bir_inst_unlink(struct bir_inst *i)
{
	struct bir_function *f;

	if (!i->parent)
		return;
	f = inst_fn(i->parent);
	if (f)
		index_inst(f, i, false);
	/* most unlinks are of the last instructions: search from the end */
	for (uint32_t k = i->parent->ninsts; k-- > 0;) {
		if (i->parent->insts[k] == i) {
			memmove(&i->parent->insts[k], &i->parent->insts[k + 1],
				(size_t)(i->parent->ninsts - k - 1) *
				sizeof(void *));
			i->parent->ninsts--;
			break;
		}
	}
	i->parent = NULL;
}

int bir_block_move_tail(struct bir_block *from, uint32_t at,
			struct bir_block *to)
{
	uint32_t n = at < from->ninsts ? from->ninsts - at : 0;

	if (!n)
		return 0;
	if (to->ninsts + n > to->capinsts) {
		uint32_t cap = to->capinsts ? to->capinsts : 8;
		void *nv;

		while (cap < to->ninsts + n)
			cap *= 2;
		nv = realloc(to->insts, (size_t)cap * sizeof(void *));
		if (!nv)
			return -ENOMEM;
		to->insts = nv;
		to->capinsts = cap;
	}
	memcpy(&to->insts[to->ninsts], &from->insts[at], (size_t)n * sizeof(void *));
	for (uint32_t k = 0; k < n; k++)
		to->insts[to->ninsts + k]->parent = to;
	to->ninsts += n;
	from->ninsts = at;
	return 0;
}

int bir_inst_index(const struct bir_inst *i)
{
	for (uint32_t k = 0; i->parent && k < i->parent->ninsts; k++)
		if (i->parent->insts[k] == i)
			return (int)k;
	return -1;
}

int bir_operand_copy(struct bir_operand *d, const struct bir_operand *s)
{
	memset(d, 0, sizeof(*d));
	d->kind = s->kind;
	d->offset = s->offset;
	d->imm = s->imm;
	if (s->name && !(d->name = strdup(s->name)))
		goto nomem;
	if (s->dtype && !(d->dtype = strdup(s->dtype)))
		goto nomem;
	if (s->extra && !(d->extra = json_deep_copy(s->extra)))
		goto nomem;
	if (s->nap && bir_ap_set(d, s->ap, s->nap))
		goto nomem;
	if (s->ndyn) {
		d->dyn = calloc(s->ndyn, sizeof(*d->dyn));
		if (!d->dyn)
			goto nomem;
		for (uint32_t k = 0; k < s->ndyn; k++) {
			d->dyn[k].step = s->dyn[k].step;
			d->dyn[k].axis = strdup(s->dyn[k].axis);
			d->ndyn = k + 1;
			if (!d->dyn[k].axis)
				goto nomem;
		}
	}
	return 0;
nomem:
	bir_operand_fini(d);
	return -ENOMEM;
}

int bir_ap_set(struct bir_operand *o, const struct bir_ap_pair *p, uint32_t n)
{
	struct bir_ap_pair *ap = calloc(n ? n : 1, sizeof(*ap));

	if (!ap)
		return -ENOMEM;
	memcpy(ap, p, (size_t)n * sizeof(*ap));
	free(o->ap);
	o->ap = ap;
	o->nap = n;
	return 0;
}

struct bir_operand *bir_operand_add(struct bir_inst *i, bool out, int kind,
				    const char *name)
{
	struct bir_operand **v = out ? &i->outs : &i->ins;
	uint32_t *n = out ? &i->nouts : &i->nins;
	struct bir_operand *nv = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
	struct bir_operand *o;

	if (!nv)
		return NULL;
	*v = nv;
	o = &nv[*n];
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	if (name && !(o->name = strdup(name)))
		return NULL;
	(*n)++;
	return o;
}

static struct bir_block *block_clone(struct bir_module *m,
				     const struct bir_block *b);

struct bir_inst *bir_inst_clone(struct bir_module *m, const struct bir_inst *s)
{
	struct bir_inst *i = bir_inst_new(m, s->opname, s->name);

	if (!i)
		return NULL;
	i->op = s->op;
	json_decref(i->attrs);
	i->attrs = json_deep_copy(s->attrs);
	if (!i->attrs)
		goto nomem;
	if (s->engine && !(i->engine = strdup(s->engine)))
		goto nomem;
	for (int side = 0; side < 2; side++) {
		const struct bir_operand *so = side ? s->outs : s->ins;
		uint32_t n = side ? s->nouts : s->nins;

		for (uint32_t k = 0; k < n; k++) {
			struct bir_operand *o = bir_operand_add(i, side, 0, NULL);

			if (!o || bir_operand_copy(o, &so[k]))
				goto nomem;
		}
	}
	if (s->axis) {
		i->axis = calloc(1, sizeof(*i->axis));
		if (!i->axis)
			goto nomem;
		*i->axis = *s->axis;
		i->axis->name = strdup(s->axis->name);
		if (!i->axis->name)
			goto nomem;
	}
	if (s->nblocks) {
		i->blocks = calloc(s->nblocks, sizeof(*i->blocks));
		if (!i->blocks)
			goto nomem;
		for (uint32_t k = 0; k < s->nblocks; k++) {
			i->blocks[k] = block_clone(m, s->blocks[k]);
			if (!i->blocks[k])
				goto nomem;
			i->blocks[k]->loop = i;
			i->nblocks = k + 1;
		}
	}
	return i;
nomem:
	bir_inst_free(i);
	return NULL;
}

static struct bir_block *block_clone(struct bir_module *m,
				     const struct bir_block *s)
{
	struct bir_block *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->name = strdup(s->name);
	b->extra = json_deep_copy(s->extra);
	b->id = ++m->next_id;
	if (!b->name || !b->extra)
		goto nomem;
	for (uint32_t k = 0; k < s->ninsts; k++) {
		struct bir_inst *i = bir_inst_clone(m, s->insts[k]);

		if (!i)
			goto nomem;
		if (vec_grow(&b->insts, b->ninsts, &b->capinsts)) {
			bir_inst_free(i);
			goto nomem;
		}
		i->parent = b;
		b->insts[b->ninsts++] = i;
	}
	return b;
nomem:
	bir_block_free(b);
	return NULL;
}

static struct bir_inst *find_in_block(const struct bir_block *b,
				      const char *name)
{
	for (uint32_t k = 0; k < b->ninsts; k++) {
		struct bir_inst *i = b->insts[k], *r;

		if (!strcmp(i->name, name))
			return i;
		for (uint32_t j = 0; j < i->nblocks; j++)
			if ((r = find_in_block(i->blocks[j], name)))
				return r;
	}
	return NULL;
}

struct bir_inst *bir_inst_find(const struct bir_function *f, const char *name)
{
	uint32_t n;
	struct bir_inst *r = names_obj(&f->names[BIR_NK_INST], name, &n);

	if (r || !n)
		return r;
	for (uint32_t k = 0; k < f->nblocks; k++)
		if ((r = find_in_block(f->blocks[k], name)))
			return r;
	return NULL;
}

static int foreach_block(struct bir_block *b,
			 int (*cb)(struct bir_inst *, void *), void *arg)
{
	for (uint32_t k = 0; k < b->ninsts; k++) {
		struct bir_inst *i = b->insts[k];
		int rc = cb(i, arg);

		if (rc)
			return rc;
		for (uint32_t j = 0; j < i->nblocks; j++) {
			rc = foreach_block(i->blocks[j], cb, arg);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int bir_foreach_inst(struct bir_function *f,
		     int (*cb)(struct bir_inst *, void *), void *arg)
{
	for (uint32_t k = 0; k < f->nblocks; k++) {
		int rc = foreach_block(f->blocks[k], cb, arg);

		if (rc)
			return rc;
	}
	return 0;
}

const char *bir_attr_str(const struct bir_inst *i, const char *key)
{
	return json_string_value(json_object_get(i->attrs, key));
}

int64_t bir_attr_int(const struct bir_inst *i, const char *key, int64_t def)
{
	json_t *v = json_object_get(i->attrs, key);

	if (json_is_integer(v))
		return json_integer_value(v);
	if (json_is_true(v))
		return 1;
	if (json_is_false(v))
		return 0;
	return def;
}

double bir_attr_num(const struct bir_inst *i, const char *key, double def)
{
	json_t *v = json_object_get(i->attrs, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

void bir_log(const struct bir_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (!o || !o->log)
		return;
	va_start(ap, fmt);
	vfprintf(o->log, fmt, ap);
	va_end(ap);
	fputc('\n', o->log);
}

static int calls_fn(struct bir_inst *i, void *arg)
{
	const char *fn = bir_attr_str(i, "func");

	return i->op == BIR_OP_NKI_KERNEL && fn && !strcmp(fn, arg);
}

bool bir_function_is_nki_callee(const struct bir_function *f)
{
	const struct bir_module *m = f->mod;

	for (uint32_t k = 0; k < m->nfns; k++)
		if (m->fns[k] != f &&
		    bir_foreach_inst(m->fns[k], calls_fn, f->name))
			return true;
	return false;
}

/* ---- name index check (tests) -------------------------------------- */

struct idx_walk {
	struct bir_names t[BIR_NK_COUNT];
	int rc;
};

static int walk_inst(struct bir_inst *i, void *arg)
{
	struct idx_walk *w = arg;

	if (names_add(&w->t[BIR_NK_INST], i->name, i))
		w->rc = -ENOMEM;
	return 0;
}

static const char *const kind_names[BIR_NK_COUNT] = {
	"memory location set", "memory location", "register", "block",
	"instruction",
};

int bir_function_check_index(const struct bir_function *f,
			     struct nscc_err *err)
{
	struct idx_walk w;
	int rc = 0;

	memset(&w, 0, sizeof(w));
	for (uint32_t k = 0; k < f->nsets; k++) {
		w.rc |= names_add(&w.t[BIR_NK_SET], f->sets[k]->name, f->sets[k]);
		for (uint32_t j = 0; j < f->sets[k]->nlocs; j++)
			w.rc |= names_add(&w.t[BIR_NK_LOC], f->sets[k]->locs[j]->name,
					  f->sets[k]->locs[j]);
	}
	for (uint32_t k = 0; k < f->nregs; k++)
		w.rc |= names_add(&w.t[BIR_NK_REG], f->regs[k]->name, f->regs[k]);
	for (uint32_t k = 0; k < f->nblocks; k++)
		w.rc |= names_add(&w.t[BIR_NK_BLOCK], f->blocks[k]->name,
				  f->blocks[k]);
	bir_foreach_inst((struct bir_function *)f, walk_inst, &w);
	if (w.rc) {
		rc = -ENOMEM;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	}
	for (int kind = 0; !rc && kind < BIR_NK_COUNT; kind++) {
		const struct bir_names *have = &f->names[kind], *want = &w.t[kind];

		for (uint32_t k = 0; !rc && k < want->cap; k++) {
			const struct bir_name_ent *e = &want->tab[k], *h;

			if (!e->key || e->key == NAMES_TOMB)
				continue;
			h = names_get(have, e->key);
			/* a NULL object is allowed: the lookups then walk */
			if (!h || h->count != e->count ||
			    (e->count == 1 && h->obj && h->obj != e->obj)) {
				snprintf(err->msg, sizeof(err->msg),
					 "function '%s': %s name '%s': index has %u carrier(s)%s, the function %u",
					 f->name, kind_names[kind], e->key,
					 h ? h->count : 0,
					 h && h->count == 1 && h->obj && h->obj != e->obj ?
					 " (another object)" : "", e->count);
				rc = -EINVAL;
			}
		}
		if (!rc && have->live != want->live) {
			snprintf(err->msg, sizeof(err->msg),
				 "function '%s': %s index holds %u names, the function has %u",
				 f->name, kind_names[kind], have->live, want->live);
			rc = -EINVAL;
		}
	}
	for (int kind = 0; kind < BIR_NK_COUNT; kind++)
		names_free(&w.t[kind]);
	return rc;
}
