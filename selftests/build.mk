# SPDX-License-Identifier: GPL-2.0
# Build fragment for selftests/: kselftest programs run inside the VM.
# Each selftests/<name>.c becomes a static $(VM_O)/bin/<name>; the ones in
# VM_TESTS are run by make check (scripts/check.sh), in this order.

SELFTESTS := info_test

VM_PROGS += $(SELFTESTS)
VM_TESTS += $(SELFTESTS)

$(VM_O)/bin/info_test: selftests/info_test.c $(KSFT_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(VM_CFLAGS) -o $@ $< $(VM_LDFLAGS)
