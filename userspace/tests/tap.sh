# SPDX-License-Identifier: GPL-2.0
# tap.sh - helpers of the host shell tests (bash), sourced after the test
# has set $tmp (a scratch folder it removes itself):
#   ok NAME CMD...  one numbered TAP line "ok N NAME" / "not ok N NAME";
#                   on failure the command's output (its last 30 lines)
#                   follows as "# " comments and $fails grows by one.
# $n counts the results and $fails the failures; the test prints its plan
# from $n and ends with [ $fails -eq 0 ].
n=0
fails=0

# ok NAME CMD...: one TAP line; the command's output as comments on failure
ok() {
	local name=$1
	shift
	n=$((n + 1))
	if "$@" > "$tmp/out" 2>&1; then
		echo "ok $n $name"
	else
		echo "not ok $n $name"
		sed 's/^/# /' "$tmp/out" | tail -n 30
		fails=$((fails + 1))
	fi
}
