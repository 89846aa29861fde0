#!/bin/bash
# Cost per hit of an entry probe on a hot library function: tracekit's ptrace
# probe engine (tests/probe/probe-driver, the C API) vs ltrace -e FUNC vs gdb
# dprintf, on the same program.
#
#   bench/probes-ptrace.sh [-n RUNS] [-c CALLS] [BUILD_DIR]     (BUILD_DIR default: build)
#
# The workload is `probe_target lib CALLS` (tests/progs): CALLS calls of
# lib_add(i, 1000) in libprobelib.so through the PLT, so ltrace -e lib_add
# sees each one.  Each tool runs in two placements: tracer and tracee on one
# CPU (CPU 0), and on two (tracer on CPU 0, tracee on CPU 1).  The tracee is
# pinned by PROBE_TARGET_CPU (the program pins itself), the tracer by taskset.
# Cost per hit = (median traced time - median bare time) / CALLS.  Prints a
# table and the ratios to ltrace; asserts nothing.
set -u

runs=3
calls=20000
while getopts n:c: opt; do
	case $opt in
	n) runs=$OPTARG ;;
	c) calls=$OPTARG ;;
	*) echo "usage: $0 [-n RUNS] [-c CALLS] [BUILD_DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=${1:-build}
target=$build/tests/progs/probe_target
lib=$(realpath "$build/tests/progs/libprobelib.so")
driver=$build/tests/probe/probe-driver

for f in "$target" "$driver" "$lib"; do
	[ -e "$f" ] || { echo "bench: $f not found; build first (ninja -C $build)" >&2; exit 1; }
done
for t in ltrace gdb taskset; do
	command -v $t >/dev/null || { echo "bench: $t is not installed (scripts/install-deps.sh)" >&2; exit 1; }
done
[ "$(nproc)" -ge 2 ] || echo "bench: one CPU only: the two-CPU rows are the same placement" >&2

. "$(dirname "$0")/lib.sh"

# microseconds per hit from a traced median and the bare median
per_hit() {
	case "$1" in fail) echo fail; return ;; esac
	awk -v t="$1" -v b="$2" -v n="$calls" 'BEGIN { printf "%.1f\n", (t - b) * 1e6 / n }'
}

ratio() {
	case "$1$2" in *fail*) echo - ; return ;; esac
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f\n", a / b; else print "-" }'
}

printf '%-22s %12s %12s %12s %14s %14s\n' placement "tracekit us" "ltrace us" "gdb us" \
	"tracekit/ltrace" "gdb/ltrace"
for place in "one-cpu 0 0" "two-cpus 0 1"; do
	set -- $place
	name=$1 tcpu=$2 pcpu=$3
	export PROBE_TARGET_CPU=$pcpu
	bare=$(median "$target" lib "$calls")
	tk=$(per_hit "$(median taskset -c "$tcpu" "$driver" -q -e "$lib:lib_add" -- "$target" lib "$calls")" "$bare")
	lt=$(per_hit "$(median taskset -c "$tcpu" ltrace -e lib_add -o /dev/null "$target" lib "$calls")" "$bare")
	gd=$(per_hit "$(median taskset -c "$tcpu" gdb -nx -batch -ex 'set breakpoint pending on' \
		-ex 'dprintf lib_add,"lib_add %ld %ld\n",$rdi,$rsi' -ex run --args "$target" lib "$calls")" "$bare")
	printf '%-22s %12s %12s %12s %14s %14s\n' "$name" "$tk" "$lt" "$gd" "$(ratio "$tk" "$lt")" \
		"$(ratio "$gd" "$lt")"
done
echo "target: tracekit/ltrace <= 0.5 (cost per hit of an entry probe)"
