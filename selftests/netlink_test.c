// SPDX-License-Identifier: GPL-2.0
/*
 * netlink_test - the "neuronsim" generic netlink family through libnl
 * (libneuronsim and raw libnl-genl-3 for the policy checks):
 * GET_DEVICE; GET_MODEL doit and dump, the dump resuming correctly across
 * many models and fds; GET_VARS dump of a big model resuming by
 * (subgraph, record) and matching RESOLVE; "monitor" events for load,
 * unload, close and failed loads; RUN_DONE ("runs") for root only;
 * strict policies; who may see names and addresses; and the neuronsim
 * command's -j output parsed back (jansson).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "kselftest_harness.h"
#include "libneuronsim.h"
#include "plans.h"

static int load_plan(int fd, const struct plan *p, __u32 *id)
{
	return neuronsim_load(fd, p->buf, p->len, NULL, id);
}

/*
 * A test's model: the device (through the library), the plan loaded from
 * it, and a netlink handle.
 */
struct loaded {
	int fd;
	struct neuronsim_info info;
	struct plan p;
	__u32 id;
	struct neuronsim_nl *nl;
};

/* the plans of struct loaded: plan_std(), and these */
static int plan_2_vars(const struct neuronsim_info *info, struct plan *p)
{
	return plan_buffers(info, 2, 64, 0, p);
}

static int plan_3000_vars(const struct neuronsim_info *info, struct plan *p)
{
	return plan_buffers(info, 3000, 64, 0, p);
}

static int plan_engine_u8(const struct neuronsim_info *info, struct plan *p)
{
	return plan_engine(info, ENGINE_NB * ENGINE_SLICE, KBIN_DMA_DTYPE_UINT8,
			   KBIN_DMA_DTYPE_UINT8, p);
}

/*
 * A test's start: the device opened, the plan @build makes for it loaded,
 * a netlink handle opened.
 */
static void load_on_device(struct __test_metadata *_metadata, struct loaded *t,
			   int (*build)(const struct neuronsim_info *info,
					struct plan *p))
{
	t->fd = neuronsim_open(NULL);
	ASSERT_LE(0, t->fd);
	ASSERT_EQ(0, neuronsim_get_info(t->fd, &t->info));
	ASSERT_EQ(0, build(&t->info, &t->p));
	ASSERT_EQ(0, load_plan(t->fd, &t->p, &t->id));
	ASSERT_EQ(0, neuronsim_nl_open(&t->nl));
}

/*
 * A test's end: the netlink handle and the device closed (its model
 * unloaded), the plan freed.
 */
static void loaded_end(struct loaded *t)
{
	neuronsim_nl_close(t->nl);
	neuronsim_close(t->fd);
	plan_free(&t->p);
}

TEST(get_device)
{
	struct neuronsim_nl_device d;
	struct neuronsim_info info;
	struct neuronsim_nl *nl;
	int fd = neuronsim_open(NULL);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, neuronsim_get_info(fd, &info));
	ASSERT_EQ(0, neuronsim_nl_open(&nl));
	ASSERT_EQ(0, neuronsim_nl_get_device(nl, &d));
	ASSERT_STREQ(info.arch_name, d.arch_name);
	ASSERT_EQ(info.arch_gen, d.arch_gen);
	ASSERT_EQ(info.num_cores, d.num_cores);
	ASSERT_EQ(info.num_hbm_channels, d.num_hbm_channels);
	ASSERT_EQ(info.hbm_channel_size, d.hbm_channel_size);
	ASSERT_EQ(0U, d.num_models);
	ASSERT_EQ(-EINVAL, neuronsim_nl_get_device(nl, NULL));
	neuronsim_nl_close(nl);
	neuronsim_close(fd);
}

/* a GET_MODEL dump: each model's id, owner and device */
struct seen {
	__u32 ids[512];
	__u32 pids[512];
	__u32 devs[512];
	int n;
	int stop_after;
};

static int collect_models(const struct neuronsim_nl_model *m, void *ctx)
{
	struct seen *s = ctx;

	if (s->n < 512) {
		s->ids[s->n] = m->model_id;
		s->pids[s->n] = m->owner_pid;
		s->devs[s->n] = m->device;
	}
	s->n++;
	return s->stop_after && s->n == s->stop_after;
}

TEST(get_model_doit_and_dump_many)
{
	enum { NFD = 3, PER_FD = 60 };
	__u32 ids[NFD * PER_FD];
	struct neuronsim_model_info mi;
	struct neuronsim_nl_model m;
	struct neuronsim_info info;
	struct neuronsim_nl *nl;
	struct plan p;
	struct seen s;
	int fds[NFD], i, j;

	fds[0] = neuronsim_open(NULL);
	ASSERT_LE(0, fds[0]);
	ASSERT_EQ(0, neuronsim_get_info(fds[0], &info));
	ASSERT_EQ(0, plan_buffers(&info, 3, 4096, 0, &p));
	for (i = 1; i < NFD; i++) {
		fds[i] = neuronsim_open(NULL);
		ASSERT_LE(0, fds[i]);
	}
	for (i = 0; i < NFD; i++)
		for (j = 0; j < PER_FD; j++)
			ASSERT_EQ(0, load_plan(fds[i], &p, &ids[i * PER_FD + j]));
	ASSERT_EQ(0, neuronsim_nl_open(&nl));

	/* doit: counts as MODEL_INFO says, owner is this process */
	ASSERT_EQ(0, neuronsim_nl_get_model(nl, ids[5], &m));
	ASSERT_EQ(0, neuronsim_model_info(fds[0], ids[5], &mi));
	ASSERT_EQ(ids[5], m.model_id);
	ASSERT_EQ((__u32)getpid(), m.owner_pid);
	ASSERT_EQ(mi.num_subgraphs, m.num_subgraphs);
	ASSERT_EQ(mi.num_vars, m.num_vars);
	ASSERT_EQ(mi.hbm_bytes, m.hbm_bytes);
	ASSERT_EQ(mi.first_core, m.first_core);
	ASSERT_EQ(-ENOENT, neuronsim_nl_get_model(nl, 0x7fffffff, &m));
	ASSERT_EQ(-EINVAL, neuronsim_nl_get_model(nl, 0, &m));

	/* dump: every model exactly once, in id order, over several parts */
	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, neuronsim_nl_list_models(nl, collect_models, &s));
	ASSERT_EQ(NFD * PER_FD, s.n);
	for (i = 0; i < s.n; i++) {
		ASSERT_EQ(ids[i], s.ids[i]);
		ASSERT_EQ((__u32)getpid(), s.pids[i]);
	}
	/* a callback that stops early: -ECANCELED, the socket stays usable */
	memset(&s, 0, sizeof(s));
	s.stop_after = 7;
	ASSERT_EQ(-ECANCELED, neuronsim_nl_list_models(nl, collect_models, &s));
	ASSERT_EQ(7, s.n);
	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, neuronsim_nl_list_models(nl, collect_models, &s));
	ASSERT_EQ(NFD * PER_FD, s.n);

	/* closing one fd drops exactly its models from the dump */
	neuronsim_close(fds[1]);
	memset(&s, 0, sizeof(s));
	ASSERT_EQ(0, neuronsim_nl_list_models(nl, collect_models, &s));
	ASSERT_EQ((NFD - 1) * PER_FD, s.n);
	for (i = 0; i < s.n; i++)
		ASSERT_EQ(ids[i < PER_FD ? i : i + PER_FD], s.ids[i]);
	neuronsim_nl_close(nl);
	neuronsim_close(fds[0]);
	neuronsim_close(fds[2]);
	plan_free(&p);
}

struct vars_seen {
	__u32 n;
	__u32 next_var;
	int bad_order;
	int fd;
	__u32 model;
	int addr_mismatch;
	int name_mismatch;
};

static int check_var(const struct neuronsim_nl_var *v, void *ctx)
{
	struct vars_seen *s = ctx;
	char name[32];
	__u64 a;

	if (v->subgraph != 0 || v->var_id != s->next_var)
		s->bad_order++;
	s->next_var = v->var_id + 1;
	snprintf(name, sizeof(name), "buf%u", v->var_id);
	if (strcmp(name, v->name) || v->mr_type != KBIN_MR_BUFFER || v->size != 64)
		s->name_mismatch++;
	if (!v->staged ||
	    neuronsim_resolve(s->fd, s->model, 0, v->var_id, 0, 0, &a) ||
	    a != v->physical_address)
		s->addr_mismatch++;
	s->n++;
	return 0;
}

TEST(get_vars_dump_resumes)
{
	struct vars_seen s = { 0 };
	struct loaded t;

	load_on_device(_metadata, &t, plan_3000_vars);
	s.fd = t.fd;
	s.model = t.id;
	ASSERT_EQ(0, neuronsim_nl_list_vars(t.nl, t.id, check_var, &s));
	ASSERT_EQ(3000U, s.n);
	ASSERT_EQ(0, s.bad_order);
	ASSERT_EQ(0, s.name_mismatch);
	ASSERT_EQ(0, s.addr_mismatch);
	ASSERT_EQ(-ENOENT, neuronsim_nl_list_vars(t.nl, t.id + 1000, check_var, &s));
	ASSERT_EQ(-EINVAL, neuronsim_nl_list_vars(t.nl, 0, check_var, &s));
	loaded_end(&t);
}

struct kinds_seen {
	int n, unstaged, ptr_ok, list_staged;
	__u64 weight_pa;
};

static int std_var(const struct neuronsim_nl_var *v, void *ctx)
{
	struct kinds_seen *k = ctx;

	k->n++;
	if (!v->staged)
		k->unstaged++;
	if (v->subgraph == 0 && v->var_id == V0_LIST)
		k->list_staged = v->staged;
	if (v->subgraph == 0 && v->var_id == V0_WEIGHT)
		k->weight_pa = v->physical_address;
	if (v->subgraph == 0 && v->var_id == V0_PTR && v->mr_type == KBIN_MR_PTR)
		k->ptr_ok = v->staged && v->physical_address == k->weight_pa;
	return 0;
}

TEST(get_vars_every_kind)
{
	struct kinds_seen k = { 0 };
	struct loaded t;

	load_on_device(_metadata, &t, plan_std);
	ASSERT_EQ(0, neuronsim_nl_list_vars(t.nl, t.id, std_var, &k));
	ASSERT_EQ(V0_N + V1_N, k.n);
	/* MR_LIST has no physical_address (an MR_PTR_TABLE's row table is
	 * staged) */
	ASSERT_EQ(1, k.unstaged);
	ASSERT_EQ(0, k.list_staged);
	ASSERT_EQ(1, k.ptr_ok);
	loaded_end(&t);
}

struct ev_log {
	struct neuronsim_nl_event e[16];
	int n;
};

static int log_event(const struct neuronsim_nl_event *e, void *ctx)
{
	struct ev_log *l = ctx;

	if (l->n < 16)
		l->e[l->n] = *e;
	l->n++;
	return 0;
}

static void wait_events(struct neuronsim_nl *nl, struct ev_log *l, int want)
{
	int tries = 50;

	while (l->n < want && tries--)
		neuronsim_nl_read_events(nl, 100, log_event, l);
}

TEST(monitor_events)
{
	struct neuronsim_info info;
	struct neuronsim_nl *nl;
	struct ev_log l = { 0 };
	struct plan p;
	__u32 id1, id2;
	int fd = neuronsim_open(NULL);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, neuronsim_get_info(fd, &info));
	ASSERT_EQ(0, plan_std(&info, &p));
	ASSERT_EQ(0, neuronsim_nl_open(&nl));
	ASSERT_EQ(-EINVAL, neuronsim_nl_event_fd(nl));
	ASSERT_EQ(-EINVAL, neuronsim_nl_read_events(nl, 0, log_event, &l));
	ASSERT_EQ(0, neuronsim_nl_subscribe(nl));
	ASSERT_LE(0, neuronsim_nl_event_fd(nl));
	/* nothing yet: a timeout returns 0 */
	ASSERT_EQ(0, neuronsim_nl_read_events(nl, 10, log_event, &l));

	ASSERT_EQ(0, load_plan(fd, &p, &id1));
	ASSERT_EQ(0, load_plan(fd, &p, &id2));
	ASSERT_EQ(0, neuronsim_unload(fd, id1));
	((struct kbin_header *)p.buf)->version = 99;
	ASSERT_EQ(-EINVAL, load_plan(fd, &p, &id1));
	neuronsim_close(fd);	/* unloads id2 */
	wait_events(nl, &l, 5);
	ASSERT_EQ(5, l.n);
	ASSERT_EQ(NEURONSIM_CMD_MODEL_LOADED, l.e[0].cmd);
	ASSERT_EQ(id1, l.e[0].model.model_id);
	ASSERT_EQ((__u32)getpid(), l.e[0].model.owner_pid);
	ASSERT_EQ(2U, l.e[0].model.num_subgraphs);
	ASSERT_EQ((__u64)(V0_N + V1_N), l.e[0].model.num_vars);
	ASSERT_LT(0ULL, l.e[0].model.hbm_bytes);
	ASSERT_EQ(NEURONSIM_CMD_MODEL_LOADED, l.e[1].cmd);
	ASSERT_EQ(id2, l.e[1].model.model_id);
	ASSERT_EQ(NEURONSIM_CMD_MODEL_UNLOADED, l.e[2].cmd);
	ASSERT_EQ(id1, l.e[2].model.model_id);
	ASSERT_EQ((__u32)getpid(), l.e[2].model.owner_pid);
	ASSERT_EQ(NEURONSIM_CMD_LOAD_FAILED, l.e[3].cmd);
	ASSERT_EQ((__u32)EINVAL, l.e[3].err_errno);
	ASSERT_EQ((__u32)KBIN_ERR_VERSION, l.e[3].err_reason);
	ASSERT_EQ((__u32)getpid(), l.e[3].model.owner_pid);
	ASSERT_EQ(NEURONSIM_CMD_MODEL_UNLOADED, l.e[4].cmd);
	ASSERT_EQ(id2, l.e[4].model.model_id);
	neuronsim_nl_close(nl);
	plan_free(&p);
}

/* RUN_DONE: a finished DMA queue run, named; the engine counters */
struct run_log {
	int n;
	__u32 model, sg, queue, status, blocks, descs;
	__u64 bytes, ns;
	char name[64];
};

static int log_run(const struct neuronsim_nl_event *e, void *ctx)
{
	struct run_log *l = ctx;

	if (e->cmd != NEURONSIM_CMD_RUN_DONE)
		return 0;
	l->n++;
	l->model = e->model.model_id;
	l->sg = e->run_subgraph;
	l->queue = e->run_queue;
	l->status = e->run_status;
	l->blocks = e->run_blocks;
	l->descs = e->run_descs;
	l->bytes = e->run_bytes;
	l->ns = e->run_ns;
	snprintf(l->name, sizeof(l->name), "%s", e->run_queue_name);
	return 0;
}

/* core @core's row of debugfs neuronsimN/engine (Documentation/dma.rst) */
static int engine_row(unsigned int dev, unsigned int core,
		      struct neuronsim_engine_stats *st)
{
	unsigned long long v[7];
	char path[96], line[256];
	int err = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/neuronsim/neuronsim%u/engine", dev);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (err && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6]) != 7 || v[0] != core)
			continue;
		*st = (struct neuronsim_engine_stats){
			.bytes = v[1], .udma_descs = v[2], .descs = v[3],
			.runs = v[4], .errors = v[5], .busy_ns = v[6],
		};
		err = 0;
	}
	fclose(f);
	return err;
}

TEST(run_done_event)
{
	struct neuronsim_run_opts o = { .sz = sizeof(o) };
	struct neuronsim_engine_stats st, dbg;
	struct neuronsim_run_result res;
	struct run_log l = { 0 };
	struct loaded t;
	int tries = 50;
	__u32 q = 0;

	load_on_device(_metadata, &t, plan_engine_u8);
	ASSERT_EQ(0, neuronsim_nl_subscribe(t.nl));
	ASSERT_EQ(0, neuronsim_run(t.fd, t.id, &o, &q, 1));
	ASSERT_EQ(0, neuronsim_wait(t.fd, t.id, &o, &q, &res, 1));
	ASSERT_EQ(0, res.status);
	while (!l.n && tries--)
		neuronsim_nl_read_events(t.nl, 100, log_run, &l);
	ASSERT_EQ(1, l.n);
	EXPECT_EQ(t.id, l.model);
	EXPECT_EQ(0U, l.sg);
	EXPECT_EQ(0U, l.queue);
	EXPECT_STREQ("qIn", l.name);
	EXPECT_EQ(0U, l.status);
	EXPECT_EQ((__u32)ENGINE_NB, l.blocks);
	EXPECT_EQ((__u32)ENGINE_NB, l.descs);
	EXPECT_EQ((__u64)ENGINE_NB * ENGINE_SLICE, l.bytes);
	EXPECT_EQ(res.ns, l.ns);
	/*
	 * the engine counters through the library (sysfs), equal to the
	 * debugfs engine row of the same core
	 */
	ASSERT_EQ(0, neuronsim_engine_stats(0, 0, &st));
	EXPECT_LE(1ULL, st.runs);
	EXPECT_LE((__u64)ENGINE_NB * ENGINE_SLICE, st.bytes);
	EXPECT_LE(st.descs * 2, st.udma_descs);
	EXPECT_LT(0ULL, st.busy_ns);
	ASSERT_EQ(0, engine_row(0, 0, &dbg));
	EXPECT_EQ(dbg.bytes, st.bytes);
	EXPECT_EQ(dbg.udma_descs, st.udma_descs);
	EXPECT_EQ(dbg.descs, st.descs);
	EXPECT_EQ(dbg.runs, st.runs);
	EXPECT_EQ(dbg.errors, st.errors);
	EXPECT_EQ(dbg.busy_ns, st.busy_ns);
	EXPECT_EQ(-ENOENT, neuronsim_engine_stats(0, 99, &st));
	EXPECT_EQ(-EINVAL, neuronsim_engine_stats(0, 0, NULL));
	/* the library's bad arguments */
	EXPECT_EQ(-EINVAL, neuronsim_run(t.fd, t.id, &o, NULL, 1));
	EXPECT_EQ(-EINVAL, neuronsim_wait(t.fd, t.id, &o, &q, NULL, 1));
	EXPECT_EQ(-ENOENT, neuronsim_run(t.fd, t.id + 1000, NULL, &q, 1));
	loaded_end(&t);
}

/* what the uid 65534 listener of run_done_not_for_others saw */
struct nobody_seen {
	int join_monitor, join_runs, subscribe;
	int loaded, run_done, lib_loaded, lib_run_done;
};

static int count_raw_event(struct nl_msg *msg, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct nobody_seen *s = arg;

	if (g->cmd == NEURONSIM_CMD_MODEL_LOADED)
		s->loaded++;
	if (g->cmd == NEURONSIM_CMD_RUN_DONE)
		s->run_done++;
	return NL_OK;
}

/* notifications carry sequence number 0 */
static int any_seq(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

static int count_lib_event(const struct neuronsim_nl_event *e, void *ctx)
{
	struct nobody_seen *s = ctx;

	if (e->cmd == NEURONSIM_CMD_MODEL_LOADED)
		s->lib_loaded++;
	if (e->cmd == NEURONSIM_CMD_RUN_DONE)
		s->lib_run_done++;
	return 0;
}

/*
 * The listener: uid 65534 joins "monitor" and tries "runs" with raw
 * libnl, subscribes through the library, says so on @ready, waits for
 * @go (every event sent by then), drains both sockets into @s.
 */
static int nobody_listen(int ready, int go, struct nobody_seen *s)
{
	struct nl_sock *sk;
	struct neuronsim_nl *nl;
	struct nl_cb *cb;
	int mon, runs;
	char c;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		return 10;
	sk = nl_socket_alloc();
	if (!sk || genl_connect(sk) || neuronsim_nl_open(&nl))
		return 11;
	nl_socket_disable_seq_check(sk);
	mon = genl_ctrl_resolve_grp(sk, NEURONSIM_GENL_NAME,
				    NEURONSIM_GENL_MCGRP_MONITOR);
	runs = genl_ctrl_resolve_grp(sk, NEURONSIM_GENL_NAME, "runs");
	s->join_monitor = mon < 0 ? mon : nl_socket_add_membership(sk, mon);
	s->join_runs = runs < 0 ? runs : nl_socket_add_membership(sk, runs);
	s->subscribe = neuronsim_nl_subscribe(nl);
	if (write(ready, "r", 1) != 1 || read(go, &c, 1) != 1)
		return 12;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return 13;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, count_raw_event, s);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, any_seq, NULL);
	nl_socket_set_nonblocking(sk);
	while (nl_recvmsgs(sk, cb) >= 0)
		;
	while (neuronsim_nl_read_events(nl, 0, count_lib_event, s) > 0)
		;
	nl_cb_put(cb);
	nl_socket_free(sk);
	neuronsim_nl_close(nl);
	return 0;
}

/*
 * Documentation/security.rst: a user without access gets a model's
 * counts ("monitor") but not what a process's DMA queue runs did:
 * joining "runs" is -EPERM, and neither raw libnl nor the library hands
 * uid 65534 the RUN_DONE of root's run, which root's subscription gets.
 */
TEST(run_done_not_for_others)
{
	struct neuronsim_run_opts o = { .sz = sizeof(o) };
	struct neuronsim_run_result res;
	struct nobody_seen *s;
	struct run_log l = { 0 };
	int ready[2], go[2], status, tries = 50;
	struct loaded t;
	__u32 q = 0;
	char c;
	pid_t pid;

	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, s);
	memset(s, 0, sizeof(*s));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(nobody_listen(ready[1], go[0], s));
	ASSERT_EQ(1, read(ready[0], &c, 1));

	load_on_device(_metadata, &t, plan_engine_u8);
	ASSERT_EQ(0, neuronsim_nl_subscribe(t.nl));
	ASSERT_EQ(0, neuronsim_run(t.fd, t.id, &o, &q, 1));
	ASSERT_EQ(0, neuronsim_wait(t.fd, t.id, &o, &q, &res, 1));
	/* root's RUN_DONE is here: every listener's has been sent */
	while (!l.n && tries--)
		neuronsim_nl_read_events(t.nl, 100, log_run, &l);
	EXPECT_EQ(1, l.n);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	printf("# uid 65534: join monitor %d, runs %d, library subscribe %d; MODEL_LOADED %d (library %d), RUN_DONE %d (library %d)\n",
	       s->join_monitor, s->join_runs, s->subscribe, s->loaded,
	       s->lib_loaded, s->run_done, s->lib_run_done);
	fflush(stdout);
	EXPECT_EQ(0, s->join_monitor);
	EXPECT_EQ(-NLE_PERM, s->join_runs);
	EXPECT_EQ(0, s->subscribe);
	EXPECT_LE(1, s->loaded);
	EXPECT_LE(1, s->lib_loaded);
	EXPECT_EQ(0, s->run_done);
	EXPECT_EQ(0, s->lib_run_done);
	loaded_end(&t);
	munmap(s, sizeof(*s));
}

/* raw libnl: one request, the kernel's errno */
static int on_err(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	(void)nla;
	*(int *)arg = e->error;
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	(void)msg;
	*(int *)arg = 0;
	return NL_STOP;
}

static int on_done(struct nl_msg *msg, void *arg)
{
	(void)msg;
	*(int *)arg = 0;
	return NL_STOP;
}

static int raw_request(__u8 cmd, int flags, int attr, int attr_len, __u32 value)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = nlmsg_alloc();
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	int family, result = 1, i;

	if (!sk || !msg || !cb || genl_connect(sk))
		return -100;
	family = genl_ctrl_resolve(sk, NEURONSIM_GENL_NAME);
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, flags, cmd,
		    NEURONSIM_GENL_VERSION);
	if (attr && attr_len == 4)
		nla_put_u32(msg, attr, value);
	else if (attr)
		nla_put_u64(msg, attr, value);
	nl_send_auto(sk, msg);
	nl_cb_err(cb, NL_CB_CUSTOM, on_err, &result);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &result);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_done, &result);
	for (i = 0; i < 100 && result == 1; i++)
		nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	nlmsg_free(msg);
	nl_socket_free(sk);
	return result;
}

TEST(strict_policies)
{
	struct loaded t;

	load_on_device(_metadata, &t, plan_2_vars);
	/* a well-formed doit and dump */
	ASSERT_EQ(0, raw_request(NEURONSIM_CMD_GET_MODEL, 0, NEURONSIM_A_MODEL_ID, 4, t.id));
	ASSERT_EQ(0, raw_request(NEURONSIM_CMD_GET_MODEL, NLM_F_DUMP, 0, 0, 0));
	/* MODEL_ID 0 is below the policy minimum */
	ASSERT_EQ(-ERANGE, raw_request(NEURONSIM_CMD_GET_MODEL, 0, NEURONSIM_A_MODEL_ID, 4, 0));
	/* wrong length */
	ASSERT_EQ(-EINVAL, raw_request(NEURONSIM_CMD_GET_MODEL, 0, NEURONSIM_A_MODEL_ID, 8, t.id));
	/* missing MODEL_ID */
	ASSERT_EQ(-EINVAL, raw_request(NEURONSIM_CMD_GET_MODEL, 0, 0, 0, 0));
	ASSERT_EQ(-EINVAL, raw_request(NEURONSIM_CMD_GET_VARS, NLM_F_DUMP, 0, 0, 0));
	/* an attribute the command does not take */
	ASSERT_EQ(-EINVAL, raw_request(NEURONSIM_CMD_GET_MODEL, 0, NEURONSIM_A_VAR_ID, 4, 1));
	ASSERT_EQ(-EINVAL, raw_request(NEURONSIM_CMD_GET_DEVICE, 0, NEURONSIM_A_MODEL_ID, 4, 1));
	ASSERT_EQ(-EINVAL, raw_request(NEURONSIM_CMD_GET_MODEL, 0, NEURONSIM_A_PAD, 4, 1));
	/* GET_VARS has no doit; notifications are not requests */
	ASSERT_EQ(-EOPNOTSUPP, raw_request(NEURONSIM_CMD_GET_VARS, 0, NEURONSIM_A_MODEL_ID, 4, t.id));
	ASSERT_EQ(-EOPNOTSUPP, raw_request(NEURONSIM_CMD_MODEL_LOADED, 0, 0, 0, 0));
	ASSERT_EQ(-EOPNOTSUPP, raw_request(NEURONSIM_CMD_MAX + 1, 0, 0, 0, 0));
	loaded_end(&t);
}

static int count_var(const struct neuronsim_nl_var *v, void *ctx)
{
	(void)v;
	(*(int *)ctx)++;
	return 0;
}

/* child: what another process sees, as root and as nobody */
static int child_view(__u32 id, int drop)
{
	struct neuronsim_nl_model m;
	struct neuronsim_nl *nl;
	int n = 0, err;

	if (drop && (setgid(65534) || setuid(65534)))
		return 10;
	if (neuronsim_nl_open(&nl))
		return 11;
	if (neuronsim_nl_get_model(nl, id, &m) || m.model_id != id)
		return 12;
	err = neuronsim_nl_list_vars(nl, id, count_var, &n);
	neuronsim_nl_close(nl);
	if (drop)
		return err == -EPERM && n == 0 ? 0 : 13;
	return !err && n == 2 ? 0 : 14;
}

TEST(visibility)
{
	struct loaded t;
	int drop, status;

	load_on_device(_metadata, &t, plan_2_vars);
	for (drop = 0; drop < 2; drop++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (!pid)
			_exit(child_view(t.id, drop));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("drop=%d", drop);
	}
	loaded_end(&t);
}

static int bus_write(const char *file, const char *text)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/neuronsim/%s", file);
	return write_text(path, text);
}

struct dev_seen {
	__u32 dev[64];
	char arch[64][16];
	__u32 models[64];
	int n;
};

static int collect_devices(const struct neuronsim_nl_device *d, void *ctx)
{
	struct dev_seen *s = ctx;

	if (s->n < 64) {
		s->dev[s->n] = d->device;
		snprintf(s->arch[s->n], sizeof(s->arch[0]), "%s", d->arch_name);
		s->models[s->n] = d->num_models;
	}
	s->n++;
	return 0;
}

static int var_on_device(const struct neuronsim_nl_var *v, void *ctx)
{
	int *bad = ctx;

	if (v->device != 44)
		(*bad)++;
	return 0;
}

/*
 * Two devices: every request names one (DEVICE, default 0), replies and
 * events say which; the GET_MODEL dump lists every device's models, or
 * one device's; the model index is each device's own.
 */
TEST(devices)
{
	struct neuronsim_info i0, i1;
	struct neuronsim_nl_device d;
	struct neuronsim_nl_model m;
	struct seen ms;
	struct dev_seen ds;
	struct ev_log l = { 0 };
	struct neuronsim_nl *nl;
	struct plan p0, p1;
	__u32 id0, id1;
	int fd0, fd1, i, bad = 0, seen0 = 0, seen1 = 0;

	ASSERT_EQ(0, bus_write("new_device", "44 trn1\n"));
	fd0 = neuronsim_open(NULL);
	fd1 = open("/dev/neuronsim44", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd0);
	ASSERT_LE(0, fd1);
	ASSERT_EQ(0, neuronsim_get_info(fd0, &i0));
	ASSERT_EQ(0, neuronsim_get_info(fd1, &i1));
	ASSERT_EQ(0, plan_buffers(&i0, 2, 64, 0, &p0));
	ASSERT_EQ(0, plan_buffers(&i1, 3, 64, 0, &p1));
	ASSERT_EQ(0, neuronsim_nl_open(&nl));
	ASSERT_EQ(0, neuronsim_nl_subscribe(nl));
	ASSERT_EQ(0, load_plan(fd0, &p0, &id0));
	ASSERT_EQ(0, load_plan(fd1, &p1, &id1));
	((struct kbin_header *)p1.buf)->version = 99;
	ASSERT_EQ(-EINVAL, load_plan(fd1, &p1, &id1));

	/* GET_DEVICE: default device 0, the dump every device */
	ASSERT_EQ(0, neuronsim_nl_get_device(nl, &d));
	EXPECT_EQ(0U, d.device);
	EXPECT_STREQ(i0.arch_name, d.arch_name);
	memset(&ds, 0, sizeof(ds));
	ASSERT_EQ(0, neuronsim_nl_list_devices(nl, collect_devices, &ds));
	for (i = 0; i < ds.n && i < 64; i++) {
		if (ds.dev[i] == 44) {
			seen1++;
			EXPECT_STREQ("trn1", ds.arch[i]);
			EXPECT_EQ(1U, ds.models[i]);
		}
		if (i)
			EXPECT_LT(ds.dev[i - 1], ds.dev[i]);
	}
	EXPECT_EQ(1, seen1);

	/* GET_MODEL dump without DEVICE: both, each with its device */
	memset(&ms, 0, sizeof(ms));
	ASSERT_EQ(0, neuronsim_nl_list_models(nl, collect_models, &ms));
	seen1 = 0;
	for (i = 0; i < ms.n && i < 64; i++) {
		seen0 += ms.devs[i] == 0 && ms.ids[i] == id0;
		seen1 += ms.devs[i] == 44 && ms.ids[i] == id1;
	}
	EXPECT_EQ(1, seen0);
	EXPECT_EQ(1, seen1);

	/* one device named: only its models; doit and GET_VARS there */
	ASSERT_EQ(0, neuronsim_nl_set_device(nl, 0));
	memset(&ms, 0, sizeof(ms));
	ASSERT_EQ(0, neuronsim_nl_list_models(nl, collect_models, &ms));
	seen0 = 0;
	for (i = 0; i < ms.n && i < 64; i++) {
		EXPECT_EQ(0U, ms.devs[i]);
		seen0 += ms.ids[i] == id0;
	}
	EXPECT_EQ(1, seen0);
	ASSERT_EQ(0, neuronsim_nl_set_device(nl, 44));
	EXPECT_EQ(-EINVAL, neuronsim_nl_set_device(nl, 64));
	memset(&ms, 0, sizeof(ms));
	ASSERT_EQ(0, neuronsim_nl_list_models(nl, collect_models, &ms));
	ASSERT_EQ(1, ms.n);
	EXPECT_EQ(44U, ms.devs[0]);
	EXPECT_EQ(id1, ms.ids[0]);
	ASSERT_EQ(0, neuronsim_nl_get_device(nl, &d));
	EXPECT_EQ(44U, d.device);
	EXPECT_STREQ("trn1", d.arch_name);
	ASSERT_EQ(0, neuronsim_nl_get_model(nl, id1, &m));
	EXPECT_EQ(44U, m.device);
	EXPECT_EQ(1U, m.num_subgraphs);
	EXPECT_EQ(3ULL, m.num_vars);
	ASSERT_EQ(0, neuronsim_nl_list_vars(nl, id1, var_on_device, &bad));
	EXPECT_EQ(0, bad);

	/* a device that does not exist */
	ASSERT_EQ(0, neuronsim_nl_set_device(nl, 45));
	EXPECT_EQ(-ENODEV, neuronsim_nl_get_device(nl, &d));
	EXPECT_EQ(-ENODEV, neuronsim_nl_get_model(nl, id1, &m));
	EXPECT_EQ(-ENODEV, neuronsim_nl_list_models(nl, collect_models, &ms));
	EXPECT_EQ(-ENODEV, neuronsim_nl_list_vars(nl, id1, var_on_device, &bad));
	EXPECT_EQ(-ERANGE, raw_request(NEURONSIM_CMD_GET_DEVICE, 0,
				       NEURONSIM_A_DEVICE, 4, 64));

	/* events carry their device */
	neuronsim_close(fd1);
	neuronsim_close(fd0);
	wait_events(nl, &l, 5);
	ASSERT_EQ(5, l.n);
	EXPECT_EQ(NEURONSIM_CMD_MODEL_LOADED, l.e[0].cmd);
	EXPECT_EQ(0U, l.e[0].model.device);
	EXPECT_EQ(NEURONSIM_CMD_MODEL_LOADED, l.e[1].cmd);
	EXPECT_EQ(44U, l.e[1].model.device);
	EXPECT_EQ(NEURONSIM_CMD_LOAD_FAILED, l.e[2].cmd);
	EXPECT_EQ(44U, l.e[2].model.device);
	EXPECT_EQ(NEURONSIM_CMD_MODEL_UNLOADED, l.e[3].cmd);
	EXPECT_EQ(44U, l.e[3].model.device);
	EXPECT_EQ(id1, l.e[3].model.model_id);
	EXPECT_EQ(NEURONSIM_CMD_MODEL_UNLOADED, l.e[4].cmd);
	EXPECT_EQ(0U, l.e[4].model.device);
	EXPECT_EQ(0, bus_write("del_device", "44\n"));
	neuronsim_nl_close(nl);
	plan_free(&p0);
	plan_free(&p1);
}

/* run the command, parse its -j output */
static json_t *run_json(const char *cmd)
{
	char buf[65536];
	size_t n;
	FILE *f = popen(cmd, "r");
	json_error_t jerr;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	if (pclose(f))
		return NULL;
	return json_loads(buf, 0, &jerr);
}

TEST(cli_json_parsed_back)
{
	struct neuronsim_info info;
	struct plan p;
	json_t *j, *o;
	__u32 id;
	__u64 a;
	char cmd[256];
	size_t i;
	int fd = neuronsim_open(NULL), found = 0;
	FILE *f;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, neuronsim_get_info(fd, &info));
	ASSERT_EQ(0, plan_std(&info, &p));
	ASSERT_EQ(0, load_plan(fd, &p, &id));

	j = run_json("neuronsim -j info");
	ASSERT_NE(NULL, j);
	ASSERT_STREQ(info.arch_name, json_string_value(json_object_get(j, "arch_name")));
	ASSERT_EQ(info.num_cores, json_integer_value(json_object_get(j, "num_cores")));
	json_decref(j);

	/* models: ours, with this pid as owner */
	j = run_json("neuronsim -j models");
	ASSERT_TRUE(json_is_array(j));
	json_array_foreach(j, i, o) {
		if (json_integer_value(json_object_get(o, "model_id")) == id) {
			found++;
			ASSERT_EQ(getpid(), json_integer_value(json_object_get(o, "owner_pid")));
			ASSERT_EQ(V0_N + V1_N, json_integer_value(json_object_get(o, "num_vars")));
		}
	}
	ASSERT_EQ(1, found);
	json_decref(j);

	/* resolve MODEL (another process, as root): netlink table == ioctl */
	snprintf(cmd, sizeof(cmd), "neuronsim -j resolve %u weight+16:8 sg1/#%d ptr_weight", id, V1_W);
	j = run_json(cmd);
	ASSERT_NE(NULL, j);
	ASSERT_STREQ("netlink", json_string_value(json_object_get(j, "source")));
	o = json_object_get(j, "results");
	ASSERT_EQ(3U, json_array_size(o));
	ASSERT_EQ(0, neuronsim_resolve(fd, id, 0, V0_WEIGHT, 16, 8, &a));
	ASSERT_EQ((json_int_t)a, json_integer_value(json_object_get(json_array_get(o, 0), "address")));
	ASSERT_EQ(0, neuronsim_resolve(fd, id, 1, V1_W, 0, 0, &a));
	ASSERT_EQ((json_int_t)a, json_integer_value(json_object_get(json_array_get(o, 1), "address")));
	ASSERT_EQ(0, neuronsim_resolve(fd, id, 0, V0_PTR, 0, 0, &a));
	ASSERT_EQ((json_int_t)a, json_integer_value(json_object_get(json_array_get(o, 2), "address")));
	json_decref(j);

	/* vars MODEL: every var, names as in the plan */
	snprintf(cmd, sizeof(cmd), "neuronsim -j vars %u", id);
	j = run_json(cmd);
	ASSERT_NE(NULL, j);
	o = json_object_get(j, "vars");
	ASSERT_EQ((size_t)(V0_N + V1_N), json_array_size(o));
	ASSERT_STREQ("weight", json_string_value(json_object_get(json_array_get(o, V0_WEIGHT), "name")));
	ASSERT_TRUE(json_is_null(json_object_get(json_array_get(o, V0_LIST), "physical_address")));
	json_decref(j);

	/* read PLAN: the payload bytes */
	f = fopen("/tmp/nl_cli.kbin", "w");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(p.len, fwrite(p.buf, 1, p.len, f));
	fclose(f);
	j = run_json("neuronsim -j read /tmp/nl_cli.kbin weight+4:4");
	ASSERT_NE(NULL, j);
	snprintf(cmd, sizeof(cmd), "%02x%02x%02x%02x", payload_byte(V0_WEIGHT, 4),
		 payload_byte(V0_WEIGHT, 5), payload_byte(V0_WEIGHT, 6),
		 payload_byte(V0_WEIGHT, 7));
	ASSERT_STREQ(cmd, json_string_value(json_object_get(j, "hex")));
	json_decref(j);
	unlink("/tmp/nl_cli.kbin");

	neuronsim_close(fd);
	plan_free(&p);
}

NSIM_HARNESS_MAIN
