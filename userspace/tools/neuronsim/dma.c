// SPDX-License-Identifier: GPL-2.0
/*
 * dma.c - neuronsim dma: the relocated DMA queues of a model and the UDMA
 * descriptors of its rings, through the DMA_INFO ioctl of the fd that
 * loaded it (Documentation/relocation.rst); also the holder's "dma".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_dma.h"
#include "main.h"

#define DMA_DEFAULT_COUNT	16U

/* the name of var @var_id of subgraph @sg in @t, or "?" */
static const char *dma_var_name(const struct vartab *t, __u32 sg, __u32 var_id)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (t->v[i].subgraph == sg && t->v[i].var_id == var_id)
			return t->v[i].name;
	return "?";
}

/* the queues of every subgraph: a table, or JSON objects into @arr */
static int dma_list(const struct vartab *t, __u32 nsg, json_t *arr)
{
	struct neuronsim_dma_opts o = { .sz = sizeof(o) };
	struct neuronsim_dma_queue_info q[64];
	int n, i;

	if (!arr)
		printf("%-3s %-3s %-20s %-7s %-5s %7s %7s %9s %9s %5s %-14s %-14s %s\n",
		       "sg", "q", "name", "type", "owner", "blocks", "descs", "m2s",
		       "s2m", "rings", "m2s_ring", "s2m_ring", "ring_bytes");
	for (o.subgraph = 0; o.subgraph < nsg; o.subgraph++) {
		n = neuronsim_dma_queues(t->fd, t->model_id, &o, q, 64);
		if (n < 0) {
			errmsg("model %u sg %u: DMA_INFO: %s", t->model_id,
			       o.subgraph, strerror(-n));
			return -1;
		}
		for (i = 0; i < n && i < 64; i++) {
			const struct neuronsim_dma_queue_info *e = &q[i];
			const char *type = kbin_dma_queue_type_str(e->type);
			const char *owner = kbin_dma_engine_str(e->owner);

			if (arr) {
				json_array_append_new(arr, json_pack(
					"{s:I,s:I,s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
					"subgraph", (json_int_t)o.subgraph, "queue", (json_int_t)i,
					"name", e->name, "type", type, "owner", owner,
					"blocks", (json_int_t)e->num_blocks,
					"descriptors", (json_int_t)e->num_descs,
					"m2s", (json_int_t)e->m2s_descs,
					"s2m", (json_int_t)e->s2m_descs,
					"m2s_rings", (json_int_t)e->m2s_rings,
					"s2m_rings", (json_int_t)e->s2m_rings,
					"m2s_ring", (json_int_t)e->m2s_ring_addr,
					"s2m_ring", (json_int_t)e->s2m_ring_addr,
					"ring_bytes", (json_int_t)e->ring_bytes));
				continue;
			}
			printf("%-3u %-3d %-20s %-7s %-5s %7u %7u %9u %9u %5u 0x%-12llx 0x%-12llx %llu\n",
			       o.subgraph, i, e->name, type, owner, e->num_blocks,
			       e->num_descs, e->m2s_descs, e->s2m_descs,
			       e->m2s_rings + e->s2m_rings,
			       (unsigned long long)e->m2s_ring_addr,
			       (unsigned long long)e->s2m_ring_addr,
			       (unsigned long long)e->ring_bytes);
		}
	}
	return 0;
}

/* descriptors @from .. +@count of both sides of ring @ring ("sgN/QUEUE") */
static int dma_ring(const struct vartab *t, __u32 nsg, const char *ring,
		    __u32 from, __u32 count, json_t *obj)
{
	struct neuronsim_dma_opts o = { .sz = sizeof(o) };
	struct neuronsim_dma_queue_info q[64];
	struct neuronsim_dma_desc_info *d;
	const char *qname = ring;
	unsigned int sg = 0;
	int n, i, k;

	if (!strncmp(ring, "sg", 2) && strchr(ring, '/')) {
		char *end;

		sg = strtoul(ring + 2, &end, 10);
		if (*end != '/') {
			errmsg("--ring %s: not sgN/QUEUE", ring);
			return -1;
		}
		qname = end + 1;
	}
	if (sg >= nsg) {
		errmsg("--ring %s: the model has %u subgraphs", ring, nsg);
		return -1;
	}
	o.subgraph = sg;
	n = neuronsim_dma_queues(t->fd, t->model_id, &o, q, 64);
	for (i = 0; i < n && i < 64 && strcmp(q[i].name, qname); i++)
		;
	if (n < 0 || i == n || i == 64) {
		errmsg("--ring %s: sg%u has no DMA queue '%s'%s", ring, sg, qname,
		       n < 0 ? strerror(-n) : "");
		return -1;
	}
	d = calloc(count ? count : 1, sizeof(*d));
	if (!d)
		return -1;
	o.queue = i;
	if (obj) {
		json_object_set_new(obj, "subgraph", json_integer(sg));
		json_object_set_new(obj, "queue", json_string(qname));
	}
	for (o.side = NEURONSIM_DMA_M2S; o.side <= NEURONSIM_DMA_S2M; o.side++) {
		const char *side = kbin_dma_side_str(o.side);
		__u32 total = o.side == NEURONSIM_DMA_M2S ? q[i].m2s_descs : q[i].s2m_descs;
		json_t *arr = obj ? json_array() : NULL;

		o.first = from < total ? from : total;
		n = neuronsim_dma_ring(t->fd, t->model_id, &o, d, count);
		if (n < 0) {
			errmsg("--ring %s: %s descriptors from %u: %s", ring, side,
			       from, strerror(-n));
			json_decref(arr);
			free(d);
			return -1;
		}
		if (!obj)
			printf("sg%u/%s %s: descriptors %u..%u of %u\n%-8s %-5s %-6s %-15s %-14s %-5s %-4s %-24s %s\n",
			       sg, qname, side, o.first, o.first + n - (n > 0), total,
			       "index", "ring", "len", "flags", "addr", "block", "desc",
			       "var", "offset");
		for (k = 0; k < n; k++) {
			const struct neuronsim_dma_desc_info *e = &d[k];
			union udma_desc u;
			char flags[24];

			memcpy(&u, e->desc, sizeof(u));
			neuronsim_udma_flags_str(u.tx.len_ctrl, flags, sizeof(flags));
			if (arr) {
				json_array_append_new(arr, json_pack(
					"{s:I,s:I,s:I,s:s,s:I,s:I,s:I,s:I,s:s,s:I,s:I,s:I}",
					"index", (json_int_t)(o.first + k),
					"ring", (json_int_t)e->ring,
					"len", (json_int_t)neuronsim_udma_len(u.tx.len_ctrl),
					"flags", flags, "addr", (json_int_t)u.tx.buf_ptr,
					"block", (json_int_t)e->block,
					"desc", (json_int_t)e->desc_index,
					"var_id", (json_int_t)e->var_id,
					"var", dma_var_name(t, sg, e->var_id),
					"offset", (json_int_t)e->offset,
					"len_ctrl", (json_int_t)u.tx.len_ctrl,
					"desc_addr", (json_int_t)e->addr));
				continue;
			}
			printf("%-8u %-5u %-6u %-15s 0x%-12llx %-5u %-4u %-24s %llu\n",
			       o.first + k, e->ring, neuronsim_udma_len(u.tx.len_ctrl),
			       flags, (unsigned long long)u.tx.buf_ptr, e->block,
			       e->desc_index, dma_var_name(t, sg, e->var_id),
			       (unsigned long long)e->offset);
		}
		if (obj)
			json_object_set_new(obj, o.side == NEURONSIM_DMA_M2S ? "m2s" : "s2m",
					    arr);
	}
	free(d);
	return 0;
}

/*
 * dma [--ring sgN/QUEUE] [--from I] [--count N] on the model of @t (its
 * loading fd): the queues of every subgraph, or a range of one queue's
 * M2S and S2M descriptors with the variable and offset each came from.
 * 0, 1 on failure, 2 on bad arguments.
 */
int do_dma(const struct vartab *t, int argc, char **argv)
{
	struct neuronsim_model_info mi;
	__u32 from = 0, count = DMA_DEFAULT_COUNT;
	const char *ring = NULL;
	json_t *o = NULL;
	int i, err;

	for (i = 0; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--ring") && v) {
			ring = v;
		} else if (!strcmp(argv[i], "--from")) {
			if (parse_u32_arg("--from", v, &from))
				return 2;
		} else if (!strcmp(argv[i], "--count")) {
			if (parse_u32_arg("--count", v, &count))
				return 2;
		} else {
			errmsg("unknown argument '%s' (--ring sgN/QUEUE, --from I, --count N)",
			       argv[i]);
			return 2;
		}
		i++;
	}
	if ((from || count != DMA_DEFAULT_COUNT) && !ring) {
		errmsg("--from and --count need --ring sgN/QUEUE");
		return 2;
	}
	err = neuronsim_model_info(t->fd, t->model_id, &mi);
	if (err) {
		errmsg("model %u: MODEL_INFO: %s", t->model_id, strerror(-err));
		return 1;
	}
	if (tool_json)
		o = ring ? json_object() : json_array();
	err = ring ? dma_ring(t, mi.num_subgraphs, ring, from, count, o) :
	      dma_list(t, mi.num_subgraphs, o);
	if (err) {
		json_decref(o);
		return 1;
	}
	if (o)
		tool_json_print(ring ? o : json_pack("{s:I,s:o}", "model_id",
						       (json_int_t)t->model_id, "queues", o));
	fflush(stdout);
	return 0;
}

/* neuronsim dma PLAN [--ring sgN/QUEUE] [--from I] [--count N] */
static int cmd_dma(int argc, char **argv)
{
	struct vartab t;
	__u32 id;
	int rc;

	if (argc < 2)
		return usage_error("need PLAN (try --help)");
	if (is_model_id(argv[1], &id)) {
		errmsg_errno(ENOENT, "model %u: DMA_INFO works only on the fd that loaded the model (%s); use 'neuronsim dma PLAN', or 'dma' on the stdin of 'neuronsim load PLAN --hold'",
			     id, strerror(ENOENT));
		return 1;
	}
	if (vartab_open(&t, argv[1], NEURONSIM_CORE_ANY)) {
		vartab_free(&t);
		return 1;
	}
	rc = do_dma(&t, argc - 2, argv + 2);
	vartab_free(&t);
	return rc;
}

const struct nsim_cmd nsim_cmd_dma = {
	.name = "dma",
	.summary = "DMA queues and UDMA rings of a plan's model",
	.usage = "dma PLAN [--ring sgN/QUEUE] [--from I] [--count N]",
	.help = "  the model's relocated DMA queues (DMA_INFO): per subgraph and queue\n"
		"  its type, owner, blocks, descriptors, UDMA descriptors per side\n"
		"  (M2S reads, S2M writes), rings, ring addresses and bytes.\n"
		"  --ring: UDMA descriptors I .. I+N-1 (default 0, 16) of both sides of\n"
		"  that queue, as its rings hold them, with the variable and offset\n"
		"  each came from.  Like read, it needs the fd that loaded the model:\n"
		"  PLAN here, or 'dma ...' on the stdin of 'neuronsim load PLAN --hold'.\n",
	.run = cmd_dma,
};
