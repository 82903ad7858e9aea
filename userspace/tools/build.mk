# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/tools/: the neuronsim command, on libneuronsim,
# the KBIN reader (libkbin) and jansson.  A static copy for the VM
# ($(VM_O)/bin/neuronsim) and a sanitized host copy ($(HOST_O)/bin/neuronsim).
# neuronsim-cc is built by userspace/cc/build.mk.

NSIM_TOOL_CFLAGS := $(NSIM_CFLAGS) -I$(TOP)/userspace/cc
NSIM_TOOL_LIBS	 := $(NSIM_LDLIBS) -ljansson -lz

VM_PROGS += neuronsim

$(VM_O)/bin/neuronsim: userspace/tools/neuronsim.c $(NSIM_LIB_VM) $(KBIN_LIB_VM) $(NSIM_HDR) \
		kmod/plan/resolve_core.h
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) $(NSIM_TOOL_CFLAGS) -o $@ $< $(NSIM_LIB_VM) $(KBIN_LIB_VM) \
		$(VM_LDFLAGS) $(NSIM_TOOL_LIBS)

$(HOST_O)/bin/neuronsim: userspace/tools/neuronsim.c $(NSIM_LIB) $(KBIN_LIB) $(NSIM_HDR) \
		kmod/plan/resolve_core.h
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(NSIM_TOOL_CFLAGS) -o $@ $< $(NSIM_LIB) $(KBIN_LIB) \
		$(HOST_LDFLAGS) $(NSIM_TOOL_LIBS)
HOST_BINS += $(HOST_O)/bin/neuronsim
