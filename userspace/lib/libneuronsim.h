/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * libneuronsim.h - libneuronsim, the runtime client library of /dev/neuronsim
 * (prefix neuronsim_).
 *
 * Conventions (as libbpf's):
 *   - every function returns 0 or a negative errno (neuronsim_open()
 *     returns a file descriptor >= 0 or a negative errno); errno itself is
 *     not part of the contract;
 *   - option structs start with a size_t sz member that the caller sets to
 *     sizeof(struct) (NEURONSIM_OPTS_INIT does it), so a struct can grow
 *     without breaking older callers: fields beyond the caller's sz read as
 *     zero, and a newer caller's non-zero fields this library does not know
 *     are refused with -E2BIG.  A NULL opts pointer means all defaults;
 *   - units: sizes and offsets in bytes, addresses are device addresses of
 *     the simulated device (uapi/linux/neuronsim.h, struct neuronsim_info).
 *
 * Sources: the ioctl ABI in uapi/linux/neuronsim.h; the generic netlink
 * family "neuronsim" in uapi/linux/neuronsim_netlink.h (via libnl-genl-3);
 * the mem_ref kinds and the resolve rule of Documentation/hardware.rst and
 * Documentation/uapi.rst.  Documentation/userspace.rst has examples.
 *
 * A model belongs to the file descriptor that loaded it: every other fd,
 * in this process or another, gets -ENOENT for it, and closing the fd
 * unloads it.  Netlink (GET_MODEL, GET_VARS) sees every model; GET_VARS
 * shows names and addresses only to the owner process or CAP_SYS_ADMIN.
 */
#ifndef NEURONSIM_LIB_H
#define NEURONSIM_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include <linux/neuronsim.h>
#include <linux/neuronsim_kbin.h>
#include <linux/neuronsim_netlink.h>
#include <linux/neuronsim_udma.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Declare and size an option struct: NEURONSIM_OPTS_INIT(load_opts, o, ...) */
#define NEURONSIM_OPTS_INIT(type, name, ...)				\
	struct neuronsim_##type name = {				\
		.sz = sizeof(struct neuronsim_##type), __VA_ARGS__	\
	}

/**
 * NEURONSIM_DEV_PATH - default device node: the alias of device 0.
 */
#define NEURONSIM_DEV_PATH	"/dev/" NEURONSIM_DEVICE_NAME
/**
 * NEURONSIM_BUS_DEVICES - where the devices are listed: one neuronsimN
 * per device.
 */
#define NEURONSIM_BUS_DEVICES	"/sys/bus/" NEURONSIM_DEVICE_NAME "/devices"
/**
 * NEURONSIM_SYSFS_CLASS - the class of the devices' copy of the Neuron
 * driver's sysfs tree: neuronsimN/... under it (Documentation/sysfs.rst),
 * unless the module was loaded with neuron_compat; neuronsim_sysfs_path()
 * names a device's tree in either case.
 */
#define NEURONSIM_SYSFS_CLASS	"/sys/class/" NEURONSIM_DEVICE_NAME
/**
 * NEURONSIM_COMPAT_PARAM - the module parameter neuronsim_dev_path() and
 * neuronsim_sysfs_path() read: "Y" when the module took the Neuron
 * driver's names (Documentation/module.rst, "neuron_compat").
 */
#define NEURONSIM_COMPAT_PARAM	"/sys/module/" NEURONSIM_DEVICE_NAME "/parameters/neuron_compat"

/* ------------------------------------------------------------------ */
/* Device (ioctl)                                                      */
/* ------------------------------------------------------------------ */

/**
 * struct neuronsim_open_opts - options of neuronsim_open().
 * @sz: sizeof(struct neuronsim_open_opts).
 * @path: device node; NULL means the node of @device.
 * @device: device index N, < NEURONSIM_MAX_DEVICES: /dev/neuronsimN
 *	(neuronsim_dev_path()); 0 (the default, and all an older caller's @sz reaches) opens
 *	NEURONSIM_DEV_PATH, the alias of device 0.  Must be 0 with @path.
 */
struct neuronsim_open_opts {
	size_t sz;
	const char *path;
	__u32 device;
};

/**
 * neuronsim_open() - open a simulated device (O_RDWR | O_CLOEXEC).
 * @opts: options, or NULL (device 0).
 *
 * Return: a file descriptor (>= 0) or -errno: -ENOENT no such device
 * node (the module is not loaded, or no device @opts->device), -ENODEV
 * the alias while there is no device 0, -EACCES, -EINVAL @path with a
 * @device or @device out of range, -E2BIG unknown non-zero options, or
 * any open(2) error.
 */
int neuronsim_open(const struct neuronsim_open_opts *opts);

/**
 * neuronsim_dev_path() - the device node of device @index:
 *	/dev/neuronsimN, or /dev/neuronN when the module was loaded with
 *	neuron_compat.  NEURONSIM_COMPAT_PARAM is read once per process
 *	(again while the module is not loaded).
 * @index: device index N, < NEURONSIM_MAX_DEVICES.
 * @buf: out: the path, NUL-terminated.
 * @size: bytes at @buf (32 is enough).
 *
 * Return: 0, or -EINVAL @index out of range or @buf NULL, -ENAMETOOLONG
 * @size too small.
 */
int neuronsim_dev_path(unsigned int index, char *buf, size_t size);

/**
 * neuronsim_sysfs_path() - the root of device @index's copy of the Neuron
 *	driver's sysfs tree (Documentation/sysfs.rst):
 *	/sys/class/neuronsim/neuronsimN, or the driver's
 *	/sys/class/neuron_device/neuronN when the module was loaded with
 *	neuron_compat (read as by neuronsim_dev_path()).
 * @index: device index N, < NEURONSIM_MAX_DEVICES.
 * @buf: out: the path, NUL-terminated.
 * @size: bytes at @buf (48 is enough).
 *
 * Return: 0, or -EINVAL, -ENAMETOOLONG as neuronsim_dev_path().
 */
int neuronsim_sysfs_path(unsigned int index, char *buf, size_t size);

/**
 * struct neuronsim_device_ent - one device of neuronsim_list_devices().
 * @index: N of /dev/neuronsimN.
 * @arch_name: its generation: "trn1", "trn2" or "trn3".
 */
struct neuronsim_device_ent {
	__u32 index;
	char arch_name[16];
};

/**
 * neuronsim_list_devices() - the devices on the neuronsim bus
 *	(NEURONSIM_BUS_DEVICES/neuronsimN and its "arch"), in index order.
 * @ents: out: the first @max devices; may be NULL when @max is 0.
 * @max: entries at @ents.
 *
 * Return: the number of devices (it may exceed @max: only @max are
 * written), or -errno: -ENOENT no neuronsim bus (the module is not
 * loaded), -EINVAL @ents NULL with @max > 0, or an opendir(3) error.
 */
int neuronsim_list_devices(struct neuronsim_device_ent *ents, size_t max);

/**
 * neuronsim_close() - close a device fd; unloads every model it holds.
 * @fd: from neuronsim_open().
 *
 * Return: 0 or -EBADF.
 */
int neuronsim_close(int fd);

/**
 * neuronsim_get_info() - the device's geometry (NEURONSIM_IOC_GET_INFO).
 * @fd: device fd.
 * @info: out.
 *
 * Return: 0, -EINVAL @info NULL, -EBADF, -ENOTTY (not a neuronsim fd).
 */
int neuronsim_get_info(int fd, struct neuronsim_info *info);

/**
 * struct neuronsim_load_opts - options and failure report of a load.
 * @sz: sizeof(struct neuronsim_load_opts).
 * @first_core: in: NeuronCore of subgraph 0 (subgraph i on first_core + i),
 *	or NEURONSIM_CORE_ANY for the first run of free NeuronCores (the one
 *	chosen: neuronsim_model_info() first_core).
 * @flags: in: NEURONSIM_LOAD_F_* (none defined yet; must be 0).
 * @log_buf: in: buffer for the kernel's readable failure text, or NULL.
 * @log_size: in: bytes of @log_buf.
 * @log_len: out: bytes the kernel wrote to @log_buf, NUL included.
 * @err_subgraph: out: failing subgraph, or -1.
 * @err_record: out: failing record index, or -1.
 * @err_reason: out: enum kbin_check_reason (0 on success).
 * @err_field: out: enum kbin_check_field.
 *
 * The out fields are written when the caller's @sz covers them.
 */
struct neuronsim_load_opts {
	size_t sz;
	__u32 first_core;
	__u32 flags;
	char *log_buf;
	__u32 log_size;
	__u32 log_len;
	__s32 err_subgraph;
	__s32 err_record;
	__u32 err_reason;
	__u32 err_field;
};

/**
 * neuronsim_load() - load a KBIN plan from memory (NEURONSIM_IOC_LOAD).
 * @fd: device fd; the model belongs to it.
 * @plan: plan bytes (uapi/linux/neuronsim_kbin.h).
 * @len: bytes at @plan, 1..neuronsim_info.max_plan_bytes.
 * @opts: options and failure report, or NULL.
 * @model_id: out: the new model's id (>= 1).
 *
 * Return: 0 or -errno: -EINVAL (NULL @plan/@model_id, @len 0, a plan the
 * checker refuses: see opts->err_*, opts->log_buf), -E2BIG (plan too large,
 * scratchpad over the maximum, unknown options), -ENOSPC (HBM exhausted),
 * -ENOMEM, -EMFILE (models per fd), -ENODEV (not enough NeuronCores),
 * -EBUSY (a NeuronCore is another process's, or no run of free cores for
 * NEURONSIM_CORE_ANY; the log names it and its owner), -EINTR (a signal
 * while waiting for other loads to leave room under max_loading_bytes;
 * -E2BIG when @len alone is above it), -EFAULT.  A failed
 * load leaves nothing behind.  NeuronCores belong to the loading process
 * (Documentation/uapi.rst, "NeuronCores").
 */
int neuronsim_load(int fd, const void *plan, size_t len,
		   struct neuronsim_load_opts *opts, __u32 *model_id);

/**
 * neuronsim_load_file() - read a KBIN plan file and load it.
 * @fd: device fd.
 * @path: plan file.
 * @opts: as neuronsim_load().
 * @model_id: out.
 *
 * The file is read by the one whole-file reader of neuronsim's userspace
 * (Documentation/running.rst, "The build"): the open never blocks, only
 * a regular file of at most 4 GiB is read.
 *
 * Return: as neuronsim_load(), plus the open(2)/read(2) errors of @path
 * (-ENOENT, -EACCES...), -EISDIR for a directory, -EINVAL for any other
 * file that is not a regular file (a FIFO, a device) or an empty one,
 * -EFBIG for a file over 4 GiB.
 */
int neuronsim_load_file(int fd, const char *path,
			struct neuronsim_load_opts *opts, __u32 *model_id);

/**
 * neuronsim_unload() - unload a model this fd loaded.
 * @fd: device fd.
 * @model_id: model.
 *
 * Return: 0, -ENOENT (no such model on this fd), -EBADF.
 */
int neuronsim_unload(int fd, __u32 model_id);

/**
 * neuronsim_model_info() - counts of a model (NEURONSIM_IOC_MODEL_INFO).
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @info: out.
 *
 * Return: 0, -EINVAL (@info NULL), -ENOENT (unknown model or not this fd's).
 */
int neuronsim_model_info(int fd, __u32 model_id,
			 struct neuronsim_model_info *info);

/**
 * struct neuronsim_dma_opts - which DMA program neuronsim_dma_queues() and
 *	neuronsim_dma_ring() read.
 * @sz: sizeof(struct neuronsim_dma_opts).
 * @subgraph: the subgraph (default 0).
 * @queue: neuronsim_dma_ring(): the queue's index among the subgraph's
 *	(default 0).
 * @side: neuronsim_dma_ring(): NEURONSIM_DMA_M2S (default) or
 *	NEURONSIM_DMA_S2M.
 * @first: neuronsim_dma_ring(): the first UDMA descriptor (default 0).
 */
struct neuronsim_dma_opts {
	size_t sz;
	__u32 subgraph;
	__u32 queue;
	__u32 side;
	__u32 first;
};

/**
 * neuronsim_dma_queues() - the relocated DMA queues of one subgraph of a
 *	model (NEURONSIM_IOC_DMA_INFO; Documentation/relocation.rst).
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @opts: @opts->subgraph, or NULL (subgraph 0).
 * @queues: out: the first @max queues (struct neuronsim_dma_queue_info,
 *	128 bytes each: name, type, owner, blocks, descriptors, UDMA
 *	descriptors and rings per side, ring addresses and bytes); may be
 *	NULL when @max is 0.
 * @max: entries at @queues.
 *
 * Return: the subgraph's queue count (may exceed @max: only @max are
 * written; 0 for a subgraph without DMA program) or -errno: -ENOENT
 * unknown model (or another fd's) or subgraph; -EINVAL NULL @queues with
 * @max; -E2BIG unknown options; -ENOTTY a kernel without DMA_INFO.
 */
int neuronsim_dma_queues(int fd, __u32 model_id,
			 const struct neuronsim_dma_opts *opts,
			 struct neuronsim_dma_queue_info *queues, __u32 max);

/**
 * struct neuronsim_run_opts - how neuronsim_run() and neuronsim_wait()
 *	run and wait (Documentation/dma.rst).
 * @sz: sizeof(struct neuronsim_run_opts).
 * @subgraph: the subgraph (default 0).
 * @pad: padding; not read.
 * @timeout_ns: neuronsim_wait(): how long to wait; 0 (the default) waits
 *	for ever, a negative value only checks once.
 */
struct neuronsim_run_opts {
	size_t sz;
	__u32 subgraph;
	__u32 pad;
	__s64 timeout_ns;
};

/**
 * neuronsim_run() - start DMA queues of one subgraph of a model on its
 *	NeuronCore's DMA engine, in the order given (NEURONSIM_IOC_RUN); it
 *	returns at once.  Compute engines are not simulated.
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @opts: @opts->subgraph, or NULL (subgraph 0).
 * @queues: queue indexes (those of neuronsim_dma_queues()), each once.
 * @n: entries of @queues, 1..NEURONSIM_RUN_MAX_QUEUES (64).
 *
 * Return: 0 or -errno: -ENOENT unknown model (or another fd's) or
 * subgraph; -EINVAL @n out of range, a queue out of range or twice;
 * -EBUSY a queue is queued or running; -EAGAIN the fd's max_runs_per_fd
 * runs are queued or running; -E2BIG unknown options; -ENOTTY a kernel
 * without RUN.
 */
int neuronsim_run(int fd, __u32 model_id, const struct neuronsim_run_opts *opts,
		  const __u32 *queues, __u32 n);

/**
 * neuronsim_wait() - wait until none of the given queues is queued or
 *	running and report each one's latest run (NEURONSIM_IOC_WAIT).
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @opts: subgraph and timeout, or NULL (subgraph 0, no timeout).
 * @queues: queue indexes.
 * @results: out: @n entries (struct neuronsim_run_result, 64 bytes:
 *	state, status, blocks, descriptors, UDMA descriptors, bytes, ns,
 *	the failing block and descriptor).
 * @n: entries, 1..NEURONSIM_RUN_MAX_QUEUES.
 *
 * Return: 0 or -errno: -ETIMEDOUT; -EINTR a signal; -ENOENT unknown model
 * or subgraph (or unloaded meanwhile); -EINVAL a bad count or queue;
 * -E2BIG unknown options; -ENOTTY a kernel without WAIT.
 */
int neuronsim_wait(int fd, __u32 model_id, const struct neuronsim_run_opts *opts,
		   const __u32 *queues, struct neuronsim_run_result *results,
		   __u32 n);

/**
 * struct neuronsim_exec_opts - how neuronsim_exec() and
 *	neuronsim_exec_start() execute (Documentation/execute.rst).
 * @sz: sizeof(struct neuronsim_exec_opts).
 * @timeout_ns: the execution's own timeout, wall-clock nanoseconds from
 *	its start: past it, it stops with status -ETIME; 0 none.
 * @max_events: keep up to this many trace events (1 ..
 *	NEURONSIM_EXEC_MAX_EVENTS; the result's @events); 0 none.
 * @flags: 0, or NEURONSIM_EXEC_F_RACE: check every access against the
 *	program's order as it runs (Documentation/races.rst; a subgraph that
 *	finished with a violation has status -EILSEQ); other bits are
 *	refused (-EINVAL).
 * @wait_ns: neuronsim_exec(): how long to wait for the end; 0 for ever.
 */
struct neuronsim_exec_opts {
	size_t sz;
	__u64 timeout_ns;
	__u32 max_events;
	__u32 flags;
	__s64 wait_ns;
};

/**
 * struct neuronsim_exec_result - an ended execution, as
 *	NEURONSIM_IOC_EXEC_WAIT reports it; free with
 *	neuronsim_exec_result_free().
 * @summary: the model's figures: state, status, virtual and wall time,
 *	instructions, blocks, bytes, 0xD4s not simulated, executions.
 * @num_sg: entries of @sg.
 * @sg: per subgraph: status, NeuronCore, virtual time, the semaphores at
 *	the end, per engine its counts, state and what it waits for.
 * @num_queues: entries of @queues.
 * @queues: every subgraph's DMA queues, subgraph after subgraph (in the
 *	order of neuronsim_dma_queues()); @sg[s].num_queues are subgraph
 *	s's.
 * @num_events: entries of @events.
 * @pad: padding.
 * @events: the trace events, subgraph after subgraph (@sg[s].num_events
 *	each); NULL without @max_events.
 */
struct neuronsim_exec_result {
	struct neuronsim_exec_wait summary;
	__u32 num_sg;
	__u32 num_queues;
	__u32 num_events;
	__u32 pad;
	struct neuronsim_exec_sg *sg;
	struct neuronsim_exec_queue *queues;
	struct neuronsim_exec_event *events;
};

/**
 * neuronsim_exec_start() - start executing every subgraph of a model,
 *	each on its NeuronCore (NEURONSIM_IOC_EXECUTE); it returns at once.
 *	Compute instructions are counted, not computed; the data movement
 *	of 0xD4 is not simulated (its semaphore effect is).
 * @fd: device fd that loaded the model.
 * @model_id: model, loaded from a plan with a program (KBIN version 3).
 * @opts: timeout and trace, or NULL (neither).
 *
 * Return: 0 or -errno: -ENOENT unknown model (or another fd's); -ENODATA
 * the plan has no program; -EBUSY it is executing, a queue of it runs,
 * or another execution holds one of its NeuronCores; -EINVAL
 * @max_events too large; -ENOMEM; -E2BIG unknown options; -ENOTTY a
 * kernel without EXECUTE.
 */
int neuronsim_exec_start(int fd, __u32 model_id,
			 const struct neuronsim_exec_opts *opts);

/**
 * neuronsim_exec_wait() - wait for a model's execution to end and read
 *	its result (NEURONSIM_IOC_EXEC_WAIT).
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @timeout_ns: how long to wait: 0 for ever, negative checks once.
 * @res: out: the result (free with neuronsim_exec_result_free()), or
 *	NULL on failure.
 *
 * A signal during the wait cancels the execution (-EINTR).
 *
 * Return: 0 or -errno: -ETIMEDOUT still running; -EINTR; -ENOENT
 * unknown model (or unloaded meanwhile); -ENODATA no program; -ENOMEM.
 * 0 says the result was read: @res->summary.status says how the
 * execution ended (0 finished, -EDEADLK, -ETIME, ...).
 */
int neuronsim_exec_wait(int fd, __u32 model_id, __s64 timeout_ns,
			struct neuronsim_exec_result **res);

/**
 * neuronsim_exec() - execute a model and wait for the end:
 *	neuronsim_exec_start() then neuronsim_exec_wait() (@opts->wait_ns).
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @opts: timeout, trace and wait, or NULL.
 * @res: out: the result, or NULL when the execution could not be started
 *	or waited for.
 *
 * Return: the errors of the two calls; else the execution's status: 0
 * every subgraph finished, -EDEADLK a subgraph's engines all wait for
 * semaphores nothing will add to (@res->sg[s].engines[e] say where),
 * -ETIME its timeout, -EIO, -EOPNOTSUPP or -ENOMEM a DMA block failed;
 * @res is filled in every such case.
 */
int neuronsim_exec(int fd, __u32 model_id, const struct neuronsim_exec_opts *opts,
		   struct neuronsim_exec_result **res);

/**
 * neuronsim_exec_result_free() - free a result.
 * @res: from neuronsim_exec_wait() or neuronsim_exec(), or NULL.
 */
void neuronsim_exec_result_free(struct neuronsim_exec_result *res);

/**
 * struct neuronsim_engine_stats - one NeuronCore's DMA engine counters
 *	since the device was created (sysfs other_info/dma_*,
 *	Documentation/sysfs.rst; debugfs "engine" has the same).
 * @bytes: bytes written.
 * @udma_descs: UDMA descriptors executed, both sides.
 * @descs: DMA descriptors completed.
 * @runs: queue runs finished.
 * @errors: runs that failed (not cancellations).
 * @busy_ns: nanoseconds spent running queues.
 */
struct neuronsim_engine_stats {
	__u64 bytes;
	__u64 udma_descs;
	__u64 descs;
	__u64 runs;
	__u64 errors;
	__u64 busy_ns;
};

/**
 * neuronsim_engine_stats() - read the DMA engine counters of one
 *	NeuronCore of a device from its sysfs tree
 *	(/sys/class/neuronsim/neuronsimN/neuron_coreM/stats/other_info/,
 *	readable by everyone).
 * @dev_index: device index N.
 * @core: NeuronCore index M.
 * @st: out; written only on success.
 *
 * Return: 0 or -errno: -ENOENT no such device or core (or a kernel
 * without the counters); -EINVAL @st NULL or a file that is not one
 * decimal number; the error of open() or read() otherwise.
 */
int neuronsim_engine_stats(unsigned int dev_index, __u32 core,
			   struct neuronsim_engine_stats *st);

/**
 * neuronsim_dma_ring() - a range of one queue side's UDMA descriptors,
 *	each as its ring holds it (16 bytes, union udma_desc of
 *	uapi/linux/neuronsim_udma.h) with where it came from.
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @opts: subgraph, queue, side and first descriptor; NULL for all 0.
 * @descs: out: up to @max entries (struct neuronsim_dma_desc_info, 48
 *	bytes each: the descriptor, its ring address, the variable, offset,
 *	block and descriptor it came from).
 * @max: entries at @descs; more than NEURONSIM_DMA_INFO_MAX_DESCS are
 *	read in several calls.
 *
 * Return: the entries written (fewer than @max at the side's end) or
 * -errno: -ENOENT unknown model or subgraph; -EINVAL queue or side out of
 * range, NULL @descs with @max; -ERANGE @opts->first past the side's
 * count; -E2BIG unknown options.
 */
int neuronsim_dma_ring(int fd, __u32 model_id,
		       const struct neuronsim_dma_opts *opts,
		       struct neuronsim_dma_desc_info *descs, __u32 max);

/**
 * neuronsim_udma_len() - the byte count of a UDMA descriptor.
 * @len_ctrl: its len_ctrl word (union udma_desc, host byte order).
 *
 * Return: 1..65536 (a length field of 0 means 65536).
 */
__u32 neuronsim_udma_len(__u32 len_ctrl);

/**
 * neuronsim_udma_flags_str() - the flags of a UDMA descriptor as the
 *	debugfs ring view writes them (kmod/plan/kbin_dma.h's
 *	kbin_udma_flags_str()).
 * @len_ctrl: its len_ctrl word.
 * @buf: out: "FIRST", "LAST|INT", "FIRST|LAST|INT", "DMB" ... or "-".
 * @len: bytes at @buf (24 hold every combination).
 *
 * Return: @buf.
 */
char *neuronsim_udma_flags_str(__u32 len_ctrl, char *buf, size_t len);

/**
 * neuronsim_resolve() - (var, offset, size) -> device address.
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @subgraph: index in the plan's subgraph table.
 * @var_id: variable.
 * @offset: bytes into the variable.
 * @size: bytes the access covers.
 * @address: out: physical_address + @offset.
 *
 * The rule is libnrt's mem_ref_to_addr (Documentation/uapi.rst).
 * Return: 0 or -ENOENT (model, subgraph or var_id), -ERANGE (var size <
 * offset + size), -EINVAL (MR_PTR with offset != 0, @address NULL),
 * -ENODATA (not staged: MR_LIST).
 */
int neuronsim_resolve(int fd, __u32 model_id, __u32 subgraph, __u32 var_id,
		      __u64 offset, __u64 size, __u64 *address);

/**
 * neuronsim_resolve_batch() - resolve @count entries in one call.
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @entries: in/out: subgraph, var_id, offset, size in; address, status out
 *	(status 0 or the -errno neuronsim_resolve() would return).
 * @count: 1..NEURONSIM_RESOLVE_BATCH_MAX.
 * @num_ok: out: entries with status 0; may be NULL.
 *
 * Return: 0 (even when some entries failed), -ENOENT (unknown model),
 * -EINVAL (@count 0 or over the maximum, @entries NULL), -EFAULT.
 */
int neuronsim_resolve_batch(int fd, __u32 model_id,
			    struct neuronsim_resolve_entry *entries,
			    __u32 count, __u32 *num_ok);

/**
 * neuronsim_read_var() - copy bytes out of a staged variable.
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @subgraph: subgraph index.
 * @var_id: variable.
 * @offset: bytes into the variable.
 * @buf: out: @len bytes.
 * @len: bytes; @offset + @len <= the variable's size.
 *
 * Unwritten device memory reads as zeros.
 * Return: 0, -ENOENT, -ERANGE (out of bounds), -ENODATA (no storage:
 * MR_PTR, MR_LIST), -EINVAL (@buf NULL with @len > 0), -EFAULT.
 */
int neuronsim_read_var(int fd, __u32 model_id, __u32 subgraph, __u32 var_id,
		       __u64 offset, void *buf, __u64 len);

/**
 * neuronsim_write_var() - copy bytes into a staged variable.
 * @fd: device fd that loaded the model.
 * @model_id: model.
 * @subgraph: subgraph index.
 * @var_id: variable.
 * @offset: bytes into the variable.
 * @buf: @len bytes.
 * @len: bytes; @offset + @len <= the variable's size.
 *
 * Return: as neuronsim_read_var(), plus -EPERM for an MR_PTR_TABLE (its
 * row table is built by the kernel and read-only) or for bytes of an SBUF
 * carve-out of the model, and -ENOMEM (backing RAM cap).
 */
int neuronsim_write_var(int fd, __u32 model_id, __u32 subgraph, __u32 var_id,
			__u64 offset, const void *buf, __u64 len);

/* ------------------------------------------------------------------ */
/* Device tensors (ioctl)                                              */
/* ------------------------------------------------------------------ */

/*
 * A device tensor is bytes of the device's HBM outside any model, as
 * libnrt's nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, ...) makes
 * one (Documentation/uapi.rst, "Device tensors"; GET_INFO feature
 * NEURONSIM_FEAT_TENSOR).  It belongs to the fd that allocated it: every
 * other fd gets -ENOENT for its id, and closing the fd frees it.  Its
 * bytes read as zeros until written.
 */

/**
 * neuronsim_tensor_alloc() - allocate a device tensor (TENSOR_ALLOC).
 * @fd: device fd; the tensor is this fd's.
 * @core: the NeuronCore its HBM is charged to (sysfs device_mem/tensors of
 *	neuron_core@core), < num_cores; the bytes come from that core's HBM
 *	channel.  The core is not reserved.
 * @size: bytes, 1..hbm_channel_size (struct neuronsim_info); the HBM
 *	charged is @size rounded up to 4 KiB.
 * @name: a name debugfs shows, or NULL (empty); longer than
 *	NEURONSIM_TENSOR_NAME_MAX - 1 bytes it is cut there.
 * @tensor_id: out: the tensor's id (>= 1).
 * @physical_address: out: the device address of its first byte (4 KiB
 *	aligned, in an HBM channel); may be NULL.
 *
 * Return: 0 or -EINVAL (@core >= num_cores, @size 0, @tensor_id NULL),
 * -E2BIG (@size over hbm_channel_size), -EMFILE (the fd holds
 * max_tensors_per_fd tensors, a module parameter GET_INFO reports),
 * -ENOSPC (no free range of @size bytes on the core's HBM channel),
 * -ENOMEM, -EFAULT.
 */
int neuronsim_tensor_alloc(int fd, __u32 core, __u64 size, const char *name,
			   __u32 *tensor_id, __u64 *physical_address);

/**
 * neuronsim_tensor_free() - free a device tensor (TENSOR_FREE).
 * @fd: the fd that allocated it.
 * @tensor_id: the tensor.
 *
 * The id is gone at once; the HBM is freed when the last call using the
 * tensor in another thread has returned.
 * Return: 0 or -ENOENT (unknown id, or another fd's).
 */
int neuronsim_tensor_free(int fd, __u32 tensor_id);

/**
 * neuronsim_tensor_read() - copy bytes out of a device tensor (TENSOR_IO).
 * @fd: the fd that allocated it.
 * @tensor_id: the tensor.
 * @offset: bytes into the tensor.
 * @buf: out: @len bytes.
 * @len: bytes; @offset + @len <= the tensor's size (0 reads nothing).
 *
 * Return: 0 or -ENOENT (unknown id, or another fd's), -ERANGE (@offset +
 * @len past the tensor, or overflowing), -EINVAL (@buf NULL with @len >
 * 0), -EFAULT, -EINTR (a fatal signal).
 */
int neuronsim_tensor_read(int fd, __u32 tensor_id, __u64 offset, void *buf,
			  __u64 len);

/**
 * neuronsim_tensor_write() - copy bytes into a device tensor (TENSOR_IO).
 * @fd: the fd that allocated it.
 * @tensor_id: the tensor.
 * @offset: bytes into the tensor.
 * @buf: @len bytes.
 * @len: bytes; @offset + @len <= the tensor's size (0 writes nothing).
 *
 * Return: as neuronsim_tensor_read(), plus -ENOMEM (the backing RAM cap:
 * the bytes before it are written).
 */
int neuronsim_tensor_write(int fd, __u32 tensor_id, __u64 offset,
			   const void *buf, __u64 len);

/**
 * neuronsim_tensor_memset() - set bytes of a device tensor to one value
 *	(TENSOR_IO).
 * @fd: the fd that allocated it.
 * @tensor_id: the tensor.
 * @offset: bytes into the tensor.
 * @value: the byte, converted to unsigned char as memset(3) does.
 * @len: bytes; @offset + @len <= the tensor's size (0 sets nothing).
 *
 * Zeros take no backing RAM where nothing was written.
 * Return: 0 or -ENOENT (unknown id, or another fd's), -ERANGE (@offset +
 * @len past the tensor, or overflowing), -ENOMEM (the backing RAM cap),
 * -EINTR (a fatal signal).
 */
int neuronsim_tensor_memset(int fd, __u32 tensor_id, __u64 offset, int value,
			    __u64 len);

/**
 * neuronsim_tensor_copy() - device-to-device copies between device
 *	tensors and staged variables of this fd's models (TENSOR_COPY).
 * @fd: the fd holding the tensors and models.
 * @copies: @count entries (struct neuronsim_tensor_copy, uapi): each moves
 *	len bytes from its src end to its dst end, in order.  An end with
 *	tensor_id is that tensor at offset (model_id, subgraph and var_id
 *	zero); with tensor_id 0 it is variable var_id of subgraph subgraph of
 *	model model_id at offset, as neuronsim_read_var() (src) or
 *	neuronsim_write_var() (dst) takes it, with their errors.
 * @count: entries, 1..NEURONSIM_TENSOR_COPY_MAX (256).
 *
 * Every entry is checked before any byte moves; the first that fails
 * decides the error and nothing is copied.
 * Return: 0 or -EINVAL (@copies NULL, @count 0 or over the maximum, an end
 * with a tensor_id and a model field set, the two ends of an entry
 * sharing device bytes), -ENOENT (unknown tensor, or another fd's;
 * unknown model, subgraph or variable), -ERANGE (an end's offset + len
 * past its tensor or variable; a destination touching the gap past an
 * MR_SB partition's bytes), -ENODATA (a variable without storage:
 * MR_PTR, MR_LIST), -EPERM (a destination in an MR_PTR_TABLE or an SBUF
 * carve-out), -EBUSY (a model of an entry is executing or has a DMA queue
 * queued or running), -EFAULT, -ENOMEM (kernel memory, or the backing RAM
 * cap: the entries before it are copied, that one in part), -EINTR (a
 * fatal signal).
 */
int neuronsim_tensor_copy(int fd, const struct neuronsim_tensor_copy *copies,
			  __u32 count);

/* ------------------------------------------------------------------ */
/* Names                                                               */
/* ------------------------------------------------------------------ */

/**
 * neuronsim_mr_type_str() - "MR_SB" .. "MR_REMOTE" for an enum kbin_mr_type.
 * @mr_type: value.
 *
 * Return: a static string (the kind table's name, kmod/plan/kbin_kind.h);
 * "MR_UNKNOWN" for an unknown value.
 */
const char *neuronsim_mr_type_str(__u32 mr_type);

/**
 * neuronsim_reason_str() - short text of an enum kbin_check_reason
 *	(kmod/plan/kbin_names.h's kbin_reason_str()).
 * @reason: value.
 *
 * Return: a static string ("valid", "checksum mismatch", "HBM exhausted",
 * ...); "unknown reason" outside the enum.
 */
const char *neuronsim_reason_str(__u32 reason);

/** Bytes a neuronsim_resolve_strerror() text takes at most, with the NUL. */
#define NEURONSIM_RESOLVE_STRERROR_MAX	(2 * KBIN_NAME_MAX + 192)

/**
 * neuronsim_resolve_strerror() - why a resolve failed, as text: the Neuron
 *	runtime's own message, then a clearer one (kmod/plan/kbin_names.h's
 *	kbin_resolve_strerror(); the kernel logs the same text at debug
 *	level, Documentation/uapi.rst).
 * @err: what neuronsim_resolve() (or a RESOLVE_BATCH entry's status)
 *	returned: -ERANGE gives "invalid offset in NAME, VARSIZE < (OFFSET +
 *	SIZE); the access ends at byte END, past the VARSIZE bytes of 'NAME'
 *	(KIND)", except for an MR_SB access inside the variable, which was
 *	refused for the gap past an SBUF partition (the simulator's rule,
 *	Documentation/hardware.rst): that text is the simulator's own,
 *	"'NAME' (MR_SB): bytes [OFFSET, +SIZE) touch the gap past an SBUF
 *	partition's bytes: ..."; -ENODATA "Variable NAME is not staged in
 *	HBM; 'NAME' (KIND)
 *	has no device address..."; -EINVAL (an MR_PTR with an offset) ours
 *	only; other values a generic text with the number.
 * @name: the variable's name.
 * @mr_type: its enum kbin_mr_type.
 * @var_size: its size in bytes.
 * @offset: bytes into it the access started at.
 * @size: bytes the access covered.
 * @buf: out: NUL-terminated text, truncated to @len bytes
 *	(NEURONSIM_RESOLVE_STRERROR_MAX is always enough).
 * @len: bytes of @buf.
 *
 * Return: @buf (NULL when @buf is NULL).
 */
char *neuronsim_resolve_strerror(int err, const char *name, __u32 mr_type,
				 __u64 var_size, __u64 offset, __u64 size,
				 char *buf, size_t len);

/**
 * neuronsim_field_str() - name of an enum kbin_check_field, the plan field
 *	a checker finding is about (kmod/plan/kbin_names.h's
 *	kbin_field_str()).
 * @field: value.
 *
 * Return: a static string ("none", "size", "var_id", ...); "unknown
 * field" outside the enum.
 */
const char *neuronsim_field_str(__u32 field);

/**
 * neuronsim_mem_region() - which memory a staged variable sits in.
 * @mr_type: enum kbin_mr_type.
 *
 * By the kind's storage in the kind table (kmod/plan/kbin_kind.h).
 *
 * Return: "sbuf" (SBUF window: MR_SB), "psum" (PSUM window: MR_PSUM),
 * "scratchpad" (MR_VIRTUAL_TMP_BUF),
 * "none" (no bytes: MR_LIST, MR_INVALID and unknown values), "hbm"
 * otherwise (MR_PTR_TABLE: its row table; MR_PTR, MR_REMOTE: their
 * target's).
 */
const char *neuronsim_mem_region(__u32 mr_type);

/* ------------------------------------------------------------------ */
/* VAR[+OFFSET[:SIZE]] references (pure)                               */
/* ------------------------------------------------------------------ */

/** Longest var name a reference can carry, NUL included. */
#define NEURONSIM_VAR_NAME_MAX	KBIN_NAME_MAX

/**
 * struct neuronsim_var_ref - a parsed VAR[+OFFSET[:SIZE]].
 * @by_id: 1 when VAR was "#var_id", 0 when a name.
 * @has_subgraph: 1 when VAR had an "sgN/" prefix.
 * @has_offset: 1 when "+OFFSET" was given.
 * @has_size: 1 when ":SIZE" was given.
 * @subgraph: N of "sgN/".
 * @var_id: of "#var_id".
 * @offset: bytes (0 when absent).
 * @size: bytes (0 when absent: "to the end of the variable").
 * @name: the name (empty when @by_id).
 */
struct neuronsim_var_ref {
	__u8 by_id;
	__u8 has_subgraph;
	__u8 has_offset;
	__u8 has_size;
	__u32 subgraph;
	__u32 var_id;
	__u64 offset;
	__u64 size;
	char name[NEURONSIM_VAR_NAME_MAX];
};

/**
 * neuronsim_var_ref_parse() - parse a variable reference.
 * @s: "NAME", "sgN/NAME", "#ID" or "sgN/#ID", optionally followed by
 *	"+OFFSET" and then ":SIZE".  Numbers are decimal or 0x hex and may
 *	end in K, M or G (KiB, MiB, GiB).  A name may itself contain '+' or
 *	'/': only a trailing "+NUMBER[:NUMBER]" is taken as offset and size,
 *	and only a leading "sg<digits>/" as the subgraph.
 * @ref: out.
 * @err: out: message naming the bad part, or NULL.
 * @errlen: bytes of @err.
 *
 * Return: 0, -EINVAL (empty, bad number, empty name), -ERANGE (a number
 * over 64 bits, a var_id or subgraph over 32 bits, offset + size
 * overflows), -ENAMETOOLONG (name of NEURONSIM_VAR_NAME_MAX bytes or more).
 */
int neuronsim_var_ref_parse(const char *s, struct neuronsim_var_ref *ref,
			    char *err, size_t errlen);

/**
 * neuronsim_parse_u64() - a size or offset: decimal or 0x hex, optional
 * K/M/G suffix (powers of 1024).
 * @s: text; the whole string must be consumed.
 * @out: out.
 *
 * Return: 0, -EINVAL (not a number), -ERANGE (over 64 bits).
 */
int neuronsim_parse_u64(const char *s, __u64 *out);

/* ------------------------------------------------------------------ */
/* Memory map as SVG (pure)                                            */
/* ------------------------------------------------------------------ */

/**
 * struct neuronsim_map_var - one variable to draw.
 * @name: NUL-terminated (escaped for XML by the writer).
 * @subgraph: subgraph index.
 * @var_id: var_id.
 * @mr_type: enum kbin_mr_type (colour).
 * @size: bytes.
 * @address: device address; ignored when !@staged.
 * @staged: 0 for variables without an address, MR_LIST (not drawn,
 *	counted).
 */
struct neuronsim_map_var {
	const char *name;
	__u32 subgraph;
	__u32 var_id;
	__u32 mr_type;
	__u64 size;
	__u64 address;
	bool staged;
};

/**
 * struct neuronsim_map_opts - options of neuronsim_map_svg().
 * @sz: sizeof(struct neuronsim_map_opts).
 * @title: heading text, or NULL.
 * @width: picture width in pixels (0: 960).
 */
struct neuronsim_map_opts {
	size_t sz;
	const char *title;
	__u32 width;
};

/**
 * neuronsim_map_svg() - draw where every variable sits: one band per
 * region used (each HBM channel, each NeuronCore's SBUF window, the
 * scratchpad range), a rectangle per variable coloured by mr_type with a
 * <title> (name, var_id, kind, size, address) shown on hover, and a legend.
 * @out: stream to write the SVG document to.
 * @info: device geometry (region bases and sizes).
 * @vars: variables.
 * @n: number of @vars.
 * @opts: options, or NULL.
 *
 * Return: 0, -EINVAL (@out or @info NULL, @vars NULL with @n > 0), -E2BIG
 * (unknown options), -EIO (write error on @out).
 */
int neuronsim_map_svg(FILE *out, const struct neuronsim_info *info,
		      const struct neuronsim_map_var *vars, size_t n,
		      const struct neuronsim_map_opts *opts);

/* ------------------------------------------------------------------ */
/* Generic netlink family "neuronsim" (libnl-genl-3)                   */
/* ------------------------------------------------------------------ */

struct neuronsim_nl;

/**
 * struct neuronsim_nl_core - one NeuronCore in GET_DEVICE: its
 *	reservation (Documentation/uapi.rst, "NeuronCores").
 * @owner_pid: tgid of the process holding it; 0 when free.
 * @num_models: the owner's models on it (and loads in progress).
 */
struct neuronsim_nl_core {
	__u32 owner_pid;
	__u32 num_models;
};

/**
 * struct neuronsim_nl_device - GET_DEVICE.
 * @arch_name: "trn1", "trn2", "trn3".
 * @arch_gen: 2..4.
 * @num_cores: NeuronCores.
 * @num_hbm_channels: HBM channels.
 * @hbm_channel_size: bytes per channel.
 * @num_models: models loaded by all fds.
 * @hbm_used: HBM bytes held by all models.
 * @device: device index N (/dev/neuronsimN).
 * @cores: per NeuronCore (@num_cores of them), who holds it.
 */
struct neuronsim_nl_device {
	char arch_name[16];
	__u32 arch_gen;
	__u32 num_cores;
	__u32 num_hbm_channels;
	__u64 hbm_channel_size;
	__u32 num_models;
	__u64 hbm_used;
	__u32 device;
	struct neuronsim_nl_core cores[NEURONSIM_MAX_CORES];
};

/**
 * struct neuronsim_nl_model - GET_MODEL, and MODEL_LOADED/UNLOADED events.
 * @model_id: model.
 * @owner_pid: tgid of the process that loaded it.
 * @target_gen: plan target generation.
 * @num_subgraphs: subgraphs.
 * @first_core: NeuronCore of subgraph 0.
 * @num_vars: mem_ref records over all subgraphs.
 * @hbm_bytes: HBM bytes held.
 * @scratchpad_bytes: scratchpad bytes.
 * @device: index of the device the model is loaded on (model ids are
 *	unique per device).
 */
struct neuronsim_nl_model {
	__u32 model_id;
	__u32 owner_pid;
	__u32 target_gen;
	__u32 num_subgraphs;
	__u32 first_core;
	__u64 num_vars;
	__u64 hbm_bytes;
	__u64 scratchpad_bytes;
	__u32 device;
};

/**
 * struct neuronsim_nl_var - one GET_VARS entry.
 * @model_id: model.
 * @subgraph: subgraph index.
 * @var_id: var_id.
 * @mr_type: enum kbin_mr_type.
 * @size: bytes.
 * @physical_address: device address (valid when @staged).
 * @staged: 0 when the variable has no address (MR_LIST).
 * @name: NUL-terminated; valid during the callback only.
 * @device: device index.
 */
struct neuronsim_nl_var {
	__u32 model_id;
	__u32 subgraph;
	__u32 var_id;
	__u32 mr_type;
	__u64 size;
	__u64 physical_address;
	bool staged;
	const char *name;
	__u32 device;
};

/**
 * struct neuronsim_nl_event - one "monitor" or "runs" notification (of
 *	any device).
 * @cmd: NEURONSIM_CMD_MODEL_LOADED, _MODEL_UNLOADED, _LOAD_FAILED,
 *	_RUN_DONE or _EXEC_DONE (the last two CAP_SYS_ADMIN callers only;
 *	neuronsim_nl_subscribe()).
 * @model: model counts (MODEL_LOADED/UNLOADED; owner_pid and device also
 *	LOAD_FAILED; model_id and device also RUN_DONE and EXEC_DONE).
 * @err_errno: LOAD_FAILED: positive errno.
 * @err_reason: LOAD_FAILED: enum kbin_check_reason.
 * @err_field: LOAD_FAILED: enum kbin_check_field.
 * @err_subgraph: LOAD_FAILED: subgraph or -1.
 * @err_record: LOAD_FAILED: record or -1.
 * @run_subgraph: RUN_DONE: the DMA queue's subgraph.
 * @run_queue: RUN_DONE: the queue's index.
 * @run_queue_name: RUN_DONE: its name (valid during the callback).
 * @run_status: RUN_DONE: 0 or the positive errno the run stopped with.
 * @run_blocks: RUN_DONE: blocks done.
 * @run_descs: RUN_DONE: DMA descriptors done.
 * @run_bytes: RUN_DONE: bytes written.
 * @run_ns: RUN_DONE: the run's time, ns.
 * @exec_status: EXEC_DONE: 0 or the positive errno of the first
 *	subgraph that did not finish (EDEADLK, ETIME, EINTR, EIO, ...).
 * @exec_subgraphs: EXEC_DONE: the model's subgraphs.
 * @exec_instructions: EXEC_DONE: instructions executed.
 * @exec_blocks: EXEC_DONE: DMA blocks completed.
 * @exec_bytes: EXEC_DONE: bytes they wrote.
 * @exec_virtual_ns: EXEC_DONE: its virtual duration.
 * @exec_wall_ns: EXEC_DONE: its wall-clock time.
 * @exec_not_simulated: EXEC_DONE: 0xD4 instructions whose data movement
 *	was not simulated.
 */
struct neuronsim_nl_event {
	__u8 cmd;
	struct neuronsim_nl_model model;
	__u32 err_errno;
	__u32 err_reason;
	__u32 err_field;
	__s32 err_subgraph;
	__s32 err_record;
	__u32 run_subgraph;
	__u32 run_queue;
	const char *run_queue_name;
	__u32 run_status;
	__u32 run_blocks;
	__u32 run_descs;
	__u64 run_bytes;
	__u64 run_ns;
	__u32 exec_status;
	__u32 exec_subgraphs;
	__u64 exec_instructions;
	__u64 exec_blocks;
	__u64 exec_bytes;
	__u64 exec_virtual_ns;
	__u64 exec_wall_ns;
	__u64 exec_not_simulated;
};

/**
 * neuronsim_nl_open() - connect to the "neuronsim" family (genl_connect,
 * genl_ctrl_resolve).
 * @nlp: out: handle, freed by neuronsim_nl_close().
 *
 * Return: 0, -EINVAL (@nlp NULL), -ENOENT (family not registered: module
 * not loaded), -ENOMEM, or a socket error.
 */
int neuronsim_nl_open(struct neuronsim_nl **nlp);

/**
 * neuronsim_nl_close() - close the sockets and free the handle.
 * @nl: handle or NULL.
 */
void neuronsim_nl_close(struct neuronsim_nl *nl);

/**
 * neuronsim_nl_set_device() - name one device in every later request.
 * @nl: handle.
 * @device: device index, < NEURONSIM_MAX_DEVICES.
 *
 * Without it requests name no device: GET_DEVICE, GET_MODEL (doit) and
 * GET_VARS mean device 0 and neuronsim_nl_list_models() lists every
 * device's models.  After it they mean @device, and
 * neuronsim_nl_list_models() lists only its models.  Events are every
 * device's either way (neuronsim_nl_event.model.device says which).
 *
 * Return: 0, -EINVAL (@nl NULL, @device out of range).
 */
int neuronsim_nl_set_device(struct neuronsim_nl *nl, __u32 device);

/**
 * neuronsim_nl_get_device() - GET_DEVICE.
 * @nl: handle.
 * @dev: out.
 *
 * Return: 0, -EINVAL, -ENODEV (no such device), or the kernel's -errno.
 */
int neuronsim_nl_get_device(struct neuronsim_nl *nl,
			    struct neuronsim_nl_device *dev);

/** Callback of neuronsim_nl_list_devices(); non-zero return stops the walk. */
typedef int (*neuronsim_device_cb)(const struct neuronsim_nl_device *d,
				   void *ctx);

/**
 * neuronsim_nl_list_devices() - GET_DEVICE dump: @cb once per device, in
 * index order (whatever neuronsim_nl_set_device() said).
 * @nl: handle.
 * @cb: callback.
 * @ctx: passed to @cb.
 *
 * Return: 0, -EINVAL (@nl or @cb NULL), a kernel -errno, or -ECANCELED
 * when @cb returned non-zero.
 */
int neuronsim_nl_list_devices(struct neuronsim_nl *nl, neuronsim_device_cb cb,
			      void *ctx);

/**
 * neuronsim_nl_get_model() - GET_MODEL doit.
 * @nl: handle.
 * @model_id: model (any fd's) of the device of neuronsim_nl_set_device()
 *	(default 0).
 * @model: out.
 *
 * Return: 0, -EINVAL (model_id 0, NULL pointers), -ENOENT (no such model),
 * -ENODEV (no such device).
 */
int neuronsim_nl_get_model(struct neuronsim_nl *nl, __u32 model_id,
			   struct neuronsim_nl_model *model);

/** Callback of neuronsim_nl_list_models(); non-zero return stops the walk. */
typedef int (*neuronsim_model_cb)(const struct neuronsim_nl_model *m,
				  void *ctx);
/** Callback of neuronsim_nl_list_vars(); non-zero return stops the walk. */
typedef int (*neuronsim_var_cb)(const struct neuronsim_nl_var *v, void *ctx);
/** Callback of neuronsim_nl_read_events(); non-zero return stops reading. */
typedef int (*neuronsim_event_cb)(const struct neuronsim_nl_event *e,
				  void *ctx);

/**
 * neuronsim_nl_list_models() - GET_MODEL dump: @cb once per model, by
 * device index then model id; only the device of neuronsim_nl_set_device()
 * when it was called.
 * @nl: handle.
 * @cb: callback.
 * @ctx: passed to @cb.
 *
 * Return: 0, -EINVAL (@nl or @cb NULL), a kernel -errno, or -ECANCELED
 * when @cb returned non-zero (the rest of the dump is drained).
 */
int neuronsim_nl_list_models(struct neuronsim_nl *nl, neuronsim_model_cb cb,
			     void *ctx);

/**
 * neuronsim_nl_list_vars() - GET_VARS dump: @cb once per variable of a
 * model (of the device of neuronsim_nl_set_device(), default 0), by
 * subgraph then var_id.
 * @nl: handle.
 * @model_id: model.
 * @cb: callback.
 * @ctx: passed to @cb.
 *
 * Return: 0, -EINVAL, -ENOENT (no such model), -ENODEV (no such device),
 * -EPERM (not the owner process and no CAP_SYS_ADMIN), -ECANCELED (@cb
 * stopped the walk).
 */
int neuronsim_nl_list_vars(struct neuronsim_nl *nl, __u32 model_id,
			   neuronsim_var_cb cb, void *ctx);

/**
 * neuronsim_nl_subscribe() - join the "monitor" multicast group
 * (genl_ctrl_resolve_grp, nl_socket_add_membership) on a second socket,
 * and the "runs" group when the caller may: RUN_DONE events come only
 * to a caller with CAP_SYS_ADMIN (the kernel refuses "runs" to anyone
 * else, and the subscription goes on without it).
 * @nl: handle.
 *
 * Return: 0, -EINVAL, -ENOENT (no "monitor" group), or a socket error.
 */
int neuronsim_nl_subscribe(struct neuronsim_nl *nl);

/**
 * neuronsim_nl_runs_joined() - whether neuronsim_nl_subscribe() joined
 * the "runs" group too, i.e. whether RUN_DONE and EXEC_DONE events will
 * come (the kernel grants it to CAP_SYS_ADMIN only).
 * @nl: handle after neuronsim_nl_subscribe().
 *
 * Return: 1 joined, 0 not, -EINVAL when not subscribed.
 */
int neuronsim_nl_runs_joined(struct neuronsim_nl *nl);

/**
 * neuronsim_nl_event_fd() - the event socket's fd, for poll(2).
 * @nl: handle after neuronsim_nl_subscribe().
 *
 * Return: fd >= 0, or -EINVAL when not subscribed.
 */
int neuronsim_nl_event_fd(struct neuronsim_nl *nl);

/**
 * neuronsim_nl_read_events() - wait up to @timeout_ms for events and call
 * @cb for each.
 * @nl: handle after neuronsim_nl_subscribe().
 * @timeout_ms: milliseconds to wait for the first event; -1 forever.
 * @cb: callback.
 * @ctx: passed to @cb.
 *
 * Return: number of events handled (>= 0; 0 on timeout), -EINVAL, -EINTR
 * (a signal arrived), -ECANCELED (@cb stopped), or a socket error.
 */
int neuronsim_nl_read_events(struct neuronsim_nl *nl, int timeout_ms,
			     neuronsim_event_cb cb, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* NEURONSIM_LIB_H */
