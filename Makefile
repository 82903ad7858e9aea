# SPDX-License-Identifier: GPL-2.0
#
# neuronsim top-level Makefile.
#
#   make            module (neuronsim.ko) and the release flavor: the
#                   commands of build/bin/ and libneuronsim
#   make all        that, the host tests, the fuzz targets and the
#                   selftests (every flavor; make check builds it)
#   make run        set-up, build, boot the VM and run the main job
#   make check      set-up, build, every test; ends with "N passed, N failed"
#   make check-full the same with every DMA queue of every real NEFF
#   make bench      benchmarks (not part of check)
#   make fuzz SECONDS=N   libFuzzer targets for N seconds each
#   make checkpatch checkpatch.pl --strict over the kernel code
#   make kernel-doc kernel-doc -v over the kernel code, uapi/ and
#                   libneuronsim.h; fails on any warning
#   make docs       build/docs/: Documentation/ with each kernel-doc::
#                   directive replaced by the header's comments
#                   (scripts/docs.py); fails on a name without a comment
#   make ynl-gen    the netlink uapi header and policies from the YNL spec
#                   (scripts/ynl-gen.py; make check fails when they differ)
#   make check-debug the selftests on a KASAN/lockdep/kmemleak kernel
#   make check-6.12 the module against Debian's 6.12 and a subset of the
#                   VM selftests booted on that kernel (K612_TESTS)
#   make dkms-install / dkms-uninstall   register the module's source
#                   with DKMS (/usr/src/neuronsim-VERSION, dkms.conf)
#   make deb        build/deb/neuronsim_VERSION_amd64.deb (scripts/deb.sh)
#   make install    the commands, libneuronsim, its headers and neuronsim.pc
#                   under DESTDIR/PREFIX (default /usr/local)
#
# KVER=6.1|6.12 chooses the kernel the module is built against and the VM
# boots (default 6.1; scripts/kabi.sh finds its headers, scripts/deps.sh
# 6.12 fetches 6.12's); the module is build/kmod/<abi>/neuronsim.ko.
# KDIR=<kernel build tree> builds the module against another kernel.
# V=1 prints every command (the module's too); the default prints one line
# per library, program group and generated file.
#
# Userspace is built in four flavors (Documentation/running.rst, "The
# build"); each fragment names its libraries and programs with
# $(call library,...) and $(call programs,...) below, and the rules for
# them are made once, after every fragment is read.

TOP	:= $(CURDIR)
O	:= $(TOP)/build
KVER	?= 6.1
KABI	:= $(shell $(TOP)/scripts/kabi.sh $(KVER) 2>/dev/null)
KDIR	?= $(shell $(TOP)/scripts/kabi.sh -k $(KVER) 2>/dev/null)
# the module's objects, one tree per kernel: Kbuild writes them next to
# the sources of M=, so M= is a tree of links to them (kmod/, uapi/,
# Kbuild) under build/kmod/<abi>/
KMOD_O	:= $(O)/kmod/$(or $(KABI),unknown)
KO	:= $(KMOD_O)/neuronsim.ko
SECONDS	?= 30
LINUX_SRC_TAR := $(lastword $(sort $(wildcard /usr/src/linux-source-6.1*.tar.xz)))

# Kernel harness headers and checkpatch, extracted at build time (never in git)
KSFT	:= $(O)/ksft
KSFT_STAMP := $(KSFT)/.stamp

# ---------------------------------------------------------------------
# Output: V=1 prints commands; make -s nothing; otherwise "  VERB    what"
# lines.

V	?= 0
ifeq ($(V),1)
Q	:=
say	=
else
Q	:= @
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say	=
else
say	= printf '  %-7s %s\n' '$(1)' '$(2)';
endif
endif
empty	:=
space	:= $(empty) $(empty)
comma	:= ,
# a path as printed: relative to the top
show	= $(patsubst $(TOP)/%,%,$(1))
# files of one folder as printed: one path, dir/{a,b,c,d} or
# "dir/{a,b,...} (N NOUN)"
brief	= $(if $(word 2,$(1)),$(call show,$(dir $(firstword $(1)))){$(if $(word 5,$(1)),$(subst $(space),$(comma),$(notdir $(wordlist 1,2,$(1)))$(space)...)} ($(words $(1)) $(2)),$(subst $(space),$(comma),$(notdir $(1)))}),$(call show,$(1)))
# the objects an archive step takes in: "(hash.o model.o)" or "(8 objects)"
objnote	= ($(if $(word 5,$(1)),$(words $(1)) objects,$(notdir $(1))))

# ---------------------------------------------------------------------
# Flavors.  Every library and program is built from objects of one
# flavor; an object is $(O)/FLAVOR/obj/<source path>.o.
#   host  ASan + UBSan, -O1: the host tests
#   rel   -O2, position independent: the programs scripts and users run
#         ($(O)/bin/), the shared libneuronsim, the benchmarks
#   vm    -O2, linked statically: the programs of the VM's /bin
#   fuzz  clang, libFuzzer + ASan + UBSan: the fuzz targets
# Userspace includes only uapi/ and kmod/plan/ of the kernel side.

FLAVORS	:= host rel vm fuzz
CLANG	?= clang
BASE_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -MMD -MP \
	-I$(TOP)/uapi -I$(TOP)/kmod/plan
# C++ (userspace/cc/json_view.cc over simdjson): C++17, no exceptions
BASE_CXXFLAGS := $(filter-out -std=gnu11,$(BASE_CFLAGS)) -std=c++17 \
	-fno-exceptions
SAN	:= -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

host_CC		= $(CC)
host_CXX	= $(CXX)
host_CFLAGS	:= -g -O1 $(SAN) -isystem $(KSFT)
host_LDFLAGS	:= $(SAN) -Wl,--as-needed
rel_CC		= $(CC)
rel_CXX		= $(CXX)
rel_CFLAGS	:= -g -O2 -fPIC -fno-semantic-interposition
rel_LDFLAGS	:= -Wl,--as-needed
vm_CC		= $(CC)
vm_CXX		= $(CXX)
vm_CFLAGS	:= -g -O2 -isystem $(KSFT)
vm_LDFLAGS	:= -static -pthread
fuzz_CC		= $(CLANG)
fuzz_CXX	= $(CLANG)++
fuzz_CFLAGS	:= -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=undefined -isystem $(KSFT)
fuzz_LDFLAGS	:= -fsanitize=fuzzer,address,undefined -Wl,--as-needed

# where each flavor's libraries and test programs go
HOST_O	:= $(O)/host
REL_O	:= $(O)/rel
VM_O	:= $(O)/vm
FUZZ_O	:= $(O)/fuzz

# A static link of libnl (the VM's neuronsim, lib_test, netlink_test) makes
# glibc note that getaddrinfo/getprotobyname/getprotobynumber, used by
# libnl-3.a's address and protocol helpers, need glibc's shared NSS
# libraries at run time.  Those helpers are never called (the programs
# only talk generic netlink), so scripts/static-ld-notes.awk drops exactly
# these notes; any other linker message is printed.
link_vm	= { $(vm_CC) $(vm_LDFLAGS) $(1) 2>&1; echo "ld-status $$?"; } | \
	awk -f $(TOP)/scripts/static-ld-notes.awk >&2
link_host = $(host_CC) $(host_LDFLAGS) $(1)
link_rel = $(rel_CC) $(rel_LDFLAGS) $(1)
link_fuzz = $(fuzz_CC) $(fuzz_LDFLAGS) $(1)

# ---------------------------------------------------------------------
# Libraries and programs.
#
# $(call library,ID,FILE,FLAVORS): the static library FILE.a in each
#   flavor, $(O)/FLAVOR/FILE.a, from ID_SRCS (file names under ID_DIR when
#   that is set; ID_SRCS_<flavor> replaces the list for one flavor; a
#   .cc source is C++, built by the flavor's CXX with BASE_CXXFLAGS).
#   ID_INC: -I/-isystem flags for its own objects and for everyone who
#   uses it; ID_CFLAGS: more flags for its own objects; ID_USES: the
#   libraries it calls (their headers and, after it, their archives);
#   ID_LDLIBS: the system libraries it needs (-lz ...; ID_LDLIBS_<flavor>
#   replaces the list for one flavor); ID_BUNDLE:
#   libraries whose objects the archive carries too (self-contained).
# $(call programs,ID,FLAVOR,SRCDIR,OUTDIR,LIBS,GOAL): each NAME of the
#   list ID is OUTDIR/NAME, from SRCDIR/NAME.c linked with LIBS (and what
#   they use) of FLAVOR; ID_CFLAGS and ID_LDLIBS add to it.  GOAL
#   (progs, vm-progs, userspace, bench-progs) builds them.  A group of one
#   prints "LD program"; a larger group one "LD" line for the programs it
#   linked (a program named on the command line prints its own).
# $(call bins,ID): the programs of a group.  $(call lib,ID,FLAVOR): an
#   archive.  $(call objs,ID,FLAVOR): a library's objects.

LIBRARIES	:=
PROGRAM_GROUPS	:=
DEPFILES	:=
library = $(eval LIBRARIES += $(1))$(eval $(1)_FILE := $(2))$(eval $(1)_FLAVORS := $(3))
programs = $(eval PROGRAM_GROUPS += $(1))$(eval $(1)_FLAVOR := $(2))$(eval \
	$(1)_SRCDIR := $(3))$(eval $(1)_OUT := $(4))$(eval $(1)_LIBS := $(5))$(eval \
	$(1)_GOAL := $(6))
bins	= $(addprefix $($(1)_OUT)/,$($(1)))
lib	= $(O)/$(2)/$($(1)_FILE).a
srcs	= $(addprefix $(if $($(1)_DIR),$($(1)_DIR)/),$(or $($(1)_SRCS_$(2)),$($(1)_SRCS)))
objs	= $(patsubst %.cc,$(O)/$(2)/obj/%.o,$(patsubst %.c,$(O)/$(2)/obj/%.o,$(call srcs,$(1),$(2))))

# list helpers: the libraries a list uses, in link order (each after all
# its users); include and link flags of such a list
reverse	= $(if $(1),$(call reverse,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
uniq	= $(if $(1),$(firstword $(1)) $(call uniq,$(filter-out $(firstword $(1)),$(1))))
uniq-last = $(call reverse,$(call uniq,$(call reverse,$(1))))
closure	= $(call uniq-last,$(foreach l,$(1),$(l) $(call closure,$($(l)_USES))))
incs	= $(call uniq,$(foreach l,$(1),$($(l)_INC)))
ldlibs	= $(call uniq-last,$(foreach l,$(1),$(or $($(l)_LDLIBS_$(2)),$($(l)_LDLIBS))))

# $(eval $(call cmd_file,PATH,VAR)): the file $(O)/PATH holds the value
# of VAR (a library's or group's commands) and is rewritten only when it
# changes; what those commands build depends on it, so a change of flags
# rebuilds.
squote	= $(subst ','\'',$(1))
define cmd_file
$$(O)/$(1): FORCE
	@mkdir -p $$(@D)
	@printf '%s\n' '$$(call squote,$$($(2)))' | cmp -s - $$@ || \
		printf '%s\n' '$$(call squote,$$($(2)))' > $$@
endef

# ---------------------------------------------------------------------

.PHONY: default all module progs vm-progs userspace selftests bench-progs deps run \
	check check-full bench fuzz checkpatch kernel-doc docs ynl-gen clean install libneuronsim FORCE

# Goals (Documentation/running.rst, "The build"): each builds only the
# flavors it needs, and a library once per flavor.
#   default     (make) the module and the release flavor: progs, the
#               commands of $(O)/bin/, and libneuronsim (.a, .so, .pc)
#   vm-progs    the static programs of the VM's /bin
#   userspace   every userspace flavor but vm: progs, the host tests,
#               the fuzz targets and their seeds
#   selftests   vm-progs, the VM selftests and their data
#   all         all of it (make check, make check-full)
.DEFAULT_GOAL := default
default: module progs libneuronsim
all: module userspace selftests
userspace: progs
selftests: vm-progs

# Fragments append to these.
# host test programs (TAP), run by make check
HOST_TESTS :=
# programs of the VM's /bin (names); the selftests are not there but in
# the kselftest tree (selftests/build.mk)
VM_PROGS :=
# libFuzzer binaries
FUZZERS :=

# what is taken from linux-source-6.1: the kselftest harness, lib.mk and
# the runner (run_kselftest.sh, kselftest/) of selftests/Makefile, and
# checkpatch; a change of the list extracts again
KSFT_MEMBERS := '*/tools/testing/selftests/kselftest_harness.h' \
	'*/tools/testing/selftests/kselftest.h' \
	'*/tools/testing/selftests/lib.mk' \
	'*/tools/testing/selftests/run_kselftest.sh' \
	'*/tools/testing/selftests/kselftest/*' \
	'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
	'*/scripts/const_structs.checkpatch' '*/scripts/kernel-doc'
$(eval $(call cmd_file,.cmd/ksft-members,KSFT_MEMBERS))
$(KSFT_STAMP): $(LINUX_SRC_TAR) $(O)/.cmd/ksft-members
	@test -n "$(LINUX_SRC_TAR)" || { echo "linux-source-6.1 is not installed: run scripts/deps.sh" >&2; exit 1; }
	@mkdir -p $(KSFT)
	$(Q)$(call say,GEN,$(call show,$(KSFT)))tar -xJf $(LINUX_SRC_TAR) -C $(KSFT) --strip-components=1 --wildcards \
		$(KSFT_MEMBERS)
	$(Q)cp $(KSFT)/tools/testing/selftests/kselftest_harness.h $(KSFT)/tools/testing/selftests/kselftest.h $(KSFT)/
	@touch $@

# The module, by Kbuild with W=1 (the Kbuild file's -Werror fails the
# build on any warning, W=1's extra ones included, on 6.1 and 6.12).
# Quiet: Kbuild runs silent and one line says the module was linked;
# V=1 goes to Kbuild.  Kbuild cannot make BTF for a module without the
# kernel's vmlinux (6.1's headers package has none, 6.12's has) and
# pahole (dwarves, not a dependency: BTF only serves debuggers); it is not
# asked to when either is absent, so a build never warns about it.
MOD_STAMP := $(KMOD_O)/.module
KBUILD_ARGS := $(if $(filter 1,$(V)),V=1,-s) W=1 \
	$(if $(and $(wildcard $(KDIR)/vmlinux),$(shell command -v pahole)),,CONFIG_DEBUG_INFO_BTF_MODULES=)
module:
	@test -n "$(KABI)" -a -d "$(KDIR)" || { echo "no headers of kernel $(KVER): run scripts/deps.sh$(if $(filter-out 6.1,$(KVER)), $(KVER))" >&2; exit 1; }
	@mkdir -p $(KMOD_O)
	@find $(KMOD_O) -xtype l -delete
	@cp -rsf $(TOP)/Kbuild $(TOP)/kmod $(TOP)/uapi $(KMOD_O)/
	$(Q)$(MAKE) --no-print-directory -C $(KDIR) M=$(KMOD_O) $(KBUILD_ARGS) modules
	@if [ ! -e $(MOD_STAMP) ] || [ $(KO) -nt $(MOD_STAMP) ]; then \
		$(call say,LD [M],$(call show,$(KO))) touch $(MOD_STAMP); fi

include kmod/plan/build.mk
include userspace/util/build.mk
include userspace/cc/build.mk
include userspace/cc/bir/build.mk
include userspace/lib/build.mk
include userspace/nrt/build.mk
include userspace/tools/build.mk
include testlib/build.mk
include userspace/tests/build.mk
include userspace/tests/fuzz.mk
include selftests/build.mk
include bench/build.mk

# ---------------------------------------------------------------------
# The rules of every flavor, library and program group.

# An object's command is its library's or group's (CMD_CC, CMD_CXX for
# C++), kept in a command file (cmd_file above).
define flavor_rules
$$(O)/$(1)/obj/%.o: %.c $(if $(filter-out rel,$(1)),| $$(KSFT_STAMP))
	@mkdir -p $$(@D)
	$$(Q)$$(CMD_CC) -c -o $$@ $$<
$$(O)/$(1)/obj/%.o: %.cc $(if $(filter-out rel,$(1)),| $$(KSFT_STAMP))
	@mkdir -p $$(@D)
	$$(Q)$$(CMD_CXX) -c -o $$@ $$<
endef

define library_rules
$(1)_OBJS_$(2) := $$(call objs,$(1),$(2))
$(1)_CC_$(2) := $$($(2)_CC) $$(BASE_CFLAGS) $$($(2)_CFLAGS) \
	$$(call incs,$$(call closure,$(1))) $$($(1)_CFLAGS) $$(EXTRA_CFLAGS)
$(1)_CXX_$(2) := $$($(2)_CXX) $$(BASE_CXXFLAGS) $$($(2)_CFLAGS) \
	$$(call incs,$$(call closure,$(1))) $$($(1)_CFLAGS) $$(EXTRA_CFLAGS)
$(1)_CMDS_$(2) := $$($(1)_CC_$(2))$$(if $$(filter %.cc,$$(call srcs,$(1),$(2))), / $$($(1)_CXX_$(2)))
$$($(1)_OBJS_$(2)): private CMD_CC = $$($(1)_CC_$(2))
$$($(1)_OBJS_$(2)): private CMD_CXX = $$($(1)_CXX_$(2))
$$($(1)_OBJS_$(2)): $$(O)/$(2)/.cmd/$(1)
$$(eval $$(call cmd_file,$(2)/.cmd/$(1),$(1)_CMDS_$(2)))
$$(call lib,$(1),$(2)): $$($(1)_OBJS_$(2)) $$(foreach b,$$($(1)_BUNDLE),$$(call objs,$$(b),$(2)))
	$$(Q)$$(call say,AR,$$(call show,$$@) $$(call objnote,$$?))rm -f $$@ && ar rcs $$@ $$^
DEPFILES += $$($(1)_OBJS_$(2):.o=.d)
endef

define program_rules
$(1)_F := $$($(1)_FLAVOR)
$(1)_MAINS := $$(patsubst %,$$(O)/$$($(1)_F)/obj/$$($(1)_SRCDIR)/%.o,$$($(1)))
$(1)_ALLLIBS := $$(call closure,$$($(1)_LIBS))
$(1)_ARCHIVES := $$(foreach l,$$($(1)_ALLLIBS),$$(call lib,$$(l),$$($(1)_F)))
$(1)_CC := $$($$($(1)_F)_CC) $$(BASE_CFLAGS) $$($$($(1)_F)_CFLAGS) \
	$$(call incs,$$($(1)_ALLLIBS)) $$($(1)_CFLAGS) $$(EXTRA_CFLAGS)
$(1)_LD := $$($(1)_ARCHIVES) $$($(1)_LDLIBS) $$(call ldlibs,$$($(1)_ALLLIBS),$$($(1)_F))
$$($(1)_MAINS): private CMD_CC = $$($(1)_CC)
$$($(1)_MAINS) $$(call bins,$(1)): $$(O)/$$($(1)_F)/.cmd/$(1)
$(1)_CMDS := $$($(1)_CC) / $$($$($(1)_F)_CC) $$($$($(1)_F)_LDFLAGS) $$($(1)_LD)
$$(eval $$(call cmd_file,$$($(1)_F)/.cmd/$(1),$(1)_CMDS))
$$(call bins,$(1)): $$($(1)_OUT)/%: $$(O)/$$($(1)_F)/obj/$$($(1)_SRCDIR)/%.o $$($(1)_ARCHIVES)
	@mkdir -p $$(@D)
	$$(Q)$(if $(word 2,$($(1))),$$(if $$(filter $$@ $$(call show,$$@),$$(MAKECMDGOALS)),$$(call say,LD,$$(call show,$$@))),$$(call say,LD,$$(call show,$$@)))$$(call link_$$($(1)_F),-o $$@ $$< $$($(1)_LD))
ifneq ($(word 2,$($(1))),)
$$(O)/.groups/$(1): $$(call bins,$(1))
	@mkdir -p $$(@D)
	$$(Q)$$(call say,LD,$$(call brief,$$?,programs))touch $$@
$$($(1)_GOAL): $$(O)/.groups/$(1)
else
$$($(1)_GOAL): $$(call bins,$(1))
endif
DEPFILES += $$($(1)_MAINS:.o=.d)
endef

$(foreach f,$(FLAVORS),$(eval $(call flavor_rules,$(f))))
$(foreach l,$(LIBRARIES),$(foreach f,$($(l)_FLAVORS),$(eval $(call library_rules,$(l),$(f)))))
$(foreach g,$(PROGRAM_GROUPS),$(eval $(call program_rules,$(g))))

userspace: $(HOST_TESTS) $(FUZZERS)
vm-progs: $(addprefix $(VM_O)/bin/,$(VM_PROGS))

# ---------------------------------------------------------------------

deps:
	bash scripts/deps.sh check $(filter-out 6.1,$(KVER))

# the main job runs the release commands on the host and the VM's /bin
run: deps
	$(MAKE) default vm-progs $(O)/host/tests/bir_prog
	bash scripts/run.sh

# KVER=6.12: every test with the module built against 6.12 and the VM
# booted on Debian's 6.12 kernel (the debug lane stays on 6.1)
check: deps
	$(MAKE) all
	KVER=$(KVER) bash scripts/check.sh

# make check with every queue of every real NEFF through the DMA engine
# test (Documentation/dma.rst, "Tests") and run_neff on every real NEFF
# (Documentation/nrt.rst, "Tests"; the VM run takes several times longer
# than make check's)
check-full: deps
	$(MAKE) all
	KVER=$(KVER) NSIM_DMA=all NSIM_NRT=all bash scripts/check.sh
	$(MAKE) deb
	bash scripts/deps.sh check fresh 6.12
	bash scripts/deb-check.sh

# The 6.12 lane of CI (.ci/run): the module built against Debian
# bookworm's 6.12 headers, then the VM booted on its 6.12 kernel runs
# K612_TESTS, the tests that cross kmod/compat.h's paths (the bus's
# new_device/del_device attributes, the class and its sysfs tree, the
# netlink dumps) and a load, execute and resolve, and debugfs, chosen
# for their speed (Documentation/running.rst, "Kernels": each test's
# time, the lane's, and K612_TIMEOUT's reason).  Deterministic: the same
# list in the same order, on the 6.12 ABI deps.sh fetched once.
K612_TESTS := resolve_test isolation_test fault_test reloc_test debugfs_test \
	zeroalloc_test bus_test cores_test netlink_test scenario_test run_test \
	dma_shape_test exec_test tensor_test generations.sh bir.sh sysfs.sh compat.sh
K612_TIMEOUT := 600
.PHONY: check-6.12
check-6.12:
	bash scripts/deps.sh check 6.12
	$(MAKE) all
	$(MAKE) KVER=6.12 module
	bash scripts/vmtest.sh -K 6.12 -t $(K612_TIMEOUT) $(K612_TESTS)

# scripts/bench.sh builds the programs of bench-progs itself
bench:
	bash scripts/deps.sh check bench
	$(MAKE) default
	bash scripts/bench.sh

# Debug-kernel lane: linux-source-6.1 with KASAN, KMEMLEAK, PROVE_LOCKING,
# DEBUG_ATOMIC_SLEEP, PROVE_RCU, DEBUG_OBJECTS (cached in
# .cache/debug-kernel/), the module built against it, every VM selftest
# and a kmemleak scan; fails on any report.  Documentation/security.rst.
.PHONY: check-debug
check-debug:
	bash scripts/deps.sh check debug
	$(MAKE) userspace selftests
	bash scripts/debug-kernel.sh check

fuzz: $(FUZZERS)
	@for f in $(FUZZERS); do bash scripts/fuzz.sh $$f $(SECONDS) || exit 1; done

# kmod/compat.h holds the module's kernel version checks, which
# checkpatch's LINUX_VERSION_CODE warning exists to keep out of the
# kernel's own tree (in-tree code is for the release it is merged in);
# an out-of-tree module built against 6.1 to 6.12 needs them, so that one
# warning type is ignored for that one file (Documentation/module.rst,
# "Kernel versions"), and every other file has none.
CHECKPATCH := perl $(KSFT)/scripts/checkpatch.pl --strict --no-tree --terse
checkpatch: $(KSFT_STAMP)
	$(CHECKPATCH) -f $(filter-out kmod/compat.h,$(wildcard kmod/*.c kmod/*.h)) \
		kmod/plan/*.c kmod/plan/*.h uapi/linux/*.h
	$(CHECKPATCH) --ignore LINUX_VERSION_CODE -f kmod/compat.h

# Every doc comment of the kernel code, the uapi headers and the
# library's installed header.  6.1's kernel-doc has no -Wall: -v adds
# the Return: check (and "info:" lines, dropped here); its -Werror exit
# status is the warning count modulo 256, so any warning line fails.
KDOC_FILES := kmod/*.c kmod/*.h kmod/plan/*.c kmod/plan/*.h uapi/linux/*.h \
	userspace/lib/libneuronsim.h
kernel-doc: $(KSFT_STAMP)
	@out=$$(perl $(KSFT)/scripts/kernel-doc -none -v $(KDOC_FILES) 2>&1 | \
		grep -v ': info: '); \
	if [ -n "$$out" ]; then printf '%s\n' "$$out" >&2; exit 1; fi

# Documentation/ with its kernel-doc:: directives expanded, as the
# kernel's Sphinx extension does (scripts/docs.py)
docs: $(KSFT_STAMP)
	python3 scripts/docs.py $(KSFT)/scripts/kernel-doc $(O)/docs

# The generic netlink family's generated files (committed; the uapi header,
# kmod/netlink-gen.{c,h}, userspace/lib/netlink-gen.{c,h}) from
# Documentation/netlink/specs/neuronsim.yaml
ynl-gen:
	python3 scripts/ynl-gen.py

# DKMS (Documentation/running.rst, "DKMS").  dkms-src: the module's
# sources (Kbuild, kmod/ with kmod/plan/, uapi/) and dkms.conf with its
# version, under DESTDIR/usr/src/neuronsim-VERSION (make deb uses it with
# a DESTDIR).  dkms-install: that, then dkms add, build and install for
# the running kernel (KERNELRELEASE= for another), as root;
# dkms-uninstall: dkms remove --all of every version and their sources.
DKMS_SRC := $(DESTDIR)/usr/src/neuronsim-$(NSIM_VERSION)
KERNELRELEASE ?= $(shell uname -r)
.PHONY: dkms-src dkms-install dkms-uninstall deb
dkms-src:
	$(Q)$(call say,INSTALL,$(DKMS_SRC))rm -rf $(DKMS_SRC) && install -d $(DKMS_SRC)
	$(Q)cp -r Kbuild kmod uapi $(DKMS_SRC)/
	$(Q)find $(DKMS_SRC) \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' -o -name '*.mod*' \) -delete
	$(Q)sed 's/@VERSION@/$(NSIM_VERSION)/' dkms.conf > $(DKMS_SRC)/dkms.conf
dkms-install:
	$(MAKE) --no-print-directory dkms-uninstall
	$(MAKE) --no-print-directory dkms-src
	dkms add -m neuronsim -v $(NSIM_VERSION)
	dkms build -m neuronsim -v $(NSIM_VERSION) -k $(KERNELRELEASE)
	dkms install -m neuronsim -v $(NSIM_VERSION) -k $(KERNELRELEASE)
dkms-uninstall:
	@for v in $$(dkms status -m neuronsim 2>/dev/null | sed -n 's|^neuronsim/\([^,:]*\)[,:].*|\1|p' | sort -u); do \
		echo "dkms remove -m neuronsim -v $$v --all"; \
		dkms remove -m neuronsim -v $$v --all; \
		rm -rf $(DESTDIR)/usr/src/neuronsim-$$v; done
	rm -rf $(DKMS_SRC)

# the Debian package: DKMS source, commands, libneuronsim, headers,
# neuronsim.pc, the udev rule (scripts/deb.sh).  It needs no kernel
# headers here: DKMS builds the module on the machine it is installed on.
deb: progs libneuronsim
	bash scripts/deb.sh

# Not Kbuild's clean: for an external module it deletes every object file
# anywhere under $(TOP), the cached debug kernel in .cache/ included.
# (the module is built under build/kmod/<abi>/; the first lines remove
# what a build from before that left in the tree)
clean:
	rm -f neuronsim.ko neuronsim.mod neuronsim.mod.c neuronsim.mod.o \
		neuronsim.o Module.symvers modules.order .*.cmd .module-common.o
	find kmod \( -name '*.o' -o -name '.*.cmd' \) -type f -delete
	rm -rf $(O)

# make build/bin/neuronsim-cc (a path from the top) builds $(O)/bin/neuronsim-cc
build/%: $(O)/% ;

# scripts/check.sh and friends ask for the lists: make -s print-HOST_TESTS
print-%:
	@echo $($*)

FORCE:

-include $(DEPFILES)
