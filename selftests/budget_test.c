// SPDX-License-Identifier: GPL-2.0
/*
 * budget_test - the kernel memory a user can make LOAD hold is bounded
 * (Documentation/security.rst, "Caps"): NTHREADS threads, each on its own
 * fd, load a maximum-size plan (max_plan_bytes set to its size, a fifth
 * of the VM's RAM, so together they ask for all of it) at the same time.
 * The plan copies in progress are bounded by max_loading_bytes (default
 * a quarter of RAM), so loads wait for each other instead of driving the
 * machine out of memory: every load succeeds, the kernel log has no
 * "Out of memory" or "oom-kill", the checker and staging leave no soft
 * lockup (scripts/vm.sh panics on one), and the device is back at its
 * baseline after the unloads.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"

#define NTHREADS	5
#define PARAM		"/sys/module/neuronsim/parameters/"

static unsigned long long mem_total(void)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb << 10;
}

static int set_param(const char *name, const char *v)
{
	char path[128];

	snprintf(path, sizeof(path), PARAM "%s", name);
	return write_text(path, v);
}

/* the kernel log since the last clear: any of the words of an OOM? */
static int klog_oom(void)
{
	static const char *const words[] = {
		"Out of memory", "oom-kill", "invoked oom-killer",
	};
	unsigned int i;
	int found = 0;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (klog_has(words[i])) {
			printf("# kernel log: \"%s\"\n", words[i]);
			fflush(stdout);
			found = 1;
		}
	return found;
}

/*
 * One subgraph, one MR_BUFFER of @size bytes whose payload is zeros: a
 * plan of about @size bytes.  The payload is an untouched anonymous
 * mapping, so reading it takes no RAM; the plan itself does.
 */
static int plan_big(const struct neuronsim_info *info, uint64_t size,
		    struct plan *p)
{
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	void *zero;
	int e = 0;

	zero = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!w || zero == MAP_FAILED) {
		kbin_writer_free(w);
		return -ENOMEM;
	}
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0)
		e = -EINVAL;
	e |= plan_add(w, 0, 0, KBIN_MR_BUFFER, "big", size, 4096, "uint8",
		      size, 0, zero, NULL, 0);
	e = plan_finish(w, e, p);
	munmap(zero, size);
	return e;
}

struct loader {
	pthread_t t;
	const struct plan *p;
	int ret;
	double secs;
	char log[512];
};

static void *load_one(void *arg)
{
	struct loader *ld = arg;
	struct timespec a, b;
	uint32_t id;
	int fd = nsim_open();

	if (fd < 0) {
		ld->ret = -errno;
		return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	ld->ret = nsim_load(fd, ld->p, 0, &id, NULL, ld->log, sizeof(ld->log));
	clock_gettime(CLOCK_MONOTONIC, &b);
	ld->secs = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
	if (!ld->ret)
		ld->ret = nsim_unload(fd, id);
	close(fd);
	return NULL;
}

FIXTURE(budget) {
	int unused;
};

FIXTURE_SETUP(budget)
{
}

FIXTURE_TEARDOWN(budget)
{
}

TEST_F_TIMEOUT(budget, concurrent_maximum_plans, 1200)
{
	unsigned long long ram = mem_total(), size;
	struct loader ld[NTHREADS];
	struct neuronsim_info info;
	struct snap before, after;
	char old[32] = "", v[32], path[128], *t;
	struct plan p;
	int fd, i;

	ASSERT_LT(0ULL, ram);
	size = (ram / 5) & ~((1ULL << 20) - 1);
	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	close(fd);
	ASSERT_EQ(0, plan_big(&info, size, &p));
	printf("# RAM %llu MiB; %d threads, each a %zu-byte plan (max_plan_bytes), %llu MiB in all; max_loading_bytes %llu\n",
	       ram >> 20, NTHREADS, p.len,
	       (unsigned long long)NTHREADS * p.len >> 20,
	       (unsigned long long)info.max_loading_bytes);
	fflush(stdout);
	snprintf(path, sizeof(path), PARAM "max_plan_bytes");
	t = read_file(path, NULL);
	ASSERT_NE(NULL, t);
	snprintf(old, sizeof(old), "%s", t);
	free(t);
	snprintf(v, sizeof(v), "%zu", p.len);
	ASSERT_EQ(0, set_param("max_plan_bytes", v));

	SNAP_TAKE(&before);
	klogctl(5, NULL, 0);	/* SYSLOG_ACTION_CLEAR */
	memset(ld, 0, sizeof(ld));
	for (i = 0; i < NTHREADS; i++) {
		ld[i].p = &p;
		ASSERT_EQ(0, pthread_create(&ld[i].t, NULL, load_one, &ld[i]));
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(ld[i].t, NULL);
	for (i = 0; i < NTHREADS; i++) {
		printf("# thread %d: load+unload %d in %.1f s\n", i, ld[i].ret,
		       ld[i].secs);
		fflush(stdout);
		EXPECT_EQ(0, ld[i].ret) TH_LOG("thread %d: %s", i, ld[i].log);
	}
	EXPECT_FALSE(klog_oom());
	SNAP_TAKE(&after);
	EXPECT_SNAP_EQ(before, after, "after the loads and unloads");
	EXPECT_EQ(0, set_param("max_plan_bytes", old));
	plan_free(&p);
}

TEST_HARNESS_MAIN
