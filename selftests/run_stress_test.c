// SPDX-License-Identifier: GPL-2.0
/*
 * run_stress_test - races of the DMA engine's runs and of executions
 * with UNLOAD and close
 * (Documentation/dma.rst, "Stopping"), in the style of stress_test.
 *
 *   run_stress_test [-t SECONDS] [-j THREADS] [-s SEED]
 *                   (also RUN_STRESS_SECONDS; defaults 10 s, 4 threads)
 *
 * THREADS threads for SECONDS mix, on one shared fd and a private fd
 * each: LOAD of the engine plan (testlib/plans.c, 1 MiB input); RUN of
 * qOut, qIn or both; WAIT with a random timeout (0, 1 ms, for ever);
 * poll(); UNLOAD right after RUN, a little later or after WAIT; UNLOAD or
 * WAIT of a model another thread loaded on the shared fd (which may be
 * going away); close and reopen of the private fd while its runs go on.
 * And executions (Documentation/execute.rst), with a plan whose program
 * starts 16 blocks copying 1 MiB: EXECUTE on a private fd, then UNLOAD
 * at once, EXEC_WAIT, or close of the fd under it; EXECUTE and EXEC_WAIT
 * of the shared fd's models, so two executions race for NeuronCore 0
 * (every model is on it) and executions race RUNs of the same model.
 * RUN must give 0, -EBUSY, -EAGAIN or -ENOENT; WAIT 0, -ETIMEDOUT or
 * -ENOENT, and a finished run status 0 or -ECANCELED; UNLOAD 0 or -ENOENT;
 * EXECUTE 0, -EBUSY, -ENOENT or -ENODATA (a model without a program);
 * EXEC_WAIT 0, -ETIMEDOUT, -ENOENT or -ENODATA, and an ended execution
 * status 0.
 * A thread that does not finish within 120 s of the end counts as hung.
 * Afterwards every counter is at its baseline.  Use-after-free is what
 * the debug-kernel lane (KASAN) catches while this runs.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "plans.h"

#define MAXT	16
#define SLOTS	64

static struct {
	pthread_mutex_t lock;
	uint32_t id[SLOTS];	/* models on the shared fd, 0: free */
	uint8_t prog[SLOTS];	/* the model of id[] is xplan's */
	int shared;
	struct plan plan;
	struct plan xplan;	/* with a program */
	time_t end;
	unsigned int seed;
	int bad;
	char why[256];
	unsigned long runs, waits, unloads, closes, cancels, execs, busy;
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void fail(const char *fmt, int v)
{
	pthread_mutex_lock(&g.lock);
	if (!g.bad++)
		snprintf(g.why, sizeof(g.why), fmt, v);
	pthread_mutex_unlock(&g.lock);
}

static int run1(int fd, uint32_t id, unsigned int which)
{
	uint32_t q[2] = { which & 1, !(which & 1) };
	struct neuronsim_run r = {
		.model_id = id, .num_queues = which >= 2 ? 2 : 1,
		.queues = (uintptr_t)q,
	};
	int ret = ioctl(fd, NEURONSIM_IOC_RUN, &r) ? -errno : 0;

	if (ret && ret != -EBUSY && ret != -EAGAIN && ret != -ENOENT)
		fail("RUN: %d", ret);
	__atomic_add_fetch(&g.runs, 1, __ATOMIC_RELAXED);
	return ret;
}

static void wait1(int fd, uint32_t id, int64_t timeout)
{
	uint32_t q[2] = { 0, 1 };
	struct neuronsim_run_result res[2];
	struct neuronsim_wait w = {
		.model_id = id, .num_queues = 2, .queues = (uintptr_t)q,
		.results = (uintptr_t)res, .timeout_ns = timeout,
	};
	int ret = ioctl(fd, NEURONSIM_IOC_WAIT, &w) ? -errno : 0, i;

	__atomic_add_fetch(&g.waits, 1, __ATOMIC_RELAXED);
	if (ret && ret != -ETIMEDOUT && ret != -ENOENT) {
		fail("WAIT: %d", ret);
		return;
	}
	for (i = 0; !ret && i < 2; i++) {
		if (res[i].state == NEURONSIM_RUN_DONE && res[i].status &&
		    res[i].status != -ECANCELED)
			fail("a run's status %d", res[i].status);
		if (res[i].status == -ECANCELED)
			__atomic_add_fetch(&g.cancels, 1, __ATOMIC_RELAXED);
	}
}

static int exec1(int fd, uint32_t id)
{
	struct neuronsim_exec x = { .model_id = id };
	int ret = ioctl(fd, NEURONSIM_IOC_EXECUTE, &x) ? -errno : 0;

	if (ret && ret != -EBUSY && ret != -ENOENT && ret != -ENODATA)
		fail("EXECUTE: %d", ret);
	__atomic_add_fetch(ret == -EBUSY ? &g.busy : &g.execs, 1, __ATOMIC_RELAXED);
	return ret;
}

static void exec_wait1(int fd, uint32_t id, int64_t timeout)
{
	struct neuronsim_exec_sg sg[2];
	struct neuronsim_exec_wait w = {
		.model_id = id, .timeout_ns = timeout, .subgraphs = (uintptr_t)sg,
		.num_subgraphs = 2,
	};
	int ret = ioctl(fd, NEURONSIM_IOC_EXEC_WAIT, &w) ? -errno : 0;

	__atomic_add_fetch(&g.waits, 1, __ATOMIC_RELAXED);
	if (ret && ret != -ETIMEDOUT && ret != -ENOENT && ret != -ENODATA)
		fail("EXEC_WAIT: %d", ret);
	else if (!ret && w.state == NEURONSIM_EXEC_DONE && w.status)
		fail("an execution's status %d", w.status);
}

static void unload1(int fd, uint32_t id)
{
	int ret = nsim_unload(fd, id);

	if (ret && ret != -ENOENT)
		fail("UNLOAD: %d", ret);
	__atomic_add_fetch(&g.unloads, 1, __ATOMIC_RELAXED);
}

/* close @fd under whatever runs on it and open the device again */
static int reopen(int fd)
{
	close(fd);
	__atomic_add_fetch(&g.closes, 1, __ATOMIC_RELAXED);
	fd = nsim_open();
	if (fd < 0)
		fail("reopen: %d", errno);
	return fd;
}

static void *worker(void *arg)
{
	unsigned int seed = g.seed + (unsigned int)(uintptr_t)arg * 7919;
	int priv = nsim_open();
	uint32_t id;
	struct pollfd pfd;

	if (priv < 0) {
		fail("open: %d", errno);
		return NULL;
	}
	while (time(NULL) < g.end && !g.bad) {
		unsigned int act = rand_r(&seed) % 12, s = rand_r(&seed) % SLOTS;
		int64_t tmo = rand_r(&seed) % 3 == 0 ? 0 :
			      rand_r(&seed) % 2 ? 1000000 : -1;

		/* the private acts, 0-3 and 8-9, on a model of their own */
		if ((act <= 3 || act == 8 || act == 9) &&
		    nsim_load(priv, act < 8 ? &g.plan : &g.xplan, 0, &id, NULL,
			      NULL, 0))
			continue;
		switch (act) {
		case 0:	/* private: run, unload at once */
		case 1:	/* private: run, a little later unload */
			run1(priv, id, rand_r(&seed) % 3);
			if (act)
				usleep(rand_r(&seed) % 5000);
			unload1(priv, id);
			break;
		case 2:	/* private: run, wait, unload */
			if (!run1(priv, id, rand_r(&seed) % 3))
				wait1(priv, id, tmo);
			unload1(priv, id);
			break;
		case 3:	/* private: run, close the fd under it */
			run1(priv, id, 2);
			priv = reopen(priv);
			if (priv < 0)
				return NULL;
			break;
		case 4:	/* shared: load into a free slot and run */
			pthread_mutex_lock(&g.lock);
			if (!g.id[s] && !nsim_load(g.shared, &g.plan, 0, &id, NULL, NULL, 0)) {
				g.id[s] = id;
				g.prog[s] = 0;
			}
			id = g.id[s];
			act = g.prog[s];
			pthread_mutex_unlock(&g.lock);
			/* xplan's one queue: RUN races its execution */
			if (id)
				run1(g.shared, id, act ? 0 : rand_r(&seed) % 3);
			break;
		case 5:	/* shared: wait for anyone's model (it may go away) */
			pthread_mutex_lock(&g.lock);
			id = g.prog[s] ? 0 : g.id[s];
			pthread_mutex_unlock(&g.lock);
			if (id)
				wait1(g.shared, id, tmo);
			break;
		case 6:	/* shared: unload anyone's model, maybe running */
			pthread_mutex_lock(&g.lock);
			id = g.id[s];
			g.id[s] = 0;
			pthread_mutex_unlock(&g.lock);
			if (id)
				unload1(g.shared, id);
			break;
		case 7:	/* poll the shared fd */
			pfd.fd = g.shared;
			pfd.events = POLLIN;
			if (poll(&pfd, 1, rand_r(&seed) % 3) < 0)
				fail("poll: %d", errno);
			break;
		case 8:	/* private: execute; unload at once, or wait first */
			if (!exec1(priv, id) && rand_r(&seed) % 2)
				exec_wait1(priv, id, tmo);
			unload1(priv, id);
			break;
		case 9:	/* private: execute, close the fd under it */
			exec1(priv, id);
			usleep(rand_r(&seed) % 2000);
			priv = reopen(priv);
			if (priv < 0)
				return NULL;
			break;
		case 10: /* shared: load with a program into a free slot, execute */
			pthread_mutex_lock(&g.lock);
			if (!g.id[s] && !nsim_load(g.shared, &g.xplan, 0, &id, NULL, NULL, 0)) {
				g.id[s] = id;
				g.prog[s] = 1;
			}
			id = g.id[s];
			pthread_mutex_unlock(&g.lock);
			if (id)
				exec1(g.shared, id);
			break;
		case 11: /* shared: wait for anyone's execution */
			id = __atomic_load_n(&g.id[s], __ATOMIC_RELAXED);
			if (id)
				exec_wait1(g.shared, id, tmo);
			break;
		}
	}
	close(priv);
	return NULL;
}

static int seconds = 10, threads = 4;

TEST(run_unload_close_races)
{
	struct neuronsim_info info;
	struct stats base, s;
	pthread_t t[MAXT];
	struct timespec dl;
	int i;

	g.shared = nsim_open();
	ASSERT_LE(0, g.shared);
	ASSERT_EQ(0, nsim_get_info(g.shared, &info));
	ASSERT_EQ(0, read_stats(&base));
	ASSERT_EQ(0, plan_engine(&info, 1U << 20, KBIN_DMA_DTYPE_UINT8,
				 KBIN_DMA_DTYPE_UINT8, &g.plan));
	{
		/* 16 blocks, each 64 KiB of v1 onto v2 in 4 KiB runs */
		uint64_t sizes[2] = { 1U << 20, 1U << 20 };
		struct kbin_dma_desc d[16];
		int k;

		for (k = 0; k < 16; k++)
			d[k] = (struct kbin_dma_desc){
				.op = KBIN_DMA_OP_COPY,
				.from = { .var_id = 1, .dtype = KBIN_DMA_DTYPE_UINT8,
					  .num_dims = 2, .offset = (uint64_t)k << 16,
					  .sizes = { 4096, 16 }, .steps = { 1, 4096 } },
				.to = { .var_id = 2, .dtype = KBIN_DMA_DTYPE_UINT8,
					.num_dims = 2, .offset = (uint64_t)k << 16,
					.sizes = { 4096, 16 }, .steps = { 1, 4096 } },
			};
		ASSERT_EQ(0, plan_descs_prog(&info, sizes, 2, d, 16, &g.xplan));
	}
	g.end = time(NULL) + seconds;
	for (i = 0; i < threads; i++)
		ASSERT_EQ(0, pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i));
	for (i = 0; i < threads; i++) {
		clock_gettime(CLOCK_REALTIME, &dl);
		dl.tv_sec += seconds + 120;
		EXPECT_EQ(0, pthread_timedjoin_np(t[i], NULL, &dl))
			TH_LOG("thread %d hung", i);
	}
	EXPECT_EQ(0, g.bad) TH_LOG("%d failures, the first: %s", g.bad, g.why);
	/* it raced something: runs started, some stopped by UNLOAD or close */
	EXPECT_LT(0, g.runs);
	EXPECT_LT(0, g.unloads);
	EXPECT_LT(0, g.execs);
	TH_LOG("%lu RUN, %lu EXECUTE (%lu more -EBUSY), %lu WAIT and EXEC_WAIT, %lu UNLOAD, %lu close with runs or executions, %lu runs cancelled",
	       g.runs, g.execs, g.busy, g.waits, g.unloads, g.closes, g.cancels);
	close(g.shared);	/* unloads what is left on it */
	plan_free(&g.plan);
	plan_free(&g.xplan);
	ASSERT_EQ(0, read_stats(&s));
	EXPECT_EQ(base.models, s.models);
	EXPECT_EQ(base.kmem_bytes, s.kmem_bytes);
	EXPECT_EQ(base.hbm_used, s.hbm_used);
	EXPECT_EQ(base.backing_bytes, s.backing_bytes);
}

int main(int argc, char **argv)
{
	const char *env = getenv("RUN_STRESS_SECONDS");
	int opt;

	g.seed = (unsigned int)time(NULL);
	if (env)
		seconds = atoi(env);
	while ((opt = getopt(argc, argv, "t:j:s:")) != -1) {
		if (opt == 't')
			seconds = atoi(optarg);
		else if (opt == 'j')
			threads = atoi(optarg);
		else if (opt == 's')
			g.seed = strtoul(optarg, NULL, 0);
	}
	if (threads < 1 || threads > MAXT)
		threads = 4;
	printf("# run_stress_test: %d threads, %d s, seed %u\n", threads, seconds, g.seed);
	return test_harness_run(1, argv);	/* our options are parsed above */
}
