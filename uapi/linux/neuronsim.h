/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * neuronsim.h - ioctl ABI of /dev/neuronsimN, the simulated Neuron devices.
 *
 * Designed by Documentation/process/botching-up-ioctls.rst:
 *   - every struct uses fixed-size types, natural alignment and explicit
 *     padding, and its size is a multiple of 8 bytes;
 *   - user pointers are __u64;
 *   - every flags field is checked against its *_MASK and every reserved or
 *     padding field must be zero, else -EINVAL;
 *   - structs are extensible by size: the size is encoded in the command
 *     number; the kernel accepts a smaller struct from older userspace
 *     (missing tail read as zero) and a larger one from newer userspace as
 *     long as the extra tail is all zero (else -E2BIG), as
 *     copy_struct_from_user() does;
 *   - GET_INFO reports NEURONSIM_ABI_VERSION and feature bits so userspace
 *     can tell what the kernel supports.
 *
 * Each simulated device N has the node /dev/neuronsimN (N <
 * NEURONSIM_MAX_DEVICES); /dev/neuronsim opens device 0.  Devices are
 * created and removed through /sys/bus/neuronsim (Documentation/uapi.rst).
 * Models belong to the file descriptor that loaded them: every other fd
 * (same process or not) gets -ENOENT for them, and closing the fd unloads
 * them.  Model ids are unique per device.  Device tensors (TENSOR_ALLOC)
 * belong to the file descriptor that allocated them in the same way, and
 * closing it frees them.  There is deliberately no raw device-address
 * access: bytes move only through READ_VAR/WRITE_VAR on a staged
 * variable, TENSOR_IO on a tensor and TENSOR_COPY between the two.
 *
 * Units: sizes and offsets in bytes; addresses are device addresses in the
 * simulated device's address map (see struct neuronsim_info and
 * Documentation/uapi.rst).  Device address 0 is never handed out.
 */
#ifndef _UAPI_LINUX_NEURONSIM_H
#define _UAPI_LINUX_NEURONSIM_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

#define NEURONSIM_DEVICE_NAME	"neuronsim"
#define NEURONSIM_ABI_VERSION	1U

/* ioctl magic: 0xB8 is unassigned in ioctl-number.rst */
#define NEURONSIM_IOC_MAGIC	0xB8

#define NEURONSIM_MAX_HBM_CHANNELS	4U
#define NEURONSIM_MAX_CORES		8U
/* device indices: /dev/neuronsim0 .. /dev/neuronsim63 */
#define NEURONSIM_MAX_DEVICES		64U

/* struct neuronsim_info.features */
#define NEURONSIM_FEAT_RESOLVE_BATCH	_BITULL(0)
#define NEURONSIM_FEAT_VAR_IO		_BITULL(1)
#define NEURONSIM_FEAT_NETLINK		_BITULL(2)
#define NEURONSIM_FEAT_DMA_INFO		_BITULL(3)
#define NEURONSIM_FEAT_DMA_RUN		_BITULL(4)
#define NEURONSIM_FEAT_EXECUTE		_BITULL(5)
#define NEURONSIM_FEAT_TENSOR		_BITULL(6)

/**
 * struct neuronsim_info - NEURONSIM_IOC_GET_INFO (out), 184 bytes.
 * @abi_version: NEURONSIM_ABI_VERSION.
 * @arch_gen: 2 (trn1), 3 (trn2), 4 (trn3); the generation table of
 *	Documentation/hardware.rst has every number below.
 * @arch_name: "trn1", "trn2" or "trn3", NUL-terminated.
 * @features: NEURONSIM_FEAT_* bits.
 * @num_cores: NeuronCores on the device.
 * @num_hbm_channels: HBM channels.
 * @hbm_channel_size: bytes per HBM channel.
 * @hbm_base: device address of each channel (0 for unused slots).
 * @sbuf_base: device address of NeuronCore 0's SBUF window; core N's
 *	window is at sbuf_base + N * sbuf_window_size.
 * @sbuf_window_size: bytes of each NeuronCore's SBUF window (32 MiB).
 * @sbuf_partitions: SBUF partitions per NeuronCore (128).
 * @sbuf_partition_size: bytes per partition (the generation's); SBUF per
 *	core = partitions * partition size.
 * @psum_size: PSUM bytes per core.
 * @scratchpad_page_size: bytes per scratchpad page.
 * @scratchpad_max_pages: pages a model may use per scratchpad.
 * @max_models_per_fd: limit (module parameter).
 * @max_plan_bytes: limit on NEURONSIM_IOC_LOAD plan_len (module parameter).
 * @max_vars_per_subgraph: limit (module parameter).
 * @max_tensors_per_fd: device tensors one file descriptor may hold
 *	(module parameter; a former reserved field: 0 from a kernel without
 *	NEURONSIM_FEAT_TENSOR).
 * @backing_limit: bytes of RAM the simulated memory of this device may use
 *	(module parameter backing_limit; the devices together are bounded
 *	by backing_limit_total as well).
 * @max_loading_bytes: plan bytes all loads in progress may hold at once
 *	(module parameter; 0 from a kernel that does not say).
 * @psum_base: device address of NeuronCore 0's PSUM window; core N's
 *	window is at psum_base + N * psum_size, PSUM partition p at p *
 *	(psum_size / PSUM partitions) in it (Documentation/uapi.rst,
 *	"Address map"); 0 from a kernel without PSUM windows.
 * @reserved: zero.
 */
struct neuronsim_info {
	__u32 abi_version;
	__u32 arch_gen;
	char arch_name[16];
	__u64 features;
	__u32 num_cores;
	__u32 num_hbm_channels;
	__u64 hbm_channel_size;
	__u64 hbm_base[NEURONSIM_MAX_HBM_CHANNELS];
	__u64 sbuf_base;
	__u64 sbuf_window_size;
	__u32 sbuf_partitions;
	__u32 sbuf_partition_size;
	__u64 psum_size;
	__u64 scratchpad_page_size;
	__u32 scratchpad_max_pages;
	__u32 max_models_per_fd;
	__u64 max_plan_bytes;
	__u32 max_vars_per_subgraph;
	__u32 max_tensors_per_fd;
	__u64 backing_limit;
	__u64 max_loading_bytes;
	__u64 psum_base;
	__u64 reserved[2];
};

/* struct neuronsim_load.flags */
#define NEURONSIM_LOAD_F_MASK	0U

/* struct neuronsim_load.first_core: the first run of free NeuronCores */
#define NEURONSIM_CORE_ANY	(~0U)

/**
 * struct neuronsim_load - NEURONSIM_IOC_LOAD (in/out), 64 bytes.
 * @plan_ptr: in: user pointer to the KBIN plan bytes.
 * @plan_len: in: plan bytes; at most struct neuronsim_info.max_plan_bytes.
 * @log_buf: in: user pointer to a buffer for readable failure text, or 0.
 * @log_size: in: bytes of @log_buf (0 with @log_buf 0).
 * @first_core: in: NeuronCore for subgraph 0; subgraph i goes to
 *	first_core + i.  NEURONSIM_CORE_ANY: the first run of
 *	num_subgraphs consecutive NeuronCores no process holds (first-fit);
 *	NEURONSIM_IOC_MODEL_INFO reports the one chosen.
 * @flags: in: NEURONSIM_LOAD_F_*, checked against NEURONSIM_LOAD_F_MASK.
 * @model_id: out: the new model's id (>= 1) on success.
 * @err_subgraph: out: on failure the failing subgraph, or -1.
 * @err_record: out: on failure the failing record index, or -1.
 * @err_reason: out: enum kbin_check_reason (0 on success).
 * @err_field: out: enum kbin_check_field.
 * @log_len: out: bytes of text written to @log_buf, NUL included.
 * @reserved: must be zero.
 *
 * NeuronCores belong to processes (Documentation/uapi.rst, "NeuronCores"):
 * the cores of a load are reserved for the calling thread group, which
 * shares them among its models, until its last model on them is unloaded
 * (or its last fd closed); a load of another thread group on a reserved
 * core fails with -EBUSY.  A core's SBUF reads zeros to its next owner.
 *
 * The new model becomes visible (to RESOLVE and the other ioctls, debugfs,
 * netlink, the fd's model count) only after this struct, with @model_id,
 * has been written back; when that write fails LOAD returns -EFAULT and
 * nothing is loaded.
 *
 * Errors: -EFAULT bad pointer (the plan, the log buffer, or this struct
 * not writable: then nothing is loaded); -EINVAL bad flags/reserved fields, a plan
 * the checker refuses (err_* tell why), a plan for another target
 * generation (KBIN_ERR_TARGET), an MR_SB larger than the core's SBUF or a
 * virtual buffer straddling a scratchpad page; -E2BIG plan_len over
 * max_plan_bytes or over max_loading_bytes, records per subgraph over
 * max_vars_per_subgraph or scratchpad pages over the maximum; -EINTR a
 * signal while the load waited for the plan bytes of the loads in
 * progress to leave room under max_loading_bytes (it waits, it does not
 * fail, while they do not); -ENOSPC HBM exhausted (or the debugfs knob
 * fail_hbm_alloc_nth); -EIO the debugfs knob fail_copyin_nth; -ENOMEM
 * kernel memory or the backing RAM cap; -EMFILE models per fd at the
 * limit; -ENODEV first_core + subgraphs beyond the device's cores; -EBUSY
 * a NeuronCore of the load is reserved by another process, or with
 * NEURONSIM_CORE_ANY no run of free cores is left (err_reason
 * KBIN_ERR_STAGE_CORES; the log names a core and its owner's pid).  The
 * struct is written back on failure too (err_*, log_len).  A failed load
 * leaves nothing behind.
 */
struct neuronsim_load {
	__u64 plan_ptr;
	__u64 plan_len;
	__u64 log_buf;
	__u32 log_size;
	__u32 first_core;
	__u32 flags;
	__u32 model_id;
	__s32 err_subgraph;
	__s32 err_record;
	__u32 err_reason;
	__u32 err_field;
	__u32 log_len;
	__u32 reserved;
};

/**
 * struct neuronsim_unload - NEURONSIM_IOC_UNLOAD (in), 8 bytes.
 * @model_id: a model this fd loaded.
 * @flags: must be zero.
 *
 * Errors: -ENOENT no such model on this fd; -EINVAL flags set.
 */
struct neuronsim_unload {
	__u32 model_id;
	__u32 flags;
};

/**
 * struct neuronsim_resolve - NEURONSIM_IOC_RESOLVE (in/out), 40 bytes.
 * @model_id: in.
 * @subgraph: in: index into the plan's subgraph table.
 * @var_id: in.
 * @flags: in: must be zero.
 * @offset: in: bytes into the variable.
 * @size: in: bytes the access covers.
 * @address: out: device address = offset + physical_address.
 *
 * -EINVAL when flags are set; then the rule of libnrt's mem_ref_to_addr
 * (Documentation/uapi.rst), in this order:
 *   -ENOENT  unknown model (or not this fd's), subgraph or var_id;
 *   -ERANGE  var size < offset + size (or the sum overflows);
 *   -EINVAL  MR_PTR with offset != 0 (its address is its target's base);
 *   -ENODATA the variable is not staged (MR_LIST).
 * An MR_PTR_TABLE is staged: its address is that of its table in HBM
 * (one little-endian __u64 device address per listed variable), and its
 * size is max(record size, 8 * list length).
 */
struct neuronsim_resolve {
	__u32 model_id;
	__u32 subgraph;
	__u32 var_id;
	__u32 flags;
	__u64 offset;
	__u64 size;
	__u64 address;
};

/**
 * struct neuronsim_resolve_entry - one RESOLVE_BATCH entry, 40 bytes.
 * @subgraph: in.
 * @var_id: in.
 * @offset: in: bytes.
 * @size: in: bytes.
 * @address: out: device address, or 0 when @status is not 0.
 * @status: out: 0 or the negative errno RESOLVE would return.
 * @reserved: must be zero.
 */
struct neuronsim_resolve_entry {
	__u32 subgraph;
	__u32 var_id;
	__u64 offset;
	__u64 size;
	__u64 address;
	__s32 status;
	__u32 reserved;
};

#define NEURONSIM_RESOLVE_BATCH_MAX	0x100000U

/**
 * struct neuronsim_resolve_batch - NEURONSIM_IOC_RESOLVE_BATCH, 32 bytes.
 * @model_id: in.
 * @count: in: entries, 1..NEURONSIM_RESOLVE_BATCH_MAX.
 * @entries: in: user pointer to struct neuronsim_resolve_entry[count].
 * @flags: in: must be zero.
 * @num_ok: out: entries with status 0.
 * @reserved: must be zero.
 *
 * Errors of the call itself: -ENOENT unknown model; -EINVAL count 0 or
 * over the maximum, flags or reserved set; -EFAULT bad @entries.  Per-entry
 * failures go to each entry's @status.
 */
struct neuronsim_resolve_batch {
	__u32 model_id;
	__u32 count;
	__u64 entries;
	__u32 flags;
	__u32 num_ok;
	__u64 reserved;
};

/**
 * struct neuronsim_var_io - NEURONSIM_IOC_READ_VAR / WRITE_VAR, 40 bytes.
 * @model_id: in.
 * @subgraph: in.
 * @var_id: in.
 * @flags: in: must be zero.
 * @offset: in: bytes into the variable.
 * @len: in: bytes to copy; offset + len <= the variable's size.
 * @buf: in: user pointer.
 *
 * Errors: -EINVAL flags set; -ENOENT unknown model/subgraph/var; -ERANGE
 * out of bounds; -ENODATA the variable has no storage (MR_PTR, MR_LIST);
 * -EPERM WRITE_VAR to an MR_PTR_TABLE (its table is read-only; READ_VAR
 * returns it) or to bytes of an SBUF carve-out of the model (e.g. the
 * evtaccel bytes inside an MR_SB variable; READ_VAR reads them); -EFAULT
 * bad @buf; -ENOMEM backing RAM cap (write only).
 */
struct neuronsim_var_io {
	__u32 model_id;
	__u32 subgraph;
	__u32 var_id;
	__u32 flags;
	__u64 offset;
	__u64 len;
	__u64 buf;
};

/**
 * struct neuronsim_model_info - NEURONSIM_IOC_MODEL_INFO (in/out), 64 bytes.
 * @model_id: in.
 * @flags: in: must be zero.
 * @target_gen: out.
 * @num_subgraphs: out.
 * @first_core: out.
 * @reserved0: zero.
 * @num_vars: out: records over all subgraphs.
 * @hbm_bytes: out: HBM bytes the model holds (allocations incl. alignment).
 * @scratchpad_bytes: out.
 * @reserved: zero.
 *
 * Errors: -ENOENT unknown model; -EINVAL flags set.
 */
struct neuronsim_model_info {
	__u32 model_id;
	__u32 flags;
	__u32 target_gen;
	__u32 num_subgraphs;
	__u32 first_core;
	__u32 reserved0;
	__u64 num_vars;
	__u64 hbm_bytes;
	__u64 scratchpad_bytes;
	__u64 reserved[2];
};

/* struct neuronsim_dma_info.flags */
#define NEURONSIM_DMA_INFO_F_RING	0x1U	/* also a range of one ring side */
#define NEURONSIM_DMA_INFO_F_MASK	0x1U
/* struct neuronsim_dma_info.side */
#define NEURONSIM_DMA_M2S		0U
#define NEURONSIM_DMA_S2M		1U
/* UDMA descriptors one DMA_INFO call returns at most */
#define NEURONSIM_DMA_INFO_MAX_DESCS	65536U
#define NEURONSIM_DMA_NAME_MAX		64U

/**
 * struct neuronsim_dma_queue_info - one relocated DMA queue of a subgraph
 * (NEURONSIM_IOC_DMA_INFO, out), 128 bytes.
 * @name: its name, NUL-terminated (truncated to NEURONSIM_DMA_NAME_MAX - 1
 *	bytes; real queue names are far shorter).
 * @type: enum kbin_dma_queue_type (1 in, 2 data, 3 dynamic).
 * @owner: enum kbin_dma_engine (1 pe, 2 act, 3 pool, 4 dve, 5 sp).
 * @num_blocks: its blocks.
 * @num_descs: its descriptors.
 * @m2s_descs: UDMA descriptors of its M2S (read) side.
 * @s2m_descs: UDMA descriptors of its S2M (write) side.
 * @m2s_rings: rings of its M2S side (0 with no descriptor; more than one
 *	when the side needs more than the dma_ring_max_descs parameter).
 * @s2m_rings: rings of its S2M side.
 * @m2s_ring_addr: device address of its first M2S submission ring, 0 none.
 * @s2m_ring_addr: the same for S2M.
 * @ring_bytes: HBM bytes of its rings (submission and completion, both
 *	sides; charged to DMA_RING).
 * @reserved: zero.
 */
struct neuronsim_dma_queue_info {
	char name[NEURONSIM_DMA_NAME_MAX];
	__u32 type;
	__u32 owner;
	__u32 num_blocks;
	__u32 num_descs;
	__u32 m2s_descs;
	__u32 s2m_descs;
	__u32 m2s_rings;
	__u32 s2m_rings;
	__u64 m2s_ring_addr;
	__u64 s2m_ring_addr;
	__u64 ring_bytes;
	__u64 reserved;
};

/**
 * struct neuronsim_dma_desc_info - one UDMA descriptor of a ring and where
 * it came from (NEURONSIM_IOC_DMA_INFO, out), 48 bytes.
 * @desc: the 16 bytes of the descriptor as its ring holds them (union
 *	udma_desc, uapi/linux/neuronsim_udma.h).
 * @addr: the device address of the descriptor in its submission ring.
 * @offset: the byte offset in the variable it moves: its buf_ptr (M2S) or
 *	buf1_ptr (S2M) is RESOLVE of (@var_id, @offset, its length).
 * @var_id: the variable of its descriptor's side.
 * @block: the block's id in the queue.
 * @desc_index: the descriptor's index in the block.
 * @ring: the ring holding it, among the side's rings.
 */
struct neuronsim_dma_desc_info {
	__u8 desc[16];
	__u64 addr;
	__u64 offset;
	__u32 var_id;
	__u32 block;
	__u32 desc_index;
	__u32 ring;
};

/**
 * struct neuronsim_dma_info - NEURONSIM_IOC_DMA_INFO (in/out), 64 bytes:
 * the relocated DMA queues of one subgraph of a model and, with
 * NEURONSIM_DMA_INFO_F_RING, a range of one queue side's UDMA descriptors
 * (Documentation/relocation.rst).
 * @model_id: in: a model of this fd.
 * @subgraph: in.
 * @flags: in: NEURONSIM_DMA_INFO_F_*.
 * @num_queues: in: entries of @queues; out: the subgraph's queues (the
 *	first min(in, out) are written).
 * @queues: in: user pointer to struct neuronsim_dma_queue_info[@num_queues],
 *	or 0: no summary is written, only the count (so a caller may pass
 *	the struct back unchanged for the next ring range).
 * @queue: in (F_RING): the queue's index, < the subgraph's queues.
 * @side: in (F_RING): NEURONSIM_DMA_M2S or NEURONSIM_DMA_S2M.
 * @first: in (F_RING): the first UDMA descriptor, <= the side's count.
 * @count: in (F_RING): entries of @descs, at most
 *	NEURONSIM_DMA_INFO_MAX_DESCS; out: entries written, min(in, side's
 *	count - @first).  Without F_RING it must be 0.
 * @descs: in (F_RING): user pointer to struct
 *	neuronsim_dma_desc_info[@count]; without F_RING 0.
 * @reserved: zero.
 *
 * Errors: -EINVAL unknown flags, a reserved field set, @queue or @side out
 * of range, @count above NEURONSIM_DMA_INFO_MAX_DESCS, a ring field
 * without F_RING, a non-zero @count with a NULL @descs; -ENOENT unknown
 * model (or another fd's) or subgraph; -ERANGE @first past the side's
 * count; -EFAULT bad pointer.
 */
struct neuronsim_dma_info {
	__u32 model_id;
	__u32 subgraph;
	__u32 flags;
	__u32 num_queues;
	__u64 queues;
	__u32 queue;
	__u32 side;
	__u32 first;
	__u32 count;
	__u64 descs;
	__u64 reserved[2];
};

/* DMA queues one RUN or WAIT names at most */
#define NEURONSIM_RUN_MAX_QUEUES	64U

/* struct neuronsim_run_result.state */
#define NEURONSIM_RUN_IDLE		0U	/* never run since LOAD */
#define NEURONSIM_RUN_QUEUED		1U	/* waiting for its engine */
#define NEURONSIM_RUN_RUNNING		2U
#define NEURONSIM_RUN_DONE		3U	/* finished; @status says how */

/**
 * struct neuronsim_run - NEURONSIM_IOC_RUN (in), 40 bytes: start DMA
 * queues of one subgraph on its NeuronCore's DMA engine, in the order
 * given, and return at once (Documentation/dma.rst).
 * @model_id: in: a model of this fd.
 * @subgraph: in.
 * @flags: in: must be zero.
 * @num_queues: in: entries of @queues, 1..NEURONSIM_RUN_MAX_QUEUES.
 * @queues: in: user pointer to __u32[@num_queues], queue indexes (the
 *	order of NEURONSIM_IOC_DMA_INFO), each at most once.
 * @reserved: zero.
 *
 * Each queue runs its blocks in id order, each block's descriptors in
 * order, each from its M2S (read) and S2M (written) UDMA descriptors in
 * ring order, two streams; compute engines are not simulated.  The queues of
 * one subgraph's core run one after another; other cores' in parallel.
 *
 * Errors: -EINVAL flags or reserved set, @num_queues out of range, a
 * queue index out of range or twice; -ENOENT unknown model (or another
 * fd's) or subgraph; -EBUSY a queue is queued or running already, or
 * the model is executing (NEURONSIM_IOC_EXECUTE);
 * -EAGAIN the fd has max_runs_per_fd runs queued or running; -EFAULT bad
 * @queues; -ENOMEM.
 */
struct neuronsim_run {
	__u32 model_id;
	__u32 subgraph;
	__u32 flags;
	__u32 num_queues;
	__u64 queues;
	__u64 reserved[2];
};

/**
 * struct neuronsim_run_result - one queue's latest run
 * (NEURONSIM_IOC_WAIT, out), 64 bytes.
 * @queue: the queue index.
 * @state: NEURONSIM_RUN_IDLE, _QUEUED, _RUNNING or _DONE.
 * @status: 0, or the negative errno the run stopped with: -ENOMEM a
 *	write hit the backing RAM cap; -EIO a bad UDMA descriptor (length or
 *	address; also the fail_run_nth fault knob); -EOPNOTSUPP a transpose
 *	the engine cannot read; -ECANCELED UNLOAD or close stopped it.
 * @blocks: blocks done.
 * @descs: DMA descriptors done.
 * @fail_block: the block (its id in the queue) the run stopped in, or
 *	0xffffffff.
 * @fail_desc: the descriptor (its index in that block), or 0xffffffff.
 * @reserved: zero.
 * @udma_descs: UDMA descriptors executed, M2S and S2M.
 * @bytes: bytes written (S2M).
 * @ns: nanoseconds from the run's start on the engine to its end.
 * @runs: runs of the queue finished since LOAD.
 */
struct neuronsim_run_result {
	__u32 queue;
	__u32 state;
	__s32 status;
	__u32 blocks;
	__u32 descs;
	__u32 fail_block;
	__u32 fail_desc;
	__u32 reserved;
	__u64 udma_descs;
	__u64 bytes;
	__u64 ns;
	__u64 runs;
};

/**
 * struct neuronsim_wait - NEURONSIM_IOC_WAIT (in/out), 48 bytes: wait until
 * none of the given queues is queued or running, then report each.
 * @model_id: in: a model of this fd.
 * @subgraph: in.
 * @flags: in: must be zero.
 * @num_queues: in: entries of @queues and @results, 1..
 *	NEURONSIM_RUN_MAX_QUEUES.
 * @queues: in: user pointer to __u32[@num_queues] queue indexes.
 * @results: in: user pointer to struct neuronsim_run_result[@num_queues];
 *	out: filled.  A finished run is "waited for" once reported (poll()
 *	no longer counts it).
 * @timeout_ns: in: how long to wait; 0 checks once, negative waits for
 *	ever.
 * @reserved: zero.
 *
 * The wait is interruptible.  Errors: -EINVAL flags or reserved set,
 * @num_queues out of range, a queue index out of range; -ENOENT unknown
 * model (or another fd's, or unloaded meanwhile) or subgraph; -ETIMEDOUT
 * a queue is still queued or running at the timeout; -EINTR a signal
 * arrived first; -EFAULT bad pointer.
 */
struct neuronsim_wait {
	__u32 model_id;
	__u32 subgraph;
	__u32 flags;
	__u32 num_queues;
	__u64 queues;
	__u64 results;
	__s64 timeout_ns;
	__u64 reserved;
};

/* semaphores of a NeuronCore an execution reports (every generation's) */
#define NEURONSIM_SEMAPHORES		128U
/* engines (sequencers) of a NeuronCore: PE, ACT, POOL, DVE, SP */
#define NEURONSIM_ENGINES		5U
/* instruction classes: compute, wait (0xA0), trigger (0xC1), dma (0xD4) */
#define NEURONSIM_INSTR_CLASSES		4U
/* trace events one execution records at most */
#define NEURONSIM_EXEC_MAX_EVENTS	0x100000U

/* struct neuronsim_exec.flags */
#define NEURONSIM_EXEC_F_TRACE		0x1U	/* record trace events */
/* check every access against the program's order (Documentation/races.rst) */
#define NEURONSIM_EXEC_F_RACE		0x2U
#define NEURONSIM_EXEC_F_MASK		0x3U

/* struct neuronsim_exec_wait.state */
#define NEURONSIM_EXEC_IDLE		0U	/* never executed since LOAD */
#define NEURONSIM_EXEC_RUNNING		1U	/* queued or running */
#define NEURONSIM_EXEC_DONE		2U	/* ended; @status says how */

/* struct neuronsim_exec_engine.state, at the end of an execution */
#define NEURONSIM_ENGINE_IDLE		0U	/* not run (the subgraph did not start) */
#define NEURONSIM_ENGINE_DONE		1U	/* every instruction executed */
#define NEURONSIM_ENGINE_WAITING	2U	/* its next instruction's wait is not met */
/* stopped otherwise: timeout, cancellation, a failed DMA block */
#define NEURONSIM_ENGINE_STOPPED	3U

/**
 * struct neuronsim_exec - NEURONSIM_IOC_EXECUTE (in), 32 bytes: execute
 * every subgraph of a model, each on its NeuronCore, and return at once
 * (Documentation/execute.rst).
 * @model_id: in: a model of this fd, loaded from a plan with a program
 *	(KBIN version 3).
 * @flags: in: NEURONSIM_EXEC_F_*.
 * @timeout_ns: in: wall-clock nanoseconds from this call after which
 *	the execution stops with status -ETIME; 0 none.
 * @max_events: in: NEURONSIM_EXEC_F_TRACE: trace events to keep,
 *	1..NEURONSIM_EXEC_MAX_EVENTS (an execution records at most one per
 *	instruction and one per DMA block; past @max_events they are
 *	counted as dropped); else 0.
 * @reserved0: zero.
 * @reserved: zero.
 *
 * Every subgraph runs on its NeuronCore's queue of work (the DMA
 * engine's): five sequencers walk its engines' instruction streams in
 * virtual time, on a semaphore file of NEURONSIM_SEMAPHORES signed
 * 32-bit semaphores reset to 0; a trigger (0xC1) submits a DMA block to
 * its queue, whose bytes the DMA engine moves; compute instructions are
 * counted, not computed, and the data movement of 0xD4 is not simulated
 * (its semaphore effect is).  NEURONSIM_IOC_EXEC_WAIT and poll() report
 * the end.  UNLOAD and close cancel it; a signal during EXEC_WAIT does
 * too.
 *
 * With NEURONSIM_EXEC_F_RACE each subgraph also checks, as it runs,
 * that every access of a DMA block or a compute instruction is ordered
 * after the conflicting accesses before it in the program's order (a
 * shadow of SBUF, PSUM and the variables; Documentation/races.rst): the
 * first violation goes to the kernel log, naming both sides, and the
 * subgraph's status is -EILSEQ when it otherwise finished.  Without the
 * flag an execution pays one test per access.
 *
 * Errors: -EINVAL unknown flags, reserved set, @max_events out of range
 * (or set without F_TRACE); -ENOENT unknown model (or another fd's);
 * -ENODATA the plan has no program; -EBUSY this model is executing, a
 * queue of it is queued or running (RUN), or another execution holds one
 * of its NeuronCores; -ENOMEM (the trace buffer); -EFAULT.
 */
struct neuronsim_exec {
	__u32 model_id;
	__u32 flags;
	__u64 timeout_ns;
	__u32 max_events;
	__u32 reserved0;
	__u64 reserved;
};

/**
 * struct neuronsim_exec_engine - one engine of a subgraph at the end of
 * an execution (NEURONSIM_IOC_EXEC_WAIT, out), 1112 bytes.
 * @instructions: instructions in its stream.
 * @done: instructions executed; the index of the next one.
 * @state: NEURONSIM_ENGINE_*.
 * @wait_opcode: _WAITING: the opcode of instruction @done.
 * @wait_semaphore: _WAITING: the semaphore it waits on.
 * @wait_value: _WAITING: the value it waits for (semaphore >= it).
 * @wait_current: _WAITING: the semaphore's value at the end.
 * @blocks: DMA blocks its triggers started that completed.
 * @classes: instructions executed per class: compute, wait, trigger, dma.
 * @descs: DMA descriptors of those blocks.
 * @bytes: bytes those blocks wrote.
 * @busy_ns: virtual nanoseconds its instructions took.
 * @end_ns: virtual time its last executed instruction ended.
 * @not_simulated: 0xD4 instructions executed: their semaphore increment
 *	was applied, their data movement (not publicly described) was not.
 * @reserved: zero.
 * @opcodes: instructions executed per opcode.
 */
struct neuronsim_exec_engine {
	__u32 instructions;
	__u32 done;
	__u32 state;
	__u32 wait_opcode;
	__u32 wait_semaphore;
	__u32 wait_value;
	__s32 wait_current;
	__u32 blocks;
	__u32 classes[NEURONSIM_INSTR_CLASSES];
	__u64 descs;
	__u64 bytes;
	__u64 busy_ns;
	__u64 end_ns;
	__u32 not_simulated;
	__u32 reserved;
	__u32 opcodes[256];
};

/**
 * struct neuronsim_exec_queue - one DMA queue of a subgraph at the end of
 * an execution (NEURONSIM_IOC_EXEC_WAIT, out), 32 bytes.
 * @blocks: blocks done (a queue runs them in id order, first in first
 *	out).
 * @descs: DMA descriptors done.
 * @udma_descs: UDMA descriptors executed, M2S and S2M.
 * @bytes: bytes written (S2M).
 * @busy_ns: virtual nanoseconds its blocks took.
 */
struct neuronsim_exec_queue {
	__u32 blocks;
	__u32 descs;
	__u64 udma_descs;
	__u64 bytes;
	__u64 busy_ns;
};

/**
 * struct neuronsim_exec_sg - one subgraph's execution
 * (NEURONSIM_IOC_EXEC_WAIT, out), 6120 bytes.
 * @status: 0 every instruction and block ran; -EILSEQ they did, and
 *	NEURONSIM_EXEC_F_RACE found an access not ordered after a
 *	conflicting one (the kernel log names both); -EDEADLK no sequencer
 *	could advance and no DMA was in flight (@engines say where each
 *	waits); -ETIME the timeout; -EINTR a signal during EXEC_WAIT
 *	cancelled it; -EIO, -EOPNOTSUPP or -ENOMEM a DMA block failed
 *	(@fail_*; Documentation/dma.rst); -EDQUOT or -ENOMEM with @fail_*
 *	0xffffffff: a compute instruction of a compute plan failed to
 *	write memory (its engine is NEURONSIM_ENGINE_STOPPED, its done the
 *	instruction; Documentation/execute.rst, "Compute plans").
 * @core: its NeuronCore.
 * @num_queues: its DMA queues.
 * @num_events: trace events it recorded.
 * @virtual_ns: its virtual duration: when its last instruction or block
 *	ended.
 * @wall_ns: wall-clock nanoseconds it took on its NeuronCore.
 * @fail_queue: the queue index of the block a DMA failure, the timeout,
 *	a signal or a cancel stopped in the middle, else 0xffffffff.
 * @fail_block: its block id, else 0xffffffff.
 * @fail_desc: the descriptor's index in the block, else 0xffffffff.
 * @events_dropped: trace events past its share of max_events.
 * @semaphores: the NeuronCore's semaphores at the end.
 * @engines: PE, ACT, POOL, DVE, SP.
 */
struct neuronsim_exec_sg {
	__s32 status;
	__u32 core;
	__u32 num_queues;
	__u32 num_events;
	__u64 virtual_ns;
	__u64 wall_ns;
	__u32 fail_queue;
	__u32 fail_block;
	__u32 fail_desc;
	__u32 events_dropped;
	__s32 semaphores[NEURONSIM_SEMAPHORES];
	struct neuronsim_exec_engine engines[NEURONSIM_ENGINES];
};

/* struct neuronsim_exec_event.kind */
#define NEURONSIM_EVENT_INSTRS		1U	/* compute and wait instructions */
#define NEURONSIM_EVENT_TRIGGER		2U	/* a 0xC1 */
#define NEURONSIM_EVENT_DMA		3U	/* a 0xD4 */
#define NEURONSIM_EVENT_BLOCK		4U	/* a DMA block */
/* struct neuronsim_exec_event.flags */
#define NEURONSIM_EVENT_F_WAITED	0x1U	/* INSTRS: its first one waited */

/**
 * struct neuronsim_exec_event - one trace event of an execution
 * (NEURONSIM_IOC_EXEC_WAIT, out), 40 bytes; Documentation/execute.rst,
 * "Trace".
 * @start_ns: virtual start.
 * @end_ns: virtual end.
 * @index: INSTRS: its first instruction; TRIGGER, DMA: the instruction;
 *	BLOCK: the block's index among the subgraph's.
 * @count: INSTRS: instructions in the run (compute and wait instructions
 *	of one engine that follow one another without a gap); TRIGGER: the
 *	block it starts (its index among the subgraph's); BLOCK: its id in
 *	its queue; DMA: 1.
 * @value: INSTRS with F_WAITED: the value waited for; DMA: what it adds;
 *	BLOCK: what it adds (its queue's num_queues); else 0.
 * @track: INSTRS, TRIGGER, DMA: the engine (1 PE .. 5 SP); BLOCK: the
 *	queue's index.
 * @kind: NEURONSIM_EVENT_*.
 * @flags: NEURONSIM_EVENT_F_*.
 * @semaphore: INSTRS with F_WAITED: the semaphore waited on; DMA, BLOCK:
 *	the semaphore it adds to.
 * @opcode: INSTRS, TRIGGER, DMA: the opcode of the (first) instruction.
 * @reserved: zero.
 */
struct neuronsim_exec_event {
	__u64 start_ns;
	__u64 end_ns;
	__u32 index;
	__u32 count;
	__u32 value;
	__u16 track;
	__u8 kind;
	__u8 flags;
	__u8 semaphore;
	__u8 opcode;
	__u8 reserved[6];
};

/**
 * struct neuronsim_exec_wait - NEURONSIM_IOC_EXEC_WAIT (in/out), 128
 * bytes: wait until a model's execution has ended, then report it.
 * @model_id: in: a model of this fd.
 * @flags: in: zero.
 * @timeout_ns: in: how long to wait; 0 checks once, negative waits for
 *	ever.
 * @subgraphs: in: user pointer to struct neuronsim_exec_sg
 *	[@num_subgraphs], or 0; out: the first min(@num_subgraphs, the
 *	model's subgraphs) filled.
 * @queues: in: user pointer to struct neuronsim_exec_queue[@num_queues],
 *	or 0; out: every subgraph's DMA queues, subgraph after subgraph, as
 *	many as fit.
 * @events: in: user pointer to struct neuronsim_exec_event[@num_events],
 *	or 0; out: every subgraph's recorded trace events, subgraph after
 *	subgraph, as many as fit.
 * @num_subgraphs: in: entries of @subgraphs.
 * @num_queues: in: entries of @queues; out: the model's queues in all.
 * @num_events: in: entries of @events; out: events recorded in all.
 * @state: out: NEURONSIM_EXEC_IDLE, _RUNNING (never with 0 returned) or
 *	_DONE.
 * @status: out: 0, or the status of the first subgraph that did not
 *	finish (struct neuronsim_exec_sg).
 * @num_sg: out: the model's subgraphs.
 * @executions: out: executions ended since LOAD (any status).
 * @virtual_ns: out: the execution's virtual duration, the longest of its
 *	subgraphs'.
 * @wall_ns: out: wall-clock nanoseconds from EXECUTE to its end.
 * @instructions: out: instructions executed, all subgraphs.
 * @blocks: out: DMA blocks completed.
 * @bytes: out: bytes the DMA blocks wrote.
 * @not_simulated: out: 0xD4 instructions whose data movement was not
 *	simulated.
 * @reserved: zero.
 *
 * The wait is interruptible and does not hold the fd's lock; a signal
 * cancels the execution (its status becomes -EINTR) and returns -EINTR.
 * An execution reported once is "waited for" (poll() no longer counts
 * it).  Errors: -EINVAL flags or reserved set, a count with a NULL
 * pointer; -ENOENT unknown model (or another fd's, or unloaded
 * meanwhile); -ENODATA the plan has no program; -ETIMEDOUT still running
 * at the timeout; -EINTR; -EFAULT.
 */
struct neuronsim_exec_wait {
	__u32 model_id;
	__u32 flags;
	__s64 timeout_ns;
	__u64 subgraphs;
	__u64 queues;
	__u64 events;
	__u32 num_subgraphs;
	__u32 num_queues;
	__u32 num_events;
	__u32 state;
	__s32 status;
	__u32 num_sg;
	__u64 executions;
	__u64 virtual_ns;
	__u64 wall_ns;
	__u64 instructions;
	__u64 blocks;
	__u64 bytes;
	__u64 not_simulated;
	__u64 reserved;
};

/* struct neuronsim_tensor_alloc.name: bytes, the NUL included */
#define NEURONSIM_TENSOR_NAME_MAX	64U
/* struct neuronsim_tensor_alloc.flags */
#define NEURONSIM_TENSOR_ALLOC_F_MASK	0U
/* struct neuronsim_tensor_io.op */
#define NEURONSIM_TENSOR_READ		0U	/* tensor bytes to @buf */
#define NEURONSIM_TENSOR_WRITE		1U	/* @buf to tensor bytes */
#define NEURONSIM_TENSOR_MEMSET		2U	/* @value into tensor bytes */
/* entries one NEURONSIM_IOC_TENSOR_COPY moves at most */
#define NEURONSIM_TENSOR_COPY_MAX	256U

/**
 * struct neuronsim_tensor_alloc - NEURONSIM_IOC_TENSOR_ALLOC (in/out),
 * 104 bytes: a device tensor, bytes of HBM outside any model
 * (Documentation/uapi.rst, "Device tensors"), as libnrt's
 * nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_DEVICE, ...) makes one.
 * @core: in: the NeuronCore the bytes are charged to, < num_cores; they
 *	come from its HBM channel.  Allocating does not reserve the core.
 * @flags: in: NEURONSIM_TENSOR_ALLOC_F_*, checked against
 *	NEURONSIM_TENSOR_ALLOC_F_MASK.
 * @size: in: bytes, 1..hbm_channel_size (struct neuronsim_info); the HBM
 *	allocation is rounded up to 4 KiB, as every HBM allocation is.
 * @name: in: NUL-terminated within NEURONSIM_TENSOR_NAME_MAX bytes (may
 *	be empty); debugfs shows it.
 * @tensor_id: out: the new tensor's id (>= 1), unique on this fd.
 * @reserved0: zero.
 * @physical_address: out: the device address of its first byte, in an
 *	HBM channel, 4 KiB aligned.
 * @reserved: zero.
 *
 * The bytes are charged to libnrt's usage category TENSOR, which is the
 * Neuron driver's device-memory category "tensors" of NeuronCore @core
 * (sysfs neuron_coreM/stats/memory_usage/device_mem/tensors), and read
 * as zeros until written.  The tensor belongs to this file descriptor:
 * every other fd gets -ENOENT for its id; NEURONSIM_IOC_TENSOR_FREE or
 * closing the fd frees it.  It is visible (to the other tensor ioctls,
 * debugfs) only after this struct has been written back; when that write
 * fails the call returns -EFAULT and nothing is allocated.
 *
 * Errors: -EINVAL unknown flags, a reserved field set, @core >= num_cores,
 * @size 0, @name without a NUL; -E2BIG @size over hbm_channel_size;
 * -EMFILE the fd holds max_tensors_per_fd tensors; -ENOSPC no free range
 * of @size bytes on the core's HBM channel; -ENOMEM; -EFAULT.
 */
struct neuronsim_tensor_alloc {
	__u32 core;
	__u32 flags;
	__u64 size;
	char name[NEURONSIM_TENSOR_NAME_MAX];
	__u32 tensor_id;
	__u32 reserved0;
	__u64 physical_address;
	__u64 reserved;
};

/**
 * struct neuronsim_tensor_free - NEURONSIM_IOC_TENSOR_FREE (in), 8 bytes.
 * @tensor_id: in: a tensor of this fd.
 * @flags: in: zero.
 *
 * The id is gone at once; the HBM is freed when the last call using the
 * tensor (a TENSOR_IO or TENSOR_COPY of another thread) has returned.
 *
 * Errors: -EINVAL flags set; -ENOENT unknown tensor (or another fd's).
 */
struct neuronsim_tensor_free {
	__u32 tensor_id;
	__u32 flags;
};

/**
 * struct neuronsim_tensor_io - NEURONSIM_IOC_TENSOR_IO (in), 40 bytes:
 * read, write or set bytes of a tensor.
 * @tensor_id: in: a tensor of this fd.
 * @op: in: NEURONSIM_TENSOR_READ, _WRITE or _MEMSET.
 * @offset: in: bytes into the tensor.
 * @len: in: bytes; @offset + @len <= the tensor's size (0 moves nothing).
 * @buf: in: READ, WRITE: user pointer to @len bytes; MEMSET: zero.
 * @value: in: MEMSET: the byte value, 0..255; READ, WRITE: zero.
 * @flags: in: zero.
 *
 * Unwritten bytes read as zeros.  Errors: -EINVAL unknown @op, @flags
 * set, @value over 255 or set for READ/WRITE, @buf set for MEMSET;
 * -ENOENT unknown tensor (or another fd's); -ERANGE @offset + @len past
 * the tensor's size (or overflowing); -EFAULT bad @buf; -ENOMEM the
 * backing RAM cap (WRITE, MEMSET; the bytes before it are written);
 * -EINTR a fatal signal.
 */
struct neuronsim_tensor_io {
	__u32 tensor_id;
	__u32 op;
	__u64 offset;
	__u64 len;
	__u64 buf;
	__u32 value;
	__u32 flags;
};

/**
 * struct neuronsim_tensor_end - one end of a TENSOR_COPY entry, 24 bytes:
 * a tensor or a staged variable of a model.
 * @tensor_id: a tensor of this fd; 0: the end is a model variable.
 * @model_id: with @tensor_id 0: a model this fd loaded; else zero.
 * @subgraph: with @tensor_id 0: the variable's subgraph; else zero.
 * @var_id: with @tensor_id 0: the variable; else zero.
 * @offset: bytes into the tensor or variable.
 *
 * A variable end is what NEURONSIM_IOC_READ_VAR (source) or WRITE_VAR
 * (destination) of (@model_id, @subgraph, @var_id, @offset, len) accepts,
 * with the same errors; an MR_SB source reads the gap past each
 * partition's bytes as zeros, as READ_VAR does.
 */
struct neuronsim_tensor_end {
	__u32 tensor_id;
	__u32 model_id;
	__u32 subgraph;
	__u32 var_id;
	__u64 offset;
};

/**
 * struct neuronsim_tensor_copy - one entry of a TENSOR_COPY, 56 bytes:
 * @len bytes from @src to @dst.
 * @src: where the bytes are read.
 * @dst: where they are written.
 * @len: bytes; each end's offset + @len within its tensor or variable.
 */
struct neuronsim_tensor_copy {
	struct neuronsim_tensor_end src;
	struct neuronsim_tensor_end dst;
	__u64 len;
};

/**
 * struct neuronsim_tensor_copy_batch - NEURONSIM_IOC_TENSOR_COPY (in),
 * 24 bytes: device-to-device copies between tensors and model variables,
 * in order.
 * @copies: in: user pointer to struct neuronsim_tensor_copy[@count].
 * @count: in: entries, 1..NEURONSIM_TENSOR_COPY_MAX.
 * @flags: in: zero.
 * @reserved: zero.
 *
 * Every entry is checked before any byte moves; the first entry that
 * fails decides the error and nothing is copied.  A model of an entry
 * may not be executing nor have a DMA queue queued or running while the
 * call runs (-EBUSY; the condition EXECUTE refuses on).  An entry whose
 * two ranges share device bytes is refused.
 *
 * Errors: -EINVAL @flags or @reserved set, @count 0 or over
 * NEURONSIM_TENSOR_COPY_MAX, an end with @tensor_id and a model field
 * set, overlapping ends; -ENOENT unknown tensor, model, subgraph or
 * variable (or another fd's); -ERANGE an end's offset + len past its
 * tensor or variable (or overflowing), a destination touching the gap
 * past an MR_SB partition's bytes; -ENODATA a variable without storage
 * (MR_PTR, MR_LIST); -EPERM a destination in an MR_PTR_TABLE or an SBUF
 * carve-out; -EBUSY a model of an entry is executing or running DMA
 * queues; -EFAULT bad @copies; -ENOMEM the backing RAM cap (the entries
 * before it are copied, the one at it in part); -EINTR a fatal signal
 * between entries or pieces of 64 MiB.
 */
struct neuronsim_tensor_copy_batch {
	__u64 copies;
	__u32 count;
	__u32 flags;
	__u64 reserved;
};

#define NEURONSIM_IOC_GET_INFO \
	_IOR(NEURONSIM_IOC_MAGIC, 0x00, struct neuronsim_info)
#define NEURONSIM_IOC_LOAD \
	_IOWR(NEURONSIM_IOC_MAGIC, 0x01, struct neuronsim_load)
#define NEURONSIM_IOC_UNLOAD \
	_IOW(NEURONSIM_IOC_MAGIC, 0x02, struct neuronsim_unload)
#define NEURONSIM_IOC_RESOLVE \
	_IOWR(NEURONSIM_IOC_MAGIC, 0x03, struct neuronsim_resolve)
#define NEURONSIM_IOC_RESOLVE_BATCH \
	_IOWR(NEURONSIM_IOC_MAGIC, 0x04, struct neuronsim_resolve_batch)
#define NEURONSIM_IOC_READ_VAR \
	_IOW(NEURONSIM_IOC_MAGIC, 0x05, struct neuronsim_var_io)
#define NEURONSIM_IOC_WRITE_VAR \
	_IOW(NEURONSIM_IOC_MAGIC, 0x06, struct neuronsim_var_io)
#define NEURONSIM_IOC_MODEL_INFO \
	_IOWR(NEURONSIM_IOC_MAGIC, 0x07, struct neuronsim_model_info)
#define NEURONSIM_IOC_DMA_INFO \
	_IOWR(NEURONSIM_IOC_MAGIC, 0x08, struct neuronsim_dma_info)
#define NEURONSIM_IOC_RUN \
	_IOW(NEURONSIM_IOC_MAGIC, 0x09, struct neuronsim_run)
#define NEURONSIM_IOC_WAIT \
	_IOWR(NEURONSIM_IOC_MAGIC, 0x0a, struct neuronsim_wait)
#define NEURONSIM_IOC_EXECUTE \
	_IOW(NEURONSIM_IOC_MAGIC, 0x0b, struct neuronsim_exec)
#define NEURONSIM_IOC_EXEC_WAIT \
	_IOWR(NEURONSIM_IOC_MAGIC, 0x0c, struct neuronsim_exec_wait)
#define NEURONSIM_IOC_TENSOR_ALLOC \
	_IOWR(NEURONSIM_IOC_MAGIC, 0x0d, struct neuronsim_tensor_alloc)
#define NEURONSIM_IOC_TENSOR_FREE \
	_IOW(NEURONSIM_IOC_MAGIC, 0x0e, struct neuronsim_tensor_free)
#define NEURONSIM_IOC_TENSOR_IO \
	_IOW(NEURONSIM_IOC_MAGIC, 0x0f, struct neuronsim_tensor_io)
#define NEURONSIM_IOC_TENSOR_COPY \
	_IOW(NEURONSIM_IOC_MAGIC, 0x10, struct neuronsim_tensor_copy_batch)

#endif /* _UAPI_LINUX_NEURONSIM_H */
