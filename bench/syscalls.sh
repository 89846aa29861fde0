#!/bin/bash
# Side-by-side cost of tracing syscalls: bare vs strace vs tracekit.
#
#   bench/syscalls.sh [-n RUNS] [-q] [-k] [BUILD_DIR]     (BUILD_DIR default: build)
#
# Workloads come from tests/progs/loop (built by meson): getppid 200000,
# write 200000 (1-byte writes to /dev/null), forkexec 200.  For each, three
# modes: full trace (-f -o /dev/null), summary (-c -o /dev/null) and a
# seccomp-filtered trace of a syscall the loop never makes (--seccomp-bpf -f
# -e trace=openat -o /dev/null); each pinned to CPU 0 (tracer and tracee
# share it) and unpinned.  The kernel and kernel-c rows are tracekit
# --kernel (BPF, the program never stops; needs root) beside strace's full
# trace and -c of the same run; -k runs only those.  Medians of RUNS runs (default 5); -q divides the
# workload sizes by 10 for a quick look.  Prints a table; asserts nothing.
# See bench/README.md for the columns.
set -u

runs=5
scale=1
modes="trace summary filtered kernel kernel-c"
while getopts n:qk opt; do
	case $opt in
	k) modes="kernel kernel-c" ;;
	n) runs=$OPTARG ;;
	q) scale=10 ;;
	*) echo "usage: $0 [-n RUNS] [-q] [-k] [BUILD_DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=${1:-build}
loop=$build/tests/progs/loop
tracekit=${TRACEKIT:-$build/tracekit}

for f in "$loop" "$tracekit"; do
	[ -x "$f" ] || { echo "bench: $f not found; build first (ninja -C $build)" >&2; exit 1; }
done
command -v strace >/dev/null || { echo "bench: strace is not installed" >&2; exit 1; }
command -v taskset >/dev/null || { echo "bench: taskset is not installed" >&2; exit 1; }

. "$(dirname "$0")/lib.sh"
median_digits=3

ratio() {
	case "$1$2" in *fail*) echo - ; return ;; esac
	echo "$1 $2" | awk '{ if ($2 > 0) printf "%.2f\n", $1 / $2; else print "-" }'
}

mode_args() {
	case $1 in
	trace|kernel) echo "-f -o /dev/null" ;;
	summary|kernel-c) echo "-c -o /dev/null" ;;
	filtered) echo "--seccomp-bpf -f -e trace=openat -o /dev/null" ;;
	esac
}

# tracekit's options for a mode: the kernel rows add --kernel to strace's.
tk_args() {
	case $1 in
	kernel*) echo "--kernel $(mode_args "$1")" ;;
	*) mode_args "$1" ;;
	esac
}

printf '%-10s %-9s %-7s %9s %9s %9s %10s %10s\n' workload mode pinned 'bare s' 'strace s' \
	'tracekit s' 'tk/strace' 'tk/bare'
for work in "getppid $((200000 / scale))" "write $((200000 / scale))" "forkexec $((200 / scale))"; do
	for pinned in yes no; do
		pin=()
		[ $pinned = yes ] && pin=(taskset -c 0)
		# shellcheck disable=SC2086
		bare=$(median "${pin[@]}" "$loop" $work)
		for mode in $modes; do
			# shellcheck disable=SC2046,SC2086
			st=$(median "${pin[@]}" strace $(mode_args $mode) "$loop" $work)
			# shellcheck disable=SC2046,SC2086
			tk=$(median "${pin[@]}" "$tracekit" syscalls $(tk_args $mode) "$loop" $work)
			printf '%-10s %-9s %-7s %9s %9s %9s %10s %10s\n' "${work% *}" $mode $pinned \
				"$bare" "$st" "$tk" "$(ratio "$tk" "$st")" "$(ratio "$tk" "$bare")"
		done
	done
done

# --kernel's point is the program's own time, not tracekit's: tracekit loads its BPF
# program before and decodes after.  The program times itself here (date before and
# after, in a small sh that every run shares), bare, under strace -f and under
# tracekit --kernel -f, with tracekit's whole run beside.
case " $modes " in *" kernel "*) ;; *) exit 0 ;; esac
echo
echo "the traced program's own time (--kernel -f -o /dev/null vs strace -f -o /dev/null):"
# The program's own time in seconds, once, under "$@" (a tracer and its options, or nothing).
prog_time() {
	local f t
	f=$(mktemp)
	# shellcheck disable=SC2016,SC2086
	"$@" sh -c 'a=$(date +%s%N); shift; "$@"; b=$(date +%s%N); echo $(((b - a) / 1000)) > "$0"' \
		"$f" x "$loop" $work >/dev/null 2>&1 </dev/null && t=$(awk '{ printf "%.6f\n", $1 / 1e6 }' "$f")
	rm -f "$f"
	echo "${t:-fail}"
}
# The VM's speed drifts over minutes: bare, strace and tracekit take turns, run by run.
printf '%-10s %-7s %9s %9s %9s %11s %10s %10s %12s\n' workload pinned 'bare s' 'strace s' 'kernel s' \
	'tk total s' 'st/bare' 'tk/bare' 'st-/tk-over'
for work in "getppid $((200000 / scale))" "write $((200000 / scale))" "forkexec $((200 / scale))"; do
	for pinned in yes no; do
		pin=()
		[ $pinned = yes ] && pin=(taskset -c 0)
		b=() s=() k=()
		for ((i = 0; i < runs; i++)); do
			b+=("$(prog_time "${pin[@]}")")
			s+=("$(prog_time "${pin[@]}" strace -f -o /dev/null)")
			k+=("$(prog_time "${pin[@]}" "$tracekit" syscalls --kernel -f -o /dev/null)")
		done
		bare=$(median_digits=4 median_of "${b[@]}") st=$(median_digits=4 median_of "${s[@]}")
		tk=$(median_digits=4 median_of "${k[@]}")
		# shellcheck disable=SC2086
		total=$(median "${pin[@]}" "$tracekit" syscalls --kernel -f -o /dev/null "$loop" $work)
		over=$(echo "$st $tk $bare" | awk '{ if ($2 > $3) printf "%.1f\n", ($1 - $3) / ($2 - $3); else print "-" }')
		printf '%-10s %-7s %9s %9s %9s %11s %10s %10s %12s\n' "${work% *}" $pinned "$bare" "$st" "$tk" \
			"$total" "$(ratio "$st" "$bare")" "$(ratio "$tk" "$bare")" "$over"
	done
done
