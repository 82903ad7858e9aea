# SPDX-License-Identifier: GPL-2.0
#
# ktap-count.awk - count the results of (K)TAP output: run_kselftest.sh's,
# the selftests' and the host tests' (scripts/check.sh, make check-debug).
#
# A subtest's lines are its parent's prefixed with "# " (the kselftest
# convention: the runner prefixes each test's output, lib.sh's run_tap
# each program's), so a result line is "(# )*(not )ok [N] NAME[ # SKIP]"
# at the depth its prefixes give.  A result with results one level deeper
# since the previous result at its depth is a parent: its children are
# counted, not it - unless it failed and none of its descendants did (a
# program that failed without saying why), which counts as one failure.
# Every other result is a leaf: "ok" a pass ("# SKIP": a skip), "not ok"
# a failure.  Numbered and unnumbered results both count.
#
# Prints one line per failure counted, "FAILED: " and the result line,
# then "PASS SKIP FAIL".

{
	line = $0
	d = 0
	while (substr(line, 1, 2) == "# ") {
		line = substr(line, 3)
		d++
	}
	if (line !~ /^(not ok|ok)([ \t]|$)/)
		next
	failed = line ~ /^not ok/
	skipped = !failed && line ~ /#[ \t]*(SKIP|skip)/
	kids = res[d + 1] + 0
	below = nfail[d + 1] + 0
	counted = 0
	if (!kids) {
		if (failed)
			counted = 1
		else if (skipped)
			skip++
		else
			pass++
	} else if (failed && !below) {
		counted = 1
	}
	if (counted) {
		fail++
		print "FAILED: " line
	}
	for (k in res)
		if (k + 0 > d) {
			delete res[k]
			delete nfail[k]
		}
	res[d]++
	nfail[d] += below + counted
}

END {
	printf "%d %d %d\n", pass, skip, fail
}
