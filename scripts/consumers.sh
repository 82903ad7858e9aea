#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# consumers.sh - the host half of selftests/consumers.sh: collect the
# lines it captured in the VM ("NSIMCAP STATE FORMAT LINE" in the serial
# log) into DIR/STATE.FORMAT and run the Neuron tools' consumers on them
# (userspace/tests/neuron_consumers.py; Documentation/userspace.rst,
# "Consumers of the Neuron tools").
#
#   scripts/consumers.sh SERIAL_LOG DIR
#
# Prints KTAP.  When the VM run had no captures (consumers.sh was not
# among the tests run), one skipped result; exit status 0.
set -uo pipefail

[ $# -eq 2 ] || { sed -n '4,12p' "$0" >&2; exit 2; }
log=$1 dir=$2
top=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$dir"
mkdir -p "$dir"
# the serial console ends lines with CR; run_kselftest.sh prefixes "# "
awk -v dir="$dir" '
	{ sub(/\r$/, ""); i = index($0, "NSIMCAP "); if (!i) next
	  s = substr($0, i + 8); n = split(s, a, " ")
	  if (n < 3) next
	  print substr(s, length(a[1]) + length(a[2]) + 3) >> (dir "/" a[1] "." a[2]) }' "$log"
if ! ls "$dir"/*.monitor > /dev/null 2>&1; then
	echo "TAP version 13"
	echo "1..0 # SKIP no captures in $log (selftests/consumers.sh did not run)"
	exit 0
fi
# Debian's python3, whose packages deps.sh installs (python3-prometheus-client),
# not one a user's PATH may put first
exec /usr/bin/python3 "$top/userspace/tests/neuron_consumers.py" "$dir"
