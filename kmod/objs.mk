# SPDX-License-Identifier: GPL-2.0
# Objects of neuronsim.ko, relative to kmod/.  Read by Kbuild.
NEURONSIM_OBJS := main.o bus.o addrmap.o fault.o devlist.o device.o debugfs.o ioctl.o mem.o hbm.o core.o lookup.o model.o \
	stage.o relocate.o resolve.o plan/kbin_check.o plan/kbin_gen.o plan/kbin_kind.o plan/kbin_memory.o \
	plan/kbin_names.o plan/kbin_dma.o plan/kbin_cast.o plan/kbin_prog.o plan/kbin_compute.o plan/kbin_num.o plan/kbin_race.o dmaeng.o engine.o exec.o tensor.o netlink.o netlink-gen.o sysfs.o
