/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nrt/nrt.h - neuronsim's libnrt-compatible runtime API: load a NEFF on
 * the simulated device's NeuronCores, move tensors, execute.  The names,
 * types, enum values and signatures are libnrt's public ones, so a program
 * written for libnrt builds against this header unchanged; what each call
 * does on neuronsim, every status it returns, and the calls that answer
 * "not supported" are in Documentation/nrt.rst.
 *
 * The NeuronCores a program sees are those of ONE simulated device
 * (/dev/neuronsimN, N from NEURONSIM_DEVICE, default 0), narrowed by
 * NEURON_RT_VISIBLE_CORES or NEURON_RT_NUM_CORES; a "vnc" argument is an
 * index into that set.  Sizes and offsets are bytes.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the libnrt API this header describes. */
#define NRT_MAJOR_VERSION 2
#define NRT_MINOR_VERSION 0

/* A loaded model (opaque). */
typedef struct nrt_model nrt_model_t;

/* A tensor: bytes on the device, on the host, or in virtual memory. */
typedef struct nrt_tensor nrt_tensor_t;

/* A collectives context (not supported by neuronsim). */
typedef struct nrt_cc_context nrt_cc_context_t;

/**
 * enum nrt_tensor_placement_t - where nrt_tensor_allocate() puts a tensor.
 * @NRT_TENSOR_PLACEMENT_DEVICE: HBM of the device, charged to the vnc's
 *	NeuronCore (driver category "tensors").
 * @NRT_TENSOR_PLACEMENT_HOST: host memory of the process.
 * @NRT_TENSOR_PLACEMENT_VIRTUAL: host virtual memory reserved at once and
 *	backed on first touch.
 */
typedef enum {
	NRT_TENSOR_PLACEMENT_DEVICE,
	NRT_TENSOR_PLACEMENT_HOST,
	NRT_TENSOR_PLACEMENT_VIRTUAL,
} nrt_tensor_placement_t;

/* The framework that calls nrt_init(); recorded, else not used. */
typedef enum {
	NRT_FRAMEWORK_TYPE_INVALID = 0,
	NRT_FRAMEWORK_TYPE_NO_FW = 1,
	NRT_FRAMEWORK_TYPE_TENSORFLOW,
	NRT_FRAMEWORK_TYPE_PYTORCH,
	NRT_FRAMEWORK_TYPE_MXNET,
	NRT_FRAMEWORK_TYPE_PRECHECK,
} nrt_framework_type_t;

/* nrt_instance_info.family */
enum {
	NRT_INSTANCE_UNKNOWN = 0,
	NRT_INSTANCE_INF1 = 1,
	NRT_INSTANCE_TRN1 = 2,
	NRT_INSTANCE_TRN1N = 3,
	NRT_INSTANCE_INF2 = 4,
	NRT_INSTANCE_TRN2 = 5,
	NRT_INSTANCE_TRN2N = 6,
	NRT_INSTANCE_INF2E = 7,
	NRT_INSTANCE_TRN2P = 8,
	NRT_INSTANCE_TRN2U = 9,
	NRT_INSTANCE_TRN2E = 10,
	NRT_INSTANCE_TRN2EU = 11,
	NRT_INSTANCE_TRN2AC = 12,
	NRT_INSTANCE_TRN2UAC = 13,
	NRT_INSTANCE_TRN3 = 14,
	NRT_INSTANCE_TRN3PDS98 = 15
};

/* nrt_instance_info.size */
enum {
	NRT_INSTANCE_SIZE_1XL,
	NRT_INSTANCE_SIZE_2XL,
	NRT_INSTANCE_SIZE_4XL,
	NRT_INSTANCE_SIZE_6XL,
	NRT_INSTANCE_SIZE_8XL,
	NRT_INSTANCE_SIZE_24XL,
	NRT_INSTANCE_SIZE_32XL,
	NRT_INSTANCE_SIZE_48XL,
	NRT_INSTANCE_SIZE_3XL,
	NRT_INSTANCE_SIZE_UNKNOWN,
	NRT_INSTANCE_SIZE_NUM = NRT_INSTANCE_SIZE_UNKNOWN,
};

/* Element-wise operations of libnrt's collectives (not supported). */
typedef enum nrt_op_type {
	NRT_OP_ADD = 0x0,
	NRT_OP_FMA = 0x1,
	NRT_OP_MAX = 0x2,
	NRT_OP_MIN = 0x3,
	NRT_OP_INVALID = 0xF,
} nrt_op_type_t;

/* A tensor's element type, as nrt_get_model_tensor_info() reports it. */
typedef enum nrt_dtype {
	NRT_DTYPE_UNKNOWN = 0x0,
	NRT_DTYPE_INVALID = 0x0,
	NRT_DTYPE_FP8_E3 = 0xD,
	NRT_DTYPE_FP8_E4 = 0xE,
	NRT_DTYPE_FP8_E5 = 0xF,
	NRT_DTYPE_FLOAT16 = 0x7,
	NRT_DTYPE_BFLOAT16 = 0x6,
	NRT_DTYPE_FLOAT32 = 0xA,
	NRT_DTYPE_FP32R = 0xB,
	NRT_DTYPE_UINT8 = 0x3,
	NRT_DTYPE_UINT16 = 0x5,
	NRT_DTYPE_UINT32 = 0x9,
	NRT_DTYPE_UINT64 = 0x1,
	NRT_DTYPE_INT8 = 0x2,
	NRT_DTYPE_INT16 = 0x4,
	NRT_DTYPE_INT32 = 0x8,
	NRT_DTYPE_INT64 = 0xC,
} nrt_dtype_t;

/* Collective operations (not supported). */
typedef enum nrt_cc_op_type {
	NRT_CC_ALLGATHER,
	NRT_CC_ALLREDUCE,
	NRT_CC_REDUCESCATTER
} nrt_cc_op_type_t;

/**
 * struct nrt_instance_info - what nrt_get_instance_info() fills in.
 * @family: NRT_INSTANCE_TRN1, _TRN2 or _TRN3: the device's generation.
 * @size: NRT_INSTANCE_SIZE_UNKNOWN (a simulated device has no instance).
 * @arch_name: "trn1", "trn2" or "trn3", NUL-terminated.
 * @device_revision: "sim", NUL-terminated.
 */
typedef struct nrt_instance_info {
	uint32_t family;
	uint32_t size;
	char arch_name[16];
	char device_revision[8];
} nrt_instance_info_t;

/**
 * nrt_get_instance_info() - the simulated instance: its generation.
 * @info: out.
 * @instance_info_len: bytes of the caller's @info; at most that many are
 *	written.
 *
 * Return: NRT_SUCCESS; NRT_INVALID @info NULL; NRT_RESOURCE no device
 * (the module is not loaded, or no /dev/neuronsimN).
 */
NRT_STATUS nrt_get_instance_info(nrt_instance_info_t *info, size_t instance_info_len);

/**
 * nrt_init() - open the device and read the environment: the visible
 *	NeuronCores (NEURON_RT_VISIBLE_CORES "2", "0-3", "0,1,2";
 *	NEURON_RT_NUM_CORES N, the first N), the log level
 *	(NEURON_RT_LOG_LEVEL ERROR, WARN, INFO, DEBUG or TRACE; default
 *	ERROR), the execution timeout (NEURON_RT_EXEC_TIMEOUT, seconds).
 * @framework: anything but NRT_FRAMEWORK_TYPE_INVALID.
 * @fw_version: the framework's version string, or NULL.
 * @fal_version: the framework layer's version string, or NULL.
 *
 * Return: NRT_SUCCESS; NRT_INVALID an invalid @framework, a malformed or
 * out-of-range core variable, or nrt_init() called twice; NRT_RESOURCE no
 * device, or host memory exhausted.
 */
NRT_STATUS nrt_init(nrt_framework_type_t framework, const char *fw_version, const char *fal_version);

/**
 * nrt_close() - unload every model, free every tensor the runtime holds,
 *	close the device: the device's memory and NeuronCores are back where
 *	they were before nrt_init().  A later nrt_* call returns NRT_CLOSED
 *	until nrt_init() is called again.
 */
void nrt_close(void);

/**
 * nrt_load() - compile a NEFF into a plan in this process (the compiler
 *	library, Documentation/compiler.rst) and load it: subgraph i on
 *	NeuronCore vnc + i.
 * @neff_bytes: the NEFF file's bytes.
 * @size: bytes at @neff_bytes.
 * @vnc: the first NeuronCore, an index into the visible ones, or -1 for
 *	the first run of free visible NeuronCores.
 * @vnc_count: -1, or the number of NeuronCores the model takes (its
 *	subgraphs).
 * @model: out: the model.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a NULL argument, a corrupt NEFF or
 * one the plan checker refuses (the log names the record, field and
 * value); NRT_UNSUPPORTED_NEFF_VERSION a NEFF for another generation;
 * NRT_RESOURCE HBM or host memory exhausted; NRT_LOAD_NOT_ENOUGH_NC
 * @vnc outside the visible NeuronCores, or not enough free ones from it;
 * NRT_UNINITIALIZED, NRT_CLOSED.
 */
NRT_STATUS nrt_load(const void *neff_bytes, size_t size, int32_t vnc, int32_t vnc_count, nrt_model_t **model);

/**
 * nrt_load_collectives() - not supported (no collectives between
 *	simulated devices).  Return: NRT_INVALID.
 */
NRT_STATUS nrt_load_collectives(const void *neff_bytes, size_t size, int32_t vnc, int32_t vnc_count,
				uint32_t ctx_device_id, uint32_t ctx_device_count, nrt_model_t **model);

/**
 * nrt_unload() - unload a model and free what it held on the device; an
 *	execution of it in another thread is waited for first.
 * @model: from nrt_load().
 *
 * Return: NRT_SUCCESS; NRT_INVALID_HANDLE @model is not a loaded model.
 */
NRT_STATUS nrt_unload(nrt_model_t *model);

/**
 * nrt_get_model_nc_count() - NeuronCores the model takes (one per
 *	subgraph).
 * @model: the model.
 * @vnc_count: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID @vnc_count NULL; NRT_INVALID_HANDLE.
 */
NRT_STATUS nrt_get_model_nc_count(const nrt_model_t *model, uint32_t *vnc_count);

/** nrt_get_model_vnc_count() - nrt_get_model_nc_count() by its newer name. */
NRT_STATUS nrt_get_model_vnc_count(const nrt_model_t *model, uint32_t *vnc_count);

/**
 * nrt_get_total_nc_count() - the NeuronCores of the device, visible or
 *	not; may be called before nrt_init().
 * @vnc_count: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID @vnc_count NULL; NRT_RESOURCE no
 * device.
 */
NRT_STATUS nrt_get_total_nc_count(uint32_t *vnc_count);

/** nrt_get_total_vnc_count() - nrt_get_total_nc_count() by its newer name. */
NRT_STATUS nrt_get_total_vnc_count(uint32_t *vnc_count);

/**
 * nrt_get_visible_nc_count() - the NeuronCores this process may use
 *	(the environment of nrt_init()); may be called before nrt_init().
 * @vnc_count: out.
 *
 * Return: as nrt_get_total_nc_count(), and NRT_INVALID for a malformed or
 * out-of-range core variable.
 */
NRT_STATUS nrt_get_visible_nc_count(uint32_t *vnc_count);

/** nrt_get_visible_vnc_count() - nrt_get_visible_nc_count() by its newer name. */
NRT_STATUS nrt_get_visible_vnc_count(uint32_t *vnc_count);

/* A set of named tensors, the inputs or the outputs of an execution. */
typedef void nrt_tensor_set_t;

/**
 * nrt_allocate_tensor_set() - a new, empty tensor set.
 * @result: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID @result NULL; NRT_RESOURCE no memory.
 */
NRT_STATUS nrt_allocate_tensor_set(nrt_tensor_set_t **result);

/**
 * nrt_destroy_tensor_set() - free a set (not its tensors) and clear
 *	*@tensor_set; NULL, or a NULL *@tensor_set, is fine.
 * @tensor_set: the set.
 */
void nrt_destroy_tensor_set(nrt_tensor_set_t **tensor_set);

/**
 * nrt_add_tensor_to_tensor_set() - name a tensor in a set, replacing a
 *	tensor of that name; the tensor must outlive the set's use.
 * @tensor_set: the set.
 * @tensor_name: 1..255 bytes.
 * @tensor: the tensor.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a NULL argument or a bad name;
 * NRT_INVALID_HANDLE @tensor is not a live tensor; NRT_RESOURCE no memory.
 */
NRT_STATUS nrt_add_tensor_to_tensor_set(nrt_tensor_set_t *tensor_set, const char *tensor_name, nrt_tensor_t *tensor);

/**
 * nrt_get_tensor_from_tensor_set() - the tensor a set names @tensor_name.
 * @tensor_set: the set.
 * @tensor_name: the name.
 * @tensor: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a NULL argument or no such name.
 */
NRT_STATUS nrt_get_tensor_from_tensor_set(nrt_tensor_set_t *tensor_set, const char *tensor_name, nrt_tensor_t **tensor);

/**
 * nrt_execute() - execute a model once: copy each input tensor into the
 *	model's input variable of its name, run every subgraph's engine
 *	programs on its NeuronCore (Documentation/execute.rst), copy each
 *	output variable into the output tensor of its name
 *	(Documentation/nrt.rst, "Execution").  Executions of one model, or
 *	of models sharing a NeuronCore, from several threads run one after
 *	the other.
 * @model: the model.
 * @input_set: a tensor for every input of the model, by name, each of the
 *	input's size.
 * @output_set: a tensor for every output, likewise.
 *
 * Return: NRT_SUCCESS; NRT_INVALID_HANDLE @model or a tensor of a set is
 * not live; NRT_INVALID a NULL set; NRT_EXEC_BAD_INPUT an input or
 * output missing from its set or of the wrong size; NRT_EXEC_NC_BUSY a
 * NeuronCore of the model is executing for another user of the device;
 * NRT_TIMEOUT the execution deadlocked or ran past its timeout;
 * NRT_EXEC_COMPLETED_WITH_ERR a DMA or compute instruction failed;
 * NRT_RESOURCE no memory; NRT_FAILURE any other error of the device.
 */
NRT_STATUS nrt_execute(nrt_model_t *model, const nrt_tensor_set_t *input_set, nrt_tensor_set_t *output_set);

/**
 * nrt_execute_repeat() - nrt_execute() @repeat_count times (at least
 *	once); the first failure ends it and is returned.
 * @model: as nrt_execute().
 * @input_set: as nrt_execute().
 * @output_set: as nrt_execute().
 * @repeat_count: executions; 0 or less counts as 1.
 *
 * Return: as nrt_execute().
 */
NRT_STATUS nrt_execute_repeat(nrt_model_t *model, const nrt_tensor_set_t *input_set, nrt_tensor_set_t *output_set, int repeat_count);

/** nrt_build_global_comm() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_build_global_comm(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count);

/**
 * nrt_tensor_allocate() - a new tensor of @size bytes, zero-filled.
 * @tensor_placement: NRT_TENSOR_PLACEMENT_DEVICE (in HBM, charged to
 *	NeuronCore @vnc), _HOST or _VIRTUAL (host memory).
 * @vnc: a visible NeuronCore index for a device tensor; ignored for host
 *	and virtual ones (-1 by convention).
 * @size: bytes, at least 1.
 * @name: the tensor's name, or NULL.
 * @tensor: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a NULL @tensor, @size 0, a bad
 * placement or @vnc; NRT_RESOURCE HBM or host memory exhausted, or the
 * device's limit of tensors per process reached.
 */
NRT_STATUS nrt_tensor_allocate(nrt_tensor_placement_t tensor_placement, int vnc, size_t size, const char *name, nrt_tensor_t **tensor);

/**
 * nrt_tensor_free() - free a tensor and clear *@tensor (its bytes go
 *	when the last slice of it is freed too); NULL is fine.
 * @tensor: the tensor.
 */
void nrt_tensor_free(nrt_tensor_t **tensor);

/**
 * nrt_tensor_read() - copy @size bytes at @offset of a tensor to @buf.
 * @tensor: the tensor.
 * @buf: @size bytes.
 * @offset: bytes into the tensor.
 * @size: bytes.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a NULL pointer or @offset + @size past
 * the tensor's end; NRT_INVALID_HANDLE not a live tensor.
 */
NRT_STATUS nrt_tensor_read(const nrt_tensor_t *tensor, void *buf, size_t offset, size_t size);

/** nrt_tensor_write() - copy @size bytes from @buf to @offset of a tensor.
 * @tensor: the tensor.
 * @buf: @size bytes.
 * @offset: bytes into the tensor.
 * @size: bytes.
 *
 * Return: as nrt_tensor_read().
 */
NRT_STATUS nrt_tensor_write(nrt_tensor_t *tensor, const void *buf, size_t offset, size_t size);

/*
 * One piece of a batched read or write: @size bytes at @offset of the
 * tensor, to or from @buffer.
 */
typedef uint64_t nrt_tensor_batch_offset_t;
typedef uint64_t nrt_tensor_batch_size_t;
typedef struct nrt_tensor_batch_op {
	nrt_tensor_batch_offset_t offset;
	nrt_tensor_batch_size_t size;
	void *buffer;
} nrt_tensor_batch_op_t;

/* The pieces of one tensor in a batched read or write. */
typedef struct nrt_tensor_batch {
	const nrt_tensor_t *tensor;
	const nrt_tensor_batch_op_t *ops;
	uint32_t num_ops;
} nrt_tensor_batch_t;

/**
 * nrt_tensor_read_batch() - nrt_tensor_read() of every piece of every
 *	batch, in order; the first failure ends it.
 * @batches: the batches.
 * @num_batches: entries of @batches.
 * @unsafe: ignored.
 *
 * Return: as nrt_tensor_read().
 */
NRT_STATUS nrt_tensor_read_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches, bool unsafe);

/** nrt_tensor_write_batch() - nrt_tensor_write() likewise.
 * @batches: the batches.
 * @num_batches: entries of @batches.
 * @unsafe: ignored.
 *
 * Return: as nrt_tensor_write().
 */
NRT_STATUS nrt_tensor_write_batch(const nrt_tensor_batch_t *batches, uint64_t num_batches, bool unsafe);

/**
 * nrt_tensor_copy() - copy @size bytes between two tensors (two device
 *	tensors on the same NeuronCore, or any pair with a host side).
 * @src: the source.
 * @src_offset: bytes into @src.
 * @dst: the destination.
 * @dst_offset: bytes into @dst.
 * @size: bytes.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a range past either end, device
 * tensors on different NeuronCores; NRT_INVALID_HANDLE.
 */
NRT_STATUS nrt_tensor_copy(const nrt_tensor_t *src, size_t src_offset, nrt_tensor_t *dst, size_t dst_offset, size_t size);

/** nrt_tensor_get_size() - a tensor's bytes; 0 for a handle not live. */
size_t nrt_tensor_get_size(const nrt_tensor_t *tensor);

/**
 * nrt_tensor_memset() - set @size bytes at @offset of a tensor to
 *	(unsigned char)@value.
 * @tensor: the tensor.
 * @offset: bytes into it.
 * @value: the byte.
 * @size: bytes.
 *
 * Return: as nrt_tensor_write().
 */
NRT_STATUS nrt_tensor_memset(nrt_tensor_t *tensor, uint64_t offset, int value, size_t size);

/**
 * nrt_tensor_allocate_empty() - a host tensor without bytes, for
 *	nrt_tensor_attach_buffer().
 * @name: or NULL.
 * @tensor: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID @tensor NULL; NRT_RESOURCE.
 */
NRT_STATUS nrt_tensor_allocate_empty(const char *name, nrt_tensor_t **tensor);

/**
 * nrt_tensor_attach_buffer() - make the caller's @buffer the bytes of a
 *	host tensor (the caller keeps it alive); storage the tensor owned is
 *	freed.
 * @tensor: a host or empty tensor without slices.
 * @buffer: @size bytes.
 * @size: bytes, at least 1.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a NULL pointer, @size 0, a device
 * tensor or one with slices; NRT_INVALID_HANDLE.
 */
NRT_STATUS nrt_tensor_attach_buffer(nrt_tensor_t *tensor, void *buffer, size_t size);

/**
 * nrt_tensor_allocate_slice() - a tensor that is @size bytes at @offset
 *	of another's storage (no copy; the storage lives while either does).
 * @tensor_source: the tensor sliced.
 * @offset: bytes into it.
 * @size: bytes, at least 1, @offset + @size within the source.
 * @name: or NULL.
 * @tensor_slice: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a bad range or NULL pointer;
 * NRT_INVALID_HANDLE; NRT_RESOURCE.
 */
NRT_STATUS nrt_tensor_allocate_slice(const nrt_tensor_t *tensor_source, size_t offset, size_t size, const char *name, nrt_tensor_t **tensor_slice);

/**
 * nrt_tensor_get_va() - a host tensor's bytes; NULL for a device tensor
 *	(simulated HBM has no host mapping) or a handle not live.
 */
void *nrt_tensor_get_va(const nrt_tensor_t *tensor);

/*
 * Where a device tensor lives: the device address of its first byte, its
 * bytes, and the HBM channel (addresses of Documentation/hardware.rst).
 */
typedef struct nrt_tensor_device_allocation_info {
	uint64_t physical_address;
	size_t size;
	int hbm_index;
} nrt_tensor_device_allocation_info_t;

/**
 * nrt_tensor_get_device_allocation_info() - where a device tensor lives.
 * @tensor: a device tensor (or a slice of one).
 * @alloc_info: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a host tensor or NULL @alloc_info;
 * NRT_INVALID_HANDLE.
 */
NRT_STATUS nrt_tensor_get_device_allocation_info(const nrt_tensor_t *tensor, nrt_tensor_device_allocation_info_t *alloc_info);

/** nrt_tensor_check_output_completion() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_tensor_check_output_completion(const nrt_tensor_t *output_tensor, int64_t timeout,
					      uint64_t expected_completion_count);

/** nrt_tensor_reset_output_completion() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_tensor_reset_output_completion(nrt_tensor_t *output_tensor);

/** nrt_get_dmabuf_fd() - not supported (no dma-buf).  Return: NRT_INVALID. */
NRT_STATUS nrt_get_dmabuf_fd(uint64_t va, uint64_t size, int *fd);

/**
 * nrt_host_device_id_get() - the host's id of device @neuron_dev: the
 *	same number (no containers).  Return: NRT_SUCCESS, NRT_INVALID for
 *	a negative @neuron_dev or NULL @host_device_id.
 */
NRT_STATUS nrt_host_device_id_get(int neuron_dev, uint32_t *host_device_id);

/** nrt_host_device_id_rid_map_get() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_host_device_id_rid_map_get(uint32_t *count, uint32_t *host_did_to_rid_map);

/** nrt_get_hbm_mmap_va() - not supported (no HBM mapping).  Return: NRT_INVALID. */
NRT_STATUS nrt_get_hbm_mmap_va(int device_id, int hbm_idx, void **addr, size_t *size);

/*
 * A NeuronCore's device memory: the bytes charged to it (every driver
 * category) and the most it can hold.
 */
typedef struct nrt_vnc_memory_stats {
	size_t bytes_used;
	size_t bytes_limit;
} nrt_vnc_memory_stats_t;

/**
 * nrt_get_vnc_memory_stats() - device memory charged to a visible
 *	NeuronCore (the driver's sysfs device_mem/present) and the HBM of
 *	the device as its limit.
 * @vnc: visible NeuronCore index.
 * @stats: out.
 * @stats_size_in: bytes of the caller's @stats.
 * @stats_size_out: out: bytes written.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a bad @vnc or NULL pointer;
 * NRT_FAILURE sysfs could not be read.
 */
NRT_STATUS nrt_get_vnc_memory_stats(uint32_t vnc, nrt_vnc_memory_stats_t *stats, size_t stats_size_in, size_t *stats_size_out);

/** nrt_get_attached_efa_bdf() - not supported (no EFA).  Return: NRT_INVALID. */
NRT_STATUS nrt_get_attached_efa_bdf(const void *va, char *efa_bdf, size_t *len);

/* Host-driven collectives: declared for source compatibility only. */
typedef struct nrt_cc_comm {
	uint32_t *replica_group;
	uint32_t rank;
	uint32_t rank_n;
	uint32_t ctx_device_id;
	uint32_t ctx_device_count;
	uint32_t vnc;
} nrt_cc_comm_t;

typedef struct nrt_tensor_list {
	nrt_tensor_t **tensors;
	size_t num_tensors;
} nrt_tensor_list_t;

/** nrt_cc_global_comm_init() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_cc_global_comm_init(uint32_t vnc, uint32_t g_device_id, uint32_t g_device_count);

#ifdef __cplusplus
}
#endif
