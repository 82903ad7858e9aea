/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * neuronsim_netlink.h - the "neuronsim" generic netlink family.
 *
 * Documentation/netlink/specs/neuronsim.yaml is the YNL spec of this
 * family (protocol genetlink-c: it names every definition below, so the
 * ynl tools print commands, attributes and enum values by name) and
 * Documentation/userspace.rst shows it in use.
 *
 * Commands (all strictly validated; attributes not listed for a command,
 * or beyond its policy, are refused with -EINVAL, a MODEL_ID of 0 or a
 * DEVICE of NEURONSIM_MAX_DEVICES or more with -ERANGE, each with an
 * extack message).  DEVICE names a device by its index (/dev/neuronsimN);
 * a request without it means device 0.  A DEVICE that does not exist is
 * -ENODEV.
 *
 *   GET_DEVICE   doit, optional DEVICE: the device (arch, cores, HBM,
 *                models loaded, HBM bytes held by models, and per
 *                NeuronCore a nested DEV_CORE: CORE_INDEX,
 *                CORE_OWNER_PID, CORE_NUM_MODELS); dump: every device,
 *                in index order.
 *   GET_MODEL    doit with MODEL_ID, optional DEVICE: one model; dump,
 *                optional DEVICE: every model of that device, or without
 *                DEVICE of every device, by device then model id.
 *   GET_VARS     dump with MODEL_ID (required), optional DEVICE: one
 *                message per staged variable of that model (SUBGRAPH,
 *                VAR_ID, VAR_NAME, VAR_KIND = enum kbin_mr_type,
 *                VAR_SIZE, VAR_PHYSICAL_ADDRESS).
 *
 * Every reply and event about a device or a model carries DEVICE.
 *
 * Multicast group "monitor" (NEURONSIM_GENL_MCGRP_MONITOR), events of
 * every device, which anyone may join:
 *   MODEL_LOADED    DEVICE, MODEL_ID, OWNER_PID, TARGET_GEN, NUM_SUBGRAPHS,
 *                   FIRST_CORE, NUM_VARS, HBM_BYTES, SCRATCHPAD_BYTES
 *   MODEL_UNLOADED  the same attributes as MODEL_LOADED
 *   LOAD_FAILED     DEVICE, OWNER_PID, ERR_ERRNO, ERR_REASON, ERR_FIELD,
 *                   ERR_SUBGRAPH, ERR_RECORD
 * Multicast group "runs" (NEURONSIM_GENL_MCGRP_RUNS), events of every
 * device, which only a caller with CAP_SYS_ADMIN may join (-EPERM):
 *   RUN_DONE        DEVICE, MODEL_ID, RUN_SUBGRAPH, RUN_QUEUE,
 *                   RUN_QUEUE_NAME, RUN_STATUS, RUN_BLOCKS, RUN_DESCS,
 *                   RUN_BYTES, RUN_NS (a DMA queue run finished; not for
 *                   runs UNLOAD or close stopped; Documentation/dma.rst)
 *   EXEC_DONE       DEVICE, MODEL_ID, EXEC_STATUS, EXEC_SUBGRAPHS,
 *                   EXEC_INSTRUCTIONS, EXEC_BLOCKS, EXEC_BYTES,
 *                   EXEC_VIRTUAL_NS, EXEC_WALL_NS, EXEC_NOT_SIMULATED (an
 *                   execution ended; not for one UNLOAD or close
 *                   cancelled; Documentation/execute.rst)
 *
 * Who sees what: a model's counts (GET_MODEL, "monitor" events) are
 * visible to everyone.  Its variable names and physical addresses
 * (GET_VARS) only to its owner - a task of the thread group (tgid) that
 * loaded it - or to a caller with CAP_SYS_ADMIN; anyone else gets -EPERM
 * from GET_VARS.  What its DMA queue runs did (RUN_DONE) only to
 * CAP_SYS_ADMIN (a multicast group cannot tell the owner from others;
 * the owner has NEURONSIM_IOC_WAIT and poll() on its fd).
 *
 * Units: sizes in bytes; addresses are device addresses (see
 * uapi/linux/neuronsim.h).  64-bit attributes are aligned with
 * NEURONSIM_A_PAD.
 */
#ifndef _UAPI_LINUX_NEURONSIM_NETLINK_H
#define _UAPI_LINUX_NEURONSIM_NETLINK_H

#define NEURONSIM_GENL_NAME		"neuronsim"
#define NEURONSIM_GENL_VERSION		1
#define NEURONSIM_GENL_MCGRP_MONITOR	"monitor"
#define NEURONSIM_GENL_MCGRP_RUNS	"runs"

/**
 * enum neuronsim_nl_cmd - commands and notifications of the family.
 * @NEURONSIM_CMD_UNSPEC: unused.
 * @NEURONSIM_CMD_GET_DEVICE: doit (DEVICE) and dump.
 * @NEURONSIM_CMD_GET_MODEL: doit (MODEL_ID, DEVICE) and dump (DEVICE).
 * @NEURONSIM_CMD_GET_VARS: dump (MODEL_ID, DEVICE).
 * @NEURONSIM_CMD_MODEL_LOADED: notification, group "monitor".
 * @NEURONSIM_CMD_MODEL_UNLOADED: notification, group "monitor".
 * @NEURONSIM_CMD_LOAD_FAILED: notification, group "monitor".
 * @NEURONSIM_CMD_RUN_DONE: notification, group "runs" (CAP_SYS_ADMIN).
 * @NEURONSIM_CMD_EXEC_DONE: notification, group "runs" (CAP_SYS_ADMIN).
 * @__NEURONSIM_CMD_MAX: internal.
 * @NEURONSIM_CMD_MAX: highest command.
 */
enum neuronsim_nl_cmd {
	NEURONSIM_CMD_UNSPEC,
	NEURONSIM_CMD_GET_DEVICE,
	NEURONSIM_CMD_GET_MODEL,
	NEURONSIM_CMD_GET_VARS,
	NEURONSIM_CMD_MODEL_LOADED,
	NEURONSIM_CMD_MODEL_UNLOADED,
	NEURONSIM_CMD_LOAD_FAILED,
	NEURONSIM_CMD_RUN_DONE,
	NEURONSIM_CMD_EXEC_DONE,

	__NEURONSIM_CMD_MAX,
	NEURONSIM_CMD_MAX = __NEURONSIM_CMD_MAX - 1
};

/**
 * enum neuronsim_nl_attr - attributes (one flat set).
 * @NEURONSIM_A_UNSPEC: unused.
 * @NEURONSIM_A_PAD: padding for 64-bit attributes.
 * @NEURONSIM_A_MODEL_ID: u32, >= 1.  Input of GET_MODEL doit and GET_VARS.
 * @NEURONSIM_A_DEV_ARCH_NAME: string, "trn1", "trn2" or "trn3".
 * @NEURONSIM_A_DEV_ARCH_GEN: u32, 2..4.
 * @NEURONSIM_A_DEV_NUM_CORES: u32, NeuronCores.
 * @NEURONSIM_A_DEV_NUM_HBM_CHANNELS: u32.
 * @NEURONSIM_A_DEV_HBM_CHANNEL_SIZE: u64, bytes per HBM channel.
 * @NEURONSIM_A_DEV_NUM_MODELS: u32, models loaded on the device (all fds).
 * @NEURONSIM_A_DEV_HBM_USED: u64, HBM bytes held by all models.
 * @NEURONSIM_A_MODEL_OWNER_PID: u32, tgid of the process that loaded it.
 * @NEURONSIM_A_MODEL_TARGET_GEN: u32, the plan's target generation.
 * @NEURONSIM_A_MODEL_NUM_SUBGRAPHS: u32.
 * @NEURONSIM_A_MODEL_FIRST_CORE: u32, NeuronCore of subgraph 0.
 * @NEURONSIM_A_MODEL_NUM_VARS: u64, mem_ref records over all subgraphs.
 * @NEURONSIM_A_MODEL_HBM_BYTES: u64, HBM bytes the model holds.
 * @NEURONSIM_A_MODEL_SCRATCHPAD_BYTES: u64, scratchpad bytes.
 * @NEURONSIM_A_VAR_SUBGRAPH: u32, index in the plan's subgraph table.
 * @NEURONSIM_A_VAR_ID: u32, var_id.
 * @NEURONSIM_A_VAR_NAME: string, the variable's name.
 * @NEURONSIM_A_VAR_KIND: u32, enum kbin_mr_type.
 * @NEURONSIM_A_VAR_SIZE: u64, bytes.
 * @NEURONSIM_A_VAR_PHYSICAL_ADDRESS: u64, device address; absent when the
 *	variable is not staged (MR_LIST; an MR_PTR_TABLE's row table is).
 * @NEURONSIM_A_ERR_ERRNO: u32, the positive errno of the failed load.
 * @NEURONSIM_A_ERR_REASON: u32, enum kbin_check_reason.
 * @NEURONSIM_A_ERR_FIELD: u32, enum kbin_check_field.
 * @NEURONSIM_A_ERR_SUBGRAPH: s32, failing subgraph or -1.
 * @NEURONSIM_A_ERR_RECORD: s32, failing record index or -1.
 * @NEURONSIM_A_DEVICE: u32, device index, < NEURONSIM_MAX_DEVICES
 *	(uapi/linux/neuronsim.h).  Input of every request (default 0);
 *	output of every device, model, variable and event message.
 * @NEURONSIM_A_DEV_CORE: nest (enum neuronsim_nl_core_attr), once per
 *	NeuronCore of the device in GET_DEVICE replies: who owns it.
 * @NEURONSIM_A_RUN_SUBGRAPH: u32, RUN_DONE: the queue's subgraph.
 * @NEURONSIM_A_RUN_QUEUE: u32, RUN_DONE: the queue's index.
 * @NEURONSIM_A_RUN_QUEUE_NAME: string, RUN_DONE: the queue's name.
 * @NEURONSIM_A_RUN_STATUS: u32, RUN_DONE: 0, or the positive errno the
 *	run stopped with.
 * @NEURONSIM_A_RUN_BLOCKS: u32, RUN_DONE: blocks done.
 * @NEURONSIM_A_RUN_DESCS: u32, RUN_DONE: DMA descriptors done.
 * @NEURONSIM_A_RUN_BYTES: u64, RUN_DONE: bytes written.
 * @NEURONSIM_A_RUN_NS: u64, RUN_DONE: the run's time in nanoseconds.
 * @NEURONSIM_A_EXEC_STATUS: u32, EXEC_DONE: 0, or the positive errno of
 *	the first subgraph that did not finish (EDEADLK, ETIME, EINTR, EIO,
 *	...).
 * @NEURONSIM_A_EXEC_SUBGRAPHS: u32, EXEC_DONE: the model's subgraphs.
 * @NEURONSIM_A_EXEC_INSTRUCTIONS: u64, EXEC_DONE: instructions executed.
 * @NEURONSIM_A_EXEC_BLOCKS: u64, EXEC_DONE: DMA blocks completed.
 * @NEURONSIM_A_EXEC_BYTES: u64, EXEC_DONE: bytes the blocks wrote.
 * @NEURONSIM_A_EXEC_VIRTUAL_NS: u64, EXEC_DONE: its virtual duration.
 * @NEURONSIM_A_EXEC_WALL_NS: u64, EXEC_DONE: wall-clock nanoseconds.
 * @NEURONSIM_A_EXEC_NOT_SIMULATED: u64, EXEC_DONE: 0xD4 instructions
 *	whose data movement was not simulated.
 * @__NEURONSIM_A_MAX: internal.
 * @NEURONSIM_A_MAX: highest attribute.
 */
enum neuronsim_nl_attr {
	NEURONSIM_A_UNSPEC,
	NEURONSIM_A_PAD,
	NEURONSIM_A_MODEL_ID,

	NEURONSIM_A_DEV_ARCH_NAME,
	NEURONSIM_A_DEV_ARCH_GEN,
	NEURONSIM_A_DEV_NUM_CORES,
	NEURONSIM_A_DEV_NUM_HBM_CHANNELS,
	NEURONSIM_A_DEV_HBM_CHANNEL_SIZE,
	NEURONSIM_A_DEV_NUM_MODELS,
	NEURONSIM_A_DEV_HBM_USED,

	NEURONSIM_A_MODEL_OWNER_PID,
	NEURONSIM_A_MODEL_TARGET_GEN,
	NEURONSIM_A_MODEL_NUM_SUBGRAPHS,
	NEURONSIM_A_MODEL_FIRST_CORE,
	NEURONSIM_A_MODEL_NUM_VARS,
	NEURONSIM_A_MODEL_HBM_BYTES,
	NEURONSIM_A_MODEL_SCRATCHPAD_BYTES,

	NEURONSIM_A_VAR_SUBGRAPH,
	NEURONSIM_A_VAR_ID,
	NEURONSIM_A_VAR_NAME,
	NEURONSIM_A_VAR_KIND,
	NEURONSIM_A_VAR_SIZE,
	NEURONSIM_A_VAR_PHYSICAL_ADDRESS,

	NEURONSIM_A_ERR_ERRNO,
	NEURONSIM_A_ERR_REASON,
	NEURONSIM_A_ERR_FIELD,
	NEURONSIM_A_ERR_SUBGRAPH,
	NEURONSIM_A_ERR_RECORD,

	NEURONSIM_A_DEVICE,
	NEURONSIM_A_DEV_CORE,

	NEURONSIM_A_RUN_SUBGRAPH,
	NEURONSIM_A_RUN_QUEUE,
	NEURONSIM_A_RUN_QUEUE_NAME,
	NEURONSIM_A_RUN_STATUS,
	NEURONSIM_A_RUN_BLOCKS,
	NEURONSIM_A_RUN_DESCS,
	NEURONSIM_A_RUN_BYTES,
	NEURONSIM_A_RUN_NS,

	NEURONSIM_A_EXEC_STATUS,
	NEURONSIM_A_EXEC_SUBGRAPHS,
	NEURONSIM_A_EXEC_INSTRUCTIONS,
	NEURONSIM_A_EXEC_BLOCKS,
	NEURONSIM_A_EXEC_BYTES,
	NEURONSIM_A_EXEC_VIRTUAL_NS,
	NEURONSIM_A_EXEC_WALL_NS,
	NEURONSIM_A_EXEC_NOT_SIMULATED,

	__NEURONSIM_A_MAX,
	NEURONSIM_A_MAX = __NEURONSIM_A_MAX - 1
};

/**
 * enum neuronsim_nl_core_attr - attributes nested in NEURONSIM_A_DEV_CORE:
 *	one NeuronCore and its reservation (Documentation/uapi.rst,
 *	"NeuronCores").
 * @NEURONSIM_A_CORE_UNSPEC: unused.
 * @NEURONSIM_A_CORE_INDEX: u32, the NeuronCore.
 * @NEURONSIM_A_CORE_OWNER_PID: u32, thread group id of the process that
 *	holds it, in the reader's pid namespace; 0 when the core is free (or
 *	the owner is not visible there).
 * @NEURONSIM_A_CORE_NUM_MODELS: u32, the owner's models on the core (and
 *	its loads in progress); 0 when free.
 * @__NEURONSIM_A_CORE_MAX: internal.
 * @NEURONSIM_A_CORE_MAX: highest attribute.
 */
enum neuronsim_nl_core_attr {
	NEURONSIM_A_CORE_UNSPEC,
	NEURONSIM_A_CORE_INDEX,
	NEURONSIM_A_CORE_OWNER_PID,
	NEURONSIM_A_CORE_NUM_MODELS,

	__NEURONSIM_A_CORE_MAX,
	NEURONSIM_A_CORE_MAX = __NEURONSIM_A_CORE_MAX - 1
};

#endif /* _UAPI_LINUX_NEURONSIM_NETLINK_H */
