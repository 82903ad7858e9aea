# SPDX-License-Identifier: GPL-2.0
# Build fragment for userspace/lib (libneuronsim), included by the top-level
# Makefile.
#
#   $(NSIM_LIB)          host static library, with the sanitizers
#   $(NSIM_LIB_VM)       static library for the (static) VM programs
#   $(NSIM_SO)           host shared library libneuronsim.so.$(NSIM_VERSION)
#   $(NSIM_PC)           pkg-config file neuronsim.pc
#   userspace/tests/lib_*.c -> host unit tests (HOST_TESTS)
#
# Programs using the library add $(NSIM_CFLAGS) and link $(NSIM_LDLIBS)
# after it (libnl-genl-3, libnl-3).

NSIM_VERSION	:= 0.1.0
NSIM_SOMAJOR	:= 0
NSIM_SRCS	:= device.c names.c map.c netlink.c
# the plan tables the library prints names and geometry from
NSIM_PLAN_SRCS	:= $(notdir $(PLAN_SRCS))
NSIM_HDR	:= userspace/lib/libneuronsim.h
NSIM_DEPS	:= $(NSIM_HDR) userspace/lib/internal.h kmod/plan/kbin_check.h \
		   kmod/plan/kbin_compat.h kmod/plan/resolve_core.h $(PLAN_HDRS) \
		   uapi/linux/neuronsim.h \
		   uapi/linux/neuronsim_netlink.h uapi/linux/neuronsim_kbin.h
NSIM_NL_CFLAGS	:= $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null || echo -I/usr/include/libnl3)
NSIM_CFLAGS	:= -I$(TOP)/userspace/lib $(NSIM_NL_CFLAGS)
NSIM_LDLIBS	:= -lnl-genl-3 -lnl-3 -lpthread -lm
NSIM_SO		:= $(HOST_O)/libneuronsim.so
NSIM_PC		:= $(HOST_O)/neuronsim.pc
PREFIX		?= /usr/local

NSIM_OBJS	:= $(NSIM_SRCS:.c=.o) $(NSIM_PLAN_SRCS:.c=.o)
NSIM_HOST_OBJS	:= $(addprefix $(HOST_O)/lib/,$(NSIM_OBJS))
NSIM_PIC_OBJS	:= $(addprefix $(HOST_O)/lib/pic/,$(NSIM_OBJS))
NSIM_VM_OBJS	:= $(addprefix $(VM_O)/lib/,$(NSIM_OBJS))

NSIM_PIC_CFLAGS	:= -std=gnu11 $(WARN) -O2 -g -fPIC -fvisibility=hidden -D_GNU_SOURCE \
		   -I$(TOP)/uapi -I$(TOP)/kmod/plan $(NSIM_CFLAGS)

$(HOST_O)/lib/%.o: userspace/lib/%.c $(NSIM_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(NSIM_CFLAGS) -c -o $@ $<
$(HOST_O)/lib/%.o: kmod/plan/%.c $(NSIM_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c -o $@ $<

# the shared library: no sanitizers (they need their runtime in the program)
$(HOST_O)/lib/pic/%.o: userspace/lib/%.c $(NSIM_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(NSIM_PIC_CFLAGS) -c -o $@ $<
$(HOST_O)/lib/pic/%.o: kmod/plan/%.c $(NSIM_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(NSIM_PIC_CFLAGS) -c -o $@ $<

$(VM_O)/lib/%.o: userspace/lib/%.c $(NSIM_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) $(NSIM_CFLAGS) -c -o $@ $<
$(VM_O)/lib/%.o: kmod/plan/%.c $(NSIM_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) -c -o $@ $<

$(NSIM_LIB): $(NSIM_HOST_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(NSIM_LIB_VM): $(NSIM_VM_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(NSIM_SO): $(NSIM_PIC_OBJS)
	$(CC) -shared -Wl,-soname,libneuronsim.so.$(NSIM_SOMAJOR) -Wl,--no-undefined \
		-o $@.$(NSIM_VERSION) $^ $(NSIM_LDLIBS)
	ln -sf libneuronsim.so.$(NSIM_VERSION) $@.$(NSIM_SOMAJOR)
	ln -sf libneuronsim.so.$(NSIM_VERSION) $@

$(NSIM_PC): userspace/lib/build.mk
	@mkdir -p $(dir $@)
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' \
		'includedir=$${prefix}/include' '' 'Name: neuronsim' \
		'Description: client library of the neuronsim simulated Neuron device' \
		'Version: $(NSIM_VERSION)' 'Requires.private: libnl-genl-3.0 libnl-3.0' \
		'Libs: -L$${libdir} -lneuronsim' 'Cflags: -I$${includedir}' > $@

.PHONY: libneuronsim
libneuronsim: $(NSIM_LIB) $(NSIM_LIB_VM) $(NSIM_SO) $(NSIM_PC)
HOST_BINS += $(NSIM_SO) $(NSIM_PC)

# host unit tests of the pure parts (VAR references, SVG map)
NSIM_HOST_TESTS	:= $(patsubst userspace/tests/%.c,$(HOST_O)/tests/%,$(wildcard userspace/tests/lib_*.c))
HOST_TESTS	+= $(NSIM_HOST_TESTS)

$(HOST_O)/tests/lib_%: userspace/tests/lib_%.c $(NSIM_LIB) $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) $(NSIM_CFLAGS) -o $@ $< $(NSIM_LIB) $(HOST_LDFLAGS) $(NSIM_LDLIBS)
