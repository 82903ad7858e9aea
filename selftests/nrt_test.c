// SPDX-License-Identifier: GPL-2.0
/*
 * nrt_test.c - neuronsim's libnrt-compatible runtime in the VM
 * (Documentation/nrt.rst): every NRT_STATUS of the status table provoked
 * (calls before nrt_init and after nrt_close, a corrupt NEFF, a bad
 * handle, a wrong tensor size, HBM exhausted, cores another process
 * holds, a core busy with another execution, a deadlock), the environment
 * (visible cores, log level), the tensor calls, concurrent nrt_execute
 * from several threads on one model and on several, the device back at
 * its baseline after nrt_close with models and tensors left behind, and
 * after an nrt_close that waits for another thread's execution while
 * nrt_init is refused; a tensor allocated and freed 200000 times leaves
 * the heap as it was.
 *
 * The models (device 0, trn2): the bundled BIR models' NEFFs
 * (data/bir/NAME.neff) with the inputs and expected outputs of
 * data/nrt/bir/, and data/nrt/deadlock.neff (mkneff bad deadlock), whose
 * DVE waits for a value nothing adds.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nrt/nrt.h>
#include <nrt/nrt_experimental.h>

#include "kselftest_harness.h"
#include "plans.h"

/* the bytes of file @dir/@name ('/' of the name as '_'); NULL if absent */
static void *nrt_file(const char *dir, const char *name, size_t *len)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	for (p = path + strlen(dir) + 1; *p; p++)
		if (*p == '/')
			*p = '_';
	return read_file(path, len);
}

/* one bundled BIR model: its NEFF bytes, input and expected dirs */
struct bir_model {
	char name[64];
	void *neff;
	size_t neff_len;
	char in[PATH_MAX], expect[PATH_MAX];
};

/* the @k-th model of data/nrt/bir/models.txt; 0 or -ENOENT */
static int bir_model(unsigned int k, struct bir_model *m)
{
	char bir[PATH_MAX / 2], nrt[PATH_MAX / 2], path[PATH_MAX], *list, *line, *save = NULL;
	size_t len;

	/* nsim_data_dir()'s answer is static storage: one copy each */
	snprintf(bir, sizeof(bir), "%s", nsim_data_dir(NULL, "bir"));
	snprintf(nrt, sizeof(nrt), "%s", nsim_data_dir(NULL, "nrt"));

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/bir/models.txt", nrt);
	list = read_file(path, &len);
	if (!list)
		return -ENOENT;
	for (line = strtok_r(list, "\n", &save); line && k; line = strtok_r(NULL, "\n", &save))
		k--;
	if (!line) {
		free(list);
		return -ENOENT;
	}
	snprintf(m->name, sizeof(m->name), "%s", line);
	free(list);
	snprintf(path, sizeof(path), "%s/%s.neff", bir, m->name);
	m->neff = read_file(path, &m->neff_len);
	snprintf(m->in, sizeof(m->in), "%s/bir/%s.in", nrt, m->name);
	snprintf(m->expect, sizeof(m->expect), "%s/bir/%s.expect", nrt, m->name);
	return m->neff ? 0 : -ENOENT;
}

/* the model's tensors: one device tensor per input and output */
struct io {
	nrt_tensor_info_array_t *info;
	nrt_tensor_t *t[64];
	nrt_tensor_set_t *in, *out;
};

/* tensors on @vnc for every input (written from @m's inputs) and output */
static NRT_STATUS io_setup(nrt_model_t *model, const struct bir_model *m, int vnc,
			   struct io *io)
{
	NRT_STATUS s;
	uint64_t i;

	memset(io, 0, sizeof(*io));
	s = nrt_get_model_tensor_info(model, &io->info);
	if (!s)
		s = nrt_allocate_tensor_set(&io->in);
	if (!s)
		s = nrt_allocate_tensor_set(&io->out);
	for (i = 0; !s && i < io->info->tensor_count && i < 64; i++) {
		nrt_tensor_info_t *t = &io->info->tensor_array[i];
		int input = t->usage == NRT_TENSOR_USAGE_INPUT;
		size_t len = 0;
		void *b;

		s = nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, vnc, t->size, t->name,
					&io->t[i]);
		if (s)
			break;
		if (input) {
			b = nrt_file(m->in, t->name, &len);
			if (!b || len != t->size) {
				free(b);
				return NRT_FAILURE;
			}
			s = nrt_tensor_write(io->t[i], b, 0, len);
			free(b);
		}
		if (!s)
			s = nrt_add_tensor_to_tensor_set(input ? io->in : io->out, t->name,
							 io->t[i]);
	}
	return s;
}

/* every output of @io equals @m's expected bytes: 0, or the first index + 1 */
static int io_check(const struct bir_model *m, const struct io *io)
{
	uint64_t i;

	for (i = 0; i < io->info->tensor_count; i++) {
		nrt_tensor_info_t *t = &io->info->tensor_array[i];
		size_t len = 0;
		void *want, *got;
		int same;

		if (t->usage != NRT_TENSOR_USAGE_OUTPUT)
			continue;
		want = nrt_file(m->expect, t->name, &len);
		got = malloc(t->size ? t->size : 1);
		same = want && got && len == t->size &&
		       !nrt_tensor_read(io->t[i], got, 0, t->size) &&
		       !memcmp(want, got, t->size);
		free(want);
		free(got);
		if (!same)
			return (int)i + 1;
	}
	return 0;
}

static void io_free(struct io *io)
{
	unsigned int i;

	for (i = 0; i < 64; i++)
		nrt_tensor_free(&io->t[i]);
	nrt_destroy_tensor_set(&io->in);
	nrt_destroy_tensor_set(&io->out);
	nrt_free_model_tensor_info(io->info);
	io->info = NULL;
}

static void use_device(unsigned int dev)
{
	char v[16];

	snprintf(v, sizeof(v), "%u", dev);
	setenv("NEURONSIM_DEVICE", v, 1);
	nsim_select_dev((int)dev);
}

#define NEED_BIR(m) do { \
	if (bir_model(0, (m))) \
		SKIP(return, "no bundled BIR model NEFF in %.900s", nsim_data_dir(NULL, "bir")); \
} while (0)

TEST(before_init_and_after_close)
{
	nrt_version_t ver;
	nrt_model_t *model = NULL;
	uint32_t n = 0;
	char b[4] = "x";

	use_device(0);
	/* may be called before nrt_init */
	ASSERT_EQ(NRT_SUCCESS, nrt_get_version(&ver, sizeof(ver)));
	EXPECT_EQ(NRT_MAJOR_VERSION, ver.rt_major);
	EXPECT_EQ(0, strncmp(ver.rt_detail, "neuronsim ", 10));
	ASSERT_EQ(NRT_SUCCESS, nrt_get_total_nc_count(&n));
	EXPECT_LT(0, n);
	{
		nrt_instance_info_t ii;

		ASSERT_EQ(NRT_SUCCESS, nrt_get_instance_info(&ii, sizeof(ii)));
		EXPECT_EQ(NRT_INSTANCE_TRN2, ii.family);
		EXPECT_STREQ("trn2", ii.arch_name);
	}
	EXPECT_EQ(NRT_UNINITIALIZED, nrt_load(b, sizeof(b), -1, -1, &model));
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	EXPECT_EQ(NRT_INVALID, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	nrt_close();
	EXPECT_EQ(NRT_CLOSED, nrt_load(b, sizeof(b), -1, -1, &model));
	EXPECT_EQ(NRT_INVALID, nrt_init(NRT_FRAMEWORK_TYPE_INVALID, "", ""));
	/* again after a close */
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_PYTORCH, "2.1", "1"));
	nrt_close();
}

TEST(corrupt_neff_is_invalid)
{
	struct bir_model m;
	nrt_model_t *model = NULL;
	uint8_t *bad;

	use_device(0);
	NEED_BIR(&m);
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	bad = malloc(m.neff_len);
	ASSERT_NE(NULL, bad);
	memcpy(bad, m.neff, m.neff_len);
	bad[m.neff_len - 1] ^= 0x5a;	/* the data region: the MD5 differs */
	EXPECT_EQ(NRT_INVALID, nrt_load(bad, m.neff_len, -1, -1, &model));
	EXPECT_EQ(NRT_INVALID, nrt_load(m.neff, 512, -1, -1, &model));
	EXPECT_EQ(NRT_INVALID, nrt_load(NULL, 0, -1, -1, &model));
	EXPECT_EQ(NRT_INVALID, nrt_load(m.neff, m.neff_len, -1, 7, &model));
	EXPECT_EQ(NULL, model);
	free(bad);
	free(m.neff);
	nrt_close();
}

TEST(bad_handles_and_wrong_sizes)
{
	nrt_tensor_t *t = NULL, *small = NULL, *freed;
	nrt_model_t *model = NULL;
	struct bir_model m;
	uint32_t n;
	struct io io;
	uint64_t i;
	int fake;

	use_device(0);
	NEED_BIR(&m);
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	ASSERT_EQ(NRT_SUCCESS, nrt_load(m.neff, m.neff_len, -1, -1, &model));
	EXPECT_EQ(NRT_INVALID_HANDLE, nrt_unload((nrt_model_t *)&fake));
	EXPECT_EQ(NRT_INVALID_HANDLE, nrt_get_model_nc_count((nrt_model_t *)&fake, &n));
	ASSERT_EQ(NRT_SUCCESS, io_setup(model, &m, 0, &io));
	/* an input of the wrong size, then a missing one: NRT_EXEC_BAD_INPUT */
	for (i = 0; i < io.info->tensor_count; i++)
		if (io.info->tensor_array[i].usage == NRT_TENSOR_USAGE_INPUT)
			break;
	ASSERT_LT(i, io.info->tensor_count);
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_HOST, -1,
						   io.info->tensor_array[i].size + 4, "big", &small));
	ASSERT_EQ(NRT_SUCCESS, nrt_add_tensor_to_tensor_set(io.in, io.info->tensor_array[i].name, small));
	EXPECT_EQ(NRT_EXEC_BAD_INPUT, nrt_execute(model, io.in, io.out));
	EXPECT_EQ(NRT_EXEC_BAD_INPUT, nrt_execute(model, io.out, io.out));
	/* a freed tensor in a set: NRT_INVALID_HANDLE */
	freed = small;
	nrt_tensor_free(&small);
	EXPECT_EQ(NULL, small);
	EXPECT_EQ(NRT_INVALID_HANDLE, nrt_execute(model, io.in, io.out));
	EXPECT_EQ(NRT_INVALID_HANDLE, nrt_tensor_write(freed, &n, 0, 4));
	EXPECT_EQ(0, nrt_tensor_get_size(freed));
	/* the right one again: it executes, outputs as expected */
	ASSERT_EQ(NRT_SUCCESS, nrt_add_tensor_to_tensor_set(io.in, io.info->tensor_array[i].name,
							    io.t[i]));
	EXPECT_EQ(NRT_SUCCESS, nrt_execute(model, io.in, io.out));
	EXPECT_EQ(0, io_check(&m, &io)) TH_LOG("%s: an output differs", m.name);
	EXPECT_EQ(NRT_SUCCESS, nrt_execute_repeat(model, io.in, io.out, 3));
	EXPECT_EQ(0, io_check(&m, &io)) TH_LOG("%s: an output differs after 3 more", m.name);
	ASSERT_EQ(NRT_SUCCESS, nrt_get_model_nc_count(model, &n));
	EXPECT_EQ(1, n);
	/* a range past a tensor's end */
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0, 64, "t", &t));
	EXPECT_EQ(NRT_INVALID, nrt_tensor_write(t, &n, 62, 4));
	EXPECT_EQ(NRT_INVALID, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 999, 64, "t", &small));
	EXPECT_EQ(NRT_INVALID, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0, 0, "t", &small));
	io_free(&io);
	nrt_tensor_free(&t);
	EXPECT_EQ(NRT_SUCCESS, nrt_unload(model));
	EXPECT_EQ(NRT_INVALID_HANDLE, nrt_unload(model));
	free(m.neff);
	nrt_close();
}

TEST(hbm_exhausted_is_resource)
{
	nrt_tensor_t *t[4096] = { NULL };
	nrt_model_t *model = NULL;
	struct neuronsim_info info;
	struct bir_model m;
	NRT_STATUS s = NRT_SUCCESS;
	uint64_t chunk;
	unsigned int n = 0, i;
	int fd;

	use_device(0);
	NEED_BIR(&m);
	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	close(fd);
	chunk = info.hbm_channel_size / 4;
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	while (n < 4096 && !(s = nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0, chunk,
						       "fill", &t[n])))
		n++;
	EXPECT_EQ(NRT_RESOURCE, s) TH_LOG("after %u tensors of %llu bytes", n,
					  (unsigned long long)chunk);
	/* and a load now finds no room */
	EXPECT_EQ(NRT_RESOURCE, nrt_load(m.neff, m.neff_len, -1, -1, &model));
	for (i = 0; i < n; i++)
		nrt_tensor_free(&t[i]);
	EXPECT_EQ(NRT_SUCCESS, nrt_load(m.neff, m.neff_len, -1, -1, &model));
	free(m.neff);
	nrt_close();
}

TEST(cores_another_process_holds)
{
	int go[2], ready[2], status = 0;
	nrt_model_t *model = NULL;
	struct bir_model m;
	uint32_t n = 0;
	pid_t pid;
	char c;

	use_device(0);
	NEED_BIR(&m);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		/* the other process: holds NeuronCore 0 until told */
		close(go[1]);
		close(ready[0]);
		if (nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", "") ||
		    nrt_load(m.neff, m.neff_len, 0, -1, &model))
			_exit(1);
		c = 'r';
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(2);
		nrt_close();
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	EXPECT_EQ(NRT_LOAD_NOT_ENOUGH_NC, nrt_load(m.neff, m.neff_len, 0, -1, &model));
	EXPECT_EQ(NRT_LOAD_NOT_ENOUGH_NC, nrt_load(m.neff, m.neff_len, 4096, -1, &model));
	ASSERT_EQ(NRT_SUCCESS, nrt_get_visible_nc_count(&n));
	if (n > 1) {	/* -1: the first free core, past the other's */
		nrt_model_info_t mi;
		size_t got;

		ASSERT_EQ(NRT_SUCCESS, nrt_load(m.neff, m.neff_len, -1, -1, &model));
		ASSERT_EQ(NRT_SUCCESS, nrt_get_model_info(model, &mi, sizeof(mi), &got));
		EXPECT_NE(0, mi.vnc);
	}
	nrt_close();
	c = 'g';
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, status);
	free(m.neff);
}

TEST(core_busy_with_another_execution)
{
	nrt_model_t *model = NULL;
	struct neuronsim_info info;
	struct bir_model m;
	uint32_t long_id;
	struct plan p;
	struct io io;
	struct neuronsim_exec x = { 0 };
	NRT_STATUS s = NRT_FAILURE;
	unsigned int i;
	int fd;

	use_device(0);
	NEED_BIR(&m);
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	ASSERT_EQ(NRT_SUCCESS, nrt_load(m.neff, m.neff_len, 0, -1, &model));
	ASSERT_EQ(NRT_SUCCESS, io_setup(model, &m, 0, &io));
	/* the same process, another descriptor: a long execution on core 0 */
	fd = nsim_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, nsim_get_info(fd, &info));
	ASSERT_EQ(0, plan_long(&info, &p));
	ASSERT_EQ(0, nsim_load(fd, &p, 0, &long_id, NULL, NULL, 0));
	plan_free(&p);
	x.model_id = long_id;
	ASSERT_EQ(0, ioctl(fd, NEURONSIM_IOC_EXECUTE, &x));
	EXPECT_EQ(NRT_EXEC_NC_BUSY, nrt_execute(model, io.in, io.out));
	close(fd);	/* stops it, promptly */
	for (i = 0; i < 50 * nsim_time_scale(); i++) {
		s = nrt_execute(model, io.in, io.out);
		if (s != NRT_EXEC_NC_BUSY)
			break;
		usleep(100000);
	}
	EXPECT_EQ(NRT_SUCCESS, s);
	EXPECT_EQ(0, io_check(&m, &io));
	io_free(&io);
	free(m.neff);
	nrt_close();
}

TEST(deadlock_is_timeout)
{
	nrt_tensor_info_array_t *info = NULL;
	nrt_tensor_set_t *in = NULL, *out = NULL;
	nrt_tensor_t *t[64] = { NULL };
	nrt_model_t *model = NULL;
	char path[PATH_MAX];
	size_t len = 0;
	uint64_t i;
	void *neff;

	use_device(0);
	snprintf(path, sizeof(path), "%s/deadlock.neff", nsim_data_dir(NULL, "nrt"));
	neff = read_file(path, &len);
	if (!neff)
		SKIP(return, "no %.900s", path);
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	ASSERT_EQ(NRT_SUCCESS, nrt_load(neff, len, -1, -1, &model));
	ASSERT_EQ(NRT_SUCCESS, nrt_get_model_tensor_info(model, &info));
	ASSERT_EQ(NRT_SUCCESS, nrt_allocate_tensor_set(&in));
	ASSERT_EQ(NRT_SUCCESS, nrt_allocate_tensor_set(&out));
	/* host tensors for the inputs, virtual ones for the outputs */
	for (i = 0; i < info->tensor_count && i < 64; i++) {
		nrt_tensor_info_t *ti = &info->tensor_array[i];
		int input = ti->usage == NRT_TENSOR_USAGE_INPUT;

		ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate(input ? NRT_TENSOR_PLACEMENT_HOST :
							   NRT_TENSOR_PLACEMENT_VIRTUAL, -1,
							   ti->size, ti->name, &t[i]));
		ASSERT_EQ(NRT_SUCCESS, nrt_add_tensor_to_tensor_set(input ? in : out, ti->name,
								    t[i]));
	}
	EXPECT_EQ(NRT_TIMEOUT, nrt_execute(model, in, out));
	nrt_free_model_tensor_info(info);
	nrt_destroy_tensor_set(&in);
	nrt_destroy_tensor_set(&out);
	free(neff);
	nrt_close();
}

TEST(tensor_calls)
{
	nrt_tensor_t *d = NULL, *d2 = NULL, *h = NULL, *s = NULL, *e = NULL;
	nrt_tensor_device_allocation_info_t ai;
	uint8_t buf[256], back[256], user[16];
	nrt_tensor_set_t *set = NULL;
	nrt_tensor_t *got = NULL;
	unsigned int i;

	use_device(0);
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 13 + 1);
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0, 256, "d", &d));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0, 256, "d2", &d2));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_HOST, -1, 256, "h", &h));
	EXPECT_EQ(256, nrt_tensor_get_size(d));
	/* zero-filled, written, read back */
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_read(d, back, 0, 256));
	for (i = 0; i < 256; i++)
		ASSERT_EQ(0, back[i]);
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_write(d, buf, 0, 256));
	/* device -> device, device -> host, a memset, a slice */
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_copy(d, 16, d2, 0, 128));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_copy(d2, 0, h, 100, 128));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_read(h, back, 100, 128));
	EXPECT_EQ(0, memcmp(back, buf + 16, 128));
	EXPECT_EQ(0, memcmp((uint8_t *)nrt_tensor_get_va(h) + 100, buf + 16, 128));
	EXPECT_EQ(NULL, nrt_tensor_get_va(d));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_memset(d, 8, 0xee, 8));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate_slice(d, 4, 16, "s", &s));
	EXPECT_EQ(16, nrt_tensor_get_size(s));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_read(s, back, 0, 16));
	EXPECT_EQ(0, memcmp(back, buf + 4, 4));
	EXPECT_EQ(0xee, back[4]);
	EXPECT_EQ(0xee, back[11]);
	EXPECT_EQ(buf[16], back[12]);
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_get_device_allocation_info(s, &ai));
	EXPECT_EQ(16, ai.size);
	EXPECT_EQ(NRT_INVALID, nrt_tensor_get_device_allocation_info(h, &ai));
	/* the slice keeps the bytes after its source is freed */
	nrt_tensor_free(&d);
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_read(s, back, 0, 4));
	EXPECT_EQ(0, memcmp(back, buf + 4, 4));
	/* an empty tensor with the caller's buffer; sets */
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate_empty("e", &e));
	EXPECT_EQ(NRT_INVALID, nrt_tensor_read(e, back, 0, 1));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_attach_buffer(e, user, sizeof(user)));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_copy(s, 0, e, 0, 16));
	EXPECT_EQ(0, memcmp(user, buf + 4, 4));
	ASSERT_EQ(NRT_SUCCESS, nrt_allocate_tensor_set(&set));
	ASSERT_EQ(NRT_SUCCESS, nrt_add_tensor_to_tensor_set(set, "x", h));
	ASSERT_EQ(NRT_SUCCESS, nrt_get_tensor_from_tensor_set(set, "x", &got));
	EXPECT_EQ(h, got);
	EXPECT_EQ(NRT_INVALID, nrt_get_tensor_from_tensor_set(set, "y", &got));
	nrt_destroy_tensor_set(&set);
	EXPECT_EQ(NULL, set);
	/* what neuronsim does not do */
	EXPECT_EQ(NRT_INVALID, nrt_get_hbm_mmap_va(0, 0, NULL, NULL));
	EXPECT_EQ(NRT_INVALID, nrt_trace_start(false));
	EXPECT_EQ(NRT_INVALID, nrt_load_collectives(buf, 1, -1, -1, 0, 1, NULL));
	nrt_close();	/* frees d2, h, s, e */
}

TEST(tensor_table_stays_small)
{
	struct mallinfo2 before, after;
	nrt_tensor_t *t = NULL;
	unsigned int i, bad = 0;

	use_device(0);
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_HOST, -1, 16, "w", &t));
	nrt_tensor_free(&t);
	/* a server's loop: one tensor allocated and freed, over and over */
	before = mallinfo2();
	for (i = 0; i < 200000; i++) {
		bad += nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_HOST, -1, 16, "c", &t) != 0;
		nrt_tensor_free(&t);
	}
	after = mallinfo2();
	EXPECT_EQ(0, bad);
	/* the runtime's table of live tensors does not grow with them */
	EXPECT_GT(before.uordblks + before.hblkhd + 65536, after.uordblks + after.hblkhd)
		TH_LOG("the heap grew from %zu to %zu bytes", before.uordblks + before.hblkhd,
		       after.uordblks + after.hblkhd);
	nrt_close();
}

struct exec_arg {
	nrt_model_t *model;
	const struct bir_model *m;
	int vnc;
	int runs;
	int failed;
};

static void *exec_thread(void *p)
{
	struct exec_arg *a = p;
	struct io io;
	int r;

	if (io_setup(a->model, a->m, a->vnc, &io)) {
		a->failed = -1;
		return NULL;
	}
	for (r = 0; r < a->runs; r++) {
		if (nrt_execute(a->model, io.in, io.out) || io_check(a->m, &io)) {
			a->failed = r + 1;
			break;
		}
	}
	io_free(&io);
	return NULL;
}

TEST(threads_on_one_model_and_on_several)
{
	struct exec_arg a[6];
	struct bir_model m[2];
	nrt_model_t *model[2];
	pthread_t th[6];
	uint32_t vis = 0;
	int i, nm;

	use_device(0);
	NEED_BIR(&m[0]);
	nm = bir_model(1, &m[1]) ? 1 : 2;
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	ASSERT_EQ(NRT_SUCCESS, nrt_get_visible_nc_count(&vis));
	for (i = 0; i < nm; i++)
		ASSERT_EQ(NRT_SUCCESS, nrt_load(m[i].neff, m[i].neff_len, -1, -1, &model[i]));
	/* four threads on the first model, two on the second */
	for (i = 0; i < 6; i++) {
		int k = i < 4 || nm == 1 ? 0 : 1;

		a[i] = (struct exec_arg){ .model = model[k], .m = &m[k], .vnc = 0, .runs = 3 };
		ASSERT_EQ(0, pthread_create(&th[i], NULL, exec_thread, &a[i]));
	}
	for (i = 0; i < 6; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, a[i].failed) TH_LOG("thread %d (%s): execution %d failed", i,
						 a[i].m->name, a[i].failed);
	}
	for (i = 0; i < nm; i++)
		free(m[i].neff);
	nrt_close();
}

TEST(environment)
{
	uint32_t total = 0, vis = 0;
	int err[2], saved;
	char log[4096];
	ssize_t n;

	use_device(0);
	ASSERT_EQ(NRT_SUCCESS, nrt_get_total_nc_count(&total));
	if (total < 2)
		SKIP(return, "device 0 has %u NeuronCore", total);
	setenv("NEURON_RT_VISIBLE_CORES", "1", 1);
	ASSERT_EQ(NRT_SUCCESS, nrt_get_visible_nc_count(&vis));
	EXPECT_EQ(1, vis);
	setenv("NEURON_RT_VISIBLE_CORES", "0-1", 1);
	ASSERT_EQ(NRT_SUCCESS, nrt_get_visible_nc_count(&vis));
	EXPECT_EQ(2, vis);
	setenv("NEURON_RT_VISIBLE_CORES", "0,2", 1);
	EXPECT_EQ(NRT_INVALID, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	setenv("NEURON_RT_VISIBLE_CORES", "x", 1);
	EXPECT_EQ(NRT_INVALID, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	setenv("NEURON_RT_VISIBLE_CORES", "0,", 1);
	EXPECT_EQ(NRT_INVALID, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	unsetenv("NEURON_RT_VISIBLE_CORES");
	setenv("NEURON_RT_NUM_CORES", "1", 1);
	ASSERT_EQ(NRT_SUCCESS, nrt_get_visible_nc_count(&vis));
	EXPECT_EQ(1, vis);
	unsetenv("NEURON_RT_NUM_CORES");
	setenv("NEURON_RT_EXEC_TIMEOUT", "soon", 1);
	EXPECT_EQ(NRT_INVALID, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	unsetenv("NEURON_RT_EXEC_TIMEOUT");
	/* the log: INFO lines at INFO, none at ERROR */
	ASSERT_EQ(0, pipe(err));
	saved = dup(2);
	dup2(err[1], 2);
	setenv("NEURON_RT_LOG_LEVEL", "INFO", 1);
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	nrt_close();
	setenv("NEURON_RT_LOG_LEVEL", "ERROR", 1);
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	nrt_close();
	fflush(stderr);
	dup2(saved, 2);
	close(err[1]);
	n = read(err[0], log, sizeof(log) - 1);
	log[n > 0 ? n : 0] = 0;
	close(err[0]);
	EXPECT_NE(NULL, strstr(log, " INFO  NRT:nrt_init  ")) TH_LOG("log: %s", log);
	EXPECT_NE(NULL, strstr(log, " INFO  NRT:nrt_close  closed"));
	/* one nrt_init, one nrt_close line: nothing from the second pair */
	EXPECT_EQ(NULL, strstr(strstr(log, "closed") ? strstr(log, "closed") + 6 : log,
			       "NRT:nrt_init"));
	unsetenv("NEURON_RT_LOG_LEVEL");
}

TEST(nothing_left_after_close)
{
	nrt_model_t *model[2] = { NULL, NULL };
	struct snap before, after;
	struct bir_model m;
	nrt_tensor_t *t[3];
	int i;

	use_device(0);
	NEED_BIR(&m);
	ASSERT_EQ(0, snap_read(&before));
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(NRT_SUCCESS, nrt_load(m.neff, m.neff_len, -1, -1, &model[i]));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(NRT_SUCCESS, nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, 0,
							   4096 * (i + 1), "left", &t[i]));
	ASSERT_EQ(0, snap_read(&after));
	EXPECT_LT(before.st.hbm_used, after.st.hbm_used);
	{
		nrt_vnc_memory_stats_t ms;
		size_t got = 0;

		/* the core's device_mem: at least the tensors' 24 KiB */
		ASSERT_EQ(NRT_SUCCESS, nrt_get_vnc_memory_stats(0, &ms, sizeof(ms), &got));
		EXPECT_EQ(sizeof(ms), got);
		EXPECT_LE(6 * 4096, ms.bytes_used);
		EXPECT_LT(ms.bytes_used, ms.bytes_limit);
	}
	nrt_close();	/* unloads both models, frees the tensors */
	ASSERT_EQ(0, snap_read(&after));
	EXPECT_SNAP_EQ(before, after, "after nrt_close");
	free(m.neff);
}

struct repeat_arg {
	nrt_model_t *model;
	struct io *io;
	int repeats;
	NRT_STATUS s;
};

static void *repeat_thread(void *p)
{
	struct repeat_arg *a = p;

	a->s = nrt_execute_repeat(a->model, a->io->in, a->io->out, a->repeats);
	return NULL;
}

static void *close_thread(void *p)
{
	(void)p;
	nrt_close();
	return NULL;
}

TEST(init_while_another_thread_closes)
{
	struct repeat_arg a = { .s = NRT_FAILURE };
	struct snap before, after;
	struct timespec t0, t1;
	nrt_model_t *model = NULL;
	struct bir_model m;
	pthread_t th, tc;
	struct io io;
	double ms;

	use_device(0);
	NEED_BIR(&m);
	ASSERT_EQ(0, snap_read(&before));
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	ASSERT_EQ(NRT_SUCCESS, nrt_load(m.neff, m.neff_len, -1, -1, &model));
	ASSERT_EQ(NRT_SUCCESS, io_setup(model, &m, 0, &io));
	/* enough repeats for about two seconds of executions */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(NRT_SUCCESS, nrt_execute_repeat(model, io.in, io.out, 10));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	a.model = model;
	a.io = &io;
	ms = 2000 / (ms > 0.1 ? ms / 10 : 0.01);
	a.repeats = ms < 20 ? 20 : ms > 200000 ? 200000 : (int)ms;
	ASSERT_EQ(0, pthread_create(&th, NULL, repeat_thread, &a));
	usleep(200000);
	/* nrt_close waits for the execution; nrt_init meanwhile is refused */
	ASSERT_EQ(0, pthread_create(&tc, NULL, close_thread, NULL));
	usleep(200000);
	EXPECT_EQ(NRT_INVALID, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	pthread_join(tc, NULL);
	pthread_join(th, NULL);
	EXPECT_EQ(NRT_SUCCESS, a.s) TH_LOG("%d repeats", a.repeats);
	ASSERT_EQ(0, snap_read(&after));
	EXPECT_SNAP_EQ(before, after, "after the nrt_close");
	ASSERT_EQ(NRT_SUCCESS, nrt_init(NRT_FRAMEWORK_TYPE_NO_FW, "", ""));
	nrt_close();
	nrt_free_model_tensor_info(io.info);
	nrt_destroy_tensor_set(&io.in);
	nrt_destroy_tensor_set(&io.out);
	free(m.neff);
}

NSIM_HARNESS_MAIN
