// SPDX-License-Identifier: GPL-2.0
/*
 * plans.c - shared helpers of the kernel runtime selftests.
 *
 * The standard plan (plan_std) has every kind in two subgraphs:
 *
 *   sg00 (local scratchpad 5 KiB, just what vlocal needs; shared 4 KiB;
 *   one evtaccel carve-out)
 *     0 MR_SB state_buffer (the core's SBUF window)
 *     1 MR_BUFFER weight, payload, align 64 KiB
 *     2 MR_BUFFER_STAGED staged, payload
 *     3 MR_BUFFER bias, no payload ("alloc only")
 *     4 MR_TMP_BUF tmp          5 MR_INPUT input0      6 MR_OUTPUT output0
 *     7 MR_PTR ptr_weight -> 1
 *     8 MR_VIRTUAL_TMP_BUF vlocal (LOCAL, offset 4096)
 *     9 MR_VIRTUAL_TMP_BUF vshared (SHARED, offset 512)
 *    10 MR_LIST list {1, 3, 5}
 *    11 MR_PTR_TABLE table {1, 5, 6, 8} (record size 16, the compiler's 4
 *       bytes per row; staged as a 32-byte table of 4 addresses)
 *    12 MR_REMOTE remote_w1 -> sg01 var 1
 *   sg01
 *     0 MR_SB  1 MR_BUFFER w1 (payload)  2 MR_REMOTE remote_out -> sg00 var 6
 *     3 MR_INPUT in1
 *
 * and a DMA program in sg00 (a version 2 plan): queue qSPIO0 with two
 * blocks, input0 -> four SBUF partitions -> output0.  plan_std_v1 is the
 * same plan as version 1, without the DMA program.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <unistd.h>

#include "kbin_kind.h"
#include "kbin_reader.h"
#include "kbin_writer.h"
#include "plans.h"
#include "prog_replay.h"
#include "tl_rec.h"

static int nsim_dev = -2;	/* -2: not read from $NSIM_DEV yet */

int nsim_dev_index(void)
{
	const char *e;

	if (nsim_dev == -2) {
		e = getenv("NSIM_DEV");
		nsim_dev = e && *e ? atoi(e) : -1;
	}
	return nsim_dev;
}

void nsim_select_dev(int index)
{
	nsim_dev = index;
}

const char *nsim_dbgfs(void)
{
	static char dir[128];
	const char *e = getenv("NSIM_DBGFS");
	int d = nsim_dev_index();

	if (e && *e)
		snprintf(dir, sizeof(dir), "%s", e);
	else
		snprintf(dir, sizeof(dir),
			 DBGFS_ROOT "/" NEURONSIM_DEVICE_NAME "%d", d < 0 ? 0 : d);
	return dir;
}

char *dbgfs_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(buf, size, "%s/", nsim_dbgfs());
	va_start(ap, fmt);
	if (n > 0 && (size_t)n < size)
		vsnprintf(buf + n, size - n, fmt, ap);
	va_end(ap);
	return buf;
}

int nsim_open_dev(unsigned int index)
{
	char path[64];
	int err = neuronsim_dev_path(index, path, sizeof(path));

	if (err) {
		errno = -err;
		return -1;
	}
	return open(path, O_RDWR);
}

int nsim_open(void)
{
	int d = nsim_dev_index();

	if (d < 0)
		return open("/dev/" NEURONSIM_DEVICE_NAME, O_RDWR);
	return nsim_open_dev(d);
}

unsigned long long nsim_param(const char *name)
{
	char path[256], *t;
	unsigned long long v;

	snprintf(path, sizeof(path), NSIM_PARAM_DIR "%s", name);
	t = read_file(path, NULL);
	v = t ? strtoull(t, NULL, 0) : 0;
	free(t);
	return v;
}

int nsim_param_write(const char *name, const char *value)
{
	char path[256];

	snprintf(path, sizeof(path), NSIM_PARAM_DIR "%s", name);
	return write_text(path, value);
}

int nsim_param_set(const char *name, unsigned long long v)
{
	char t[32];

	snprintf(t, sizeof(t), "%llu", v);
	return nsim_param_write(name, t);
}

unsigned int nsim_time_scale(void)
{
	const char *e = getenv("NSIM_TIME_SCALE");
	unsigned long v = e && *e ? strtoul(e, NULL, 10) : 1;

	return v >= 1 && v <= 100 ? (unsigned int)v : 1;
}

const char *nsim_data_dir(const char *arg, const char *area)
{
	static char dir[PATH_MAX + 64];
	const char *e = getenv("NSIM_DATA");
	char exe[PATH_MAX];
	ssize_t n;

	if (arg)
		return arg;
	if (e && *e) {
		snprintf(dir, sizeof(dir), "%s/%s", e, area);
		return dir;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	if (n > 0 && strrchr(exe, '/'))
		*strrchr(exe, '/') = '\0';
	else
		snprintf(exe, sizeof(exe), ".");
	snprintf(dir, sizeof(dir), "%s/data/%s", exe, area);
	return dir;
}

int nsim_get_info(int fd, struct neuronsim_info *info)
{
	memset(info, 0, sizeof(*info));
	return ioctl(fd, NEURONSIM_IOC_GET_INFO, info) ? -errno : 0;
}

uint8_t payload_byte(unsigned int var, uint64_t i)
{
	return (uint8_t)(i * 7 + var * 13 + 1);
}

static uint8_t *payload(unsigned int var, uint64_t n)
{
	uint8_t *p = malloc(n);
	uint64_t i;

	for (i = 0; p && i < n; i++)
		p[i] = payload_byte(var, i);
	return p;
}

int plan_finish(struct kbin_writer *w, int e, struct plan *p)
{
	e = e ? -EINVAL : kbin_writer_finish(w, &p->buf, &p->len);
	kbin_writer_free(w);
	return e;
}

/*
 * The standard plan's DMA program (sg00 only): queue "qSPIO0" (in, owned
 * by sp, semaphores 24 and 25); block 0 copies input0 into four SBUF
 * partitions, block 1 copies them back into output0.
 */
static int add_std_dma(const struct neuronsim_info *info,
		       struct kbin_writer *w)
{
	static const uint32_t sems[] = { 24, 25 };
	const struct tl_queue q = {
		.name = "qSPIO0", .type = KBIN_DMA_QUEUE_IN, .num_queues = 2,
		.nsem = 2, .sem = { sems[0], sems[1] }, .fabric_path = "main",
	};
	struct kbin_dma_side hbm = {
		.sizes = { 512, 4 }, .steps = { 1, 512 }, .num_dims = 2,
		.dtype = KBIN_DMA_DTYPE_FLOAT32,
	};
	struct kbin_dma_side sb = hbm;
	struct kbin_dma_block b = { .queue = 0, .semaphore = sems[0] };
	struct kbin_dma_desc d = { .op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1 };
	int e;

	sb.var_id = V0_SB;
	sb.steps[1] = info->sbuf_window_size / info->sbuf_partitions;
	if (tl_add_queue(w, &q) != 0)
		return -EINVAL;
	hbm.var_id = V0_IN;
	d.from = hbm;
	d.to = sb;
	e = kbin_writer_add_dma_block(w, 0, &b, "std-in-block-0", &d, 1);
	hbm.var_id = V0_OUT;
	d.from = sb;
	d.to = hbm;
	b.id = 1;
	b.sem_index = 1;
	b.semaphore = sems[1];
	return e | kbin_writer_add_dma_block(w, 0, &b, "std-out-block-1", &d, 1);
}

/*
 * A program for the standard plan's sg00 (Documentation/execute.rst):
 * SP starts qSPIO0's two blocks (@triggers of them: 2 is right, 1 leaves
 * block 1 unstarted), then updates semaphore 1; PE waits until semaphore
 * 25, block 1's, reaches 2 (the queue's num_queues), then computes.  With
 * @deadlock, ACT adds 1 to semaphore 4 and DVE waits for it to reach 2,
 * for ever.
 */
static int add_std_prog(struct kbin_writer *w, int triggers, int deadlock)
{
	uint8_t sp[3][KBIN_PROG_RECORD_SIZE], pe[2][KBIN_PROG_RECORD_SIZE];
	uint8_t act[KBIN_PROG_RECORD_SIZE], dve[KBIN_PROG_RECORD_SIZE];
	struct kbin_prog_sync x = { .opcode = KBIN_PROG_OP_TRIGGER };
	int i, n = 0, e = 0;

	if (deadlock) {
		x = (struct kbin_prog_sync){ .opcode = 0x21,
			.update_mode = KBIN_PROG_UPDATE_INC, .update_sem = 4 };
		kbin_prog_encode(act, &x, NULL);
		x = (struct kbin_prog_sync){ .opcode = 0x41,
			.wait_mode = KBIN_PROG_WAIT_GE, .wait_sem = 4, .wait_value = 2 };
		kbin_prog_encode(dve, &x, NULL);
		e = kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_ACT, act, sizeof(act)) |
		    kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_DVE, dve, sizeof(dve));
		x = (struct kbin_prog_sync){ .opcode = KBIN_PROG_OP_TRIGGER };
	}

	for (i = 0; i < triggers; i++)
		kbin_prog_encode(sp[n++], &x, "qSPIO0");
	x = (struct kbin_prog_sync){ .opcode = 0xb1,
		.update_mode = KBIN_PROG_UPDATE_INC, .update_sem = 1 };
	kbin_prog_encode(sp[n++], &x, NULL);
	x = (struct kbin_prog_sync){ .opcode = KBIN_PROG_OP_WAIT,
		.wait_mode = KBIN_PROG_WAIT_GE, .wait_sem = 25, .wait_value = 2 };
	kbin_prog_encode(pe[0], &x, NULL);
	x = (struct kbin_prog_sync){ .opcode = 0x01 };
	kbin_prog_encode(pe[1], &x, NULL);
	return e | kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_SP, sp,
					(uint64_t)n * KBIN_PROG_RECORD_SIZE) |
	       kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_PE, pe, sizeof(pe));
}

static int plan_std_version(const struct neuronsim_info *info, uint32_t version,
			    int triggers, int deadlock, struct plan *p)
{
	static const uint32_t list[] = { V0_WEIGHT, V0_BIAS, V0_IN };
	static const uint32_t table[] = { V0_WEIGHT, V0_IN, V0_OUT, V0_VLOCAL };
	/* MR_SB spans the window: partition p at p * stride (hardware.rst) */
	uint64_t sbuf = info->sbuf_window_size;
	struct kbin_sb_carveout co = {
		.type = KBIN_CARVEOUT_EVTACCEL,
		.offset = info->sbuf_partition_size - 8,
		.size = 8,
		.start_partition = 0,
		.num_partitions = 128,
	};
	uint8_t *pw = payload(V0_WEIGHT, STD_WEIGHT_SIZE);
	uint8_t *ps = payload(V0_STAGED, STD_STAGED_SIZE);
	uint8_t *p1 = payload(100 + V1_W, STD_W1_SIZE);
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	int e = 0;

	if (w && version != KBIN_VERSION)
		e = kbin_writer_set_version(w, version);
	if (!w || !pw || !ps || !p1) {
		kbin_writer_free(w);
		e = -ENOMEM;
		goto out;
	}
	if (kbin_writer_add_subgraph(w, "sg00", STD_LOCAL_SP, STD_SHARED_SP,
				     &co, 1) < 0 ||
	    kbin_writer_add_subgraph(w, "sg01", 0, 0, NULL, 0) < 0)
		e = -EINVAL;
	{
		/* one record of every kind (the V0_ and V1_ enums) */
		const struct tl_rec r[] = {
			{ .id = V0_SB, .type = KBIN_MR_SB, .name = "state_buffer", .size = sbuf },
			{ .id = V0_WEIGHT, .type = KBIN_MR_BUFFER, .name = "weight",
			  .size = STD_WEIGHT_SIZE, .align = 65536, .dtype = "uint8",
			  .d0 = 1049, .d1 = 4, .payload = pw },
			{ .id = V0_STAGED, .type = KBIN_MR_BUFFER_STAGED, .name = "staged",
			  .size = STD_STAGED_SIZE, .align = 64, .dtype = "float32",
			  .d0 = 64, .payload = ps },
			{ .id = V0_BIAS, .type = KBIN_MR_BUFFER, .name = "bias", .size = 1000,
			  .align = 256, .dtype = "bfloat16", .d0 = 500 },
			{ .id = V0_TMP, .type = KBIN_MR_TMP_BUF, .name = "tmp", .size = 5000,
			  .align = 4096, .dtype = "uint8", .d0 = 5000 },
			{ .id = V0_IN, .type = KBIN_MR_INPUT, .name = "input0", .size = 2048,
			  .align = 64, .dtype = "float32", .d0 = 16, .d1 = 32 },
			{ .id = V0_OUT, .type = KBIN_MR_OUTPUT, .name = "output0", .size = 2048,
			  .align = 64, .dtype = "float32", .d0 = 16, .d1 = 32 },
			{ .id = V0_PTR, .type = KBIN_MR_PTR, .name = "ptr_weight", .size = 8,
			  .align = 8, .var = V0_WEIGHT },
			{ .id = V0_VLOCAL, .type = KBIN_MR_VIRTUAL_TMP_BUF, .name = "vlocal",
			  .size = 1024, .align = 64, .offset = 4096,
			  .backing = KBIN_BACKING_BUF_LOCAL },
			{ .id = V0_VSHARED, .type = KBIN_MR_VIRTUAL_TMP_BUF, .name = "vshared",
			  .size = 512, .align = 64, .offset = 512,
			  .backing = KBIN_BACKING_BUF_SHARED },
			{ .id = V0_LIST, .type = KBIN_MR_LIST, .name = "list", .size = 12,
			  .align = 4, .dtype = "uint32", .d0 = 3, .list = list, .nlist = 3 },
			/* sized as the compiler sizes a list kind: 4 bytes per row */
			{ .id = V0_TABLE, .type = KBIN_MR_PTR_TABLE, .name = "table", .size = 16,
			  .align = 8, .dtype = "uint64", .d0 = 4, .list = table, .nlist = 4 },
			{ .id = V0_REMOTE, .type = KBIN_MR_REMOTE, .name = "remote_w1",
			  .size = STD_W1_SIZE, .rel_sg = 1, .var = V1_W },
			{ .sg = 1, .id = V1_SB, .type = KBIN_MR_SB, .name = "state_buffer",
			  .size = sbuf },
			{ .sg = 1, .id = V1_W, .type = KBIN_MR_BUFFER, .name = "w1",
			  .size = STD_W1_SIZE, .align = 4096, .dtype = "uint8", .d0 = 1024,
			  .payload = p1 },
			{ .sg = 1, .id = V1_REMOTE, .type = KBIN_MR_REMOTE, .name = "remote_out",
			  .size = 2048, .rel_sg = 0, .var = V0_OUT },
			{ .sg = 1, .id = V1_IN, .type = KBIN_MR_INPUT, .name = "in1", .size = 64,
			  .align = 64, .dtype = "int8", .d0 = 64 },
		};
		size_t i;

		for (i = 0; i < sizeof(r) / sizeof(r[0]); i++)
			e |= tl_add(w, &r[i]);
	}
	if (version != 1)
		e |= add_std_dma(info, w);
	if (triggers >= 0)
		e |= add_std_prog(w, triggers, deadlock);
	e = plan_finish(w, e, p);
out:
	free(pw);
	free(ps);
	free(p1);
	return e;
}

int plan_std(const struct neuronsim_info *info, struct plan *p)
{
	return plan_std_version(info, KBIN_VERSION, -1, 0, p);
}

int plan_std_v1(const struct neuronsim_info *info, struct plan *p)
{
	return plan_std_version(info, KBIN_VERSION_MIN, -1, 0, p);
}

int plan_std_prog(const struct neuronsim_info *info, int triggers,
		  struct plan *p)
{
	return plan_std_version(info, KBIN_VERSION, triggers, 0, p);
}

int plan_std_deadlock(const struct neuronsim_info *info, struct plan *p)
{
	return plan_std_version(info, KBIN_VERSION, 2, 1, p);
}

/* One subgraph of n MR_BUFFERs of @size bytes each (payload optional). */
int plan_buffers(const struct neuronsim_info *info, unsigned int n,
		 uint64_t size, int with_payload, struct plan *p)
{
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	uint8_t *pl = with_payload ? payload(0, size) : NULL;
	unsigned int i;
	char name[32];
	int e = 0;

	if (!w || (with_payload && !pl)) {
		kbin_writer_free(w);
		e = -ENOMEM;
		goto out;
	}
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0)
		e = -EINVAL;
	for (i = 0; i < n && !e; i++) {
		snprintf(name, sizeof(name), "buf%u", i);
		e |= TL_ADD(w, .id = i, .type = KBIN_MR_BUFFER, .name = name,
			    .size = size, .align = 64, .dtype = "uint8",
			    .d0 = size, .payload = pl);
	}
	e = plan_finish(w, e, p);
out:
	free(pl);
	return e;
}

void plan_free(struct plan *p)
{
	free(p->buf);
	p->buf = NULL;
	p->len = 0;
}

int nsim_load(int fd, const struct plan *p, uint32_t first_core,
	      uint32_t *model_id, struct neuronsim_load *out, char *log,
	      size_t log_size)
{
	struct neuronsim_load l;
	int ret;

	memset(&l, 0, sizeof(l));
	l.plan_ptr = (uintptr_t)p->buf;
	l.plan_len = p->len;
	l.first_core = first_core;
	if (log) {
		log[0] = 0;
		l.log_buf = (uintptr_t)log;
		l.log_size = log_size;
	}
	ret = ioctl(fd, NEURONSIM_IOC_LOAD, &l) ? -errno : 0;
	if (model_id)
		*model_id = l.model_id;
	if (out)
		*out = l;
	return ret;
}

int nsim_unload(int fd, uint32_t model_id)
{
	struct neuronsim_unload u = { .model_id = model_id };

	return ioctl(fd, NEURONSIM_IOC_UNLOAD, &u) ? -errno : 0;
}

int nsim_resolve(int fd, uint32_t model, uint32_t sg, uint32_t var,
		 uint64_t off, uint64_t size, uint64_t *addr)
{
	struct neuronsim_resolve r = {
		.model_id = model, .subgraph = sg, .var_id = var,
		.offset = off, .size = size,
	};

	if (ioctl(fd, NEURONSIM_IOC_RESOLVE, &r))
		return -errno;
	if (addr)
		*addr = r.address;
	return 0;
}

int nsim_resolve_first_vars(int fd, uint32_t model,
			    struct neuronsim_resolve_entry *e, uint32_t n)
{
	struct neuronsim_resolve_batch b;
	uint32_t i;

	memset(e, 0, n * sizeof(*e));
	for (i = 0; i < n; i++) {
		e[i].var_id = i;
		e[i].size = 1;
	}
	memset(&b, 0, sizeof(b));
	b.model_id = model;
	b.count = n;
	b.entries = (uintptr_t)e;
	return ioctl(fd, NEURONSIM_IOC_RESOLVE_BATCH, &b) ? -errno : 0;
}

void plan_fail(const char *name, unsigned int *fails, const char *fmt, ...)
{
	va_list ap;

	if ((*fails)++ >= PLAN_FAIL_LINES)
		return;
	printf("# %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define bad(c, ...) plan_fail((c)->name, (c)->fails, __VA_ARGS__)

int plan_check_staged(const struct plan_check *c, const struct kbin_view *v,
		      uint32_t s, const struct kbin_mem_ref *rec,
		      uint64_t *size, uint64_t *addr)
{
	const struct neuronsim_info *info = c->info;
	const char *name = kbin_view_str(v, rec->name);
	const char *sgn = kbin_view_subgraph(v, s)->name;
	uint32_t storage = kbin_kind(rec->mr_type)->storage;
	uint64_t sz = rec->size, a = 0, t = 0;
	uint32_t id = rec->var_id;
	int ret;

	if (rec->mr_type == KBIN_MR_PTR_TABLE && (uint64_t)rec->list.length * 8 > sz)
		sz = (uint64_t)rec->list.length * 8;
	/* an MR_SB access stays in one partition (the window's gaps) */
	if (rec->mr_type == KBIN_MR_SB && info->sbuf_partition_size <
	    info->sbuf_window_size / info->sbuf_partitions)
		sz = info->sbuf_partition_size;
	ret = nsim_resolve(c->fd, c->id, s, id, 0, sz, &a);

	if (rec->mr_type == KBIN_MR_LIST) {
		if (ret != -ENODATA)
			bad(c, "%s var '%s' (#%u MR_LIST): RESOLVE(0, %" PRIu64 ") = %d (%s), want -ENODATA",
			    sgn, name, id, sz, ret, strerror(-ret));
		return -1;
	}
	if (ret) {
		bad(c, "%s var '%s' (#%u type %u): RESOLVE(offset 0, size %" PRIu64 ") failed: %s",
		    sgn, name, id, rec->mr_type, sz, strerror(-ret));
		return -1;
	}
	if (a == 0 || a == ~0ULL)
		bad(c, "%s var '%s' (#%u): address 0x%" PRIx64 " is not a staged address",
		    sgn, name, id, a);
	ret = nsim_resolve(c->fd, c->id, s, id, 0, sz + 1, NULL);
	if (ret != -ERANGE)
		bad(c, "%s var '%s' (#%u): RESOLVE(offset 0, size %" PRIu64 " + 1) = %d, want -ERANGE",
		    sgn, name, id, sz, ret);

	/* what a staged address must be follows the kind's storage */
	switch (storage) {
	case KBIN_STORAGE_TARGET:
		ret = nsim_resolve(c->fd, c->id, s, rec->pointer.referenced_var_id, 0, 0, &t);
		if (ret || t != a)
			bad(c, "%s var '%s' (#%u MR_PTR): address 0x%" PRIx64 ", target #%u resolves to 0x%" PRIx64 " (%d)",
			    sgn, name, id, a, rec->pointer.referenced_var_id, t, ret);
		ret = nsim_resolve(c->fd, c->id, s, id, 1, 0, NULL);
		if (ret != -EINVAL)
			bad(c, "%s var '%s' (#%u MR_PTR): RESOLVE(offset 1) = %d, want -EINVAL",
			    sgn, name, id, ret);
		break;
	case KBIN_STORAGE_HBM:
		if (!nsim_in_hbm(info, a, sz))
			bad(c, "%s var '%s' (#%u type %u): 0x%" PRIx64 "+%" PRIu64 " is not inside one HBM channel",
			    sgn, name, id, rec->mr_type, a, sz);
		if (rec->alignment && a % rec->alignment)
			bad(c, "%s var '%s' (#%u): address 0x%" PRIx64 " is not %llu-byte aligned",
			    sgn, name, id, a, (unsigned long long)rec->alignment);
		break;
	}
	*size = sz;
	*addr = a;
	return (int)storage;
}

uint8_t *plan_check_weight(const struct plan_check *c,
			   const struct kbin_view *v, uint32_t s,
			   const struct kbin_mem_ref *rec, uint64_t size)
{
	const char *name = kbin_view_str(v, rec->name);
	const char *sgn = kbin_view_subgraph(v, s)->name;
	const uint8_t *pl = kbin_view_payload(v, rec);
	uint8_t *buf = malloc(size ? size : 1);
	uint32_t id = rec->var_id;
	uint64_t k;
	int ret;

	ret = buf ? nsim_read_var(c->fd, c->id, s, id, 0, buf, size) : -ENOMEM;
	if (ret) {
		bad(c, "%s weight '%s' (#%u): READ_VAR of %" PRIu64 " bytes: %s",
		    sgn, name, id, size, strerror(-ret));
		free(buf);
		return NULL;
	}
	for (k = 0; k < size && buf[k] == pl[k]; k++)
		;
	if (k < size)
		bad(c, "%s weight '%s' (#%u): byte %" PRIu64 " reads 0x%02x, the plan's payload has 0x%02x",
		    sgn, name, id, k, buf[k], pl[k]);
	return buf;
}

static int var_io(int fd, unsigned long cmd, uint32_t model, uint32_t sg,
		  uint32_t var, uint64_t off, const void *buf, uint64_t len)
{
	struct neuronsim_var_io io = {
		.model_id = model, .subgraph = sg, .var_id = var,
		.offset = off, .len = len, .buf = (uintptr_t)buf,
	};

	return ioctl(fd, cmd, &io) ? -errno : 0;
}

int nsim_read_var(int fd, uint32_t model, uint32_t sg, uint32_t var,
		  uint64_t off, void *buf, uint64_t len)
{
	return var_io(fd, NEURONSIM_IOC_READ_VAR, model, sg, var, off, buf, len);
}

int nsim_write_var(int fd, uint32_t model, uint32_t sg, uint32_t var,
		   uint64_t off, const void *buf, uint64_t len)
{
	return var_io(fd, NEURONSIM_IOC_WRITE_VAR, model, sg, var, off, buf,
		      len);
}

char *read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);

			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	buf[n] = 0;
	if (len)
		*len = n;
	return buf;
}

long long read_number(const char *path)
{
	char *t = read_file(path, NULL);
	long long v;

	if (!t)
		return -1;
	v = atoll(t);
	free(t);
	return v;
}

static long long stat_field(const char *text, const char *key)
{
	const char *p = text;
	size_t k = strlen(key);

	while (p && *p) {
		if (!strncmp(p, key, k) && p[k] == ' ')
			return strtoll(p + k + 1, NULL, 10);
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* 1 when [a, a + n) lies inside one HBM channel of @info */
int nsim_in_hbm(const struct neuronsim_info *info, uint64_t a, uint64_t n)
{
	uint32_t c;

	for (c = 0; c < info->num_hbm_channels; c++)
		if (a >= info->hbm_base[c] &&
		    a - info->hbm_base[c] + n <= info->hbm_channel_size)
			return 1;
	return 0;
}

int read_stats(struct stats *s)
{
	char path[128];
	char *t = read_file(dbgfs_path(path, sizeof(path), "stats"), NULL);

	if (!t)
		return -errno;
	s->models = stat_field(t, "models");
	s->mem_refs = stat_field(t, "mem_refs");
	s->kmem_bytes = stat_field(t, "kmem_bytes");
	s->backing_bytes = stat_field(t, "backing_bytes");
	s->hbm_used = stat_field(t, "hbm_used");
	free(t);
	return 0;
}

/* DMA_RING bytes present over the HBM channels of debugfs hbm */
long long dma_ring_present(void)
{
	char path[256], *t, *l;
	long long sum = 0, v;
	int in_channel = 0;

	dbgfs_path(path, sizeof(path), "hbm");
	t = read_file(path, NULL);
	if (!t)
		return -1;
	for (l = strtok(t, "\n"); l; l = strtok(NULL, "\n")) {
		if (!strncmp(l, "channel ", 8))
			in_channel = 1;
		else if (!strncmp(l, "core ", 5))
			in_channel = 0;
		else if (in_channel && sscanf(l, " DMA_RING present %lld", &v) == 1)
			sum += v;
	}
	free(t);
	return sum;
}

int ioctl_errno(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) == -1 ? errno : 0;
}

int write_knob(const char *name, long value)
{
	char path[256], v[32];
	int fd, n, ret = 0;

	dbgfs_path(path, sizeof(path), "%s", name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = snprintf(v, sizeof(v), "%ld\n", value);
	if (write(fd, v, n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

int write_text(const char *path, const char *text)
{
	size_t n = strlen(text);
	ssize_t w;
	int fd, ret = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	w = write(fd, text, n);
	if (w < 0)
		ret = -errno;
	else if ((size_t)w != n)
		ret = -EIO;
	close(fd);
	return ret;
}

int klog_has(const char *what)
{
	int n = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	char *buf;
	int found;

	if (n <= 0)
		return 0;
	buf = malloc(n + 1);
	if (!buf)
		return 0;
	n = klogctl(3, buf, n);		/* SYSLOG_ACTION_READ_ALL */
	buf[n > 0 ? n : 0] = '\0';
	found = strstr(buf, what) != NULL;
	free(buf);
	return found;
}

int snap_read(struct snap *s)
{
	char path[128];
	char *t = read_file(dbgfs_path(path, sizeof(path), "hbm"), NULL);
	char *l, *save = NULL;
	size_t n = 0;
	int ret;

	ret = read_stats(&s->st);
	if (ret || !t) {
		free(t);
		return ret ? ret : -errno;
	}
	s->hbm_used[0] = 0;
	/* "channel C base B size S used U ..." -> "C:U " per channel */
	for (l = strtok_r(t, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		unsigned long long used;
		unsigned int c;
		char *u = strstr(l, " used ");

		if (sscanf(l, "channel %u", &c) == 1 && u &&
		    sscanf(u, " used %llu", &used) == 1 &&
		    n < sizeof(s->hbm_used))
			n += snprintf(s->hbm_used + n, sizeof(s->hbm_used) - n,
				      "%u:%llu ", c, used);
	}
	free(t);
	return s->hbm_used[0] ? 0 : -ENODATA;
}

/*
 * The plan: qIn copies (or casts, from @ft to @tt) slice b of input0 to
 * byte 0 of partition b; qOut copies all of input0 to output0.  qIn's
 * queue set has 2 queues (num_queues), so each of its blocks adds 2 to
 * semaphore ENGINE_SEM; qOut's has 1.
 */
int plan_engine(const struct neuronsim_info *info, uint64_t in_size,
		    uint8_t ft, uint8_t tt, struct plan *p)
{
	uint64_t stride = info->sbuf_window_size / info->sbuf_partitions;
	uint32_t fs = ft == KBIN_DMA_DTYPE_FLOAT32 ? 4 : 1;
	uint32_t ts = tt == KBIN_DMA_DTYPE_FLOAT32 ? 4 : tt == KBIN_DMA_DTYPE_FLOAT16 ? 2 : 1;
	struct tl_io io = {
		.gen = info->arch_gen, .sb_size = info->sbuf_window_size,
		.size = in_size, .align = 64, .dtype = "uint8", .d0 = in_size, .d1 = 1,
	};
	struct kbin_writer *w;
	int e = 0, b;

	w = tl_io_plan(&io, &e);
	if (!w)
		return -ENOMEM;
	e |= TL_QUEUE(w, .name = "qIn", .type = KBIN_DMA_QUEUE_IN,
		      .num_queues = 2, .sem = { ENGINE_SEM }) < 0;
	for (b = 0; b < ENGINE_NB; b++) {
		struct kbin_dma_block blk = { .queue = 0, .id = b, .semaphore = ENGINE_SEM };
		struct kbin_dma_desc d = {
			.op = ft == tt ? KBIN_DMA_OP_COPY : KBIN_DMA_OP_CAST,
			.num_tiling_dims = 1,
			.from = { .offset = (uint64_t)b * ENGINE_SLICE * fs,
				  .sizes = { ENGINE_SLICE * fs }, .steps = { 1 },
				  .var_id = ENGINE_V_IN, .dtype = ft, .num_dims = 1 },
			.to = { .offset = b * stride, .sizes = { ENGINE_SLICE * ts },
				.steps = { 1 }, .var_id = ENGINE_V_SB, .dtype = tt,
				.num_dims = 1 },
		};

		e |= kbin_writer_add_dma_block(w, 0, &blk, "in", &d, 1);
	}
	e |= TL_QUEUE(w, .name = "qOut", .type = KBIN_DMA_QUEUE_DATA,
		      .sem = { 9 }) < 0;
	{
		struct kbin_dma_block blk = { .queue = 1, .semaphore = 9 };
		uint32_t run = in_size >= 65536 ? 65536 : (uint32_t)in_size;
		struct kbin_dma_desc d = {
			.op = KBIN_DMA_OP_COPY, .num_tiling_dims = 1,
			.from = { .sizes = { run, (uint32_t)(in_size / run) },
				  .steps = { 1, run }, .var_id = ENGINE_V_IN,
				  .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2 },
			.to = { .sizes = { run, (uint32_t)(in_size / run) },
				.steps = { 1, run }, .var_id = ENGINE_V_OUT,
				.dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2 },
		};

		e |= kbin_writer_add_dma_block(w, 0, &blk, "out", &d, 1);
	}
	return plan_finish(w, e, p);
}

static int plan_descs_w(const struct neuronsim_info *info, const uint64_t *sizes,
			unsigned int nvars, int remote, const struct kbin_dma_desc *d,
			unsigned int nd, int prog, const uint8_t *qsel,
			struct plan *p)
{
	static const char *const qname[2] = { "q", "r" };
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	uint32_t ids[2] = { 0, 0 };
	unsigned int i, k;
	char name[32];
	int e = 0;

	if (!w)
		return -ENOMEM;
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0 ||
	    (remote && kbin_writer_add_subgraph(w, "sg01", 0, 0, NULL, 0) < 0))
		e = -EINVAL;
	e |= TL_ADD(w, .id = PLAN_DMA_SB, .type = KBIN_MR_SB,
		    .name = "state_buffer", .size = info->sbuf_window_size);
	for (i = 0; i < nvars; i++) {
		snprintf(name, sizeof(name), "v%u", i);
		e |= TL_ADD(w, .id = i + 1, .type = KBIN_MR_INPUT, .name = name,
			    .size = sizes[i], .align = 4096, .dtype = "uint8",
			    .d0 = sizes[i], .d1 = 1);
	}
	/* sg00's var nvars + 1 + k is sg01's var 1 + k */
	for (k = 0; remote && k < 2; k++)
		e |= TL_ADD(w, .id = nvars + 1 + k, .type = KBIN_MR_REMOTE,
			    .name = k ? "r_o1" : "r_w1", .size = PLAN_DMA_W1,
			    .rel_sg = 1, .var = 1 + k);
	if (remote)
		e |= TL_ADD(w, .sg = 1, .id = PLAN_DMA_SB, .type = KBIN_MR_SB,
			    .name = "state_buffer", .size = info->sbuf_window_size);
	for (k = 0; remote && k < 2; k++)
		e |= TL_ADD(w, .sg = 1, .id = 1 + k,
			    .type = k ? KBIN_MR_OUTPUT : KBIN_MR_BUFFER,
			    .name = k ? "o1" : "w1", .size = PLAN_DMA_W1, .align = 4096,
			    .dtype = "uint8", .d0 = PLAN_DMA_W1, .d1 = 1);
	/* one data queue "q", with @qsel a second "r"; semaphore 3 */
	for (k = 0; k < (qsel ? 2U : 1U); k++)
		e |= TL_QUEUE(w, .name = qname[k], .type = KBIN_DMA_QUEUE_DATA,
			      .sem = { 3 }) < 0;
	/* the blocks in queue order, each queue's in descriptor order */
	for (k = 0; k < (qsel ? 2U : 1U); k++)
		for (i = 0; i < nd; i++) {
			struct kbin_dma_block b = { .queue = k, .semaphore = 3 };

			if ((qsel ? qsel[i] : 0) != k)
				continue;
			b.id = ids[k]++;
			e |= kbin_writer_add_dma_block(w, 0, &b, NULL, &d[i], 1);
		}
	if (prog) {
		/* SP starts every block, then waits for their semaphore */
		uint8_t *sp = calloc(nd + 1, KBIN_PROG_RECORD_SIZE);
		struct kbin_prog_sync x = { .opcode = KBIN_PROG_OP_TRIGGER };

		for (i = 0; sp && i < nd; i++)
			kbin_prog_encode(sp + i * KBIN_PROG_RECORD_SIZE, &x,
					 qname[qsel ? qsel[i] : 0]);
		x = (struct kbin_prog_sync){ .opcode = KBIN_PROG_OP_WAIT,
			.wait_mode = KBIN_PROG_WAIT_GE, .wait_sem = 3, .wait_value = nd };
		if (sp)
			kbin_prog_encode(sp + nd * KBIN_PROG_RECORD_SIZE, &x, NULL);
		e |= !sp || kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_SP, sp,
						 (uint64_t)(nd + 1) * KBIN_PROG_RECORD_SIZE);
		free(sp);
	}
	return plan_finish(w, e, p);
}

int plan_descs(const struct neuronsim_info *info, const uint64_t *sizes,
	       unsigned int nvars, int remote, const struct kbin_dma_desc *d,
	       unsigned int nd, struct plan *p)
{
	return plan_descs_w(info, sizes, nvars, remote, d, nd, 0, NULL, p);
}

int plan_descs_prog(const struct neuronsim_info *info, const uint64_t *sizes,
		    unsigned int nvars, const struct kbin_dma_desc *d,
		    unsigned int nd, struct plan *p)
{
	return plan_descs_w(info, sizes, nvars, 0, d, nd, 1, NULL, p);
}

int plan_descs_prog2(const struct neuronsim_info *info, const uint64_t *sizes,
		     unsigned int nvars, const struct kbin_dma_desc *d,
		     unsigned int nd, const uint8_t *qsel, struct plan *p)
{
	return plan_descs_w(info, sizes, nvars, 0, d, nd, 1, qsel, p);
}

/* a mismatch of exec_vs_replay(): counted, the first ones printed */
static __attribute__((format(printf, 3, 4)))
void xr_bad(int *bad, const char *log, const char *fmt, ...)
{
	va_list ap;

	if ((*bad)++ >= 20)
		return;
	printf("# %s: ", log);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int exec_vs_replay(const struct neuronsim_exec_result *r, const struct plan *p,
		   int events, const char *log)
{
	struct prog_replay_opts o = { .events = events };
	struct kbin_check_result res;
	struct prog_replay *rp = NULL;
	struct kbin_view v;
	uint32_t s, e, k, c, q0 = 0, ev0 = 0, i;
	int bad = 0;

	if (kbin_read(p->buf, p->len, &v, &res) || prog_replay_plan(&v, &o, &rp)) {
		xr_bad(&bad, log, "the plan cannot be replayed");
		return bad;
	}
	if (r->num_sg != rp->nsg)
		xr_bad(&bad, log, "%u subgraphs, the replay %u", r->num_sg, rp->nsg);
	if (r->summary.virtual_ns != rp->end_ns || r->summary.instructions != rp->instrs ||
	    r->summary.blocks != rp->blocks)
		xr_bad(&bad, log, "virtual %llu ns, %llu instructions, %llu blocks; the replay %llu, %llu, %llu",
		       (unsigned long long)r->summary.virtual_ns,
		       (unsigned long long)r->summary.instructions,
		       (unsigned long long)r->summary.blocks,
		       (unsigned long long)rp->end_ns, (unsigned long long)rp->instrs,
		       (unsigned long long)rp->blocks);
	for (s = 0; s < r->num_sg && s < rp->nsg; s++) {
		const struct neuronsim_exec_sg *x = &r->sg[s];
		const struct prog_replay_sg *y = &rp->sg[s];

		if (x->status != (y->finished ? 0 : -EDEADLK) || x->virtual_ns != y->end_ns)
			xr_bad(&bad, log, "sg %u: status %d at %llu ns; the replay %s at %llu ns",
			       s, x->status, (unsigned long long)x->virtual_ns,
			       y->finished ? "finished" : "deadlock",
			       (unsigned long long)y->end_ns);
		for (k = 0; k < y->nsems && k < NEURONSIM_SEMAPHORES; k++)
			if (x->semaphores[k] != y->sems[k])
				xr_bad(&bad, log, "sg %u: semaphore %u is %d, the replay's %d",
				       s, k, x->semaphores[k], y->sems[k]);
		for (e = 0; e < NEURONSIM_ENGINES; e++) {
			const struct neuronsim_exec_engine *a = &x->engines[e];
			const struct prog_replay_engine *b = &y->eng[e];
			int diff = a->instructions != b->total || a->done != b->done ||
				   a->busy_ns != b->busy_ns || a->end_ns != b->end_ns ||
				   (a->state == NEURONSIM_ENGINE_WAITING) != !!b->waiting;

			for (c = 0; c < NEURONSIM_INSTR_CLASSES; c++)
				diff |= a->classes[c] != b->by_class[c];
			for (c = 0; c < 256; c++)
				diff |= a->opcodes[c] != b->opcodes[c];
			if (b->waiting)
				diff |= a->wait_opcode != b->opcode ||
					a->wait_semaphore != b->wait_sem ||
					a->wait_value != b->wanted ||
					a->wait_current != b->current;
			if (diff)
				xr_bad(&bad, log, "sg %u engine %u: %u of %u done, busy %llu, end %llu, state %u; the replay %u of %u, busy %llu, end %llu%s (or the classes, opcodes or wait differ)",
				       s, e + 1, a->done, a->instructions,
				       (unsigned long long)a->busy_ns,
				       (unsigned long long)a->end_ns, a->state, b->done,
				       b->total, (unsigned long long)b->busy_ns,
				       (unsigned long long)b->end_ns,
				       b->waiting ? ", waiting" : "");
		}
		if (x->num_queues != y->nq)
			xr_bad(&bad, log, "sg %u: %u queues, the replay %u", s, x->num_queues, y->nq);
		for (k = 0; k < x->num_queues && k < y->nq && q0 + k < r->num_queues; k++) {
			const struct neuronsim_exec_queue *a = &r->queues[q0 + k];
			const struct prog_replay_queue *b = &y->q[k];

			if (a->blocks != b->done || a->bytes != b->bytes || a->busy_ns != b->busy_ns)
				xr_bad(&bad, log, "sg %u queue %u '%s': %u blocks, %llu bytes, busy %llu; the replay %u, %llu, %llu",
				       s, k, b->name, a->blocks, (unsigned long long)a->bytes,
				       (unsigned long long)a->busy_ns, b->done,
				       (unsigned long long)b->bytes,
				       (unsigned long long)b->busy_ns);
		}
		q0 += x->num_queues;
		if (!events)
			continue;
		if (x->num_events != y->nev || x->events_dropped)
			xr_bad(&bad, log, "sg %u: %u trace events (%u dropped), the replay %u",
			       s, x->num_events, x->events_dropped, y->nev);
		for (i = 0; i < x->num_events && i < y->nev && ev0 + i < r->num_events; i++)
			if (memcmp(&r->events[ev0 + i], &y->ev[i], sizeof(y->ev[i]))) {
				xr_bad(&bad, log, "sg %u: trace event %u (kind %u track %u at %llu ns) is not the replay's (kind %u track %u at %llu ns)",
				       s, i, r->events[ev0 + i].kind, r->events[ev0 + i].track,
				       (unsigned long long)r->events[ev0 + i].start_ns,
				       y->ev[i].kind, y->ev[i].track,
				       (unsigned long long)y->ev[i].start_ns);
				break;
			}
		ev0 += x->num_events;
	}
	prog_replay_free(rp);
	return bad;
}

int ioctl_poke_errno(int fd, unsigned long req, const void *arg, size_t size,
		     const struct ioctl_poke *poke)
{
	unsigned char buf[512];
	uint8_t v8 = (uint8_t)poke->value;
	uint16_t v16 = (uint16_t)poke->value;
	uint32_t v32 = (uint32_t)poke->value;
	const void *v = poke->size == 1 ? (const void *)&v8 :
			poke->size == 2 ? (const void *)&v16 :
			poke->size == 4 ? (const void *)&v32 :
			(const void *)&poke->value;

	if (size > sizeof(buf) || poke->off + poke->size > size ||
	    (poke->size != 1 && poke->size != 2 && poke->size != 4 &&
	     poke->size != 8))
		return -1;
	memcpy(buf, arg, size);
	memcpy(buf + poke->off, v, poke->size);
	return ioctl_errno(fd, req, buf);
}

#define PLAN_LONG_ROWS	((1U << 30) / PLAN_LONG_RUN)
const struct kbin_dma_desc plan_long_desc = {
	.op = KBIN_DMA_OP_COPY,
	.from = { .var_id = 1, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2,
		  .sizes = { PLAN_LONG_RUN, PLAN_LONG_ROWS }, .steps = { 1, 0 } },
	.to = { .var_id = 2, .dtype = KBIN_DMA_DTYPE_UINT8, .num_dims = 2,
		.sizes = { PLAN_LONG_RUN, PLAN_LONG_ROWS }, .steps = { 1, 0 } },
};

int plan_long(const struct neuronsim_info *info, struct plan *p)
{
	uint64_t sizes[2] = { PLAN_LONG_RUN, PLAN_LONG_RUN };

	return plan_descs_prog(info, sizes, 2, &plan_long_desc, 1, p);
}
