#!/bin/bash
# Cost per hit of a probe on a hot function, side by side: the kernel's
# uprobe (tracekit probe trace), tracekit probe trace --ptrace (its breakpoint
# engine), ltrace -x and gdb dprintf, on tests/progs/probed's parse_line (one
# call per iteration).  Every tool prints a line per hit (to /dev/null).
#
#   bench/probes.sh [-c] [-n ITERATIONS] [-r RUNS] [BUILD_DIR]   (defaults: 100000, 3, build)
#
# A stop costs far more when tracer and tracee sit on different CPUs (a
# wakeup across CPUs) than on one, so every tool runs in both placements,
# pinned: "same" (tracer and tracee on CPU 0) and "cross" (tracer on CPU 0,
# tracee on CPU 1; probed pins itself with -c).  Each is run for N and for 2N
# iterations: the cost per hit is the extra time the second N hits took over
# bare, ((t(2N) - t(N)) - (bare(2N) - bare(N))) / N, medians of RUNS runs, so
# start-up (making probes, attaching, reading symbols) cancels out.  Prints a
# table and each tool's cost as a multiple of ltrace's; asserts nothing.
#
# C expressions: ptrace-raw and ptrace-c are --ptrace with parse_line's three
# arguments fetched, written by hand (+0(%di):string %si:s32 %dx:s64) and in C
# (line len mult, typed from DWARF); the same lines (checked once), and the
# cost of the C one as a multiple of the hand-written one.  -c runs only those
# two (and bare), taking them in turns run by run, so a machine whose speed
# drifts over the minutes weighs on both alike.
set -u

iters=100000
runs=3
c_only=
while getopts n:r:c opt; do
	case $opt in
	n) iters=$OPTARG ;;
	r) runs=$OPTARG ;;
	c) c_only=1 ;;
	*) echo "usage: $0 [-c] [-n ITERATIONS] [-r RUNS] [BUILD_DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=${1:-build}
probed=$(realpath "$build/tests/progs/probed" 2>/dev/null)
tracekit=${TRACEKIT:-$build/tracekit}

for f in "$probed" "$tracekit"; do
	[ -x "$f" ] || { echo "bench: $f not found; build first (ninja -C $build)" >&2; exit 1; }
done
for t in taskset ltrace gdb; do
	command -v $t >/dev/null || { echo "bench: $t is not installed" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || { echo "bench: needs two CPUs for the cross placement" >&2; exit 1; }

. "$(dirname "$0")/lib.sh"

# The tracee's command line for a placement, CPU 0 (same) or CPU 1 (cross), and N iterations.
tracee() { echo "$probed -n $2 -c $([ "$1" = same ] && echo 0 || echo 1)"; }

# One tool's command for a placement and N; the tracer itself always on CPU 0.
tool_cmd() {
	local tool=$1 place=$2 n=$3
	case $tool in
	bare)    echo "taskset -c 0 $(tracee "$place" "$n")" ;;
	uprobe)  echo "taskset -c 0 $tracekit probe trace 'p $probed:parse_line' -- $(tracee "$place" "$n")" ;;
	ptrace)  echo "taskset -c 0 $tracekit probe trace --ptrace 'p $probed:parse_line' -- $(tracee "$place" "$n")" ;;
	ptrace-raw) echo "taskset -c 0 $tracekit probe trace --ptrace '$raw_spec' -- $(tracee "$place" "$n")" ;;
	ptrace-c) echo "taskset -c 0 $tracekit probe trace --ptrace '$c_spec' -- $(tracee "$place" "$n")" ;;
	ltrace)  echo "taskset -c 0 ltrace -x parse_line -o /dev/null $(tracee "$place" "$n")" ;;
	gdb)     echo "taskset -c 0 gdb -q -batch -ex 'dprintf parse_line,\"hit\\n\"' -ex run --args $(tracee "$place" "$n")" ;;
	esac
}

raw_spec="p:parse_line $probed:parse_line line=+0(%di):string len=%si:s32 mult=%dx:s64"
c_spec="$probed:parse_line line len mult"
# the same values both ways (the args after the probe's address), or the comparison means nothing
same_lines() {
	bash -c "$(tool_cmd "$1" same 3)" 2>/dev/null </dev/null | sed -n 's/.*parse_line: ([^)]*)//p'
}
if [ "$(same_lines ptrace-raw)" != "$(same_lines ptrace-c)" ] || [ -z "$(same_lines ptrace-c)" ]; then
	echo "bench: the C-expression probe does not print what the hand-written one does:" >&2
	same_lines ptrace-raw >&2
	same_lines ptrace-c >&2
	exit 1
fi

declare -A cost

# -c: bare, ptrace-raw and ptrace-c in turns, run by run; the cost per hit as above
if [ -n "$c_only" ]; then
	printf '%-10s %-6s %14s\n' tool place 'us/hit'
	for place in same cross; do
		declare -A t=()
		for ((r = 0; r < runs; r++)); do
			for tool in bare ptrace-raw ptrace-c; do
				t[$tool.1]+=" $(time_once bash -c "$(tool_cmd $tool $place $iters)")"
				t[$tool.2]+=" $(time_once bash -c "$(tool_cmd $tool $place $((2 * iters)))")"
			done
		done
		for tool in ptrace-raw ptrace-c; do
			us=$(awk -v a="$(median_of ${t[$tool.1]})" -v b="$(median_of ${t[$tool.2]})" \
				-v x="$(median_of ${t[bare.1]})" -v y="$(median_of ${t[bare.2]})" -v n="$iters" \
				'BEGIN { d = (b - a) - (y - x); if (d <= 0) d = 1e-9; printf "%.3f\n", d / n * 1e6 }')
			cost[$tool.$place]=$us
			printf '%-10s %-6s %14s\n' $tool $place "$us"
		done
		unset t
	done
	echo
	echo "--ptrace with C expressions, cost per hit as a multiple of the same args written by hand:"
	for place in same cross; do
		awk -v c="${cost[ptrace-c.$place]}" -v r="${cost[ptrace-raw.$place]}" -v p=$place \
			'BEGIN { printf "  %-6s %.3f us vs %.3f us: %.3fx\n", p, c, r, c / r }'
	done
	exit 0
fi
printf '%-10s %-6s %12s %12s %14s %12s\n' tool place "s (N)" "s (2N)" 'us/hit' 'hits/s'
for place in same cross; do
	bare1=$(median bash -c "$(tool_cmd bare $place $iters)")
	bare2=$(median bash -c "$(tool_cmd bare $place $((2 * iters)))")
	printf '%-10s %-6s %12s %12s %14s %12s\n' bare $place "$bare1" "$bare2" - -
	for tool in uprobe ptrace ptrace-raw ptrace-c ltrace gdb; do
		if ! bash -c "$(tool_cmd $tool $place 1)" >/dev/null 2>&1 </dev/null; then
			printf '%-10s %-6s %12s\n' $tool $place "fails"
			continue
		fi
		t1=$(median bash -c "$(tool_cmd $tool $place $iters)")
		t2=$(median bash -c "$(tool_cmd $tool $place $((2 * iters)))")
		case "$t1$t2" in *fail*) printf '%-10s %-6s %12s\n' $tool $place fail; continue ;; esac
		read -r us hps < <(awk -v a="$t1" -v b="$t2" -v x="$bare1" -v y="$bare2" -v n="$iters" \
			'BEGIN { d = (b - a) - (y - x); if (d <= 0) d = 1e-9
				printf "%.3f %.0f\n", d / n * 1e6, n / d }')
		cost[$tool.$place]=$us
		printf '%-10s %-6s %12s %12s %14s %12s\n' $tool $place "$t1" "$t2" "$us" "$hps"
	done
done
echo
echo "cost per hit as a multiple of ltrace's (target for --ptrace: <= 0.5):"
for place in same cross; do
	for tool in uprobe ptrace gdb; do
		l=${cost[ltrace.$place]:-}
		c=${cost[$tool.$place]:-}
		[ -n "$l" ] && [ -n "$c" ] &&
			awk -v c="$c" -v l="$l" -v t=$tool -v p=$place 'BEGIN { printf "  %-7s %-6s %.3fx\n", t, p, c / l }'
	done
done
echo
echo "--ptrace with C expressions, cost per hit as a multiple of the same args written by hand:"
for place in same cross; do
	r=${cost[ptrace-raw.$place]:-}
	c=${cost[ptrace-c.$place]:-}
	[ -n "$r" ] && [ -n "$c" ] &&
		awk -v c="$c" -v r="$r" -v p=$place 'BEGIN { printf "  %-6s %.3f us vs %.3f us: %.3fx\n", p, c, r, c / r }'
done
