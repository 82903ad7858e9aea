// SPDX-License-Identifier: GPL-2.0
/*
 * exec_test - executing a model (NEURONSIM_IOC_EXECUTE, EXEC_WAIT,
 * poll(); Documentation/execute.rst) on plans built here with the KBIN
 * writer:
 *   - the standard plan's program: every subgraph finishes, the result
 *     equals the host replay (semaphores, counts per class and opcode,
 *     blocks per queue, virtual time, every trace event), input0 went
 *     through SBUF into output0 on the DMA engine, debugfs semaphores and
 *     engines say the same, sysfs success, inference_count and
 *     nc_time_in_use count it; a second execution starts from reset
 *     semaphores and gives the same result; poll() says EPOLLIN until
 *     EXEC_WAIT;
 *   - a deadlock (DVE waits for a semaphore ACT takes to 1 of 2):
 *     -EDEADLK naming engine, instruction, opcode, semaphore, wanted and
 *     current value, as the replay does; the model stays loaded and
 *     executes again; sysfs execute_sw_semaphore_error;
 *   - the timeout: -ETIME with the same report; sysfs timeout;
 *   - a failed DMA block (fail_run_nth): -EIO naming queue, block and
 *     descriptor; sysfs execute_completed_with_error;
 *   - a long execution (a 1 GiB copy in 1 KiB UDMA descriptors, seconds):
 *     a signal during EXEC_WAIT cancels it (-EINTR), UNLOAD and close
 *     stop it promptly (NSIM_PROMPT_MS, times NSIM_TIME_SCALE, 10 on the debug
 *     kernel), and poll() has nothing to report after the UNLOAD; while
 *     it runs EXECUTE and RUN of the
 *     model, and EXECUTE of another model on its NeuronCore, are -EBUSY,
 *     and EXECUTE of the model while one of its queues runs is -EBUSY;
 *   - executions in a loop on four models on eight NeuronCores at once;
 *   - blocks of two queues whose bytes move interleaved each move their
 *     own bytes;
 *   - debugfs engines of a subgraph that ended while another one of the
 *     execution is still queued says its end;
 *   - an EXECUTE refused with -EBUSY leaves the last result and its trace
 *     as they were;
 *   - the netlink event EXEC_DONE of an execution and of a deadlock, and
 *     none for an execution UNLOAD cancelled after a subgraph failed;
 *   - every documented error of EXECUTE and EXEC_WAIT;
 *   - a compute plan (KBIN_PROG_F_COMPUTE, the test library's
 *     tl_compute.h): SP stages input0 into SBUF, DVE, ACT and PE compute
 *     with semaphores between them, a second block copies the result to
 *     output0; output0 and the debugfs psum file equal, byte for byte,
 *     kbin_compute_run() run here on host memory (the same code); a
 *     second execution gives the same bytes; the PSUM reads zeros once
 *     the NeuronCore is released; a compute record that breaks a rule is
 *     refused by LOAD with KBIN_ERR_PROG_COMPUTE; a compute instruction
 *     whose PSUM write meets the backing_limit cap ends the subgraph with
 *     -EDQUOT, its engine stopped at it, named in the kernel log.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_writer.h"
#include "plans.h"
#include "tl_compute.h"

#define SEC		1000000000LL
#define EV_MAX		4096U
#define PARAM		"/sys/module/neuronsim/parameters/"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int exec_start(int fd, uint32_t id, uint32_t flags, uint64_t timeout_ns,
		      uint32_t max_events)
{
	struct neuronsim_exec x = {
		.model_id = id, .flags = flags, .timeout_ns = timeout_ns,
		.max_events = max_events,
	};

	return ioctl(fd, NEURONSIM_IOC_EXECUTE, &x) ? -errno : 0;
}

/* neuronsim_exec() with a trace; *@r must be freed */
static int exec_run(int fd, uint32_t id, uint64_t timeout_ns,
		    struct neuronsim_exec_result **r)
{
	NEURONSIM_OPTS_INIT(exec_opts, o, .timeout_ns = timeout_ns,
			    .max_events = EV_MAX, .wait_ns = 60 * SEC);

	return neuronsim_exec(fd, id, &o, r);
}

/* a core's sysfs counter: stats/status/NAME or stats/other_info/NAME */
static long long counter(uint32_t core, const char *dir, const char *name)
{
	char path[256];
	int dev = nsim_dev_index();

	snprintf(path, sizeof(path),
		 "/sys/class/neuronsim/neuronsim%d/neuron_core%u/stats/%s/%s/total",
		 dev < 0 ? 0 : dev, core, dir, name);
	return read_number(path);
}

/*
 * Two subgraphs: sg00's DVE waits for semaphore 4, which nothing raises
 * (a deadlock at once, on the first core); sg01 (the next core) is
 * plan_long()'s execution, its v0 and v1 vars 1 and 2
 */
static int plan_deadlock_then_long(const struct neuronsim_info *info,
				   struct plan *p)
{
	struct kbin_dma_block b = { .queue = 0, .semaphore = 3 };
	struct kbin_prog_sync x = { .opcode = 0x41,
		.wait_mode = KBIN_PROG_WAIT_GE, .wait_sem = 4, .wait_value = 1 };
	uint8_t dve[KBIN_PROG_RECORD_SIZE], sp[2][KBIN_PROG_RECORD_SIZE];
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	int e = 0, s;

	if (!w)
		return -ENOMEM;
	kbin_prog_encode(dve, &x, NULL);
	x = (struct kbin_prog_sync){ .opcode = KBIN_PROG_OP_TRIGGER };
	kbin_prog_encode(sp[0], &x, "q");
	x = (struct kbin_prog_sync){ .opcode = KBIN_PROG_OP_WAIT,
		.wait_mode = KBIN_PROG_WAIT_GE, .wait_sem = 3, .wait_value = 1 };
	kbin_prog_encode(sp[1], &x, NULL);
	if (kbin_writer_add_subgraph(w, "sg00", 0, 0, NULL, 0) < 0 ||
	    kbin_writer_add_subgraph(w, "sg01", 0, 0, NULL, 0) < 0)
		e = -EINVAL;
	for (s = 0; s < 2; s++)
		e |= TL_ADD(w, .sg = s, .id = 0, .type = KBIN_MR_SB,
			    .name = "state_buffer",
			    .size = info->sbuf_window_size);
	e |= TL_ADD(w, .sg = 1, .id = 1, .type = KBIN_MR_INPUT, .name = "v0",
		    .size = PLAN_LONG_RUN, .align = 4096, .dtype = "uint8",
		    .d0 = PLAN_LONG_RUN, .d1 = 1);
	e |= TL_ADD(w, .sg = 1, .id = 2, .type = KBIN_MR_INPUT, .name = "v1",
		    .size = PLAN_LONG_RUN, .align = 4096, .dtype = "uint8",
		    .d0 = PLAN_LONG_RUN, .d1 = 1);
	e |= TL_QUEUE(w, .sg = 1, .name = "q", .type = KBIN_DMA_QUEUE_DATA,
		      .sem = { 3 }) < 0;
	e |= kbin_writer_add_dma_block(w, 1, &b, NULL, &plan_long_desc, 1);
	e |= kbin_writer_add_prog(w, 0, KBIN_DMA_ENGINE_DVE, dve, sizeof(dve));
	e |= kbin_writer_add_prog(w, 1, KBIN_DMA_ENGINE_SP, sp, sizeof(sp));
	return plan_finish(w, e, p);
}

/* load the long plan on @core and start executing it */
static int start_long(int fd, const struct neuronsim_info *info, uint32_t core,
		      uint32_t *id)
{
	uint8_t b[1024];
	struct plan p;
	int ret;

	ret = plan_long(info, &p);
	if (ret)
		return ret;
	ret = nsim_load(fd, &p, core, id, NULL, NULL, 0);
	plan_free(&p);
	memset(b, 0x5a, sizeof(b));
	if (!ret)
		ret = nsim_write_var(fd, *id, 0, 1, 0, b, sizeof(b));
	return ret ? ret : exec_start(fd, *id, 0, 0, 0);
}

FIXTURE(ex) {
	STD_FIXTURE_FIELDS;
};

FIXTURE_SETUP(ex)
{
	STD_FIXTURE_OPEN(self);
}

FIXTURE_TEARDOWN(ex)
{
	write_knob("fail_run_nth", 0);
	close(self->fd);
}

/*
 * The standard plan with its program (plan_std_prog(), 2 cores) loaded
 * from NeuronCore 0 on the fixture's device, its plan freed.
 * Return: the model id.
 */
static uint32_t load_std_prog(struct __test_metadata *_metadata,
			      FIXTURE_DATA(ex) *self)
{
	struct plan p;
	uint32_t id;

	ASSERT_EQ(0, plan_std_prog(&self->info, 2, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	return id;
}

/*
 * Model @id executes to the end (within @timeout_ns; 0 none) after what
 * the test did to it; then it is unloaded.
 */
static void exec_again_and_unload(struct __test_metadata *_metadata,
				  FIXTURE_DATA(ex) *self, uint32_t id,
				  uint64_t timeout_ns)
{
	struct neuronsim_exec_result *r = NULL;

	ASSERT_EQ(0, exec_run(self->fd, id, timeout_ns, &r));
	neuronsim_exec_result_free(r);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
}

/* engine @e of a report waits for semaphore @sem >= @value, at @current */
static void expect_waiting(struct __test_metadata *_metadata,
			   const struct neuronsim_exec_engine *e, uint32_t sem,
			   uint32_t value, int32_t current)
{
	EXPECT_EQ(NEURONSIM_ENGINE_WAITING, e->state);
	EXPECT_EQ(sem, e->wait_semaphore);
	EXPECT_EQ(value, e->wait_value);
	EXPECT_EQ(current, e->wait_current);
}

TEST_F(ex, standard_program)
{
	long long ok0, inf0 = counter(0, "other_info", "inference_count");
	long long t0 = counter(0, "other_info", "nc_time_in_use");
	struct neuronsim_exec_result *r = NULL, *r2 = NULL;
	uint8_t in[2048], out[2048];
	struct pollfd pf;
	char path[256], want[1024], *t;
	uint32_t id, i, n = 0;
	struct plan p;

	ASSERT_EQ(0, plan_std_prog(&self->info, 2, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	ok0 = counter(0, "status", "success");	/* the load counted in it */
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 13 + 1);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, V0_IN, 0, in, sizeof(in)));
	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg0/engines", id),
			"sp\t0\t3\tidle");

	ASSERT_EQ(0, exec_start(self->fd, id, NEURONSIM_EXEC_F_TRACE, 0, EV_MAX));
	/* poll: EPOLLIN once it ended, until EXEC_WAIT reports it */
	pf.fd = self->fd;
	pf.events = POLLIN;
	ASSERT_EQ(1, poll(&pf, 1, 10000));
	EXPECT_TRUE(pf.revents & POLLIN);
	ASSERT_EQ(0, neuronsim_exec_wait(self->fd, id, 10 * SEC, &r));
	pf.revents = 0;
	EXPECT_EQ(0, poll(&pf, 1, 0));
	ASSERT_EQ(NEURONSIM_EXEC_DONE, r->summary.state);
	EXPECT_EQ(0, r->summary.status);
	EXPECT_EQ(1, r->summary.executions);
	EXPECT_EQ(2, r->num_sg);
	EXPECT_EQ(2, r->summary.blocks);
	EXPECT_EQ(4096, r->summary.bytes);
	EXPECT_EQ(0, r->summary.not_simulated);
	EXPECT_EQ(0, r->sg[0].status);
	EXPECT_EQ(0, r->sg[1].status);
	EXPECT_EQ(2, r->sg[0].semaphores[25]);
	EXPECT_EQ(2, r->sg[0].semaphores[24]);
	EXPECT_EQ(1, r->sg[0].semaphores[1]);
	EXPECT_EQ(NEURONSIM_ENGINE_DONE, r->sg[0].engines[4].state);
	EXPECT_EQ(2, r->sg[0].engines[4].blocks);
	EXPECT_EQ(2, r->sg[0].engines[4].classes[KBIN_PROG_CLASS_TRIGGER]);
	EXPECT_EQ(0, exec_vs_replay(r, &p, 1, "standard plan"));
	TH_LOG("standard plan: %llu ns virtual, %llu us wall, %u trace events",
	       (unsigned long long)r->summary.virtual_ns,
	       (unsigned long long)r->summary.wall_ns / 1000, r->num_events);
	/* the bytes: input0 -> four SBUF partitions -> output0 */
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, V0_OUT, 0, out, sizeof(out)));
	EXPECT_EQ(0, memcmp(in, out, sizeof(out)));
	/* debugfs: the semaphores that are not 0, the engines */
	for (i = 0; i < NEURONSIM_SEMAPHORES; i++)
		if (r->sg[0].semaphores[i])
			n += snprintf(want + n, sizeof(want) - n, "%u %d\n", i,
				      r->sg[0].semaphores[i]);
	dbgfs_path(path, sizeof(path), "models/%u/sg0/semaphores", id);
	t = read_file(path, NULL);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ(want, t);
	free(t);
	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg0/engines", id),
			"sp\t3\t3\tdone\t-\t0xb1:1 0xc1:2 \n",
			"pe\t2\t2\tdone\t-\t0x01:1 0xa0:1 \n");
	/* sysfs: both subgraphs' cores, sg0's */
	EXPECT_EQ(ok0 + 1, counter(0, "status", "success"));
	EXPECT_EQ(inf0 + 1, counter(0, "other_info", "inference_count"));
	EXPECT_EQ(t0 + (long long)(r->sg[0].virtual_ns / 1000),
		  counter(0, "other_info", "nc_time_in_use"));
	/* again: the semaphores start from 0, the result is the same */
	ASSERT_EQ(0, exec_run(self->fd, id, 0, &r2));
	EXPECT_EQ(2, r2->summary.executions);
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, memcmp(r->sg[i].semaphores, r2->sg[i].semaphores,
				    sizeof(r->sg[i].semaphores)));
		EXPECT_EQ(0, memcmp(r->sg[i].engines, r2->sg[i].engines,
				    sizeof(r->sg[i].engines)));
	}
	EXPECT_EQ(2, r2->sg[0].semaphores[25]);
	EXPECT_EQ(r->summary.virtual_ns, r2->summary.virtual_ns);
	EXPECT_EQ(r->num_events, r2->num_events);
	EXPECT_EQ(0, memcmp(r->events, r2->events, r->num_events * sizeof(*r->events)));
	EXPECT_EQ(0, exec_vs_replay(r2, &p, 1, "standard plan, again"));
	neuronsim_exec_result_free(r);
	neuronsim_exec_result_free(r2);
	plan_free(&p);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
}

TEST_F(ex, deadlock_names_engine_and_semaphore)
{
	long long f0 = counter(0, "status", "failure");
	long long s0 = counter(0, "status", "execute_sw_semaphore_error");
	struct neuronsim_exec_result *r = NULL;
	const struct neuronsim_exec_engine *dve;
	char path[256];
	struct plan p;
	uint32_t id, k;

	ASSERT_EQ(0, plan_std_deadlock(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(-EDEADLK, exec_run(self->fd, id, 0, &r));
		EXPECT_EQ(-EDEADLK, r->summary.status);
		EXPECT_EQ(-EDEADLK, r->sg[0].status);
		EXPECT_EQ(0, r->sg[1].status);
		dve = &r->sg[0].engines[3];
		EXPECT_EQ(0, dve->done);
		EXPECT_EQ(0x41, dve->wait_opcode);
		expect_waiting(_metadata, dve, 4, 2, 1);
		EXPECT_EQ(NEURONSIM_ENGINE_DONE, r->sg[0].engines[4].state);
		EXPECT_EQ(0, exec_vs_replay(r, &p, 1, "deadlock"));
		neuronsim_exec_result_free(r);
		r = NULL;
	}
	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg0/engines", id),
			"dve\t0\t1\twaiting\tsemaphore 4 >= 2 (is 1) at instruction 0 (opcode 0x41)\t-\n");
	EXPECT_EQ(f0 + 2, counter(0, "status", "failure"));
	EXPECT_EQ(s0 + 2, counter(0, "status", "execute_sw_semaphore_error"));
	plan_free(&p);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
}

TEST_F(ex, timeout)
{
	long long tm0 = counter(0, "status", "timeout");
	struct neuronsim_exec_result *r = NULL;
	uint32_t id;

	id = load_std_prog(_metadata, self);
	/* 1 ns: past before the work starts, nothing runs */
	ASSERT_EQ(-ETIME, exec_run(self->fd, id, 1, &r));
	EXPECT_EQ(-ETIME, r->sg[0].status);
	EXPECT_EQ(-ETIME, r->sg[1].status);
	/* the report: PE waits for semaphore 25 >= 2, SP could go on */
	expect_waiting(_metadata, &r->sg[0].engines[0], 25, 2, 0);
	EXPECT_EQ(NEURONSIM_ENGINE_STOPPED, r->sg[0].engines[4].state);
	EXPECT_EQ(tm0 + 1, counter(0, "status", "timeout"));
	neuronsim_exec_result_free(r);
	/* and with time enough it finishes */
	exec_again_and_unload(_metadata, self, id, 60 * SEC);
}

TEST_F(ex, failed_dma_block)
{
	long long e0 = counter(0, "status", "execute_completed_with_error");
	struct neuronsim_exec_result *r = NULL;
	uint32_t id;

	id = load_std_prog(_metadata, self);
	ASSERT_EQ(0, write_knob("fail_run_nth", 2));
	ASSERT_EQ(-EIO, exec_run(self->fd, id, 0, &r));
	EXPECT_EQ(-EIO, r->sg[0].status);
	EXPECT_EQ(0, r->sg[0].fail_queue);
	EXPECT_EQ(1, r->sg[0].fail_block);
	EXPECT_EQ(0, r->sg[0].fail_desc);
	EXPECT_EQ(1, r->queues[0].blocks);
	EXPECT_EQ(e0 + 1, counter(0, "status", "execute_completed_with_error"));
	EXPECT_TRUE(klog_has("(execution): block 1 descriptor 0 (copy): injected by fail_run_nth"));
	neuronsim_exec_result_free(r);
	exec_again_and_unload(_metadata, self, id, 0);
}

static void on_alarm(int sig)
{
	(void)sig;
}

TEST_F(ex, signal_unload_close_stop_a_long_execution)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 300000 } };
	struct neuronsim_exec_result *r = NULL;
	uint32_t id, id2, q = 0;
	uint64_t t0, t1;
	int fd2;

	/* a signal in EXEC_WAIT cancels it */
	ASSERT_EQ(0, start_long(self->fd, &self->info, 0, &id));
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	t0 = now_ns();
	ASSERT_EQ(-EINTR, neuronsim_exec_wait(self->fd, id, 0, &r));
	ASSERT_EQ(0, neuronsim_exec_wait(self->fd, id, 10 * SEC, &r));
	t1 = now_ns();
	EXPECT_EQ(-EINTR, r->summary.status);
	EXPECT_EQ(-EINTR, r->sg[0].status);
	EXPECT_EQ(0, r->queues[0].blocks);
	EXPECT_LT(t1 - t0, (300 + NSIM_PROMPT_MS) * 1000000ULL * nsim_time_scale());
	TH_LOG("a signal stopped the long execution %llu ms after EXECUTE",
	       (unsigned long long)(t1 - t0) / 1000000);
	neuronsim_exec_result_free(r);

	/* while it runs: EXECUTE, RUN of it, EXECUTE of a model on its core */
	ASSERT_EQ(0, exec_start(self->fd, id, 0, 0, 0));
	EXPECT_EQ(-EBUSY, exec_start(self->fd, id, 0, 0, 0));
	{
		struct neuronsim_run run = {
			.model_id = id, .num_queues = 1, .queues = (uintptr_t)&q,
		};

		EXPECT_EQ(EBUSY, ioctl_errno(self->fd, NEURONSIM_IOC_RUN, &run));
	}
	{
		struct plan p;

		ASSERT_EQ(0, plan_long(&self->info, &p));
		ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id2, NULL, NULL, 0));
		plan_free(&p);
		EXPECT_EQ(-EBUSY, exec_start(self->fd, id2, 0, 0, 0));
	}
	EXPECT_EQ(-ETIMEDOUT, neuronsim_exec_wait(self->fd, id, -1, &r));
	usleep(50000);	/* its work runs */
	/* UNLOAD under it returns at once, and frees the core */
	t0 = now_ns();
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	t1 = now_ns();
	EXPECT_LT(t1 - t0, NSIM_PROMPT_MS * 1000000ULL * nsim_time_scale());
	TH_LOG("UNLOAD of the long execution: %llu ms", (unsigned long long)(t1 - t0) / 1000000);
	/* and leaves nothing for poll() to report */
	{
		struct pollfd pf = { .fd = self->fd, .events = POLLIN };

		EXPECT_EQ(0, poll(&pf, 1, 0))
			TH_LOG("poll() after UNLOAD of a running execution: 0x%x", pf.revents);
	}
	/* RUN of a queue, then EXECUTE of its model: -EBUSY */
	{
		struct neuronsim_run run = {
			.model_id = id2, .num_queues = 1, .queues = (uintptr_t)&q,
		};
		uint8_t b[1024];

		memset(b, 0x33, sizeof(b));
		ASSERT_EQ(0, nsim_write_var(self->fd, id2, 0, 1, 0, b, sizeof(b)));
		ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_RUN, &run));
		EXPECT_EQ(-EBUSY, exec_start(self->fd, id2, 0, 0, 0));
		EXPECT_EQ(0, nsim_unload(self->fd, id2));
	}
	/* close of an fd under its execution */
	fd2 = nsim_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, start_long(fd2, &self->info, 2, &id2));
	usleep(100000);
	t0 = now_ns();
	close(fd2);
	t1 = now_ns();
	EXPECT_LT(t1 - t0, NSIM_PROMPT_MS * 1000000ULL * nsim_time_scale());
	TH_LOG("close under the long execution: %llu ms", (unsigned long long)(t1 - t0) / 1000000);
	{
		struct stats s;

		ASSERT_EQ(0, read_stats(&s));
		EXPECT_EQ(self->base.models, s.models);
		EXPECT_EQ(self->base.kmem_bytes, s.kmem_bytes);
		EXPECT_EQ(self->base.hbm_used, s.hbm_used);
	}
}

TEST_F(ex, many_cores_in_a_loop)
{
	struct neuronsim_exec_result *r;
	uint32_t ids[4], n = 0, c, k;
	uint64_t t0 = now_ns();
	struct plan p;

	ASSERT_EQ(0, plan_std_prog(&self->info, 2, &p));
	for (c = 0; c + 2 <= self->info.num_cores && n < 4; c += 2)
		ASSERT_EQ(0, nsim_load(self->fd, &p, c, &ids[n++], NULL, NULL, 0));
	for (k = 0; k < 25; k++) {
		for (c = 0; c < n; c++)
			ASSERT_EQ(0, exec_start(self->fd, ids[c], 0, 0, 0));
		for (c = 0; c < n; c++) {
			ASSERT_EQ(0, neuronsim_exec_wait(self->fd, ids[c], 10 * SEC, &r));
			EXPECT_EQ(0, r->summary.status);
			EXPECT_EQ(k + 1, r->summary.executions);
			neuronsim_exec_result_free(r);
		}
	}
	TH_LOG("%u models x 25 executions: %llu ms", n,
	       (unsigned long long)(now_ns() - t0) / 1000000);
	for (c = 0; c < n; c++)
		EXPECT_EQ(0, nsim_unload(self->fd, ids[c]));
	plan_free(&p);
}

struct exec_ev {
	uint32_t id;
	int got;
	struct neuronsim_nl_event e;
};

static int on_exec_done(const struct neuronsim_nl_event *e, void *ctx)
{
	struct exec_ev *x = ctx;

	if (e->cmd != NEURONSIM_CMD_EXEC_DONE || e->model.model_id != x->id)
		return 0;
	x->e = *e;
	x->got = 1;
	return 1;
}

/* the EXEC_DONE event of model @id, within @tries tenths of a second */
static int read_exec_done(struct neuronsim_nl *nl, uint32_t id, int tries,
			  struct neuronsim_nl_event *out)
{
	struct exec_ev x = { .id = id };
	int i;

	for (i = 0; i < tries && !x.got; i++)
		neuronsim_nl_read_events(nl, 100, on_exec_done, &x);
	*out = x.e;
	return x.got ? 0 : -ETIMEDOUT;
}

TEST_F(ex, netlink_exec_done)
{
	struct neuronsim_exec_result *r = NULL;
	struct neuronsim_nl_event e;
	struct neuronsim_nl *nl;
	struct plan p;
	uint32_t id;

	ASSERT_EQ(0, neuronsim_nl_open(&nl));
	ASSERT_EQ(0, neuronsim_nl_subscribe(nl));	/* "runs" too: we are root */
	id = load_std_prog(_metadata, self);
	ASSERT_EQ(0, exec_run(self->fd, id, 0, &r));
	ASSERT_EQ(0, read_exec_done(nl, id, 100, &e));
	EXPECT_EQ(0, e.exec_status);
	EXPECT_EQ(2, e.exec_subgraphs);
	EXPECT_EQ(r->summary.instructions, e.exec_instructions);
	EXPECT_EQ(2, e.exec_blocks);
	EXPECT_EQ(4096, e.exec_bytes);
	EXPECT_EQ(r->summary.virtual_ns, e.exec_virtual_ns);
	EXPECT_EQ(r->summary.wall_ns, e.exec_wall_ns);
	EXPECT_EQ(0, e.exec_not_simulated);
	neuronsim_exec_result_free(r);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	ASSERT_EQ(0, plan_std_deadlock(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	ASSERT_EQ(-EDEADLK, exec_run(self->fd, id, 0, &r));
	ASSERT_EQ(0, read_exec_done(nl, id, 100, &e));
	EXPECT_EQ(EDEADLK, e.exec_status);
	neuronsim_exec_result_free(r);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	neuronsim_nl_close(nl);
}

/*
 * An execution cancelled by UNLOAD sends no EXEC_DONE, even when a
 * subgraph that ended before the UNLOAD (here sg00's deadlock) failed
 */
TEST_F(ex, no_exec_done_for_a_cancelled_execution)
{
	struct neuronsim_exec_result *r = NULL;
	struct neuronsim_nl_event e = { 0 };
	struct neuronsim_nl *nl;
	uint8_t b[PLAN_LONG_RUN];
	struct plan p;
	uint32_t id;
	char path[256];
	char *t = NULL;

	ASSERT_EQ(0, neuronsim_nl_open(&nl));
	ASSERT_EQ(0, neuronsim_nl_subscribe(nl));
	ASSERT_EQ(0, plan_deadlock_then_long(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	memset(b, 0x5a, sizeof(b));
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 1, 1, 0, b, sizeof(b)));
	ASSERT_EQ(0, exec_start(self->fd, id, 0, 0, 0));
	/* sg00 has deadlocked (debugfs engines: DVE waiting), sg01 runs */
	dbgfs_path(path, sizeof(path), "models/%u/sg0/engines", id);
	for (int i = 0; i < 100 * (int)nsim_time_scale(); i++) {
		free(t);
		t = read_file(path, NULL);
		if (t && strstr(t, "waiting"))
			break;
		usleep(10000);
	}
	ASSERT_NE(NULL, t);
	ASSERT_NE(NULL, strstr(t, "waiting")) TH_LOG("%s: %s", path, t);
	free(t);
	EXPECT_EQ(-ETIMEDOUT, neuronsim_exec_wait(self->fd, id, -1, &r));
	neuronsim_exec_result_free(r);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_EQ(-ETIMEDOUT, read_exec_done(nl, id, 10, &e))
		TH_LOG("EXEC_DONE of the cancelled execution, status %d",
		       e.exec_status);
	neuronsim_nl_close(nl);
}

/*
 * Blocks of two queues whose bytes move interleaved: SP triggers q, r,
 * q, r, each block copying its own KiB of v0 to v1 in one UDMA
 * descriptor per side, so they end q0, r0, q1, r1 and q1 starts at the
 * same ring index as r's next descriptor; every KiB must arrive
 */
TEST_F(ex, interleaved_queues_move_their_own_bytes)
{
	static const uint8_t qsel[4] = { 0, 1, 0, 1 };
	struct neuronsim_exec_result *r = NULL;
	uint64_t sizes[2] = { 4096, 4096 };
	struct kbin_dma_desc d[4];
	uint8_t in[4096], out[4096];
	uint32_t id, i;
	struct plan p;

	for (i = 0; i < 4; i++)
		d[i] = (struct kbin_dma_desc){
			.op = KBIN_DMA_OP_COPY,
			.from = { .var_id = 1, .offset = i * 1024, .dtype = KBIN_DMA_DTYPE_UINT8,
				  .num_dims = 1, .sizes = { 1024 }, .steps = { 1 } },
			.to = { .var_id = 2, .offset = i * 1024, .dtype = KBIN_DMA_DTYPE_UINT8,
				.num_dims = 1, .sizes = { 1024 }, .steps = { 1 } },
		};
	ASSERT_EQ(0, plan_descs_prog2(&self->info, sizes, 2, d, 4, qsel, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i / 1024 * 64 + i % 61 + 1);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, 1, 0, in, sizeof(in)));
	ASSERT_EQ(0, exec_run(self->fd, id, 0, &r));
	EXPECT_EQ(0, exec_vs_replay(r, &p, 1, "two queues"));
	ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, 2, 0, out, sizeof(out)));
	for (i = 0; i < 4; i++) {
		const char *qn = qsel[i] ? "r" : "q";

		EXPECT_EQ(0, memcmp(in + i * 1024, out + i * 1024, 1024))
			TH_LOG("KiB %u of v1 (block %u of queue %s) is not v0's", i, i / 2, qn);
	}
	neuronsim_exec_result_free(r);
	plan_free(&p);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
}

/*
 * debugfs engines of a subgraph that ended while another subgraph of the
 * execution still waits for its NeuronCore (a long RUN of another model
 * holds NeuronCore 1): sg0 says its engines' end, sg1 says queued
 */
TEST_F(ex, engines_of_an_ended_subgraph)
{
	struct neuronsim_exec_result *r = NULL;
	uint32_t id, id2, q = 0;
	char path[256];
	struct plan p;

	ASSERT_EQ(0, plan_long(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 1, &id2, NULL, NULL, 0));
	plan_free(&p);
	{
		struct neuronsim_run run = {
			.model_id = id2, .num_queues = 1, .queues = (uintptr_t)&q,
		};

		ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_RUN, &run));
	}
	id = load_std_prog(_metadata, self);
	ASSERT_EQ(0, exec_start(self->fd, id, 0, 0, 0));
	usleep(100000);	/* sg0 ends on NeuronCore 0 */
	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg0/engines", id),
			"sp\t3\t3\tdone\t-\t0xb1:1 0xc1:2 \n");
	EXPECT_FILE_HAS(dbgfs_path(path, sizeof(path), "models/%u/sg1/engines", id),
			"\tqueued\t");
	EXPECT_EQ(0, nsim_unload(self->fd, id2));
	ASSERT_EQ(0, neuronsim_exec_wait(self->fd, id, 10 * SEC, &r));
	EXPECT_EQ(0, r->summary.status);
	neuronsim_exec_result_free(r);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
}

/*
 * An EXECUTE refused with -EBUSY (another model's execution holds a
 * NeuronCore of it) leaves the last execution's result as it was, its
 * trace events included: with a trace of another size, and without one
 */
TEST_F(ex, refused_execute_keeps_the_last_result)
{
	struct neuronsim_exec_result *r = NULL, *r2 = NULL;
	uint32_t id, id2;
	int k;

	id = load_std_prog(_metadata, self);
	ASSERT_EQ(0, exec_run(self->fd, id, 0, &r));
	ASSERT_EQ(0, r->summary.status);
	ASSERT_LT(1, r->sg[0].num_events);
	ASSERT_EQ(0, start_long(self->fd, &self->info, 0, &id2));
	for (k = 0; k < 2; k++) {
		/* a trace of one event, then none */
		EXPECT_EQ(-EBUSY, exec_start(self->fd, id, k ? 0 : NEURONSIM_EXEC_F_TRACE,
					     0, k ? 0 : 1));
		ASSERT_EQ(0, neuronsim_exec_wait(self->fd, id, 0, &r2));
		EXPECT_EQ(r->summary.executions, r2->summary.executions);
		ASSERT_EQ(r->num_events, r2->num_events);
		EXPECT_EQ(0, memcmp(r->events, r2->events,
				    r->num_events * sizeof(*r->events)))
			TH_LOG("refused EXECUTE %d changed the last trace", k);
		neuronsim_exec_result_free(r2);
		r2 = NULL;
	}
	neuronsim_exec_result_free(r);
	EXPECT_EQ(0, nsim_unload(self->fd, id2));
	EXPECT_EQ(0, nsim_unload(self->fd, id));
}

/* debugfs models/<id>/sg0/psum of model @id: psum_size bytes, or NULL */
static uint8_t *read_psum(const struct neuronsim_info *info, uint32_t id)
{
	char path[256];
	size_t len = 0;
	uint8_t *b;

	dbgfs_path(path, sizeof(path), "models/%u/sg0/psum", id);
	b = (uint8_t *)read_file(path, &len);
	if (b && len != info->psum_size) {
		free(b);
		return NULL;
	}
	return b;
}

TEST_F(ex, compute_plan)
{
	uint8_t in[TLC_IN_SIZE], out[TLC_OUT_SIZE], want[TLC_OUT_SIZE];
	uint8_t *ref = malloc(self->info.psum_size), *ps;
	struct neuronsim_exec_result *r = NULL;
	struct plan p;
	uint32_t id, run;

	ASSERT_NE(NULL, ref);
	/* the PSUM windows: past the SBUF windows, before HBM */
	EXPECT_LE(self->info.sbuf_base + self->info.num_cores *
		  self->info.sbuf_window_size, self->info.psum_base);
	EXPECT_LE(self->info.psum_base + self->info.num_cores *
		  self->info.psum_size, self->info.hbm_base[0]);
	tl_compute_input(in);
	ASSERT_EQ(0, tl_compute_ref(self->info.arch_gen, in, want, ref));
	ASSERT_EQ(0, tl_compute_plan(self->info.arch_gen, TLC_OK, &p.buf, &p.len));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, TL_IO_IN, 0, in, sizeof(in)));
	for (run = 0; run < 2; run++) {
		ASSERT_EQ(0, exec_run(self->fd, id, 0, &r));
		ASSERT_EQ(0, r->sg[0].status);
		/* compute instructions per engine, all executed */
		EXPECT_EQ(3, r->sg[0].engines[KBIN_DMA_ENGINE_PE - 1].classes[KBIN_PROG_CLASS_COMPUTE]);
		EXPECT_EQ(1, r->sg[0].engines[KBIN_DMA_ENGINE_ACT - 1].classes[KBIN_PROG_CLASS_COMPUTE]);
		EXPECT_EQ(3, r->sg[0].engines[KBIN_DMA_ENGINE_DVE - 1].classes[KBIN_PROG_CLASS_COMPUTE]);
		EXPECT_EQ(2, r->sg[0].engines[KBIN_DMA_ENGINE_PE - 1].opcodes[KBIN_COP_MATMULT]);
		EXPECT_EQ(1, r->sg[0].semaphores[4]);
		EXPECT_EQ(3, r->sg[0].semaphores[3]);
		EXPECT_EQ(2, r->queues[0].blocks);
		neuronsim_exec_result_free(r);
		r = NULL;
		memset(out, 0xee, sizeof(out));
		ASSERT_EQ(0, nsim_read_var(self->fd, id, 0, TL_IO_OUT, 0, out,
					   sizeof(out)));
		EXPECT_EQ(0, memcmp(want, out, sizeof(out)))
			TH_LOG("execution %u: output0 differs from kbin_compute_run() on the host", run);
		ps = read_psum(&self->info, id);
		ASSERT_NE(NULL, ps) TH_LOG("debugfs psum unreadable or not psum_size bytes");
		EXPECT_EQ(0, memcmp(ref, ps, self->info.psum_size))
			TH_LOG("execution %u: PSUM differs from kbin_compute_run() on the host", run);
		free(ps);
	}
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	/* the NeuronCore was released: its PSUM reads zeros again */
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	ps = read_psum(&self->info, id);
	ASSERT_NE(NULL, ps);
	memset(ref, 0, self->info.psum_size);
	EXPECT_EQ(0, memcmp(ref, ps, self->info.psum_size));
	free(ps);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	plan_free(&p);
	free(ref);
	EXPECT_STATS_AT(&self->base);
}

TEST_F(ex, compute_plan_breaking_a_rule_is_refused)
{
	struct neuronsim_load l;
	char log[1024];
	struct plan p;
	uint32_t id;

	ASSERT_EQ(0, tl_compute_plan(self->info.arch_gen, TLC_BROKEN_SPACE,
				     &p.buf, &p.len));
	EXPECT_EQ(-EINVAL, nsim_load(self->fd, &p, 0, &id, &l, log, sizeof(log)));
	EXPECT_EQ(KBIN_ERR_PROG_COMPUTE, l.err_reason) TH_LOG("%s", log);
	EXPECT_NE(NULL, strstr(log, "pe instruction 1 (opcode 0xe6)")) TH_LOG("%s", log);
	EXPECT_NE(NULL, strstr(log, "operand out")) TH_LOG("%s", log);
	plan_free(&p);
	EXPECT_STATS_AT(&self->base);
}

TEST_F(ex, compute_memory_failure_stops_the_engine)
{
	const struct neuronsim_exec_engine *pe;
	struct neuronsim_exec_result *r = NULL;
	char old[64] = "", v[64];
	char *t = read_file(PARAM "backing_limit", NULL);
	uint8_t in[TLC_IN_SIZE];
	struct stats st;
	struct plan p;
	uint32_t id;

	ASSERT_NE(NULL, t);
	strncpy(old, t, sizeof(old) - 1);
	free(t);
	tl_compute_input(in);
	ASSERT_EQ(0, tl_compute_plan(self->info.arch_gen, TLC_OK, &p.buf, &p.len));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, TL_IO_IN, 0, in, sizeof(in)));
	/* room for block 0's four SBUF partitions' pages, not for PSUM */
	ASSERT_EQ(0, read_stats(&st));
	snprintf(v, sizeof(v), "%llu", (unsigned long long)st.backing_bytes +
		 4ULL * (unsigned long long)sysconf(_SC_PAGESIZE));
	ASSERT_EQ(0, nsim_param_write("backing_limit", v));
	EXPECT_EQ(-EDQUOT, exec_run(self->fd, id, 0, &r));
	ASSERT_EQ(0, nsim_param_write("backing_limit", old));
	ASSERT_NE(NULL, r);
	EXPECT_EQ(-EDQUOT, r->sg[0].status);
	/* PE's transpose, its first instruction, the first write to PSUM */
	pe = &r->sg[0].engines[KBIN_DMA_ENGINE_PE - 1];
	EXPECT_EQ(NEURONSIM_ENGINE_STOPPED, pe->state);
	EXPECT_EQ(0, pe->done);
	EXPECT_EQ(0xffffffffU, r->sg[0].fail_queue);
	EXPECT_EQ(0, r->sg[0].semaphores[3]);
	/* DVE and ACT computed into SBUF before it */
	EXPECT_EQ(1, r->sg[0].semaphores[1]);
	EXPECT_EQ(1, r->sg[0].semaphores[2]);
	EXPECT_TRUE(klog_has("pe instruction 0 (opcode 0xe7, transpose) failed: -122"));
	neuronsim_exec_result_free(r);
	/* with room again it runs to the end */
	exec_again_and_unload(_metadata, self, id, 0);
	EXPECT_STATS_AT(&self->base);
}

/* a run-time offset outside its range stops DVE at that copy: -ERANGE */
TEST_F(ex, compute_run_time_offset_out_of_range)
{
	struct neuronsim_exec_result *r = NULL;
	const struct neuronsim_exec_engine *dve;
	uint8_t in[TLC_IN_SIZE];
	struct plan p;
	uint32_t id;

	tl_compute_input(in);
	ASSERT_EQ(0, tl_compute_plan(self->info.arch_gen, TLC_RANGE, &p.buf, &p.len));
	ASSERT_EQ(0, nsim_load(self->fd, &p, 0, &id, NULL, NULL, 0));
	plan_free(&p);
	ASSERT_EQ(0, nsim_write_var(self->fd, id, 0, TL_IO_IN, 0, in, sizeof(in)));
	EXPECT_EQ(-ERANGE, exec_run(self->fd, id, 0, &r));
	ASSERT_NE(NULL, r);
	EXPECT_EQ(-ERANGE, r->sg[0].status);
	dve = &r->sg[0].engines[KBIN_DMA_ENGINE_DVE - 1];
	EXPECT_EQ(NEURONSIM_ENGINE_STOPPED, dve->state);
	EXPECT_EQ(1, dve->done);
	EXPECT_TRUE(klog_has("dve instruction 1 (opcode 0xe1, copy) failed: -34"));
	neuronsim_exec_result_free(r);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_STATS_AT(&self->base);
}

TEST_F(ex, errors)
{
	static const struct ioctl_poke x_pokes[] = {
		IOCTL_POKE(struct neuronsim_exec, reserved, 1, EINVAL),
	}, w_pokes[] = {
		IOCTL_POKE(struct neuronsim_exec_wait, num_events, 1, EINVAL),
		IOCTL_POKE(struct neuronsim_exec_wait, flags, 1, EINVAL),
	};
	struct neuronsim_exec_wait w = { 0 };
	struct neuronsim_exec x = { 0 };
	uint32_t id, id1;
	struct plan p;
	int fd2;

	id = load_std_prog(_metadata, self);
	ASSERT_EQ(0, plan_std(&self->info, &p));
	ASSERT_EQ(0, nsim_load(self->fd, &p, NEURONSIM_CORE_ANY, &id1, NULL, NULL, 0));
	plan_free(&p);
	EXPECT_EQ(-ENOENT, exec_start(self->fd, id + 1000, 0, 0, 0));
	EXPECT_EQ(-ENODATA, exec_start(self->fd, id1, 0, 0, 0));
	EXPECT_EQ(-EINVAL, exec_start(self->fd, id, NEURONSIM_EXEC_F_MASK + 1, 0, 0));
	EXPECT_EQ(-EINVAL, exec_start(self->fd, id, NEURONSIM_EXEC_F_TRACE, 0, 0));
	EXPECT_EQ(-EINVAL, exec_start(self->fd, id, NEURONSIM_EXEC_F_TRACE, 0,
				      NEURONSIM_EXEC_MAX_EVENTS + 1));
	EXPECT_EQ(-EINVAL, exec_start(self->fd, id, 0, 0, 5));
	x.model_id = id;
	EXPECT_IOCTL_POKES(self->fd, NEURONSIM_IOC_EXECUTE, &x, x_pokes);
	/* never executed: IDLE */
	w.model_id = id;
	ASSERT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_EXEC_WAIT, &w));
	EXPECT_EQ(NEURONSIM_EXEC_IDLE, w.state);
	EXPECT_EQ(2, w.num_sg);
	EXPECT_IOCTL_POKES(self->fd, NEURONSIM_IOC_EXEC_WAIT, &w, w_pokes);
	w.model_id = id1;
	EXPECT_EQ(ENODATA, ioctl_errno(self->fd, NEURONSIM_IOC_EXEC_WAIT, &w));
	/* another fd's model */
	fd2 = nsim_open();
	ASSERT_LE(0, fd2);
	EXPECT_EQ(-ENOENT, exec_start(fd2, id, 0, 0, 0));
	w.model_id = id;
	EXPECT_EQ(ENOENT, ioctl_errno(fd2, NEURONSIM_IOC_EXEC_WAIT, &w));
	close(fd2);
	/* a bad results pointer */
	ASSERT_EQ(0, exec_start(self->fd, id, 0, 0, 0));
	w.timeout_ns = 10 * SEC;
	w.num_subgraphs = 2;
	w.subgraphs = 8;
	EXPECT_EQ(EFAULT, ioctl_errno(self->fd, NEURONSIM_IOC_EXEC_WAIT, &w));
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	EXPECT_EQ(0, nsim_unload(self->fd, id1));
}

NSIM_HARNESS_MAIN
