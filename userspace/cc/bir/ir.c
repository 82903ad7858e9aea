// SPDX-License-Identifier: GPL-2.0
/*
 * ir.c - BIR IR containers: Module, Function, BasicBlock, Instruction,
 * MemoryLocationSet, MemoryLocation, Register, the typed values, and the
 * module's arena and string pool (Documentation/compiler-passes.rst,
 * "The IR" and "Memory").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "bir.h"
#include "kbin_gen.h"
#include "nscc_internal.h"

static const struct { const char *name; enum bir_opcode op; } opcodes[] = {
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

enum bir_opcode bir_opcode_from_name(const char *name)
{
	for (size_t k = 0; k < sizeof(opcodes) / sizeof(opcodes[0]); k++)
		if (!strcmp(opcodes[k].name, name))
			return opcodes[k].op;
	return BIR_OP_OTHER;
}

const char *bir_opcode_name(enum bir_opcode op)
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

const char *bir_mem_type_name(enum bir_mem_type type)
{
	for (int b = 0; b < 8; b++)
		if (type == (1U << b))
			return memtype_names[b];
	return NULL;
}

int bir_dtype_set(struct bir_module *m, struct bir_dtype *d, const char *name)
{
	const char *s = name ? bir_str(m, name) : NULL;

	if (name && !s)
		return -ENOMEM;
	d->name = s;
	d->id = s ? (enum kbin_dtype)kbin_dtype_from_name(s) : KBIN_DTYPE_NONE;
	return 0;
}

enum bir_mem_type bir_mem_type_from_name(const char *name)
{
	for (int b = 0; b < 8; b++)
		if (!strcmp(memtype_names[b], name))
			return (enum bir_mem_type)(1U << b);
	return BIR_MEM_NONE;
}

int bir_arch_level(const struct bir_val *arch)
{
	const struct kbin_gen *g;

	if (arch->kind == BIR_VAL_INT) {
		int64_t v = arch->i;

		return (v >= 10 && v < 50) ? (int)v : 0;
	}
	if (arch->kind != BIR_VAL_STR)
		return 0;
	g = kbin_gen_by_name(arch->s);
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

/*
 * one more carrier of @key (borrowed: a pool string); @obj becomes the
 * object if it is the first
 */
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
	slot->key = key;
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
	e->key = NAMES_TOMB;
	e->obj = NULL;
	t->live--;
}

static void names_free(struct bir_names *t)
{
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

bool bir_name_taken(const struct bir_function *f, enum bir_name_kind kind,
		    const char *name)
{
	if ((unsigned int)kind >= BIR_NK_COUNT)
		kind = BIR_NK_INST;
	return names_get(&f->names[kind], name) != NULL;
}

/* @base, or @base.N with the smallest N >= 1 not taken; a pool string */
static const char *unique_name(struct bir_module *m,
			       const struct bir_function *f, enum bir_name_kind kind,
			       const char *base)
{
	const char *r;
	char *s;

	if (!f || !bir_name_taken(f, kind, base))
		return bir_str(m, base);
	for (unsigned long n = 1;; n++) {
		if (asprintf(&s, "%s.%lu", base, n) < 0)
			return NULL;
		if (!bir_name_taken(f, kind, s)) {
			r = bir_str(m, s);
			free(s);
			return r;
		}
		free(s);
	}
}


/* ---- arena and string pool ------------------------------------------ */

#define ARENA_FIRST	(16 * 1024)
#define ARENA_MAX	(1024 * 1024)

struct bir_chunk {
	struct bir_chunk *next;
	size_t size;
	char data[];
};

/*
 * struct bir_mem - a module's memory: bump allocation in zeroed chunks
 * (16 KiB doubling to 1 MiB; a large request gets a chunk of its own),
 * and the string pool, a name index whose keys are the pool copies.
 */
struct bir_mem {
	struct bir_chunk *chunks;
	char *cur, *end;
	size_t next_size;
	size_t bytes;
	struct bir_names pool;
};

static struct bir_chunk *chunk_new(struct bir_mem *a, size_t size)
{
	struct bir_chunk *c = calloc(1, sizeof(*c) + size);

	if (!c)
		return NULL;
	c->size = size;
	a->bytes += size;
	return c;
}

static void *arena_alloc(struct bir_mem *a, size_t n, size_t align)
{
	uintptr_t p = ((uintptr_t)a->cur + align - 1) & ~(uintptr_t)(align - 1);
	struct bir_chunk *c;

	if (a->cur && p + n <= (uintptr_t)a->end && p + n >= p) {
		a->cur = (char *)(p + n);
		return (void *)p;
	}
	if (n > SIZE_MAX / 2)
		return NULL;
	if (n + align > a->next_size / 4) {
		/* a chunk of its own, behind the current one */
		c = chunk_new(a, n + align);
		if (!c)
			return NULL;
		if (a->chunks) {
			c->next = a->chunks->next;
			a->chunks->next = c;
		} else {
			c->next = NULL;
			a->chunks = c;
			a->cur = a->end = c->data;	/* full */
		}
		p = ((uintptr_t)c->data + align - 1) & ~(uintptr_t)(align - 1);
		return (void *)p;
	}
	c = chunk_new(a, a->next_size);
	if (!c)
		return NULL;
	c->next = a->chunks;
	a->chunks = c;
	a->cur = c->data;
	a->end = c->data + c->size;
	if (a->next_size < ARENA_MAX)
		a->next_size *= 2;
	p = ((uintptr_t)a->cur + align - 1) & ~(uintptr_t)(align - 1);
	a->cur = (char *)(p + n);
	return (void *)p;
}

void *bir_alloc(struct bir_module *m, size_t n)
{
	return arena_alloc(m->mem, n ? n : 1, 8);
}

/* a zeroed array of @n elements of @size bytes (NULL when @n is 0) */
static void *alloc_array(struct bir_module *m, size_t n, size_t size)
{
	if (!n)
		return NULL;
	if (n > SIZE_MAX / size)
		return NULL;
	return bir_alloc(m, n * size);
}

/*
 * a copy of the @n-element array @old with room for one more at the end
 * (zeroed); the old array stays in the arena, unused
 */
static void *append_array(struct bir_module *m, const void *old, size_t n,
			  size_t size)
{
	void *na = alloc_array(m, n + 1, size);

	if (na && n)
		memcpy(na, old, n * size);
	return na;
}

static struct bir_name_ent *names_get(const struct bir_names *t,
				      const char *key);
static int names_add(struct bir_names *t, const char *key, void *obj);
static void names_free(struct bir_names *t);

const char *bir_str(struct bir_module *m, const char *s)
{
	struct bir_name_ent *e;
	size_t n;
	char *c;

	if (!s)
		return NULL;
	e = names_get(&m->mem->pool, s);
	if (e)
		return e->key;
	n = strlen(s) + 1;
	c = arena_alloc(m->mem, n, 1);
	if (!c)
		return NULL;
	memcpy(c, s, n);
	return names_add(&m->mem->pool, c, NULL) ? NULL : c;
}

static struct bir_mem *mem_new(void)
{
	struct bir_mem *a = calloc(1, sizeof(*a));

	if (a)
		a->next_size = ARENA_FIRST;
	return a;
}

static void mem_free(struct bir_mem *a)
{
	struct bir_chunk *c, *n;

	if (!a)
		return;
	for (c = a->chunks; c; c = n) {
		n = c->next;
		free(c);
	}
	names_free(&a->pool);
	free(a);
}

/* ---- typed values ----------------------------------------------------- */

const struct bir_val *bir_val_get(const struct bir_val *obj, const char *key)
{
	if (!obj || obj->kind != BIR_VAL_OBJ)
		return NULL;
	for (uint32_t k = 0; k < obj->n; k++)
		if (!strcmp(obj->members[k].key, key))
			return &obj->members[k].v;
	return NULL;
}

int bir_val_copy(struct bir_module *m, struct bir_val *d,
		 const struct bir_val *s)
{
	struct bir_val v = *s;

	memset(d, 0, sizeof(*d));
	switch (s->kind) {
	case BIR_VAL_STR:
		v.s = bir_str(m, s->s);
		if (!v.s)
			return -ENOMEM;
		break;
	case BIR_VAL_LIST:
		v.items = alloc_array(m, s->n, sizeof(*v.items));
		if (s->n && !v.items)
			return -ENOMEM;
		for (uint32_t k = 0; k < s->n; k++)
			if (bir_val_copy(m, &v.items[k], &s->items[k]))
				return -ENOMEM;
		break;
	case BIR_VAL_OBJ:
		v.members = alloc_array(m, s->n, sizeof(*v.members));
		if (s->n && !v.members)
			return -ENOMEM;
		for (uint32_t k = 0; k < s->n; k++) {
			v.members[k].key = bir_str(m, s->members[k].key);
			if (!v.members[k].key ||
			    bir_val_copy(m, &v.members[k].v, &s->members[k].v))
				return -ENOMEM;
		}
		break;
	default:
		break;
	}
	*d = v;
	return 0;
}

int bir_val_set(struct bir_module *m, struct bir_val *obj, const char *key,
		const struct bir_val *v)
{
	struct bir_val nv;
	struct bir_attr *na;
	const char *k;

	if (obj->kind != BIR_VAL_OBJ) {
		if (obj->kind != BIR_VAL_NULL || obj->n)
			return -EINVAL;
		*obj = bir_val_obj();
	}
	if (bir_val_copy(m, &nv, v))
		return -ENOMEM;
	for (uint32_t j = 0; j < obj->n; j++) {
		if (!strcmp(obj->members[j].key, key)) {
			obj->members[j].v = nv;
			return 0;
		}
	}
	k = bir_str(m, key);
	na = append_array(m, obj->members, obj->n, sizeof(*na));
	if (!k || !na)
		return -ENOMEM;
	na[obj->n].key = k;
	na[obj->n].v = nv;
	obj->members = na;
	obj->n++;
	return 0;
}

void bir_val_del(struct bir_val *obj, const char *key)
{
	if (!obj || obj->kind != BIR_VAL_OBJ)
		return;
	for (uint32_t j = 0; j < obj->n; j++) {
		if (!strcmp(obj->members[j].key, key)) {
			memmove(&obj->members[j], &obj->members[j + 1],
				(obj->n - j - 1) * sizeof(*obj->members));
			obj->n--;
			return;
		}
	}
}

int bir_val_append(struct bir_module *m, struct bir_val *list,
		   const struct bir_val *v)
{
	struct bir_val nv, *ni;

	if (list->kind != BIR_VAL_LIST) {
		if (list->kind != BIR_VAL_NULL || list->n)
			return -EINVAL;
		*list = (struct bir_val){ .kind = BIR_VAL_LIST };
	}
	if (bir_val_copy(m, &nv, v))
		return -ENOMEM;
	ni = append_array(m, list->items, list->n, sizeof(*ni));
	if (!ni)
		return -ENOMEM;
	ni[list->n] = nv;
	list->items = ni;
	list->n++;
	return 0;
}

bool bir_val_equal(const struct bir_val *a, const struct bir_val *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case BIR_VAL_BOOL:
		return a->b == b->b;
	case BIR_VAL_INT:
		return a->i == b->i;
	case BIR_VAL_REAL:
		return a->r == b->r;
	case BIR_VAL_STR:
		return !strcmp(a->s, b->s);
	case BIR_VAL_LIST:
		if (a->n != b->n)
			return false;
		for (uint32_t k = 0; k < a->n; k++)
			if (!bir_val_equal(&a->items[k], &b->items[k]))
				return false;
		return true;
	case BIR_VAL_OBJ:
		if (a->n != b->n)
			return false;
		for (uint32_t k = 0; k < a->n; k++) {
			const struct bir_val *o = bir_val_get(b, a->members[k].key);

			if (!o || !bir_val_equal(&a->members[k].v, o))
				return false;
		}
		return true;
	default:
		return true;
	}
}

/* a copy of @s (any module) in @m's pool, NULL stays NULL */
static int str_copy(struct bir_module *m, const char **d, const char *s)
{
	*d = s ? bir_str(m, s) : NULL;
	return s && !*d ? -ENOMEM : 0;
}

/* ---- module / function ---------------------------------------------- */

struct bir_module *bir_module_new(int arch_level)
{
	struct bir_module *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->mem = mem_new();
	if (!m->mem) {
		free(m);
		return NULL;
	}
	m->version = 2;
	m->arch_level = arch_level;
	m->arch = bir_val_int(arch_level);
	m->attrs = bir_val_obj();
	m->extra = bir_val_obj();
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
	names_free(&m->fnames);
	mem_free(m->mem);
	free(m);
}

static size_t names_bytes(const struct bir_names *t)
{
	return (size_t)t->cap * sizeof(*t->tab);
}

static size_t block_bytes(const struct bir_block *b)
{
	size_t n = (size_t)b->capinsts * sizeof(void *);

	for (uint32_t k = 0; k < b->ninsts; k++)
		for (uint32_t j = 0; j < b->insts[k]->nblocks; j++)
			n += block_bytes(b->insts[k]->blocks[j]);
	return n;
}

size_t bir_module_mem_bytes(const struct bir_module *m)
{
	size_t n = m->mem->bytes + names_bytes(&m->mem->pool) +
		   names_bytes(&m->fnames) + m->capfns * sizeof(void *);

	for (uint32_t k = 0; k < m->nfns; k++) {
		const struct bir_function *f = m->fns[k];

		n += (f->capsets + f->capregs + f->capblocks) * sizeof(void *);
		for (int j = 0; j < BIR_NK_COUNT; j++)
			n += names_bytes(&f->names[j]);
		for (uint32_t j = 0; j < f->nsets; j++)
			n += (f->sets[j]->caplocs + f->sets[j]->ntid) *
			     sizeof(void *);
		for (uint32_t j = 0; j < f->nblocks; j++)
			n += block_bytes(f->blocks[j]);
	}
	return n;
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
	const char *nm = NULL;
	char *s;

	if (vec_grow(&m->fns, m->nfns, &m->capfns))
		return NULL;
	if (!bir_function_find(m, name)) {
		nm = bir_str(m, name);
	} else {
		for (unsigned long n = 1;; n++) {
			if (asprintf(&s, "%s.%lu", name, n) < 0)
				return NULL;
			if (!bir_function_find(m, s)) {
				nm = bir_str(m, s);
				free(s);
				break;
			}
			free(s);
		}
	}
	f = calloc(1, sizeof(*f));
	if (!nm || !f || names_add(&m->fnames, nm, f)) {
		free(f);
		return NULL;
	}
	f->name = nm;
	f->attrs = bir_val_obj();
	f->extra = bir_val_obj();
	f->id = ++m->next_id;
	f->mod = m;
	m->fns[m->nfns++] = f;
	return f;
}

static void fn_free(struct bir_function *f)
{
	for (uint32_t k = 0; k < f->nsets; k++)
		set_free(f->sets[k]);
	for (uint32_t k = 0; k < f->nblocks; k++)
		bir_block_free(f->blocks[k]);
	free(f->sets);
	free(f->regs);
	free(f->blocks);
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
	s = bir_alloc(f->mod, sizeof(*s));
	if (!s)
		return NULL;
	s->name = unique_name(f->mod, f, BIR_NK_SET, name);
	if (!s->name || names_add(&f->names[BIR_NK_SET], s->name, s))
		return NULL;
	s->extra = bir_val_obj();
	s->id = ++f->mod->next_id;
	s->fn = f;
	f->sets[f->nsets++] = s;
	return s;
}

int bir_set_set_shape(struct bir_memloc_set *s, const uint64_t *dims,
		      uint32_t n)
{
	uint64_t *sh = bir_alloc(s->fn->mod, ((size_t)n + 1) * sizeof(*sh));

	if (!sh)
		return -ENOMEM;
	if (n)
		memcpy(sh, dims, n * sizeof(*sh));
	s->shape = sh;
	s->nshape = n;
	return 0;
}

static void set_free(struct bir_memloc_set *s)
{
	free(s->locs);
	free(s->tid_index);
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
	struct bir_module *m = s->fn->mod;
	struct bir_memloc *ml;

	if (vec_grow(&s->locs, s->nlocs, &s->caplocs))
		return NULL;
	ml = bir_alloc(m, sizeof(*ml));
	if (!ml)
		return NULL;
	ml->name = unique_name(m, s->fn, BIR_NK_LOC, name);
	if (!ml->name || names_add(&s->fn->names[BIR_NK_LOC], ml->name, ml))
		return NULL;
	ml->extra = bir_val_obj();
	ml->id = ++m->next_id;
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
	r = bir_alloc(f->mod, sizeof(*r));
	if (!r)
		return NULL;
	r->name = unique_name(f->mod, f, BIR_NK_REG, name);
	if (!r->name || names_add(&f->names[BIR_NK_REG], r->name, r))
		return NULL;
	r->extra = bir_val_obj();
	r->id = ++f->mod->next_id;
	r->fn = f;
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
	b = bir_alloc(f->mod, sizeof(*b));
	if (!b)
		return NULL;
	b->name = unique_name(f->mod, f, BIR_NK_BLOCK, name);
	if (!b->name || names_add(&f->names[BIR_NK_BLOCK], b->name, b))
		return NULL;
	b->extra = bir_val_obj();
	b->id = ++f->mod->next_id;
	b->fn = f;
	if (pos < 0 || (uint32_t)pos > f->nblocks)
		pos = (int)f->nblocks;
	vec_insert((void **)f->blocks, &f->nblocks, (uint32_t)pos, b);
	return b;
}

struct bir_block *bir_loop_block_add(struct bir_inst *loop, const char *name)
{
	struct bir_module *m = loop->mod;
	struct bir_block *b = bir_alloc(m, sizeof(*b));
	struct bir_block **nv;

	if (!b || !(b->name = bir_str(m, name)))
		return NULL;
	nv = append_array(m, loop->blocks, loop->nblocks, sizeof(*nv));
	if (!nv)
		return NULL;
	b->extra = bir_val_obj();
	b->id = ++m->next_id;
	b->loop = loop;
	nv[loop->nblocks] = b;
	loop->blocks = nv;
	loop->nblocks++;
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
	b->insts = NULL;
	b->ninsts = b->capinsts = 0;
}

/* ---- instructions --------------------------------------------------- */

struct bir_inst *bir_inst_new(struct bir_module *m, const char *opname,
			      const char *name)
{
	struct bir_inst *i = bir_alloc(m, sizeof(*i));

	if (!i)
		return NULL;
	i->mod = m;
	i->op = bir_opcode_from_name(opname);
	i->opname = i->op ? bir_opcode_name(i->op) : bir_str(m, opname);
	i->name = bir_str(m, name);
	if (!i->name || !i->opname)
		return NULL;
	i->attrs = bir_val_obj();
	i->id = ++m->next_id;
	return i;
}

int bir_inst_set_op(struct bir_inst *i, enum bir_opcode op)
{
	const char *n = op ? bir_opcode_name(op) : NULL;

	if (!n)
		return -EINVAL;
	i->op = op;
	i->opname = n;
	return 0;
}

int bir_inst_rename(struct bir_inst *i, const char *name)
{
	const char *n = bir_str(i->mod, name);

	if (!n)
		return -ENOMEM;
	i->name = n;
	return 0;
}

void bir_inst_free(struct bir_inst *i)
{
	if (!i)
		return;
	for (uint32_t k = 0; k < i->nblocks; k++)
		bir_block_free(i->blocks[k]);
	i->nblocks = 0;
}

static struct bir_function *inst_fn(const struct bir_block *b)
{
	while (b && !b->fn && b->loop)
		b = b->loop->parent;
	return b ? b->fn : NULL;
}

/*
 * bind @o to what its name names in @f, unless it already points into
 * @f (a location or register of @f stays what its name names: names of
 * a function are unique and never change while an object is in it)
 */
static void bind_operand(const struct bir_function *f, struct bir_operand *o)
{
	if (o->kind == BIR_OPND_AP && (!o->ml || o->ml->set->fn != f))
		o->ml = o->name ? bir_memloc_find(f, o->name) : NULL;
	else if (o->kind == BIR_OPND_REG && (!o->reg || o->reg->fn != f))
		o->reg = o->name ? bir_register_find(f, o->name) : NULL;
}

static int bind_inst(struct bir_inst *i, void *arg)
{
	const struct bir_function *f = arg;

	for (uint32_t k = 0; k < i->nins; k++)
		bind_operand(f, &i->ins[k]);
	for (uint32_t k = 0; k < i->nouts; k++)
		bind_operand(f, &i->outs[k]);
	for (uint32_t b = 0; b < i->nblocks; b++)
		for (uint32_t k = 0; k < i->blocks[b]->ninsts; k++)
			bind_inst(i->blocks[b]->insts[k], arg);
	return 0;
}

/* each dep of @i to the instruction its name names in the function */
static int bind_deps(struct bir_inst *i, void *arg)
{
	const struct bir_function *f = arg;

	for (uint32_t d = 0; d < i->ndeps; d++)
		i->dep_insts[d] = bir_inst_find(f, i->deps[d]);
	return 0;
}

void bir_function_bind(struct bir_function *f)
{
	for (uint32_t b = 0; b < f->nblocks; b++)
		for (uint32_t k = 0; k < f->blocks[b]->ninsts; k++)
			bind_inst(f->blocks[b]->insts[k], f);
	bir_foreach_inst(f, bind_deps, f);
}

struct dep_walk {
	const struct bir_inst *i;
	uint32_t d;
};

static int unresolved_dep(struct bir_inst *i, void *arg)
{
	struct dep_walk *w = arg;

	for (uint32_t d = 0; d < i->ndeps; d++) {
		if (!i->dep_insts[d]) {
			w->i = i;
			w->d = d;
			return 1;
		}
	}
	return 0;
}

int bir_function_check_deps(const struct bir_function *f,
			    struct nscc_err *err)
{
	struct dep_walk w = { NULL, 0 };

	if (!bir_foreach_inst((struct bir_function *)f, unresolved_dep, &w))
		return 0;
	snprintf(err->msg, sizeof(err->msg),
		 "function '%s': instruction '%s': dep '%s' names no instruction of the function",
		 f->name, w.i->name, w.i->deps[w.d]);
	return -EINVAL;
}

int bir_inst_insert(struct bir_block *b, struct bir_inst *i, int pos)
{
	struct bir_function *f = inst_fn(b);
	const char *nm;

	if (vec_grow(&b->insts, b->ninsts, &b->capinsts))
		return -ENOMEM;
	if (f && bir_name_taken(f, BIR_NK_INST, i->name)) {
		nm = unique_name(i->mod, f, BIR_NK_INST, i->name);
		if (!nm)
			return -ENOMEM;
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
	if (f)
		bind_inst(i, f);
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
	/*
	 * give back what the moved tail held: a block split at every call
	 * site would otherwise keep a vector the size of the whole tail
	 */
	if (from->capinsts > 2 * (at + 16)) {
		void *nv = realloc(from->insts, (size_t)(at + 16) * sizeof(void *));

		if (nv) {
			from->insts = nv;
			from->capinsts = at + 16;
		}
	}
	return 0;
}

int bir_inst_index(const struct bir_inst *i)
{
	for (uint32_t k = 0; i->parent && k < i->parent->ninsts; k++)
		if (i->parent->insts[k] == i)
			return (int)k;
	return -1;
}

int bir_ap_set(struct bir_module *m, struct bir_operand *o,
	       const struct bir_ap_pair *p, uint32_t n)
{
	struct bir_ap_pair *ap = alloc_array(m, n, sizeof(*ap));

	if (n && !ap)
		return -ENOMEM;
	if (n)
		memcpy(ap, p, (size_t)n * sizeof(*ap));
	o->ap = ap;
	o->nap = n;
	return 0;
}

int bir_dyn_add(struct bir_module *m, struct bir_operand *o,
		const char *axis, int64_t step)
{
	struct bir_dyn *nd = append_array(m, o->dyn, o->ndyn, sizeof(*nd));
	const char *a = bir_str(m, axis);

	if (!nd || !a)
		return -ENOMEM;
	nd[o->ndyn].axis = a;
	nd[o->ndyn].step = step;
	o->dyn = nd;
	o->ndyn++;
	return 0;
}

int bir_operand_copy(struct bir_module *m, struct bir_operand *d,
		     const struct bir_operand *s)
{
	memset(d, 0, sizeof(*d));
	d->kind = s->kind;
	d->offset = s->offset;
	d->imm = s->imm;
	/* references into @m's functions stay; another module's do not */
	if (s->ml && s->ml->set->fn->mod == m)
		d->ml = s->ml;
	if (s->reg && s->reg->fn->mod == m)
		d->reg = s->reg;
	if (str_copy(m, &d->name, s->name) ||
	    bir_dtype_set(m, &d->dtype, s->dtype.name) ||
	    bir_val_copy(m, &d->extra, &s->extra) ||
	    (s->nap && bir_ap_set(m, d, s->ap, s->nap)))
		return -ENOMEM;
	if (s->ndyn) {
		d->dyn = alloc_array(m, s->ndyn, sizeof(*d->dyn));
		if (!d->dyn)
			return -ENOMEM;
		for (uint32_t k = 0; k < s->ndyn; k++) {
			d->dyn[k].step = s->dyn[k].step;
			if (str_copy(m, &d->dyn[k].axis, s->dyn[k].axis))
				return -ENOMEM;
		}
		d->ndyn = s->ndyn;
	}
	return 0;
}

struct bir_operand *bir_operand_add(struct bir_inst *i, bool out,
				    enum bir_operand_kind kind,
				    const char *name)
{
	struct bir_operand **v = out ? &i->outs : &i->ins;
	uint32_t *n = out ? &i->nouts : &i->nins;
	struct bir_operand *nv = append_array(i->mod, *v, *n, sizeof(*nv));
	struct bir_operand *o;

	if (!nv)
		return NULL;
	o = &nv[*n];
	o->kind = kind;
	o->extra = bir_val_obj();
	if (name && bir_operand_set_name(i, o, name))
		return NULL;
	*v = nv;
	(*n)++;
	return o;
}

int bir_operand_set_name(struct bir_inst *i, struct bir_operand *o,
			 const char *name)
{
	struct bir_function *f = i->parent ? inst_fn(i->parent) : NULL;

	if (str_copy(i->mod, &o->name, name))
		return -ENOMEM;
	o->ml = NULL;
	o->reg = NULL;
	if (f)
		bind_operand(f, o);
	return 0;
}

void bir_operand_remove(struct bir_inst *i, bool out, uint32_t k)
{
	struct bir_operand *v = out ? i->outs : i->ins;
	uint32_t *n = out ? &i->nouts : &i->nins;

	if (k >= *n)
		return;
	memmove(&v[k], &v[k + 1], (*n - k - 1) * sizeof(*v));
	(*n)--;
}

static struct bir_block *block_clone(struct bir_module *m,
				     const struct bir_block *b);

/* room for @n deps in @i (the old arrays stay in the arena) */
static int deps_alloc(struct bir_inst *i, uint32_t n)
{
	const char **nd = alloc_array(i->mod, n, sizeof(*nd));
	struct bir_inst **nt = alloc_array(i->mod, n, sizeof(*nt));

	if (!nd || !nt)
		return -ENOMEM;
	if (i->ndeps) {
		memcpy(nd, i->deps, i->ndeps * sizeof(*nd));
		memcpy(nt, i->dep_insts, i->ndeps * sizeof(*nt));
	}
	i->deps = nd;
	i->dep_insts = nt;
	return 0;
}

int bir_inst_add_dep(struct bir_inst *i, struct bir_inst *to,
		     const char *name)
{
	const char *nm = bir_str(i->mod, to ? to->name : name);

	if (!nm || deps_alloc(i, i->ndeps + 1))
		return -ENOMEM;
	i->deps[i->ndeps] = nm;
	i->dep_insts[i->ndeps] = to;
	i->ndeps++;
	return 0;
}

/* the instruction-to-instruction map of a cloned subtree: source -> copy */
static int clone_map(struct nscc_hash *h, const struct bir_inst *s,
		     struct bir_inst *c)
{
	if (nscc_hash_put_ptr(h, s, c, NULL))
		return -ENOMEM;
	for (uint32_t b = 0; b < s->nblocks; b++)
		for (uint32_t k = 0; k < s->blocks[b]->ninsts; k++)
			if (clone_map(h, s->blocks[b]->insts[k],
				      c->blocks[b]->insts[k]))
				return -ENOMEM;
	return 0;
}

/*
 * the deps of @s (copied into @c) on instructions of the cloned subtree
 * (@h: source -> copy): on their copies, whatever the module
 */
static void clone_redep(const struct nscc_hash *h, const struct bir_inst *s,
			struct bir_inst *c)
{
	for (uint32_t d = 0; d < s->ndeps; d++) {
		struct bir_inst *t = s->dep_insts[d] ?
			nscc_hash_get_ptr(h, s->dep_insts[d]) : NULL;

		if (t)
			c->dep_insts[d] = t;	/* a copy keeps its name */
	}
	for (uint32_t b = 0; b < s->nblocks; b++)
		for (uint32_t k = 0; k < s->blocks[b]->ninsts; k++)
			clone_redep(h, s->blocks[b]->insts[k],
				    c->blocks[b]->insts[k]);
}

static struct bir_inst *inst_clone(struct bir_module *m,
				   const struct bir_inst *s)
{
	struct bir_inst *i = bir_inst_new(m, s->opname, s->name);

	if (!i)
		return NULL;
	i->op = s->op;
	i->scope = s->scope;
	if (bir_val_copy(m, &i->attrs, &s->attrs) ||
	    str_copy(m, &i->engine, s->engine))
		goto nomem;
	if (s->ndeps && deps_alloc(i, s->ndeps))
		goto nomem;
	for (uint32_t k = 0; k < s->ndeps; k++) {
		/* references into @m stay; another module's do not */
		i->dep_insts[k] = s->mod == m ? s->dep_insts[k] : NULL;
		if (str_copy(m, &i->deps[k], s->deps[k]))
			goto nomem;
		i->ndeps = k + 1;
	}
	for (int side = 0; side < 2; side++) {
		const struct bir_operand *so = side ? s->outs : s->ins;
		uint32_t n = side ? s->nouts : s->nins;
		struct bir_operand *d = alloc_array(m, n, sizeof(*d));

		if (n && !d)
			goto nomem;
		for (uint32_t k = 0; k < n; k++)
			if (bir_operand_copy(m, &d[k], &so[k]))
				goto nomem;
		if (side) {
			i->outs = d;
			i->nouts = n;
		} else {
			i->ins = d;
			i->nins = n;
		}
	}
	if (s->axis) {
		i->axis = bir_alloc(m, sizeof(*i->axis));
		if (!i->axis)
			goto nomem;
		*i->axis = *s->axis;
		if (str_copy(m, &i->axis->name, s->axis->name))
			goto nomem;
	}
	if (s->nblocks) {
		i->blocks = alloc_array(m, s->nblocks, sizeof(*i->blocks));
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

struct bir_inst *bir_inst_clone(struct bir_module *m, const struct bir_inst *s)
{
	struct bir_inst *i = inst_clone(m, s);
	struct nscc_hash h;
	int rc;

	if (!i || !s->nblocks) {
		/* the subtree is @s alone: a dep on itself */
		for (uint32_t d = 0; i && d < i->ndeps; d++)
			if (s->dep_insts[d] == s)
				i->dep_insts[d] = i;
		return i;
	}
	nscc_hash_init(&h);
	rc = clone_map(&h, s, i);
	if (!rc)
		clone_redep(&h, s, i);
	nscc_hash_fini(&h);
	if (rc) {
		bir_inst_free(i);
		return NULL;
	}
	return i;
}

static struct bir_block *block_clone(struct bir_module *m,
				     const struct bir_block *s)
{
	struct bir_block *b = bir_alloc(m, sizeof(*b));

	if (!b)
		return NULL;
	b->id = ++m->next_id;
	if (str_copy(m, &b->name, s->name) ||
	    bir_val_copy(m, &b->extra, &s->extra))
		return NULL;
	for (uint32_t k = 0; k < s->ninsts; k++) {
		struct bir_inst *i = inst_clone(m, s->insts[k]);

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

/* ---- instruction attributes ----------------------------------------- */

const struct bir_val *bir_attr_get(const struct bir_inst *i, const char *key)
{
	return bir_val_get(&i->attrs, key);
}

const char *bir_attr_str(const struct bir_inst *i, const char *key)
{
	const struct bir_val *v = bir_attr_get(i, key);

	return v && v->kind == BIR_VAL_STR ? v->s : NULL;
}

int64_t bir_attr_int(const struct bir_inst *i, const char *key, int64_t def)
{
	const struct bir_val *v = bir_attr_get(i, key);

	if (v && v->kind == BIR_VAL_INT)
		return v->i;
	if (v && v->kind == BIR_VAL_BOOL)
		return v->b;
	return def;
}

double bir_attr_num(const struct bir_inst *i, const char *key, double def)
{
	const struct bir_val *v = bir_attr_get(i, key);

	if (v && v->kind == BIR_VAL_INT)
		return (double)v->i;
	if (v && v->kind == BIR_VAL_REAL)
		return v->r;
	return def;
}

int bir_attr_set(struct bir_inst *i, const char *key, const struct bir_val *v)
{
	return bir_val_set(i->mod, &i->attrs, key, v);
}

void bir_attr_del(struct bir_inst *i, const char *key)
{
	bir_val_del(&i->attrs, key);
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

int bir_warn(const struct bir_opts *o, struct nscc_err *err,
	     const char *fmt, ...)
{
	char msg[NSCC_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (o->stats)
		o->stats->warnings++;
	if (o->warn)
		fprintf(o->warn, "%swarning: %s\n",
			o->warn_prefix ? o->warn_prefix : "", msg);
	if (!o->werror)
		return 0;
	snprintf(err->msg, sizeof(err->msg),
		 "%.440s (a warning; -Werror makes it an error)", msg);
	return -EINVAL;
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
		    bir_foreach_inst(m->fns[k], calls_fn, (void *)f->name))
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

struct ref_walk {
	const struct bir_function *f;
	const struct bir_inst *bad;
	const struct bir_operand *o;
	const char *dep;
};

/*
 * does every dep of @i reference an instruction of its name (of the
 * function when in one: an instruction a pass removed, a kernel call
 * site, stays what the dep follows), or none when the name names none
 */
static bool deps_ok(struct ref_walk *w, const struct bir_inst *i)
{
	for (uint32_t d = 0; d < i->ndeps; d++) {
		const struct bir_inst *t = i->dep_insts[d];
		const struct bir_function *tf = t && t->parent ?
						inst_fn(t->parent) : NULL;

		if (t ? strcmp(t->name, i->deps[d]) || (tf && tf != w->f) :
			bir_inst_find(w->f, i->deps[d]) != NULL) {
			w->bad = i;
			w->dep = i->deps[d];
			return false;
		}
	}
	return true;
}

/* does every operand of @i reference what its name names in the function */
static int walk_refs(struct bir_inst *i, void *arg)
{
	struct ref_walk *w = arg;

	if (!deps_ok(w, i))
		return 1;
	for (int side = 0; side < 2; side++) {
		const struct bir_operand *ops = side ? i->outs : i->ins;
		uint32_t n = side ? i->nouts : i->nins;

		for (uint32_t k = 0; k < n; k++) {
			const struct bir_operand *o = &ops[k];
			bool ok = true;

			if (o->kind == BIR_OPND_AP)
				ok = o->ml == (o->name ?
					       bir_memloc_find(w->f, o->name) : NULL);
			else if (o->kind == BIR_OPND_REG)
				ok = o->reg == (o->name ?
						bir_register_find(w->f, o->name) : NULL);
			if (!ok) {
				w->bad = i;
				w->o = o;
				return 1;
			}
		}
	}
	return 0;
}

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
	if (!rc) {
		struct ref_walk r = { .f = f };

		bir_foreach_inst((struct bir_function *)f, walk_refs, &r);
		if (r.dep) {
			snprintf(err->msg, sizeof(err->msg),
				 "function '%s': instruction '%s': dep '%s' does not reference what its name names",
				 f->name, r.bad->name, r.dep);
			rc = -EINVAL;
		} else if (r.bad) {
			snprintf(err->msg, sizeof(err->msg),
				 "function '%s': instruction '%s': operand '%s' does not reference what its name names",
				 f->name, r.bad->name, r.o->name ? r.o->name : "");
			rc = -EINVAL;
		}
	}
	return rc;
}
