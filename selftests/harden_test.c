// SPDX-License-Identifier: GPL-2.0
/*
 * harden_test - fault injection over real NEFF plans, access control,
 * kernel-pointer leaks and every cap at its edge.
 *
 *   harden_test            (real plans from $HARDEN_PLANS, default
 *                           $NSIM_DATA/harden, else data/harden next to
 *                           the program: *.kbin compiled on the host by
 *                           neuronsim-cc; those tests SKIP without them)
 *
 * fault: for each plan, fail HBM placement 1, 2, ... (fail_hbm_alloc_nth)
 * until a load no longer reaches the knob, then copy-in 1, 2, ...
 * (fail_copyin_nth), then relocation steps 1, 2, ... (fail_reloc_nth);
 * every failure reports -ENOSPC / -EIO / -EIO with reason
 * KBIN_ERR_STAGE_FAULT and leaves models, mem_refs, kmem_bytes, hbm_used
 * and backing_bytes exactly at their baseline.
 * access: /dev/neuronsim is a root-owned 0600 char device; uid 65534 gets
 * EACCES from it, /dev/neuronsim0, debugfs, writing the module parameters,
 * sysfs counters and the bus's new_device and del_device, and reads the
 * parameters, a device's arch and the sysfs counters; another fd
 * of the same process and another process get -ENOENT for every command on
 * a model they do not own.
 * noptr: the ioctl structs, every debugfs file, the module parameters,
 * the kernel log of loads (dynamic debug on) and every netlink reply
 * (GET_DEVICE, GET_MODEL dump, GET_VARS) contain no kernel address
 * (ffff followed by 12 hex digits, other than the all-ones "unstaged"
 * marker; binary structs: no 64-bit word with its top 16 bits set).
 * netlink: uid 65534 sees a model's counts (GET_MODEL) but gets -EPERM
 * from GET_VARS (names and addresses).
 * caps: max_plan_bytes, max_loading_bytes, max_models_per_fd,
 * max_vars_per_subgraph,
 * scratchpad_max_pages, backing_limit (load and WRITE_VAR),
 * backing_limit_total and NEURONSIM_RESOLVE_BATCH_MAX: exactly at the cap
 * works, one over fails with the documented errno.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/neuronsim_netlink.h>

#include "kselftest_harness.h"
#include "plans.h"
#include "kbin_writer.h"
#include "harden_nl.h"

#define PARAM NSIM_PARAM_DIR
#define SYSFS0 "/sys/class/neuronsim/neuronsim0"

static void expect_base(struct __test_metadata *_metadata,
			const struct stats *b, const char *what)
{
	struct stats s;

	ASSERT_EQ(0, read_stats(&s));
	if (s.models != b->models || s.mem_refs != b->mem_refs ||
	    s.kmem_bytes != b->kmem_bytes || s.hbm_used != b->hbm_used ||
	    s.backing_bytes != b->backing_bytes) {
		TH_LOG("%s: counters not at baseline: models %lld/%lld mem_refs %lld/%lld kmem %lld/%lld hbm %lld/%lld backing %lld/%lld",
		       what, s.models, b->models, s.mem_refs, b->mem_refs,
		       s.kmem_bytes, b->kmem_bytes, s.hbm_used, b->hbm_used,
		       s.backing_bytes, b->backing_bytes);
		ASSERT_TRUE(0);
	}
}

static int read_plan(const char *path, struct plan *p)
{
	size_t n;
	char *b = read_file(path, &n);

	if (!b)
		return -errno;
	p->buf = b;
	p->len = n;
	return 0;
}

static long read_knob(const char *name)
{
	char path[256];

	return read_number(dbgfs_path(path, sizeof(path), "%s", name));
}

/* Fail every position of one knob in turn; returns positions found. */
static int sweep(struct __test_metadata *_metadata, int fd,
		 const struct plan *p, const char *plan, const char *knob,
		 int want_errno)
{
	struct neuronsim_load l;
	struct stats base;
	uint32_t id;
	char log[512];
	int n, ret;

	ASSERT_EQ(0, read_stats(&base));
	for (n = 1; n < 100000; n++) {
		ASSERT_EQ(0, write_knob(knob, n));
		ret = nsim_load(fd, p, 0, &id, &l, log, sizeof(log));
		if (!ret) {
			long left = read_knob(knob);

			ASSERT_EQ(0, write_knob(knob, 0));
			if (left != 1) {
				TH_LOG("%s: %s=%d: load succeeded with the knob at %ld (expected 1 left)",
				       plan, knob, n, left);
				ASSERT_TRUE(0);
			}
			ASSERT_EQ(0, nsim_unload(fd, id));
			expect_base(_metadata, &base, plan);
			return n - 1;
		}
		if (ret != -want_errno || l.err_reason != KBIN_ERR_STAGE_FAULT) {
			TH_LOG("%s: %s=%d: load gave %d reason %u (%s), expected %d reason %u",
			       plan, knob, n, ret, l.err_reason, log, -want_errno,
			       KBIN_ERR_STAGE_FAULT);
			ASSERT_TRUE(0);
		}
		if (read_knob(knob) != 0) {
			TH_LOG("%s: %s=%d: knob not consumed", plan, knob, n);
			ASSERT_TRUE(0);
		}
		expect_base(_metadata, &base, plan);
	}
	return -1;
}

/* slow under KASAN + TCG: a generous per-test timeout */
FIXTURE(h) {
	int unused;
};

FIXTURE_SETUP(h)
{
}

FIXTURE_TEARDOWN(h)
{
}

TEST_F_TIMEOUT(h, fault_every_position, 900)
{
	const char *dir = nsim_data_dir(getenv("HARDEN_PLANS"), "harden");
	struct dirent *de;
	int fd, plans = 0, hbm, cin, rel;
	DIR *d = opendir(dir);
	char path[512];
	struct plan p;

	if (!d)
		SKIP(return, "no real NEFF plans in %s (shared cases absent)", dir);
	fd = nsim_open();
	ASSERT_LE(0, fd);
	while ((de = readdir(d))) {
		if (!strstr(de->d_name, ".kbin"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		ASSERT_EQ(0, read_plan(path, &p));
		hbm = sweep(_metadata, fd, &p, de->d_name, "fail_hbm_alloc_nth",
			    ENOSPC);
		cin = sweep(_metadata, fd, &p, de->d_name, "fail_copyin_nth", EIO);
		rel = sweep(_metadata, fd, &p, de->d_name, "fail_reloc_nth", EIO);
		printf("# fault %s: %d HBM allocation positions, %d copy-in positions, %d relocation positions, each rolled back\n",
		       de->d_name, hbm, cin, rel);
		fflush(stdout);
		EXPECT_LT(0, hbm);
		EXPECT_LT(0, cin);
		/* each real plan here has a DMA program: arrays, rings, writes */
		EXPECT_LT(2, rel);
		plan_free(&p);
		plans++;
	}
	closedir(d);
	close(fd);
	if (!plans)
		SKIP(return, "no *.kbin in %s", dir);
}

/*
 * Real HBM exhaustion (not the knob): a variable's allocation and, in a
 * second plan, the 5th page of an 8-page scratchpad fail because another
 * model holds most of the channel; each rolls back completely.
 */
static int plan_scratchpad(const struct neuronsim_info *info, uint64_t local,
			   struct plan *p)
{
	struct kbin_writer *w = kbin_writer_new(info->arch_gen);
	int e;

	if (!w)
		return -ENOMEM;
	e = kbin_writer_add_subgraph(w, "sg00", local, 0, NULL, 0) < 0;
	e |= TL_ADD(w, .type = KBIN_MR_INPUT, .name = "in", .size = 64,
		    .align = 64) < 0;
	return plan_finish(w, e, p);
}

TEST_F_TIMEOUT(h, hbm_exhaustion_rollback, 900)
{
	struct neuronsim_info info;
	struct neuronsim_load l;
	struct plan fill, big, sp;
	/* the plans the filler leaves no room for, and why */
	const struct {
		const struct plan *p;
		const char *what;
	} refused[] = {
		{ &big, "buffer exhaustion: a buffer over the free HBM" },
		{ &sp, "scratchpad page exhaustion: 8 pages with 4.5 free" },
	};
	struct stats base;
	uint64_t ch, page;
	uint32_t idf, id;
	char log[512];
	unsigned int i;
	int fd, ret;

	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	ch = info.hbm_channel_size;
	page = info.scratchpad_page_size;
	ASSERT_LT(8 * page, ch);
	/* leave 4.5 scratchpad pages free on channel 0 */
	ASSERT_EQ(0, plan_buffers(&info, 1, ch - 9 * page / 2, 0, &fill));
	ASSERT_EQ(0, plan_buffers(&info, 1, 5 * page, 0, &big));
	ASSERT_EQ(0, plan_scratchpad(&info, 8 * page, &sp));
	ASSERT_EQ(0, nsim_load(fd, &fill, 0, &idf, NULL, NULL, 0));
	ASSERT_EQ(0, read_stats(&base));

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		ret = nsim_load(fd, refused[i].p, 0, &id, &l, log, sizeof(log));
		EXPECT_EQ(-ENOSPC, ret) TH_LOG("%s: %s", refused[i].what, log);
		EXPECT_EQ(KBIN_ERR_STAGE_HBM, l.err_reason)
			TH_LOG("%s: %s", refused[i].what, log);
		expect_base(_metadata, &base, refused[i].what);
	}

	/* with the filler gone both fit */
	ASSERT_EQ(0, nsim_unload(fd, idf));
	EXPECT_EQ(0, nsim_load(fd, &sp, 0, &id, NULL, NULL, 0));
	EXPECT_EQ(0, nsim_unload(fd, id));
	plan_free(&fill);
	plan_free(&big);
	plan_free(&sp);
	close(fd);
}

/*
 * as uid 65534: open(@path, @flags) must work (@may) or be EACCES;
 * 1 when it does not, said in a KTAP comment
 */
static int nobody_open(const char *path, int flags, int may)
{
	int fd = open(path, flags);
	int bad = may ? fd < 0 : fd >= 0 || errno != EACCES;

	if (bad) {
		printf("# as uid 65534: open(%s) gave %d errno %d, %s\n", path,
		       fd, fd < 0 ? errno : 0,
		       may ? "want it readable" : "not EACCES");
		fflush(stdout);
	}
	if (fd >= 0)
		close(fd);
	return bad;
}

/* child: become nobody, then every privileged path must say EACCES */
static int as_nobody(void)
{
	/* root's alone: the devices, debugfs, the bus */
	static const struct {
		const char *path;
		int flags;
	} root_only[] = {
		{ "/dev/neuronsim", O_RDWR },
		{ "/dev/neuronsim0", O_RDWR },
		{ DBGFS_ROOT "/stats", O_RDONLY },
		{ DBGFS_ROOT "/neuronsim0/stats", O_RDONLY },
		{ DBGFS_ROOT "/neuronsim0/cores", O_RDONLY },
		{ DBGFS_ROOT "/neuronsim0/fail_copyin_nth", O_RDWR },
		{ DBGFS_ROOT "/neuronsim0/hbm", O_RDONLY },
		{ "/sys/bus/neuronsim/new_device", O_WRONLY },
		{ "/sys/bus/neuronsim/del_device", O_WRONLY },
	};
	/*
	 * Documentation/security.rst: what everyone may read; the caps, the
	 * Neuron driver's counters (world-readable as its own, cleared by a
	 * write) and notify_delay only root may write
	 */
	static const struct {
		const char *path;
		int root_writes;
	} readable[] = {
		{ PARAM "max_plan_bytes", 1 },
		{ PARAM "max_loading_bytes", 1 },
		{ SYSFS0 "/neuron_core0/stats/memory_usage/device_mem/present", 1 },
		{ "/sys/bus/neuronsim/devices/neuronsim0/arch", 0 },
		{ SYSFS0 "/info/architecture/device_name", 0 },
		{ SYSFS0 "/stats/memory_usage/host_mem/driver_memory/present", 1 },
		{ SYSFS0 "/neuron_core0/stats/status/success/total", 1 },
		{ SYSFS0 "/neuron_core0/stats/other_info/dma_bytes/total", 1 },
		{ SYSFS0 "/info/notify_delay", 1 },
		{ SYSFS0 "/connected_devices", 0 },
	};
	unsigned int i;
	int bad = 0;

	if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
		return 100;
	for (i = 0; i < sizeof(root_only) / sizeof(root_only[0]); i++)
		bad += nobody_open(root_only[i].path, root_only[i].flags, 0);
	for (i = 0; i < sizeof(readable) / sizeof(readable[0]); i++) {
		bad += nobody_open(readable[i].path, O_RDONLY, 1);
		if (readable[i].root_writes)
			bad += nobody_open(readable[i].path, O_WRONLY, 0);
	}
	return bad;
}

TEST_F_TIMEOUT(h, access_nonroot, 900)
{
	struct stat st;
	pid_t pid;
	int status;

	ASSERT_EQ(0, stat("/dev/neuronsim", &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	ASSERT_EQ(0, stat("/dev/neuronsim0", &st));
	EXPECT_TRUE(S_ISCHR(st.st_mode));
	EXPECT_EQ(0600, st.st_mode & 07777);
	EXPECT_EQ(0, st.st_uid);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(as_nobody());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* every command on model @id through @fd must give -ENOENT */
static int foreign_checks(int fd, uint32_t id)
{
	struct neuronsim_resolve_entry e = { .var_id = V0_WEIGHT, .size = 1 };
	struct neuronsim_resolve_batch b = {
		.model_id = id, .count = 1, .entries = (uintptr_t)&e,
	};
	struct neuronsim_model_info mi = { .model_id = id };
	struct neuronsim_dma_info di = { .model_id = id };
	uint8_t buf[16] = { 1 };
	int bad = 0, r;

	r = nsim_resolve(fd, id, 0, V0_WEIGHT, 0, 1, NULL);
	bad += r != -ENOENT;
	r = nsim_read_var(fd, id, 0, V0_WEIGHT, 0, buf, sizeof(buf));
	bad += r != -ENOENT;
	r = nsim_write_var(fd, id, 0, V0_IN, 0, buf, sizeof(buf));
	bad += r != -ENOENT;
	r = ioctl(fd, NEURONSIM_IOC_MODEL_INFO, &mi) ? -errno : 0;
	bad += r != -ENOENT;
	r = ioctl(fd, NEURONSIM_IOC_RESOLVE_BATCH, &b) ? -errno : 0;
	bad += r != -ENOENT;
	r = ioctl(fd, NEURONSIM_IOC_DMA_INFO, &di) ? -errno : 0;
	bad += r != -ENOENT;
	r = nsim_unload(fd, id);
	bad += r != -ENOENT;
	return bad;
}

TEST_F_TIMEOUT(h, access_other_fd_and_process, 900)
{
	struct neuronsim_info info;
	struct plan p;
	uint32_t id;
	uint64_t a;
	int fa, fb, status;
	pid_t pid;

	fa = nsim_open();
	fb = nsim_open();
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_EQ(0, nsim_get_info(fa, &info));
	ASSERT_EQ(0, plan_std(&info, &p));
	ASSERT_EQ(0, nsim_load(fa, &p, 0, &id, NULL, NULL, 0));
	EXPECT_EQ(0, foreign_checks(fb, id));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fc = nsim_open();

		_exit(fc < 0 ? 100 : foreign_checks(fc, id));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* still there and still the owner's */
	EXPECT_EQ(0, nsim_resolve(fa, id, 0, V0_WEIGHT, 0, 1, &a));
	EXPECT_EQ(0, nsim_unload(fa, id));
	plan_free(&p);
	close(fa);
	close(fb);
}

/* ---- kernel pointer scan ---- */

static int text_has_kptr(const char *t, size_t n, const char *what)
{
	size_t i, k;

	for (i = 0; i + 16 <= n; i++) {
		if (tolower(t[i]) != 'f' || tolower(t[i + 1]) != 'f' ||
		    tolower(t[i + 2]) != 'f' || tolower(t[i + 3]) != 'f')
			continue;
		for (k = 4; k < 16 && isxdigit((unsigned char)t[i + k]); k++)
			;
		if (k < 16)
			continue;
		if (!strncasecmp(t + i, "ffffffffffffffff", 16))
			continue;	/* the all-ones "unstaged" marker */
		if (i && isxdigit((unsigned char)t[i - 1]))
			continue;	/* inside a longer hex run */
		printf("# %s: kernel address pattern \"%.16s\" at byte %zu\n",
		       what, t + i, i);
		return 1;
	}
	return 0;
}

static int bin_has_kptr(const void *p, size_t n, const char *what)
{
	const uint8_t *b = p;
	uint64_t v;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&v, b + i, 8);
		if ((v >> 48) == 0xffff && v != ~0ULL) {
			printf("# %s: word at byte %zu is 0x%llx\n", what, i,
			       (unsigned long long)v);
			return 1;
		}
	}
	return 0;
}

/*
 * The module's dynamic debug prints: @flags "+p" on, "-p" off (a failed
 * write said in the test's log).  Return: 0 when dynamic debug is not
 * there, else 1.
 */
static int dyndbg(struct __test_metadata *_metadata, const char *flags)
{
	char cmd[32];
	int fd = open("/sys/kernel/debug/dynamic_debug/control", O_WRONLY);
	int n = snprintf(cmd, sizeof(cmd), "module neuronsim %s", flags);

	if (fd < 0)
		return 0;
	if (write(fd, cmd, n) != n)
		TH_LOG("dynamic debug for neuronsim: '%s' not written", cmd);
	close(fd);
	return 1;
}

static int scan_tree(const char *dir)
{
	struct dirent *de;
	char path[1024];
	struct stat st;
	int bad = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t n;
		char *t;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			bad += scan_tree(path);
			continue;
		}
		t = read_file(path, &n);
		if (t) {
			bad += text_has_kptr(t, n, path);
			free(t);
		}
	}
	closedir(d);
	return bad;
}

TEST_F_TIMEOUT(h, no_kernel_pointers, 900)
{
	struct neuronsim_resolve_entry e[V0_N];
	struct neuronsim_model_info mi;
	struct neuronsim_info info;
	struct neuronsim_load l;
	struct plan p, bad;
	char log[512], *kl;
	uint32_t id;
	int fd, dyn, n, bads = 0;

	/* the scanners themselves: they must see what they look for */
	{
		static const char t[] = "a 0xffff88810a2b3c4d b";
		static const char ones[] = "pa 0xffffffffffffffff";
		uint64_t w[2] = { 0x1000000000ULL, 0xffffffffc0a01234ULL };

		ASSERT_EQ(1, text_has_kptr(t, sizeof(t) - 1, "self-test"));
		ASSERT_EQ(0, text_has_kptr(ones, sizeof(ones) - 1, "self-test"));
		ASSERT_EQ(1, bin_has_kptr(w, sizeof(w), "self-test"));
	}
	fd = nsim_open();
	ASSERT_LE(0, fd);
	dyn = dyndbg(_metadata, "+p");
	klogctl(5, NULL, 0);	/* SYSLOG_ACTION_CLEAR */
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	bads += bin_has_kptr(&info, sizeof(info), "GET_INFO");
	ASSERT_EQ(0, plan_std(&info, &p));
	ASSERT_EQ(0, nsim_load(fd, &p, 0, &id, &l, log, sizeof(log)));
	bads += bin_has_kptr(&l, sizeof(l), "LOAD (ok)");
	/* a failing load: its log text and struct */
	bad.len = p.len;
	bad.buf = malloc(p.len);
	ASSERT_NE(NULL, bad.buf);
	memcpy(bad.buf, p.buf, p.len);
	((uint8_t *)bad.buf)[20] ^= 0x55;
	EXPECT_NE(0, nsim_load(fd, &bad, 0, NULL, &l, log, sizeof(log)));
	bads += bin_has_kptr(&l, sizeof(l), "LOAD (refused)");
	bads += text_has_kptr(log, strnlen(log, sizeof(log)), "LOAD log_buf");
	memset(&mi, 0, sizeof(mi));
	mi.model_id = id;
	ASSERT_EQ(0, ioctl(fd, NEURONSIM_IOC_MODEL_INFO, &mi));
	bads += bin_has_kptr(&mi, sizeof(mi), "MODEL_INFO");
	ASSERT_EQ(0, nsim_resolve_first_vars(fd, id, e, V0_N));
	bads += bin_has_kptr(e, sizeof(e), "RESOLVE_BATCH entries");
	bads += scan_tree(DBGFS_ROOT);
	bads += scan_tree("/sys/module/neuronsim/parameters");
	ASSERT_EQ(0, nsim_unload(fd, id));
	n = klogctl(10, NULL, 0);	/* SYSLOG_ACTION_SIZE_BUFFER */
	ASSERT_LT(0, n);
	kl = malloc(n + 1);
	ASSERT_NE(NULL, kl);
	n = klogctl(3, kl, n);		/* SYSLOG_ACTION_READ_ALL */
	ASSERT_LE(0, n);
	bads += text_has_kptr(kl, n, "kernel log");
	/* with dynamic debug on, the loads above must have been logged */
	if (dyn)
		EXPECT_NE(NULL, memmem(kl, n, "Staged memref", 13));
	printf("# scanned GET_INFO, LOAD, MODEL_INFO, RESOLVE_BATCH, debugfs, parameters and %d bytes of kernel log (dynamic debug %s)\n",
	       n, dyn ? "on" : "unavailable");
	fflush(stdout);
	EXPECT_EQ(0, bads);
	dyndbg(_metadata, "-p");
	free(kl);
	free(bad.buf);
	plan_free(&p);
	close(fd);
}

/* ---- netlink: visibility and kernel pointers ---- */

struct nlscan {
	int bad;
	int msgs;
};

/* every attribute: 8-byte values must not be kernel addresses, strings not */
static int scan_msg(struct nlmsghdr *h, void *arg)
{
	struct nlscan *sc = arg;
	struct genlmsghdr *g = NLMSG_DATA(h);
	struct nlattr *a = (void *)((char *)g + GENL_HDRLEN);
	int len = h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	char what[64];

	sc->msgs++;
	for (; len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= len;
	     len -= NLA_ALIGN(a->nla_len),
	     a = (void *)((char *)a + NLA_ALIGN(a->nla_len))) {
		const char *p = (char *)a + NLA_HDRLEN;
		int n = a->nla_len - NLA_HDRLEN;

		snprintf(what, sizeof(what), "netlink cmd %u attr %u", g->cmd,
			 a->nla_type);
		if (n == 8)
			sc->bad += bin_has_kptr(p, 8, what);
		sc->bad += text_has_kptr(p, n, what);
	}
	return 0;
}

TEST_F_TIMEOUT(h, netlink_visibility_and_pointers, 900)
{
	struct neuronsim_info info;
	struct nlscan sc = { 0 };
	struct plan p;
	uint16_t fam;
	uint32_t id;
	int fd, sk, status;
	pid_t pid;

	sk = nl_open(&fam);
	if (sk < 0)
		SKIP(return, "generic netlink family \"%s\" not registered",
		     NEURONSIM_GENL_NAME);
	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	ASSERT_EQ(0, plan_std(&info, &p));
	ASSERT_EQ(0, nsim_load(fd, &p, 0, &id, NULL, NULL, 0));
	EXPECT_EQ(0, genl_req(sk, fam, NEURONSIM_CMD_GET_DEVICE, 0, 0,
			      scan_msg, &sc));
	EXPECT_EQ(0, genl_req(sk, fam, NEURONSIM_CMD_GET_MODEL, 1, 0,
			      scan_msg, &sc));
	EXPECT_EQ(0, genl_req(sk, fam, NEURONSIM_CMD_GET_VARS, 1, id,
			      scan_msg, &sc));
	printf("# netlink: %d messages scanned\n", sc.msgs);
	fflush(stdout);
	EXPECT_LT(V0_N, sc.msgs);
	EXPECT_EQ(0, sc.bad);
	/* uid 65534, no capability: counts yes, names and addresses no */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int s2, r1, r2;

		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(100);
		s2 = nl_open(&fam);
		if (s2 < 0)
			_exit(101);
		r1 = genl_req(s2, fam, NEURONSIM_CMD_GET_MODEL, 0, id, NULL,
			      NULL);
		r2 = genl_req(s2, fam, NEURONSIM_CMD_GET_VARS, 1, id, NULL,
			      NULL);
		if (r1 || r2 != -EPERM) {
			printf("# as uid 65534: GET_MODEL %d (expected 0), GET_VARS %d (expected -EPERM)\n",
			       r1, r2);
			fflush(stdout);
			_exit(1);
		}
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, nsim_unload(fd, id));
	plan_free(&p);
	close(fd);
	close(sk);
}

/* ---- caps at their edge ---- */

FIXTURE(cap) {
	STD_FIXTURE_FIELDS;
};

FIXTURE_SETUP(cap)
{
	STD_FIXTURE_PLAN(self);
}

FIXTURE_TEARDOWN(cap)
{
	STD_FIXTURE_FREE(self);
}

/* text the failing load's log must contain, or NULL */
static const char *edge_log_wanted;

/* load at @at (must work, then unload) and at @over (must fail @err) */
static void edge(struct __test_metadata *_metadata, int fd,
		 const struct plan *p, const char *param,
		 unsigned long long at, unsigned long long over, int err,
		 uint32_t reason)
{
	unsigned long long old = nsim_param(param);
	struct neuronsim_load l;
	char log[512];
	uint32_t id;
	int ret;

	ASSERT_EQ(0, nsim_param_set(param, at));
	ret = nsim_load(fd, p, 0, &id, &l, log, sizeof(log));
	if (ret)
		TH_LOG("%s=%llu (exactly at the cap): load gave %d: %s", param,
		       at, ret, log);
	EXPECT_EQ(0, ret);
	if (!ret)
		EXPECT_EQ(0, nsim_unload(fd, id));
	ASSERT_EQ(0, nsim_param_set(param, over));
	ret = nsim_load(fd, p, 0, &id, &l, log, sizeof(log));
	if (ret != -err || l.err_reason != reason)
		TH_LOG("%s=%llu (one over the cap): load gave %d reason %u, expected %d reason %u: %s",
		       param, over, ret, l.err_reason, -err, reason, log);
	EXPECT_EQ(-err, ret);
	EXPECT_EQ(reason, l.err_reason);
	if (edge_log_wanted)
		EXPECT_NE(NULL, strstr(log, edge_log_wanted)) TH_LOG("log: %s", log);
	ASSERT_EQ(0, nsim_param_set(param, old));
}

TEST_F_TIMEOUT(cap, max_plan_bytes, 900)
{
	edge(_metadata, self->fd, &self->p, "max_plan_bytes", self->p.len,
	     self->p.len - 1, E2BIG, KBIN_ERR_STAGE_LIMIT);
	expect_base(_metadata, &self->base, "max_plan_bytes");
}

TEST_F_TIMEOUT(cap, max_loading_bytes, 900)
{
	/* one load alone: its plan_len is all of the budget it needs */
	edge_log_wanted = "above max_loading_bytes";
	edge(_metadata, self->fd, &self->p, "max_loading_bytes", self->p.len,
	     self->p.len - 1, E2BIG, KBIN_ERR_STAGE_LIMIT);
	edge_log_wanted = NULL;
	expect_base(_metadata, &self->base, "max_loading_bytes");
}

TEST_F_TIMEOUT(cap, max_vars_per_subgraph, 900)
{
	/* the standard plan's largest subgraph has V0_N records */
	edge(_metadata, self->fd, &self->p, "max_vars_per_subgraph", V0_N,
	     V0_N - 1, E2BIG, KBIN_ERR_STAGE_LIMIT);
	expect_base(_metadata, &self->base, "max_vars_per_subgraph");
}

TEST_F_TIMEOUT(cap, scratchpad_max_pages, 900)
{
	/* local and shared scratchpads each fit one page */
	edge(_metadata, self->fd, &self->p, "scratchpad_max_pages", 1, 0,
	     E2BIG, KBIN_ERR_STAGE_SCRATCHPAD);
	expect_base(_metadata, &self->base, "scratchpad_max_pages");
}

TEST_F_TIMEOUT(cap, max_models_per_fd, 900)
{
	unsigned long long old = nsim_param("max_models_per_fd");
	uint32_t id[4];
	int i, ret;

	ASSERT_EQ(0, nsim_param_set("max_models_per_fd", 3));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &id[i], NULL,
				       NULL, 0));
	ret = nsim_load(self->fd, &self->p, 0, &id[3], NULL, NULL, 0);
	EXPECT_EQ(-EMFILE, ret);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, nsim_unload(self->fd, id[i]));
	ASSERT_EQ(0, nsim_param_set("max_models_per_fd", old));
	expect_base(_metadata, &self->base, "max_models_per_fd");
}

TEST_F_TIMEOUT(cap, backing_limit, 900)
{
	unsigned long long old = nsim_param("backing_limit");
	struct stats s;
	uint8_t buf[4096];
	uint64_t a_in, a_tmp;
	uint32_t id;
	long long need;

	/* what one load of the plan needs */
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &id, NULL, NULL, 0));
	ASSERT_EQ(0, read_stats(&s));
	need = s.backing_bytes - self->base.backing_bytes;
	ASSERT_LT(0, need);
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	edge(_metadata, self->fd, &self->p, "backing_limit",
	     self->base.backing_bytes + need,
	     self->base.backing_bytes + need - 1, ENOMEM,
	     KBIN_ERR_STAGE_BACKING);
	/* WRITE_VAR: a fresh page exactly at the cap works, one over not */
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &id, NULL, NULL, 0));
	ASSERT_EQ(0, read_stats(&s));
	memset(buf, 0xa5, sizeof(buf));
	/* V0_IN and V0_TMP are HBM allocations of their own: different pages */
	ASSERT_EQ(0, nsim_resolve(self->fd, id, 0, V0_IN, 0, 1, &a_in));
	ASSERT_EQ(0, nsim_resolve(self->fd, id, 0, V0_TMP, 0, 1, &a_tmp));
	ASSERT_NE(a_in / 4096, a_tmp / 4096);
	ASSERT_EQ(0, nsim_param_set("backing_limit", s.backing_bytes + 4096));
	EXPECT_EQ(0, nsim_write_var(self->fd, id, 0, V0_IN, 0, buf, 64));
	EXPECT_EQ(-ENOMEM, nsim_write_var(self->fd, id, 0, V0_TMP, 0, buf, 64));
	ASSERT_EQ(0, nsim_param_set("backing_limit", old));
	EXPECT_EQ(0, nsim_write_var(self->fd, id, 0, V0_TMP, 0, buf, 64));
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	expect_base(_metadata, &self->base, "backing_limit");
}

/* a "NAME VALUE" line of debugfs hbm, or -1 */
static long long hbm_value(const char *name)
{
	char path[256], *t, *k;
	long long v = -1;

	dbgfs_path(path, sizeof(path), "hbm");
	t = read_file(path, NULL);
	if (t && (k = strstr(t, name)))
		v = strtoll(k + strlen(name), NULL, 10);
	free(t);
	return v;
}

TEST_F_TIMEOUT(cap, backing_limit_total, 900)
{
	long long total = hbm_value("backing_bytes_total "), need;
	struct stats s;
	uint32_t id;

	/* the pages of every device count, those of the other devices too */
	ASSERT_LE(0, total);
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &id, NULL, NULL, 0));
	ASSERT_EQ(0, read_stats(&s));
	need = s.backing_bytes - self->base.backing_bytes;
	ASSERT_LT(0, need);
	ASSERT_EQ(0, nsim_unload(self->fd, id));
	edge_log_wanted = "all devices";
	edge(_metadata, self->fd, &self->p, "backing_limit_total",
	     total + need, total + need - 1, ENOMEM, KBIN_ERR_STAGE_BACKING);
	edge_log_wanted = NULL;
	expect_base(_metadata, &self->base, "backing_limit_total");
}

TEST_F_TIMEOUT(cap, resolve_batch_max, 900)
{
	struct neuronsim_resolve_batch b;
	struct neuronsim_resolve_entry *e;
	size_t n = NEURONSIM_RESOLVE_BATCH_MAX + 1;
	uint32_t id;

	e = calloc(n, sizeof(*e));
	ASSERT_NE(NULL, e);
	ASSERT_EQ(0, nsim_load(self->fd, &self->p, 0, &id, NULL, NULL, 0));
	memset(&b, 0, sizeof(b));
	b.model_id = id;
	b.entries = (uintptr_t)e;
	b.count = NEURONSIM_RESOLVE_BATCH_MAX;
	EXPECT_EQ(0, ioctl(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b) ? -errno : 0);
	/* every entry is (sg 0, var 0, offset 0, size 0): all resolve */
	EXPECT_EQ(NEURONSIM_RESOLVE_BATCH_MAX, b.num_ok);
	b.count = NEURONSIM_RESOLVE_BATCH_MAX + 1;
	EXPECT_EQ(-EINVAL, ioctl(self->fd, NEURONSIM_IOC_RESOLVE_BATCH, &b) ? -errno : 0);
	EXPECT_EQ(0, nsim_unload(self->fd, id));
	free(e);
	expect_base(_metadata, &self->base, "resolve_batch_max");
}

NSIM_HARNESS_MAIN
