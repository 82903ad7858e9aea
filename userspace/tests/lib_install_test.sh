#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lib_install_test.sh - host test (TAP) of what libneuronsim ships
# (userspace/lib/build.mk, Documentation/userspace.rst):
#   - libneuronsim.so exports only neuronsim_* functions, each under the
#     version node NEURONSIM_0.1 of userspace/lib/libneuronsim.map;
#   - it exports exactly the functions libneuronsim.h declares;
#   - make install DESTDIR=TMP PREFIX=/usr/local writes the commands, the
#     shared and static library, the header and the uapi headers it
#     includes, and neuronsim.pc;
#   - a program built with pkg-config --cflags --libs neuronsim against
#     that tree compiles, links and runs on the installed .so;
#   - the installed commands answer --help.
# Run by scripts/check.sh after make all (it is in HOST_TESTS).
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
so=$top/build/rel/libneuronsim.so.0.1.0
hdr=$top/userspace/lib/libneuronsim.h
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nsim-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# ok NAME CMD..., $n and $fails
. "$top/userspace/tests/tap.sh"

exports_only_api() {
	local bad
	[ -f "$so" ] || { echo "$so is missing: run make"; return 1; }
	nm -D --defined-only "$so" > "$tmp/nm" || return 1
	# the version node itself is an absolute symbol of that name
	bad=$(awk '!($2 == "A" && $3 == "NEURONSIM_0.1") &&
		!($2 == "T" && $3 ~ /^neuronsim_[a-z0-9_]+@@NEURONSIM_0\.1$/)' "$tmp/nm")
	[ -z "$bad" ] || { echo "exported besides neuronsim_*@@NEURONSIM_0.1:"; echo "$bad"; return 1; }
	grep -q ' T neuronsim_open@@NEURONSIM_0.1$' "$tmp/nm" ||
		{ echo "neuronsim_open is not exported"; return 1; }
}

exports_header() {
	# declarations only: not the lines of comments
	grep -v '^[[:space:]]*\(\*\|/\*\)' "$hdr" | grep -o '\bneuronsim_[a-z0-9_]*(' |
		tr -d '(' | sort -u > "$tmp/declared"
	awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' "$tmp/nm" | sort -u > "$tmp/exported"
	[ -s "$tmp/declared" ] || { echo "no function found in $hdr"; return 1; }
	diff -u "$tmp/declared" "$tmp/exported" | sed 's/^/declared vs exported: /'
	cmp -s "$tmp/declared" "$tmp/exported"
}

dest=$tmp/root
prefix=/usr/local
installs() {
	local f missing=0
	make -s --no-print-directory -C "$top" install DESTDIR="$dest" PREFIX="$prefix" || return 1
	for f in bin/neuronsim bin/neuronsim-cc lib/libneuronsim.so.0.1.0 \
		 lib/libneuronsim.so.0 lib/libneuronsim.so lib/libneuronsim.a \
		 include/libneuronsim.h include/linux/neuronsim.h \
		 include/linux/neuronsim_kbin.h include/linux/neuronsim_netlink.h \
		 include/linux/neuronsim_udma.h lib/pkgconfig/neuronsim.pc; do
		[ -e "$dest$prefix/$f" ] || { echo "missing: $prefix/$f"; missing=1; }
	done
	[ "$(readlink "$dest$prefix/lib/libneuronsim.so.0")" = libneuronsim.so.0.1.0 ] ||
		{ echo "libneuronsim.so.0 does not point at libneuronsim.so.0.1.0"; missing=1; }
	grep -qx "prefix=$prefix" "$dest$prefix/lib/pkgconfig/neuronsim.pc" ||
		{ echo "neuronsim.pc: no prefix=$prefix"; missing=1; }
	# the static library carries the plan tables it calls
	nm "$dest$prefix/lib/libneuronsim.a" | grep -q ' T kbin_reason_str$' ||
		{ echo "libneuronsim.a lacks the plan objects"; missing=1; }
	return $missing
}

pc() {
	PKG_CONFIG_PATH=$dest$prefix/lib/pkgconfig pkg-config \
		--define-variable=prefix="$dest$prefix" \
		--define-variable=libdir="$dest$prefix/lib" \
		--define-variable=includedir="$dest$prefix/include" "$@" neuronsim
}

consumer_builds() {
	cat > "$tmp/app.c" <<'APP'
#include <stdio.h>
#include <string.h>
#include <libneuronsim.h>

int main(void)
{
	__u64 v = 0;

	if (neuronsim_parse_u64("0x10", &v) || v != 16)
		return 1;
	if (strcmp(neuronsim_mr_type_str(KBIN_MR_SB), "MR_SB"))
		return 1;
	printf("%s %llu\n", neuronsim_mr_type_str(KBIN_MR_SB), (unsigned long long)v);
	return 0;
}
APP
	# shellcheck disable=SC2046
	cc -std=gnu11 -Wall -Wextra -Werror $(pc --cflags) -o "$tmp/app" "$tmp/app.c" \
		$(pc --libs) || return 1
	# the header came from the installed tree, not from the sources
	cc -M $(pc --cflags) "$tmp/app.c" | tr ' \\' '\n\n' | grep -q "^$dest$prefix/include/linux/neuronsim_kbin.h$" ||
		{ echo "linux/neuronsim_kbin.h was not taken from $dest$prefix/include"; return 1; }
}

consumer_runs() {
	local out
	[ -x "$tmp/app" ] || { echo "no program was built"; return 1; }
	out=$(LD_LIBRARY_PATH=$dest$prefix/lib "$tmp/app") || return 1
	[ "$out" = "MR_SB 16" ] || { echo "the program printed '$out', want 'MR_SB 16'"; return 1; }
	LD_LIBRARY_PATH=$dest$prefix/lib ldd "$tmp/app" | grep -q "=> $dest$prefix/lib/libneuronsim.so.0 " ||
		{ echo "not linked against the installed libneuronsim.so.0:"; LD_LIBRARY_PATH=$dest$prefix/lib ldd "$tmp/app"; return 1; }
}

commands_help() {
	"$dest$prefix/bin/neuronsim" --help | grep -q '^usage: neuronsim ' || return 1
	"$dest$prefix/bin/neuronsim-cc" --help | grep -q '^usage: neuronsim-cc ' || return 1
}

echo "TAP version 13"
echo "1..6"
ok "libneuronsim.so exports only neuronsim_* functions, each @@NEURONSIM_0.1" exports_only_api
ok "libneuronsim.so exports exactly the functions of libneuronsim.h" exports_header
ok "make install DESTDIR=... PREFIX=$prefix writes the commands, libraries, headers and neuronsim.pc" installs
ok "pkg-config --cflags --libs neuronsim against the installed tree builds a program" consumer_builds
ok "that program runs on the installed libneuronsim.so.0" consumer_runs
ok "the installed neuronsim and neuronsim-cc answer --help" commands_help
[ $fails -eq 0 ]
