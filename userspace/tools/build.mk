# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/tools/, included by the top-level Makefile:
# the commands, release flavor, in $(O)/bin/ (goal progs, part of make:
# what scripts, data steps and users run; make install copies neuronsim
# and neuronsim-cc):
#   neuronsim-cc   the compiler (libneuronsim-cc-cmd: one file per
#                  command; libneuronsim-bir, libneuronsim-cc, libkbin,
#                  libtools)
#   neuronsim      the device command (libneuronsim-cmd: one file per
#                  command group; libneuronsim, libkbin, libtools);
#                  also static for the VM's /bin ($(VM_O)/bin/neuronsim,
#                  goal vm-progs)
#   mkneff         NEFF helper: the demo NEFF of make run, the bad NEFFs of
#                  scenarios 1/3/5, .npy payload extraction, the manifest
#                  and plans of the NEFF VM test (scripts/neff-plans.sh)

# what both commands share: the JSON writer, the error reporter, the
# option parser (tool.h); host for the monitor report's test
$(call library,TOOLS,libtools,rel vm host)
TOOLS_DIR	:= userspace/tools
TOOLS_SRCS	:= tool.c
TOOLS_INC	:= -I$(TOP)/userspace/tools
TOOLS_LDLIBS	:= -ljansson

# the report of "neuronsim monitor" (monitor_report.h), built from
# samples and reading nothing, so that a host test gives it fixed ones,
# and the simulated identity "ls" and "monitor" share (identity.c)
$(call library,MONREP,libneuronsim-monitor,rel vm host)
MONREP_SRCS	:= $(sort $(wildcard userspace/tools/neuronsim/monitor_*.c)) \
	userspace/tools/neuronsim/identity.c
MONREP_INC	:= -I$(TOP)/userspace/tools/neuronsim
MONREP_USES	:= TOOLS NSIM
MONREP_LDLIBS	:= -lm
# the runtime version "ls" shows (identity.c): neuronsim's libnrt release
MONREP_CFLAGS	:= -DNEURONSIM_RELEASE='"$(NSIM_VERSION)"'

# the neuronsim command's groups, one file each (userspace/tools/neuronsim/,
# bpftool style), but the monitor report's and the identity's;
# userspace/tools/neuronsim.c is the command table
$(call library,NSIMCMD,libneuronsim-cmd,rel vm)
NSIMCMD_SRCS	:= $(sort $(filter-out $(MONREP_SRCS),$(wildcard userspace/tools/neuronsim/*.c)))
NSIMCMD_USES	:= TOOLS NSIM KBIN MONREP

# neuronsim-cc's commands, one file each (userspace/tools/neuronsim-cc/,
# bpftool style); userspace/tools/neuronsim-cc.c is the command table
$(call library,CCCMD,libneuronsim-cc-cmd,rel)
CCCMD_SRCS	:= $(sort $(wildcard userspace/tools/neuronsim-cc/*.c))
CCCMD_INC	:= -I$(TOP)/userspace/tools
CCCMD_USES	:= TOOLS BIR CC KBIN PLAN

NSIM_CC_TOOL	:= neuronsim-cc
$(call programs,NSIM_CC_TOOL,rel,userspace/tools,$(O)/bin,CCCMD BIR TOOLS,progs)

NSIM_TOOL	:= neuronsim
NSIM_TOOL_LDLIBS := -lz
$(call programs,NSIM_TOOL,rel,userspace/tools,$(O)/bin,NSIMCMD,progs)

NSIM_TOOL_VM	:= neuronsim
NSIM_TOOL_VM_LDLIBS := -lz
$(call programs,NSIM_TOOL_VM,vm,userspace/tools,$(VM_O)/bin,NSIMCMD,vm-progs)
VM_PROGS	+= $(NSIM_TOOL_VM)

MKNEFF_TOOL	:= mkneff
$(call programs,MKNEFF_TOOL,rel,userspace/tools,$(O)/bin,CC,progs)

.PHONY: install-tools
install: install-tools
install-tools: $(call bins,NSIM_CC_TOOL) $(call bins,NSIM_TOOL)
	$(Q)$(call say,INSTALL,$(DESTDIR)$(BINDIR)/{$(subst $(space),$(comma),$(notdir $^))})install \
		-d $(DESTDIR)$(BINDIR)
	$(Q)install -m 0755 $^ $(DESTDIR)$(BINDIR)/

# host test of the monitor's report, exposition and configuration from
# fixed samples (Documentation/userspace.rst, "monitor")
MONREP_TEST	:= monitor_report_test
$(call programs,MONREP_TEST,host,userspace/tests,$(HOST_O)/tests,MONREP,userspace)
HOST_TESTS	+= $(call bins,MONREP_TEST)

# host test of both commands' command lines: -j before or after the
# subcommand, JSON errors, --help (Documentation/userspace.rst)
HOST_TESTS	+= $(TOP)/userspace/tests/tools_cli_test.sh
# host test of the engine programs on the command line: mkneff prog,
# info/dump --program, replay and its trace-event JSON (Documentation/execute.rst)
HOST_TESTS	+= $(TOP)/userspace/tests/prog_cli_test.py
