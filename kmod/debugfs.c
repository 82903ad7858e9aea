// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs.c - /sys/kernel/debug/neuronsim/ (root only; no kernel pointer
 * is ever printed, only ids and device addresses).  One directory per
 * device, neuronsim/neuronsimN/:
 *
 *   device			arch and device address map
 *   cores			per NeuronCore: the owner's pid, its models
 *   tensors			per device tensor of the open files: id, core,
 *				size, address, pid, name (tensor.c)
 *   hbm			per HBM channel and per NeuronCore: used,
 *				peak, total, per usage category and per
 *				device-memory category; backing RAM bytes
 *   stats			module memory accounting
 *   fail_hbm_alloc_nth		fault knob: the Nth HBM placement fails
 *   fail_copyin_nth		fault knob: the Nth payload copy-in fails
 *   fail_reloc_nth		fault knob: the Nth relocation step fails
 *   fail_run_nth		fault knob: the Nth DMA descriptor run fails
 *   engine			per NeuronCore: its DMA engine's counters
 *   models/<id>/info		one loaded model
 *   models/<id>/sg<N>/memrefs	one row per variable of subgraph N
 *   models/<id>/sg<N>/ptr_tables one row per MR_PTR_TABLE row: its
 *				needs_translation bit and address
 *   models/<id>/sg<N>/dma/queues one row per relocated DMA queue
 *   models/<id>/sg<N>/dma/runs	one row per queue: its latest run's state
 *				and progress
 *   models/<id>/sg<N>/dma/semaphores one row per semaphore of each queue
 *   models/<id>/sg<N>/dma/<queue> one row per UDMA descriptor of the
 *				queue's rings, with the variable and offset
 *				it came from
 *   models/<id>/sg<N>/semaphores "index value" per semaphore not zero
 *				after the last execution (exec.c)
 *   models/<id>/sg<N>/engines	per engine: position, instructions, state,
 *				what it waits for, counts per opcode
 *   models/<id>/sg<N>/psum	the bytes of its NeuronCore's PSUM window
 *				(exec.c)
 *
 * While device 0 exists, neuronsim/ also has links to its device, hbm,
 * stats, fault knobs and models/ under their names, the paths of a
 * module with one device.  Documentation/debugfs.rst describes every
 * file and column.
 */
#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/seq_file.h>

#include "kbin_dma.h"

#include "nrsim.h"

/* /sys/kernel/debug/neuronsim/ */
static struct dentry *nrsim_debugfs_root;

/* what neuronsim/ links to in neuronsim0/ */
static const char *const nrsim_debugfs_link_names[NRSIM_DEBUGFS_LINKS] = {
	"device", "hbm", "stats", "fail_hbm_alloc_nth", "fail_copyin_nth",
	"fail_reloc_nth", "models",
};

static int nrsim_device_show(struct seq_file *m, void *unused)
{
	const struct nrsim_device *nd = m->private;
	const struct kbin_gen *a = nd->arch;
	u32 i;

	seq_printf(m, "arch\t%s\ngen\t%u\ncores\t%u\n", a->name, a->gen,
		   a->num_cores);
	seq_printf(m, "sbuf\t%u partitions x %u bytes per core, window %llu bytes\n",
		   a->sbuf_partitions, a->sbuf_partition_size,
		   a->sbuf_window_size);
	for (i = 0; i < a->num_cores; i++)
		seq_printf(m, "sbuf%u\t0x%llx-0x%llx\thbm channel %u\n", i,
			   nrsim_sbuf_base(nd, i),
			   nrsim_sbuf_base(nd, i) + a->sbuf_window_size - 1,
			   nrsim_core_channel(nd, i));
	for (i = 0; i < a->num_hbm_channels; i++)
		seq_printf(m, "hbm%u\t0x%llx-0x%llx\n", i, nrsim_hbm_base(nd, i),
			   nrsim_hbm_base(nd, i) + a->hbm_channel_size - 1);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_device);

static int nrsim_cores_show(struct seq_file *m, void *unused)
{
	struct nrsim_device *nd = m->private;
	pid_t owner[NEURONSIM_MAX_CORES];
	u32 users[NEURONSIM_MAX_CORES], i;

	nrsim_cores_get(nd, owner, users);
	seq_puts(m, "core\towner_pid\tmodels\n");
	for (i = 0; i < nd->arch->num_cores; i++) {
		if (users[i])
			seq_printf(m, "%u\t%d\t%u\n", i, owner[i], users[i]);
		else
			seq_printf(m, "%u\t-\t0\n", i);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_cores);

static int nrsim_hbm_file_show(struct seq_file *m, void *unused)
{
	nrsim_hbm_show(m->private, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_hbm_file);

static int nrsim_tensors_file_show(struct seq_file *m, void *unused)
{
	nrsim_tensors_show(m->private, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_tensors_file);

static int nrsim_stats_show(struct seq_file *m, void *unused)
{
	struct nrsim_device *nd = m->private;

	seq_printf(m, "models %lld\n", atomic64_read(&nd->stats.models));
	seq_printf(m, "mem_refs %lld\n", atomic64_read(&nd->stats.mem_refs));
	seq_printf(m, "kmem_bytes %lld\n", atomic64_read(&nd->stats.kmem_bytes));
	seq_printf(m, "backing_bytes %llu\n", nrsim_mem_backing_bytes(&nd->mem));
	seq_printf(m, "hbm_used %llu\n", nrsim_hbm_used_total(nd));
	seq_printf(m, "loads %lld\n", atomic64_read(&nd->stats.loads));
	seq_printf(m, "load_failures %lld\n",
		   atomic64_read(&nd->stats.load_failures));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_stats);

/*
 * A subgraph's HBM variables per usage category: "  hbm WEIGHT 3 vars
 * 16384 bytes" (each its own allocation; bytes rounded to the granule).
 */
static void nrsim_sg_hbm_show(struct seq_file *s, const struct nrsim_sg *sg)
{
	u64 bytes[KBIN_USAGE_MAX + 1] = { 0 };
	u32 vars[KBIN_USAGE_MAX + 1] = { 0 };
	u32 i;

	for (i = 0; i < sg->nmem; i++) {
		const struct nrsim_mr_cold *c = &sg->cold[i];

		if (c->where != NRSIM_WHERE_HBM)
			continue;
		vars[c->usage]++;
		bytes[c->usage] += kbin_hbm_round(sg->mrs[i].size);
	}
	for (i = 0; i <= KBIN_USAGE_MAX; i++)
		if (vars[i])
			seq_printf(s, "  hbm %s (device_mem/%s) %u vars %llu bytes\n",
				   kbin_usage_str(i),
				   kbin_mem_category_str(kbin_usage_category(i)),
				   vars[i], bytes[i]);
}

static int nrsim_model_info_show(struct seq_file *s, void *unused)
{
	const struct nrsim_model *m = s->private;
	u32 i, k;

	seq_printf(s, "id %u\ntarget_gen %u\nfirst_core %u\nsubgraphs %u\n",
		   m->id, m->target_gen, m->first_core, m->num_sg);
	seq_printf(s, "vars %llu\nhbm_bytes %llu\nscratchpad_bytes %llu\nkmem_bytes %llu\n",
		   m->num_vars, m->hbm_bytes, m->scratchpad_bytes,
		   m->kmem_bytes);
	seq_printf(s, "udma_descs %llu\ndma_ring_bytes %llu\ndma_kmem_bytes %llu\nrelocate_us %llu\n",
		   m->udma_descs, m->dma_ring_bytes, m->dma_kmem_bytes,
		   div_u64(m->reloc_ns, 1000));
	for (i = 0; i <= KBIN_BACKING_BUF_MAX; i++)
		if (m->load_sp[i].npages)
			seq_printf(s, "%s_scratchpad %llu bytes, %u pages, first 0x%llx (%s)\n",
				   kbin_backing_buf_str(i), m->load_sp[i].size,
				   m->load_sp[i].npages,
				   m->load_sp[i].pages[0].addr,
				   kbin_usage_str(m->load_sp[i].pages[0].usage));
	for (i = 0; i < m->num_sg; i++) {
		const struct nrsim_sg *sg = &m->sg[i];

		seq_printf(s, "sg%u %s core %u hbm %u vars %u buckets %u\n", i,
			   sg->name, sg->core, sg->channel, sg->nmem,
			   1U << sg->hash_bits);
		if (sg->local_sp.npages)
			seq_printf(s, "  local_scratchpad %llu bytes, %u pages, first 0x%llx\n",
				   sg->local_sp.size, sg->local_sp.npages,
				   sg->local_sp.pages[0].addr);
		nrsim_sg_hbm_show(s, sg);
		for (k = 0; k < sg->num_carveouts; k++)
			seq_printf(s, "  carveout %s offset %u size %u partitions %u+%u (reserved)\n",
				   kbin_carveout_type_str(sg->carveouts[k].type),
				   sg->carveouts[k].offset, sg->carveouts[k].size,
				   sg->carveouts[k].start_partition,
				   sg->carveouts[k].num_partitions);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_model_info);

/*
 * memrefs: a seq_file iterator over the rows, so 10^6 vars stream.
 * Position 0 is the header (SEQ_START_TOKEN, which is (void *)1); row
 * p >= 1 is var p - 1, handed around as the cookie p + 1.
 */
static void *nrsim_memrefs_pos(const struct nrsim_sg *sg, loff_t pos)
{
	if (pos == 0)
		return SEQ_START_TOKEN;
	return pos <= sg->nmem ? (void *)(uintptr_t)(pos + 1) : NULL;
}

static void *nrsim_memrefs_start(struct seq_file *s, loff_t *pos)
{
	return nrsim_memrefs_pos(s->private, *pos);
}

static void *nrsim_memrefs_next(struct seq_file *s, void *v, loff_t *pos)
{
	++*pos;
	return nrsim_memrefs_pos(s->private, *pos);
}

static void nrsim_memrefs_stop(struct seq_file *s, void *v)
{
}

static void nrsim_show_where(struct seq_file *s, const struct nrsim_sg *sg,
			     const struct nrsim_mr *mr,
			    const struct nrsim_mr_cold *c)
{
	switch (c->where) {
	case NRSIM_WHERE_HBM:
		seq_printf(s, "hbm%u", c->where_idx);
		break;
	case NRSIM_WHERE_SBUF:
		seq_printf(s, "sbuf%u", c->where_idx);
		break;
	case NRSIM_WHERE_PSUM:
		seq_printf(s, "psum%u", c->where_idx);
		break;
	case NRSIM_WHERE_SP_LOCAL ... NRSIM_WHERE_SP_MAIN:
		seq_printf(s, "scratchpad-%s@hbm%u",
			   kbin_backing_buf_str(c->where - NRSIM_WHERE_SP_LOCAL),
			   c->where_idx);
		break;
	case NRSIM_WHERE_REMOTE:
		seq_printf(s, "remote:sg%u/%u", mr->aux, mr->aux2);
		break;
	case NRSIM_WHERE_TARGET:
		seq_printf(s, "target:%u", mr->aux);
		break;
	default:
		seq_puts(s, "-");
	}
}

static int nrsim_memrefs_show(struct seq_file *s, void *v)
{
	const struct nrsim_sg *sg = s->private;
	const struct nrsim_mr_cold *c;
	const struct nrsim_mr *mr;
	u32 i, d;

	if (v == SEQ_START_TOKEN) {
		seq_puts(s, "var_id\tname\tkind\tdtype\tshape\tsize\talignment\tphysical_address\twhere\tmode\n");
		return 0;
	}
	i = (u32)((uintptr_t)v - 2);
	mr = &sg->mrs[i];
	c = &sg->cold[i];
	seq_printf(s, "%u\t%s\t%s\t%s\t[", mr->var_id, sg->names + c->name_off,
		   kbin_mr_type_str(mr->type), c->dtype[0] ? c->dtype : "-");
	for (d = 0; d < c->ndims; d++)
		seq_printf(s, "%s%llu", d ? "," : "", sg->dims[c->dims_off + d]);
	seq_printf(s, "]\t%llu\t%llu\t0x%llx\t", mr->size,
		   1ULL << c->alignment_log2, mr->pa);
	nrsim_show_where(s, sg, mr, c);
	seq_printf(s, "\t%s\n", kbin_stage_mode_str(c->mode));
	return 0;
}

static const struct seq_operations nrsim_memrefs_sops = {
	.start = nrsim_memrefs_start,
	.next = nrsim_memrefs_next,
	.stop = nrsim_memrefs_stop,
	.show = nrsim_memrefs_show,
};

static int nrsim_memrefs_open(struct inode *inode, struct file *file)
{
	int ret = seq_open(file, &nrsim_memrefs_sops);

	if (!ret)
		((struct seq_file *)file->private_data)->private = inode->i_private;
	return ret;
}

static const struct file_operations nrsim_memrefs_fops = {
	.owner = THIS_MODULE,
	.open = nrsim_memrefs_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release,
};

/*
 * ptr_tables: one row per row of the subgraph's MR_PTR_TABLEs, in var_id
 * and row order: the runtime form libnrt rebuilds at load (its
 * needs_translation mask and addrs).  Position 0 is the header; position
 * p >= 1 is the (p - 1)th table row.  The iterator keeps where it is, so
 * reading the file front to back is O(vars + rows) however many read()
 * calls it takes.
 */
struct nrsim_tables_iter {
	const struct nrsim_sg *sg;
	loff_t pos;
	u32 var;
	u32 row;
};

static bool nrsim_is_table(const struct nrsim_sg *sg, u32 i)
{
	return kbin_kind(sg->mrs[i].type)->storage == KBIN_STORAGE_TABLE &&
	       sg->mrs[i].aux2;
}

/* @it at its first table row past var @from: false when there is none */
static bool nrsim_tables_first(struct nrsim_tables_iter *it, u32 from)
{
	u32 i;

	for (i = from; i < it->sg->nmem; i++)
		if (nrsim_is_table(it->sg, i)) {
			it->var = i;
			it->row = 0;
			return true;
		}
	return false;
}

/* move @it to table row @pos (>= 1); NULL when past the last one */
static void *nrsim_tables_seek(struct nrsim_tables_iter *it, loff_t pos)
{
	if (!it->pos || pos < it->pos) {
		if (!nrsim_tables_first(it, 0))
			return NULL;
		it->pos = 1;
	}
	while (it->pos < pos) {
		u64 left = it->sg->mrs[it->var].aux2 - it->row;

		if ((u64)(pos - it->pos) < left) {
			it->row += pos - it->pos;
			it->pos = pos;
			break;
		}
		it->pos += left;
		if (!nrsim_tables_first(it, it->var + 1)) {
			it->pos = 0;
			return NULL;
		}
	}
	return it;
}

static void *nrsim_tables_start(struct seq_file *s, loff_t *pos)
{
	if (*pos == 0)
		return SEQ_START_TOKEN;
	return nrsim_tables_seek(s->private, *pos);
}

static void *nrsim_tables_next(struct seq_file *s, void *v, loff_t *pos)
{
	++*pos;
	return nrsim_tables_seek(s->private, *pos);
}

static void nrsim_tables_stop(struct seq_file *s, void *v)
{
}

static int nrsim_tables_show(struct seq_file *s, void *v)
{
	const struct nrsim_tables_iter *it = v;
	const struct nrsim_sg *sg;
	const struct nrsim_mr *mr;
	u32 idx;

	if (v == SEQ_START_TOKEN) {
		seq_puts(s, "var_id\tname\trow\trow_var_id\tneeds_translation\taddr\n");
		return 0;
	}
	sg = it->sg;
	mr = &sg->mrs[it->var];
	idx = mr->aux + it->row;
	seq_printf(s, "%u\t%s\t%u\t%u\t%d\t0x%llx\n", mr->var_id,
		   sg->names + sg->cold[it->var].name_off, it->row,
		   sg->lists[idx], test_bit(idx, sg->table_mask),
		   sg->table_addrs[idx]);
	return 0;
}

static const struct seq_operations nrsim_tables_sops = {
	.start = nrsim_tables_start,
	.next = nrsim_tables_next,
	.stop = nrsim_tables_stop,
	.show = nrsim_tables_show,
};

static int nrsim_tables_open(struct inode *inode, struct file *file)
{
	struct nrsim_tables_iter *it;

	it = __seq_open_private(file, &nrsim_tables_sops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->sg = inode->i_private;
	return 0;
}

static const struct file_operations nrsim_tables_fops = {
	.owner = THIS_MODULE,
	.open = nrsim_tables_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/* dma/queues: one row per relocated DMA queue of the subgraph */
static int nrsim_dma_queues_show(struct seq_file *s, void *unused)
{
	const struct nrsim_sg *sg = s->private;
	const struct nrsim_dma *dma = &sg->dma;
	u32 i;

	seq_puts(s, "queue\tname\ttype\towner\tblocks\tdescriptors\tm2s\ts2m\trings\tm2s_ring\ts2m_ring\tring_bytes\n");
	for (i = 0; i < dma->num_queues; i++) {
		const struct nrsim_dma_queue *q = &dma->queues[i];
		u64 ring[NRSIM_DMA_DIRS] = { 0, 0 };
		u32 d;

		for (d = 0; d < NRSIM_DMA_DIRS; d++)
			if (q->num_rings[d])
				ring[d] = dma->rings[q->first_ring[d]].addr;
		seq_printf(s, "%u\t%s\t%s\t%s\t%u\t%u\t%u\t%u\t%u\t0x%llx\t0x%llx\t%llu\n",
			   i, dma->names + q->name_off,
			   kbin_dma_queue_type_str(q->type),
			   kbin_dma_engine_str(q->owner), q->num_blocks,
			   q->num_descs, q->count[NRSIM_DMA_M2S],
			   q->count[NRSIM_DMA_S2M],
			   q->num_rings[NRSIM_DMA_M2S] + q->num_rings[NRSIM_DMA_S2M],
			   ring[NRSIM_DMA_M2S], ring[NRSIM_DMA_S2M], q->ring_bytes);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_dma_queues);

/*
 * dma/<queue>: one row per UDMA descriptor of the queue, its M2S and S2M
 * descriptors interleaved (M2S 0, S2M 0, M2S 1, ...; the longer side's
 * rest at the end): each as its ring holds it (read back from simulated
 * HBM) and where it came from, recomputed with the walker from the kept
 * access patterns.  Position 0 is the header.  The iterator keeps one
 * walk per side, so reading front to back is O(1) per row; a jump is a
 * binary search and kbin_dma_walk_seek().
 */
struct nrsim_ring_side {
	bool valid;
	u32 idx;
	u32 d;
	u64 off;
	u32 len;
	struct kbin_dma_walk w;
};

struct nrsim_ring_iter {
	const struct nrsim_dma_queue *q;
	loff_t pos;
	u32 dir;
	struct nrsim_ring_side side[NRSIM_DMA_DIRS];
};

static void *nrsim_ring_seek(struct nrsim_ring_iter *it, loff_t pos)
{
	const struct nrsim_dma_queue *q = it->q;
	const struct nrsim_dma_desc *descs = q->sg->dma.descs;
	u64 m2s = q->count[NRSIM_DMA_M2S], s2m = q->count[NRSIM_DMA_S2M];
	u64 both = min(m2s, s2m), g = pos - 1;
	struct nrsim_ring_side *sd;
	u32 dir, idx;

	if (pos < 1 || g >= m2s + s2m)
		return NULL;
	if (it->pos == pos)
		return it;
	if (g < 2 * both) {
		dir = g & 1;
		idx = g >> 1;
	} else {
		dir = m2s > s2m ? NRSIM_DMA_M2S : NRSIM_DMA_S2M;
		idx = g - both;
	}
	sd = &it->side[dir];
	if (sd->valid && idx == sd->idx + 1) {
		if (!kbin_dma_walk_piece(&sd->w, &sd->off, &sd->len)) {
			sd->d++;
			kbin_dma_walk_init(&sd->w, &descs[sd->d].side[dir]);
			kbin_dma_walk_piece(&sd->w, &sd->off, &sd->len);
		}
	} else if (!sd->valid || idx != sd->idx) {
		sd->d = nrsim_dma_desc_find(q->sg, q, dir, idx);
		kbin_dma_walk_seek(&sd->w, &descs[sd->d].side[dir],
				   idx - descs[sd->d].first[dir]);
		kbin_dma_walk_piece(&sd->w, &sd->off, &sd->len);
	}
	sd->valid = true;
	sd->idx = idx;
	it->dir = dir;
	it->pos = pos;
	return it;
}

static void *nrsim_ring_start(struct seq_file *s, loff_t *pos)
{
	if (*pos == 0)
		return SEQ_START_TOKEN;
	return nrsim_ring_seek(s->private, *pos);
}

static void *nrsim_ring_next(struct seq_file *s, void *v, loff_t *pos)
{
	++*pos;
	return nrsim_ring_seek(s->private, *pos);
}

static void nrsim_ring_stop(struct seq_file *s, void *v)
{
}

static int nrsim_ring_show(struct seq_file *s, void *v)
{
	const struct nrsim_ring_iter *it = v;
	const struct nrsim_ring_side *sd;
	const struct nrsim_dma_queue *q;
	const struct nrsim_dma_desc *dd;
	const struct nrsim_sg *sg;
	union udma_desc u;
	char flags[KBIN_UDMA_FLAGS_MAX];
	u32 ctrl, len, var, ring;
	u64 addr;

	if (v == SEQ_START_TOKEN) {
		seq_puts(s, "index\tside\tring\tlen\tflags\taddr\tblock\tdesc\tvar_id\tvar\toffset\n");
		return 0;
	}
	q = it->q;
	sg = q->sg;
	sd = &it->side[it->dir];
	dd = &sg->dma.descs[sd->d];
	ring = nrsim_dma_ring_locate(sg, q, it->dir, sd->idx, &addr);
	nrsim_mem_read(&q->nd->mem, addr, &u, sizeof(u));
	ctrl = le32_to_cpu((__force __le32)u.tx.len_ctrl);
	len = ctrl & UDMA_DESC_LEN_MASK;
	var = dd->side[it->dir].var_id;
	seq_printf(s, "%u\t%s\t%u\t%u\t%s\t0x%llx\t%u\t%u\t%u\t%s\t%llu\n",
		   sd->idx, kbin_dma_side_str(it->dir), ring,
		   len ? len : UDMA_DESC_LEN_MAX,
		   kbin_udma_flags_str(ctrl, flags, sizeof(flags)),
		   le64_to_cpu((__force __le64)u.tx.buf_ptr),
		   dd->block - q->first_block, dd->index, var,
		   sg->names + sg->cold[var].name_off, sd->off);
	return 0;
}

static const struct seq_operations nrsim_ring_sops = {
	.start = nrsim_ring_start,
	.next = nrsim_ring_next,
	.stop = nrsim_ring_stop,
	.show = nrsim_ring_show,
};

static int nrsim_ring_open(struct inode *inode, struct file *file)
{
	struct nrsim_ring_iter *it;

	it = __seq_open_private(file, &nrsim_ring_sops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->q = inode->i_private;
	return 0;
}

static const struct file_operations nrsim_ring_fops = {
	.owner = THIS_MODULE,
	.open = nrsim_ring_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/*
 * dma/runs: per queue its latest run (engine.c); the engine updates the
 * numbers as it goes, so a row read during a run is a snapshot.
 */
static int nrsim_dma_runs_show(struct seq_file *s, void *unused)
{
	const struct nrsim_sg *sg = s->private;
	const struct nrsim_dma *dma = &sg->dma;
	u32 i;

	seq_puts(s, "queue\tname\tstate\tstatus\tblocks\tdescs\tudma_descs\tbytes\tns\tfail_block\tfail_desc\truns\n");
	for (i = 0; i < dma->num_queues; i++) {
		const struct nrsim_dma_qrun *qr = &dma->qrun[i];
		const struct nrsim_dma_queue *q = &dma->queues[i];
		u8 st = READ_ONCE(qr->state);
		u32 fb = READ_ONCE(qr->fail_block), fd = READ_ONCE(qr->fail_desc);

		seq_printf(s, "%u\t%s\t%s\t%d\t%u/%u\t%u/%u\t%llu\t%llu\t%llu\t",
			   i, dma->names + q->name_off,
			   kbin_run_state_str(st), READ_ONCE(qr->status),
			   READ_ONCE(qr->blocks), q->num_blocks,
			   READ_ONCE(qr->descs), q->num_descs,
			   READ_ONCE(qr->udma_descs), READ_ONCE(qr->bytes),
			   READ_ONCE(qr->ns));
		if (st == NEURONSIM_RUN_IDLE || fb == U32_MAX)
			seq_puts(s, "-\t-");
		else
			seq_printf(s, "%u\t%u", fb, fd);
		seq_printf(s, "\t%llu\n", READ_ONCE(qr->runs));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_dma_runs);

/* dma/semaphores: per queue, each semaphore of its set and its value */
static int nrsim_dma_sems_show(struct seq_file *s, void *unused)
{
	const struct nrsim_sg *sg = s->private;
	const struct nrsim_dma *dma = &sg->dma;
	u32 i, k;

	seq_puts(s, "queue\tname\tsemaphore\tvalue\n");
	for (i = 0; i < dma->num_queues; i++) {
		const struct nrsim_dma_queue *q = &dma->queues[i];

		for (k = 0; k < q->num_sems; k++)
			seq_printf(s, "%u\t%s\t%u\t%u\n", i,
				   dma->names + q->name_off,
				   dma->sem_ids[q->first_sem + k],
				   READ_ONCE(dma->sem_vals[q->first_sem + k]));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_dma_sems);

/* engine: per NeuronCore, its DMA engine's counters since creation */
static int nrsim_engine_show(struct seq_file *s, void *unused)
{
	struct nrsim_device *nd = s->private;
	u32 c;

	seq_puts(s, "core\tbytes\tudma_descs\tdescs\truns\terrors\tbusy_ns\n");
	for (c = 0; c < nd->arch->num_cores; c++) {
		struct nrsim_engine_stats *e = &nd->engine.stats[c];

		seq_printf(s, "%u\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\n", c,
			   atomic64_read(&e->bytes), atomic64_read(&e->udma_descs),
			   atomic64_read(&e->descs), atomic64_read(&e->runs),
			   atomic64_read(&e->errors), atomic64_read(&e->busy_ns));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nrsim_engine);

/* models/<id>/sg<N>/dma/: queues and one ring view per queue */
static void nrsim_debugfs_dma_add(struct nrsim_sg *sg)
{
	struct nrsim_dma *dma = &sg->dma;
	char name[KBIN_NAME_MAX];
	u32 i;

	if (!dma->num_queues)
		return;
	dma->dir = debugfs_create_dir("dma", sg->dir);
	debugfs_create_file("queues", 0400, dma->dir, sg, &nrsim_dma_queues_fops);
	debugfs_create_file("runs", 0400, dma->dir, sg, &nrsim_dma_runs_fops);
	debugfs_create_file("semaphores", 0400, dma->dir, sg, &nrsim_dma_sems_fops);
	for (i = 0; i < dma->num_queues; i++) {
		char *c;

		strscpy(name, dma->names + dma->queues[i].name_off, sizeof(name));
		for (c = name; *c; c++)
			if (*c == '/')
				*c = '_';
		if (!strcmp(name, "queues") || !strcmp(name, "runs") ||
		    !strcmp(name, "semaphores") || !strcmp(name, ".") ||
		    !strcmp(name, ".."))
			snprintf(name, sizeof(name), "queue%u", i);
		debugfs_create_file(name, 0400, dma->dir, &dma->queues[i],
				    &nrsim_ring_fops);
	}
}

/**
 * nrsim_debugfs_model_add() - create models/<id>/ for a published model.
 * @m: the model, @m->id set.
 *
 * The execution adds its files to each subgraph's directory itself
 * (nrsim_exec_debugfs_add(), called by the models' lifecycle after this).
 *
 * Failures are not fatal (debugfs may be disabled).
 */
void nrsim_debugfs_model_add(struct nrsim_model *m)
{
	char name[16];
	u32 i;

	if (IS_ERR_OR_NULL(m->nd->debugfs.models))
		return;
	snprintf(name, sizeof(name), "%u", m->id);
	m->dir = debugfs_create_dir(name, m->nd->debugfs.models);
	debugfs_create_file("info", 0400, m->dir, m, &nrsim_model_info_fops);
	for (i = 0; i < m->num_sg; i++) {
		snprintf(name, sizeof(name), "sg%u", i);
		m->sg[i].dir = debugfs_create_dir(name, m->dir);
		debugfs_create_file("memrefs", 0400, m->sg[i].dir, &m->sg[i],
				    &nrsim_memrefs_fops);
		debugfs_create_file("ptr_tables", 0400, m->sg[i].dir,
				    &m->sg[i], &nrsim_tables_fops);
		nrsim_debugfs_dma_add(&m->sg[i]);
	}
}

/**
 * nrsim_debugfs_model_del() - remove models/<id>/; waits for open readers'
 *	calls in progress (debugfs file removal), so the model can be freed.
 * @m: the model.
 */
void nrsim_debugfs_model_del(struct nrsim_model *m)
{
	debugfs_remove_recursive(m->dir);
	m->dir = NULL;
}

/**
 * nrsim_debugfs_root_init() - create /sys/kernel/debug/neuronsim/.
 *
 * debugfs failures are not fatal (debugfs may be disabled); the module
 * works without it.
 */
void nrsim_debugfs_root_init(void)
{
	nrsim_debugfs_root = debugfs_create_dir(NEURONSIM_DEVICE_NAME, NULL);
}

/**
 * nrsim_debugfs_root_exit() - remove /sys/kernel/debug/neuronsim/ (every
 *	device's directory is gone by then).
 */
void nrsim_debugfs_root_exit(void)
{
	debugfs_remove_recursive(nrsim_debugfs_root);
	nrsim_debugfs_root = NULL;
}

/**
 * nrsim_debugfs_init() - create a device's directory neuronsim/neuronsimN/;
 *	for device 0 also the links of neuronsim/ into it.
 * @nd: the device.
 *
 * debugfs failures are not fatal.
 */
void nrsim_debugfs_init(struct nrsim_device *nd)
{
	char target[48];
	unsigned int i;

	nd->debugfs.dir = debugfs_create_dir(nd->name, nrsim_debugfs_root);
	debugfs_create_file("device", 0400, nd->debugfs.dir, nd, &nrsim_device_fops);
	debugfs_create_file("hbm", 0400, nd->debugfs.dir, nd, &nrsim_hbm_file_fops);
	debugfs_create_file("stats", 0400, nd->debugfs.dir, nd, &nrsim_stats_fops);
	debugfs_create_file("cores", 0400, nd->debugfs.dir, nd, &nrsim_cores_fops);
	debugfs_create_file("tensors", 0400, nd->debugfs.dir, nd,
			    &nrsim_tensors_file_fops);
	debugfs_create_atomic_t("fail_hbm_alloc_nth", 0600, nd->debugfs.dir,
				&nd->fault.hbm_alloc_nth);
	debugfs_create_atomic_t("fail_copyin_nth", 0600, nd->debugfs.dir,
				&nd->fault.copyin_nth);
	debugfs_create_atomic_t("fail_reloc_nth", 0600, nd->debugfs.dir,
				&nd->fault.reloc_nth);
	debugfs_create_atomic_t("fail_run_nth", 0600, nd->debugfs.dir,
				&nd->fault.run_nth);
	debugfs_create_file("engine", 0400, nd->debugfs.dir, nd, &nrsim_engine_fops);
	nd->debugfs.models = debugfs_create_dir("models", nd->debugfs.dir);
	if (nd->index)
		return;
	for (i = 0; i < NRSIM_DEBUGFS_LINKS; i++) {
		snprintf(target, sizeof(target), "%s/%s", nd->name,
			 nrsim_debugfs_link_names[i]);
		nd->debugfs.links[i] =
			debugfs_create_symlink(nrsim_debugfs_link_names[i],
					       nrsim_debugfs_root, target);
	}
}

/**
 * nrsim_debugfs_exit() - remove a device's directory, all below it, and
 *	its links.
 * @nd: the device.
 */
void nrsim_debugfs_exit(struct nrsim_device *nd)
{
	unsigned int i;

	for (i = 0; i < NRSIM_DEBUGFS_LINKS; i++) {
		debugfs_remove(nd->debugfs.links[i]);
		nd->debugfs.links[i] = NULL;
	}
	debugfs_remove_recursive(nd->debugfs.dir);
	nd->debugfs.dir = NULL;
	nd->debugfs.models = NULL;
}
