/* SPDX-License-Identifier: GPL-2.0 */
/*
 * plans.h - the test library's part for the kernel runtime selftests and
 * the VM bench (Documentation/running.rst, "The test library"): plans
 * built in-process with the KBIN writer (tl_rec.h), thin
 * ioctl wrappers that return 0 or -errno, debugfs readers, and the
 * checks every staged record of a loaded plan gets (plan_check_staged()).
 *
 * The device under test is $NSIM_DEV (a device index N: /dev/neuronsimN
 * and debugfs neuronsim/neuronsimN/); unset, the tests open the alias
 * /dev/neuronsim and read device 0's debugfs.  nsim_select_dev() changes
 * it for the rest of the program.  $NSIM_DBGFS, when set, is the debugfs
 * directory to read instead (e.g. neuronsim/ itself, to run a test
 * against a module of one device without per-device directories).
 */
#ifndef _NSIM_SELFTEST_PLANS_H
#define _NSIM_SELFTEST_PLANS_H

#include <stddef.h>
#include <stdint.h>

#include <linux/neuronsim.h>
#include <linux/neuronsim_kbin.h>

#include "libneuronsim.h"
#include "tl_text.h"
#include "tl_rec.h"

/* the debugfs directory of the module; each device has neuronsimN/ */
#define DBGFS_ROOT "/sys/kernel/debug/neuronsim"

/* the standard plan: every kind, two subgraphs (see plans.c) */
enum {
	V0_SB, V0_WEIGHT, V0_STAGED, V0_BIAS, V0_TMP, V0_IN, V0_OUT, V0_PTR,
	V0_VLOCAL, V0_VSHARED, V0_LIST, V0_TABLE, V0_REMOTE, V0_N
};
enum { V1_SB, V1_W, V1_REMOTE, V1_IN, V1_N };

/* sizes of the standard plan's variables */
#define STD_WEIGHT_SIZE		4196ULL
#define STD_STAGED_SIZE		256ULL
#define STD_W1_SIZE		1024ULL
/* what its LOCAL virtual buffer needs: vlocal, 1024 bytes at 4096 */
#define STD_LOCAL_SP		5120ULL
#define STD_SHARED_SP		4096ULL

struct plan {
	void *buf;
	size_t len;
};

struct stats {
	long long models, mem_refs, kmem_bytes, backing_bytes, hbm_used;
};

/* debugfs stats plus the "used" bytes of each channel of debugfs hbm */
struct snap {
	struct stats st;
	char hbm_used[512];	/* "C:U " per channel */
};

/*
 * The kselftest fixtures on the device and the standard plan: FIXTURE()
 * holds STD_FIXTURE_FIELDS (fd, info, the plan p, model id, stats base);
 * FIXTURE_SETUP() runs STD_FIXTURE_OPEN(self) (open the device, GET_INFO,
 * the debugfs stats as base), STD_FIXTURE_PLAN(self) (that and plan_std())
 * or STD_FIXTURE_LOAD(self) (that and LOAD of the plan as self->id);
 * FIXTURE_TEARDOWN() STD_FIXTURE_FREE(self).  EMPTY_FIXTURE(name) is a
 * fixture with nothing in it, for TEST_F_TIMEOUT().
 */
#define STD_FIXTURE_FIELDS \
	int fd; \
	struct neuronsim_info info; \
	struct plan p; \
	uint32_t id; \
	struct stats base
#define STD_FIXTURE_OPEN(self) do { \
	(self)->fd = nsim_open(); \
	ASSERT_LE(0, (self)->fd); \
	ASSERT_EQ(0, nsim_get_info((self)->fd, &(self)->info)); \
	ASSERT_EQ(0, read_stats(&(self)->base)); \
} while (0)
#define STD_FIXTURE_PLAN(self) do { \
	STD_FIXTURE_OPEN(self); \
	ASSERT_EQ(0, plan_std(&(self)->info, &(self)->p)); \
} while (0)
#define STD_FIXTURE_LOAD(self) do { \
	STD_FIXTURE_PLAN(self); \
	ASSERT_EQ(0, nsim_load((self)->fd, &(self)->p, 0, &(self)->id, NULL, NULL, 0)); \
} while (0)
#define STD_FIXTURE_FREE(self) do { \
	plan_free(&(self)->p); \
	close((self)->fd); \
} while (0)
#define EMPTY_FIXTURE(name) \
	FIXTURE(name) { int unused; }; \
	FIXTURE_SETUP(name) {} \
	FIXTURE_TEARDOWN(name) {}

/* in a kselftest: take a snapshot or fail the test */
#define SNAP_TAKE(s) \
	ASSERT_EQ(0, snap_read(s)) TH_LOG("debugfs stats/hbm unreadable or no 'channel C ... used U' line")

/*
 * in a kselftest: the debugfs stats counters are back at @base (a struct
 * stats read before): models, mem_refs, kmem_bytes, hbm_used,
 * backing_bytes
 */
#define EXPECT_STATS_AT(base) do { \
	struct stats _s; \
	ASSERT_EQ(0, read_stats(&_s)); \
	EXPECT_EQ((base)->models, _s.models); \
	EXPECT_EQ((base)->mem_refs, _s.mem_refs); \
	EXPECT_EQ((base)->kmem_bytes, _s.kmem_bytes); \
	EXPECT_EQ((base)->hbm_used, _s.hbm_used); \
	EXPECT_EQ((base)->backing_bytes, _s.backing_bytes); \
} while (0)

/* in a kselftest: two snapshots agree; @when names the moment */
#define EXPECT_SNAP_EQ(a, b, when) do { \
	EXPECT_EQ((a).st.models, (b).st.models) TH_LOG("stats models %s", when); \
	EXPECT_EQ((a).st.mem_refs, (b).st.mem_refs) TH_LOG("stats mem_refs %s", when); \
	EXPECT_EQ((a).st.kmem_bytes, (b).st.kmem_bytes) TH_LOG("stats kmem_bytes %s", when); \
	EXPECT_EQ((a).st.backing_bytes, (b).st.backing_bytes) TH_LOG("stats backing_bytes %s", when); \
	EXPECT_EQ((a).st.hbm_used, (b).st.hbm_used) TH_LOG("stats hbm_used %s", when); \
	EXPECT_STREQ((a).hbm_used, (b).hbm_used) TH_LOG("debugfs hbm channel used %s", when); \
} while (0)

struct kbin_writer;

/* the device under test: its index, -1 for the alias (device 0) */
int nsim_dev_index(void);
void nsim_select_dev(int index);
/* its debugfs directory, DBGFS_ROOT "/neuronsimN" */
const char *nsim_dbgfs(void);
/* DBGFS_ROOT "/neuronsimN/" @fmt... into @buf */
char *dbgfs_path(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int nsim_open(void);
/* the module's parameters (Documentation/security.rst, "Caps") */
#define NSIM_PARAM_DIR	"/sys/module/neuronsim/parameters/"
/* module parameter @name's value; 0 when it cannot be read */
unsigned long long nsim_param(const char *name);
/* write @value (text) into module parameter @name: 0 or -errno */
int nsim_param_write(const char *name, const char *value);
/* write the number @v into module parameter @name: 0 or -errno */
int nsim_param_set(const char *name, unsigned long long v);
/*
 * how many times longer a time bound of a test may be on this kernel:
 * NSIM_TIME_SCALE (1..100, default 1; the debug-kernel lane sets 10,
 * Documentation/running.rst)
 */
unsigned int nsim_time_scale(void);
#ifdef TEST_HARNESS_MAIN
/*
 * TEST_HARNESS_MAIN, with every test's harness timeout (30 s, or the one
 * TEST_F_TIMEOUT gives) times nsim_time_scale(): the time bounds inside a
 * test grow with the scale, so the time the harness gives the whole test
 * must grow with them (Documentation/running.rst, "Timeouts").  Use once,
 * at the end of a selftest, instead of TEST_HARNESS_MAIN.
 */
#ifdef _CONSTRUCTOR_ORDER_BACKWARD
#define NSIM_HARNESS_ORDER						\
	static void __attribute__((constructor))			\
	__constructor_order_last(void)					\
	{								\
		if (!__constructor_order)				\
			__constructor_order = _CONSTRUCTOR_ORDER_BACKWARD; \
	}
#else
#define NSIM_HARNESS_ORDER
#endif
#define NSIM_HARNESS_MAIN						\
	NSIM_HARNESS_ORDER						\
	int main(int argc, char **argv)					\
	{								\
		unsigned int scale = nsim_time_scale();			\
		struct __fixture_metadata *f;				\
		struct __test_metadata *t;				\
									\
		for (f = __fixture_list; f; f = f->next)		\
			for (t = f->tests; t; t = t->next)		\
				t->timeout *= scale;			\
		return test_harness_run(argc, argv);			\
	}
#endif
/*
 * the bound, in ms, within which UNLOAD, close or a signal stops a run or
 * an execution that is moving bytes ("promptly"; times nsim_time_scale()):
 * 1.5 times the slowest stop measured (1,407 ms in a VM on a 2-core
 * machine loaded by six parallel builds; 300-850 ms on an idle one),
 * rounded up (Documentation/running.rst, "Timeouts")
 */
#define NSIM_PROMPT_MS	2500ULL
int nsim_open_dev(unsigned int index);
/*
 * The directory of a test's data (plans compiled on the host): @arg when
 * given, else $NSIM_DATA/@area, else "data/@area" next to the test
 * program (where selftests/Makefile installs it).  Static storage.
 */
const char *nsim_data_dir(const char *arg, const char *area);
int nsim_get_info(int fd, struct neuronsim_info *info);
uint8_t payload_byte(unsigned int var, uint64_t i);
int plan_std(const struct neuronsim_info *info, struct plan *p);
/* the standard plan as KBIN version 1: no DMA section */
int plan_std_v1(const struct neuronsim_info *info, struct plan *p);
/*
 * the standard plan with a program (KBIN version 3): sg00's SP starts
 * qSPIO0's blocks with @triggers triggers (2 is right; 1 is a
 * trigger-count mismatch the checker refuses), PE waits for them
 */
int plan_std_prog(const struct neuronsim_info *info, int triggers,
		  struct plan *p);
/*
 * plan_std_prog(, 2, ) with a deadlock: ACT adds 1 to semaphore 4, DVE's
 * one instruction (0x41) waits for it to reach 2
 */
int plan_std_deadlock(const struct neuronsim_info *info, struct plan *p);
int plan_buffers(const struct neuronsim_info *info, unsigned int n,
		 uint64_t size, int with_payload, struct plan *p);
void plan_free(struct plan *p);
/* records are added with TL_ADD() and struct tl_rec (tl_rec.h) */
/* when @e (OR of the add results) is 0, the plan into @p; frees @w */
int plan_finish(struct kbin_writer *w, int e, struct plan *p);
int nsim_load(int fd, const struct plan *p, uint32_t first_core,
	      uint32_t *model_id, struct neuronsim_load *out, char *log,
	      size_t log_size);
int nsim_unload(int fd, uint32_t model_id);
int nsim_resolve(int fd, uint32_t model, uint32_t sg, uint32_t var,
		 uint64_t off, uint64_t size, uint64_t *addr);
/*
 * RESOLVE_BATCH of subgraph 0's var_ids 0..@n-1 of @model, one byte at
 * offset 0 each: @e[@n] is overwritten with those entries and the
 * results (status, address).  0, or -errno of the ioctl.
 */
int nsim_resolve_first_vars(int fd, uint32_t model,
			    struct neuronsim_resolve_entry *e, uint32_t n);
int nsim_read_var(int fd, uint32_t model, uint32_t sg, uint32_t var,
		  uint64_t off, void *buf, uint64_t len);
int nsim_write_var(int fd, uint32_t model, uint32_t sg, uint32_t var,
		   uint64_t off, const void *buf, uint64_t len);
int read_stats(struct stats *s);

/*
 * A loaded plan under check (neff_test, bir_test): @name starts each
 * failure line, @fails counts the failures; @fd, @id (model id) and
 * @info are the device it is loaded on.
 */
struct plan_check {
	const char *name;
	unsigned int *fails;
	const struct neuronsim_info *info;
	int fd;
	uint32_t id;
};
/* the failure lines printed per plan; the rest are only counted */
#define PLAN_FAIL_LINES	20
/*
 * One failure of plan @name: *@fails grows by one; the first
 * PLAN_FAIL_LINES are printed as the KTAP comment "# NAME: message".
 */
void plan_fail(const char *name, unsigned int *fails, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
struct kbin_view;
/*
 * The checks of record @rec of subgraph @s (of view @v of the plan @c
 * loaded) that every kind gets: RESOLVE of its whole size (a pointer
 * table's entries, an MR_SB one partition) gives a staged address, one
 * byte more -ERANGE, an MR_LIST -ENODATA; a pointer's address is its
 * target's and offset 1 is -EINVAL; an HBM var lies in one HBM channel
 * at its alignment.  Failures go to plan_fail().
 * Return: the record's storage (enum kbin_storage) with the size checked
 * in *@size and its address in *@addr, for the caller's own checks; -1
 * when there is nothing more to check (an MR_LIST, a failed RESOLVE).
 */
int plan_check_staged(const struct plan_check *c, const struct kbin_view *v,
		      uint32_t s, const struct kbin_mem_ref *rec,
		      uint64_t *size, uint64_t *addr);
/*
 * READ_VAR of weight @rec (@size bytes, subgraph @s) equals the payload
 * the plan @v has for it; failures go to plan_fail().
 * Return: the bytes read (malloc()ed, the caller frees them), NULL when
 * they could not be read.
 */
uint8_t *plan_check_weight(const struct plan_check *c,
			   const struct kbin_view *v, uint32_t s,
			   const struct kbin_mem_ref *rec, uint64_t size);
int nsim_in_hbm(const struct neuronsim_info *info, uint64_t a, uint64_t n);
int write_knob(const char *name, long value);
/*
 * ioctl(@fd, @req, @arg) that must fail: its errno when it returned -1,
 * 0 when it did not fail; EXPECT_EQ(EINVAL, ioctl_errno(..)) checks both.
 */
int ioctl_errno(int fd, unsigned long req, void *arg);
/* write @text to a file (sysfs, debugfs): 0 or -errno */
int write_text(const char *path, const char *text);
/* 1 when the kernel log since the last SYSLOG_ACTION_CLEAR has @what */
int klog_has(const char *what);
char *read_file(const char *path, size_t *len);
/* the number a file (a counter, a knob) holds; -1 when it cannot be read */
long long read_number(const char *path);
int snap_read(struct snap *s);
/*
 * The DMA engine tests' plan (run_test, run_stress_test): one subgraph,
 * the state buffer, input0 and output0 (@in_size bytes each, HBM) and two
 * queues: qIn (type in, semaphore ENGINE_SEM) of ENGINE_NB blocks, block b
 * one descriptor from ENGINE_SLICE elements of @ft at element b *
 * ENGINE_SLICE of input0 to byte 0 of SBUF partition b as @tt (a copy
 * when they are equal, else a cast); qOut (type data) one block copying
 * input0 to output0 in 64 KiB runs.
 */
#define ENGINE_NB	8
#define ENGINE_SLICE	4096U
#define ENGINE_SEM	7
enum { ENGINE_V_SB, ENGINE_V_IN, ENGINE_V_OUT };
int plan_engine(const struct neuronsim_info *info, uint64_t in_size,
		uint8_t ft, uint8_t tt, struct plan *p);
/*
 * A DMA test plan: subgraph sg00 (on the generation's SBUF) with the state
 * buffer as var 0 (PLAN_DMA_SB) and @nvars HBM variables, var i + 1 an
 * MR_INPUT "v<i>" of @sizes[i] bytes, 4096-byte aligned; with @remote, a
 * second subgraph sg01 holds var 0 its state buffer, var 1 an MR_BUFFER
 * "w1" of PLAN_DMA_W1 bytes and var 2 an MR_OUTPUT "o1" of as many, and
 * sg00 gets var @nvars + 1 "r_w1" and var @nvars + 2 "r_o1", MR_REMOTE on
 * them.  One data queue "q" (semaphore 3) in sg00 with one block per
 * descriptor of @d (@nd of them, copied as given: no rule is checked
 * here, so a test can hand the kernel what the checker must refuse).
 * Return 0 or the writer's negative errno.
 */
#define PLAN_DMA_SB	0
#define PLAN_DMA_W1	65536ULL
int plan_descs(const struct neuronsim_info *info, const uint64_t *sizes,
	     unsigned int nvars, int remote, const struct kbin_dma_desc *d,
	     unsigned int nd, struct plan *p);
/*
 * plan_descs() without remote variables, with a program: SP triggers
 * every block of queue "q" (num_queues 1, semaphore 3), then waits until
 * semaphore 3 reaches the blocks' count
 */
int plan_descs_prog(const struct neuronsim_info *info, const uint64_t *sizes,
		    unsigned int nvars, const struct kbin_dma_desc *d,
		    unsigned int nd, struct plan *p);
/*
 * plan_descs_prog() with two queues of SP, "q" and "r" (both num_queues 1,
 * semaphore 3): descriptor i is the next block of "q" when @qsel[i] is 0,
 * of "r" when 1, and SP's i-th trigger starts it
 */
int plan_descs_prog2(const struct neuronsim_info *info, const uint64_t *sizes,
		     unsigned int nvars, const struct kbin_dma_desc *d,
		     unsigned int nd, const uint8_t *qsel, struct plan *p);

/*
 * The long execution (EXECUTE tests): one subgraph whose SP starts one
 * block copying a PLAN_LONG_RUN-byte run of v1 (var 1, step 0) onto v2
 * (var 2) as often as max_run_bytes allows in 1 KiB UDMA descriptors,
 * then waits for it: it runs until stopped, for seconds.
 */
#define PLAN_LONG_RUN	1024U
extern const struct kbin_dma_desc plan_long_desc;
int plan_long(const struct neuronsim_info *info, struct plan *p);
/* DMA_RING bytes present over the HBM channels of debugfs hbm, or -1 */
/*
 * exec_vs_replay() - a kernel execution's result against the host replay
 * of its plan (userspace/cc/prog_replay.c, Documentation/execute.rst):
 * per subgraph its status (0 finished, -EDEADLK the replay's deadlock),
 * virtual time and final semaphores; per engine its counts by class and
 * opcode, busy and end time and where it waits; per DMA queue its blocks,
 * bytes and busy time; with @events every trace event, in order.
 * Return: the mismatches, the first 20 printed as "# @log: ..." lines.
 */
int exec_vs_replay(const struct neuronsim_exec_result *r, const struct plan *p,
		   int events, const char *log);
long long dma_ring_present(void);

/*
 * in a kselftest: every string @want... is in the file @path (debugfs,
 * sysfs), read whole with read_file(); a failure names the file and the
 * string and prints the file (tl_text.h, EXPECT_HAS())
 */
#define EXPECT_FILE_HAS(path, ...) do { \
	const char *_fh_path = (path); \
	char *_fh_text = read_file(_fh_path, NULL); \
	ASSERT_NE(NULL, _fh_text) TH_LOG("%s: cannot read it", _fh_path); \
	EXPECT_HAS_IN(_fh_text, _fh_path, __VA_ARGS__); \
	free(_fh_text); \
} while (0)

/*
 * One bad field of an ioctl's argument and the errno the ioctl must give
 * with it, for EXPECT_IOCTL_POKES(): IOCTL_POKE(struct neuronsim_load,
 * flags, 1, EINVAL) is the field .flags of a struct neuronsim_load set
 * to 1 (a field of 1, 2, 4 or 8 bytes; an array element such as
 * reserved[1] too).
 */
struct ioctl_poke {
	const char *field;
	size_t off;
	size_t size;
	uint64_t value;
	int err;
};
#define IOCTL_POKE(type, f, v, e) \
	{ #f, offsetof(type, f), sizeof(((type *)0)->f), (v), (e) }
/*
 * ioctl(@fd, @req) on a copy of @arg (@size bytes) with the field of
 * @poke set to its value: the errno when it failed, 0 when it did not
 * (ioctl_errno()); -1 when @poke's field is not within @size bytes or
 * not of 1, 2, 4 or 8 bytes.  @arg itself is not changed.
 */
int ioctl_poke_errno(int fd, unsigned long req, const void *arg, size_t size,
		     const struct ioctl_poke *poke);
/*
 * in a kselftest: ioctl(@fd, @req) with *@arg and, one at a time, each
 * poke of the array @pokes gives the poke's errno; a failure names the
 * request, the field and its value
 */
#define EXPECT_IOCTL_POKES(fd, req, arg, pokes) do { \
	size_t _ip_i; \
	for (_ip_i = 0; _ip_i < sizeof(pokes) / sizeof((pokes)[0]); _ip_i++) { \
		const struct ioctl_poke *_ip = &(pokes)[_ip_i]; \
		EXPECT_EQ(_ip->err, ioctl_poke_errno((fd), (req), (arg), \
						     sizeof(*(arg)), _ip)) \
			TH_LOG("%s with %s = %llu", #req, _ip->field, \
			       (unsigned long long)_ip->value); \
	} \
} while (0)

#endif /* _NSIM_SELFTEST_PLANS_H */
