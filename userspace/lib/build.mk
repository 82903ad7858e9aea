# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/lib (libneuronsim), included by the top-level
# Makefile.
#
#   libneuronsim.a       host (sanitized, for the host tests), rel, vm; the
#                        rel one carries the plan objects it needs
#                        (installed, self-contained)
#   $(NSIM_SO)           libneuronsim.so.$(NSIM_VERSION), soname
#                        libneuronsim.so.$(NSIM_SOMAJOR), from the rel
#                        objects; exports only the functions
#                        libneuronsim.map lists, under its version node
#   $(NSIM_PC)           pkg-config file neuronsim.pc (for PREFIX)
#   lib_* host tests     userspace/tests/lib_*.c (every one), and
#                        userspace/tests/lib_install_test.sh (exported
#                        symbols, make install); ynl_spec_test.py (the
#                        netlink family's YNL spec)
#   install-lib          .so, .a, libneuronsim.h and the uapi headers it
#                        includes, neuronsim.pc under DESTDIR/PREFIX

NSIM_VERSION	:= 0.1.0
NSIM_SOMAJOR	:= 0

$(call library,NSIM,libneuronsim,host rel vm)
NSIM_DIR	:= userspace/lib
NSIM_SRCS	:= device.c names.c map.c netlink.c netlink-gen.c
NSIM_INC	:= -I$(TOP)/userspace/lib \
	$(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null || echo -I/usr/include/libnl3)
NSIM_CFLAGS	:= -fvisibility=hidden
NSIM_USES	:= PLAN UTIL
NSIM_LDLIBS	:= -lnl-genl-3 -lnl-3 -lpthread -lm
NSIM_BUNDLE	:= PLAN UTIL
NSIM_HDR	:= userspace/lib/libneuronsim.h
NSIM_UAPI_HDRS	:= uapi/linux/neuronsim.h uapi/linux/neuronsim_kbin.h \
	uapi/linux/neuronsim_netlink.h uapi/linux/neuronsim_udma.h
NSIM_MAP	:= userspace/lib/libneuronsim.map
NSIM_SO		:= $(REL_O)/libneuronsim.so
NSIM_PC		:= $(REL_O)/neuronsim.pc

PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include

NSIM_SO_LD	:= $(rel_CC) $(rel_LDFLAGS) -shared \
	-Wl,-soname,libneuronsim.so.$(NSIM_SOMAJOR) -Wl,--no-undefined \
	-Wl,--version-script=$(TOP)/$(NSIM_MAP)
NSIM_SO_CMDS	:= $(NSIM_SO_LD) $(NSIM_LDLIBS)
$(eval $(call cmd_file,rel/.cmd/NSIM_SO,NSIM_SO_CMDS))
$(NSIM_SO).$(NSIM_VERSION): $(call objs,NSIM,rel) $(call lib,PLAN,rel) $(call lib,UTIL,rel) $(NSIM_MAP) \
		$(REL_O)/.cmd/NSIM_SO
	$(Q)$(call say,LD,$(call show,$@))$(NSIM_SO_LD) -o $@ \
		$(call objs,NSIM,rel) $(call lib,PLAN,rel) $(call lib,UTIL,rel) $(NSIM_LDLIBS)
	$(Q)ln -sf $(notdir $@) $(NSIM_SO).$(NSIM_SOMAJOR) && ln -sf $(notdir $@) $(NSIM_SO)
$(NSIM_SO).$(NSIM_SOMAJOR) $(NSIM_SO): | $(NSIM_SO).$(NSIM_VERSION)
	$(Q)ln -sf $(notdir $|) $@

# rewritten when PREFIX (or the directories) change
$(REL_O)/neuronsim.pc.dirs: FORCE
	@mkdir -p $(@D)
	@echo '$(PREFIX) $(LIBDIR) $(INCLUDEDIR)' | cmp -s - $@ || \
		echo '$(PREFIX) $(LIBDIR) $(INCLUDEDIR)' > $@
$(NSIM_PC): $(REL_O)/neuronsim.pc.dirs userspace/lib/build.mk
	$(Q)$(call say,GEN,$(call show,$@))printf '%s\n' 'prefix=$(PREFIX)' \
		'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' 'Name: neuronsim' \
		'Description: client library of the neuronsim simulated Neuron device' \
		'Version: $(NSIM_VERSION)' 'Requires.private: libnl-genl-3.0 libnl-3.0' \
		'Libs: -L$${libdir} -lneuronsim' 'Libs.private: -lpthread -lm' \
		'Cflags: -I$${includedir}' > $@

.PHONY: libneuronsim install-lib
# the release library (make); the host and vm archives are built for the
# programs that link them
libneuronsim: $(call lib,NSIM,rel) $(NSIM_SO) $(NSIM_SO).$(NSIM_SOMAJOR) $(NSIM_PC)
userspace: libneuronsim

# host unit tests of the pure parts (VAR references, SVG map)
NSIM_TESTS	:= $(patsubst userspace/tests/%.c,%,$(wildcard userspace/tests/lib_*.c))
$(call programs,NSIM_TESTS,host,userspace/tests,$(HOST_O)/tests,TESTUTIL NSIM,userspace)
HOST_TESTS	+= $(call bins,NSIM_TESTS) $(TOP)/userspace/tests/lib_install_test.sh

# the YNL spec of the netlink family the library speaks, against the
# kernel's genetlink-c schema and the uapi headers
HOST_TESTS	+= $(TOP)/userspace/tests/ynl_spec_test.py

install: install-lib
install-lib: $(NSIM_SO) $(NSIM_SO).$(NSIM_SOMAJOR) $(call lib,NSIM,rel) $(NSIM_PC)
	$(Q)$(call say,INSTALL,$(DESTDIR)$(LIBDIR)/libneuronsim.*)install -d \
		$(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/linux
	$(Q)install -m 0755 $(NSIM_SO).$(NSIM_VERSION) $(DESTDIR)$(LIBDIR)/
	$(Q)ln -sf libneuronsim.so.$(NSIM_VERSION) $(DESTDIR)$(LIBDIR)/libneuronsim.so.$(NSIM_SOMAJOR)
	$(Q)ln -sf libneuronsim.so.$(NSIM_VERSION) $(DESTDIR)$(LIBDIR)/libneuronsim.so
	$(Q)install -m 0644 $(call lib,NSIM,rel) $(DESTDIR)$(LIBDIR)/
	$(Q)install -m 0644 $(NSIM_PC) $(DESTDIR)$(LIBDIR)/pkgconfig/
	$(Q)$(call say,INSTALL,$(DESTDIR)$(INCLUDEDIR)/libneuronsim.h linux/)install \
		-m 0644 $(NSIM_HDR) $(DESTDIR)$(INCLUDEDIR)/
	$(Q)install -m 0644 $(NSIM_UAPI_HDRS) $(DESTDIR)$(INCLUDEDIR)/linux/
