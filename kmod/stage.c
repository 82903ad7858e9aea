// SPDX-License-Identifier: GPL-2.0
/*
 * stage.c - LOAD staging: give every variable of a checked KBIN plan its
 * device address, once (libnrt's vtpb_info_shared_init_vtpb and
 * mem_ref_copy_and_stage_mr; Documentation/hardware.rst, "Kinds", and
 * Documentation/uapi.rst, NEURONSIM_IOC_LOAD).
 *
 * Subgraph i runs on NeuronCore first_core + i and allocates from that
 * core's HBM channel.  Per subgraph, in O(nmem + list entries):
 *
 *   1. arrays (hot mem_refs, cold debugfs data, names, dims, lists,
 *      hashtable) and the local scratchpad pages are allocated;
 *   2. each record starts unstaged (physical_address all ones) and is
 *      placed by its kind's storage in the kind table (kbin_kind.h):
 *      SBUF at its core's SBUF window (MR_SB); scratchpad at its planned
 *      offset in a scratchpad arena (MR_VIRTUAL_TMP_BUF); HBM and the
 *      address tables each get an aligned HBM allocation of their own
 *      (libnrt's dmem_alloc_aligned), charged to the kind's usage
 *      category (hbm.c), and a payload is copied in ("alloc+copy", else
 *      "alloc only"); index lists are kept; then it is inserted in the
 *      hashtable;
 *   3. kinds whose storage is their target's (MR_PTR) take its address;
 *      each address table is rebuilt as libnrt does at load: every listed
 *      var_id resolved through the resolve core, the per-row
 *      needs_translation mask and addresses kept (its runtime form) and
 *      the addresses written into the table's HBM.
 *
 * The allocations of one load share a cursor (struct nrsim_hbm_cursor), so
 * placing n variables is O(n), not the O(n^2) of first-fit from the
 * channel start.
 *
 * Then remote kinds (MR_REMOTE) take, in a second pass over all
 * subgraphs, the placement of remote_var_id in subgraph
 * remote_vtpb_rel_sg_id.  A failure anywhere leaves the partial model for
 * nrsim_unstage(), which rolls back every subgraph: loads are
 * all-or-nothing.
 *
 * The staged variables' bytes are read and written here too: READ_VAR
 * and WRITE_VAR (ioctl.c dispatches to them), and the lookup and the
 * device-side read TENSOR_COPY uses for a variable (tensor.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "kbin_check.h"
#include "nrsim.h"

/**
 * struct nrsim_stage - one LOAD in progress.
 * @nd: the device.
 * @m: the model being built.
 * @plan: the checked plan.
 * @h: its header.
 * @err: failure report.
 * @page_size: scratchpad page size, bytes.
 * @max_pages: scratchpad pages allowed per arena.
 * @cursor: where the load's HBM allocations start looking (hbm.c).
 */
struct nrsim_stage {
	struct nrsim_device *nd;
	struct nrsim_model *m;
	const u8 *plan;
	const struct kbin_header *h;
	struct kbin_err *err;
	u64 page_size;
	u32 max_pages;
	struct nrsim_hbm_cursor cursor;
};

static const struct kbin_subgraph *nrsim_plan_sg(const struct nrsim_stage *st,
						 u32 s)
{
	return (const struct kbin_subgraph *)(st->plan + st->h->subgraph_table_off) + s;
}

static const struct kbin_mem_ref_set *nrsim_plan_set(const struct nrsim_stage *st,
						     u32 s)
{
	return (const void *)(st->plan + nrsim_plan_sg(st, s)->set_off);
}

static __printf(8, 9)
int nrsim_fail(struct nrsim_stage *st, int s, long long rec, u32 field,
	       u32 reason, u64 value, int errno, const char *fmt, ...)
{
	struct kbin_err *e = st->err;
	size_t n = 0, sz = sizeof(e->msg);
	va_list ap;

	e->subgraph = s;
	e->record = rec;
	e->field = field;
	e->reason = reason;
	e->value = value;
	if (s >= 0)
		n += scnprintf(e->msg + n, sz - n, "sg %d (%s)", s,
			       nrsim_plan_sg(st, s)->name);
	if (s >= 0 && rec >= 0) {
		const struct kbin_mem_ref *r = &nrsim_plan_set(st, s)->mem[rec];

		n += scnprintf(e->msg + n, sz - n, " record %lld var '%s' (%s)",
			       rec, (const char *)st->plan + r->name,
			       kbin_mr_type_str(r->mr_type));
	}
	n += scnprintf(e->msg + n, sz - n, "%s%s: ", n ? ": " : "",
		       kbin_reason_str(reason));
	va_start(ap, fmt);
	n += vscnprintf(e->msg + n, sz - n, fmt, ap);
	va_end(ap);
	scnprintf(e->msg + n, sz - n, " [field %s, value %llu]",
		  kbin_field_str(field), value);
	return errno;
}

/**
 * nrsim_kvcalloc() - a zeroed kernel array a model holds, charged to the
 *	caller's memory cgroup and counted in the model's kmem_bytes.
 * @m: the model.
 * @n: elements (0 allocates one, so the result is never ZERO_SIZE_PTR).
 * @size: bytes per element.
 *
 * Return: the array (free with kvfree()), or NULL.
 */
void *nrsim_kvcalloc(struct nrsim_model *m, size_t n, size_t size)
{
	void *p;

	if (!n)
		n = 1;
	p = kvcalloc(n, size, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (p)
		m->kmem_bytes += n * size;
	return p;
}

/*
 * Allocate the pages of the scratchpad arena of @backing (a
 * kbin_backing_buf) on @core, charged to the arena table's usage
 * (Documentation/uapi.rst, LOAD; Documentation/hardware.rst,
 * "Scratchpad arenas").
 */
static int nrsim_sp_alloc(struct nrsim_stage *st, int s,
			  struct nrsim_scratchpad *sp, u64 size, u32 core,
			 u32 backing)
{
	u32 channel = nrsim_core_channel(st->nd, core);
	u32 usage = kbin_backing(backing)->usage;
	u64 npages, i;

	if (!size)
		return 0;
	npages = kbin_sp_pages(size, st->page_size);
	if (npages > st->max_pages)
		return nrsim_fail(st, s, -1, KBIN_FIELD_SCRATCHPAD,
				 KBIN_ERR_STAGE_SCRATCHPAD, size, -E2BIG,
				 "%s scratchpad of %llu bytes needs %llu pages of %llu bytes, above the maximum of %u",
				 kbin_backing_buf_str(backing), size, npages,
				 st->page_size, st->max_pages);
	sp->pages = nrsim_kvcalloc(st->m, npages, sizeof(*sp->pages));
	if (!sp->pages)
		return nrsim_fail(st, s, -1, KBIN_FIELD_SCRATCHPAD,
				 KBIN_ERR_STAGE_NOMEM, size, -ENOMEM,
				 "no kernel memory for %llu scratchpad pages",
				 npages);
	sp->size = size;
	for (i = 0; i < npages; i++) {
		struct nrsim_hbm_region *pg = &sp->pages[i];
		u64 len = kbin_sp_page_bytes(size, st->page_size, i);

		pg->addr = nrsim_hbm_alloc(st->nd, core, len, NRSIM_HBM_GRANULE,
					   usage, &st->cursor);
		if (!pg->addr)
			return nrsim_fail(st, s, -1, KBIN_FIELD_SCRATCHPAD,
					 KBIN_ERR_STAGE_HBM, size, -ENOSPC,
					 "HBM channel %u has no %llu bytes for %s scratchpad page %llu (%llu bytes free)",
					 channel, len, kbin_backing_buf_str(backing), i,
					 nrsim_hbm_avail(st->nd, channel));
		pg->size = len;
		pg->core = core;
		pg->usage = usage;
		sp->npages++;
		st->m->hbm_bytes += len;
		st->m->scratchpad_bytes += len;
	}
	return 0;
}

static void nrsim_sp_free(struct nrsim_device *nd, struct nrsim_scratchpad *sp)
{
	u32 i;

	for (i = 0; i < sp->npages; i++)
		nrsim_hbm_free(nd, sp->pages[i].core, sp->pages[i].addr,
			       sp->pages[i].size, sp->pages[i].usage);
	kvfree(sp->pages);
	memset(sp, 0, sizeof(*sp));
}

static int nrsim_mem_fail(struct nrsim_stage *st, int s, u32 i, int ret,
			  u64 bytes, const char *what)
{
	char cap[160];

	if (ret == -EDQUOT)
		return nrsim_fail(st, s, i, KBIN_FIELD_BUFFER,
				 KBIN_ERR_STAGE_BACKING, bytes, -ENOMEM,
				 "%s: %s", what,
				 nrsim_mem_cap_str(&st->nd->mem, cap, sizeof(cap)));
	return nrsim_fail(st, s, i, KBIN_FIELD_BUFFER, KBIN_ERR_STAGE_NOMEM,
			 bytes, -ENOMEM, "%s: out of kernel memory", what);
}

/* "WEIGHT 65536, IO 4096" of @bytes per usage category, or "nothing" */
static size_t nrsim_usage_list(const u64 *bytes, char *buf, size_t size)
{
	size_t n = 0;
	u32 u;

	buf[0] = '\0';
	for (u = 0; u <= KBIN_USAGE_MAX; u++)
		if (bytes[u])
			n += scnprintf(buf + n, size - n, "%s%s %llu",
				       n ? ", " : "", kbin_usage_str(u), bytes[u]);
	if (!n)
		n = scnprintf(buf, size, "nothing");
	return n;
}

/*
 * HBM the model being loaded holds on @channel per usage category, and
 * what subgraph @s's variables of @usage hold: the failure report's
 * figures, from the placements made so far (O(vars)).
 */
static void nrsim_load_usage(const struct nrsim_stage *st, u32 channel, int s,
			     u32 usage, u64 *bytes, u64 *sg_bytes)
{
	const struct nrsim_model *m = st->m;
	const struct nrsim_scratchpad *sp;
	u32 k, i, p;

	memset(bytes, 0, (KBIN_USAGE_MAX + 1) * sizeof(*bytes));
	*sg_bytes = 0;
	for (k = 0; k < m->num_sg; k++) {
		const struct nrsim_sg *sg = &m->sg[k];

		for (i = 0; sg->cold && i < sg->nmem; i++) {
			const struct nrsim_mr_cold *c = &sg->cold[i];
			u64 n = kbin_hbm_round(sg->mrs[i].size);

			if (c->where != NRSIM_WHERE_HBM)
				continue;
			if (sg->channel == channel)
				bytes[c->usage] += n;
			if (k == s && c->usage == usage)
				*sg_bytes += n;
		}
	}
	for (k = 0; k < m->num_sg + KBIN_BACKING_BUF_MAX + 1; k++) {
		sp = k < m->num_sg ? &m->sg[k].local_sp :
		     &m->load_sp[k - m->num_sg];
		for (p = 0; p < sp->npages; p++)
			if (nrsim_core_channel(st->nd, sp->pages[p].core) == channel)
				bytes[sp->pages[p].usage] += sp->pages[p].size;
	}
}

/* Report that variable @i of @bytes found no HBM on its channel. */
static int nrsim_hbm_fail(struct nrsim_stage *st, int s, u32 i,
			  struct nrsim_sg *sg, u64 bytes, u64 align, u32 usage)
{
	u64 avail = nrsim_hbm_avail(st->nd, sg->channel);
	u64 load[KBIN_USAGE_MAX + 1], sg_bytes;
	char inuse[200], mine[200];

	nrsim_hbm_usage_str(st->nd, sg->channel, inuse, sizeof(inuse));
	nrsim_load_usage(st, sg->channel, s, usage, load, &sg_bytes);
	nrsim_usage_list(load, mine, sizeof(mine));
	return nrsim_fail(st, s, i, KBIN_FIELD_SIZE, KBIN_ERR_STAGE_HBM, bytes,
			 -ENOSPC,
			 "the variable asks for %llu bytes at alignment %llu; HBM channel %u has no free range that large (%llu bytes free); the subgraph's %s would total %llu bytes; in use on the channel: %s; this load: %s",
			 bytes, kbin_hbm_align(align),
			 sg->channel, avail, kbin_usage_str(usage),
			 sg_bytes + kbin_hbm_round(bytes), inuse,
			 mine);
}

/*
 * Give variable @i its own HBM allocation on its subgraph's core: the
 * size, alignment and usage category kbin_mem_ref_hbm() gives it
 * (libnrt's dmem_alloc_aligned; kbin_memory.h), and copy its payload in.
 */
static int nrsim_stage_hbm(struct nrsim_stage *st, int s, u32 i,
			   struct nrsim_sg *sg, const struct kbin_mem_ref *r)
{
	struct nrsim_mr *mr = &sg->mrs[i];
	struct nrsim_mr_cold *c = &sg->cold[i];
	struct kbin_hbm_alloc a;
	u64 addr, bytes, align;
	u32 usage;
	int ret;

	kbin_mem_ref_hbm(r, &a);	/* storage HBM or TABLE: it has one */
	bytes = a.bytes;
	align = a.align;
	usage = a.usage;

	if (nrsim_fault_hit(&st->nd->fault.hbm_alloc_nth))
		return nrsim_fail(st, s, i, KBIN_FIELD_SIZE, KBIN_ERR_STAGE_FAULT,
				 bytes, -ENOSPC,
				 "HBM allocation of %llu bytes failed (injected by fail_hbm_alloc_nth)",
				 bytes);
	addr = nrsim_hbm_alloc(st->nd, sg->core, bytes, align, usage,
			       &st->cursor);
	if (!addr)
		return nrsim_hbm_fail(st, s, i, sg, bytes, align, usage);
	mr->size = bytes;
	mr->pa = addr;
	c->where = NRSIM_WHERE_HBM;
	c->where_idx = sg->channel;
	c->usage = usage;
	st->m->hbm_bytes += kbin_hbm_round(bytes);
	if (!r->buffer)
		return 0;
	if (nrsim_fault_hit(&st->nd->fault.copyin_nth))
		return nrsim_fail(st, s, i, KBIN_FIELD_BUFFER, KBIN_ERR_STAGE_FAULT,
				 r->size, -EIO,
				 "copy-in of %llu bytes failed (injected by fail_copyin_nth)",
				 r->size);
	ret = nrsim_mem_write(&st->nd->mem, addr, st->plan + r->buffer, r->size);
	if (ret)
		return nrsim_mem_fail(st, s, i, ret, r->size, "payload copy-in");
	return 0;
}

/* One record: its placement by its kind's storage, then the hashtable. */
static int nrsim_stage_record(struct nrsim_stage *st, int s, u32 i,
			      struct nrsim_sg *sg, const struct kbin_mem_ref *r,
			     u32 *name_off, u32 *dims_off, u32 *list_off)
{
	struct nrsim_mr *mr = &sg->mrs[i];
	struct nrsim_mr_cold *c = &sg->cold[i];
	const char *name = (const char *)st->plan + r->name;
	size_t nlen = strlen(name) + 1;
	struct nrsim_scratchpad *sp;
	u64 sbuf_bytes, in, pg;
	u32 d;
	int ret;

	mr->pa = NRSIM_PA_UNSTAGED;
	mr->size = r->size;
	mr->var_id = r->var_id;
	mr->type = r->mr_type;
	memcpy(sg->names + *name_off, name, nlen);
	c->name_off = *name_off;
	*name_off += nlen;
	c->dims_off = *dims_off;
	for (d = 0; d < KBIN_SHAPE_MAX && r->shape[d]; d++)
		sg->dims[(*dims_off)++] = r->shape[d];
	c->ndims = d;
	c->alignment_log2 = ilog2(r->alignment);
	memcpy(c->dtype, r->dtype, sizeof(c->dtype));
	c->has_payload = !!r->buffer;

	/* by the kind's storage (kbin_kind.h); each is staged its own way */
	switch (kbin_kind(r->mr_type)->storage) {
	case KBIN_STORAGE_SBUF:
		/* the window: partition p's bytes at p * stride (hardware.rst) */
		sbuf_bytes = st->nd->arch->sbuf_window_size;
		if (r->size > sbuf_bytes)
			return nrsim_fail(st, s, i, KBIN_FIELD_SIZE,
					 KBIN_ERR_STAGE_SBUF, r->size, -EINVAL,
					 "%s of %llu bytes is larger than core %u's %llu-byte SBUF window",
					 kbin_mr_type_str(r->mr_type), r->size,
					 sg->core, sbuf_bytes);
		nrsim_rc_sbuf_init(mr, st->nd->arch->sbuf_partition_size,
				   st->nd->arch->sbuf_partition_stride);
		mr->pa = nrsim_sbuf_base(st->nd, sg->core);
		c->where = NRSIM_WHERE_SBUF;
		c->where_idx = sg->core;
		c->mode = KBIN_MODE_SBUF;
		break;
	case KBIN_STORAGE_PSUM:
		/*
		 * the PSUM window: partition p's bytes at p * psum_banks *
		 * KBIN_PSUM_BANK_SIZE (hardware.rst); zeros until written, as
		 * the SBUF window (the core's PSUM is cleared when it is
		 * reserved)
		 */
		if (r->size > st->nd->arch->psum_size)	/* the checker's */
			return nrsim_fail(st, s, i, KBIN_FIELD_SIZE,
					 KBIN_ERR_SIZE, r->size, -EINVAL,
					 "%s of %llu bytes is larger than core %u's %llu-byte PSUM window",
					 kbin_mr_type_str(r->mr_type), r->size,
					 sg->core, st->nd->arch->psum_size);
		mr->pa = nrsim_psum_base(st->nd, sg->core);
		c->where = NRSIM_WHERE_PSUM;
		c->where_idx = sg->core;
		c->mode = KBIN_MODE_PSUM;
		break;
	case KBIN_STORAGE_SCRATCHPAD:
		/* the arena its backing_buf names (the arena table) */
		if (kbin_backing(r->virt.backing_buf)->scope == KBIN_ARENA_SUBGRAPH)
			sp = &sg->local_sp;
		else
			sp = &st->m->load_sp[r->virt.backing_buf];
		c->where = NRSIM_WHERE_SP_LOCAL + r->virt.backing_buf;
		pg = div64_u64_rem(r->virt.offset, st->page_size, &in);
		if (in + r->size > st->page_size)
			return nrsim_fail(st, s, i, KBIN_FIELD_UNION,
					 KBIN_ERR_STAGE_SCRATCHPAD, r->virt.offset,
					 -EINVAL,
					 "offset %llu + size %llu straddles scratchpad page %llu of %llu bytes",
					 r->virt.offset, r->size, pg,
					 st->page_size);
		if (pg >= sp->npages)	/* the checker guarantees it */
			return nrsim_fail(st, s, i, KBIN_FIELD_UNION,
					 KBIN_ERR_VIRT_RANGE, r->virt.offset,
					 -EINVAL, "offset beyond the scratchpad");
		mr->pa = sp->pages[pg].addr + in;
		c->where_idx = nrsim_core_channel(st->nd, sp->pages[pg].core);
		c->usage = sp->pages[pg].usage;
		c->mode = KBIN_MODE_SCRATCHPAD;
		break;
	case KBIN_STORAGE_HBM:
		c->mode = r->buffer ? KBIN_MODE_ALLOC_COPY : KBIN_MODE_ALLOC_ONLY;
		ret = nrsim_stage_hbm(st, s, i, sg, r);
		if (ret)
			return ret;
		break;
	case KBIN_STORAGE_INDEX:
	case KBIN_STORAGE_TABLE:
		memcpy(sg->lists + *list_off, st->plan + r->list.list,
		       (size_t)r->list.length * sizeof(u32));
		mr->aux = *list_off;
		mr->aux2 = r->list.length;
		*list_off += r->list.length;
		if (kbin_kind(r->mr_type)->storage == KBIN_STORAGE_INDEX) {
			c->mode = KBIN_MODE_LIST;
			break;
		}
		/* the table: one u64 device address per listed variable */
		c->mode = KBIN_MODE_TABLE;
		ret = nrsim_stage_hbm(st, s, i, sg, r);
		if (ret)
			return ret;
		break;
	case KBIN_STORAGE_TARGET:
		mr->aux = r->pointer.referenced_var_id;
		c->where = NRSIM_WHERE_TARGET;
		c->mode = KBIN_MODE_POINTER;
		break;
	case KBIN_STORAGE_REMOTE:
		mr->aux = r->remote.remote_vtpb_rel_sg_id;
		mr->aux2 = r->remote.remote_var_id;
		c->where = NRSIM_WHERE_REMOTE;
		c->where_idx = mr->aux;
		c->mode = KBIN_MODE_REMOTE;
		break;
	}
	nrsim_sg_hash_insert(sg, mr);
	return 0;
}

/*
 * An MR_PTR_TABLE as libnrt rebuilds it at load: each listed var_id
 * resolved through the resolve core (the hashtable, then the rule at
 * offset 0), its needs_translation bit and address kept in the runtime
 * form (sg->table_mask, sg->table_addrs), and the addresses written into
 * the table's HBM as little-endian u64 (0 for a row needing none).
 */
static int nrsim_write_table(struct nrsim_device *nd, struct nrsim_sg *sg,
			     struct nrsim_mr *mr)
{
	const u32 *ent = sg->lists + mr->aux;
	__le64 buf[64];
	u32 k, n;
	int ret;

	for (k = 0; k < mr->aux2; k += n) {
		u32 j;

		n = min_t(u32, mr->aux2 - k, ARRAY_SIZE(buf));
		for (j = 0; j < n; j++) {
			u32 idx = mr->aux + k + j;
			u64 addr;

			if (nrsim_rc_table_row(nrsim_sg_find(sg, ent[k + j]), &addr))
				__set_bit(idx, sg->table_mask);
			sg->table_addrs[idx] = addr;
			buf[j] = cpu_to_le64(addr);
		}
		ret = nrsim_mem_write(&nd->mem, mr->pa + (u64)k * sizeof(u64),
				      buf, n * sizeof(u64));
		if (ret)
			return ret;
	}
	return 0;
}

static int nrsim_stage_sg(struct nrsim_stage *st, u32 s, u32 core)
{
	const struct kbin_subgraph *ksg = nrsim_plan_sg(st, s);
	const struct kbin_mem_ref_set *set = nrsim_plan_set(st, s);
	struct nrsim_sg *sg = &st->m->sg[s];
	u64 names = 0, dims = 0, lists = 0, rows = 0, local_need = 0;
	u32 i, d, name_off = 0, dims_off = 0, list_off = 0;
	int ret;

	sg->nmem = set->nmem;
	sg->core = core;
	sg->channel = nrsim_core_channel(st->nd, core);
	strscpy(sg->name, ksg->name, sizeof(sg->name));
	sg->num_carveouts = ksg->num_carveouts;
	memcpy(sg->carveouts, ksg->carveouts, sizeof(sg->carveouts));

	for (i = 0; i < set->nmem; i++) {
		const struct kbin_mem_ref *r = &set->mem[i];

		names += strlen((const char *)st->plan + r->name) + 1;
		for (d = 0; d < KBIN_SHAPE_MAX && r->shape[d]; d++)
			dims++;
		if (kbin_kind(r->mr_type)->variant == KBIN_VARIANT_LIST)
			lists += r->list.length;
		if (kbin_kind(r->mr_type)->storage == KBIN_STORAGE_TABLE)
			rows += r->list.length;
		if (kbin_kind(r->mr_type)->storage == KBIN_STORAGE_SCRATCHPAD &&
		    kbin_backing(r->virt.backing_buf)->scope == KBIN_ARENA_SUBGRAPH)
			local_need = max(local_need, r->virt.offset + r->size);
		if (!(i & 4095))
			cond_resched();
	}
	if (names > U32_MAX || dims > U32_MAX || lists > U32_MAX)
		return nrsim_fail(st, s, -1, KBIN_FIELD_NMEM, KBIN_ERR_STAGE_LIMIT,
				 set->nmem, -E2BIG,
				 "names, dimensions or lists above 2^32 entries");
	sg->mrs = nrsim_kvcalloc(st->m, sg->nmem, sizeof(*sg->mrs));
	sg->cold = nrsim_kvcalloc(st->m, sg->nmem, sizeof(*sg->cold));
	sg->names = nrsim_kvcalloc(st->m, names, 1);
	sg->dims = nrsim_kvcalloc(st->m, dims, sizeof(*sg->dims));
	sg->lists = nrsim_kvcalloc(st->m, lists, sizeof(*sg->lists));
	if (rows) {	/* the tables' runtime form, by index in sg->lists */
		sg->table_addrs = nrsim_kvcalloc(st->m, lists,
						 sizeof(*sg->table_addrs));
		sg->table_mask = nrsim_kvcalloc(st->m, BITS_TO_LONGS(lists),
						sizeof(*sg->table_mask));
	}
	if (!sg->mrs || !sg->cold || !sg->names || !sg->dims || !sg->lists ||
	    (rows && (!sg->table_addrs || !sg->table_mask)) ||
	    nrsim_sg_hash_init(sg))
		return nrsim_fail(st, s, -1, KBIN_FIELD_NMEM, KBIN_ERR_STAGE_NOMEM,
				 set->nmem, -ENOMEM,
				 "no kernel memory for %u mem_refs", set->nmem);
	st->m->kmem_bytes += ((size_t)1 << sg->hash_bits) * sizeof(*sg->buckets);

	ret = nrsim_sp_alloc(st, s, &sg->local_sp, set->local_scratchpad_size,
			     sg->core, KBIN_BACKING_BUF_LOCAL);
	if (ret)
		return ret;
	/*
	 * The local scratchpad holds LOCAL virtual buffers only; a larger
	 * size is an older compiler's, which counted tmp buffers in it (or
	 * the model's own wish): allocated as planned, with a note
	 * (Documentation/hardware.rst, "Tmp buffers and the local
	 * scratchpad").
	 */
	if (set->local_scratchpad_size > local_need)
		dev_notice_ratelimited(st->nd->misc.this_device,
				       "sg %u (%s): local_scratchpad_size %llu is above the %llu bytes its LOCAL virtual buffers need (tmp buffers are HBM allocations of their own; an older compiler counted them in it); allocated as planned\n",
				       s, sg->name, set->local_scratchpad_size,
				       local_need);

	for (i = 0; i < set->nmem; i++) {
		ret = nrsim_stage_record(st, s, i, sg, &set->mem[i], &name_off,
					 &dims_off, &list_off);
		if (ret)
			return ret;
		if (!(i & 4095))
			cond_resched();
	}

	/* pointers and pointer tables, now that every target is placed */
	for (i = 0; i < set->nmem; i++) {
		struct nrsim_mr *mr = &sg->mrs[i];
		u8 storage = kbin_kind(mr->type)->storage;

		if (storage == KBIN_STORAGE_TARGET) {
			mr->pa = sg->mrs[mr->aux].pa;
		} else if (storage == KBIN_STORAGE_TABLE) {
			ret = nrsim_write_table(st->nd, sg, mr);
			if (ret)
				return nrsim_mem_fail(st, s, i, ret, mr->size,
						     "pointer table");
		}
		if (!(i & 4095))
			cond_resched();
	}
	return 0;
}

/* Second pass: remote kinds (libnrt's mem_ref_create_remote_mrs). */
static int nrsim_stage_remote(struct nrsim_stage *st)
{
	struct nrsim_model *m = st->m;
	u32 s, i;

	for (s = 0; s < m->num_sg; s++) {
		struct nrsim_sg *sg = &m->sg[s];

		for (i = 0; i < sg->nmem; i++) {
			struct nrsim_mr *mr = &sg->mrs[i];
			const struct nrsim_mr *src;

			if (kbin_kind(mr->type)->storage != KBIN_STORAGE_REMOTE)
				continue;
			src = mr->aux < m->num_sg ?
			      nrsim_sg_find(&m->sg[mr->aux], mr->aux2) : NULL;
			if (!src || src->pa == NRSIM_PA_UNSTAGED)
				return nrsim_fail(st, s, i, KBIN_FIELD_UNION,
						 KBIN_ERR_REMOTE_VAR, mr->aux2,
						 -EINVAL,
						 "Failed to find remote variable %u in relative sg %u",
						 mr->aux2, mr->aux);
			mr->pa = src->pa;
			/* the source's SBUF window and its gap, if it has one */
			mr->sbuf = src->sbuf;
			mr->flags |= NRSIM_MR_REMOTE;
			if (!(i & 4095))
				cond_resched();
		}
		cond_resched();
	}
	return 0;
}

static void nrsim_log_staged(struct nrsim_model *m)
{
	struct device *dev = m->nd->misc.this_device;
	u32 s, i;

	for (s = 0; s < m->num_sg; s++) {
		const struct nrsim_sg *sg = &m->sg[s];

		for (i = 0; i < sg->nmem; i++) {
			const struct nrsim_mr *mr = &sg->mrs[i];

			if (mr->pa == NRSIM_PA_UNSTAGED)
				continue;
			dev_dbg(dev, "Staged memref {%s} id {%u} to {0x%llx}. mem.addr {0x%llx}, HBM: %u (%s)\n",
				sg->names + sg->cold[i].name_off, mr->var_id,
				mr->pa, mr->pa, sg->channel,
				kbin_stage_mode_str(sg->cold[i].mode));
			if (!(i & 4095))
				cond_resched();
		}
	}
}

/**
 * nrsim_stage() - stage a checked plan into a new model
 *	(Documentation/hardware.rst, "The mem_ref on the load side").
 * @m: a model from nrsim_model_alloc() with one slot per plan subgraph.
 * @plan: the plan, accepted by kbin_check_plan().
 * @len: its length in bytes.
 * @first_core: NeuronCore of subgraph 0 (subgraph i runs on first_core +
 *	i), or NEURONSIM_CORE_ANY for the first run of free cores; the cores
 *	are reserved for the loading thread group (core.c) and @m->first_core
 *	is the one chosen.
 * @err: filled on failure: subgraph, record, field, reason
 *	(KBIN_ERR_STAGE_* or a plan reason) and readable text.
 *
 * On failure the partial model is left for nrsim_model_free(), which rolls
 * back every subgraph.
 *
 * Return: 0; -EINVAL plan target is not this device's generation, an
 * MR_SB larger than the SBUF window, or a virtual buffer straddling a
 * scratchpad page; -ENODEV not enough NeuronCores from @first_core; -EBUSY
 * a core is another thread group's (or no run of free cores); -E2BIG vars per
 * subgraph above max_vars_per_subgraph or scratchpad pages above
 * scratchpad_max_pages; -ENOSPC HBM exhausted (or fail_hbm_alloc_nth);
 * -EIO fail_copyin_nth; -ENOMEM kernel memory or the backing RAM cap.
 */
int nrsim_stage(struct nrsim_model *m, const void *plan, u64 len,
		u32 first_core, struct kbin_err *err)
{
	struct nrsim_stage st = {
		.nd = m->nd,
		.m = m,
		.plan = plan,
		.h = plan,
		.err = err,
		.page_size = nrsim_scratchpad_page_size,
		.max_pages = READ_ONCE(nrsim_scratchpad_max_pages),
	};
	u64 sp_size[KBIN_BACKING_BUF_MAX + 1];
	u32 s, b, busy;
	pid_t busy_pid;
	int ret;

	m->target_gen = st.h->target_gen;
	m->first_core = first_core;
	if (st.h->target_gen != st.nd->arch->gen)
		return nrsim_fail(&st, -1, -1, KBIN_FIELD_TARGET_GEN,
				 KBIN_ERR_TARGET, st.h->target_gen, -EINVAL,
				 "plan is for generation %u, the device (%s) is generation %u",
				 st.h->target_gen, st.nd->arch->name,
				 st.nd->arch->gen);
	if (first_core == NEURONSIM_CORE_ANY &&
	    m->num_sg > st.nd->arch->num_cores)
		return nrsim_fail(&st, -1, -1, KBIN_FIELD_NUM_SUBGRAPHS,
				 KBIN_ERR_STAGE_CORES, m->num_sg, -ENODEV,
				 "%u subgraphs do not fit the %u cores",
				 m->num_sg, st.nd->arch->num_cores);
	if (first_core != NEURONSIM_CORE_ANY &&
	    (first_core >= st.nd->arch->num_cores ||
	     m->num_sg > st.nd->arch->num_cores - first_core))
		return nrsim_fail(&st, -1, -1, KBIN_FIELD_NUM_SUBGRAPHS,
				 KBIN_ERR_STAGE_CORES, m->num_sg, -ENODEV,
				 "%u subgraphs from NeuronCore %u do not fit the %u cores",
				 m->num_sg, first_core, st.nd->arch->num_cores);
	for (s = 0; s < m->num_sg; s++) {
		const struct kbin_mem_ref_set *set = nrsim_plan_set(&st, s);

		if (set->nmem > READ_ONCE(nrsim_max_vars_per_subgraph))
			return nrsim_fail(&st, s, -1, KBIN_FIELD_NMEM,
					 KBIN_ERR_STAGE_LIMIT, set->nmem, -E2BIG,
					 "%u records are above max_vars_per_subgraph %u",
					 set->nmem, nrsim_max_vars_per_subgraph);
		m->num_vars += set->nmem;
	}

	/* the cores: the caller's thread group's from here to nrsim_unstage() */
	ret = nrsim_cores_reserve(st.nd, m->owner_tgid, &first_core, m->num_sg,
				  &busy, &busy_pid);
	if (ret)
		return nrsim_fail(&st, -1, -1, KBIN_FIELD_NONE,
				 KBIN_ERR_STAGE_CORES, busy, -EBUSY,
				 "NeuronCore(s) not available: %sNeuronCore %u is reserved by process %d",
				 m->first_core == NEURONSIM_CORE_ANY ?
				 "no free run of cores; " : "", busy, busy_pid);
	m->first_core = first_core;
	m->cores_reserved = true;

	/* the load's arenas (SHARED, SHARDED, MAIN) on its first core */
	kbin_mem_load_arenas(plan, sp_size);
	for (b = 0; b <= KBIN_BACKING_BUF_MAX; b++) {
		if (kbin_backing(b)->scope != KBIN_ARENA_LOAD)
			continue;
		ret = nrsim_sp_alloc(&st, -1, &m->load_sp[b], sp_size[b],
				     first_core, b);
		if (ret)
			return ret;
	}
	for (s = 0; s < m->num_sg; s++) {
		ret = nrsim_stage_sg(&st, s, first_core + s);
		if (ret)
			return ret;
	}
	ret = nrsim_stage_remote(&st);
	if (ret)
		return ret;
	nrsim_log_staged(m);
	return 0;
}

/**
 * nrsim_unstage() - roll back everything nrsim_stage() did, complete or
 *	partial: the variables' HBM and scratchpad pages (with their backing),
 *	SBUF window users, and the kernel arrays.
 * @m: the model (not published).
 */
void nrsim_unstage(struct nrsim_model *m)
{
	u32 s, i;

	for (s = 0; s < m->num_sg; s++) {
		struct nrsim_sg *sg = &m->sg[s];

		/* every variable with an HBM allocation of its own */
		for (i = 0; sg->cold && i < sg->nmem; i++) {
			if (sg->cold[i].where != NRSIM_WHERE_HBM)
				continue;
			nrsim_hbm_free(m->nd, sg->core, sg->mrs[i].pa,
				       sg->mrs[i].size, sg->cold[i].usage);
			sg->cold[i].where = NRSIM_WHERE_NONE;
			if (!(i & 4095))
				cond_resched();
		}
		nrsim_sp_free(m->nd, &sg->local_sp);
		kvfree(sg->buckets);
		kvfree(sg->mrs);
		kvfree(sg->cold);
		kvfree(sg->names);
		kvfree(sg->dims);
		kvfree(sg->lists);
		kvfree(sg->table_addrs);
		kvfree(sg->table_mask);
		sg->table_addrs = NULL;
		sg->table_mask = NULL;
		sg->buckets = NULL;
		sg->mrs = NULL;
		sg->cold = NULL;
		sg->names = NULL;
		sg->dims = NULL;
		sg->lists = NULL;
		sg->nmem = 0;
	}
	for (i = 0; i <= KBIN_BACKING_BUF_MAX; i++)
		nrsim_sp_free(m->nd, &m->load_sp[i]);
	if (m->cores_reserved)
		nrsim_cores_release(m->nd, m->first_core, m->num_sg);
	m->cores_reserved = false;
}

/*
 * Whether bytes [@off, @off + @len) of @mr of subgraph @sg that @what
 * (WRITE_VAR, TENSOR_COPY) writes touch the gap past a partition's bytes
 * of the SBUF window @mr's bytes are in (MR_SB, or an MR_REMOTE of one:
 * the resolve rule's test, resolve_core.h); says where, in @m's device's
 * log (kbin_sbuf_gap_strerror(): the simulator's rule, its words), when
 * they do.
 */
static bool nrsim_var_write_sbuf_gap(const struct nrsim_model *m,
				     const struct nrsim_sg *sg,
				    const struct nrsim_mr *mr, u64 off, u64 len,
				    const char *what)
{
	char why[KBIN_RESOLVE_TEXT_MAX];
	u32 part = nrsim_rc_sbuf_part(mr), stride = nrsim_rc_sbuf_stride(mr);

	if (!mr->sbuf || !nrsim_rc_sbuf_gap(part, stride, off, len))
		return false;
	dev_info_ratelimited(&m->nd->dev, "%s model %u var_id %u: %s\n",
			     what, m->id, mr->var_id,
			     kbin_sbuf_gap_strerror(why, sizeof(why),
						    sg->names + sg->cold[mr - sg->mrs].name_off,
						    off, len, part, stride));
	return true;
}

/*
 * READ_VAR of @mr, whose bytes are an SBUF window (MR_SB, or an MR_REMOTE
 * of one): bytes [@off, @off + @len), each partition's bytes as they are
 * and the gap past them as zeros (Documentation/uapi.rst), into @dst.  At
 * most one partition stride a step, so the walk is at most 128 steps of a
 * 32 MiB window.
 */
static int nrsim_var_read_sb(struct nrsim_mem *mem, const struct nrsim_mr *mr,
			     u64 off, u64 len, u8 __user *dst)
{
	u32 part = nrsim_rc_sbuf_part(mr), stride = nrsim_rc_sbuf_stride(mr);
	u64 b, n;
	int ret;

	if (part >= stride)
		return nrsim_mem_read_user(mem, mr->pa + off, dst, len);
	while (len) {
		b = off & (stride - 1);
		if (b < part) {
			n = min_t(u64, len, part - b);
			ret = nrsim_mem_read_user(mem, mr->pa + off, dst, n);
			if (ret)
				return ret;
		} else {
			n = min_t(u64, len, stride - b);
			if (clear_user(dst, n))
				return -EFAULT;
		}
		off += n;
		dst += n;
		len -= n;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/**
 * nrsim_var_read_dev() - READ_VAR's bytes of a variable, to device memory
 *	rather than to user space (TENSOR_COPY from a variable, tensor.c).
 * @mem: the device's memory.
 * @mr: a variable nrsim_var_find_locked() accepted for reading.
 * @off: bytes into it.
 * @dst: the device address the bytes go to.
 * @len: bytes.
 *
 * An SBUF window's gap past each partition's bytes reads as zeros, as
 * READ_VAR has it; everything else is one device-to-device copy.
 *
 * Context: the variable's file lock held (nrsim_var_find_locked()).
 * Return: 0; -EDQUOT at the backing cap; -ENOMEM; -EINTR on a fatal
 * signal.  Bytes before the failure stay written.
 */
int nrsim_var_read_dev(struct nrsim_mem *mem, const struct nrsim_mr *mr,
		       u64 off, u64 dst, u64 len)
{
	u32 part = mr->sbuf ? nrsim_rc_sbuf_part(mr) : 0;
	u32 stride = mr->sbuf ? nrsim_rc_sbuf_stride(mr) : 0;
	u64 b, n;
	int ret;

	if (part >= stride)
		return nrsim_mem_copy(mem, dst, mr->pa + off, len);
	while (len) {
		b = off & (stride - 1);
		if (b < part) {
			n = min_t(u64, len, part - b);
			ret = nrsim_mem_copy(mem, dst, mr->pa + off, n);
		} else {
			n = min_t(u64, len, stride - b);
			ret = nrsim_mem_fill(mem, dst, 0, n);
		}
		if (ret)
			return ret;
		off += n;
		dst += n;
		len -= n;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/**
 * nrsim_var_find_locked() - the staged variable of one of a file's models
 *	whose bytes READ_VAR or WRITE_VAR may move, by their rules: the one
 *	lookup of the variable I/O (READ_VAR, WRITE_VAR, TENSOR_COPY).
 * @nf: the caller's file, @nf->lock held.
 * @io: the variable and range: @io->model_id, subgraph, var_id, offset
 *	and len (@io->flags and @io->buf are not read).
 * @write: the bytes are written (WRITE_VAR's rules), else read.
 * @what: the call, for the log ("WRITE_VAR", "TENSOR_COPY").
 * @mr: out: the variable.
 *
 * Kinds whose storage is their target's (MR_PTR) or an index list
 * (MR_LIST) have no bytes; an address table (MR_PTR_TABLE) can be read
 * but not written, and neither can the bytes of the model's SBUF
 * carve-outs (the runtime's reservation).  An MR_SB range may span
 * partitions: reading gives the gap past each partition's bytes as zeros
 * (nrsim_var_read_dev()); a write that touches it is refused (-ERANGE,
 * as RESOLVE; the simulator's rule, Documentation/uapi.rst).
 *
 * Return: the model, or an ERR_PTR: -ENOENT unknown model (or another
 * file's), subgraph or variable; -ERANGE out of bounds (or a write
 * touching an MR_SB gap); -ENODATA no storage; -EPERM a write to an
 * MR_PTR_TABLE or an SBUF carve-out.
 */
struct nrsim_model *nrsim_var_find_locked(struct nrsim_file *nf,
					  const struct neuronsim_var_io *io,
					  bool write, const char *what,
					  const struct nrsim_mr **mr)
{
	struct nrsim_model *m;
	const struct nrsim_mr *r;
	u8 storage;
	u64 end;

	lockdep_assert_held(&nf->lock);
	m = nrsim_model_get_locked(nf, io->model_id);
	r = m && io->subgraph < m->num_sg ?
	    nrsim_sg_find(&m->sg[io->subgraph], io->var_id) : NULL;
	if (!r)
		return ERR_PTR(-ENOENT);
	storage = kbin_kind(r->type)->storage;
	if (check_add_overflow(io->offset, io->len, &end) || end > r->size)
		return ERR_PTR(-ERANGE);
	if (write && nrsim_var_write_sbuf_gap(m, &m->sg[io->subgraph], r,
					      io->offset, io->len, what))
		return ERR_PTR(-ERANGE);
	if (storage == KBIN_STORAGE_TARGET || storage == KBIN_STORAGE_INDEX ||
	    r->pa == NRSIM_PA_UNSTAGED)
		return ERR_PTR(-ENODATA);
	if (write && storage == KBIN_STORAGE_TABLE)
		return ERR_PTR(-EPERM);
	if (write && nrsim_sbuf_touches_carveout(m, r->pa + io->offset, io->len))
		return ERR_PTR(-EPERM);
	*mr = r;
	return m;
}

/*
 * NEURONSIM_IOC_READ_VAR / WRITE_VAR: bytes of a staged variable of one
 * of the caller's models, the variable by nrsim_var_find_locked()'s
 * rules.
 */
static long nrsim_var_io(struct nrsim_file *nf, void __user *uarg,
			 size_t usize, bool write)
{
	struct neuronsim_var_io io;
	const struct nrsim_model *m;
	const struct nrsim_mr *mr;
	long ret;

	ret = copy_struct_from_user(&io, sizeof(io), uarg, usize);
	if (ret)
		return ret;
	if (io.flags)
		return -EINVAL;
	mutex_lock(&nf->lock);
	m = nrsim_var_find_locked(nf, &io, write, "WRITE_VAR", &mr);
	if (IS_ERR(m))
		ret = PTR_ERR(m);
	else if (write)
		ret = nrsim_mem_write_user(&nf->nd->mem, mr->pa + io.offset,
					   u64_to_user_ptr(io.buf), io.len);
	else if (mr->sbuf)
		ret = nrsim_var_read_sb(&nf->nd->mem, mr, io.offset, io.len,
					u64_to_user_ptr(io.buf));
	else
		ret = nrsim_mem_read_user(&nf->nd->mem, mr->pa + io.offset,
					  u64_to_user_ptr(io.buf), io.len);
	mutex_unlock(&nf->lock);
	if (ret == -EDQUOT)
		ret = -ENOMEM;
	return ret;
}

/**
 * nrsim_ioctl_read_var() - NEURONSIM_IOC_READ_VAR: read bytes of a staged
 *	variable of one of the caller's models (nrsim_var_io()).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_var_io.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Return: 0, or a negative errno as uapi/linux/neuronsim.h documents.
 */
long nrsim_ioctl_read_var(struct nrsim_file *nf, void __user *uarg,
			  size_t usize)
{
	return nrsim_var_io(nf, uarg, usize, false);
}

/**
 * nrsim_ioctl_write_var() - NEURONSIM_IOC_WRITE_VAR: write bytes of a
 *	staged variable of one of the caller's models (nrsim_var_io()).
 * @nf: the caller's file.
 * @uarg: user pointer to struct neuronsim_var_io.
 * @usize: the caller's struct size (ioctl.c).
 *
 * Return: 0, or a negative errno as uapi/linux/neuronsim.h documents.
 */
long nrsim_ioctl_write_var(struct nrsim_file *nf, void __user *uarg,
			   size_t usize)
{
	return nrsim_var_io(nf, uarg, usize, true);
}
