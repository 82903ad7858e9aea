/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nrt/nrt_status.h - the status codes of the libnrt-compatible runtime
 * API of neuronsim (Documentation/nrt.rst).  The values are libnrt's, so
 * a program built against either header reads the same numbers; which
 * failure gives which status is one table, Documentation/nrt.rst,
 * "Status codes".
 */
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/**
 * enum NRT_STATUS - what an nrt_* call returns.
 * @NRT_SUCCESS: the call did what it was asked.
 * @NRT_FAILURE: a failure no other code describes.
 * @NRT_INVALID: an invalid argument: a corrupt or refused NEFF, a NULL
 *	pointer, an offset or size outside a tensor, an unknown name, a
 *	call neuronsim does not implement.
 * @NRT_INVALID_HANDLE: a model or tensor handle that is not (or no
 *	longer) one the runtime gave out.
 * @NRT_RESOURCE: device (HBM) or host memory exhausted, or a limit of
 *	the device reached.
 * @NRT_TIMEOUT: an execution did not end in time, or deadlocked.
 * @NRT_HW_ERROR: the device failed.
 * @NRT_QUEUE_FULL: no room in the execution queue.
 * @NRT_LOAD_NOT_ENOUGH_NC: not enough free NeuronCores for a load.
 * @NRT_UNSUPPORTED_NEFF_VERSION: a NEFF of a version or generation the
 *	device does not run.
 * @NRT_UNINITIALIZED: a call before nrt_init().
 * @NRT_CLOSED: a call after nrt_close().
 * @NRT_EXEC_BAD_INPUT: the tensors given to an execution do not match the
 *	model's (a missing name, a wrong size).
 * @NRT_EXEC_COMPLETED_WITH_NUM_ERR: the execution ended with numerical
 *	errors.
 * @NRT_EXEC_COMPLETED_WITH_ERR: the execution ended, with other errors.
 * @NRT_EXEC_NC_BUSY: a NeuronCore of the model is executing something
 *	else.
 * @NRT_COLL_PENDING: a collective operation is still pending.
 */
typedef enum {
	NRT_SUCCESS = 0,
	NRT_FAILURE = 1,
	NRT_INVALID = 2,
	NRT_INVALID_HANDLE = 3,
	NRT_RESOURCE = 4,
	NRT_TIMEOUT = 5,
	NRT_HW_ERROR = 6,
	NRT_QUEUE_FULL = 7,
	NRT_LOAD_NOT_ENOUGH_NC = 9,
	NRT_UNSUPPORTED_NEFF_VERSION = 10,
	NRT_UNINITIALIZED = 13,
	NRT_CLOSED = 14,
	NRT_EXEC_BAD_INPUT = 1002,
	NRT_EXEC_COMPLETED_WITH_NUM_ERR = 1003,
	NRT_EXEC_COMPLETED_WITH_ERR = 1004,
	NRT_EXEC_NC_BUSY = 1005,
	NRT_COLL_PENDING = 1100,
} NRT_STATUS;

#ifdef __cplusplus
}
#endif
