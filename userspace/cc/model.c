// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the in-memory model (struct nscc_model): subgraphs and their
 * var tables, filled by the def.json front end or programmatically (BIR
 * lowering, tests), consumed by nscc_compile_model().
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kbin_dma.h"
#include "nscc_internal.h"

struct nscc_model *nscc_model_new(uint32_t target_gen)
{
	struct nscc_model *m = calloc(1, sizeof(*m));

	if (m)
		m->target_gen = target_gen;
	return m;
}

static void var_free(struct nscc_var *v)
{
	free(v->name);
	free(v->dtype);
	free(v->shape);
	free(v->list);
	if (v->payload_owned)
		free((void *)v->payload);
	free(v->md_prefix);
	free(v->file_name);
}

static void dma_free(struct nscc_subgraph *sg)
{
	uint32_t j, k;

	for (j = 0; j < sg->num_dma_queues; j++) {
		free(sg->dma_queues[j].name);
		free(sg->dma_queues[j].semaphores);
		free(sg->dma_queues[j].fabric_path);
	}
	for (j = 0; j < sg->num_dma_blocks; j++)
		free(sg->dma_blocks[j].comment);
	for (j = 0; j <= KBIN_DMA_ENGINE_MAX; j++) {
		free(sg->dma_members[j]);
		free(sg->instr_json[j]);
		free(sg->prog_members[j]);
		for (k = 0; sg->prog_names[j] && k < sg->prog_count[j]; k++)
			free(sg->prog_names[j][k]);
		free(sg->prog_names[j]);
		if (sg->prog_owned[j])
			free((void *)sg->prog[j]);
	}
	free(sg->dma_queues);
	free(sg->dma_blocks);
	free(sg->dma_descs);
}

void nscc_model_free(struct nscc_model *m)
{
	uint32_t i, j;

	if (!m)
		return;
	for (i = 0; i < m->num_sgs; i++) {
		struct nscc_subgraph *sg = &m->sgs[i];

		for (j = 0; j < sg->num_vars; j++)
			var_free(&sg->vars[j]);
		free(sg->vars);
		free(sg->name);
		dma_free(sg);
	}
	free(m->sgs);
	nscc_neff_free(m->neff);
	free(m);
}

int nscc_model_add_subgraph(struct nscc_model *m, const char *name)
{
	struct nscc_subgraph *sg;

	if (m->num_sgs == m->cap_sgs) {
		uint32_t ncap = m->cap_sgs ? m->cap_sgs * 2 : 4;

		sg = realloc(m->sgs, ncap * sizeof(*sg));
		if (!sg)
			return -ENOMEM;
		m->sgs = sg;
		m->cap_sgs = ncap;
	}
	sg = &m->sgs[m->num_sgs];
	memset(sg, 0, sizeof(*sg));
	sg->name = strdup(name);
	if (!sg->name)
		return -ENOMEM;
	return m->num_sgs++;
}

struct nscc_var *nscc_model_add_var(struct nscc_model *m, int sgi,
				    const char *name, uint32_t var_id,
				    uint32_t mr_type)
{
	struct nscc_subgraph *sg;
	struct nscc_var *v;

	if (sgi < 0 || (uint32_t)sgi >= m->num_sgs)
		return NULL;
	sg = &m->sgs[sgi];
	if (sg->num_vars == sg->cap_vars) {
		uint32_t ncap = sg->cap_vars ? sg->cap_vars * 2 : 16;

		v = realloc(sg->vars, (size_t)ncap * sizeof(*v));
		if (!v)
			return NULL;
		sg->vars = v;
		sg->cap_vars = ncap;
	}
	v = &sg->vars[sg->num_vars];
	memset(v, 0, sizeof(*v));
	v->name = strdup(name);
	if (!v->name)
		return NULL;
	v->var_id = var_id;
	v->mr_type = mr_type;
	sg->num_vars++;
	return v;
}

/* make room for one more item of @size bytes in *@arr (*@n used, *@cap) */
static int grow(void **arr, uint32_t n, uint32_t *cap, size_t size)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	if (*cap >= UINT32_MAX / 2)
		return -ENOMEM;
	ncap = *cap ? *cap * 2 : 16;
	p = realloc(*arr, (size_t)ncap * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

struct nscc_dma_queue *nscc_model_add_dma_queue(struct nscc_model *m, int sgi,
						const char *name)
{
	struct nscc_subgraph *sg;
	struct nscc_dma_queue *q;

	if (sgi < 0 || (uint32_t)sgi >= m->num_sgs)
		return NULL;
	sg = &m->sgs[sgi];
	if (grow((void **)&sg->dma_queues, sg->num_dma_queues,
		 &sg->cap_dma_queues, sizeof(*q)))
		return NULL;
	q = &sg->dma_queues[sg->num_dma_queues];
	memset(q, 0, sizeof(*q));
	q->name = strdup(name);
	if (!q->name)
		return NULL;
	sg->num_dma_queues++;
	return q;
}

int nscc_dma_queue_set_semaphores(struct nscc_dma_queue *q,
				  const uint32_t *sems, uint32_t n)
{
	uint32_t *p = malloc((n ? n : 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	if (n)
		memcpy(p, sems, n * sizeof(*p));
	free(q->semaphores);
	q->semaphores = p;
	q->num_semaphores = n;
	return 0;
}

int nscc_model_add_dma_block(struct nscc_model *m, int sgi,
			     const struct nscc_dma_block *b, const char *comment,
			     const struct kbin_dma_desc *descs, uint32_t n)
{
	struct nscc_subgraph *sg;
	struct nscc_dma_block *nb;
	uint32_t k;

	if (sgi < 0 || (uint32_t)sgi >= m->num_sgs)
		return -EINVAL;
	sg = &m->sgs[sgi];
	if ((uint64_t)sg->num_dma_descs + n > UINT32_MAX / 2)
		return -EINVAL;
	if (grow((void **)&sg->dma_blocks, sg->num_dma_blocks,
		 &sg->cap_dma_blocks, sizeof(*nb)))
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		if (grow((void **)&sg->dma_descs, sg->num_dma_descs,
			 &sg->cap_dma_descs, sizeof(*descs)))
			return -ENOMEM;
		sg->dma_descs[sg->num_dma_descs++] = descs[k];
	}
	nb = &sg->dma_blocks[sg->num_dma_blocks];
	*nb = *b;
	nb->comment = NULL;
	nb->first_desc = sg->num_dma_descs - n;
	nb->num_descs = n;
	if (comment) {
		nb->comment = strdup(comment);
		if (!nb->comment) {
			sg->num_dma_descs -= n;
			return -ENOMEM;
		}
	}
	sg->num_dma_blocks++;
	return 0;
}

int nscc_model_drop_dma_block(struct nscc_model *m, int sgi, uint32_t index)
{
	struct nscc_subgraph *sg;
	struct nscc_dma_block b;
	uint32_t k;

	if (sgi < 0 || (uint32_t)sgi >= m->num_sgs ||
	    index >= m->sgs[sgi].num_dma_blocks)
		return -EINVAL;
	sg = &m->sgs[sgi];
	b = sg->dma_blocks[index];
	free(b.comment);
	memmove(&sg->dma_descs[b.first_desc],
		&sg->dma_descs[b.first_desc + b.num_descs],
		(sg->num_dma_descs - b.first_desc - b.num_descs) *
		sizeof(*sg->dma_descs));
	sg->num_dma_descs -= b.num_descs;
	memmove(&sg->dma_blocks[index], &sg->dma_blocks[index + 1],
		(sg->num_dma_blocks - index - 1) * sizeof(*sg->dma_blocks));
	sg->num_dma_blocks--;
	for (k = 0; k < sg->num_dma_blocks; k++) {
		struct nscc_dma_block *o = &sg->dma_blocks[k];

		if (o->first_desc > b.first_desc)
			o->first_desc -= b.num_descs;
		if (o->queue == b.queue && o->id > b.id)
			o->id--;
	}
	return 0;
}

int nscc_var_set_dtype(struct nscc_var *v, const char *dtype)
{
	char *d = strdup(dtype);

	if (!d)
		return -ENOMEM;
	free(v->dtype);
	v->dtype = d;
	return 0;
}

int nscc_var_set_shape(struct nscc_var *v, const uint64_t *dims,
		       uint32_t ndims)
{
	uint64_t *s = malloc((ndims ? ndims : 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	if (ndims)
		memcpy(s, dims, ndims * sizeof(*s));
	free(v->shape);
	v->shape = s;
	v->ndims = ndims;
	return 0;
}

int nscc_var_set_list(struct nscc_var *v, const uint32_t *ids, uint32_t n)
{
	uint32_t *l = malloc((n ? n : 1) * sizeof(*l));

	if (!l)
		return -ENOMEM;
	if (n)
		memcpy(l, ids, n * sizeof(*l));
	free(v->list);
	v->list = l;
	v->list_len = n;
	return 0;
}

int nscc_var_set_payload(struct nscc_var *v, const void *data, uint64_t len)
{
	void *p = malloc(len ? len : 1);

	if (!p)
		return -ENOMEM;
	if (len)
		memcpy(p, data, len);
	if (v->payload_owned)
		free((void *)v->payload);
	v->payload = p;
	v->payload_len = len;
	v->payload_owned = 1;
	return 0;
}

int nscc_var_set_debug_md(struct nscc_var *v, const char *prefix,
			  uint32_t pipe_id)
{
	char *p = strdup(prefix);

	if (!p)
		return -ENOMEM;
	free(v->md_prefix);
	v->md_prefix = p;
	v->md_pipe_id = pipe_id;
	return 0;
}

int nscc_model_check_carveout_count(const struct nscc_model *m, int sgi,
				    int given, size_t n, struct nscc_err *err)
{
	const struct kbin_gen *g = kbin_gen_target(m->target_gen);
	const struct nscc_subgraph *sg;

	if (sgi < 0 || (uint32_t)sgi >= m->num_sgs)
		return nscc_errf(err, -EINVAL, "subgraph %d does not exist", sgi);
	sg = &m->sgs[sgi];
	if (!given) {
		if (g && g->carveout_required)
			return nscc_errf(err, -EINVAL, "%s: field 'runtime_statebuffer_reservation' is required on %s (gen %u)",
					 sg->name, g->name, g->gen);
		return 0;
	}
	if (n > KBIN_MAX_CARVEOUTS)
		return nscc_errf(err, -E2BIG, "%s: runtime_statebuffer_reservation has %zu entries, at most %u",
				 sg->name, n, KBIN_MAX_CARVEOUTS);
	return 0;
}

int nscc_model_add_carveout(struct nscc_model *m, int sgi, const char *type,
			    const int64_t val[4], struct nscc_err *err)
{
	static const char *const keys[] = {
		"offset", "size", "base_partition", "partitions",
	};
	const struct kbin_gen *g = kbin_gen_target(m->target_gen);
	const char *evtaccel = kbin_carveout_type_str(KBIN_CARVEOUT_EVTACCEL);
	uint64_t part = g ? g->sbuf_partition_size : 0;
	uint32_t nparts = g ? g->sbuf_partitions : 0;
	struct kbin_sb_carveout *co;
	struct nscc_subgraph *sg;
	size_t i, k;

	if (sgi < 0 || (uint32_t)sgi >= m->num_sgs)
		return nscc_errf(err, -EINVAL, "subgraph %d does not exist", sgi);
	sg = &m->sgs[sgi];
	i = sg->num_carveouts;
	if (i >= KBIN_MAX_CARVEOUTS)
		return nscc_errf(err, -E2BIG, "%s: runtime_statebuffer_reservation has more than %u entries",
				 sg->name, KBIN_MAX_CARVEOUTS);
	if (!type || strcmp(type, evtaccel))
		return nscc_errf(err, -EINVAL, "%s: runtime_statebuffer_reservation[%zu]: type '%s' is not \"%s\"",
				 sg->name, i, type ? type : "(missing)", evtaccel);
	for (k = 0; k < 4; k++)
		if (val[k] < 0 || val[k] > UINT32_MAX)
			return nscc_errf(err, -EINVAL, "%s: runtime_statebuffer_reservation[%zu]: field '%s' is missing or not an integer 0..%u",
					 sg->name, i, keys[k], UINT32_MAX);
	if (!val[1] || (uint64_t)(val[0] + val[1]) > part)
		return nscc_errf(err, -EINVAL, "%s: runtime_statebuffer_reservation[%zu]: offset %llu + size %llu is outside the %llu-byte partition",
				 sg->name, i, (unsigned long long)val[0],
				 (unsigned long long)val[1],
				 (unsigned long long)part);
	if (!val[3] || val[2] + val[3] > nparts)
		return nscc_errf(err, -EINVAL, "%s: runtime_statebuffer_reservation[%zu]: partitions %llu..%llu are outside 0..%u",
				 sg->name, i, (unsigned long long)val[2],
				 (unsigned long long)(val[2] + val[3]),
				 nparts);
	co = &sg->carveouts[i];
	co->type = KBIN_CARVEOUT_EVTACCEL;
	co->offset = (uint32_t)val[0];
	co->size = (uint32_t)val[1];
	co->start_partition = (uint32_t)val[2];
	co->num_partitions = (uint32_t)val[3];
	sg->num_carveouts = (uint32_t)i + 1;
	return 0;
}

/*
 * The .npy descrs a weight of each element type NEFFs name in
 * tensor_map.json "dtype" is stored as (Documentation/compiler.rst); the
 * names and bytes per element are the plan layer's dtype table
 * (kbin_dtype(), kmod/plan/kbin_dma.h), which the BIR passes read too.
 * numpy has no bfloat16 and no float8: their bits go in as unsigned
 * integers ("<u2", "|u1") or as raw records ("|V2", "|V1", what numpy
 * writes for the ml_dtypes types).
 */
static const struct nscc_dtype dtypes[] = {
	{ KBIN_DMA_DTYPE_FLOAT32, { "<f4" } },
	{ KBIN_DMA_DTYPE_FLOAT16, { "<f2" } },
	{ KBIN_DMA_DTYPE_BFLOAT16, { "<u2", "|V2" } },
	{ KBIN_DMA_DTYPE_FLOAT64, { "<f8" } },
	{ KBIN_DMA_DTYPE_INT8, { "|i1" } },
	{ KBIN_DMA_DTYPE_UINT8, { "|u1" } },
	{ KBIN_DMA_DTYPE_INT16, { "<i2" } },
	{ KBIN_DMA_DTYPE_UINT16, { "<u2" } },
	{ KBIN_DMA_DTYPE_INT32, { "<i4" } },
	{ KBIN_DMA_DTYPE_UINT32, { "<u4" } },
	{ KBIN_DMA_DTYPE_INT64, { "<i8" } },
	{ KBIN_DMA_DTYPE_UINT64, { "<u8" } },
	{ KBIN_DTYPE_FLOAT8_E4M3, { "|u1", "|V1" } },
	{ KBIN_DTYPE_FLOAT8_E5M2, { "|u1", "|V1" } },
};

const struct nscc_dtype *nscc_dtype_find(const char *name)
{
	unsigned int dtype = name ? kbin_dtype_from_name(name) : KBIN_DTYPE_NONE;
	size_t i;

	for (i = 0; dtype && i < sizeof(dtypes) / sizeof(dtypes[0]); i++)
		if (dtypes[i].dtype == dtype)
			return &dtypes[i];
	return NULL;
}

int nscc_dtype_npy_ok(const struct nscc_dtype *dt, const char *descr)
{
	size_t i;

	for (i = 0; i < NSCC_DTYPE_NPY_MAX && dt->npy[i]; i++)
		if (!strcmp(dt->npy[i], descr))
			return 1;
	return 0;
}

uint32_t nscc_mr_type_from_def(const char *type)
{
	return kbin_mr_type_from_def(type);
}

uint64_t nscc_sbuf_bytes(uint32_t target_gen)
{
	const struct kbin_gen *g = kbin_gen_target(target_gen);

	return g ? kbin_gen_sbuf_bytes(g) : 0;
}

uint64_t nscc_sbuf_window_size(uint32_t target_gen)
{
	const struct kbin_gen *g = kbin_gen_target(target_gen);

	return g ? g->sbuf_window_size : 0;
}

uint64_t nscc_psum_window_size(uint32_t target_gen)
{
	const struct kbin_gen *g = kbin_gen_target(target_gen);

	return g ? g->psum_size : 0;
}
