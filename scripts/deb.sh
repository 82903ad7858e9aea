#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh - build/deb/neuronsim_VERSION_amd64.deb with dpkg-deb (no
# debhelper): what make deb runs, after make default.
#
#   /usr/src/neuronsim-VERSION/      the module's sources and dkms.conf
#                                    (make dkms-src); postinst has DKMS
#                                    build and install it for every kernel
#                                    whose headers are installed, and DKMS
#                                    rebuilds it for each new one
#   /usr/bin/                        neuronsim, neuronsim-cc (make install)
#   /usr/lib/, /usr/lib/pkgconfig/   libneuronsim .so/.a, neuronsim.pc
#   /usr/include/                    libneuronsim.h and the uapi headers
#   /lib/udev/rules.d/60-neuronsim.rules   the nodes: group neuronsim, 0660
#
# Depends: dkms, adduser (postinst's addgroup), libnl's development
# packages (neuronsim.pc names libnl-genl-3.0 and libnl-3.0, which
# pkg-config resolves for a program built against libneuronsim), and
# the libraries the commands link, as dpkg knows them on the machine
# that builds the package: build it on the release it is for.  Documentation/
# running.rst, "DKMS"; scripts/deb-check.sh installs the package in a
# fresh root and boots the module DKMS built.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ver=$(make -s --no-print-directory print-NSIM_VERSION)
out=build/deb
root=$out/root
rm -rf "$root"
mkdir -p "$root/DEBIAN"
make -s --no-print-directory dkms-src DESTDIR="$root"
make -s --no-print-directory install DESTDIR="$top/$root" PREFIX=/usr
install -D -m 0644 packaging/60-neuronsim.rules "$root/lib/udev/rules.d/60-neuronsim.rules"

# the packages of the shared libraries the commands and the libraries
# link directly (their NEEDED entries, found where ldd finds them; dpkg -S
# names the package); libc6 last, unversioned
libdeps=$(for f in "$root"/usr/bin/* "$root"/usr/lib/libneuronsim.so.*.* \
		"$root"/usr/lib/neuronsim/libnrt.so.*; do
	objdump -p "$f" | awk '$1 == "NEEDED" { print $2 }' | while read -r n; do
		ldd "$f" | awk -v n="$n" '$1 == n && $3 ~ /^\// { print $3 }'
	done
done | sort -u | while read -r lib; do
	dpkg -S "$(readlink -f "$lib")" 2>/dev/null || dpkg -S "$lib" 2>/dev/null || true
done | cut -d: -f1 | sort -u | grep -v '^libc6$' | while read -r p; do
	printf '%s (>= %s), ' "$p" "$(dpkg-query -W -f='${Version}' "$p" | sed 's/-[^-]*$//')"
done)

size=$(du -sk "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: neuronsim
Version: $ver
Architecture: amd64
Maintainer: neuronsim developers <neuronsim@localhost>
Installed-Size: $size
Depends: dkms, adduser, libnl-3-dev, libnl-genl-3-dev, ${libdeps}libc6
Recommends: linux-headers-amd64 | linux-headers-generic
Section: kernel
Priority: optional
Description: simulated AWS Neuron device: kernel module (DKMS) and tools
 neuronsim.ko, built by DKMS for each installed kernel, simulates
 Neuron devices (/dev/neuronsimN); neuronsim-cc compiles NEFF files
 into plans, neuronsim loads and runs them; libneuronsim is the client
 library (pkg-config neuronsim).  The device nodes belong to group
 neuronsim (mode 0660).
CONTROL

cat > "$root/DEBIAN/postinst" <<POSTINST
#!/bin/sh
# neuronsim: the device group, then DKMS builds and installs the module
# for every kernel whose headers are installed (and, by its own hooks,
# for each kernel installed later)
set -e
if [ "\$1" = configure ]; then
	getent group neuronsim > /dev/null || addgroup --system neuronsim
	# already added on a reinstall: that is the only failure let pass
	dkms status -m neuronsim -v $ver 2>/dev/null | grep -q . ||
		dkms add -m neuronsim -v $ver
	for b in /lib/modules/*/build; do
		[ -e "\$b/Makefile" ] || continue
		k=\$(basename "\$(dirname "\$b")")
		dkms build -m neuronsim -v $ver -k "\$k" &&
			dkms install -m neuronsim -v $ver -k "\$k" ||
			echo "neuronsim: DKMS could not build the module for \$k" >&2
	done
	if command -v udevadm > /dev/null && [ -d /run/udev ]; then
		udevadm control --reload-rules || true
	fi
fi
exit 0
POSTINST

cat > "$root/DEBIAN/prerm" <<PRERM
#!/bin/sh
# neuronsim: DKMS forgets the module (every kernel's build of it)
set -e
case "\$1" in
remove|upgrade|deconfigure)
	dkms remove -m neuronsim -v $ver --all > /dev/null 2>&1 || true
	;;
esac
exit 0
PRERM
chmod 0755 "$root/DEBIAN/postinst" "$root/DEBIAN/prerm"

deb="$out/neuronsim_${ver}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
echo "deb.sh: $deb ($(du -k "$deb" | cut -f1) KiB)"
