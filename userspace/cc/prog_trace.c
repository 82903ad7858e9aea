// SPDX-License-Identifier: GPL-2.0
/*
 * prog_trace.c - an execution's events as Chrome trace-event JSON, the
 * object form that Perfetto and chrome://tracing open
 * (Documentation/execute.rst, "Trace"): per subgraph a process, per
 * engine and per DMA queue a thread, a complete event ("X") per event,
 * and a flow ("s" at a trigger, "f" into its block) per block.  The
 * names (subgraphs, queues, block ids) and a block's bytes come from the
 * plan; everything else from the events.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "kbin_compute.h"
#include "kbin_dma.h"
#include "kbin_prog.h"
#include "prog_trace.h"

/* tids: engines 1..5, queue k at TR_QUEUE_TID + k */
#define TR_QUEUE_TID	16U

/* the writer: one JSON array, "," before every event but the first */
struct tr {
	FILE *fp;
	int n;
};

static void tr_sep(struct tr *t)
{
	fputs(t->n++ ? ",\n" : "\n", t->fp);
}

/* @s as a JSON string body: quotes and backslashes escaped */
static void tr_str(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		if ((unsigned char)*s < 0x20)
			fprintf(fp, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, fp);
	}
}

/* microseconds with the nanoseconds, as the format's ts and dur want */
static void tr_us(FILE *fp, uint64_t ns)
{
	fprintf(fp, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

static void tr_meta(struct tr *t, uint32_t pid, uint32_t tid,
		    const char *what, const char *name, uint32_t sort)
{
	tr_sep(t);
	fprintf(t->fp, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"%s\",\"args\":{\"name\":\"",
		pid, tid, what);
	tr_str(t->fp, name);
	fputs("\"}}", t->fp);
	tr_sep(t);
	fprintf(t->fp, "{\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"name\":\"%s_sort_index\",\"args\":{\"sort_index\":%u}}",
		pid, tid, !strcmp(what, "process_name") ? "process" : "thread", sort);
}

/* the start of a complete event ("X"); the caller adds args and "}" */
static void tr_slice(struct tr *t, uint32_t pid, uint32_t tid,
		     const char *cat, uint64_t start, uint64_t end)
{
	tr_sep(t);
	fprintf(t->fp, "{\"ph\":\"X\",\"pid\":%u,\"tid\":%u,\"cat\":\"%s\",\"ts\":",
		pid, tid, cat);
	tr_us(t->fp, start);
	fputs(",\"dur\":", t->fp);
	tr_us(t->fp, end - start);
}

/* a flow event: "s" from a trigger, "f" into its block */
static void tr_flow(struct tr *t, char ph, uint32_t pid, uint32_t tid,
		    uint64_t id, uint64_t ts)
{
	tr_sep(t);
	fprintf(t->fp, "{\"ph\":\"%c\",\"pid\":%u,\"tid\":%u,\"cat\":\"trigger\",\"name\":\"trigger\",\"id\":%" PRIu64 ",",
		ph, pid, tid, id);
	if (ph == 'f')
		fputs("\"bp\":\"e\",", t->fp);
	fputs("\"ts\":", t->fp);
	tr_us(t->fp, ts);
	fputc('}', t->fp);
}

/*
 * A compute plan's run of instructions (Documentation/compute.rst): the
 * operations of instructions @first .. @first + @count - 1 of stream @e
 * of subgraph @sg, into @buf ("matmult copy wait ..."; the first 16, then
 * "..."); "" for a plan whose compute is opaque.
 */
static const char *tr_ops(const struct kbin_view *v, uint32_t sg, uint32_t e,
			  uint32_t first, uint32_t count, char *buf, size_t cap)
{
	struct kbin_prog_sg_view pv;
	size_t n = 0;

	buf[0] = '\0';
	if (!v->prog || !(v->prog->flags & KBIN_PROG_F_COMPUTE) ||
	    kbin_view_prog_sg(v, sg, &pv) || (uint64_t)first + count > pv.num[e - 1])
		return buf;
	for (uint32_t i = 0; i < count && n + 16 < cap; i++) {
		unsigned int op = pv.records[e - 1][(uint64_t)(first + i) *
						    KBIN_PROG_RECORD_SIZE];

		if (i == 16) {
			n += (size_t)snprintf(buf + n, cap - n, " ...");
			break;
		}
		n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? " " : "",
				      op == KBIN_PROG_OP_WAIT ? "wait" :
				      kbin_compute_op_str(op));
	}
	return buf;
}

/* one event of subgraph @pid - 1; -EINVAL when it names nothing of it */
static int tr_event(struct tr *t, const struct kbin_view *v,
		    const struct kbin_dma_sg_view *dv, uint32_t pid,
		    uint64_t flow_base, const struct neuronsim_exec_event *ev)
{
	const struct kbin_dma_block *b;
	uint32_t e = ev->track;
	char ops[160];

	switch (ev->kind) {
	case NEURONSIM_EVENT_INSTRS:
		if (e < 1 || e > KBIN_PROG_ENGINES)
			return -EINVAL;
		tr_slice(t, pid, e, "compute", ev->start_ns, ev->end_ns);
		tr_ops(v, pid - 1, e, ev->index, ev->count, ops, sizeof(ops));
		fprintf(t->fp, ",\"name\":\"%s\",\"args\":{\"first\":%u,\"count\":%u",
			ops[0] ? ops : ev->count > 1 ? "instructions" : "instruction",
			ev->index, ev->count);
		if (ev->flags & NEURONSIM_EVENT_F_WAITED)
			fprintf(t->fp, ",\"waited\":\"semaphore %u >= %u\"",
				ev->semaphore, ev->value);
		fputs("}}", t->fp);
		return 0;
	case NEURONSIM_EVENT_TRIGGER:
		if (e < 1 || e > KBIN_PROG_ENGINES || ev->count >= dv->num_blocks)
			return -EINVAL;
		b = &dv->blocks[ev->count];
		if (b->queue >= dv->num_queues)
			return -EINVAL;
		tr_slice(t, pid, e, "trigger", ev->start_ns, ev->end_ns);
		fputs(",\"name\":\"trigger ", t->fp);
		tr_str(t->fp, kbin_view_str(v, dv->queues[b->queue].name));
		fprintf(t->fp, " #%u\",\"args\":{\"index\":%u,\"block\":%u}}",
			b->id, ev->index, b->id);
		tr_flow(t, 's', pid, e, flow_base + ev->count, ev->start_ns);
		return 0;
	case NEURONSIM_EVENT_DMA:
		if (e < 1 || e > KBIN_PROG_ENGINES)
			return -EINVAL;
		tr_slice(t, pid, e, "dma", ev->start_ns, ev->end_ns);
		fprintf(t->fp, ",\"name\":\"0x%02x semaphore %u += %u\",\"args\":{\"index\":%u,\"simulated\":\"semaphore only\"}}",
			ev->opcode, ev->semaphore, ev->value, ev->index);
		return 0;
	case NEURONSIM_EVENT_BLOCK:
		if (e >= dv->num_queues || ev->index >= dv->num_blocks)
			return -EINVAL;
		b = &dv->blocks[ev->index];
		tr_slice(t, pid, TR_QUEUE_TID + e, "dma", ev->start_ns, ev->end_ns);
		fprintf(t->fp, ",\"name\":\"block %u\",\"args\":{\"bytes\":%llu,\"semaphore\":%u,\"add\":%u}}",
			b->id,
			(unsigned long long)kbin_prog_block_bytes(dv->descs +
								  (b->first_desc - dv->first_desc),
								  b->num_descs),
			ev->semaphore, ev->value);
		tr_flow(t, 'f', pid, TR_QUEUE_TID + e, flow_base + ev->index,
			ev->start_ns);
		return 0;
	}
	return -EINVAL;
}

/**
 * prog_trace_write() - write an execution as Chrome trace-event JSON.
 * @fp: where.
 * @v: the plan executed (kbin_read()).
 * @source: otherData.source, e.g. "neuronsim-cc replay".
 * @sgs: per subgraph its events (prog_trace_sg), @nsg of them.
 * @nsg: subgraphs, at most the plan's.
 *
 * Per subgraph s: process s + 1 named "<name> (subgraph s)", threads 1
 * .. 5 the engines (pe .. sp) and 16 + k DMA queue k ("dma <name>"),
 * ordered by sort-index metadata; then its events in order.  Flow ids
 * are the blocks' indexes in the plan's block table.
 *
 * Return: 0; -EINVAL an event names an engine, queue or block the
 * subgraph does not have (the file is then incomplete); -EIO writing
 * failed.
 */
int prog_trace_write(FILE *fp, const struct kbin_view *v, const char *source,
		     const struct prog_trace_sg *sgs, uint32_t nsg)
{
	struct tr t = { .fp = fp };
	struct kbin_dma_sg_view dv;
	uint64_t flow_base = 0;
	char name[96];
	uint32_t s, e, k, i;
	int ret = 0;

	fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":\"", fp);
	tr_str(fp, source);
	fputs("\"},\"traceEvents\":[", fp);
	for (s = 0; s < nsg && s < v->num_subgraphs && !ret; s++) {
		if (kbin_view_dma_sg(v, s, &dv))
			memset(&dv, 0, sizeof(dv));
		snprintf(name, sizeof(name), "%s (subgraph %u)",
			 kbin_view_subgraph(v, s)->name, s);
		tr_meta(&t, s + 1, 0, "process_name", name, s);
		for (e = 1; e <= KBIN_PROG_ENGINES; e++)
			tr_meta(&t, s + 1, e, "thread_name", kbin_dma_engine_str(e), e);
		for (k = 0; k < dv.num_queues; k++) {
			snprintf(name, sizeof(name), "dma %s",
				 kbin_view_str(v, dv.queues[k].name));
			tr_meta(&t, s + 1, TR_QUEUE_TID + k, "thread_name", name,
				TR_QUEUE_TID + k);
		}
		for (i = 0; i < sgs[s].n && !ret; i++)
			ret = tr_event(&t, v, &dv, s + 1, flow_base, &sgs[s].ev[i]);
		flow_base += dv.num_blocks;
	}
	fputs("\n]}\n", fp);
	if (!ret && (fflush(fp) || ferror(fp)))
		ret = -EIO;
	return ret;
}
