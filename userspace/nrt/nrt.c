// SPDX-License-Identifier: GPL-2.0
/*
 * nrt.c - neuronsim's libnrt-compatible runtime: nrt_init()/nrt_close(),
 * the NeuronCores a process sees, nrt_load() (the NEFF compiled in this
 * process by the compiler library, then LOAD), a model's tensor
 * information and nrt_execute() (Documentation/nrt.rst).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libneuronsim.h>
#include <neuronsim_cc.h>
#include "kbin_dma.h"

#include "internal.h"

/* a monotonic clock in ms, for the DEBUG log's durations */
static double nrt_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct nsrt_rt nsrt_rt = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.idle = PTHREAD_COND_INITIALIZER,
	.fd = -1,
};

/* the process's state: up, never initialised, or closed */
NRT_STATUS nsrt_up(void)
{
	if (nsrt_rt.state == 1)
		return NRT_SUCCESS;
	return nsrt_rt.state ? NRT_CLOSED : NRT_UNINITIALIZED;
}

/* a call that drops nsrt_rt.lock while it uses the fd (under the lock) */
static void nrt_busy_get(void)
{
	nsrt_rt.busy++;
}

static void nrt_busy_put(void)
{
	if (!--nsrt_rt.busy)
		pthread_cond_broadcast(&nsrt_rt.idle);
}

/* NEURONSIM_DEVICE: the index of /dev/neuronsimN, default 0 */
static int nrt_device_index(uint32_t *dev)
{
	const char *v = getenv("NEURONSIM_DEVICE");
	unsigned long n;
	char *end;

	*dev = 0;
	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || n >= NEURONSIM_MAX_DEVICES) {
		NRT_ERR("NEURONSIM_DEVICE '%s' is not a device index 0..%d", v,
			NEURONSIM_MAX_DEVICES - 1);
		return -EINVAL;
	}
	*dev = n;
	return 0;
}

/* open the device and read its info; fd or -errno */
static int nrt_open_device(uint32_t dev, struct neuronsim_info *info)
{
	struct neuronsim_open_opts o = { .sz = sizeof(o), .device = dev };
	int fd, err;

	fd = neuronsim_open(&o);
	if (fd < 0) {
		NRT_ERR("cannot open neuronsim device %u: %s (is the module loaded?)",
			dev, strerror(-fd));
		return fd;
	}
	err = neuronsim_get_info(fd, info);
	if (err) {
		NRT_ERR("device %u: GET_INFO: %s", dev, strerror(-err));
		neuronsim_close(fd);
		return err;
	}
	return fd;
}

static int nrt_parse_uint(const char **p, unsigned long *out)
{
	char *end;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	*out = strtoul(*p, &end, 10);
	if (errno || *out >= NRT_MAX_CORES)
		return -EINVAL;
	*p = end;
	return 0;
}

/*
 * The visible NeuronCores of a device of @total: NEURON_RT_VISIBLE_CORES
 * ("3", "0-3" or "0,1,2": one contiguous run), else NEURON_RT_NUM_CORES
 * (the first N), else all.  -EINVAL (logged) for a malformed value, a
 * core past the device's, or a run with a hole.
 */
static int nrt_visible(uint32_t total, uint32_t *first, uint32_t *num)
{
	const char *vis = getenv("NEURON_RT_VISIBLE_CORES");
	const char *numv = getenv("NEURON_RT_NUM_CORES");
	unsigned long lo, hi, prev = 0, start = 0, n;
	const char *p;
	int any = 0;

	*first = 0;
	*num = total;
	if (vis && *vis) {
		for (p = vis; *p; ) {
			if (nrt_parse_uint(&p, &lo))
				goto bad_vis;
			hi = lo;
			if (*p == '-') {
				p++;
				if (nrt_parse_uint(&p, &hi) || hi < lo)
					goto bad_vis;
			}
			if (!any)
				start = lo;
			else if (lo != prev + 1)
				goto hole;
			prev = hi;
			any = 1;
			if (*p == ',' && p[1])
				p++;
			else if (*p)
				goto bad_vis;
		}
		if (!any)
			goto bad_vis;
		if (prev >= total) {
			NRT_ERR("NEURON_RT_VISIBLE_CORES '%s': NeuronCore %lu is past the device's %u",
				vis, prev, total);
			return -EINVAL;
		}
		if (numv && *numv)
			NRT_WARN("NEURON_RT_VISIBLE_CORES and NEURON_RT_NUM_CORES are both set: NEURON_RT_VISIBLE_CORES is used");
		*first = start;
		*num = prev - start + 1;
		return 0;
	}
	if (numv && *numv) {
		p = numv;
		if (nrt_parse_uint(&p, &n) || *p || !n || n > total) {
			NRT_ERR("NEURON_RT_NUM_CORES '%s' is not 1..%u", numv, total);
			return -EINVAL;
		}
		*num = n;
	}
	return 0;
bad_vis:
	NRT_ERR("NEURON_RT_VISIBLE_CORES '%s' is not a core, a range A-B or a list of them",
		vis);
	return -EINVAL;
hole:
	NRT_ERR("NEURON_RT_VISIBLE_CORES '%s': the cores must be one contiguous run", vis);
	return -EINVAL;
}

static NRT_STATUS nrt_counts(uint32_t *total, uint32_t *visible)
{
	struct neuronsim_info info;
	uint32_t dev, first, num;
	int fd;

	if (nsrt_up() == NRT_SUCCESS) {
		*total = nsrt_rt.total_cores;
		*visible = nsrt_rt.num_visible;
		return NRT_SUCCESS;
	}
	nsrt_log_init();
	if (nrt_device_index(&dev))
		return NRT_INVALID;
	fd = nrt_open_device(dev, &info);
	if (fd < 0)
		return NRT_RESOURCE;
	neuronsim_close(fd);
	*total = info.num_cores;
	if (nrt_visible(info.num_cores, &first, &num))
		return NRT_INVALID;
	*visible = num;
	return NRT_SUCCESS;
}

/* the total (@visible 0) or the visible NeuronCores into *@vnc_count */
static NRT_STATUS nrt_count(uint32_t *vnc_count, int visible)
{
	uint32_t total, vis;
	NRT_STATUS s;

	if (!vnc_count)
		return NRT_INVALID;
	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_counts(&total, &vis);
	pthread_mutex_unlock(&nsrt_rt.lock);
	if (!s)
		*vnc_count = visible ? vis : total;
	return s;
}

NRT_STATUS nrt_get_total_nc_count(uint32_t *vnc_count)
{
	return nrt_count(vnc_count, 0);
}

NRT_STATUS nrt_get_total_vnc_count(uint32_t *vnc_count)
{
	return nrt_count(vnc_count, 0);
}

NRT_STATUS nrt_get_visible_nc_count(uint32_t *vnc_count)
{
	return nrt_count(vnc_count, 1);
}

NRT_STATUS nrt_get_visible_vnc_count(uint32_t *vnc_count)
{
	return nrt_count(vnc_count, 1);
}

NRT_STATUS nrt_get_instance_info(nrt_instance_info_t *info, size_t instance_info_len)
{
	nrt_instance_info_t i = { .size = NRT_INSTANCE_SIZE_UNKNOWN };
	struct neuronsim_info di;
	uint32_t dev;
	int fd;

	if (!info)
		return NRT_INVALID;
	if (nrt_device_index(&dev))
		return NRT_INVALID;
	fd = nrt_open_device(dev, &di);
	if (fd < 0)
		return NRT_RESOURCE;
	neuronsim_close(fd);
	switch (di.arch_gen) {
	case KBIN_TARGET_TRN1:
		i.family = NRT_INSTANCE_TRN1;
		break;
	case KBIN_TARGET_TRN2:
		i.family = NRT_INSTANCE_TRN2;
		break;
	case KBIN_TARGET_TRN3:
		i.family = NRT_INSTANCE_TRN3;
		break;
	default:
		i.family = NRT_INSTANCE_UNKNOWN;
		break;
	}
	snprintf(i.arch_name, sizeof(i.arch_name), "%s", di.arch_name);
	snprintf(i.device_revision, sizeof(i.device_revision), "sim");
	memcpy(info, &i, instance_info_len < sizeof(i) ? instance_info_len : sizeof(i));
	return NRT_SUCCESS;
}

NRT_STATUS nrt_get_version(nrt_version_t *ver, size_t size)
{
	nrt_version_t v = {
		.rt_major = NRT_MAJOR_VERSION,
		.rt_minor = NRT_MINOR_VERSION,
		.rt_patch = 0,
	};

	if (!ver)
		return NRT_INVALID;
	snprintf(v.rt_detail, sizeof(v.rt_detail), "neuronsim %s", NEURONSIM_NRT_RELEASE);
	snprintf(v.git_hash, sizeof(v.git_hash), "%s", NEURONSIM_NRT_GIT);
	memcpy(ver, &v, size < sizeof(v) ? size : sizeof(v));
	return NRT_SUCCESS;
}

/* NEURON_RT_EXEC_TIMEOUT: seconds, 0 or unset for none; -EINVAL logged */
static int nrt_exec_timeout(int64_t *ns)
{
	const char *v = getenv("NEURON_RT_EXEC_TIMEOUT");
	unsigned long s;
	char *end;

	*ns = 0;
	if (!v || !*v)
		return 0;
	errno = 0;
	s = strtoul(v, &end, 10);
	if (errno || *end || *v == '-' || s > 86400) {
		NRT_ERR("NEURON_RT_EXEC_TIMEOUT '%s' is not 0..86400 seconds", v);
		return -EINVAL;
	}
	*ns = (int64_t)s * 1000000000;
	return 0;
}

NRT_STATUS nrt_init(nrt_framework_type_t framework, const char *fw_version, const char *fal_version)
{
	struct neuronsim_info info;
	NRT_STATUS s = NRT_SUCCESS;
	uint32_t dev, i;
	int fd;

	pthread_mutex_lock(&nsrt_rt.lock);
	nsrt_log_init();
	if (nsrt_rt.state == 1 || nsrt_rt.state == 3) {
		NRT_ERR(nsrt_rt.state == 1 ? "nrt_init called twice without nrt_close" :
			"nrt_close is under way in another thread");
		s = NRT_INVALID;
		goto out;
	}
	if (framework <= NRT_FRAMEWORK_TYPE_INVALID || framework > NRT_FRAMEWORK_TYPE_PRECHECK) {
		NRT_ERR("framework type %d is not valid", (int)framework);
		s = NRT_INVALID;
		goto out;
	}
	if (nrt_device_index(&dev) || nrt_exec_timeout(&nsrt_rt.exec_timeout_ns)) {
		s = NRT_INVALID;
		goto out;
	}
	fd = nrt_open_device(dev, &info);
	if (fd < 0) {
		s = NRT_RESOURCE;
		goto out;
	}
	if (info.num_cores > NRT_MAX_CORES) {
		NRT_ERR("device %u has %u NeuronCores, more than the %d this runtime serves",
			dev, info.num_cores, NRT_MAX_CORES);
		neuronsim_close(fd);
		s = NRT_INVALID;
		goto out;
	}
	if (nrt_visible(info.num_cores, &nsrt_rt.first_visible, &nsrt_rt.num_visible)) {
		neuronsim_close(fd);
		s = NRT_INVALID;
		goto out;
	}
	nsrt_rt.fd = fd;
	nsrt_rt.device = dev;
	nsrt_rt.arch_gen = info.arch_gen;
	snprintf(nsrt_rt.arch_name, sizeof(nsrt_rt.arch_name), "%s", info.arch_name);
	nsrt_rt.total_cores = info.num_cores;
	nsrt_rt.hbm_bytes = (uint64_t)info.num_hbm_channels * info.hbm_channel_size;
	for (i = 0; i < NRT_MAX_CORES; i++)
		pthread_mutex_init(&nsrt_rt.core_lock[i], NULL);
	nsrt_rt.state = 1;
	NRT_INFO("framework %d %s %s: device %u (%s), NeuronCores %u..%u of %u visible",
		 (int)framework, fw_version ? fw_version : "", fal_version ? fal_version : "",
		 dev, info.arch_name, nsrt_rt.first_visible,
		 nsrt_rt.first_visible + nsrt_rt.num_visible - 1, info.num_cores);
out:
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

static void nrt_model_free(struct nrt_model *m)
{
	uint32_t i;

	if (!m)
		return;
	for (i = 0; i < m->num_io; i++) {
		free(m->io[i].info.shape);
		free(m->io[i].locs);
	}
	free(m->io);
	pthread_mutex_destroy(&m->exec_lock);
	free(m);
}

/* drop a reference to @m (under nsrt_rt.lock); the last one frees it */
void nsrt_model_put(struct nrt_model *m)
{
	if (--m->refs == 0)
		nrt_model_free(m);
}

/*
 * Unload @m, taken off the model list by the caller, which holds
 * nsrt_rt.lock and the list's reference: the lock is dropped while an
 * execution of it in another thread ends (it needs the lock to unpin).
 */
static void nrt_model_unload(struct nrt_model *m)
{
	int err;

	pthread_mutex_unlock(&nsrt_rt.lock);
	pthread_mutex_lock(&m->exec_lock);
	err = neuronsim_unload(nsrt_rt.fd, m->model_id);
	if (err)
		NRT_ERR("model %u: UNLOAD: %s", m->model_id, strerror(-err));
	m->unloaded = 1;
	pthread_mutex_unlock(&m->exec_lock);
	pthread_mutex_lock(&nsrt_rt.lock);
	nsrt_model_put(m);
}

void nrt_close(void)
{
	struct nrt_model *m;

	pthread_mutex_lock(&nsrt_rt.lock);
	if (nsrt_rt.state != 1) {
		pthread_mutex_unlock(&nsrt_rt.lock);
		return;
	}
	nsrt_rt.state = 3;	/* every other call now answers NRT_CLOSED */
	while ((m = nsrt_rt.models)) {
		nsrt_rt.models = m->next;
		nrt_model_unload(m);
	}
	/* executions and unloads of other threads unpin on this fd first */
	while (nsrt_rt.busy)
		pthread_cond_wait(&nsrt_rt.idle, &nsrt_rt.lock);
	nsrt_tensors_free_all();
	neuronsim_close(nsrt_rt.fd);
	nsrt_rt.fd = -1;
	nsrt_rt.state = 2;
	NRT_INFO("closed");
	pthread_mutex_unlock(&nsrt_rt.lock);
}

/* nrt_dtype of a dtype name the plan layer knows (kbin_dtype_from_name) */
static nrt_dtype_t nrt_dtype_of(const char *name)
{
	static const nrt_dtype_t map[KBIN_DTYPE_LAST + 1] = {
		[KBIN_DMA_DTYPE_UINT8] = NRT_DTYPE_UINT8,
		[KBIN_DMA_DTYPE_INT8] = NRT_DTYPE_INT8,
		[KBIN_DMA_DTYPE_UINT16] = NRT_DTYPE_UINT16,
		[KBIN_DMA_DTYPE_INT16] = NRT_DTYPE_INT16,
		[KBIN_DMA_DTYPE_FLOAT16] = NRT_DTYPE_FLOAT16,
		[KBIN_DMA_DTYPE_BFLOAT16] = NRT_DTYPE_BFLOAT16,
		[KBIN_DMA_DTYPE_UINT32] = NRT_DTYPE_UINT32,
		[KBIN_DMA_DTYPE_INT32] = NRT_DTYPE_INT32,
		[KBIN_DMA_DTYPE_FLOAT32] = NRT_DTYPE_FLOAT32,
		[KBIN_DMA_DTYPE_UINT64] = NRT_DTYPE_UINT64,
		[KBIN_DMA_DTYPE_INT64] = NRT_DTYPE_INT64,
		[KBIN_DTYPE_FLOAT8_E4M3] = NRT_DTYPE_FP8_E4,
		[KBIN_DTYPE_FLOAT8_E5M2] = NRT_DTYPE_FP8_E5,
	};
	unsigned int d = name ? kbin_dtype_from_name(name) : KBIN_DTYPE_NONE;

	return d <= KBIN_DTYPE_LAST ? map[d] : NRT_DTYPE_UNKNOWN;
}

/*
 * The model's inputs and outputs from the compiled NEFF's vars: every
 * MR_INPUT and MR_OUTPUT var, by name (a name in several subgraphs is
 * one tensor with several locations, all of one size); inputs first.
 */
static int nrt_model_io(struct nrt_model *m, const struct nscc_model *cm)
{
	uint32_t pass, s, i, k, d;

	for (pass = 0; pass < 2; pass++) {
		uint32_t want = pass ? KBIN_MR_OUTPUT : KBIN_MR_INPUT;

		for (s = 0; s < cm->num_sgs; s++) {
			for (i = 0; i < cm->sgs[s].num_vars; i++) {
				const struct nscc_var *v = &cm->sgs[s].vars[i];
				struct nrt_io *io = NULL, *grown;
				struct nrt_io_loc *locs;

				if (v->mr_type != want)
					continue;
				for (k = 0; k < m->num_io; k++)
					if (m->io[k].info.usage == pass &&
					    !strcmp(m->io[k].info.name, v->name))
						io = &m->io[k];
				if (io && io->info.size != v->size) {
					NRT_ERR("%s '%s' is %llu bytes in one subgraph and %llu in subgraph %u",
						pass ? "output" : "input", v->name,
						(unsigned long long)io->info.size,
						(unsigned long long)v->size, s);
					return -EINVAL;
				}
				if (!io) {
					if (strlen(v->name) >= NRT_TENSOR_NAME_MAX) {
						NRT_ERR("subgraph %u var %u: name of %zu bytes is over %d",
							s, v->var_id, strlen(v->name),
							NRT_TENSOR_NAME_MAX - 1);
						return -EINVAL;
					}
					grown = realloc(m->io, (m->num_io + 1) * sizeof(*grown));
					if (!grown)
						return -ENOMEM;
					m->io = grown;
					io = &m->io[m->num_io++];
					memset(io, 0, sizeof(*io));
					snprintf(io->info.name, sizeof(io->info.name), "%s", v->name);
					io->info.usage = pass;
					io->info.size = v->size;
					io->info.dtype = nrt_dtype_of(v->dtype);
					if (v->ndims) {
						io->info.shape = calloc(v->ndims, sizeof(uint32_t));
						if (!io->info.shape)
							return -ENOMEM;
						for (d = 0; d < v->ndims; d++)
							io->info.shape[d] = v->shape[d] > UINT32_MAX ?
								UINT32_MAX : (uint32_t)v->shape[d];
						io->info.ndim = v->ndims;
					}
					if (!pass)
						m->num_inputs++;
				}
				locs = realloc(io->locs, (io->num_locs + 1) * sizeof(*locs));
				if (!locs)
					return -ENOMEM;
				io->locs = locs;
				io->locs[io->num_locs].subgraph = s;
				io->locs[io->num_locs].var_id = v->var_id;
				io->num_locs++;
			}
		}
	}
	return 0;
}

/* compile @neff in this process: the plan and the model's inputs/outputs */
static NRT_STATUS nrt_compile(const void *neff, size_t size, struct nrt_model *m,
			      void **plan, size_t *plan_len, uint32_t *num_sgs)
{
	struct nscc_model *cm = NULL;
	struct nscc_neff *nf = NULL;
	struct nscc_err err = { { 0 } };
	int e;

	e = nscc_neff_open_mem(neff, size, &nf, &err);
	if (!e) {
		e = nscc_neff_to_model(nf, &cm, &err);
		if (e)
			nscc_neff_free(nf);
	}
	if (!e)
		e = nscc_compile_model(cm, plan, plan_len, &err);
	if (e) {
		NRT_ERR("NEFF of %zu bytes: %s", size, err.msg[0] ? err.msg : strerror(-e));
		nscc_model_free(cm);
		return nsrt_status_of(NRT_OP_COMPILE, e, 0);
	}
	*num_sgs = cm->num_sgs;
	e = nrt_model_io(m, cm);
	nscc_model_free(cm);
	if (e) {
		free(*plan);
		*plan = NULL;
		return e == -ENOMEM ? NRT_RESOURCE : NRT_INVALID;
	}
	return NRT_SUCCESS;
}

/* LOAD @plan with subgraph 0 on device core @core; -errno, @reason */
static int nrt_load_at(const void *plan, size_t len, uint32_t core, uint32_t *model_id,
		       uint32_t *reason, char *log, size_t log_size)
{
	struct neuronsim_load_opts o = {
		.sz = sizeof(o),
		.first_core = core,
		.log_buf = log,
		.log_size = log_size,
	};
	int err;

	log[0] = 0;
	err = neuronsim_load(nsrt_rt.fd, plan, len, &o, model_id);
	*reason = err ? o.err_reason : 0;
	return err;
}

NRT_STATUS nrt_load(const void *neff_bytes, size_t size, int32_t vnc, int32_t vnc_count, nrt_model_t **model)
{
	uint32_t num_sgs = 0, reason = 0, first, last, c;
	struct nrt_model *m;
	size_t plan_len = 0;
	void *plan = NULL;
	char log[512];
	NRT_STATUS s;
	int err = -EBUSY;
	double t0;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nsrt_up();
	if (s)
		goto out;
	if (!neff_bytes || !size || !model) {
		NRT_ERR("NEFF %p of %zu bytes, model %p: a NULL pointer or no bytes",
			neff_bytes, size, (void *)model);
		s = NRT_INVALID;
		goto out;
	}
	if (vnc < -1 || (vnc >= 0 && (uint32_t)vnc >= nsrt_rt.num_visible)) {
		NRT_ERR("vnc %d is not -1 or a visible NeuronCore 0..%u", vnc,
			nsrt_rt.num_visible - 1);
		s = NRT_LOAD_NOT_ENOUGH_NC;
		goto out;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		s = NRT_RESOURCE;
		goto out;
	}
	pthread_mutex_init(&m->exec_lock, NULL);
	m->refs = 1;
	t0 = nrt_ms();
	s = nrt_compile(neff_bytes, size, m, &plan, &plan_len, &num_sgs);
	if (s)
		goto out_model;
	NRT_DBG("NEFF of %zu bytes compiled in %.1f ms: a plan of %zu bytes, %u subgraphs",
		size, nrt_ms() - t0, plan_len, num_sgs);
	t0 = nrt_ms();
	if (vnc_count != -1 && (vnc_count < 0 || (uint32_t)vnc_count != num_sgs)) {
		NRT_ERR("vnc_count %d: the NEFF takes %u NeuronCores (pass -1)", vnc_count,
			num_sgs);
		s = NRT_INVALID;
		goto out_plan;
	}
	if (num_sgs > nsrt_rt.num_visible) {
		NRT_ERR("the NEFF takes %u NeuronCores, %u are visible", num_sgs,
			nsrt_rt.num_visible);
		s = NRT_LOAD_NOT_ENOUGH_NC;
		goto out_plan;
	}
	/* the first run of free visible cores, or exactly @vnc */
	first = vnc >= 0 ? (uint32_t)vnc : 0;
	last = vnc >= 0 ? (uint32_t)vnc : nsrt_rt.num_visible - num_sgs;
	if (first + num_sgs > nsrt_rt.num_visible) {
		NRT_ERR("vnc %u: the NEFF takes %u NeuronCores, %u are visible from it",
			first, num_sgs, nsrt_rt.num_visible - first);
		s = NRT_LOAD_NOT_ENOUGH_NC;
		goto out_plan;
	}
	for (c = first; c <= last; c++) {
		err = nrt_load_at(plan, plan_len, nsrt_rt.first_visible + c, &m->model_id,
				  &reason, log, sizeof(log));
		/* a core another process holds: the next run of cores */
		if (err != -EBUSY || (reason && reason != KBIN_ERR_STAGE_CORES))
			break;
	}
	if (err) {
		s = nsrt_status_of(NRT_OP_LOAD, err, reason);
		NRT_ERR("LOAD at vnc %s%d: %s%s%s (%s)", vnc < 0 ? "any from " : "",
			vnc < 0 ? 0 : vnc, strerror(-err), log[0] ? ": " : "", log,
			nsrt_status_str(s));
		goto out_plan;
	}
	m->vnc = c;
	m->first_core = nsrt_rt.first_visible + c;
	m->num_cores = num_sgs;
	m->next = nsrt_rt.models;
	nsrt_rt.models = m;
	*model = m;
	NRT_INFO("model %u: %u NeuronCores from vnc %u, %u inputs, %u outputs (LOAD %.1f ms)",
		 m->model_id, num_sgs, c, m->num_inputs, m->num_io - m->num_inputs, nrt_ms() - t0);
	free(plan);
	pthread_mutex_unlock(&nsrt_rt.lock);
	return NRT_SUCCESS;
out_plan:
	free(plan);
out_model:
	nrt_model_free(m);
out:
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_load_collectives(const void *neff_bytes, size_t size, int32_t vnc, int32_t vnc_count,
				uint32_t ctx_device_id, uint32_t ctx_device_count, nrt_model_t **model)
{
	(void)neff_bytes; (void)size; (void)vnc; (void)vnc_count;
	(void)ctx_device_id; (void)ctx_device_count; (void)model;
	return nsrt_unsupported(__func__);
}

/* @m when it is a loaded model (under nsrt_rt.lock), else NULL */
static struct nrt_model *nrt_model_live(const nrt_model_t *m)
{
	struct nrt_model *x;

	for (x = nsrt_rt.models; x; x = x->next)
		if (x == m)
			return x;
	return NULL;
}

/* the common head of the model calls: up, then a live @model */
static NRT_STATUS nrt_model_check(const nrt_model_t *model, const char *func)
{
	NRT_STATUS s = nsrt_up();

	if (s)
		return s;
	if (!nrt_model_live(model)) {
		nsrt_log(NRT_LOG_ERROR, func, "model %p is not a loaded model", (const void *)model);
		return NRT_INVALID_HANDLE;
	}
	return NRT_SUCCESS;
}

NRT_STATUS nrt_unload(nrt_model_t *model)
{
	struct nrt_model **pp;
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_model_check(model, __func__);
	if (!s) {
		for (pp = &nsrt_rt.models; *pp != model; pp = &(*pp)->next)
			;
		*pp = model->next;
		NRT_INFO("model %u unloaded", model->model_id);
		nrt_busy_get();
		nrt_model_unload(model);
		nrt_busy_put();
	}
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_get_model_nc_count(const nrt_model_t *model, uint32_t *vnc_count)
{
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_model_check(model, __func__);
	if (!s && !vnc_count)
		s = NRT_INVALID;
	if (!s)
		*vnc_count = model->num_cores;
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_get_model_vnc_count(const nrt_model_t *model, uint32_t *vnc_count)
{
	return nrt_get_model_nc_count(model, vnc_count);
}

NRT_STATUS nrt_get_model_instance_count(nrt_model_t *model, uint32_t *instance_count)
{
	NRT_STATUS s;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_model_check(model, __func__);
	if (!s && !instance_count)
		s = NRT_INVALID;
	if (!s)
		*instance_count = 1;
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_get_model_info(const nrt_model_t *model, nrt_model_info_t *info, size_t info_size_in,
			      size_t *info_size_out)
{
	nrt_model_info_t i;
	NRT_STATUS s;
	size_t n;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_model_check(model, __func__);
	if (!s && (!info || !info_size_out))
		s = NRT_INVALID;
	if (!s) {
		i.vnc = model->vnc;
		n = info_size_in < sizeof(i) ? info_size_in : sizeof(i);
		memcpy(info, &i, n);
		*info_size_out = n;
	}
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_get_model_tensor_info(nrt_model_t *model, nrt_tensor_info_array_t **tensor_info)
{
	nrt_tensor_info_array_t *a;
	NRT_STATUS s;
	uint32_t i;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_model_check(model, __func__);
	if (!s && !tensor_info)
		s = NRT_INVALID;
	if (s)
		goto out;
	a = calloc(1, sizeof(*a) + model->num_io * sizeof(a->tensor_array[0]));
	if (!a) {
		s = NRT_RESOURCE;
		goto out;
	}
	for (i = 0; i < model->num_io; i++) {
		const nrt_tensor_info_t *src = &model->io[i].info;
		nrt_tensor_info_t *dst = &a->tensor_array[i];

		*dst = *src;
		dst->shape = NULL;
		if (src->ndim) {
			dst->shape = malloc(src->ndim * sizeof(uint32_t));
			if (!dst->shape) {
				a->tensor_count = i;
				nrt_free_model_tensor_info(a);
				s = NRT_RESOURCE;
				goto out;
			}
			memcpy(dst->shape, src->shape, src->ndim * sizeof(uint32_t));
		}
	}
	a->tensor_count = model->num_io;
	*tensor_info = a;
out:
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_free_model_tensor_info(nrt_tensor_info_array_t *tensor_info)
{
	uint64_t i;

	if (!tensor_info)
		return NRT_SUCCESS;
	for (i = 0; i < tensor_info->tensor_count; i++)
		free(tensor_info->tensor_array[i].shape);
	free(tensor_info);
	return NRT_SUCCESS;
}

/*
 * The model's tensors of @usage from @set, checked against the model,
 * their storage pinned into @out (under nsrt_rt.lock).
 */
static NRT_STATUS nrt_bind(const struct nrt_model *m, const nrt_tensor_set_t *set, int usage,
			   struct nrt_bound *out)
{
	uint32_t i;

	for (i = 0; i < m->num_io; i++) {
		const struct nrt_io *io = &m->io[i];
		const nrt_tensor_t *t;

		if ((int)io->info.usage != usage)
			continue;
		t = nsrt_set_find(set, io->info.name);
		if (!t) {
			NRT_ERR("model %u: no tensor named '%s' in the %s set", m->model_id,
				io->info.name, usage ? "output" : "input");
			return NRT_EXEC_BAD_INPUT;
		}
		if (!nsrt_tensor_live(t)) {
			NRT_ERR("model %u: the tensor of '%s' is not a live tensor", m->model_id,
				io->info.name);
			return NRT_INVALID_HANDLE;
		}
		if (!t->st) {
			NRT_ERR("model %u: tensor '%s' of '%s' has no storage", m->model_id,
				t->name, io->info.name);
			return NRT_EXEC_BAD_INPUT;
		}
		if (t->size != io->info.size) {
			NRT_ERR("model %u: %s '%s' is %zu bytes, tensor '%s' is %llu",
				m->model_id, usage ? "output" : "input", io->info.name,
				io->info.size, t->name, (unsigned long long)t->size);
			return NRT_EXEC_BAD_INPUT;
		}
		out[i].st = t->st;
		out[i].offset = t->offset;
		out[i].size = t->size;
		t->st->refs++;
	}
	return NRT_SUCCESS;
}

/* copy every bound tensor in (@to_var) or out of the model's variables */
static NRT_STATUS nrt_copy_io(const struct nrt_model *m, const struct nrt_bound *bound, int to_var)
{
	uint32_t i, k;
	int err;

	for (i = 0; i < m->num_io; i++) {
		const struct nrt_io *io = &m->io[i];

		if ((int)io->info.usage == to_var)
			continue;	/* inputs go in, outputs come out */
		for (k = 0; k < io->num_locs; k++) {
			err = nsrt_bound_to_var(&bound[i], m->model_id, &io->locs[k], to_var);
			if (err) {
				NRT_ERR("model %u: %s '%s' (subgraph %u var %u): %s", m->model_id,
					to_var ? "writing input" : "reading output",
					io->info.name, io->locs[k].subgraph, io->locs[k].var_id,
					strerror(-err));
				return nsrt_status_of(NRT_OP_TENSOR, err, 0);
			}
		}
	}
	return NRT_SUCCESS;
}

/* one execution of @m: the caller holds its exec_lock and core locks */
static NRT_STATUS nrt_run(struct nrt_model *m, const struct nrt_bound *bound)
{
	struct neuronsim_exec_opts o = {
		.sz = sizeof(o),
		.timeout_ns = (uint64_t)nsrt_rt.exec_timeout_ns,
	};
	struct neuronsim_exec_result *res = NULL;
	double t0 = nrt_ms(), t1;
	NRT_STATUS s;
	int err;

	s = nrt_copy_io(m, bound, 1);
	if (s)
		return s;
	t1 = nrt_ms();
	err = neuronsim_exec(nsrt_rt.fd, m->model_id, &o, &res);
	if (err) {
		enum nrt_op op = res ? NRT_OP_EXEC_STATUS : NRT_OP_EXEC;

		s = nsrt_status_of(op, err, 0);
		NRT_ERR("model %u: execution %s: %s (%s)", m->model_id,
			res ? "failed" : "not started", strerror(-err), nsrt_status_str(s));
		neuronsim_exec_result_free(res);
		return s;
	}
	NRT_DBG("model %u: inputs copied in %.1f ms, executed in %.1f ms: %llu instructions, %llu DMA blocks, %llu bytes, %llu ns virtual",
		m->model_id, t1 - t0, nrt_ms() - t1,
		(unsigned long long)res->summary.instructions,
		(unsigned long long)res->summary.blocks,
		(unsigned long long)res->summary.bytes,
		(unsigned long long)res->summary.virtual_ns);
	neuronsim_exec_result_free(res);
	t0 = nrt_ms();
	s = nrt_copy_io(m, bound, 0);
	NRT_DBG("model %u: outputs copied in %.1f ms", m->model_id, nrt_ms() - t0);
	return s;
}

/* drop what an execution pinned: storages, the model (under nsrt_rt.lock) */
static void nrt_unpin(struct nrt_model *m, struct nrt_bound *bound)
{
	uint32_t i;

	for (i = 0; bound && i < m->num_io; i++)
		if (bound[i].st)
			nsrt_storage_put(bound[i].st);
	free(bound);
	nsrt_model_put(m);
}

NRT_STATUS nrt_execute_repeat(nrt_model_t *model, const nrt_tensor_set_t *input_set,
			      nrt_tensor_set_t *output_set, int repeat_count)
{
	struct nrt_bound *bound = NULL;
	NRT_STATUS s;
	uint32_t c;
	int r;

	pthread_mutex_lock(&nsrt_rt.lock);
	s = nrt_model_check(model, __func__);
	if (s) {
		pthread_mutex_unlock(&nsrt_rt.lock);
		return s;
	}
	model->refs++;
	nrt_busy_get();
	if (!input_set || !output_set) {
		NRT_ERR("model %u: a NULL tensor set", model->model_id);
		s = NRT_INVALID;
	}
	if (!s) {
		bound = calloc(model->num_io ? model->num_io : 1, sizeof(*bound));
		if (!bound)
			s = NRT_RESOURCE;
	}
	if (!s)
		s = nrt_bind(model, input_set, NRT_TENSOR_USAGE_INPUT, bound);
	if (!s)
		s = nrt_bind(model, output_set, NRT_TENSOR_USAGE_OUTPUT, bound);
	pthread_mutex_unlock(&nsrt_rt.lock);
	if (!s) {
		/*
		 * One execution at a time per model and per NeuronCore of
		 * this process, in core order; other models run meanwhile.
		 * The model and the tensors' storage are pinned: another
		 * thread's nrt_unload() waits for exec_lock, a tensor freed
		 * meanwhile keeps its bytes until the pin is dropped.
		 */
		pthread_mutex_lock(&model->exec_lock);
		for (c = model->first_core; c < model->first_core + model->num_cores; c++)
			pthread_mutex_lock(&nsrt_rt.core_lock[c]);
		if (model->unloaded) {
			NRT_ERR("model %u was unloaded meanwhile", model->model_id);
			s = NRT_INVALID_HANDLE;
		}
		for (r = 0; r < (repeat_count > 1 ? repeat_count : 1) && !s; r++)
			s = nrt_run(model, bound);
		for (c = model->first_core + model->num_cores; c-- > model->first_core; )
			pthread_mutex_unlock(&nsrt_rt.core_lock[c]);
		pthread_mutex_unlock(&model->exec_lock);
	}
	pthread_mutex_lock(&nsrt_rt.lock);
	nrt_unpin(model, bound);
	nrt_busy_put();
	pthread_mutex_unlock(&nsrt_rt.lock);
	return s;
}

NRT_STATUS nrt_execute(nrt_model_t *model, const nrt_tensor_set_t *input_set, nrt_tensor_set_t *output_set)
{
	return nrt_execute_repeat(model, input_set, output_set, 1);
}

NRT_STATUS nrt_build_global_comm(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count)
{
	(void)vnc; (void)g_device_id; (void)g_device_count;
	return nsrt_unsupported(__func__);
}

NRT_STATUS nrt_cc_global_comm_init(uint32_t vnc, uint32_t g_device_id, uint32_t g_device_count)
{
	(void)vnc; (void)g_device_id; (void)g_device_count;
	return nsrt_unsupported(__func__);
}
