#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kmod-graph.sh - the call graph between the files of the module, read
# from its objects (Documentation/module.rst, "The graph"): for each
# kmod/*.o, the nrsim_* functions it calls that another kmod/*.o defines
# (nm: undefined there, a text symbol here).  Prints one line per edge,
#
#   caller.c -> callee.c: nrsim_a, nrsim_b
#
# then "no circle", or "circle: a.c b.c ..." for the files that call each
# other in a loop (tsort's).  Data (the module parameters of main.c, the
# bus type) is not a call and draws no edge.  kmod/plan/ is the shared
# core, below every file, and is left out.
#
#   scripts/kmod-graph.sh [-q]     -q: only the verdict
#
# Reads the objects of the build for kernel $KVER (default 6.1),
# build/kmod/<abi>/kmod/ (make module).  Expects make module to have run.  Exit status 0 no circle, 1 a circle,
# 2 no objects.
set -uo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.." || exit 2
quiet=0
[ "${1:-}" = -q ] && quiet=1
# the module's objects (kmod/objs.mk), kmod/plan/'s left out
abi=$(scripts/kabi.sh "${KVER:-6.1}") || exit 2
objs=()
for o in $(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' kmod/objs.mk |
	   sed -n 's/^NEURONSIM_OBJS *:=//p'); do
	case $o in */*) ;; *) objs+=("build/kmod/$abi/kmod/$o") ;; esac
done
for o in "${objs[@]}"; do
	[ -e "$o" ] || { echo "kmod-graph: no $o: run make module" >&2; exit 2; }
done
[ ${#objs[@]} -gt 0 ] || { echo "kmod-graph: no object in kmod/objs.mk" >&2; exit 2; }

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for o in "${objs[@]}"; do
	f=$(basename "$o" .o).c
	nm --defined-only "$o" | awk -v f="$f" '$2 == "T" && $3 ~ /^nrsim_/ { print $3, f }'
done | sort > "$tmp/def"
for o in "${objs[@]}"; do
	f=$(basename "$o" .o).c
	nm -u "$o" | awk -v f="$f" '$2 ~ /^nrsim_/ { print $2, f }'
done | sort > "$tmp/use"
# symbol caller callee -> "caller callee symbol", one edge per file pair
join "$tmp/use" "$tmp/def" | awk '$2 != $3 { print $2, $3, $1 }' | sort > "$tmp/edges"
if [ $quiet = 0 ]; then
	awk '{ k = $1 " -> " $2; if (k in s) s[k] = s[k] ", " $3; else s[k] = $3 }
	     END { for (k in s) print k ": " s[k] }' "$tmp/edges" | sort
fi
# every file is a node, so tsort sees the ones without an edge too
{ awk '{ print $1, $2 }' "$tmp/edges"
  for o in "${objs[@]}"; do f=$(basename "$o" .o).c; echo "$f $f"; done
} > "$tmp/pairs"
if tsort "$tmp/pairs" > /dev/null 2> "$tmp/loop"; then
	echo "no circle among the ${#objs[@]} files of kmod/"
	exit 0
fi
echo "circle: $(grep -v 'input contains a loop' "$tmp/loop" | sed 's/^tsort: //' | tr '\n' ' ')"
exit 1
