# SPDX-License-Identifier: GPL-2.0
#
# static-ld-notes.awk - filter the output of a static link (the vm flavor,
# Makefile "link_vm"): drop glibc's notes that getaddrinfo,
# getprotobyname and getprotobynumber need its shared NSS libraries at run
# time, each with the "in function" line before it, when libnl-3.a's
# address and protocol helpers are what refer to them, and the same notes
# for dlopen, getaddrinfo and gethostbyname when libcrypto.a's DSO and BIO
# socket helpers refer to them (libnrt's static archive takes only MD5
# from libcrypto: those helpers are never called); print every other
# line.  The last input line is "ld-status N", the linker's exit status,
# which becomes this program's.

function flush() {
	if (held != "")
		print held
	held = ""
}

/^ld-status [0-9]+$/ {
	flush()
	status = $2
	next
}

/lib(nl-3|crypto)\.a\([^)]*\): in function `[A-Za-z_0-9]*':$/ {
	flush()
	held = $0
	next
}

held != "" && /: warning: Using '(getaddrinfo|getprotobyname|getprotobynumber|gethostbyname|dlopen)' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking$/ {
	held = ""
	next
}

{
	flush()
	print
}

END {
	flush()
	exit status + 0
}
