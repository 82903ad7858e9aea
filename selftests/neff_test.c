// SPDX-License-Identifier: GPL-2.0
/*
 * neff_test - every real NEFF through the whole stack
 * (Documentation/running.rst).
 *
 * scripts/check.sh compiles every NEFF of $NEURONSIM_SHARED/cases/neff on
 * the host (mkneff manifest) into DIR/NAME.kbin and writes
 * DIR/manifest.tsv: per plan its NEFF, target, generation, subgraphs and
 * vars, its DMA descriptors, and per weight the CRC-32 of its .npy array
 * bytes (read from the archive, not through the compiler).
 *
 *   neff_test [DIR]     (default $NSIM_DATA/neff, else data/neff next to
 *                       the program, where selftests/Makefile installs it)
 *
 * Runs the plans compiled for the generation of the device under test
 * ($NSIM_DEV: device 1, trn1, for sunda; device 0, trn2, for cayman) and
 * for each:
 *   - LOAD (timed) and MODEL_INFO agree with the plan (subgraphs, vars,
 *     target) and debugfs stats hbm_used grew by exactly the model's HBM;
 *   - the plan (a KBIN version 3 plan: with the program) holds as many
 *     DMA descriptors as the manifest counted in the NEFF's engine members,
 *     and loads with its DMA section and its program section, which the
 *     checker at LOAD walks instruction by instruction;
 *   - every var resolves at offset 0 with its full size, and one byte more
 *     is -ERANGE; MR_SB is its core's 32 MiB SBUF window, resolved one
 *     partition at a time, the byte after its last partition's last byte
 *     in the gap (-ERANGE); HBM kinds lie inside one HBM channel; MR_PTR
 *     resolves to its target and refuses offset 1; MR_LIST is -ENODATA; an
 *     MR_PTR_TABLE's table (READ_VAR) holds the resolved address of each
 *     listed var;
 *     MR_REMOTE resolves to its remote var;
 *   - every weight reads back (READ_VAR) equal to the plan's payload and
 *     to the manifest's CRC of the .npy bytes, and every manifest weight
 *     is found;
 *   - relocation: per DMA queue the kernel's blocks, descriptors and M2S
 *     and S2M UDMA descriptors (debugfs dma/queues) equal the compiler's
 *     (the manifest's "q" lines), the device's DMA_RING usage grew by
 *     exactly the rings' bytes, the first RING_ROWS UDMA descriptors of
 *     every queue side in debugfs dma/<queue> resolve (RESOLVE of the
 *     variable, offset and length each came from is its address), and
 *     every UDMA descriptor of every ring (DMA_INFO ring ranges) has a
 *     length of 1..65536 and an address inside the variable it came
 *     from: the variable's address (RESOLVE at 0) + its offset, offset +
 *     length within its size and, on the state buffer, within one
 *     partition; FIRST on each side's first descriptor, LAST|INT_EN on
 *     its last;
 *   - UNLOAD leaves debugfs stats (models, mem_refs, kmem_bytes,
 *     backing_bytes, hbm_used) as they were before the load.
 * One TAP line per NEFF: file, target, subgraphs, vars, weights, HBM bytes
 * staged, load time.  Every failure is a "#" line naming the NEFF,
 * subgraph, var, field and value.
 *
 * A manifest with no record (no ../shared on the host) is one SKIP; a
 * manifest with records but no plan for the loaded generation is one
 * failure: nothing it was given ran.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <linux/neuronsim_udma.h>

#include "kselftest.h"
#include "kbin_kind.h"
#include "kbin_reader.h"
#include "plans.h"
#include "nsim_file.h"

#define NSIM_PA_NONE	(~0ULL)
/* UDMA descriptors of each queue side checked through the debugfs view */
#define RING_ROWS	64
/* UDMA descriptors per DMA_INFO call of the full check */
#define RING_CHUNK	65536

struct qexp {
	uint32_t sg, q;
	uint64_t blocks, descs, m2s, s2m;
	char name[256];
};

struct wexp {
	uint32_t sg, var;
	uint64_t len;
	uint32_t crc;
	char name[256];
	int seen;
};

struct entry {
	char kbin[256], neff[256], target[32];
	uint32_t gen, nsg;
	uint64_t nvars;
	long long ndescs;	/* DMA descriptors, -1 when not listed */
	struct wexp *w;
	size_t nw, capw;
	struct qexp *q;
	size_t nq, capq;
};

/* the state of one plan's run */
struct run {
	const struct entry *e;
	const struct neuronsim_info *info;
	int fd;
	uint32_t id;
	unsigned int fails;
	uint64_t ring_bytes, rows, udma, reloc_us, dma_kmem;
};

/* one failure of the plan under check (plans.c) */
#define bad(r, ...) plan_fail((r)->e->neff, &(r)->fails, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* manifest                                                             */
/* ------------------------------------------------------------------ */

static int split(char *line, char **f, int max)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = 0;
	}
	return n;
}

/*
 * The array @a of *@n elements of @size bytes (room for *@cap) with one
 * more, zeroed, at its end; a full array grows to twice its room (the
 * first time to @first elements).  Return: the array, maybe moved; NULL
 * when out of memory, @a freed.
 */
static void *append(void *a, size_t *n, size_t *cap, size_t size, size_t first)
{
	size_t c = *cap;

	if (*n == c) {
		void *g = realloc(a, (c ? 2 * c : first) * size);

		if (!g) {
			free(a);
			return NULL;
		}
		a = g;
		*cap = c ? 2 * c : first;
	}
	memset((char *)a + (*n)++ * size, 0, size);
	return a;
}

/*
 * append() to the array @a of @n elements (room for @cap; the first time
 * for @first): the new element's address, NULL when out of memory
 */
#define APPEND(a, n, cap, first) \
	((a) = append((a), &(n), &(cap), sizeof(*(a)), (first)), \
	 (a) ? &(a)[(n) - 1] : NULL)

/*
 * Fields f[1], f[2], ... of a manifest line into what @fmt names, a
 * letter a field: 'u' a uint32_t *, 'U' a uint64_t * (numbers read as
 * strtoull() does, base 0), 's' a char * and its size (a size_t)
 */
static void fields(char **f, const char *fmt, ...)
{
	va_list ap;
	char *name;
	int i;

	va_start(ap, fmt);
	for (i = 1; fmt[i - 1]; i++) {
		switch (fmt[i - 1]) {
		case 'u':
			*va_arg(ap, uint32_t *) = strtoul(f[i], NULL, 0);
			break;
		case 'U':
			*va_arg(ap, uint64_t *) = strtoull(f[i], NULL, 0);
			break;
		default:
			name = va_arg(ap, char *);
			snprintf(name, va_arg(ap, size_t), "%s", f[i]);
		}
	}
	va_end(ap);
}

static struct entry *read_manifest(const char *path, size_t *count,
				   unsigned int *fails)
{
	struct entry *es = NULL, *cur = NULL;
	size_t n = 0, cap = 0;
	char line[2048], *f[10];
	FILE *fp = fopen(path, "r");
	int nf;

	*fails = 0;
	*count = 0;
	if (!fp)
		return NULL;
	while (fgets(line, sizeof(line), fp)) {
		nf = split(line, f, 10);
		if (nf == 7 && !strcmp(f[0], "plan")) {
			cur = APPEND(es, n, cap, 64);
			if (!cur)
				break;
			fields(f, "sssuuU", cur->kbin, sizeof(cur->kbin), cur->neff,
			       sizeof(cur->neff), cur->target, sizeof(cur->target),
			       &cur->gen, &cur->nsg, &cur->nvars);
			cur->ndescs = -1;
		} else if (nf == 2 && !strcmp(f[0], "dma") && cur) {
			cur->ndescs = strtoll(f[1], NULL, 0);
		} else if (nf == 8 && !strcmp(f[0], "q") && cur) {
			struct qexp *q = APPEND(cur->q, cur->nq, cur->capq, 8);

			if (!q)
				break;
			fields(f, "uusUUUU", &q->sg, &q->q, q->name, sizeof(q->name),
			       &q->blocks, &q->descs, &q->m2s, &q->s2m);
		} else if (nf == 6 && !strcmp(f[0], "w") && cur) {
			struct wexp *w = APPEND(cur->w, cur->nw, cur->capw, 8);

			if (!w)
				break;
			fields(f, "uuUus", &w->sg, &w->var, &w->len, &w->crc, w->name,
			       sizeof(w->name));
		} else if (nf >= 2 && !strcmp(f[0], "fail")) {
			printf("# %s: the host could not compile it: %s\n", f[1],
			       nf > 2 ? f[2] : "?");
			(*fails)++;
			cur = NULL;
		}
	}
	fclose(fp);
	*count = es ? n : 0;
	return es;
}

/* ------------------------------------------------------------------ */
/* one plan                                                             */
/* ------------------------------------------------------------------ */

static struct wexp *find_w(const struct entry *e, uint32_t s, uint32_t v)
{
	size_t i;

	for (i = 0; i < e->nw; i++)
		if (e->w[i].sg == s && e->w[i].var == v)
			return &e->w[i];
	return NULL;
}

/* Check one record; *weights and *wbytes count the weights read back. */
static void check_record(struct run *r, const struct kbin_view *v, uint32_t s,
			 const struct kbin_mem_ref *rec, unsigned int *weights,
			 uint64_t *wbytes)
{
	const struct plan_check c = {
		.name = r->e->neff, .fails = &r->fails, .info = r->info,
		.fd = r->fd, .id = r->id,
	};
	const struct neuronsim_info *info = r->info;
	const char *name = kbin_view_str(v, rec->name);
	const char *sgn = kbin_view_subgraph(v, s)->name;
	uint64_t size = 0, a = 0, t = 0;
	uint32_t id = rec->var_id;
	int ret, storage;

	storage = plan_check_staged(&c, v, s, rec, &size, &a);
	if (storage < 0)
		return;
	/* then what a staged address must be follows the kind's storage */
	switch (storage) {
	case KBIN_STORAGE_SBUF: {
		uint64_t want = info->sbuf_base + (uint64_t)s * info->sbuf_window_size;
		uint64_t st = info->sbuf_window_size / info->sbuf_partitions;
		uint64_t last = (info->sbuf_partitions - 1) * st +
				info->sbuf_partition_size - 1;

		if (a != want)
			bad(r, "%s var '%s' (#%u MR_SB): address 0x%" PRIx64 ", want core %u's SBUF window 0x%" PRIx64,
			    sgn, name, id, a, s, want);
		if (rec->size != info->sbuf_window_size)
			bad(r, "%s var '%s' (#%u MR_SB): size %llu, want the core's SBUF window %llu",
			    sgn, name, id, (unsigned long long)rec->size,
			    (unsigned long long)info->sbuf_window_size);
		/* the last partition's last byte, and the gap right after it */
		ret = nsim_resolve(r->fd, r->id, s, id, last, 1, &t);
		if (ret || t != want + last)
			bad(r, "%s var '%s' (#%u MR_SB): RESOLVE(%" PRIu64 ", 1) = %d, 0x%" PRIx64,
			    sgn, name, id, last, ret, t);
		ret = nsim_resolve(r->fd, r->id, s, id, last + 1, 1, &t);
		if (st > info->sbuf_partition_size && ret != -ERANGE)
			bad(r, "%s var '%s' (#%u MR_SB): RESOLVE(%" PRIu64 ", 1) in the gap = %d, want -ERANGE",
			    sgn, name, id, last + 1, ret);
		break;
	}
	case KBIN_STORAGE_REMOTE:
		ret = nsim_resolve(r->fd, r->id, rec->remote.remote_vtpb_rel_sg_id,
				   rec->remote.remote_var_id, 0, 0, &t);
		if (ret || t != a)
			bad(r, "%s var '%s' (#%u MR_REMOTE): address 0x%" PRIx64 ", remote sg %u var %u resolves to 0x%" PRIx64 " (%d)",
			    sgn, name, id, a, rec->remote.remote_vtpb_rel_sg_id,
			    rec->remote.remote_var_id, t, ret);
		break;
	case KBIN_STORAGE_TABLE: {
		const uint32_t *l = kbin_view_list(v, rec);
		uint64_t *tab = calloc(size / 8 + 1, 8);
		uint32_t k;

		if (!nsim_in_hbm(info, a, size))
			bad(r, "%s var '%s' (#%u MR_PTR_TABLE): table 0x%" PRIx64 "+%" PRIu64 " is not inside one HBM channel",
			    sgn, name, id, a, size);
		ret = tab ? nsim_read_var(r->fd, r->id, s, id, 0, tab, size) : -ENOMEM;
		if (ret) {
			bad(r, "%s var '%s' (#%u MR_PTR_TABLE): READ_VAR of %" PRIu64 " bytes: %s",
			    sgn, name, id, size, strerror(-ret));
			free(tab);
			break;
		}
		for (k = 0; k < rec->list.length; k++) {
			if (nsim_resolve(r->fd, r->id, s, l[k], 0, 0, &t))
				continue;	/* an unstaged entry */
			if (tab[k] != t)
				bad(r, "%s var '%s' (#%u MR_PTR_TABLE): entry %u (var #%u) is 0x%" PRIx64 ", the var resolves to 0x%" PRIx64,
				    sgn, name, id, k, l[k], tab[k], t);
		}
		free(tab);
		break;
	}
	}

	if (rec->buffer) {
		struct wexp *w = find_w(r->e, s, id);
		uint8_t *buf = plan_check_weight(&c, v, s, rec, size);
		uint32_t crc;

		if (!buf)
			return;
		crc = crc32(crc32(0L, Z_NULL, 0), buf, (uInt)size);
		if (!w)
			bad(r, "%s weight '%s' (#%u): has a payload but the manifest (.npy) has no weight #%u",
			    sgn, name, id, id);
		else if (w->len != size || w->crc != crc)
			bad(r, "%s weight '%s' (#%u): device bytes %" PRIu64 " crc32 0x%08x, the .npy %s has %" PRIu64 " bytes crc32 0x%08x",
			    sgn, name, id, size, crc, w->name, w->len, w->crc);
		if (w)
			w->seen = 1;
		(*weights)++;
		*wbytes += size;
		free(buf);
	}
}

/*
 * The first rows of one queue's debugfs ring view (M2S and S2M
 * interleaved): RING_ROWS descriptors of each side.
 */
static void check_ring_rows(struct run *r, uint32_t s, const char *qname,
			    uint64_t m2s, uint64_t s2m, uint64_t *checked)
{
	char path[512], line[1024], side[8], flags[32], var[300];
	unsigned int idx, ring, len, block, desc, var_id;
	uint64_t seen[2] = { 0, 0 }, want[2], a = 0;
	unsigned long long addr, off;
	FILE *fp;
	int d;

	want[0] = m2s < RING_ROWS ? m2s : RING_ROWS;
	want[1] = s2m < RING_ROWS ? s2m : RING_ROWS;
	dbgfs_path(path, sizeof(path), "models/%u/sg%u/dma/%s", r->id, s, qname);
	fp = fopen(path, "r");
	if (!fp) {
		bad(r, "sg %u queue %s: cannot open %s", s, qname, path);
		return;
	}
	if (!fgets(line, sizeof(line), fp))
		line[0] = 0;
	while ((seen[0] < want[0] || seen[1] < want[1]) &&
	       fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "%u %7s %u %u %31s %llx %u %u %u %299s %llu", &idx,
			   side, &ring, &len, flags, &addr, &block, &desc, &var_id,
			   var, &off) != 11) {
			bad(r, "sg %u queue %s: ring row '%.100s' unreadable", s, qname, line);
			break;
		}
		d = !strcmp(side, "S2M");
		if (idx != seen[d]) {
			bad(r, "sg %u queue %s: %s row %u, expected %" PRIu64, s, qname,
			    side, idx, seen[d]);
			break;
		}
		seen[d]++;
		if (len == 0 || len > 65536 ||
		    nsim_resolve(r->fd, r->id, s, var_id, off, len, &a) || a != addr)
			bad(r, "sg %u queue %s: %s descriptor %u (block %u desc %u): %u bytes at 0x%llx; var #%u '%s' offset %llu + %u resolves to 0x%" PRIx64 " or is outside it",
			    s, qname, side, idx, block, desc, len, addr, var_id, var,
			    off, len, a);
		if (idx == 0 && strncmp(flags, "FIRST", 5))
			bad(r, "sg %u queue %s: %s descriptor 0 has flags %s, not FIRST",
			    s, qname, side, flags);
		(*checked)++;
	}
	fclose(fp);
	if (seen[0] != want[0] || seen[1] != want[1])
		bad(r, "sg %u queue %s: %" PRIu64 " M2S and %" PRIu64 " S2M rows, expected %" PRIu64 " and %" PRIu64,
		    s, qname, seen[0], seen[1], want[0], want[1]);
}

/*
 * Every UDMA descriptor of both sides of queue @qi of subgraph @s through
 * DMA_INFO: inside the variable it came from.  *@checked counts them.
 */
static void check_ring_all(struct run *r, const struct kbin_view *v, uint32_t s,
			   uint32_t qi, const char *qname, const uint64_t *count,
			   uint64_t *checked)
{
	const struct kbin_mem_ref_set *set = kbin_view_set(v, s);
	const struct neuronsim_info *info = r->info;
	uint64_t stride = info->sbuf_window_size / info->sbuf_partitions;
	struct neuronsim_dma_desc_info *d;
	uint64_t *base;
	unsigned int bad0 = r->fails;
	uint32_t side, i, var;

	d = calloc(RING_CHUNK, sizeof(*d));
	base = calloc(set->nmem, sizeof(*base));
	if (!d || !base) {
		bad(r, "out of memory");
		goto out;
	}
	for (var = 0; var < set->nmem; var++)
		if (nsim_resolve(r->fd, r->id, s, var, 0, 0, &base[var]))
			base[var] = NSIM_PA_NONE;
	for (side = 0; side < 2; side++) {
		struct neuronsim_dma_info di = {
			.model_id = r->id, .subgraph = s,
			.flags = NEURONSIM_DMA_INFO_F_RING, .queue = qi, .side = side,
		};
		uint64_t done = 0;

		while (done < count[side] && r->fails == bad0) {
			di.first = done;
			di.count = RING_CHUNK;
			di.num_queues = 0;	/* out: the subgraph's queues */
			di.descs = (uintptr_t)d;
			if (ioctl(r->fd, NEURONSIM_IOC_DMA_INFO, &di)) {
				bad(r, "sg %u queue %s: DMA_INFO side %u from %" PRIu64 ": %s",
				    s, qname, side, done, strerror(errno));
				break;
			}
			if (!di.count) {
				bad(r, "sg %u queue %s: DMA_INFO side %u from %" PRIu64 " gave nothing",
				    s, qname, side, done);
				break;
			}
			for (i = 0; i < di.count && r->fails == bad0; i++) {
				const struct neuronsim_dma_desc_info *e = &d[i];
				union udma_desc u;
				uint64_t idx = done + i, end;
				uint32_t len, want = 0;
				const struct kbin_mem_ref *rec;

				memcpy(&u, e->desc, sizeof(u));
				len = u.tx.len_ctrl & UDMA_DESC_LEN_MASK;
				if (!len)
					len = UDMA_DESC_LEN_MAX;
				if (e->var_id >= set->nmem || base[e->var_id] == NSIM_PA_NONE) {
					bad(r, "sg %u queue %s: side %u descriptor %" PRIu64 ": var_id %u has no address",
					    s, qname, side, idx, e->var_id);
					break;
				}
				rec = &set->mem[e->var_id];
				end = e->offset + len;
				if (u.tx.buf_ptr != base[e->var_id] + e->offset || end > rec->size ||
				    (rec->mr_type == KBIN_MR_SB &&
				     e->offset % stride + len > info->sbuf_partition_size))
					bad(r, "sg %u queue %s: side %u descriptor %" PRIu64 " (block %u desc %u): %u bytes at 0x%llx; var #%u '%s' (%llu bytes) at 0x%" PRIx64 " + offset %llu",
					    s, qname, side, idx, e->block, e->desc_index, len,
					    (unsigned long long)u.tx.buf_ptr, e->var_id,
					    kbin_view_str(v, rec->name),
					    (unsigned long long)rec->size, base[e->var_id],
					    (unsigned long long)e->offset);
				if (idx == 0)
					want |= UDMA_DESC_FIRST;
				if (idx + 1 == count[side])
					want |= UDMA_DESC_LAST | UDMA_DESC_INT_EN;
				if ((u.tx.len_ctrl & want) != want ||
				    ((u.tx.len_ctrl & UDMA_DESC_RING_ID_MASK) >>
				     UDMA_DESC_RING_ID_SHIFT) != UDMA_RING_ID_INITIAL)
					bad(r, "sg %u queue %s: side %u descriptor %" PRIu64 ": len_ctrl 0x%08x",
					    s, qname, side, idx, u.tx.len_ctrl);
			}
			done += di.count;
			*checked += di.count;
		}
	}
out:
	free(d);
	free(base);
}

/* per queue: the kernel's counts against the compiler's, rings, rows */
static void check_dma(struct run *r, const struct kbin_view *v, uint32_t nsg,
		      long long ring_before)
{
	const struct entry *e = r->e;
	uint64_t ring_bytes = 0, checked = 0, rows = 0;
	size_t found = 0;
	uint32_t s;

	for (s = 0; s < nsg; s++) {
		char path[256], *t, *l, *save;

		dbgfs_path(path, sizeof(path), "models/%u/sg%u/dma/queues", r->id, s);
		t = read_file(path, NULL);
		if (!t)
			continue;	/* no DMA queues in this subgraph */
		l = strtok_r(t, "\n", &save);	/* header */
		for (l = strtok_r(NULL, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			unsigned long long blocks, descs, m2s, s2m, rings, rb, ra, sa;
			char name[256], type[16], owner[16];
			unsigned int qi;
			size_t k;

			if (sscanf(l, "%u %255s %15s %15s %llu %llu %llu %llu %llu %llx %llx %llu",
				   &qi, name, type, owner, &blocks, &descs, &m2s, &s2m,
				   &rings, &ra, &sa, &rb) != 12) {
				bad(r, "sg %u dma/queues row '%.100s' unreadable", s, l);
				continue;
			}
			ring_bytes += rb;
			for (k = 0; k < e->nq; k++)
				if (e->q[k].sg == s && e->q[k].q == qi)
					break;
			if (k == e->nq) {
				bad(r, "sg %u queue %u '%s': not in the manifest", s, qi, name);
				continue;
			}
			found++;
			if (strcmp(e->q[k].name, name) || e->q[k].blocks != blocks ||
			    e->q[k].descs != descs || e->q[k].m2s != m2s ||
			    e->q[k].s2m != s2m)
				bad(r, "sg %u queue %u '%s': kernel %llu blocks, %llu descriptors, %llu M2S, %llu S2M; the compiler '%s' %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64,
				    s, qi, name, blocks, descs, m2s, s2m, e->q[k].name,
				    e->q[k].blocks, e->q[k].descs, e->q[k].m2s, e->q[k].s2m);
			if ((m2s && !ra) || (s2m && !sa) || rb % 4096)
				bad(r, "sg %u queue %u '%s': rings at 0x%llx, 0x%llx, %llu bytes",
				    s, qi, name, ra, sa, rb);
			if (m2s + s2m) {
				uint64_t count[2] = { m2s, s2m };

				check_ring_rows(r, s, name, m2s, s2m, &rows);
				check_ring_all(r, v, s, qi, name, count, &checked);
			}
		}
		free(t);
	}
	if (found != e->nq)
		bad(r, "the kernel shows %zu DMA queues, the compiler wrote %zu", found, e->nq);
	if (dma_ring_present() - ring_before != (long long)ring_bytes)
		bad(r, "DMA_RING usage grew by %lld bytes, the rings have %" PRIu64,
		    dma_ring_present() - ring_before, ring_bytes);
	r->ring_bytes = ring_bytes;
	r->rows = rows;
	r->udma = checked;
}

static int stats_equal(struct run *r, const char *when, const struct stats *a,
		       const struct stats *b)
{
	static const char *const names[] = { "models", "mem_refs", "kmem_bytes",
					     "backing_bytes", "hbm_used" };
	const long long va[] = { a->models, a->mem_refs, a->kmem_bytes,
				 a->backing_bytes, a->hbm_used };
	const long long vb[] = { b->models, b->mem_refs, b->kmem_bytes,
				 b->backing_bytes, b->hbm_used };
	int i, ok = 1;

	for (i = 0; i < 5; i++)
		if (va[i] != vb[i]) {
			bad(r, "debugfs stats %s is %lld %s, %lld before the load",
			    names[i], vb[i], when, va[i]);
			ok = 0;
		}
	return ok;
}

static void test_plan(int fd, const struct neuronsim_info *info,
		      const char *dir, struct entry *e)
{
	struct run r = { .e = e, .info = info, .fd = fd };
	struct neuronsim_model_info mi;
	struct stats before, during, after;
	struct kbin_check_result res;
	struct neuronsim_load lr;
	struct timespec t0, t1;
	struct kbin_view v;
	struct plan p = { NULL, 0 };
	unsigned int weights = 0;
	uint64_t wbytes = 0, nvars = 0;
	char path[600], log[1024];
	double ms = 0;
	long long ring_before;
	uint32_t s, i;
	size_t k;
	int ret;

	memset(&mi, 0, sizeof(mi));
	snprintf(path, sizeof(path), "%s/%s", dir, e->kbin);
	if (read_stats(&before)) {
		bad(&r, "cannot read %s/stats", nsim_dbgfs());
		goto out;
	}
	ret = nsim_read_file(path, &p.buf, &p.len);
	if (ret) {
		bad(&r, "cannot read %s: %s", path, strerror(-ret));
		goto out;
	}
	if (kbin_read(p.buf, p.len, &v, &res)) {
		bad(&r, "%s: the plan checker refuses it: %s", e->kbin, res.err.msg);
		goto out;
	}
	for (s = 0; s < v.num_subgraphs; s++)
		nvars += kbin_view_set(&v, s)->nmem;
	if (v.hdr->target_gen != e->gen || v.num_subgraphs != e->nsg ||
	    nvars != e->nvars)
		bad(&r, "%s: plan has gen %u, %u subgraphs, %" PRIu64 " vars; the manifest says %u, %u, %" PRIu64,
		    e->kbin, v.hdr->target_gen, v.num_subgraphs, nvars, e->gen,
		    e->nsg, e->nvars);
	if (v.hdr->version != KBIN_VERSION || e->ndescs < 0 ||
	    res.dma_descs != (unsigned long long)e->ndescs || (!v.dma && e->ndescs))
		bad(&r, "%s: KBIN version %u with %llu DMA descriptors (section %s); the NEFF has %lld",
		    e->kbin, v.hdr->version, res.dma_descs, v.dma ? "present" : "absent",
		    e->ndescs);

	ring_before = dma_ring_present();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = nsim_load(fd, &p, 0, &r.id, &lr, log, sizeof(log));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (ret) {
		bad(&r, "LOAD failed: %s (reason %u, sg %d, record %d): %s",
		    strerror(-ret), lr.err_reason, lr.err_subgraph,
		    lr.err_record, log);
		goto check_after;
	}

	mi.model_id = r.id;
	if (ioctl(fd, NEURONSIM_IOC_MODEL_INFO, &mi)) {
		bad(&r, "MODEL_INFO of model %u: %s", r.id, strerror(errno));
	} else if (mi.num_subgraphs != e->nsg || mi.num_vars != e->nvars ||
		   mi.target_gen != e->gen) {
		bad(&r, "MODEL_INFO says gen %u, %u subgraphs, %llu vars; the plan %u, %u, %" PRIu64,
		    mi.target_gen, mi.num_subgraphs,
		    (unsigned long long)mi.num_vars, e->gen, e->nsg, e->nvars);
	}
	if (!read_stats(&during) &&
	    (during.hbm_used - before.hbm_used != (long long)mi.hbm_bytes ||
	     during.models != before.models + 1))
		bad(&r, "debugfs stats: hbm_used %lld -> %lld, models %lld -> %lld; MODEL_INFO hbm_bytes %llu",
		    before.hbm_used, during.hbm_used, before.models,
		    during.models, (unsigned long long)mi.hbm_bytes);

	check_dma(&r, &v, v.num_subgraphs, ring_before);
	{
		char ipath[256], *it;

		dbgfs_path(ipath, sizeof(ipath), "models/%u/info", r.id);
		it = read_file(ipath, NULL);
		if (it) {
			char *q = strstr(it, "relocate_us ");
			char *k = strstr(it, "dma_kmem_bytes ");

			r.reloc_us = q ? strtoull(q + 12, NULL, 10) : 0;
			r.dma_kmem = k ? strtoull(k + 15, NULL, 10) : 0;
			free(it);
		}
	}
	for (s = 0; s < v.num_subgraphs; s++) {
		const struct kbin_mem_ref_set *set = kbin_view_set(&v, s);

		for (i = 0; i < set->nmem; i++)
			check_record(&r, &v, s, &set->mem[i], &weights, &wbytes);
	}
	for (k = 0; k < e->nw; k++)
		if (!e->w[k].seen)
			bad(&r, "sg %u weight '%s' (#%u, %" PRIu64 " bytes in the .npy) has no payload in the plan",
			    e->w[k].sg, e->w[k].name, e->w[k].var, e->w[k].len);

	ret = nsim_unload(fd, r.id);
	if (ret)
		bad(&r, "UNLOAD of model %u: %s", r.id, strerror(-ret));
check_after:
	if (read_stats(&after))
		bad(&r, "cannot read %s/stats", nsim_dbgfs());
	else
		stats_equal(&r, ret ? "after the failed load" : "after UNLOAD",
			    &before, &after);
out:
	if (r.fails > PLAN_FAIL_LINES)
		printf("# %s: %u more failures\n", e->neff, r.fails - PLAN_FAIL_LINES);
	ksft_test_result(!r.fails,
			 "neff %s target=%s gen=%u subgraphs=%u vars=%" PRIu64 " dma_descs=%lld dma_queues=%zu ring_bytes=%" PRIu64 " rows_checked=%" PRIu64 " udma_checked=%" PRIu64 " relocate=%" PRIu64 " us dma_kmem=%" PRIu64 " B weights=%u (%" PRIu64 " B) hbm_staged=%llu B load=%.2f ms\n",
			 e->neff, e->target, e->gen, e->nsg, e->nvars, e->ndescs,
			 e->nq, r.ring_bytes, r.rows, r.udma, r.reloc_us, r.dma_kmem,
			 weights, wbytes,
			 (unsigned long long)mi.hbm_bytes, ms);
	fflush(stdout);
	plan_free(&p);
}

int main(int argc, char **argv)
{
	const char *dir = nsim_data_dir(argc > 1 ? argv[1] : NULL, "neff");
	struct neuronsim_info info;
	unsigned int fails, mine = 0;
	struct entry *es;
	char path[600];
	size_t n, i;
	int fd;

	ksft_print_header();
	snprintf(path, sizeof(path), "%s/manifest.tsv", dir);
	es = read_manifest(path, &n, &fails);
	if (!es)
		n = 0;
	fd = nsim_open();
	if (fd < 0 || nsim_get_info(fd, &info)) {
		ksft_set_plan(1);
		ksft_test_result_fail("neff: /dev/" NEURONSIM_DEVICE_NAME " cannot be opened: %s\n",
				      strerror(errno));
		return ksft_exit_fail();
	}
	if (!n && !fails) {
		ksft_set_plan(1);
		ksft_test_result_skip("neff: %s has no plans (no ../shared/cases/neff on the host: set NEURONSIM_SHARED)\n",
				      path);
		return ksft_exit_pass();
	}
	for (i = 0; i < n; i++)
		mine += es[i].gen == info.arch_gen;
	ksft_print_msg("%zu plans in %s, %u for gen %u (%s)\n", n, path, mine,
		       info.arch_gen, info.arch_name);
	if (!mine) {
		ksft_set_plan(1);
		ksft_test_result_fail("neff: %s has %zu plans and %u host failures, none for gen %u (%s): nothing ran\n",
				      path, n, fails, info.arch_gen, info.arch_name);
	} else {
		ksft_set_plan(mine);
		for (i = 0; i < n; i++)
			if (es[i].gen == info.arch_gen)
				test_plan(fd, &info, dir, &es[i]);
	}
	close(fd);
	for (i = 0; i < n; i++) {
		free(es[i].w);
		free(es[i].q);
	}
	free(es);
	return ksft_get_fail_cnt() ? ksft_exit_fail() : ksft_exit_pass();
}
