/* SPDX-License-Identifier: GPL-2.0 */
/*
 * internal.h - what the files of neuronsim's libnrt-compatible runtime
 * share (Documentation/nrt.rst): the process's runtime state, models,
 * tensors and their storage, the status table and the log.
 */
#ifndef NRT_INTERNAL_H
#define NRT_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include <linux/types.h>

#include "nrt/nrt.h"
#include "nrt/nrt_experimental.h"

#define NRT_MAX_CORES		64

/* the log levels of NEURON_RT_LOG_LEVEL, most severe first */
enum nsrt_log_level {
	NRT_LOG_ERROR,
	NRT_LOG_WARN,
	NRT_LOG_INFO,
	NRT_LOG_DEBUG,
	NRT_LOG_TRACE,
};

/*
 * What failed, for the status table (status.c): the device call whose
 * -errno (and load reason) is turned into an NRT_STATUS.
 */
enum nrt_op {
	NRT_OP_COMPILE,		/* reading and compiling the NEFF */
	NRT_OP_LOAD,		/* NEURONSIM_IOC_LOAD */
	NRT_OP_EXEC,		/* starting or waiting for an execution */
	NRT_OP_EXEC_STATUS,	/* how the execution ended */
	NRT_OP_TENSOR,		/* device tensor calls, variable copies */
};

/* where one input or output of a model lives: a variable of a subgraph */
struct nrt_io_loc {
	uint32_t subgraph;
	uint32_t var_id;
};

/* one input or output: what nrt_get_model_tensor_info() reports */
struct nrt_io {
	nrt_tensor_info_t info;
	struct nrt_io_loc *locs;
	uint32_t num_locs;
};

struct nrt_model {
	uint32_t model_id;
	uint32_t vnc;		/* first visible core index */
	uint32_t first_core;	/* device NeuronCore of subgraph 0 */
	uint32_t num_cores;
	struct nrt_io *io;
	uint32_t num_io;
	uint32_t num_inputs;
	pthread_mutex_t exec_lock;
	unsigned int refs;	/* the model list's, each execution's */
	int unloaded;		/* under exec_lock */
	struct nrt_model *next;
};

/* the bytes behind one or more tensors (a tensor and its slices) */
struct nrt_storage {
	unsigned int refs;
	nrt_tensor_placement_t placement;
	uint32_t core;		/* device: the NeuronCore charged */
	uint32_t tensor_id;	/* device: the device tensor */
	__u64 physical_address;
	uint64_t size;
	void *host;		/* host, virtual: the bytes */
	int owned;		/* host: ours to free (1 malloc, 2 mmap) */
};

struct nrt_tensor {
	uint64_t magic;
	struct nrt_storage *st;	/* NULL: an empty tensor */
	uint64_t offset;	/* into the storage (a slice) */
	uint64_t size;
	char name[NRT_TENSOR_NAME_MAX];
};

/* the process's runtime between nrt_init() and nrt_close() */
struct nsrt_rt {
	pthread_mutex_t lock;	/* the fields below */
	int state;		/* 0 never initialised, 1 up, 2 closed, 3 closing */
	/* executions and unloads under way without the lock (on fd) */
	unsigned int busy;
	pthread_cond_t idle;	/* busy fell to 0: nrt_close() may go on */
	int fd;
	uint32_t device;
	uint32_t arch_gen;
	char arch_name[16];
	uint32_t total_cores;
	uint32_t first_visible;
	uint32_t num_visible;
	int64_t exec_timeout_ns;
	uint64_t hbm_bytes;	/* the device's HBM */
	struct nrt_model *models;
	/* the live tensors, an open-addressed set of pointers */
	struct nrt_tensor **tensors;
	size_t tensors_cap, tensors_len;
	/* executions on a NeuronCore from this process, one at a time */
	pthread_mutex_t core_lock[NRT_MAX_CORES];
};

extern struct nsrt_rt nsrt_rt;
extern int nsrt_log_level;

void nsrt_log(enum nsrt_log_level level, const char *func, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define NRT_ERR(...)	nsrt_log(NRT_LOG_ERROR, __func__, __VA_ARGS__)
#define NRT_WARN(...)	nsrt_log(NRT_LOG_WARN, __func__, __VA_ARGS__)
#define NRT_INFO(...)	nsrt_log(NRT_LOG_INFO, __func__, __VA_ARGS__)
#define NRT_DBG(...)	nsrt_log(NRT_LOG_DEBUG, __func__, __VA_ARGS__)

void nsrt_log_init(void);
NRT_STATUS nsrt_status_of(enum nrt_op op, int err, uint32_t reason);
const char *nsrt_status_str(NRT_STATUS s);

/* the runtime's state check: NRT_SUCCESS, NRT_UNINITIALIZED, NRT_CLOSED */
NRT_STATUS nsrt_up(void);
NRT_STATUS nsrt_unsupported(const char *func);

/* a tensor's bytes as an execution pins them */
struct nrt_bound {
	struct nrt_storage *st;
	uint64_t offset;
	uint64_t size;
};

void nsrt_model_put(struct nrt_model *m);

/* tensors (tensor.c); the callers hold nsrt_rt.lock but for _to_var */
int nsrt_tensor_live(const nrt_tensor_t *t);
void nsrt_tensors_free_all(void);
void nsrt_storage_put(struct nrt_storage *st);
int nsrt_bound_to_var(const struct nrt_bound *b, uint32_t model_id,
		     const struct nrt_io_loc *loc, int to_var);
const nrt_tensor_t *nsrt_set_find(const nrt_tensor_set_t *set, const char *name);

#endif
