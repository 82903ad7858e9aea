// SPDX-License-Identifier: GPL-2.0
/*
 * stress_test - concurrency stress of /dev/neuronsim.
 *
 *   stress_test [-t SECONDS] [-j THREADS] [-s SEED]   (also STRESS_SECONDS)
 *
 * THREADS (default 8) threads for SECONDS (default 30) mix LOAD, RESOLVE,
 * RESOLVE_BATCH, READ_VAR, WRITE_VAR, UNLOAD, debugfs reads of the
 * model's files, netlink GET_MODEL/GET_VARS/dump of it, dup+close of a shared fd and
 * close+reopen of a private fd (which unloads that fd's models), on two
 * shared fds and one private fd per thread.  Loaded models go into a
 * table with the addresses RESOLVE_BATCH gave right after the load (before
 * any other thread could know the id); any thread may resolve, batch-
 * resolve or read any model of a shared fd while another thread unloads
 * it, and "hot" models are unloaded by their loader right after being
 * published, so resolve races unload of the same model.  Every result must
 * be the recorded one (address or per-variable errno; read bytes equal the
 * plan's payload) or -ENOENT, nothing else; a model of another fd must
 * always give -ENOENT.  A thread that does not finish within 120 s of the
 * end counts as hung.  Afterwards every counter is at its baseline.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "kbin_mutate.h"
#include "plans.h"
#include "harden_nl.h"

#include <linux/neuronsim_netlink.h>

#define MAXT	32
#define SLOTS	192

struct slot {
	int used;
	int dying;		/* being unloaded; still resolvable by others */
	uint32_t id;
	int fd;			/* a shared fd, or the owner's private fd */
	int owner;		/* thread index for a private fd, -1 shared */
	int32_t st[V0_N];	/* RESOLVE status of (sg 0, var, 0, 1) */
	uint64_t addr[V0_N];
};

/* what each thread counts, in the order of the summary line */
enum {
	C_OPS, C_LOADS, C_UNLOADS, C_RES_OK, C_RES_ENOENT, C_CROSS, C_BATCH,
	C_READS, C_WRITES, C_CLOSES, C_EMFILE, C_DBGFS, C_NETLINK, C_N
};
static const char *const count_name[C_N] = {
	"ops", "loads", "unloads", "resolves ok", "-ENOENT (raced unload)",
	"cross-fd -ENOENT", "batches", "reads", "writes", "closes", "EMFILE",
	"debugfs reads", "netlink requests",
};

struct tstat {
	unsigned long n[C_N];
	char err[256];
};

static struct {
	pthread_mutex_t lock;
	struct slot s[SLOTS];
	int shared[2];
	struct plan std;
	int stop;		/* __atomic */
	uint64_t seed;
	int threads;
	int seconds;
	struct tstat ts[MAXT];
	int priv[MAXT];
	int done[MAXT];		/* written by the thread before it ends */
} g = { .lock = PTHREAD_MUTEX_INITIALIZER, .threads = 8, .seconds = 30 };

#define FAILT(t, fmt, ...) do {						\
	snprintf(g.ts[t].err, sizeof(g.ts[t].err), fmt, ##__VA_ARGS__); \
	return -1;							\
} while (0)

/* record where every var of sg 0 resolves, right after the load */
static int expect_of(int fd, uint32_t id, struct slot *s)
{
	struct neuronsim_resolve_entry e[V0_N];
	int i, ret;

	ret = nsim_resolve_first_vars(fd, id, e, V0_N);
	if (ret)
		return ret;
	for (i = 0; i < V0_N; i++) {
		s->st[i] = e[i].status;
		s->addr[i] = e[i].address;
	}
	return 0;
}

static int publish(int t, int fd, int owner, uint32_t id)
{
	struct slot s = { .used = 1, .id = id, .fd = fd, .owner = owner };
	int i, ret = expect_of(fd, id, &s);

	if (ret)
		FAILT(t, "RESOLVE_BATCH of fresh model %u: %d", id, ret);
	if (s.st[V0_WEIGHT] || !s.addr[V0_WEIGHT])
		FAILT(t, "fresh model %u: weight status %d", id, s.st[V0_WEIGHT]);
	pthread_mutex_lock(&g.lock);
	for (i = 0; i < SLOTS && g.s[i].used; i++)
		;
	if (i < SLOTS)
		g.s[i] = s;
	pthread_mutex_unlock(&g.lock);
	return i < SLOTS ? i : -2;
}

/* a copy of a random slot this thread may use the fd of */
static int pick(int t, uint64_t *rs, struct slot *out, int take)
{
	int i, k, found = 0;

	pthread_mutex_lock(&g.lock);
	for (k = 0; k < 8 && !found; k++) {
		i = (int)(kbin_rand(rs) % SLOTS);
		if (!g.s[i].used)
			continue;
		if (take && (g.s[i].dying ||
			     (g.s[i].owner >= 0 && g.s[i].owner != t)))
			continue;
		*out = g.s[i];
		found = 1;
		if (take)
			g.s[i].dying = 1;
	}
	pthread_mutex_unlock(&g.lock);
	return found;
}

/* the fd to use for a slot: its own if usable, else one that isn't its */
static int fd_for(int t, const struct slot *s, int *foreign)
{
	*foreign = 0;
	if (s->owner < 0 || s->owner == t)
		return s->fd;
	*foreign = 1;
	return g.priv[t];
}

static int do_resolve(int t, uint64_t *rs)
{
	struct slot s;
	int foreign, fd, ret;
	uint32_t v;
	uint64_t a = 0, off = 0;

	if (!pick(t, rs, &s, 0))
		return 0;
	fd = fd_for(t, &s, &foreign);
	v = (uint32_t)(kbin_rand(rs) % V0_N);
	if (v == V0_WEIGHT)
		off = kbin_rand(rs) % STD_WEIGHT_SIZE;
	ret = nsim_resolve(fd, s.id, 0, v, off, 1, &a);
	if (foreign) {
		g.ts[t].n[C_CROSS]++;
		if (ret != -ENOENT)
			FAILT(t, "RESOLVE of model %u through another fd gave %d, not -ENOENT",
			      s.id, ret);
		return 0;
	}
	if (ret == -ENOENT) {
		g.ts[t].n[C_RES_ENOENT]++;
		return 0;
	}
	if (ret != s.st[v] || (!ret && a != s.addr[v] + off))
		FAILT(t, "RESOLVE model %u var %u off %llu: %d/0x%llx, expected %d/0x%llx or -ENOENT",
		      s.id, v, (unsigned long long)off, ret,
		      (unsigned long long)a, s.st[v],
		      (unsigned long long)(s.addr[v] + off));
	g.ts[t].n[C_RES_OK] += !ret;
	return 0;
}

static int do_batch(int t, uint64_t *rs)
{
	struct slot s, e;
	int foreign, fd, ret, i, j;

	if (!pick(t, rs, &s, 0))
		return 0;
	fd = fd_for(t, &s, &foreign);
	g.ts[t].n[C_BATCH]++;
	ret = expect_of(fd, s.id, &e);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		FAILT(t, "RESOLVE_BATCH model %u: %d", s.id, ret);
	for (i = 0; i < V0_N; i++) {
		if (e.st[i] == -ENOENT && !foreign) {
			/* the model went away mid-batch: the rest too */
			for (j = i; j < V0_N; j++)
				if (e.st[j] != -ENOENT)
					FAILT(t, "batch model %u: entry %d ENOENT but entry %d %d",
					      s.id, i, j, e.st[j]);
			return 0;
		}
		if (foreign ? e.st[i] != -ENOENT :
		    (e.st[i] != s.st[i] || e.addr[i] != s.addr[i]))
			FAILT(t, "batch model %u var %d: %d/0x%llx, expected %d/0x%llx%s",
			      s.id, i, e.st[i], (unsigned long long)e.addr[i],
			      foreign ? -ENOENT : s.st[i],
			      foreign ? 0ULL : (unsigned long long)s.addr[i],
			      foreign ? " (another fd)" : "");
	}
	return 0;
}

static int do_read(int t, uint64_t *rs, int write)
{
	uint8_t buf[256];
	struct slot s;
	int foreign, fd, ret, i;

	if (!pick(t, rs, &s, 0))
		return 0;
	fd = fd_for(t, &s, &foreign);
	if (write) {
		g.ts[t].n[C_WRITES]++;
		memset(buf, t, sizeof(buf));
		ret = nsim_write_var(fd, s.id, 0, V0_IN, 0, buf, sizeof(buf));
	} else {
		g.ts[t].n[C_READS]++;
		ret = nsim_read_var(fd, s.id, 0, V0_WEIGHT, 0, buf, sizeof(buf));
	}
	if (ret == -ENOENT)
		return 0;
	if (ret || foreign)
		FAILT(t, "%s model %u%s: %d", write ? "WRITE_VAR" : "READ_VAR",
		      s.id, foreign ? " through another fd" : "", ret);
	for (i = 0; !write && i < (int)sizeof(buf); i++)
		if (buf[i] != payload_byte(V0_WEIGHT, i))
			FAILT(t, "READ_VAR model %u byte %d is 0x%x, plan has 0x%x",
			      s.id, i, buf[i], payload_byte(V0_WEIGHT, i));
	return 0;
}

/* drop a slot once its model is gone */
static void unpublish(uint32_t id)
{
	int i;

	pthread_mutex_lock(&g.lock);
	for (i = 0; i < SLOTS; i++)
		if (g.s[i].used && g.s[i].id == id)
			g.s[i].used = 0;
	pthread_mutex_unlock(&g.lock);
}

static int do_load(int t, uint64_t *rs, int hot)
{
	int sh = (int)(kbin_rand(rs) % 3), fd, owner, ret, i;
	uint32_t id;

	fd = sh < 2 ? g.shared[sh] : g.priv[t];
	owner = sh < 2 ? -1 : t;
	ret = nsim_load(fd, &g.std, 0, &id, NULL, NULL, 0);
	if (ret == -EMFILE) {
		g.ts[t].n[C_EMFILE]++;
		return 0;
	}
	if (ret)
		FAILT(t, "LOAD of the standard plan: %d (%s)", ret, strerror(-ret));
	g.ts[t].n[C_LOADS]++;
	i = publish(t, fd, owner, id);
	if (i == -1)
		return -1;
	if (hot || i == -2) {
		/* unload it again right away: resolvers may be on it now */
		if (i >= 0) {
			pthread_mutex_lock(&g.lock);
			if (g.s[i].used && !g.s[i].dying && g.s[i].id == id)
				g.s[i].dying = 1;
			else
				id = 0;	/* someone else took it */
			pthread_mutex_unlock(&g.lock);
		}
		ret = id ? nsim_unload(fd, id) : 0;
		if (id && i >= 0)
			unpublish(id);
		if (ret)
			FAILT(t, "UNLOAD of hot model %u: %d", id, ret);
		g.ts[t].n[C_UNLOADS] += !!id;
	}
	return 0;
}

static int do_unload(int t, uint64_t *rs)
{
	struct slot s;
	int ret;

	if (!pick(t, rs, &s, 1))
		return 0;
	/* the slot stays visible while the model is unloaded */
	ret = nsim_unload(s.fd, s.id);
	unpublish(s.id);
	if (ret)
		FAILT(t, "UNLOAD of model %u: %d", s.id, ret);
	g.ts[t].n[C_UNLOADS]++;
	return 0;
}

/* read a model's debugfs files while it may be unloaded under us */
static int do_debugfs(int t, uint64_t *rs)
{
	static const char *const f[] = { "info", "sg0/memrefs", "sg1/memrefs" };
	char path[128], buf[512];
	struct slot s;
	ssize_t n;
	int fd;

	if (!pick(t, rs, &s, 0))
		return 0;
	g.ts[t].n[C_DBGFS]++;
	dbgfs_path(path, sizeof(path), "models/%u/%s", s.id,
		   f[kbin_rand(rs) % 3]);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		if (errno != ENOENT)
			FAILT(t, "open %s: %s", path, strerror(errno));
		return 0;
	}
	/* small reads, so the seq_file iterates across calls */
	while ((n = read(fd, buf, 1 + kbin_rand(rs) % sizeof(buf))) > 0)
		;
	if (n < 0 && errno != EIO)
		FAILT(t, "read %s: %s", path, strerror(errno));
	close(fd);
	return 0;
}

/* netlink readers racing unload: GET_MODEL, GET_VARS, the model dump */
static int do_netlink(int t, uint64_t *rs)
{
	struct slot s;
	uint16_t fam;
	int sk, ret;

	if (!pick(t, rs, &s, 0))
		return 0;
	sk = nl_open(&fam);
	if (sk < 0)
		return 0;	/* family not registered */
	g.ts[t].n[C_NETLINK]++;
	switch (kbin_rand(rs) % 3) {
	case 0:
		ret = genl_req(sk, fam, NEURONSIM_CMD_GET_MODEL, 0, s.id, NULL,
			       NULL);
		break;
	case 1:
		ret = genl_req(sk, fam, NEURONSIM_CMD_GET_VARS, 1, s.id, NULL,
			       NULL);
		break;
	default:
		ret = genl_req(sk, fam, NEURONSIM_CMD_GET_MODEL, 1, 0, NULL,
			       NULL);
	}
	close(sk);
	if (ret && ret != -ENOENT)
		FAILT(t, "netlink request for model %u: %d", s.id, ret);
	return 0;
}

static int do_close(int t, uint64_t *rs)
{
	int i, fd;

	g.ts[t].n[C_CLOSES]++;
	if (kbin_rand(rs) % 2) {
		/* close a duplicate of a shared fd: nothing is released */
		fd = dup(g.shared[kbin_rand(rs) % 2]);
		if (fd < 0)
			FAILT(t, "dup: %s", strerror(errno));
		close(fd);
		return 0;
	}
	/* close the private fd: its models are unloaded by release */
	pthread_mutex_lock(&g.lock);
	for (i = 0; i < SLOTS; i++)
		if (g.s[i].used && g.s[i].owner == t)
			g.s[i].used = 0;
	pthread_mutex_unlock(&g.lock);
	close(g.priv[t]);
	g.priv[t] = nsim_open();
	if (g.priv[t] < 0)
		FAILT(t, "reopen: %s", strerror(errno));
	return 0;
}

static int do_load_cold(int t, uint64_t *rs)
{
	return do_load(t, rs, 0);
}

static int do_load_hot(int t, uint64_t *rs)
{
	return do_load(t, rs, 1);
}

static int do_read_var(int t, uint64_t *rs)
{
	return do_read(t, rs, 0);
}

static int do_write_var(int t, uint64_t *rs)
{
	return do_read(t, rs, 1);
}

/* the mix: each op's share of 100 draws (the last one takes the rest) */
static const struct {
	unsigned int percent;
	int (*fn)(int t, uint64_t *rs);
} ops[] = {
	{ 10, do_load_cold },
	{ 6, do_load_hot },
	{ 34, do_resolve },
	{ 12, do_batch },
	{ 10, do_read_var },
	{ 6, do_write_var },
	{ 12, do_unload },
	{ 3, do_debugfs },
	{ 3, do_netlink },
	{ 4, do_close },
};

static void *worker(void *arg)
{
	int t = (int)(intptr_t)arg, ret = 0;
	uint64_t rs = g.seed * 1000003 + t;

	while (!__atomic_load_n(&g.stop, __ATOMIC_RELAXED) && !ret) {
		unsigned int op = (unsigned int)(kbin_rand(&rs) % 100), i;

		for (i = 0; i < ARRAY_SIZE(ops) - 1 && op >= ops[i].percent; i++)
			op -= ops[i].percent;
		ret = ops[i].fn(t, &rs);
		g.ts[t].n[C_OPS]++;
	}
	g.done[t] = ret ? -1 : 1;
	if (ret)
		__atomic_store_n(&g.stop, 1, __ATOMIC_RELAXED);
	return NULL;
}

EMPTY_FIXTURE(st)

/* bounded by the run time plus the 120 s hung-thread limit, not 30 s */
TEST_F_TIMEOUT(st, stress, 3600)
{
	struct neuronsim_info info;
	struct stats base, now;
	pthread_t th[MAXT];
	struct tstat sum = { 0 };
	struct timespec dl;
	int i, c, fd, hung = 0, failed = 0;

	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	close(fd);
	ASSERT_EQ(0, plan_std(&info, &g.std));
	ASSERT_EQ(0, read_stats(&base));
	for (i = 0; i < 2; i++) {
		g.shared[i] = nsim_open();
		ASSERT_LE(0, g.shared[i]);
	}
	for (i = 0; i < g.threads; i++) {
		g.priv[i] = nsim_open();
		ASSERT_LE(0, g.priv[i]);
	}
	for (i = 0; i < g.threads; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, worker,
					    (void *)(intptr_t)i));
	for (i = 0; i < g.seconds * 10 &&
		    !__atomic_load_n(&g.stop, __ATOMIC_RELAXED); i++)
		usleep(100000);
	__atomic_store_n(&g.stop, 1, __ATOMIC_RELAXED);
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 120;
	for (i = 0; i < g.threads; i++) {
		if (pthread_timedjoin_np(th[i], NULL, &dl)) {
			TH_LOG("thread %d did not finish within 120 s: hung", i);
			hung++;
			continue;
		}
		if (g.done[i] < 0) {
			TH_LOG("seed %llu thread %d: %s",
			       (unsigned long long)g.seed, i, g.ts[i].err);
			failed++;
		}
		for (c = 0; c < C_N; c++)
			sum.n[c] += g.ts[i].n[c];
	}
	ASSERT_EQ(0, hung);
	printf("# stress: seed %llu, %d threads, %d s: %lu ops:",
	       (unsigned long long)g.seed, g.threads, g.seconds, sum.n[C_OPS]);
	for (c = C_LOADS; c < C_N; c++)
		printf("%s %lu %s", c > C_LOADS ? "," : "", sum.n[c], count_name[c]);
	printf("\n");
	fflush(stdout);
	EXPECT_EQ(0, failed);
	EXPECT_LT(0, sum.n[C_LOADS]);
	EXPECT_LT(0, sum.n[C_RES_OK]);
	EXPECT_LT(0, sum.n[C_UNLOADS]);
	for (i = 0; i < 2; i++)
		close(g.shared[i]);
	for (i = 0; i < g.threads; i++)
		close(g.priv[i]);
	EXPECT_STATS_AT(&base);
	ASSERT_EQ(0, read_stats(&now));
	EXPECT_EQ(0, now.models);
	EXPECT_EQ(0, now.hbm_used);
	plan_free(&g.std);
}

int main(int argc, char **argv)
{
	const char *e = getenv("STRESS_SECONDS");
	int c;

	if (e && *e)
		g.seconds = atoi(e);
	g.seed = (uint64_t)time(NULL);
	while ((c = getopt(argc, argv, "t:j:s:")) != -1) {
		if (c == 't')
			g.seconds = atoi(optarg);
		else if (c == 'j')
			g.threads = atoi(optarg);
		else if (c == 's')
			g.seed = strtoull(optarg, NULL, 0);
	}
	if (g.threads < 1 || g.threads > MAXT || g.seconds < 1) {
		fprintf(stderr, "stress_test: bad -j %d or -t %d\n", g.threads,
			g.seconds);
		return 2;
	}
	printf("# stress_test: %d threads, %d s, seed %llu\n", g.threads,
	       g.seconds, (unsigned long long)g.seed);
	fflush(stdout);
	optind = 1;
	return test_harness_run(1, argv);
}
