#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - make bench: the figures of Documentation/performance.rst,
# each a ratio, count or size measured in this one run, printed as
#   name: value (target ...) OK|MISS
# and written, with the machine, to build/bench/results.json and into
# Documentation/performance.rst between the "bench-table" markers.
# Expects make (make bench does it); builds bench/ itself.  Not part
# of make check.
#
#   1. callgrind: instructions per resolve (host build of
#      kmod/plan/resolve_core.h, 10^6 random lookups in a 10^6-var subgraph)
#   2. VM: RESOLVE / no-op ioctl; RESOLVE_BATCH(1024) per entry / RESOLVE
#   3. VM: load per staged var at 10^4, 10^5, 10^6 vars, 1 and 4 loaders
#   4. VM: hot bytes per var, kernel bytes per var, backing RAM of a
#      4 GiB input + 20 GiB unwritten buffers plan
#   5. neuronsim-cc compile of a 100,000-var model / jq . of its def.json,
#      and of the real NEFF with the most DMA descriptors / jq . of its
#      JSON members; 5b. the compiler's peak RSS per JSON byte at 10^5
#      and 10^6 DMA descriptors, and a 2^20-entry semaphore set
#   6. BIR passes on generated modules of 10^4 and 10^5 instructions;
#      6b. the race detector on generated programs of 10^4..10^6
#      instructions (accesses per second, growth per 10x) and on the
#      real NEFF of figure 8
#   7. VM: relocation (synthetic plans of 10^2..10^4 descriptors of 160
#      UDMA descriptors a side each and the NEFF of figure 5 with and without its DMA
#      programs); the DMA engine on 64 MiB HBM -> SBUF -> HBM against
#      memcpy()
#   8. VM: the sequencers of EXECUTE: instructions per sequencer
#      instruction on chains of 10^4..10^6 instructions, their growth per
#      10x, and the execution of the real NEFF with the most instructions
#
# The VM steps run in three boots: two instruction-counted ones
# (scripts/vm.sh -i: one vCPU, qemu -icount shift=0,sleep=off, so a
# guest nanosecond is a guest instruction; the figures are judged on
# these, and the two must agree within 0.5%) and one wall-clock one.
#
# Environment: BENCH_SIZES="10000 100000 1000000" (load plan sizes),
# BENCH_NO_DOC=1 (do not rewrite Documentation/performance.rst),
# BENCH_DMA_NEFF=FILE (the NEFF of figure 5's second ratio),
# BENCH_EXEC_NEFF=FILE (the NEFF of figure 8's execution).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=build/bench/run
rm -rf "$out"
mkdir -p "$out"
sizes=${BENCH_SIZES:-10000 100000 1000000}

make -s --no-print-directory -j2 bench-progs

rows=()
misses=0
# row KEY NAME VALUE TARGET-TEXT OK(0/1): print a figure, keep it for the
# table and for build/bench/results.json (one tab-separated line each)
: > "$out/rows.tsv"
row() {
	local verdict=OK
	[ "$5" = 1 ] || { verdict=MISS; misses=$((misses + 1)); }
	rows+=("$2: $3 ($4) $verdict")
	echo "$2: $3 ($4) $verdict"
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$verdict" >> "$out/rows.tsv"
}
# le A B: 1 when A <= B (floating point)
le() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 <= b + 0) ? 1 : 0 }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 >= b + 0) ? 1 : 0 }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { print (a + 0 < b + 0) ? 1 : 0 }'; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

echo "== 1. resolve instructions (callgrind)"
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
	build/bench/resolve_bench 1000000 1000000 > "$out/resolve.txt" 2> "$out/valgrind.log"
cat "$out/resolve.txt"
callgrind_annotate --inclusive=yes "$out/callgrind.out" > "$out/annotate.txt" 2>/dev/null
# inclusive Ir of all calls to a function and their count, from the
# caller's "=> file:function (Nx)" line (callgrind splits a function's own
# summary by source file when code is inlined into it)
incl() {
	awk -v f="=> [^ ]*:$1 [(]" '$0 ~ f {
		gsub(",", "", $1); c = $NF; gsub("[(x),]", "", c); print $1, c; exit }' \
		"$out/annotate.txt"
}
read -r ir_res calls < <(incl bench_resolve)
read -r ir_lr _ < <(incl loop_resolve)
read -r ir_le _ < <(incl loop_empty)
lookups=$calls
per=$(calc "%.2f" "$ir_res / $lookups")
perloop=$(calc "%.2f" "($ir_lr - $ir_le) / $lookups")
echo "inclusive Ir of bench_resolve: $ir_res in $calls calls; loop difference: $((ir_lr - ir_le))"
ok=$(le "$per" 30)
grep -q '^checksum ok' "$out/resolve.txt" || ok=0
row resolve_instr_per_lookup "resolve instructions per lookup (callgrind inclusive; loop-diff $perloop)" \
	"$per" "target <= 30, libnrt ~50" "$ok"

echo "== 5. compiler vs jq"
build/bench/gen_model 100000 "$out/model.neff" "$out/model" > "$out/gen.txt"
cat "$out/gen.txt"
cc=build/bin/neuronsim-cc
def="$out/model/sg00/def.json"
secs() { local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); calc "%.4f" "$t1 - $t0"; }
rd=()
rn=()
for i in 1 2 3; do
	tj=$(secs jq . "$def")
	td=$(secs "$cc" compile "$out/model" -o "$out/model_dir.kbin")
	tn=$(secs "$cc" compile "$out/model.neff" -o "$out/model_neff.kbin")
	echo "round $i: jq ${tj}s, compile dir ${td}s, compile neff ${tn}s"
	rd+=("$(calc "%.3f" "$td / $tj")")
	rn+=("$(calc "%.3f" "$tn / $tj")")
done
med() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
cmp -s "$out/model_dir.kbin" "$out/model_neff.kbin" ||
	{ echo "bench.sh: the directory and NEFF forms compile differently" >&2; exit 1; }
ccdir=$(med "${rd[@]}")
ccneff=$(med "${rn[@]}")

# the real NEFF with the most DMA descriptors (its DMA programs are most
# of its JSON), extracted: compile / jq . over every JSON member
big=${BENCH_DMA_NEFF:-../shared/cases/neff/ewang__part2_file_pool_1_ae9c11b.neff}
ccdma=
neffd=()
if [ -f "$big" ]; then
	rm -rf "$out/bigneff"
	mkdir -p "$out/bigneff"
	tail -c +1025 "$big" | tar xzf - -C "$out/bigneff"
	mapfile -t members < <(find "$out/bigneff" -name '*.json' | sort)
	rb=()
	for i in 1 2 3; do
		tj=$(secs jq . "${members[@]}")
		td=$(secs "$cc" compile "$out/bigneff" -o "$out/bigneff.kbin")
		echo "round $i: jq over ${#members[@]} JSON members ${tj}s, compile ${td}s"
		rb+=("$(calc "%.3f" "$td / $tj")")
	done
	ccdma=$(med "${rb[@]}")
	"$cc" info "$out/bigneff" | grep -i 'dma' | head -n 3 || true
	# for figure 7: the NEFF without its engine programs (no *_instr in
	# def.json, no engine member's "instr": a plan of KBIN version 2, so
	# that LOAD's difference below is the DMA programs' alone), and the
	# same without its DMA programs either (no dma_queue in def.json,
	# every engine member's "dma" empty), compiled the same
	rm -rf "$out/bigneff_noprog" "$out/bigneff_nodma"
	cp -r "$out/bigneff" "$out/bigneff_noprog"
	for d in "$out/bigneff_noprog"/sg*/; do
		jq -c 'del(.pe_instr, .act_instr, .pool_instr, .dve_instr, .sp_instr)' \
			"$d/def.json" > "$d/def.json.tmp"
		mv "$d/def.json.tmp" "$d/def.json"
		for m in "$d"*.json; do
			jq -e 'type == "object" and has("instr")' "$m" > /dev/null 2>&1 || continue
			jq -c 'del(.instr)' "$m" > "$m.tmp"
			mv "$m.tmp" "$m"
		done
	done
	"$cc" compile "$out/bigneff_noprog" -o "$out/bigneff.kbin" > /dev/null
	cp -r "$out/bigneff_noprog" "$out/bigneff_nodma"
	for d in "$out/bigneff_nodma"/sg*/; do
		jq -c 'del(.dma_queue)' "$d/def.json" > "$d/def.json.tmp"
		mv "$d/def.json.tmp" "$d/def.json"
		for m in "$d"*.json; do
			jq -e 'type == "object" and has("dma")' "$m" > /dev/null 2>&1 || continue
			jq -c '.dma = []' "$m" > "$m.tmp"
			mv "$m.tmp" "$m"
		done
	done
	"$cc" compile -j "$out/bigneff_nodma" -o "$out/bigneff_nodma.kbin" > "$out/bigneff_nodma.json"
	# the generation to load them on (Documentation/kbin-format.rst,
	# target_gen)
	case $(jq .target_gen "$out/bigneff_nodma.json") in
	2) echo trn1 ;;
	3) echo trn2 ;;
	*) echo trn3 ;;
	esac > "$out/neff_arch"
	neffd=(-d "$out/bigneff.kbin:/bench/neff.kbin" -d "$out/bigneff_nodma.kbin:/bench/neff_nodma.kbin"
	       -d "$out/neff_arch:/bench/neff_arch")
else
	echo "bench.sh: $big not found (../shared/cases), the DMA-NEFF compile figure is not measured" >&2
fi

# figure 8: the real NEFF with the most instructions, compiled, executed
xbig=${BENCH_EXEC_NEFF:-../shared/cases/neff/ewang__part2_float32_no_maxpool_8c7626d.neff}
if [ -f "$xbig" ]; then
	"$cc" compile -j "$xbig" -o "$out/exec_neff.kbin" > "$out/exec_neff.json"
	case $(jq .target_gen "$out/exec_neff.json") in
	2) echo trn1 ;;
	3) echo trn2 ;;
	*) echo trn3 ;;
	esac > "$out/exec_neff_arch"
	neffd+=(-d "$out/exec_neff.kbin:/bench/exec_neff.kbin" -d "$out/exec_neff_arch:/bench/exec_neff_arch")
else
	echo "bench.sh: $xbig not found (../shared/cases), the execution of a real NEFF is not measured" >&2
fi

# figure 9: compute (bench/compute_bench.c; Documentation/performance.rst,
# "Compute"): BIR modules lowered to neuronsim's compute encoding, the
# host reference timed on their plans here, executed in the VM below
mkdir -p "$out/compute"
build/bench/compute_bench gen "$out/compute"
cp userspace/cc/bir/examples/bir_attention.bir.json "$out/compute/attention.bir.json"
for n in matmul copy act_exp tt_add ts_mul reduce_add attention; do
	"$cc" compile "$out/compute/$n.bir.json" -o "$out/compute/$n.kbin" > /dev/null
	build/bench/compute_bench ref "$out/compute/$n.kbin" 5 > "$out/compute/$n.ref.txt"
done
neffd+=(-d "$out/compute:/bench/compute")

# vm_run LANE [vm.sh flags]: the in-VM part (bench/vm_bench.sh), its
# key/value lines in $out/vm_LANE.txt.  Every lane boots without the kmem
# trace events of make check's VM (-n).
vm_run() {
	local lane=$1 mode=wall
	shift
	case " $* " in *" -i "*) mode=icount ;; esac
	echo "$mode" > "$out/mode_$lane"
	bash scripts/vm.sh -n "$@" -t 2400 -q -l "$out/serial_$lane.log" \
		-d bench/vm_bench.sh:/bench/vm_bench.sh -d "$out/scale:/bench/scale" \
		-d "$out/mode_$lane:/bench/mode" "${neffd[@]}" \
		-d build/vm/bench/nsim_bench:/bin/nsim_bench bench/vm_bench.sh ||
		echo "bench.sh: the $lane VM run failed ($?)" >&2
	sed -n '/^NSIM_BEGIN$/,/^NSIM_END/{/^NSIM_BEGIN$/d;/^NSIM_END/d;p}' \
		"$out/serial_$lane.log" > "$out/vm_$lane.txt"
	grep '^bench_error' "$out/vm_$lane.txt" >&2 || true
}
echo "$sizes" > "$out/scale"
echo "== 2-4. in the VM: two instruction-counted runs (qemu -icount), one wall-clock run"
vm_run icount -i
vm_run icount2 -i
vm_run wall
# v LANE KEY: the last value of KEY in LANE's output
v() { sed -n "s/^$2 //p" "$out/vm_$1.txt" | tail -n 1; }

# The icount runs must agree: the largest relative difference of any
# timing key between the two.
rep=$(awk '
	FNR == NR { if ($1 ~ /(_ns|_ns_per_var|_over_[a-z]+)$/) a[$1] = $2; next }
	($1 in a) && a[$1] + 0 > 0 {
		d = ($2 - a[$1]) / a[$1]; if (d < 0) d = -d
		if (d > m) { m = d; k = $1 }
		n++
	}
	END { if (n) printf "%.3f %s %d\n", m * 100, k, n; else print "n/a - 0" }' \
	"$out/vm_icount.txt" "$out/vm_icount2.txt")
read -r rep_pct rep_key rep_n <<< "$rep"
row icount_repeat "icount runs agree: largest difference of $rep_n timing figures between two runs, in % ($rep_key)" \
	"$rep_pct" "target <= 0.5" "$( [ "$rep_pct" != n/a ] && le "$rep_pct" 0.5 || echo 0)"

# the RESOLVE figures, judged on icount (instructions), wall printed
io() { v "$1" "$2.$3"; }
for sz in ioctl ioctl_small; do
	ri=$(io icount $sz resolve_over_noop)
	rw=$(io wall $sz resolve_over_noop)
	key=resolve_over_noop
	[ $sz = ioctl ] || key=resolve_over_noop_small
	row $key "RESOLVE / no-op ioctl, $(io icount $sz ioctl_vars) vars (icount $(io icount $sz resolve_ns) / $(io icount $sz noop_ns) instructions; wall ${rw:-n/a}: $(io wall $sz resolve_ns) / $(io wall $sz noop_ns) ns)" \
		"${ri:-n/a}" "target <= 1.25, on icount" "$( [ -n "$ri" ] && le "$ri" 1.25 || echo 0)"
	bi=$(io icount $sz batch_over_resolve)
	bw=$(io wall $sz batch_over_resolve)
	key=batch_over_resolve
	[ $sz = ioctl ] || key=batch_over_resolve_small
	row $key "RESOLVE_BATCH(1024) per entry / RESOLVE, $(io icount $sz ioctl_vars) vars (icount $(io icount $sz batch_entry_ns) instructions per entry; wall ${bw:-n/a}: $(io wall $sz batch_entry_ns) ns)" \
		"${bi:-n/a}" "target <= 0.05, on icount" "$( [ -n "$bi" ] && le "$bi" 0.05 || echo 0)"
done

# load growth per 10x vars: icount target 1.1, wall 1.2
for lane in icount wall; do
	lim=1.1
	unit=instructions
	[ $lane = icount ] || { lim=1.2; unit=ns; }
	for l in 1 4; do
		prev=
		for n in $sizes; do
			t=$(v $lane "load.$l.$n.load_ns_per_var")
			if [ -n "$prev" ]; then
				if [ -n "$t" ] && [ -n "$pt" ]; then
					g=$(calc "%.3f" "$t / $pt")
					ok=$(le "$g" $lim)
				else
					g=n/a
					ok=0
				fi
				row "load_growth_${lane}_${l}_$n" "load per var, $lane, $l loader(s), $n / $prev vars ($pt -> ${t:-n/a} $unit)" \
					"$g" "target <= $lim per 10x" "$ok"
			fi
			prev=$n
			pt=$t
		done
	done
done

hot=$(v icount mem.hot_bytes_per_var)
row hot_bytes_per_var "hot bytes per var: mem_ref + bucket share ($(v icount mem.buckets) buckets, $(v icount mem.mem_vars) vars)" \
	"${hot:-n/a}" "target <= 64, libnrt mem_ref_t 208" "$( [ -n "$hot" ] && le "$hot" 64 || echo 0)"
km=$(v icount mem.kmem_per_var)
ms=$(v icount mem.measured_per_var)
mf=$(v icount mem.memfree_per_var)
if [ -n "$km" ] && [ -n "$ms" ]; then
	worst=$(awk -v a="$km" -v b="$ms" 'BEGIN { printf "%.2f", (a + 0 > b + 0) ? a : b }')
	xr=$(calc "%.3f" "$ms / $km")
	ok=$(le "$worst" 228)
	# the module's accounting must agree with the kernel's counters
	[ "$(le "$xr" 1.10)" = 1 ] && [ "$(le 0.95 "$xr")" = 1 ] || ok=0
else
	worst=n/a
	xr=n/a
	ok=0
fi
row kernel_bytes_per_var "kernel bytes per loaded var (kmem_bytes $km; vmalloc+slab $ms, ratio $xr; MemFree $mf)" \
	"$worst" "target <= 228 = 1.5 x 152" "$ok"
bk=$(v icount backing.backing_bytes)
row backing_bytes "backing RAM, 4 GiB input + 20 GiB unwritten buffers (bytes)" \
	"${bk:-n/a}" "target < 8388608" "$( [ -n "$bk" ] && lt "$bk" 8388608 || echo 0)"

# relocation (bench/nsim_bench.c reloc, reloc-neff; icount) and the DMA
# engine: figures once the module has them
rv() { v icount "reloc.$1"; }
np=$(rv largest_neff_udma_descs)
np=${np:-n/a}
for k in reloc_instr_per_udma reloc_growth ring_bytes_per_udma; do
	val=$(v icount "reloc.$k")
	case $k in
	reloc_instr_per_udma) t="target <= 50" lim="le 50"
		d="relocation: instructions per UDMA descriptor (M2S or S2M), LOAD with - without the DMA program, 10^4 descriptors of 160 runs a side (kernel relocate_us $(rv n10000_relocate_us); $(basename "$big" .neff), $np UDMA descriptors: $(rv largest_neff_ns_per_udma), relocate_us $(rv largest_neff_relocate_us))" ;;
	reloc_growth) t="target <= 1.1 per 10x" lim="le 1.1"
		d="relocation: growth per 10x descriptors, worst of 10^3/10^2 and 10^4/10^3 ($(rv n100_ns_per_udma) -> $(rv n1000_ns_per_udma) -> $(rv n10000_ns_per_udma) instructions per UDMA descriptor)" ;;
	ring_bytes_per_udma) t="target = 16" lim="eq 16"
		d="ring bytes per UDMA descriptor: submission rings M2S + S2M of $(basename "$big" .neff) (with completion rings $(rv largest_neff_ring_bytes) bytes; 10^4 descriptors of 160 runs a side: $(rv synth_ring_bytes_per_udma))" ;;
	esac
	if [ -z "$val" ]; then
		row "$k" "$d (not measured: see bench_error in build/bench/run/vm_icount.txt)" n/a "$t" 0
	else
		set -- $lim
		row "$k" "$d" "$val" "$t" "$(awk -v a="$val" -v op="$1" -v b="$2" 'BEGIN {
			print (op == "le" ? a + 0 <= b : op == "ge" ? a + 0 >= b : a + 0 == b) ? 1 : 0 }')"
	fi
done
# the DMA engine (bench/nsim_bench.c dma): 64 MiB HBM -> SBUF -> HBM on
# one queue against memcpy() of the same bytes in the same VM.  Judged:
# the warm run's bytes/s over memcpy's in the wall lane; the cold run's
# (first run after LOAD, destination pages get their backing) and the
# icount lane's instructions per byte are informational.
dv() { v "$1" "dma.$2"; }
dw=$(dv wall dma_over_memcpy)
dc=$(dv wall dma_cold_over_memcpy)
nm="see bench_error in build/bench/run/vm_wall.txt"
row dma_over_memcpy "DMA engine: 64 MiB HBM->SBUF->HBM ($(dv wall dma_rounds) rounds of $(dv wall dma_round_bytes) bytes, $(dv wall dma_bytes) bytes written), warm run bytes/s / memcpy of the same bytes, wall ($(dv wall dma_warm_mbps) / $(dv wall memcpy_warm_mbps) MB/s; icount $(dv icount dma_over_memcpy))$( [ -n "$dw" ] || echo " (not measured: $nm)")" \
	"${dw:-n/a}" "target >= 0.5, warm, wall" "$( [ -n "$dw" ] && le 0.5 "$dw" || echo 0)"
row dma_cold_over_memcpy "DMA engine: the same, cold (the first run after LOAD: destination pages get their backing; memcpy into fresh pages), wall ($(dv wall dma_cold_mbps) / $(dv wall memcpy_cold_mbps) MB/s; icount $(dv icount dma_cold_over_memcpy))" \
	"${dc:-n/a}" informational 1
di=$(dv icount dma_instr_per_byte)
row dma_instr_per_byte "DMA engine: icount instructions per byte written, warm run, RUN to WAIT (memcpy $(dv icount memcpy_instr_per_byte))" \
	"${di:-n/a}" informational 1
dci=$(dv icount dma_cold_instr_per_byte)
row dma_cold_instr_per_byte "DMA engine: icount instructions per byte written, cold run (memcpy into fresh pages $(dv icount memcpy_cold_instr_per_byte))" \
	"${dci:-n/a}" informational 1
# the largest real NEFF's LOAD with and without its DMA programs
for k in largest_neff_load_ns largest_neff_load_nodma_ns; do
	val=$(rv $k)
	case $k in
	*nodma*) d="LOAD of $(basename "$big" .neff) without its DMA programs ($(rv largest_neff_nodma_plan_bytes)-byte plan), icount instructions (wall $(v wall reloc.$k) ns)" ;;
	*) d="LOAD of $(basename "$big" .neff) with its DMA programs, $np UDMA descriptors ($(rv largest_neff_plan_bytes)-byte plan), icount instructions (wall $(v wall reloc.$k) ns)" ;;
	esac
	row "$k" "$d" "${val:-n/a}" informational 1
done

# 8. the sequencers (bench/nsim_bench.c exec, exec-neff): judged on icount
xv() { v "$1" "exec.$2"; }
xi=$(xv icount exec_ns_per_instr)
row exec_instr_per_seq_instr "EXECUTE: icount instructions per sequencer instruction, a chain of 10^5 instructions (PE and ACT taking turns on two semaphores, one per step; 10^4: $(xv icount n10000_ns_per_instr), 10^6: $(xv icount n1000000_ns_per_instr); wall $(xv wall exec_ns_per_instr) ns)" \
	"${xi:-n/a}" "target <= 200, on icount" "$( [ -n "$xi" ] && le "$xi" 200 || echo 0)"
xg=$(xv icount exec_growth)
row exec_growth "EXECUTE: growth per 10x instructions, worst of 10^5/10^4 and 10^6/10^5, icount (wall $(xv wall exec_growth))" \
	"${xg:-n/a}" "target <= 1.1 per 10x" "$( [ -n "$xg" ] && le "$xg" 1.1 || echo 0)"
xn=$(xv icount neff_exec_ns)
row exec_largest_neff "EXECUTE of $(basename "$xbig" .neff) ($(xv icount neff_instructions) instructions, $(xv icount neff_blocks) DMA blocks, $(xv icount neff_bytes) bytes, $(xv icount neff_virtual_ns) ns virtual), icount instructions ($(xv icount neff_ns_per_instr) per instruction; wall $(xv wall neff_exec_ns) ns, $(xv wall neff_ns_per_instr) ns per instruction)" \
	"${xn:-n/a}" informational 1

# 9. compute: judged on icount (the DMA that stages the operands included)
cv() { v "$1" "compute.$2.neff_exec_ns"; }
cref() { sed -n 's/^ref_ns //p' "$out/compute/$1.ref.txt"; }
cm=$(cv icount matmul)
cpm=$( [ -n "$cm" ] && calc "%.2f" "$cm / 8388608" || true)
row compute_matmul_per_mac "EXECUTE of one 128x128x512 MatMult from DRAM (SP's DMA staging it through SBUF, PE into PSUM, ACT's copy out, the DMA back included), icount instructions per multiply-accumulate (icount ${cm:-n/a}; wall $(cv wall matmul) ns; the host reference $(cref matmul) ns)" \
	"${cpm:-n/a}" "target <= 20, on icount" "$( [ -n "$cpm" ] && le "$cpm" 20 || echo 0)"
cb=$(cv icount copy)
for n in act_exp tt_add ts_mul reduce_add; do
	cx=$(cv icount $n)
	cpe=$( [ -n "$cx" ] && [ -n "$cb" ] && calc "%.2f" "($cx - $cb) / 262144" || true)
	row "compute_${n}_per_element" "EXECUTE of $n over 128 x 2048 float32 elements, icount instructions per element beyond the DMA-only copy (icount ${cx:-n/a}, copy ${cb:-n/a}; wall $(cv wall $n) ns; the host reference $(cref $n) ns)" \
		"${cpe:-n/a}" informational 1
done
row compute_attention "EXECUTE of bir_attention (lowered), icount instructions (wall $(cv wall attention) ns; the host reference $(cref attention) ns)" \
	"$(cv icount attention)" informational 1

row compile_over_jq "neuronsim-cc compile of a 100,000-var extracted NEFF dir / jq . def.json (NEFF file: $ccneff)" \
	"$ccdir" "target <= 1.0" "$(le "$ccdir" 1.0)"
row compile_dma_over_jq "neuronsim-cc compile of $(basename "$big" .neff) (most DMA descriptors), extracted / jq . over its JSON members" \
	"${ccdma:-n/a}" "target <= 1.0" "$( [ -n "$ccdma" ] && le "$ccdma" 1.0 || echo 0)"

# 5b. the compiler at scale (bench/gen_dma.c): peak RSS of one compile
# per byte of engine JSON, over a one-descriptor NEFF, at 10^5 and 10^6
# identical descriptors (linear: the same factor; Documentation/
# compiler.rst, "Memory"), and a 2^20-entry semaphore set with 20,000
# blocks (the set indexed once: seconds, not minutes)
echo "== 5b. the compiler at scale"
# peak_rss FILE.neff: "KIB SECONDS" of neuronsim-cc compile (ru_maxrss)
peak_rss() {
	python3 - "$cc" "$1" "$out/scale.kbin" <<'PY'
import resource, subprocess, sys, time
t0 = time.monotonic()
subprocess.run([sys.argv[1], "compile", sys.argv[2], "-o", sys.argv[3]],
               check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
      "%.3f" % (time.monotonic() - t0))
PY
}
build/bench/gen_dma 1 1 1 "$out/d1.neff" > "$out/d1.txt"
read -r base_kb _ < <(peak_rss "$out/d1.neff")
for n in 100000 1000000; do
	build/bench/gen_dma 1 1 $n "$out/d$n.neff" > "$out/d$n.txt"
	json=$(sed -n 's/.*SP.json \([0-9]*\) bytes.*/\1/p' "$out/d$n.txt")
	read -r kb s < <(peak_rss "$out/d$n.neff")
	f=$(calc "%.2f" "($kb - $base_kb) * 1024 / $json")
	eval "scale_rss_$n=\$f scale_kb_$n=\$kb scale_s_$n=\$s scale_json_$n=\$json"
	echo "$n descriptors: $json bytes of JSON, peak RSS $kb KiB (one descriptor: $base_kb), ${s}s: $f bytes per byte"
done
row compile_rss_per_json_byte "neuronsim-cc compile, 10^6 identical descriptors: peak RSS over a one-descriptor NEFF per byte of engine JSON ($scale_json_1000000 bytes of JSON, $scale_kb_1000000 KiB, ${scale_s_1000000} s; 10^5: $scale_rss_100000)" \
	"$scale_rss_1000000" "target <= 5" "$(le "$scale_rss_1000000" 5)"
row compile_rss_growth "neuronsim-cc compile peak RSS per JSON byte, 10^6 / 10^5 descriptors ($scale_rss_100000 -> $scale_rss_1000000)" \
	"$(calc "%.3f" "$scale_rss_1000000 / $scale_rss_100000")" "target <= 1.1" \
	"$(le "$(calc "%.3f" "$scale_rss_1000000 / $scale_rss_100000")" 1.1)"
build/bench/gen_dma 1048576 20000 1 "$out/sems.neff" > "$out/sems.txt"
read -r kb s < <(peak_rss "$out/sems.neff")
echo "2^20-entry semaphore set, 20,000 blocks: ${s}s, peak RSS $kb KiB"
row compile_semaphore_set_s "neuronsim-cc compile, a 2^20-entry semaphore set and 20,000 blocks, seconds (65 s when each block scanned the set)" \
	"$s" "target <= 5" "$(le "$s" 5)"

# 6. BIR passes at 10^4 and 10^5 instructions (bench/bir_bench.c)
echo "== 6. BIR passes on generated modules"
bir_v() { sed -n "s/^$2 //p" "$out/bir_$1.txt"; }
bir_ok=1
for n in 10000 100000; do
	build/bench/bir_bench $n 1000 > "$out/bir_$n.txt" 2> "$out/bir_$n.err" || bir_ok=0
	cat "$out/bir_$n.txt" "$out/bir_$n.err"
done
if [ $bir_ok = 1 ]; then
	bt=$(calc "%.2f" "$(bir_v 100000 total_s) / $(bir_v 10000 total_s)")
	bm=$(calc "%.2f" "$(bir_v 100000 maxrss_kb) / $(bir_v 10000 maxrss_kb)")
	bp=$(bir_v 100000 peak_bytes_per_inst)
else
	bt=n/a
	bm=n/a
	bp=n/a
fi
row bir_time_growth "BIR parse + all passes + lowering, 10^5 / 10^4 instructions, 10^3 NKI/BIR calls ($(bir_v 10000 total_s) -> $(bir_v 100000 total_s) s; passes $(bir_v 10000 passes_s) -> $(bir_v 100000 passes_s) s)" \
	"$bt" "target <= 12 for 10x" "$( [ $bir_ok = 1 ] && le "$bt" 12 || echo 0)"
row bir_mem_growth "BIR peak memory (ru_maxrss), 10^5 / 10^4 instructions ($(bir_v 10000 maxrss_kb) -> $(bir_v 100000 maxrss_kb) KiB)" \
	"$bm" "target <= 12 for 10x" "$( [ $bir_ok = 1 ] && le "$bm" 12 || echo 0)"
row bir_bytes_per_instr "BIR peak bytes per instruction (ru_maxrss x 1024 / instructions), 10^5 instructions (10^4: $(bir_v 10000 peak_bytes_per_inst))" \
	"$bp" "target <= 2048" "$( [ $bir_ok = 1 ] && le "$bp" 2048 || echo 0)"

# 6b. the race detector (bench/race_bench.c, Documentation/races.rst):
# generated race-free programs of 10^4..10^6 instructions, and the real
# NEFF with the most instructions (figure 8's) through neuronsim-cc races
echo "== 6b. race detector"
race_v() { sed -n "s/^$1 //p" "$out/race.txt"; }
race_ok=1
build/bench/race_bench 10000 100000 1000000 > "$out/race.txt" 2> "$out/race.err" || race_ok=0
cat "$out/race.txt" "$out/race.err"
row race_accesses_per_s "race detector: accesses (DMA blocks, compute instructions) per second, a generated program of 10^6 instructions (10^5: $(race_v n100000_accesses_per_s))" \
	"$( [ $race_ok = 1 ] && race_v n1000000_accesses_per_s || echo n/a)" "target >= 100000" \
	"$( [ $race_ok = 1 ] && ge "$(race_v n1000000_accesses_per_s)" 100000 || echo 0)"
row race_growth "race detector: growth of the seconds per instruction per 10x instructions, worst of 10^5/10^4 and 10^6/10^5 ($(race_v n10000_s) -> $(race_v n100000_s) -> $(race_v n1000000_s) s)" \
	"$( [ $race_ok = 1 ] && race_v growth || echo n/a)" "target <= 1.3" \
	"$( [ $race_ok = 1 ] && le "$(race_v growth)" 1.3 || echo 0)"
if [ -e "$xbig" ]; then
	build/bin/neuronsim-cc compile "$xbig" -o "$out/race_big.kbin" > /dev/null
	rs=$( { /usr/bin/time -f "%e" build/bin/neuronsim-cc races "$out/race_big.kbin" > "$out/race_big.txt" || true; } 2>&1 | tail -n 1)
	row race_largest_neff_s "neuronsim-cc races of the plan of $(basename "$xbig" .neff) ($(tail -n 1 "$out/race_big.txt" | sed 's/^[^:]*: //')), seconds" \
		"$rs" "target <= 5" "$(le "$rs" 5)"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
	echo "Host: $(nproc) CPUs ($cpu), kernel $(uname -r), $(date -u +%Y-%m-%d)."
	echo "VM: qemu TCG (no KVM), 2 GiB, kernel $(v wall vm_kernel), arch=trn2; wall lane $(v wall vm_nproc) vCPUs, icount lanes $(v icount vm_nproc) vCPU (-icount shift=0,sleep=off: 1 ns = 1 guest instruction)."
	echo "Load sizes: $sizes vars."
} > "$out/machine.txt"

echo
echo "== make bench: $((${#rows[@]} - misses)) OK, $misses MISS"
cat "$out/machine.txt"
printf '%s\n' "${rows[@]}" > "$out/table.txt"

# build/bench/results.json: the machine and every figure (value a number
# when it is one)
jq -R -s --rawfile machine "$out/machine.txt" '
	{ machine: ($machine | rtrimstr("\n") | split("\n")),
	  figures: [ split("\n")[] | select(length > 0) | split("\t") |
		{ key: .[0], name: .[1],
		  value: (.[2] as $v | ($v | tonumber?) // $v),
		  target: .[3], verdict: .[4] } ] }' "$out/rows.tsv" > build/bench/results.json
echo "(figures written to build/bench/results.json)"

if [ -z "${BENCH_NO_DOC:-}" ] && [ -f Documentation/performance.rst ]; then
	awk -v table="$out/table.txt" -v machine="$out/machine.txt" '
		/^\.\. bench-table-begin/ {
			print
			print ""
			while ((getline l < machine) > 0) print l
			print ""
			print "::"
			print ""
			while ((getline l < table) > 0) print "  " l
			print ""
			skip = 1
			next
		}
		/^\.\. bench-table-end/ { skip = 0 }
		!skip' Documentation/performance.rst > "$out/performance.rst"
	cp "$out/performance.rst" Documentation/performance.rst
	echo "(table written to Documentation/performance.rst)"
fi
exit 0
