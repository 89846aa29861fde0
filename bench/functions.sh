#!/bin/bash
# function_graph recording side by side: tracekit record -p function_graph and
# trace-cmd record -p function_graph on the same workload (fork+exec of cat, N
# times), each at its default buffer size and both at -b 8192 KB per CPU.  Per
# tool: events written to the file, events lost (the kernel's overrun and
# dropped counters as the file keeps them, read by `tracekit report --stat` for
# both files), wall seconds and CPU seconds (user+sys of the recorder and the
# workload together: the workload is the same for both).  Prints a table and the
# ratios; asserts nothing.
#
# It needs a kernel that runs function_graph: run it in the kernel lab's guest,
#   tests/kernel/lab -- bench/functions.sh [-n N] [BUILD_DIR]
set -u

n=30
while getopts n: opt; do
	case $opt in
	n) n=$OPTARG ;;
	*) echo "usage: $0 [-n N] [BUILD_DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=${1:-build}
tracekit=${TRACEKIT:-$build/tracekit}
[ -x "$tracekit" ] || { echo "bench: $tracekit not found; build first" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "bench: trace-cmd is not installed" >&2; exit 1; }
grep -qw function_graph /sys/kernel/tracing/available_tracers 2>/dev/null ||
	{ echo "bench: this kernel has no function_graph tracer (run it in tests/kernel/lab)" >&2; exit 1; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
workload=(sh -c "i=0; while [ \$i -lt $n ]; do cat /etc/hostname >/dev/null; i=\$((i + 1)); done")

# One run: "events lost wall cpu" for a record command line writing $dir/t.dat.
measure() {
	rm -f "$dir/t.dat"
	/usr/bin/time -f '%e %U %S' -o "$dir/time" "$@" -o "$dir/t.dat" -- "${workload[@]}" \
		>/dev/null 2>"$dir/err" </dev/null || { echo "fail"; cat "$dir/err" >&2; return; }
	local ev lost
	ev=$("$tracekit" report --stat -i "$dir/t.dat" | awk '$1 == "Events:" { print $2 }')
	lost=$("$tracekit" report --stat -i "$dir/t.dat" |
		awk '/^  cpu/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { l = $3; sub(/\+$/, "", l);
			o = $4 == "-" ? 0 : $4; s += (o > l ? o : l) } END { print s + 0 }')
	read -r wall user sys <"$dir/time"
	echo "$ev $lost $wall $(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')"
}

printf '%-10s %-9s %10s %10s %8s %8s\n' tool buffer events lost wall_s cpu_s
declare -A res
for b in default 8192; do
	bopt=()
	[ "$b" = default ] || bopt=(-b "$b")
	res[tk$b]=$(measure "$tracekit" record -q -p function_graph -F "${bopt[@]}")
	# -c: trace-cmd's -F alone would not follow the workload's children (tracekit's -F does).
	res[tc$b]=$(measure trace-cmd record -p function_graph -F -c "${bopt[@]}")
	printf '%-10s %-9s %10s %10s %8s %8s\n' tracekit "$b" ${res[tk$b]}
	printf '%-10s %-9s %10s %10s %8s %8s\n' trace-cmd "$b" ${res[tc$b]}
done
for b in default 8192; do
	read -r tke tkl tkw tkc <<<"${res[tk$b]}"
	read -r tce tcl tcw tcc <<<"${res[tc$b]}"
	awk -v b="$b" -v a="$tkl" -v c="$tcl" -v x="$tkc" -v y="$tcc" 'BEGIN {
		r = 0; if (y > 0) r = x / y
		printf "buffer %s: lost tracekit/trace-cmd = %s/%s; cpu ratio tracekit/trace-cmd %.2f\n", b, a, c, r }'
done
