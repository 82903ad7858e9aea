// SPDX-License-Identifier: GPL-2.0
/*
 * budget_test - what a user can make the module hold is bounded
 * (Documentation/security.rst, "Caps" and "Kernel memory"):
 *
 * concurrent_maximum_plans: NTHREADS threads, each on its own fd, load a
 * maximum-size plan (max_plan_bytes set to its size, a fifth of the VM's
 * RAM, so together they ask for all of it) at the same time.  The plan
 * copies in progress are bounded by max_loading_bytes (default a quarter
 * of RAM), so loads wait for each other instead of driving the machine
 * out of memory: every load succeeds, the kernel log has no "Out of
 * memory" or "oom-kill", the checker and staging leave no soft lockup
 * (scripts/vm.sh panics on one), and the device is back at its baseline
 * after the unloads.
 *
 * fill_every_device_unprivileged: a process that opened every device
 * node and then dropped to uid 65534 writes every device's memory until
 * its writes fail: the backing RAM of all devices together stays within
 * backing_limit_total (default half of RAM), each device's writes end
 * with -ENOMEM, no OOM killer runs and a root process that never opened
 * a device (the bystander) lives on.
 *
 * memcg_pays_for_backing: the same writer in a memory cgroup (cgroup v2,
 * mounted by the test; skipped without the memory controller) with a
 * 64 MiB memory.max: its WRITE_VAR pages and the pages the DMA engine
 * writes for its RUN are charged to the cgroup (memory.current grows by
 * them), and at the limit its writes fail with -ENOMEM; the cgroup's
 * OOM killer never runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <grp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"

#define NTHREADS	5
#define PARAM		NSIM_PARAM_DIR

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
	e |= TL_ADD(w, .id = 0, .type = KBIN_MR_BUFFER, .name = "big",
		    .size = size, .align = 4096, .dtype = "uint8", .d0 = size,
		    .payload = zero);
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

EMPTY_FIXTURE(budget)

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
	ASSERT_EQ(0, nsim_param_write("max_plan_bytes", v));

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
	EXPECT_EQ(0, nsim_param_write("max_plan_bytes", old));
	plan_free(&p);
}

/* ---- backing RAM of every device, as an unprivileged user ---- */

#define CHUNK		(1U << 20)
#define NOBODY		65534
#define CG_MOUNT	"/tmp/nsim-cgroup"
#define CG		CG_MOUNT "/nsim_budget"
#define CG_MAX		(64ULL << 20)

/* the devices on the bus, in index order: how many, into @idx */
static int bus_devices(unsigned int *idx, int max)
{
	DIR *d = opendir("/sys/bus/neuronsim/devices");
	struct dirent *de;
	unsigned int v;
	int n = 0, i, j;

	while (d && (de = readdir(d)))
		if (n < max && sscanf(de->d_name, "neuronsim%u", &v) == 1)
			idx[n++] = v;
	if (d)
		closedir(d);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && idx[j - 1] > idx[j]; j--) {
			v = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = v;
		}
	return n;
}

/* a root process that never opens a device: holds @mib MiB, waits */
static pid_t bystander(unsigned int mib)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		char *m = malloc((size_t)mib << 20);

		if (m)
			memset(m, 0x5a, (size_t)mib << 20);
		if (write(p[1], "r", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(p[1]);
	if (pid > 0 && read(p[0], &c, 1) != 1)
		pid = -1;
	close(p[0]);
	return pid;
}

/* no capability, uid and gid 65534 */
static int drop_privileges(void)
{
	return setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	       setresuid(NOBODY, NOBODY, NOBODY) || geteuid() != NOBODY;
}

struct fill {
	unsigned int dev;
	int load;		/* LOAD's result */
	int err;		/* the write that failed */
	unsigned long long written;
	double secs;
	char log[256];
};

/*
 * In the writer: load one alloc-only buffer of @size bytes on @fd and
 * write CHUNK bytes of 0xa5 at a time from offset 0 until a write fails
 * or the buffer is full; the model stays loaded.  Into @f.
 */
static void fill_device(int fd, uint64_t size, struct fill *f)
{
	static uint8_t chunk[CHUNK];
	struct neuronsim_info info;
	struct timespec a, b;
	struct plan p;
	uint32_t id;
	uint64_t off = 0;

	memset(chunk, 0xa5, sizeof(chunk));
	f->load = nsim_get_info(fd, &info);
	if (!f->load)
		f->load = plan_buffers(&info, 1, size ? size :
				       info.backing_limit + CHUNK, 0, &p);
	if (f->load)
		return;
	f->load = nsim_load(fd, &p, 0, &id, NULL, f->log, sizeof(f->log));
	plan_free(&p);
	if (f->load)
		return;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (;;) {
		f->err = nsim_write_var(fd, id, 0, 0, off, chunk, CHUNK);
		if (f->err)
			break;
		off += CHUNK;
		f->written = off;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	f->secs = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}

/* what the writer of memcg_pays_for_backing did */
struct cg_seen {
	int run, wait, status;
};

/* what the writer saw, in memory shared with it */
struct seen {
	struct fill fill[64];
	struct cg_seen cg;
};

FIXTURE(backing) {
	unsigned int dev[64];
	int ndev;
	struct stats base[64];
	struct seen *seen;
	struct fill *fill;
};

FIXTURE_SETUP(backing)
{
	int i;

	self->ndev = bus_devices(self->dev, 64);
	ASSERT_LT(0, self->ndev);
	for (i = 0; i < self->ndev; i++) {
		nsim_select_dev(self->dev[i]);
		ASSERT_EQ(0, read_stats(&self->base[i]));
	}
	nsim_select_dev(-1);
	self->seen = mmap(NULL, sizeof(*self->seen), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->seen);
	memset(self->seen, 0, sizeof(*self->seen));
	self->fill = self->seen->fill;
}

FIXTURE_TEARDOWN(backing)
{
	struct stats s;
	int i;

	/* every device back at its baseline once the writer is gone */
	for (i = 0; i < self->ndev; i++) {
		nsim_select_dev(self->dev[i]);
		EXPECT_EQ(0, read_stats(&s));
		EXPECT_EQ(self->base[i].models, s.models);
		EXPECT_EQ(self->base[i].backing_bytes, s.backing_bytes)
			TH_LOG("device %u", self->dev[i]);
		EXPECT_EQ(self->base[i].hbm_used, s.hbm_used);
	}
	nsim_select_dev(-1);
	munmap(self->seen, sizeof(*self->seen));
}

TEST_F_TIMEOUT(backing, fill_every_device_unprivileged, 1200)
{
	unsigned long long total = 0, cap = nsim_param("backing_limit_total");
	int fd[64], i, status;
	pid_t by, w;

	klogctl(5, NULL, 0);	/* SYSLOG_ACTION_CLEAR */
	by = bystander(32);
	ASSERT_LT(0, by);
	w = fork();
	ASSERT_LE(0, w);
	if (!w) {
		for (i = 0; i < self->ndev; i++) {
			fd[i] = nsim_open_dev(self->dev[i]);
			if (fd[i] < 0)
				_exit(10);
		}
		if (drop_privileges())
			_exit(11);
		for (i = 0; i < self->ndev; i++) {
			self->fill[i].dev = self->dev[i];
			fill_device(fd[i], 0, &self->fill[i]);
		}
		_exit(0);	/* closing the fds unloads the models */
	}
	ASSERT_EQ(w, waitpid(w, &status, 0));
	EXPECT_TRUE(WIFEXITED(status))
		TH_LOG("the writer was killed by signal %d", WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, waitpid(by, &status, WNOHANG))
		TH_LOG("the bystander, which never opened a device, died (signal %d)",
		       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	kill(by, SIGKILL);
	waitpid(by, NULL, 0);
	EXPECT_FALSE(klog_oom());
	for (i = 0; i < self->ndev; i++) {
		struct fill *f = &self->fill[i];

		printf("# device %u as uid %d: %llu MiB written in %.1f s, then %d\n",
		       f->dev, NOBODY, f->written >> 20, f->secs, f->err);
		EXPECT_EQ(0, f->load) TH_LOG("device %u: load: %s", f->dev, f->log);
		EXPECT_EQ(-ENOMEM, f->err) TH_LOG("device %u", f->dev);
		total += f->written;
	}
	printf("# RAM %llu MiB; backing_limit_total %llu MiB; %llu MiB written on %d devices\n",
	       mem_total() >> 20, cap >> 20, total >> 20, self->ndev);
	fflush(stdout);
	EXPECT_LT(0ULL, cap) TH_LOG("no backing_limit_total parameter");
	EXPECT_GE(cap, total);
	EXPECT_LE(cap / 2, total);
}

/* write @text to @path: 0 or -errno */
static int cg_write(const char *path, const char *text)
{
	return write_text(path, text);
}

static long long cg_value(const char *file, const char *key)
{
	char path[128], *t, *k;
	long long v = -1;

	snprintf(path, sizeof(path), CG "/%s", file);
	t = read_file(path, NULL);
	if (!t)
		return -1;
	if (!key)
		v = strtoll(t, NULL, 10);
	else if ((k = strstr(t, key)))
		v = strtoll(k + strlen(key), NULL, 10);
	free(t);
	return v;
}

/* the cgroup v2 hierarchy at CG_MOUNT with CG, memory.max CG_MAX */
static int cg_setup(int *mounted)
{
	char *t;
	int has;

	*mounted = 0;
	mkdir(CG_MOUNT, 0755);
	if (access(CG_MOUNT "/cgroup.controllers", F_OK)) {
		if (mount("none", CG_MOUNT, "cgroup2", 0, NULL))
			return -errno;
		*mounted = 1;
	}
	t = read_file(CG_MOUNT "/cgroup.controllers", NULL);
	has = t && strstr(t, "memory");
	free(t);
	if (!has)
		return -EOPNOTSUPP;
	cg_write(CG_MOUNT "/cgroup.subtree_control", "+memory");
	if (mkdir(CG, 0755) && errno != EEXIST)
		return -errno;
	return cg_write(CG "/memory.max", "67108864");
}

static void cg_teardown(int mounted)
{
	rmdir(CG);
	if (mounted)
		umount(CG_MOUNT);
	rmdir(CG_MOUNT);
}

/*
 * In the writer, in the cgroup, as uid 65534: a DMA queue run whose
 * output the engine writes.  Stops (SIGSTOP) with the input written and
 * after the run, for the parent to read memory.current: a cgroup at its
 * limit would make any allocation of the writer's own its OOM killer's.
 */
static void cg_engine(int fd, struct cg_seen *c)
{
	static uint8_t in[4U << 20];
	struct neuronsim_run_result res;
	struct neuronsim_info info;
	struct plan p;
	uint32_t id, q = 1;	/* qOut: input0 -> output0 */
	struct neuronsim_run r = { .num_queues = 1, .queues = (uintptr_t)&q };
	struct neuronsim_wait wt = {
		.num_queues = 1, .queues = (uintptr_t)&q,
		.results = (uintptr_t)&res, .timeout_ns = -1,
	};

	c->run = c->wait = -1;
	if (nsim_get_info(fd, &info) ||
	    plan_engine(&info, sizeof(in), KBIN_DMA_DTYPE_UINT8,
			KBIN_DMA_DTYPE_UINT8, &p))
		return;
	if (nsim_load(fd, &p, 0, &id, NULL, NULL, 0))
		goto out;
	memset(in, 0xa5, sizeof(in));
	c->run = nsim_write_var(fd, id, 0, ENGINE_V_IN, 0, in, sizeof(in));
	raise(SIGSTOP);
	r.model_id = wt.model_id = id;
	if (!c->run)
		c->run = ioctl(fd, NEURONSIM_IOC_RUN, &r) ? -errno : 0;
	if (!c->run)
		c->wait = ioctl(fd, NEURONSIM_IOC_WAIT, &wt) ? -errno : 0;
	c->status = res.status;
	raise(SIGSTOP);
	nsim_unload(fd, id);
out:
	plan_free(&p);
}

/* the points where the writer of memcg_pays_for_backing stops */
enum { CG_START, CG_FILLED, CG_INPUT, CG_RUN, CG_POINTS };

TEST_F_TIMEOUT(backing, memcg_pays_for_backing, 1200)
{
	static const char *const point[CG_POINTS] = {
		"at the start", "with the device filled",
		"with the engine's input written", "after the engine's run",
	};
	struct cg_seen *c = &self->seen->cg;
	struct fill *f = &self->fill[0];
	long long cur[CG_POINTS] = { -1, -1, -1, -1 };
	int mounted, fd[2], ret, status, k;
	char pid[16];
	pid_t w;

	ret = cg_setup(&mounted);
	if (ret) {
		cg_teardown(mounted);
		SKIP(return, "no cgroup v2 memory controller (%d)", ret);
	}
	klogctl(5, NULL, 0);
	w = fork();
	ASSERT_LE(0, w);
	if (!w) {
		fd[0] = nsim_open_dev(self->dev[0]);
		fd[1] = nsim_open_dev(self->dev[0]);
		snprintf(pid, sizeof(pid), "%d", getpid());
		if (fd[0] < 0 || fd[1] < 0 || cg_write(CG "/cgroup.procs", pid))
			_exit(10);
		if (drop_privileges())
			_exit(11);
		raise(SIGSTOP);
		fill_device(fd[0], 4 * CG_MAX, f);
		raise(SIGSTOP);
		close(fd[0]);	/* unloads: the cgroup is uncharged */
		cg_engine(fd[1], c);
		_exit(0);
	}
	/* each time the writer stops, what its cgroup holds */
	for (k = 0; k < CG_POINTS; k++) {
		ASSERT_EQ(w, waitpid(w, &status, WUNTRACED));
		if (!WIFSTOPPED(status))
			break;
		cur[k] = cg_value("memory.current", NULL);
		printf("# memory.current %s: %lld KiB\n", point[k], cur[k] >> 10);
		kill(w, SIGCONT);
	}
	if (k == CG_POINTS)
		ASSERT_EQ(w, waitpid(w, &status, 0));
	EXPECT_TRUE(WIFEXITED(status))
		TH_LOG("the writer was killed by signal %d", WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	printf("# memory.max %llu MiB: %llu MiB written, then %d; DMA engine run %d, wait %d, status %d; oom_kill %lld\n",
	       CG_MAX >> 20, f->written >> 20, f->err, c->run, c->wait,
	       c->status, cg_value("memory.events", "oom_kill "));
	fflush(stdout);
	EXPECT_EQ(0, f->load) TH_LOG("load: %s", f->log);
	EXPECT_EQ(-ENOMEM, f->err);
	EXPECT_LE(CG_MAX / 2, f->written);
	EXPECT_GE(CG_MAX, f->written);
	/*
	 * the pages written are the cgroup's (memory.current lags the
	 * charges by a per-CPU batch: a MiB of slack)
	 */
	EXPECT_LE(cur[CG_START] + (long long)f->written - (1LL << 20),
		  cur[CG_FILLED]);
	EXPECT_EQ(0, c->run);
	EXPECT_EQ(0, c->wait);
	EXPECT_EQ(0, c->status);
	/* and the 4 MiB of output0 the engine wrote for the writer's RUN */
	EXPECT_LE(cur[CG_INPUT] + (3LL << 20), cur[CG_RUN]);
	EXPECT_EQ(0, cg_value("memory.events", "oom_kill "));
	EXPECT_FALSE(klog_oom());
	cg_teardown(mounted);
}

NSIM_HARNESS_MAIN
