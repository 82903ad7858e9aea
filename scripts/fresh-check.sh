#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fresh-check.sh - run CI as it runs on a fresh machine: in a minimal
# Debian bookworm root that never had any of the project's dependencies.
#
#   scripts/fresh-check.sh [-k] [-s SHARED]
#
#   -k          keep the root afterwards (printed) instead of removing it
#   -s SHARED   the folder copied in as ../shared (default: ../shared of
#               this checkout; absent is allowed: the tests then skip
#               what needs it)
#
# The first run builds a minbase root with debootstrap (plus git, which
# CI uses to clone) and caches it as .cache/fresh/bookworm-minbase.tar;
# every run unpacks that into a new directory (under $TMPDIR, default
# /var/tmp), puts a clean clone of HEAD
# at /work/main and a copy of SHARED at /work/shared in it, and runs
# "CI=true bash .ci/run" there as root with /proc, /sys and /dev mounted
# (in a private mount namespace, so nothing stays mounted).  Only
# committed work is tested: uncommitted changes are not in the clone.
# Prints the exit status and the time; exits with .ci/run's status.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache="$top/.cache/fresh"
base="$cache/bookworm-minbase.tar"
keep=0
shared="$top/../shared"
while getopts "ks:" o; do
	case $o in
	k) keep=1 ;;
	s) shared=$OPTARG ;;
	*) sed -n '4,22p' "$0" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "fresh-check.sh: run as root" >&2; exit 2; }

mkdir -p "$cache"
if [ ! -f "$base" ]; then
	bash "$top/scripts/deps.sh" fresh >/dev/null
	mirror=http://deb.debian.org/debian
	tmp="$cache/debootstrap.$$"
	rm -rf "$tmp"
	echo "fresh-check: debootstrap --variant=minbase bookworm ($mirror)"
	debootstrap --variant=minbase --include=git,ca-certificates \
		bookworm "$tmp" "$mirror" > "$cache/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
	# the same suites as a Debian machine of this kind: the point
	# release, updates and security (the kernel headers come from there)
	rm -f "$tmp/etc/apt/sources.list"
	cat > "$tmp/etc/apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	chroot "$tmp" apt-get clean
	tar -C "$tmp" -cf "$base.part" .
	mv "$base.part" "$base"
	rm -rf "$tmp"
fi

# outside the tree: the kernel's "make clean" of an external module
# deletes every object file under the module's directory
root=$(mktemp -d "${TMPDIR:-/var/tmp}/nsim-fresh.XXXXXX")
cleanup() {
	if [ $keep = 1 ]; then
		echo "fresh-check: root kept at $root"
	else
		rm -rf "$root"
	fi
}
trap cleanup EXIT
tar -C "$root" -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/work"
git clone -q "$top" "$root/work/main"
if [ -d "$shared" ]; then
	cp -a "$shared" "$root/work/shared"
	chmod -R u+w "$root/work/shared"
fi
echo "fresh-check: clean clone of $(git -C "$top" rev-parse --short HEAD) in $root/work/main; running CI=true bash .ci/run"

t0=$(date +%s)
set +e
unshare --mount --propagation private bash -c '
	set -e
	root=$1
	mount -t proc proc "$root/proc"
	mount --rbind /sys "$root/sys"
	mount --rbind /dev "$root/dev"
	mount -t tmpfs tmpfs "$root/tmp"
	exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root TERM=dumb CI=true LANG=C.UTF-8 \
		/bin/bash -c "cd /work/main && bash .ci/run"
' fresh-check "$root" 2>&1 | tee "$cache/last.log"
rc=${PIPESTATUS[0]}
set -e
t1=$(date +%s)
echo "fresh-check: .ci/run exited $rc after $((t1 - t0)) s (log $cache/last.log)"
exit "$rc"
