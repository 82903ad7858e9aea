#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nrt_install_test.sh - host test (TAP) of what neuronsim's libnrt ships
# (userspace/nrt/build.mk, Documentation/nrt.rst):
#   - libnrt.so exports only nrt_* functions, exactly those the headers
#     declare;
#   - the runtime developer guide's first application
#     (selftests/nrt/run_neff.c) builds with the guide's command line and
#     only the -I/-L paths changed, against the shared library and, with
#     the system libraries of neuronsim-nrt.pc's Libs.private, the static
#     one;
#   - without a device it fails as libnrt does: nrt_init returns
#     NRT_RESOURCE with an ERROR line in libnrt's shape; the calls that
#     need no device (nrt_get_version) and the runtime's own checks
#     (NRT_UNINITIALIZED) answer;
#   - make install puts the library under lib/neuronsim/ (never lib/,
#     where -lnrt would find it in place of a real libnrt), the headers
#     under include/neuronsim/nrt/, neuronsim-nrt.pc, and a program built
#     with pkg-config --cflags --libs neuronsim-nrt runs on it.
# Run by scripts/check.sh after make all (it is in HOST_TESTS).
set -u

top=$(cd "$(dirname "$0")/../.." && pwd)
rel=$top/build/rel/nrt
so=$rel/lib/libnrt.so.1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nrt-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
. "$top/userspace/tests/tap.sh"

exports_only_api() {
	[ -f "$so" ] || { echo "$so is missing: run make"; return 1; }
	nm -D --defined-only "$so" | awk '$2 == "T" { print $3 }' | sort -u > "$tmp/exported"
	grep -hv '^[[:space:]]*\(\*\|/\*\)' "$rel"/include/nrt/*.h | grep -o '\bnrt_[a-z0-9_]*(' |
		tr -d '(' | sort -u > "$tmp/declared"
	[ -s "$tmp/declared" ] || { echo "no nrt_ function declared"; return 1; }
	diff -u "$tmp/declared" "$tmp/exported" | sed 's/^/declared vs exported: /'
	cmp -s "$tmp/declared" "$tmp/exported"
}

guide_line_shared() {
	# the guide's line; only -I and -L are ours
	(cd "$top/selftests/nrt" && gcc run_neff.c -o "$tmp/run_neff" -lnrt -pthread \
		-I"$rel/include" -L"$rel/lib")
}

guide_line_static() {
	# shellcheck disable=SC2046
	(cd "$top/selftests/nrt" && gcc run_neff.c -o "$tmp/run_neff_static" \
		"$rel/lib/libnrt.a" -pthread -I"$rel/include" \
		$(PKG_CONFIG_PATH=$rel/lib/pkgconfig pkg-config --libs-only-l --static neuronsim-nrt |
		  sed 's/-lnrt//')) || return 1
	! ldd "$tmp/run_neff_static" | grep -q 'libnrt\.so' ||
		{ echo "the static build needs libnrt.so"; return 1; }
}

no_device() {
	local rc
	[ -x "$tmp/run_neff" ] || { echo "run_neff was not built"; return 1; }
	printf 'x' > "$tmp/x.neff"
	NEURONSIM_DEVICE=63 LD_LIBRARY_PATH=$rel/lib "$tmp/run_neff" "$tmp/x.neff" > "$tmp/o" 2>&1
	rc=$?
	cat "$tmp/o"
	[ $rc = 1 ] || { echo "exit status $rc, want 1"; return 1; }
	grep -q 'nrt_init(.*) failed: status 4$' "$tmp/o" || return 1
	grep -qE '^[0-9]{4}-[A-Z][a-z]{2}-[0-9]{2} [0-9:.]+ [0-9]+:[0-9]+ ERROR NRT:' "$tmp/o" ||
		{ echo "no ERROR line in libnrt's shape"; return 1; }
}

no_init() {
	cat > "$tmp/pre.c" <<'APP'
#include <stdio.h>
#include <string.h>
#include <nrt/nrt.h>
#include <nrt/nrt_experimental.h>

int main(void)
{
	nrt_tensor_t *t = NULL;
	nrt_model_t *m = NULL;
	nrt_version_t v;
	char b = 0;

	if (nrt_get_version(&v, sizeof(v)) || v.rt_major != NRT_MAJOR_VERSION ||
	    strncmp(v.rt_detail, "neuronsim ", 10))
		return 1;
	if (nrt_load(&b, 1, -1, -1, &m) != NRT_UNINITIALIZED)
		return 2;
	if (nrt_tensor_allocate(NRT_TENSOR_PLACEMENT_HOST, -1, 4, "t", &t) != NRT_UNINITIALIZED)
		return 3;
	if (nrt_get_version(NULL, 0) != NRT_INVALID)
		return 4;
	nrt_close();	/* before nrt_init: nothing to do */
	printf("%s\n", v.rt_detail);
	return 0;
}
APP
	gcc -std=c11 -Wall -Wextra -Werror -o "$tmp/pre" "$tmp/pre.c" -lnrt -pthread \
		-I"$rel/include" -L"$rel/lib" || return 1
	LD_LIBRARY_PATH=$rel/lib "$tmp/pre"
}

dest=$tmp/root
prefix=/usr/local
installs() {
	local f missing=0
	make -s --no-print-directory -C "$top" install DESTDIR="$dest" PREFIX="$prefix" || return 1
	for f in lib/neuronsim/libnrt.so.1 lib/neuronsim/libnrt.so lib/neuronsim/libnrt.a \
		 include/neuronsim/nrt/nrt.h include/neuronsim/nrt/nrt_status.h \
		 include/neuronsim/nrt/nrt_version.h include/neuronsim/nrt/nrt_experimental.h \
		 lib/pkgconfig/neuronsim-nrt.pc; do
		[ -e "$dest$prefix/$f" ] || { echo "missing: $prefix/$f"; missing=1; }
	done
	if ls "$dest$prefix"/lib/libnrt* > /dev/null 2>&1; then
		echo "libnrt installed on the default library path:"; ls "$dest$prefix"/lib/libnrt*
		missing=1
	fi
	return $missing
}

pkg_config_consumer() {
	local pc="$dest$prefix/lib/pkgconfig"
	# shellcheck disable=SC2046
	gcc -std=c11 -Wall -Wextra -Werror -o "$tmp/pre2" "$tmp/pre.c" \
		$(PKG_CONFIG_PATH=$pc pkg-config --define-variable=libdir="$dest$prefix/lib/neuronsim" \
			--define-variable=includedir="$dest$prefix/include/neuronsim" \
			--cflags --libs neuronsim-nrt) -pthread || return 1
	ldd "$tmp/pre2" | grep -q "=> $dest$prefix/lib/neuronsim/libnrt.so.1 " ||
		{ echo "not linked against the installed libnrt.so.1 (rpath):"; ldd "$tmp/pre2"; return 1; }
	"$tmp/pre2"
}

echo "TAP version 13"
ok "libnrt.so exports exactly the nrt_* functions its headers declare" exports_only_api
ok "run_neff.c builds with the guide's line against libnrt.so" guide_line_shared
ok "run_neff.c links statically against libnrt.a and Libs.private" guide_line_static
ok "without a device nrt_init is NRT_RESOURCE, logged in libnrt's shape" no_device
ok "nrt_get_version before nrt_init; other calls NRT_UNINITIALIZED" no_init
ok "make install: lib/neuronsim/, include/neuronsim/nrt/, neuronsim-nrt.pc" installs
ok "a pkg-config consumer links the installed libnrt.so by its rpath and runs" pkg_config_consumer
echo "1..$n"
[ $fails -eq 0 ]
