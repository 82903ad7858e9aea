// SPDX-License-Identifier: GPL-2.0
/*
 * tensor.c - the tensors and tensor sets of neuronsim's libnrt-compatible
 * runtime (Documentation/nrt.rst, "Tensors"): device tensors are the
 * device's own (HBM charged to a NeuronCore, owned by the runtime's fd),
 * host and virtual tensors are process memory; a slice shares its
 * source's storage, which lives while any tensor or execution holds it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <libneuronsim.h>

#include "internal.h"

#define NRT_TENSOR_MAGIC	0x6e72745f74656e73ULL	/* "nrt_tens" */
#define NRT_SET_MAGIC		0x6e72745f73657473ULL	/* "nrt_sets" */

/* the live-tensor set: open addressing on the pointer, tombstones */
#define NRT_TOMB	((struct nrt_tensor *)1)

static size_t nrt_hash(const void *p, size_t cap)
{
	uint64_t x = (uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x & (cap - 1);
}

static size_t nrt_slot(const void *p)
{
	size_t i;

	if (!nsrt_rt.tensors_cap)
		return SIZE_MAX;
	for (i = nrt_hash(p, nsrt_rt.tensors_cap); nsrt_rt.tensors[i];
	     i = (i + 1) & (nsrt_rt.tensors_cap - 1))
		if (nsrt_rt.tensors[i] == p)
			return i;
	return SIZE_MAX;
}

/**
 * nsrt_tensor_live() - @t is a tensor the runtime gave out and has not
 *	freed (under nsrt_rt.lock).
 * @t: any pointer.
 *
 * Return: 1 or 0.
 */
int nsrt_tensor_live(const nrt_tensor_t *t)
{
	return t && nrt_slot(t) != SIZE_MAX;
}

static int nrt_tensor_track(struct nrt_tensor *t)
{
	size_t i, cap = nsrt_rt.tensors_cap;
	struct nrt_tensor **old = nsrt_rt.tensors;

	if ((nsrt_rt.tensors_len + 1) * 2 > cap) {
		size_t live = 0, ncap;
		struct nrt_tensor **n;

		/*
		 * tensors_len counts tombstones too: a rehash drops them, and
		 * the table doubles only when the live tensors need it, so
		 * that allocating and freeing forever keeps it at one size.
		 */
		for (i = 0; i < cap; i++)
			live += old[i] && old[i] != NRT_TOMB;
		ncap = !cap ? 64 : (live + 1) * 4 > cap ? cap * 2 : cap;
		n = calloc(ncap, sizeof(*n));
		if (!n)
			return -ENOMEM;
		nsrt_rt.tensors = n;
		nsrt_rt.tensors_cap = ncap;
		nsrt_rt.tensors_len = 0;
		for (i = 0; i < cap; i++)
			if (old[i] && old[i] != NRT_TOMB)
				nrt_tensor_track(old[i]);
		free(old);
	}
	for (i = nrt_hash(t, nsrt_rt.tensors_cap);
	     nsrt_rt.tensors[i] && nsrt_rt.tensors[i] != NRT_TOMB;
	     i = (i + 1) & (nsrt_rt.tensors_cap - 1))
		;
	nsrt_rt.tensors[i] = t;
	nsrt_rt.tensors_len++;
	return 0;
}

static void nrt_tensor_untrack(struct nrt_tensor *t)
{
	size_t i = nrt_slot(t);

	if (i != SIZE_MAX)
		nsrt_rt.tensors[i] = NRT_TOMB;
}

/**
 * nsrt_storage_put() - drop a reference to @st; the last one frees its
 *	bytes (a device tensor's with TENSOR_FREE).  Under nsrt_rt.lock.
 * @st: the storage.
 */
void nsrt_storage_put(struct nrt_storage *st)
{
	int err;

	if (--st->refs)
		return;
	if (st->placement == NRT_TENSOR_PLACEMENT_DEVICE) {
		err = neuronsim_tensor_free(nsrt_rt.fd, st->tensor_id);
		if (err)
			NRT_ERR("device tensor %u: FREE: %s", st->tensor_id, strerror(-err));
	} else if (st->owned == 1) {
		free(st->host);
	} else if (st->owned == 2) {
		munmap(st->host, st->size);
	}
	free(st);
}

static void nrt_tensor_destroy(struct nrt_tensor *t)
{
	nrt_tensor_untrack(t);
	if (t->st)
		nsrt_storage_put(t->st);
	t->magic = 0;
	free(t);
}

/**
 * nsrt_tensors_free_all() - free every live tensor (nrt_close(), under
 *	nsrt_rt.lock).
 */
void nsrt_tensors_free_all(void)
{
	size_t i;

	for (i = 0; i < nsrt_rt.tensors_cap; i++)
		if (nsrt_rt.tensors[i] && nsrt_rt.tensors[i] != NRT_TOMB)
			nrt_tensor_destroy(nsrt_rt.tensors[i]);
	free(nsrt_rt.tensors);
	nsrt_rt.tensors = NULL;
	nsrt_rt.tensors_cap = 0;
	nsrt_rt.tensors_len = 0;
}

static struct nrt_tensor *nrt_tensor_new(const char *name)
{
	struct nrt_tensor *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->magic = NRT_TENSOR_MAGIC;
	snprintf(t->name, sizeof(t->name), "%s", name ? name : "");
	if (nrt_tensor_track(t)) {
		free(t);
		return NULL;
	}
	return t;
}

NRT_STATUS nrt_tensor_allocate(nrt_tensor_placement_t tensor_placement, int vnc, size_t size,
			       const char *name, nrt_tensor_t **tensor)
{
	struct nrt_storage *st = NULL;
	struct nrt_tensor *t;
	NRT_STATUS s;
	int err;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nsrt_up();
	if (s)
		goto out;
	if (!tensor || !size) {
		NRT_ERR("tensor '%s': %s", name ? name : "",
			!tensor ? "NULL tensor pointer" : "size 0");
		s = NRT_INVALID;
		goto out;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		s = NRT_RESOURCE;
		goto out;
	}
	st->refs = 1;
	st->placement = tensor_placement;
	st->size = size;
	switch (tensor_placement) {
	case NRT_TENSOR_PLACEMENT_DEVICE:
		if (vnc < 0 || (uint32_t)vnc >= nsrt_rt.num_visible) {
			NRT_ERR("tensor '%s': vnc %d is not a visible NeuronCore 0..%u",
				name ? name : "", vnc, nsrt_rt.num_visible - 1);
			s = NRT_INVALID;
			goto out_st;
		}
		st->core = nsrt_rt.first_visible + vnc;
		err = neuronsim_tensor_alloc(nsrt_rt.fd, st->core, size, name, &st->tensor_id,
					     &st->physical_address);
		if (err) {
			s = nsrt_status_of(NRT_OP_TENSOR, err, 0);
			NRT_ERR("tensor '%s': %zu bytes on NeuronCore %u: %s (%s)",
				name ? name : "", size, st->core, strerror(-err),
				nsrt_status_str(s));
			goto out_st;
		}
		break;
	case NRT_TENSOR_PLACEMENT_HOST:
		st->host = calloc(1, size);
		st->owned = 1;
		if (!st->host) {
			NRT_ERR("tensor '%s': %zu bytes of host memory: out of memory",
				name ? name : "", size);
			s = NRT_RESOURCE;
			goto out_st;
		}
		break;
	case NRT_TENSOR_PLACEMENT_VIRTUAL:
		st->host = mmap(NULL, size, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		st->owned = 2;
		if (st->host == MAP_FAILED) {
			NRT_ERR("tensor '%s': %zu bytes of virtual memory: %s",
				name ? name : "", size, strerror(errno));
			st->host = NULL;
			s = NRT_RESOURCE;
			goto out_st;
		}
		break;
	default:
		NRT_ERR("tensor '%s': placement %d is not DEVICE, HOST or VIRTUAL",
			name ? name : "", (int)tensor_placement);
		s = NRT_INVALID;
		goto out_st;
	}
	t = nrt_tensor_new(name);
	if (!t) {
		s = NRT_RESOURCE;
		nsrt_storage_put(st);
		goto out;
	}
	t->st = st;
	t->size = size;
	*tensor = t;
	NRT_DBG("tensor '%s': %zu bytes, placement %d%s", t->name, size,
		(int)tensor_placement, st->tensor_id ? " (device)" : "");
	goto out;
out_st:
	free(st);
out:
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

void nrt_tensor_free(nrt_tensor_t **tensor)
{
	if (!tensor || !*tensor)
		return;
	pthread_mutex_lock(&nsrt_rt.lock);
	if (nsrt_up() == NRT_SUCCESS && nsrt_tensor_live(*tensor))
		nrt_tensor_destroy(*tensor);
	else
		NRT_ERR("tensor %p is not a live tensor", (void *)*tensor);
	*tensor = NULL;
	pthread_mutex_unlock(&nsrt_rt.lock);
}

/* up, a live tensor with storage, [@offset, @offset + @size) inside it */
static NRT_STATUS nrt_range(const nrt_tensor_t *t, uint64_t offset, uint64_t size,
			    const char *func)
{
	NRT_STATUS s = nsrt_up();

	if (s)
		return s;
	if (!nsrt_tensor_live(t)) {
		nsrt_log(NRT_LOG_ERROR, func, "tensor %p is not a live tensor", (const void *)t);
		return NRT_INVALID_HANDLE;
	}
	if (!t->st) {
		nsrt_log(NRT_LOG_ERROR, func, "tensor '%s' has no storage", t->name);
		return NRT_INVALID;
	}
	if (offset > t->size || size > t->size - offset) {
		nsrt_log(NRT_LOG_ERROR, func,
			"tensor '%s': offset %llu + size %llu is past its %llu bytes", t->name,
			(unsigned long long)offset, (unsigned long long)size,
			(unsigned long long)t->size);
		return NRT_INVALID;
	}
	return NRT_SUCCESS;
}

/* the device call's status, logged */
static NRT_STATUS nrt_dev(int err, const nrt_tensor_t *t, const char *what, const char *func)
{
	NRT_STATUS s = nsrt_status_of(NRT_OP_TENSOR, err, 0);

	if (err)
		nsrt_log(NRT_LOG_ERROR, func, "tensor '%s': %s: %s (%s)", t->name, what,
			strerror(-err), nsrt_status_str(s));
	return s;
}

enum nrt_io_op { NRT_IO_READ, NRT_IO_WRITE, NRT_IO_MEMSET };

/*
 * One read, write or memset of [@offset, @offset + @size) of a tensor:
 * through the device for a device tensor, in memory for a host one.
 */
static NRT_STATUS nrt_io(const nrt_tensor_t *tensor, enum nrt_io_op op, void *buf, int value,
			 size_t offset, size_t size, const char *func)
{
	static const char *const what[] = { "READ", "WRITE", "MEMSET" };
	const struct nrt_storage *st;
	uint64_t at;
	char *host;
	int err = 0;
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_range(tensor, offset, size, func);
	if (!s && op != NRT_IO_MEMSET && !buf && size)
		s = NRT_INVALID;
	if (s || !size)
		goto out;
	st = tensor->st;
	at = tensor->offset + offset;
	if (st->placement == NRT_TENSOR_PLACEMENT_DEVICE) {
		if (op == NRT_IO_READ)
			err = neuronsim_tensor_read(nsrt_rt.fd, st->tensor_id, at, buf, size);
		else if (op == NRT_IO_WRITE)
			err = neuronsim_tensor_write(nsrt_rt.fd, st->tensor_id, at, buf, size);
		else
			err = neuronsim_tensor_memset(nsrt_rt.fd, st->tensor_id, at, value, size);
		s = nrt_dev(err, tensor, what[op], func);
		goto out;
	}
	host = (char *)st->host + at;
	if (op == NRT_IO_READ)
		memcpy(buf, host, size);
	else if (op == NRT_IO_WRITE)
		memcpy(host, buf, size);
	else
		memset(host, value, size);
out:
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_tensor_read(const nrt_tensor_t *tensor, void *buf, size_t offset, size_t size)
{
	return nrt_io(tensor, NRT_IO_READ, buf, 0, offset, size, __func__);
}

NRT_STATUS nrt_tensor_write(nrt_tensor_t *tensor, const void *buf, size_t offset, size_t size)
{
	return nrt_io(tensor, NRT_IO_WRITE, (void *)buf, 0, offset, size, __func__);
}

NRT_STATUS nrt_tensor_memset(nrt_tensor_t *tensor, uint64_t offset, int value, size_t size)
{
	return nrt_io(tensor, NRT_IO_MEMSET, NULL, value, offset, size, __func__);
}

/* every piece of every batch read (@write 0) or written, in order */
static NRT_STATUS nrt_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches, int write)
{
	NRT_STATUS s = NRT_SUCCESS;
	uint64_t b;
	uint32_t i;

	if (!batches && num_batches)
		return NRT_INVALID;
	for (b = 0; b < num_batches && !s; b++) {
		const nrt_tensor_batch_t *x = &batches[b];

		if (!x->ops && x->num_ops)
			return NRT_INVALID;
		for (i = 0; i < x->num_ops && !s; i++)
			s = write ? nrt_tensor_write((nrt_tensor_t *)x->tensor, x->ops[i].buffer,
						     x->ops[i].offset, x->ops[i].size) :
				nrt_tensor_read(x->tensor, x->ops[i].buffer, x->ops[i].offset,
						x->ops[i].size);
	}
	return s;
}

NRT_STATUS nrt_tensor_read_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches, bool unsafe)
{
	(void)unsafe;
	return nrt_batch(batches, num_batches, 0);
}

NRT_STATUS nrt_tensor_write_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches, bool unsafe)
{
	(void)unsafe;
	return nrt_batch(batches, num_batches, 1);
}

NRT_STATUS nrt_tensor_copy(const nrt_tensor_t *src, size_t src_offset, nrt_tensor_t *dst,
			   size_t dst_offset, size_t size)
{
	struct neuronsim_tensor_copy c = { 0 };
	const struct nrt_storage *ss, *ds;
	NRT_STATUS s;
	void *tmp;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_range(src, src_offset, size, __func__);
	if (!s)
		s = nrt_range(dst, dst_offset, size, __func__);
	if (s || !size)
		goto out;
	ss = src->st;
	ds = dst->st;
	if (ss->placement != NRT_TENSOR_PLACEMENT_DEVICE &&
	    ds->placement != NRT_TENSOR_PLACEMENT_DEVICE) {
		memmove((char *)ds->host + dst->offset + dst_offset,
			(char *)ss->host + src->offset + src_offset, size);
	} else if (ss->placement != NRT_TENSOR_PLACEMENT_DEVICE) {
		s = nrt_dev(neuronsim_tensor_write(nsrt_rt.fd, ds->tensor_id,
						   dst->offset + dst_offset,
						   (char *)ss->host + src->offset + src_offset,
						   size), dst, "WRITE", __func__);
	} else if (ds->placement != NRT_TENSOR_PLACEMENT_DEVICE) {
		s = nrt_dev(neuronsim_tensor_read(nsrt_rt.fd, ss->tensor_id,
						  src->offset + src_offset,
						  (char *)ds->host + dst->offset + dst_offset,
						  size), src, "READ", __func__);
	} else if (ss->core != ds->core) {
		NRT_ERR("tensors '%s' (NeuronCore %u) and '%s' (NeuronCore %u): device tensors must be on one NeuronCore",
			src->name, ss->core, dst->name, ds->core);
		s = NRT_INVALID;
	} else if (ss == ds) {
		/* overlapping ranges of one storage: through the host */
		tmp = malloc(size);
		if (!tmp) {
			s = NRT_RESOURCE;
			goto out;
		}
		s = nrt_dev(neuronsim_tensor_read(nsrt_rt.fd, ss->tensor_id,
						  src->offset + src_offset, tmp, size),
			    src, "READ", __func__);
		if (!s)
			s = nrt_dev(neuronsim_tensor_write(nsrt_rt.fd, ds->tensor_id,
							   dst->offset + dst_offset, tmp, size),
				    dst, "WRITE", __func__);
		free(tmp);
	} else {
		c.src.tensor_id = ss->tensor_id;
		c.src.offset = src->offset + src_offset;
		c.dst.tensor_id = ds->tensor_id;
		c.dst.offset = dst->offset + dst_offset;
		c.len = size;
		s = nrt_dev(neuronsim_tensor_copy(nsrt_rt.fd, &c, 1), dst, "COPY", __func__);
	}
out:
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

/**
 * nsrt_bound_to_var() - copy a pinned tensor's bytes into (@to_var) or out
 *	of one variable of a model; called without nsrt_rt.lock, under the
 *	model's exec_lock.
 * @b: the tensor's storage, offset and size (the variable's size).
 * @model_id: the model.
 * @loc: the subgraph and var_id.
 * @to_var: 1 into the variable, 0 out of it.
 *
 * Return: 0 or the device's -errno.
 */
int nsrt_bound_to_var(const struct nrt_bound *b, uint32_t model_id,
		     const struct nrt_io_loc *loc, int to_var)
{
	struct neuronsim_tensor_copy c = { 0 };
	struct neuronsim_tensor_end *t = to_var ? &c.src : &c.dst;
	struct neuronsim_tensor_end *v = to_var ? &c.dst : &c.src;
	char *host;

	if (b->st->placement != NRT_TENSOR_PLACEMENT_DEVICE) {
		host = (char *)b->st->host + b->offset;
		return to_var ?
			neuronsim_write_var(nsrt_rt.fd, model_id, loc->subgraph, loc->var_id, 0,
					    host, b->size) :
			neuronsim_read_var(nsrt_rt.fd, model_id, loc->subgraph, loc->var_id, 0,
					   host, b->size);
	}
	t->tensor_id = b->st->tensor_id;
	t->offset = b->offset;
	v->model_id = model_id;
	v->subgraph = loc->subgraph;
	v->var_id = loc->var_id;
	c.len = b->size;
	return neuronsim_tensor_copy(nsrt_rt.fd, &c, 1);
}

size_t nrt_tensor_get_size(const nrt_tensor_t *tensor)
{
	size_t n = 0;

	pthread_mutex_lock(&nsrt_rt.lock);
	if (nsrt_tensor_live(tensor))
		n = tensor->size;
	pthread_mutex_unlock(&nsrt_rt.lock);
	return n;
}

NRT_STATUS nrt_tensor_allocate_empty(const char *name, nrt_tensor_t **tensor)
{
	struct nrt_tensor *t;
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nsrt_up();
	if (!s && !tensor)
		s = NRT_INVALID;
	if (!s) {
		t = nrt_tensor_new(name);
		if (!t)
			s = NRT_RESOURCE;
		else
			*tensor = t;
	}
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_tensor_attach_buffer(nrt_tensor_t *tensor, void *buffer, size_t size)
{
	struct nrt_storage *st;
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nsrt_up();
	if (s)
		goto out;
	if (!nsrt_tensor_live(tensor)) {
		NRT_ERR("tensor %p is not a live tensor", (void *)tensor);
		s = NRT_INVALID_HANDLE;
		goto out;
	}
	if (!buffer || !size ||
	    (tensor->st && (tensor->st->placement == NRT_TENSOR_PLACEMENT_DEVICE ||
			    tensor->st->refs > 1 || tensor->offset))) {
		NRT_ERR("tensor '%s': a buffer needs a host tensor without slices, a buffer and a size",
			tensor->name);
		s = NRT_INVALID;
		goto out;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		s = NRT_RESOURCE;
		goto out;
	}
	st->refs = 1;
	st->placement = NRT_TENSOR_PLACEMENT_HOST;
	st->host = buffer;
	st->size = size;
	if (tensor->st)
		nsrt_storage_put(tensor->st);
	tensor->st = st;
	tensor->offset = 0;
	tensor->size = size;
out:
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_tensor_allocate_slice(const nrt_tensor_t *tensor_source, size_t offset, size_t size,
				     const char *name, nrt_tensor_t **tensor_slice)
{
	struct nrt_tensor *t;
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_range(tensor_source, offset, size, __func__);
	if (!s && (!tensor_slice || !size)) {
		NRT_ERR("slice of '%s': %s", tensor_source->name,
			!size ? "size 0" : "NULL tensor pointer");
		s = NRT_INVALID;
	}
	if (!s) {
		t = nrt_tensor_new(name);
		if (!t) {
			s = NRT_RESOURCE;
		} else {
			t->st = tensor_source->st;
			t->st->refs++;
			t->offset = tensor_source->offset + offset;
			t->size = size;
			*tensor_slice = t;
		}
	}
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

void *nrt_tensor_get_va(const nrt_tensor_t *tensor)
{
	void *va = NULL;

	pthread_mutex_lock(&nsrt_rt.lock);
	if (nsrt_up() == NRT_SUCCESS && nsrt_tensor_live(tensor) && tensor->st &&
	    tensor->st->placement != NRT_TENSOR_PLACEMENT_DEVICE)
		va = (char *)tensor->st->host + tensor->offset;
	pthread_mutex_unlock(&nsrt_rt.lock);
	return va;
}

NRT_STATUS nrt_tensor_get_device_allocation_info(const nrt_tensor_t *tensor,
						 nrt_tensor_device_allocation_info_t *alloc_info)
{
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_range(tensor, 0, 0, __func__);
	if (!s && (!alloc_info || tensor->st->placement != NRT_TENSOR_PLACEMENT_DEVICE)) {
		NRT_ERR("tensor '%s': %s", tensor->name,
			alloc_info ? "not a device tensor" : "NULL alloc_info");
		s = NRT_INVALID;
	}
	if (!s) {
		alloc_info->physical_address = tensor->st->physical_address + tensor->offset;
		alloc_info->size = tensor->size;
		alloc_info->hbm_index = 0;
	}
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_tensor_check_output_completion(const nrt_tensor_t *output_tensor, int64_t timeout,
					      uint64_t expected_completion_count)
{
	(void)output_tensor; (void)timeout; (void)expected_completion_count;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_tensor_reset_output_completion(nrt_tensor_t *output_tensor)
{
	(void)output_tensor;
	return nsrt_unsupported(__func__);
}

/* ---- tensor sets: a name -> tensor list ---- */

struct nrt_set_ent {
	char *name;
	nrt_tensor_t *tensor;
};

/*
 * Every set's entries, against an execution reading a set while another
 * thread adds to it; taken after nsrt_rt.lock, never before it.
 */
static pthread_mutex_t nrt_sets_lock = PTHREAD_MUTEX_INITIALIZER;

struct nrt_set {
	uint64_t magic;
	struct nrt_set_ent *ent;
	size_t n, cap;
};

static struct nrt_set *nrt_set_of(const nrt_tensor_set_t *set)
{
	struct nrt_set *s = (struct nrt_set *)set;

	return s && s->magic == NRT_SET_MAGIC ? s : NULL;
}

NRT_STATUS nrt_allocate_tensor_set(nrt_tensor_set_t **result)
{
	struct nrt_set *s;

	if (!result)
		return NRT_INVALID;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NRT_RESOURCE;
	s->magic = NRT_SET_MAGIC;
	*result = s;
	return NRT_SUCCESS;
}

void nrt_destroy_tensor_set(nrt_tensor_set_t **tensor_set)
{
	struct nrt_set *s;
	size_t i;

	if (!tensor_set || !(s = nrt_set_of(*tensor_set)))
		return;
	pthread_mutex_lock(&nrt_sets_lock);
	for (i = 0; i < s->n; i++)
		free(s->ent[i].name);
	free(s->ent);
	s->magic = 0;
	free(s);
	pthread_mutex_unlock(&nrt_sets_lock);
	*tensor_set = NULL;
}

NRT_STATUS nrt_add_tensor_to_tensor_set(nrt_tensor_set_t *tensor_set, const char *tensor_name,
					nrt_tensor_t *tensor)
{
	struct nrt_set *s = nrt_set_of(tensor_set);
	NRT_STATUS st = NRT_SUCCESS;
	struct nrt_set_ent *grown;
	size_t i, len;
	int live;

	if (!s || !tensor_name) {
		NRT_ERR("a NULL tensor set or name");
		return NRT_INVALID;
	}
	len = strlen(tensor_name);
	if (!len || len >= NRT_TENSOR_NAME_MAX) {
		NRT_ERR("tensor name of %zu bytes is not 1..%d", len, NRT_TENSOR_NAME_MAX - 1);
		return NRT_INVALID;
	}
	pthread_mutex_lock(&nsrt_rt.lock);
	live = nsrt_tensor_live(tensor);
	pthread_mutex_unlock(&nsrt_rt.lock);
	if (!live) {
		NRT_ERR("'%s': tensor %p is not a live tensor", tensor_name, (void *)tensor);
		return NRT_INVALID_HANDLE;
	}
	pthread_mutex_lock(&nrt_sets_lock);
	for (i = 0; i < s->n; i++) {
		if (!strcmp(s->ent[i].name, tensor_name)) {
			s->ent[i].tensor = tensor;
			goto out;
		}
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;

		grown = realloc(s->ent, cap * sizeof(*grown));
		if (!grown) {
			st = NRT_RESOURCE;
			goto out;
		}
		s->ent = grown;
		s->cap = cap;
	}
	s->ent[s->n].name = strdup(tensor_name);
	if (!s->ent[s->n].name) {
		st = NRT_RESOURCE;
		goto out;
	}
	s->ent[s->n++].tensor = tensor;
out:
	pthread_mutex_unlock(&nrt_sets_lock);
	return st;
}

/**
 * nsrt_set_find() - the tensor @set names @name, or NULL (no such name,
 *	or @set is not a tensor set).
 * @set: the set.
 * @name: the name.
 *
 * Return: the tensor (not checked to be live) or NULL.
 */
const nrt_tensor_t *nsrt_set_find(const nrt_tensor_set_t *set, const char *name)
{
	const struct nrt_set *s = nrt_set_of(set);
	const nrt_tensor_t *t = NULL;
	size_t i;

	pthread_mutex_lock(&nrt_sets_lock);
	for (i = 0; s && i < s->n; i++) {
		if (!strcmp(s->ent[i].name, name)) {
			t = s->ent[i].tensor;
			break;
		}
	}
	pthread_mutex_unlock(&nrt_sets_lock);
	return t;
}

NRT_STATUS nrt_get_tensor_from_tensor_set(nrt_tensor_set_t *tensor_set, const char *tensor_name,
					  nrt_tensor_t **tensor)
{
	const nrt_tensor_t *t;

	if (!nrt_set_of(tensor_set) || !tensor_name || !tensor)
		return NRT_INVALID;
	t = nsrt_set_find(tensor_set, tensor_name);
	if (!t)
		return NRT_INVALID;
	*tensor = (nrt_tensor_t *)t;
	return NRT_SUCCESS;
}
