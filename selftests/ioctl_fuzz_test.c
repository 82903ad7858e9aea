// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_fuzz_test - seeded, reproducible ioctl fuzzing of /dev/neuronsim.
 *
 *   ioctl_fuzz_test [-s SEED] [-n CALLS]     (also NSIM_FUZZ_SEED,
 *                                             NSIM_FUZZ_CALLS)
 *
 * CALLS (default 100000) calls over three fds mixing LOADs of plans mutated
 * by kbin_mutate() (and unmutated ones) with RESOLVE, RESOLVE_BATCH,
 * READ_VAR, WRITE_VAR, MODEL_INFO, DMA_INFO, EXECUTE and EXEC_WAIT (the
 * standard plan carries a program), the device tensor calls (TENSOR_ALLOC,
 * TENSOR_FREE, TENSOR_IO, TENSOR_COPY between tensors and the models'
 * variables), UNLOAD, close/reopen and bad arguments:
 * NULL, unmapped and kernel-half pointers, huge sizes and counts, unknown
 * flags, reserved fields set, struct sizes smaller and larger than the
 * kernel's (with a non-zero tail), unknown commands.  Every result must be
 * 0 or an errno the uapi documents for that command; a valid plan must
 * load; a model's resolved addresses must not change while it lives.
 * Afterwards every fd is closed and the module's counters (models,
 * mem_refs, kmem_bytes, backing_bytes, hbm_used: the tensors' too) must be
 * at their baseline.  The seed is printed; rerun with -s to reproduce.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_mutate.h"
#include "plans.h"

#define NFD		3
#define MAXM		16
#define MAXT		16
#define MAXPLAN		(64 << 10)
#define KPTR		0xffff888000000000ULL
#define IOBUF		((size_t)NEURONSIM_RESOLVE_BATCH_MAX * \
			 sizeof(struct neuronsim_resolve_entry) + 65536)

static uint64_t g_seed;
static unsigned long g_calls = 100000;

struct mdl {
	uint32_t id;
	int valid;		/* loaded from the unmutated standard plan */
	uint64_t addr_w;	/* resolved address of V0_WEIGHT, sg 0 */
};

struct fdst {
	int fd;
	int n;
	int untracked;		/* holds models whose id was not returned */
	struct mdl m[MAXM];
	int nt;
	uint32_t t[MAXT];	/* its device tensors */
};

struct fz {
	uint64_t st;
	struct fdst f[NFD];
	struct plan std;
	struct plan bufs;
	uint8_t *pb;
	uint8_t *bad;		/* an unmapped page */
	uint8_t *io;
	struct neuronsim_info info;
	unsigned long n_load_ok, n_load_fail, n_res_ok, n_tensor_ok, n_calls[16];
	uint32_t max_models;
};

static uint64_t r64(struct fz *z)
{
	return kbin_rand(&z->st);
}

static uint64_t rn(struct fz *z, uint64_t n)
{
	return n ? r64(z) % n : 0;
}

/* a user pointer: usually good, sometimes NULL, unmapped or kernel-half */
static uint64_t ptr(struct fz *z, void *good)
{
	switch (rn(z, 12)) {
	case 0:
		return 0;
	case 1:
		return (uintptr_t)z->bad;
	case 2:
		return KPTR + rn(z, 1 << 20) * 8;
	case 3:
		return ~0ULL - 7;
	default:
		return (uintptr_t)good;
	}
}

static uint64_t big(struct fz *z, uint64_t normal)
{
	static const uint64_t k[] = { 0, 1, 4096, 1ULL << 31, 1ULL << 32,
				      ~0ULL, ~0ULL - 4095, 1ULL << 63 };

	return rn(z, 6) ? normal : k[rn(z, sizeof(k) / sizeof(k[0]))];
}

/*
 * what a command on a model id may say: no such model (another fd's, an
 * old id, junk), a bad field or pointer, a struct tail that is not zero
 */
static const int model_errnos[] = { ENOENT, EINVAL, EFAULT, E2BIG, 0 };

static int errno_ok(int e, const int *ok)
{
	for (; *ok; ok++)
		if (e == *ok)
			return 1;
	return 0;
}

/* a command with the struct size field replaced */
static unsigned long resize(unsigned long cmd, unsigned int size)
{
	return (cmd & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
	       ((unsigned long)size << _IOC_SIZESHIFT);
}

/*
 * Issue @cmd on a struct of @ksize bytes at @arg; sometimes with a smaller
 * size (tail read as zero) or a larger one whose tail is non-zero (-E2BIG).
 * Returns 0 or -errno.
 */
static int call(struct fz *z, int fd, unsigned long cmd, void *arg,
		size_t ksize, int *tail_set)
{
	static uint8_t big_arg[512];
	unsigned int sz = (unsigned int)ksize;
	void *a = arg;

	*tail_set = 0;
	switch (rn(z, 20)) {
	case 0:
		sz = (unsigned int)rn(z, ksize);	/* shorter */
		*tail_set = 1;
		break;
	case 1:
		memset(big_arg, 0, sizeof(big_arg));
		memcpy(big_arg, arg, ksize);
		sz = (unsigned int)(ksize + 8 + rn(z, 64));
		if (rn(z, 2)) {
			big_arg[sz - 1 - rn(z, sz - ksize)] = 1;
			*tail_set = 1;
		}
		a = big_arg;
		break;
	case 2:
		a = (void *)(uintptr_t)ptr(z, arg);
		*tail_set = a != arg;
		break;
	}
	if (ioctl(fd, resize(cmd, sz), a))
		return -errno;
	if (a == big_arg)
		memcpy(arg, big_arg, ksize);
	return 0;
}

/*
 * What an op on a model works on: an fd (*@fdi) and, mostly, one of its
 * models; NULL for none (pick_id() then gives another fd's id or junk)
 */
static struct mdl *pick(struct fz *z, int *fdi)
{
	struct fdst *f;

	*fdi = (int)rn(z, NFD);
	f = &z->f[*fdi];
	if (!f->n || !rn(z, 10))
		return NULL;
	return &f->m[rn(z, f->n)];
}

static uint32_t pick_id(struct fz *z, struct mdl *m)
{
	if (m && rn(z, 8))
		return m->id;
	/* another fd's model, an old id, or junk */
	if (rn(z, 2)) {
		struct fdst *o = &z->f[rn(z, NFD)];

		if (o->n)
			return o->m[rn(z, o->n)].id;
	}
	return (uint32_t)rn(z, 3) ? (uint32_t)rn(z, 64) : (uint32_t)r64(z);
}

static void forget(struct fdst *f, uint32_t id)
{
	int i;

	for (i = 0; i < f->n; i++)
		if (f->m[i].id == id) {
			f->m[i] = f->m[--f->n];
			return;
		}
}

#define BAD(fmt, ...) do {						\
	TH_LOG("seed %llu call %lu: " fmt, (unsigned long long)g_seed,	\
	       k, ##__VA_ARGS__);					\
	return -1;							\
} while (0)

/*
 * call() of @cmd, named @name in a failure, on @fd with the struct *@arg
 * (the op's tail set): its result, 0 or -errno, for the op's own checks;
 * an errno that is not one of @ok ends the op (BAD())
 */
#define CALL(fd, cmd, name, arg, ok) ({					\
	int _r = call(z, (fd), (cmd), (arg), sizeof(*(arg)), &tail);	\
									\
	if (_r && !errno_ok(-_r, (ok)))					\
		BAD("%s returned %d (%s)", (name), _r, strerror(-_r));	\
	_r;								\
})

static int op_load(struct __test_metadata *_metadata, struct fz *z,
		   unsigned long k)
{
	static const int ok[] = { EINVAL, E2BIG, ENOSPC, ENOMEM, ENODEV,
				  EFAULT, EMFILE, 0 };
	int fdi = (int)rn(z, NFD), tail, mutated = 0, ret;
	struct fdst *f = &z->f[fdi];
	struct neuronsim_load l;
	const struct plan *src = rn(z, 4) ? &z->std : &z->bufs;
	size_t len = src->len;
	/*
	 * The fuzzer may tell the kernel the buffer is bigger than it is
	 * (big()): the kernel then writes its whole message, up to the 512
	 * bytes of its load error text, so the buffer holds that much.
	 */
	char log[1024];

	if (f->n >= MAXM) {	/* keep the table bounded */
		if (nsim_unload(f->fd, f->m[0].id))
			BAD("UNLOAD of own model %u failed", f->m[0].id);
		forget(f, f->m[0].id);
	}
	memcpy(z->pb, src->buf, len);
	if (rn(z, 5)) {
		len = kbin_mutate(z->pb, len, MAXPLAN, &z->st);
		mutated = len != src->len || memcmp(z->pb, src->buf, len);
	}
	memset(&l, 0, sizeof(l));
	l.plan_ptr = ptr(z, z->pb);
	l.plan_len = big(z, len);
	l.first_core = rn(z, 6) ? 0 : (uint32_t)rn(z, 12);
	if (rn(z, 2)) {
		l.log_buf = ptr(z, log);
		l.log_size = (uint32_t)big(z, sizeof(log));
	}
	if (!rn(z, 12))
		l.flags = 1U << rn(z, 32);
	if (!rn(z, 12))
		l.reserved = (uint32_t)r64(z) | 1;
	ret = call(z, f->fd, NEURONSIM_IOC_LOAD, &l, sizeof(l), &tail);
	if (ret) {
		z->n_load_fail++;
		if (!errno_ok(-ret, ok))
			BAD("LOAD returned %d (%s), not a documented errno", ret,
			    strerror(-ret));
		if (ret != -ENOSPC && ret != -ENOMEM &&
		    !mutated && src == &z->std && l.plan_ptr == (uintptr_t)z->pb &&
		    l.plan_len == len && !l.flags && !l.reserved && !tail &&
		    l.first_core == 0 && f->n < (int)z->max_models &&
		    !f->untracked &&
		    (!l.log_buf || l.log_buf == (uintptr_t)log) &&
		    l.log_size <= sizeof(log) && (l.log_buf || !l.log_size) &&
		    ret != -EFAULT)
			BAD("a valid plan failed to load: %d (%s), reason %u field %u sg %d rec %d, plan_len %llu, first word 0x%08x, log %.*s",
			    ret, strerror(-ret), l.err_reason, l.err_field,
			    l.err_subgraph, l.err_record,
			    (unsigned long long)l.plan_len,
			    *(uint32_t *)z->pb, (int)sizeof(log), log);
		return 0;
	}
	z->n_load_ok++;
	if (tail) {
		/* a short struct: the id may not have come back */
		f->untracked = 1;
		return 0;
	}
	if (!l.model_id)
		BAD("LOAD succeeded with model_id 0");
	if (f->n >= (int)z->max_models)
		BAD("LOAD succeeded beyond max_models_per_fd (%d held)", f->n);
	f->m[f->n].id = l.model_id;
	f->m[f->n].valid = !mutated && src == &z->std;
	f->m[f->n].addr_w = 0;
	if (f->m[f->n].valid &&
	    nsim_resolve(f->fd, l.model_id, 0, V0_WEIGHT, 0, 1,
			 &f->m[f->n].addr_w))
		BAD("RESOLVE of a fresh valid model failed");
	f->n++;
	return 0;
}

static int op_resolve(struct __test_metadata *_metadata, struct fz *z,
		      unsigned long k, int fdi, struct mdl *m)
{
	static const int ok[] = { ENOENT, ERANGE, EINVAL, ENODATA, EFAULT,
				  E2BIG, 0 };
	struct neuronsim_resolve r;
	int tail, ret;

	memset(&r, 0, sizeof(r));
	r.model_id = pick_id(z, m);
	r.subgraph = rn(z, 8) ? (uint32_t)rn(z, 2) : (uint32_t)r64(z);
	r.var_id = rn(z, 8) ? (uint32_t)rn(z, V0_N + 1) : (uint32_t)r64(z);
	r.offset = big(z, rn(z, 64));
	r.size = big(z, rn(z, 64));
	if (!rn(z, 16))
		r.flags = 1U << rn(z, 32);
	ret = CALL(z->f[fdi].fd, NEURONSIM_IOC_RESOLVE, "RESOLVE", &r, ok);
	if (!ret) {
		z->n_res_ok++;
		if (!r.address && !tail)
			BAD("RESOLVE succeeded with address 0");
	}
	return 0;
}

static int op_batch(struct __test_metadata *_metadata, struct fz *z,
		    unsigned long k, int fdi, struct mdl *m)
{
	static const int eok[] = { ENOENT, ERANGE, EINVAL, ENODATA, 0 };
	struct neuronsim_resolve_entry *e = (void *)z->io;
	struct neuronsim_resolve_batch b;
	uint32_t n = (uint32_t)rn(z, 64) + 1, i, good = 0;
	int tail, ret;

	for (i = 0; i < n; i++) {
		memset(&e[i], 0, sizeof(e[i]));
		e[i].subgraph = (uint32_t)rn(z, 3);
		e[i].var_id = (uint32_t)rn(z, V0_N + 2);
		e[i].offset = big(z, rn(z, 32));
		e[i].size = big(z, rn(z, 32));
		if (!rn(z, 16))
			e[i].reserved = 1;
	}
	memset(&b, 0, sizeof(b));
	b.model_id = pick_id(z, m);
	b.count = rn(z, 10) ? n : (uint32_t)big(z, NEURONSIM_RESOLVE_BATCH_MAX + rn(z, 2));
	b.entries = ptr(z, e);
	if (!rn(z, 16))
		b.flags = 1;
	if (!rn(z, 16))
		b.reserved = r64(z) | 1;
	ret = CALL(z->f[fdi].fd, NEURONSIM_IOC_RESOLVE_BATCH, "RESOLVE_BATCH", &b,
		   model_errnos);
	if (ret || b.count != n || b.entries != (uintptr_t)e || tail)
		return 0;
	for (i = 0; i < n; i++) {
		if (e[i].status && !errno_ok(-e[i].status, eok))
			BAD("RESOLVE_BATCH entry %u status %d", i, e[i].status);
		if (!e[i].status && !e[i].address)
			BAD("RESOLVE_BATCH entry %u ok with address 0", i);
		if (e[i].status && e[i].address)
			BAD("RESOLVE_BATCH entry %u failed with address 0x%llx",
			    i, (unsigned long long)e[i].address);
		good += !e[i].status;
	}
	if (b.num_ok != good)
		BAD("RESOLVE_BATCH num_ok %u, entries with status 0 %u",
		    b.num_ok, good);
	return 0;
}

static int op_var_io(struct __test_metadata *_metadata, struct fz *z,
		     unsigned long k, int fdi, struct mdl *m, int write)
{
	static const int ok[] = { EINVAL, ENOENT, ERANGE, ENODATA, EPERM,
				  EFAULT, ENOMEM, E2BIG, 0 };
	struct neuronsim_var_io io;
	int tail;

	memset(&io, 0, sizeof(io));
	io.model_id = pick_id(z, m);
	io.subgraph = (uint32_t)rn(z, 3);
	io.var_id = (uint32_t)rn(z, V0_N + 2);
	io.offset = big(z, rn(z, 2048));
	io.len = big(z, rn(z, 4096));
	io.buf = ptr(z, z->io);
	if (!rn(z, 16))
		io.flags = 1U << rn(z, 32);
	CALL(z->f[fdi].fd, write ? NEURONSIM_IOC_WRITE_VAR : NEURONSIM_IOC_READ_VAR,
	     write ? "WRITE_VAR" : "READ_VAR", &io, ok);
	return 0;
}

static int op_unload(struct __test_metadata *_metadata, struct fz *z,
		     unsigned long k, int fdi, struct mdl *m)
{
	struct neuronsim_unload u;
	int tail, ret;

	memset(&u, 0, sizeof(u));
	u.model_id = pick_id(z, m);
	if (!rn(z, 16))
		u.flags = 1U << rn(z, 32);
	ret = CALL(z->f[fdi].fd, NEURONSIM_IOC_UNLOAD, "UNLOAD", &u, model_errnos);
	if (!ret) {
		int i, mine = 0;

		for (i = 0; i < z->f[fdi].n; i++)
			mine |= z->f[fdi].m[i].id == u.model_id;
		if (!mine && !z->f[fdi].untracked)
			BAD("UNLOAD of model %u succeeded on an fd that does not own it",
			    u.model_id);
		forget(&z->f[fdi], u.model_id);
	}
	return 0;
}

/* model info, plus the stability of a valid model's address */
static int op_info(struct __test_metadata *_metadata, struct fz *z,
		   unsigned long k, int fdi, struct mdl *m)
{
	struct neuronsim_model_info mi;
	int tail, ret;
	uint64_t a;

	memset(&mi, 0, sizeof(mi));
	mi.model_id = pick_id(z, m);
	if (!rn(z, 16))
		mi.flags = 1;
	CALL(z->f[fdi].fd, NEURONSIM_IOC_MODEL_INFO, "MODEL_INFO", &mi, model_errnos);
	if (rn(z, 2)) {	/* DMA_INFO: summaries and ring ranges, odd fields */
		static const int dok[] = { ENOENT, EINVAL, EFAULT, E2BIG, ERANGE, 0 };
		struct neuronsim_dma_info di;

		memset(&di, 0, sizeof(di));
		di.model_id = pick_id(z, m);
		di.subgraph = rn(z, 3);
		di.flags = rn(z, 3);
		di.num_queues = rn(z, 4);
		di.queues = ptr(z, z->io);
		if (di.flags) {
			di.queue = rn(z, 3);
			di.side = rn(z, 3);
			di.first = rn(z, 12);
			di.count = rn(z, 8) ? rn(z, 32) : NEURONSIM_DMA_INFO_MAX_DESCS + rn(z, 2);
			di.descs = ptr(z, z->io);
		}
		if (!rn(z, 16))
			di.reserved[rn(z, 2)] = 1;
		CALL(z->f[fdi].fd, NEURONSIM_IOC_DMA_INFO, "DMA_INFO", &di, dok);
	}
	if (!rn(z, 3)) {	/* EXECUTE and EXEC_WAIT, odd fields */
		static const int xok[] = { ENOENT, EINVAL, EFAULT, E2BIG, ENODATA,
					   EBUSY, ENOMEM, 0 };
		static const int wok[] = { ENOENT, EINVAL, EFAULT, E2BIG, ENODATA,
					   ETIMEDOUT, 0 };
		struct neuronsim_exec_wait w;
		struct neuronsim_exec x;

		memset(&x, 0, sizeof(x));
		x.model_id = pick_id(z, m);
		x.flags = rn(z, 4) ? 0 : rn(z, 4);
		x.max_events = rn(z, 4) ? 0 : rn(z, 2) ? rn(z, 64) :
			       NEURONSIM_EXEC_MAX_EVENTS + rn(z, 2);
		x.timeout_ns = rn(z, 4) ? 0 : rn(z, 1000000);
		if (!rn(z, 16))
			x.reserved = 1;
		CALL(z->f[fdi].fd, NEURONSIM_IOC_EXECUTE, "EXECUTE", &x, xok);
		memset(&w, 0, sizeof(w));
		w.model_id = pick_id(z, m);
		w.timeout_ns = rn(z, 2) ? 0 : 100000000;
		w.num_subgraphs = rn(z, 4);
		w.subgraphs = ptr(z, z->io);
		w.num_queues = rn(z, 4);
		w.queues = ptr(z, z->io);
		w.num_events = rn(z, 64);
		w.events = ptr(z, z->io);
		if (!rn(z, 16))
			w.flags = 1;
		CALL(z->f[fdi].fd, NEURONSIM_IOC_EXEC_WAIT, "EXEC_WAIT", &w, wok);
	}
	if (m && m->valid) {
		ret = nsim_resolve(z->f[fdi].fd, m->id, 0, V0_WEIGHT, 0, 1, &a);
		if (ret || a != m->addr_w)
			BAD("model %u: V0_WEIGHT resolves to %d/0x%llx, at load 0x%llx",
			    m->id, ret, (unsigned long long)a,
			    (unsigned long long)m->addr_w);
	}
	return 0;
}

/* a tensor id for @f: mostly one of its own, else another fd's or junk */
static uint32_t pick_tensor(struct fz *z, struct fdst *f)
{
	struct fdst *o = &z->f[rn(z, NFD)];

	if (f->nt && rn(z, 8))
		return f->t[rn(z, f->nt)];
	if (o->nt && rn(z, 2))
		return o->t[rn(z, o->nt)];
	return (uint32_t)rn(z, 3) ? (uint32_t)rn(z, 64) : (uint32_t)r64(z);
}

/* one end of a TENSOR_COPY entry: a tensor, or a variable of a model */
static void pick_end(struct fz *z, struct fdst *f,
		     struct neuronsim_tensor_end *e)
{
	memset(e, 0, sizeof(*e));
	if (rn(z, 2)) {
		e->tensor_id = pick_tensor(z, f);
	} else {
		e->model_id = pick_id(z, f->n ? &f->m[rn(z, f->n)] : NULL);
		e->subgraph = (uint32_t)rn(z, 3);
		e->var_id = (uint32_t)rn(z, V0_N + 2);
	}
	if (!rn(z, 32))		/* a tensor end naming a variable */
		e->var_id |= 1;
	e->offset = big(z, rn(z, 4096));
}

/*
 * The device tensor calls on one fd: ALLOC (sizes up to huge, so -E2BIG
 * and -ENOSPC come), FREE, IO and COPY with bad fields and pointers; IO
 * and COPY lengths stay small, so no call writes more than a few pages
 */
static int op_tensor(struct __test_metadata *_metadata, struct fz *z,
		     unsigned long k)
{
	static const int alloc_ok[] = { EINVAL, E2BIG, ENOSPC, EMFILE, ENOMEM,
					EFAULT, 0 };
	static const int io_ok[] = { EINVAL, ENOENT, ERANGE, EFAULT, ENOMEM,
				     E2BIG, 0 };
	static const int copy_ok[] = { EINVAL, ENOENT, ERANGE, ENODATA, EPERM,
				       EBUSY, EFAULT, ENOMEM, E2BIG, 0 };
	int fdi = (int)rn(z, NFD), tail, ret, i;
	struct fdst *f = &z->f[fdi];

	switch (rn(z, 8)) {
	case 0:
	case 1: {
		struct neuronsim_tensor_alloc a;

		if (f->nt >= MAXT) {	/* keep the table bounded */
			if (neuronsim_tensor_free(f->fd, f->t[0]))
				BAD("TENSOR_FREE of own tensor %u failed", f->t[0]);
			f->t[0] = f->t[--f->nt];
		}
		memset(&a, 0, sizeof(a));
		a.core = rn(z, 8) ? (uint32_t)rn(z, 2) : (uint32_t)r64(z);
		a.size = rn(z, 4) ? 1 + rn(z, 65536) : big(z, 1ULL << 32);
		for (i = 0; i < (int)rn(z, 80); i++)
			a.name[i % sizeof(a.name)] = (char)r64(z);
		if (!rn(z, 16))
			a.flags = 1U << rn(z, 32);
		if (!rn(z, 16))
			a.reserved0 = 1;
		ret = CALL(f->fd, NEURONSIM_IOC_TENSOR_ALLOC, "TENSOR_ALLOC", &a,
			   alloc_ok);
		if (!ret && !tail) {
			if (!a.tensor_id)
				BAD("TENSOR_ALLOC succeeded with tensor_id 0");
			if (!nsim_in_hbm(&z->info, a.physical_address, a.size))
				BAD("TENSOR_ALLOC: 0x%llx+%llu is not inside one HBM channel",
				    (unsigned long long)a.physical_address,
				    (unsigned long long)a.size);
			f->t[f->nt++] = a.tensor_id;
			z->n_tensor_ok++;
		}
		return 0;
	}
	case 2: {
		struct neuronsim_tensor_free fr;

		memset(&fr, 0, sizeof(fr));
		fr.tensor_id = pick_tensor(z, f);
		if (!rn(z, 16))
			fr.flags = 1U << rn(z, 32);
		ret = CALL(f->fd, NEURONSIM_IOC_TENSOR_FREE, "TENSOR_FREE", &fr,
			   model_errnos);
		for (i = 0; !ret && i < f->nt; i++)
			if (f->t[i] == fr.tensor_id) {
				f->t[i] = f->t[--f->nt];
				break;
			}
		return 0;
	}
	case 3:
	case 4:
	case 5: {
		struct neuronsim_tensor_io io;

		memset(&io, 0, sizeof(io));
		io.tensor_id = pick_tensor(z, f);
		io.op = rn(z, 8) ? (uint32_t)rn(z, 3) : (uint32_t)rn(z, 64);
		io.offset = big(z, rn(z, 65536));
		io.len = rn(z, 65536);
		if (io.op != NEURONSIM_TENSOR_MEMSET || !rn(z, 8))
			io.buf = ptr(z, z->io);
		if (io.op == NEURONSIM_TENSOR_MEMSET || !rn(z, 16))
			io.value = (uint32_t)rn(z, 300);
		if (!rn(z, 16))
			io.flags = 1U << rn(z, 32);
		CALL(f->fd, NEURONSIM_IOC_TENSOR_IO, "TENSOR_IO", &io, io_ok);
		return 0;
	}
	default: {
		struct neuronsim_tensor_copy *c = (void *)z->io;
		struct neuronsim_tensor_copy_batch b;
		uint32_t n = rn(z, 8) ? 1 + (uint32_t)rn(z, 4) :
			     (uint32_t)rn(z, NEURONSIM_TENSOR_COPY_MAX + 2);

		for (i = 0; i < (int)n; i++) {
			pick_end(z, f, &c[i].src);
			pick_end(z, f, &c[i].dst);
			c[i].len = rn(z, 16) ? rn(z, 8192) : big(z, 0);
		}
		memset(&b, 0, sizeof(b));
		b.copies = ptr(z, c);
		b.count = n;
		if (!rn(z, 16))
			b.flags = 1U << rn(z, 32);
		if (!rn(z, 16))
			b.reserved = 1;
		CALL(f->fd, NEURONSIM_IOC_TENSOR_COPY, "TENSOR_COPY", &b, copy_ok);
		return 0;
	}
	}
}

static int op_misc(struct __test_metadata *_metadata, struct fz *z,
		   unsigned long k)
{
	struct fdst *f = &z->f[rn(z, NFD)];
	unsigned long cmd;
	int ret;

	switch (rn(z, 4)) {
	case 0:		/* close and reopen: the fd's models and tensors go away */
		close(f->fd);
		f->fd = nsim_open();
		f->n = 0;
		f->nt = 0;
		f->untracked = 0;
		if (f->fd < 0)
			BAD("reopen failed: %s", strerror(errno));
		return 0;
	case 1:		/* unknown command number */
		cmd = _IOC(rn(z, 4), NEURONSIM_IOC_MAGIC, 17 + rn(z, 239),
			   rn(z, 256));
		ret = ioctl(f->fd, cmd, z->io) ? -errno : 0;
		if (ret != -ENOTTY)
			BAD("unknown command 0x%lx returned %d, not -ENOTTY",
			    cmd, ret);
		return 0;
	case 2:		/* another magic */
		cmd = _IOC(_IOC_READ, 0xB7, rn(z, 8), 8);
		ret = ioctl(f->fd, cmd, z->io) ? -errno : 0;
		if (ret != -ENOTTY)
			BAD("foreign command 0x%lx returned %d", cmd, ret);
		return 0;
	default:	/* GET_INFO with odd sizes and pointers */
		cmd = resize(NEURONSIM_IOC_GET_INFO, (unsigned int)rn(z, 400));
		ret = ioctl(f->fd, cmd, (void *)(uintptr_t)ptr(z, z->io)) ?
		      -errno : 0;
		if (ret && ret != -EFAULT)
			BAD("GET_INFO returned %d", ret);
		return 0;
	}
}

static uint64_t seed_from_env(const char *name, uint64_t dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : dflt;
}

FIXTURE(fz) {
	int unused;
};

FIXTURE_SETUP(fz)
{
}

FIXTURE_TEARDOWN(fz)
{
}

/* the harness default of 30 s is too short for 100,000 calls under TCG */
TEST_F_TIMEOUT(fz, ioctl_fuzz, 3600)
{
	struct neuronsim_info info;
	struct stats base, now;
	struct fz *z = calloc(1, sizeof(*z));
	unsigned long k;
	int i, r = 0;

	ASSERT_NE(NULL, z);
	z->st = g_seed;
	for (i = 0; i < NFD; i++) {
		z->f[i].fd = nsim_open();
		ASSERT_LE(0, z->f[i].fd);
	}
	ASSERT_EQ(0, nsim_get_info(z->f[0].fd, &info));
	z->info = info;
	z->max_models = info.max_models_per_fd;
	ASSERT_EQ(0, plan_std_prog(&info, 2, &z->std));
	ASSERT_EQ(0, plan_buffers(&info, 4, 3000, 1, &z->bufs));
	ASSERT_GE(MAXPLAN, z->std.len);
	z->pb = malloc(MAXPLAN);
	/* room for the largest batch the kernel accepts: it writes it all */
	z->io = mmap(NULL, IOBUF, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	z->bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(NULL, z->pb);
	ASSERT_NE(MAP_FAILED, z->io);
	ASSERT_NE(MAP_FAILED, z->bad);
	ASSERT_EQ(0, munmap(z->bad, 4096));	/* now surely unmapped */
	ASSERT_EQ(0, read_stats(&base));

	for (k = 0; k < g_calls && !r; k++) {
		unsigned int op = (unsigned int)rn(z, 100);
		struct mdl *m = NULL;
		int fdi = 0;

		/* the ops on a model: an fd and maybe one of its models */
		if (op >= 12 && op < 92)
			m = pick(z, &fdi);
		if (op < 12)
			r = op_load(_metadata, z, k);
		else if (op < 40)
			r = op_resolve(_metadata, z, k, fdi, m);
		else if (op < 52)
			r = op_batch(_metadata, z, k, fdi, m);
		else if (op < 64)
			r = op_var_io(_metadata, z, k, fdi, m, 0);
		else if (op < 76)
			r = op_var_io(_metadata, z, k, fdi, m, 1);
		else if (op < 84)
			r = op_unload(_metadata, z, k, fdi, m);
		else if (op < 92)
			r = op_info(_metadata, z, k, fdi, m);
		else if (op < 97)
			r = op_tensor(_metadata, z, k);
		else
			r = op_misc(_metadata, z, k);
		z->n_calls[op * 16 / 100]++;
	}
	ASSERT_EQ(0, r);
	TH_LOG("seed %llu: %lu calls, %lu loads ok, %lu loads refused, %lu resolves ok, %lu tensors allocated",
	       (unsigned long long)g_seed, k, z->n_load_ok, z->n_load_fail,
	       z->n_res_ok, z->n_tensor_ok);
	EXPECT_LT(0, z->n_load_ok);
	EXPECT_LT(0, z->n_load_fail);
	EXPECT_LT(0, z->n_res_ok);
	EXPECT_LT(0, z->n_tensor_ok);
	for (i = 0; i < NFD; i++)
		close(z->f[i].fd);
	ASSERT_EQ(0, read_stats(&now));
	EXPECT_EQ(0, now.models);
	EXPECT_EQ(base.models, now.models);
	EXPECT_EQ(base.hbm_used, now.hbm_used);
	EXPECT_EQ(0, now.mem_refs);
	EXPECT_EQ(0, now.kmem_bytes);
	EXPECT_EQ(0, now.hbm_used);
	EXPECT_EQ(0, now.backing_bytes);
	plan_free(&z->std);
	plan_free(&z->bufs);
	free(z->pb);
	munmap(z->io, IOBUF);
	free(z);
}

int main(int argc, char **argv)
{
	int c;

	g_seed = seed_from_env("NSIM_FUZZ_SEED",
			       (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
	g_calls = (unsigned long)seed_from_env("NSIM_FUZZ_CALLS", g_calls);
	while ((c = getopt(argc, argv, "s:n:")) != -1) {
		if (c == 's')
			g_seed = strtoull(optarg, NULL, 0);
		else if (c == 'n')
			g_calls = strtoul(optarg, NULL, 0);
	}
	printf("# ioctl_fuzz_test: seed %llu, %lu calls (rerun: ioctl_fuzz_test -s %llu)\n",
	       (unsigned long long)g_seed, g_calls,
	       (unsigned long long)g_seed);
	fflush(stdout);
	optind = 1;
	return test_harness_run(1, argv);
}
