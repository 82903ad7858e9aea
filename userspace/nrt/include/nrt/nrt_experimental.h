/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nrt/nrt_experimental.h - the libnrt calls outside nrt.h that programs
 * use: a model's tensor information (Documentation/nrt.rst).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/nrt_status.h"
#include "nrt/nrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether a model's tensor is read (input) or written (output). */
typedef enum nrt_tensor_usage {
	NRT_TENSOR_USAGE_INPUT = 0,
	NRT_TENSOR_USAGE_OUTPUT,
} nrt_tensor_usage_t;

#define NRT_TENSOR_NAME_MAX 256

/**
 * struct nrt_tensor_info - one input or output of a model.
 * @name: the variable's name in the NEFF, NUL-terminated.
 * @usage: input or output.
 * @size: bytes.
 * @dtype: its element type (NRT_DTYPE_UNKNOWN when the NEFF names none).
 * @shape: @ndim dimensions, outermost first (NULL when @ndim is 0).
 * @ndim: dimensions.
 */
typedef struct nrt_tensor_info {
	char name[NRT_TENSOR_NAME_MAX];
	nrt_tensor_usage_t usage;
	size_t size;
	nrt_dtype_t dtype;
	uint32_t *shape;
	uint32_t ndim;
} nrt_tensor_info_t;

/* Every input and output of a model: inputs first, each in NEFF order. */
typedef struct nrt_tensor_info_array {
	uint64_t tensor_count;
	nrt_tensor_info_t tensor_array[];
} nrt_tensor_info_array_t;

/* An asynchronous execution's status callback (not supported). */
typedef void (*NRT_ASYNC_EXEC_STATUS_CALLBACK)(void *params, uint32_t model_id, uint32_t vnc, uint64_t job_id, NRT_STATUS status);

/**
 * nrt_get_model_tensor_info() - a model's inputs and outputs.
 * @model: the model.
 * @tensor_info: out: free with nrt_free_model_tensor_info().
 *
 * Return: NRT_SUCCESS; NRT_INVALID @tensor_info NULL;
 * NRT_INVALID_HANDLE; NRT_RESOURCE no memory.
 */
NRT_STATUS nrt_get_model_tensor_info(nrt_model_t *model, nrt_tensor_info_array_t **tensor_info);

/**
 * nrt_get_model_instance_count() - executions of the model that may run
 *	at once: 1 (they are serialised).
 * @model: the model.
 * @instance_count: out.
 *
 * Return: NRT_SUCCESS; NRT_INVALID; NRT_INVALID_HANDLE.
 */
NRT_STATUS nrt_get_model_instance_count(nrt_model_t *model, uint32_t *instance_count);

/** nrt_free_model_tensor_info() - free what nrt_get_model_tensor_info() gave; NULL is fine.  Return: NRT_SUCCESS. */
NRT_STATUS nrt_free_model_tensor_info(nrt_tensor_info_array_t *tensor_info);

/** nrt_trace_start() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_trace_start(bool trace_mem);

/** nrt_trace_stop() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_trace_stop(const char *filename);

/* A microcode image (not used by neuronsim). */
typedef struct nrt_ucode_img {
	uint8_t *bin;
	size_t size;
} nrt_ucode_img;

typedef struct nrt_ucode_info {
	nrt_ucode_img iram;
	nrt_ucode_img dram;
} nrt_ucode_info;

/** nrt_set_pool_eng_ucode() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_set_pool_eng_ucode(const nrt_ucode_info *ucode_info);

/** nrt_memcpy_to_device() - not supported (no mapped device memory).  Return: NRT_INVALID. */
NRT_STATUS nrt_memcpy_to_device(void *dest, const void *src, size_t size);

/** nrt_register_async_exec_callback() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_register_async_exec_callback(NRT_ASYNC_EXEC_STATUS_CALLBACK callback, void *params);

/** nrt_barrier() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_barrier(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count);

/** nrt_all_gather() - not supported.  Return: NRT_INVALID. */
NRT_STATUS nrt_all_gather(int32_t vnc, uint32_t g_device_id, uint32_t g_device_count,
			  uint32_t rank_input_size, void *input, void *output);

/** nrt_async_drain_queued_execs() - nothing is queued: NRT_SUCCESS for a visible @vnc, else NRT_INVALID. */
NRT_STATUS nrt_async_drain_queued_execs(int32_t vnc);

/* What nrt_get_model_info() fills in: the model's first NeuronCore. */
typedef struct nrt_model_info {
	uint32_t vnc;
} nrt_model_info_t;

/**
 * nrt_get_model_info() - a loaded model's first visible NeuronCore index.
 * @model: the model.
 * @info: out.
 * @info_size_in: bytes of the caller's @info.
 * @info_size_out: out: bytes written.
 *
 * Return: NRT_SUCCESS; NRT_INVALID a NULL pointer; NRT_INVALID_HANDLE.
 */
NRT_STATUS nrt_get_model_info(const nrt_model_t *model, nrt_model_info_t *info, size_t info_size_in, size_t *info_size_out);

#ifdef __cplusplus
}
#endif
