# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/tools/: the neuronsim command (static, runs
# in the VM).  neuronsim-cc is built by userspace/cc/build.mk.

VM_PROGS += neuronsim

$(VM_O)/bin/neuronsim: userspace/tools/neuronsim.c
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) -o $@ $^ $(VM_LDFLAGS)
