// SPDX-License-Identifier: GPL-2.0
/*
 * zeroalloc_test - RESOLVE allocates nothing (Documentation/uapi.rst,
 * NEURONSIM_IOC_RESOLVE): with the kmem allocation trace events on,
 * 100,000 RESOLVEs (and a 100,000-entry RESOLVE_BATCH) record no
 * allocation whose call_site is in the neuronsim module.  The events
 * print call_site with %pS, so a module call site reads
 * "call_site=<sym>+0x../0x.. [neuronsim]".  A LOAD traced the same way
 * must show module allocations: the positive control that the method
 * sees them.
 *
 * The events are enabled from the kernel command line (scripts/vm.sh:
 * trace_event=kmem:kmalloc,kmem:kmem_cache_alloc,kmem:mm_page_alloc) and
 * this test only sets their filter once and switches tracing_on: enabling
 * or disabling a tracepoint at run time patches kernel text and waits for
 * every other vCPU, which under qemu TCG can wait forever
 * (Documentation/running.rst).  A ring buffer that overran would hide
 * events, so each traced section also checks that nothing was lost.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "plans.h"

#define TRACING "/sys/kernel/debug/tracing/"
#define NRESOLVE 100000

/* 6.1's allocating kmem events; the boot command line enables them */
static const char *const events[] = {
	"kmem/kmalloc", "kmem/kmem_cache_alloc", "kmem/mm_page_alloc",
};

#define NEVENTS (sizeof(events) / sizeof(events[0]))

static int put(const char *file, const char *v)
{
	char path[256];
	int fd, ok;

	snprintf(path, sizeof(path), TRACING "%s", file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	ok = write(fd, v, strlen(v)) == (ssize_t)strlen(v);
	close(fd);
	return ok ? 0 : -EIO;
}

/* the first line of a tracefs file, without its newline; "" if unreadable */
static void get(const char *file, char *buf, size_t size)
{
	char path[256];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), TRACING "%s", file);
	buf[0] = 0;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

/*
 * Only allocations made from module text are kept in the ring buffer: on
 * x86_64 modules live at and above MODULES_VADDR (0xffffffffc0000000 with
 * KASLR), the kernel image below it.  Without the filter every allocation
 * of the whole system is recorded and symbolised at read time, which takes
 * minutes on a KASAN kernel under TCG.  mm_page_alloc has no call_site and
 * keeps no filter.  A filter is set, never cleared: clearing the last
 * filter waits for every CPU like a tracepoint switch does.
 */
#define MODULE_CALL_SITES "call_site >= 0xffffffffc0000000"

/* the events enabled from boot, with their filters; else the missing one */
static const char *events_ready(void)
{
	char path[128], v[256];
	size_t i;

	for (i = 0; i < NEVENTS; i++) {
		snprintf(path, sizeof(path), "events/%s/enable", events[i]);
		get(path, v, sizeof(v));
		if (strcmp(v, "1"))
			return events[i];
		if (strcmp(events[i], "kmem/mm_page_alloc") == 0)
			continue;
		snprintf(path, sizeof(path), "events/%s/filter", events[i]);
		get(path, v, sizeof(v));
		if (strcmp(v, MODULE_CALL_SITES) &&
		    put(path, MODULE_CALL_SITES))
			return events[i];
	}
	return NULL;
}

static int trace_on(int on)
{
	return put("tracing_on", on ? "1" : "0");
}

/* events the ring buffer overwrote since it was last cleared, all CPUs */
static long overruns(void)
{
	char path[64], *t, *p;
	long n = 0;
	size_t len;
	int cpu;

	for (cpu = 0; cpu < 64; cpu++) {
		snprintf(path, sizeof(path), TRACING "per_cpu/cpu%d/stats", cpu);
		t = read_file(path, &len);
		if (!t)
			break;
		p = strstr(t, "overrun:");
		if (p)
			n += strtol(p + 8, NULL, 10);
		free(t);
	}
	return n;
}

/* lines of the trace with a neuronsim call site; -1 when unreadable */
static long module_allocs(long *total)
{
	size_t len;
	char *t = read_file(TRACING "trace", &len), *p;
	long n = 0;

	*total = 0;
	if (!t)
		return -1;
	for (p = t; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char *e = strchr(p, '\n');

		if (*p == '#')
			continue;
		if (e)
			*e = 0;
		(*total)++;
		if (strstr(p, "call_site=") && strstr(p, "[neuronsim]"))
			n++;
		if (e)
			*e = '\n';
	}
	free(t);
	return n;
}

FIXTURE(za) {
	int fd;
	struct neuronsim_info info;
	struct plan p;
	uint32_t id;
};

FIXTURE_SETUP(za)
{
	const char *ev;

	if (access(TRACING "trace", R_OK))
		SKIP(return, "tracefs not available");
	ev = events_ready();
	if (ev)
		SKIP(return, "event %s is not enabled with its filter: boot with trace_event=kmem:kmalloc,kmem:kmem_cache_alloc,kmem:mm_page_alloc",
		     ev);
	self->fd = nsim_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, nsim_get_info(self->fd, &self->info));
	ASSERT_EQ(0, plan_std(&self->info, &self->p));
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &self->id, NULL, NULL, 0));
	put("trace", "");
}

FIXTURE_TEARDOWN(za)
{
	trace_on(0);
	put("trace", "");
	plan_free(&self->p);
	close(self->fd);
}

TEST_F(za, load_allocations_are_seen)
{
	long n, total, lost;

	ASSERT_EQ(0, trace_on(1));
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, NULL, NULL, NULL, 0));
	trace_on(0);
	lost = overruns();
	EXPECT_EQ(0, lost) TH_LOG("the ring buffer overwrote %ld events", lost);
	n = module_allocs(&total);
	EXPECT_LT(0, n) TH_LOG("%ld of %ld events from neuronsim", n, total);
}

TEST_F(za, resolve_allocates_nothing)
{
	static const uint32_t vars[] = { V0_WEIGHT, V0_IN, V0_PTR, V0_VLOCAL,
					 V0_LIST, V0_REMOTE, V0_SB };
	long n, total, lost, i, errs = 0;
	uint64_t a;

	ASSERT_EQ(0, trace_on(1));
	for (i = 0; i < NRESOLVE; i++) {
		int r = nsim_resolve(self->fd, self->id, 0,
				     vars[i % 7], i & 1, 1, &a);

		errs += r && r != -ENODATA && r != -EINVAL;
	}
	trace_on(0);
	EXPECT_EQ(0, errs);
	lost = overruns();
	EXPECT_EQ(0, lost) TH_LOG("the ring buffer overwrote %ld events", lost);
	n = module_allocs(&total);
	EXPECT_EQ(0, n) TH_LOG("%ld of %ld events from neuronsim", n, total);
}

TEST_F(za, resolve_batch_allocates_nothing)
{
	struct neuronsim_resolve_entry *e = calloc(NRESOLVE, sizeof(*e));
	struct neuronsim_resolve_batch b;
	long n, total, lost, i;

	ASSERT_NE(NULL, e);
	for (i = 0; i < NRESOLVE; i++) {
		e[i].subgraph = i & 1;
		e[i].var_id = 1 + i % 3;
		e[i].size = 1;
	}
	memset(&b, 0, sizeof(b));
	b.model_id = self->id;
	b.count = NRESOLVE;
	b.entries = (uintptr_t)e;
	/* fault the user pages in before tracing */
	memset(e, 0, 0);
	ASSERT_EQ(0, trace_on(1));
	ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b));
	trace_on(0);
	EXPECT_EQ(NRESOLVE, b.num_ok);
	lost = overruns();
	EXPECT_EQ(0, lost) TH_LOG("the ring buffer overwrote %ld events", lost);
	n = module_allocs(&total);
	EXPECT_EQ(0, n) TH_LOG("%ld of %ld events from neuronsim", n, total);
	free(e);
}

NSIM_HARNESS_MAIN
