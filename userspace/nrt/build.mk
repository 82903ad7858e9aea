# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/nrt, neuronsim's libnrt-compatible runtime
# (Documentation/nrt.rst), included by the top-level Makefile.  A program
# written for libnrt builds against it with nothing changed but -I/-L:
#
#   $(NRT_REL)/include/nrt/*.h   nrt.h, nrt_status.h, nrt_version.h,
#                                nrt_experimental.h
#   $(NRT_REL)/lib/libnrt.so     the shared library (soname libnrt.so.1;
#                                exports the nrt_* calls only); run with
#                                LD_LIBRARY_PATH=$(NRT_REL)/lib
#   $(NRT_REL)/lib/libnrt.a      every object it needs (the compiler,
#                                libneuronsim, the plan code), for a
#                                static link with the system libraries
#                                of neuronsim-nrt.pc's Libs.private
#   $(NRT_REL)/lib/pkgconfig/neuronsim-nrt.pc
#   $(NRT_VM)/lib/libnrt.a       the VM's: a linker script naming the
#                                static archive and the system libraries,
#                                so that "gcc -static ... -lnrt -pthread"
#                                links with -I/-L alone
#   install-nrt                  under DESTDIR/PREFIX: lib/neuronsim/
#                                (never the default library path, where
#                                it would shadow a real libnrt),
#                                include/neuronsim/nrt/, the .pc file
#
# Its own tests: nrt_* host tests (userspace/tests/nrt_*.c) and the VM's
# run_neff and nrt_test (selftests/mk/nrt.mk).

NRT_SOMAJOR	:= 1
NRT_HDRS	:= $(addprefix userspace/nrt/include/nrt/,nrt.h nrt_status.h \
	nrt_version.h nrt_experimental.h)

$(call library,NRT,libnrt-objs,host rel vm)
NRT_DIR		:= userspace/nrt
NRT_SRCS	:= nrt.c tensor.c status.c misc.c
NRT_INC		:= -I$(TOP)/userspace/nrt/include
NRT_CFLAGS	:= -DNEURONSIM_NRT_RELEASE='"$(NSIM_VERSION)"' -DNEURONSIM_NRT_GIT='""'
NRT_USES	:= CC NSIM
NRT_LDLIBS	:= -lpthread
NRT_BUNDLE	:= CC KBIN NSIM PLAN UTIL

NRT_REL		:= $(REL_O)/nrt
NRT_VM		:= $(VM_O)/nrt
NRT_SO		:= $(NRT_REL)/lib/libnrt.so
NRT_MAP		:= userspace/nrt/libnrt.map
# the system libraries of a static link, in link order
NRT_PRIVATE	:= -lsimdjson -lstdc++ -ljansson -larchive -lcrypto -lz \
	-lnl-genl-3 -lnl-3 -lm -lpthread
NRT_PRIVATE_VM	:= -ljansson -larchive -lcrypto -lz -lnl-genl-3 -lnl-3 -lm

NRT_SO_LD	:= $(rel_CC) $(rel_LDFLAGS) -shared \
	-Wl,-soname,libnrt.so.$(NRT_SOMAJOR) -Wl,--no-undefined \
	-Wl,--version-script=$(TOP)/$(NRT_MAP)
$(NRT_SO).$(NRT_SOMAJOR): $(call lib,NRT,rel) $(NRT_MAP)
	@mkdir -p $(@D)
	$(Q)$(call say,LD,$(call show,$@))$(NRT_SO_LD) -o $@ \
		-Wl,--whole-archive $(call lib,NRT,rel) -Wl,--no-whole-archive \
		$(filter-out -lpthread,$(NRT_PRIVATE)) -lpthread
$(NRT_SO): $(NRT_SO).$(NRT_SOMAJOR)
	$(Q)ln -sf $(notdir $<) $@
$(NRT_REL)/lib/libnrt.a: $(call lib,NRT,rel)
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(NRT_REL)/include/nrt/%.h: userspace/nrt/include/nrt/%.h
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(NRT_REL)/lib/pkgconfig/neuronsim-nrt.pc: $(REL_O)/neuronsim.pc.dirs userspace/nrt/build.mk
	@mkdir -p $(@D)
	$(Q)$(call say,GEN,$(call show,$@))printf '%s\n' 'prefix=$(PREFIX)' \
		'libdir=$(LIBDIR)/neuronsim' 'includedir=$(INCLUDEDIR)/neuronsim' '' \
		'Name: neuronsim-nrt' \
		'Description: libnrt-compatible runtime API of the neuronsim simulated Neuron device' \
		'Version: $(NSIM_VERSION)' \
		'Libs: -L$${libdir} -Wl,-rpath,$${libdir} -lnrt' \
		'Libs.private: $(NRT_PRIVATE)' \
		'Cflags: -I$${includedir}' > $@
# the VM's static link: the archive, then what it needs from the system
$(NRT_VM)/lib/libnrt-static.a: $(call lib,NRT,vm)
	@mkdir -p $(@D)
	$(Q)cp $< $@
$(NRT_VM)/lib/libnrt.a: $(NRT_VM)/lib/libnrt-static.a userspace/nrt/build.mk
	$(Q)$(call say,GEN,$(call show,$@))printf '%s\n' \
		'/* libnrt for a static link: neuronsim'"'"'s objects, then the system libraries (Documentation/nrt.rst) */' \
		'GROUP ( libnrt-static.a $(NRT_PRIVATE_VM) )' > $@
$(NRT_VM)/include/nrt/%.h: userspace/nrt/include/nrt/%.h
	@mkdir -p $(@D)
	$(Q)cp $< $@

NRT_REL_FILES	:= $(NRT_SO) $(NRT_SO).$(NRT_SOMAJOR) $(NRT_REL)/lib/libnrt.a \
	$(NRT_REL)/lib/pkgconfig/neuronsim-nrt.pc \
	$(patsubst userspace/nrt/include/%,$(NRT_REL)/include/%,$(NRT_HDRS))
NRT_VM_FILES	:= $(NRT_VM)/lib/libnrt.a \
	$(patsubst userspace/nrt/include/%,$(NRT_VM)/include/%,$(NRT_HDRS))

.PHONY: libnrt libnrt-vm install-nrt
libnrt: $(NRT_REL_FILES)
libnrt-vm: $(NRT_VM_FILES)
default: libnrt
userspace: libnrt
vm-progs: libnrt-vm

install: install-nrt
install-nrt: $(NRT_REL_FILES)
	$(Q)$(call say,INSTALL,$(DESTDIR)$(LIBDIR)/neuronsim/libnrt.*)install -d \
		$(DESTDIR)$(LIBDIR)/neuronsim $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/neuronsim/nrt
	$(Q)install -m 0755 $(NRT_SO).$(NRT_SOMAJOR) $(DESTDIR)$(LIBDIR)/neuronsim/
	$(Q)ln -sf libnrt.so.$(NRT_SOMAJOR) $(DESTDIR)$(LIBDIR)/neuronsim/libnrt.so
	$(Q)install -m 0644 $(NRT_REL)/lib/libnrt.a $(DESTDIR)$(LIBDIR)/neuronsim/
	$(Q)install -m 0644 $(NRT_REL)/lib/pkgconfig/neuronsim-nrt.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	$(Q)install -m 0644 $(NRT_HDRS) $(DESTDIR)$(INCLUDEDIR)/neuronsim/nrt/

# what the library ships, on the host (exports, the guide's build line,
# no device, make install)
HOST_TESTS	+= $(TOP)/userspace/tests/nrt_install_test.sh
