# SPDX-License-Identifier: GPL-2.0
#
# fresh-base.sh - sourced by scripts/fresh-check.sh and scripts/deb-check.sh:
# a minimal Debian bookworm root that never had any of the project's
# dependencies.
#
#   fresh_base            the cached minbase root, .cache/fresh/bookworm-
#                         minbase.tar: built once with debootstrap (plus
#                         git and ca-certificates), with the suites of a
#                         Debian machine of this kind
#   fresh_root            unpack it into a new directory under $TMPDIR
#                         (default /var/tmp: outside the tree, where the
#                         kernel's "make clean" of an external module
#                         would delete every object file); sets $root
#   fresh_run ROOT CMD [VAR=VALUE...]
#                         run the shell command CMD in ROOT as root with
#                         /proc, /sys, /dev and a /tmp mounted, in a
#                         private mount namespace (nothing stays mounted),
#                         with a clean environment plus the VAR=VALUEs
#
# Expects $top (the checkout) and runs as root.

fresh_cache="$top/.cache/fresh"
fresh_tar="$fresh_cache/bookworm-minbase.tar"

fresh_base() {
	mkdir -p "$fresh_cache"
	[ -f "$fresh_tar" ] && return 0
	bash "$top/scripts/deps.sh" fresh >/dev/null
	local mirror=http://deb.debian.org/debian
	local tmp="$fresh_cache/debootstrap.$$"
	rm -rf "$tmp"
	echo "fresh: debootstrap --variant=minbase bookworm ($mirror)"
	debootstrap --variant=minbase --include=git,ca-certificates \
		bookworm "$tmp" "$mirror" > "$fresh_cache/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$fresh_cache/debootstrap.log" >&2; return 1; }
	# the same suites as a Debian machine of this kind: the point
	# release, updates and security (the kernel headers come from there)
	rm -f "$tmp/etc/apt/sources.list"
	cat > "$tmp/etc/apt/sources.list.d/debian.sources" <<'SOURCES'
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
SOURCES
	chroot "$tmp" apt-get clean
	tar -C "$tmp" -cf "$fresh_tar.part" .
	mv "$fresh_tar.part" "$fresh_tar"
	rm -rf "$tmp"
}

fresh_root() {
	root=$(mktemp -d "${TMPDIR:-/var/tmp}/nsim-fresh.XXXXXX")
	tar -C "$root" -xf "$fresh_tar"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
}

fresh_run() {
	unshare --mount --propagation private bash -c '
		set -e
		root=$1
		mount -t proc proc "$root/proc"
		mount --rbind /sys "$root/sys"
		mount --rbind /dev "$root/dev"
		mount -t tmpfs tmpfs "$root/tmp"
		cmd=$2
		shift 2
		exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root TERM=dumb LANG=C.UTF-8 "$@" /bin/bash -c "$cmd"
	' fresh "$@"
}
