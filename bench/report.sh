#!/bin/sh
# tracekit report against trace-cmd report on the same trace.dat files: events/s,
# peak RSS and the ratios.  The recording is made here with trace-cmd: sched and
# raw_syscalls events, system-wide, under a syscall-heavy load, stopped with SIGINT
# once about N events (default 10M) should be in; then trace-cmd convert makes an
# uncompressed version 6 copy.  Run as root.
#
#   bench/report.sh [-e EVENTS] [-k] BUILD_DIR     # -e 2000000: a smaller recording
#                                                   # -k: keep (and reuse) the files
# TRACEKIT_REPORT_GENERIC=1 in the environment measures tracekit's generic path
# (libtracecmd + tep_print_event) instead of its fast path; BENCH_DIR picks the directory.
set -eu

events=10000000
keep=0
while getopts e:k o; do
	case $o in
	e) events=$OPTARG ;;
	k) keep=1 ;;
	*) echo "usage: $0 [-e EVENTS] [-k] BUILD_DIR" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=${1:?usage: $0 [-e EVENTS] [-k] BUILD_DIR}
tk=${TRACEKIT:-$build/tracekit}
loop=$build/tests/progs/loop
for t in trace-cmd /usr/bin/time "$tk" "$loop"; do
	command -v "$t" > /dev/null || { echo "$0: $t is missing" >&2; exit 1; }
done

dir=${BENCH_DIR:-/var/tmp/tracekit-bench-report}
mkdir -p "$dir"
v7=$dir/sched-syscalls-v7zstd.dat
v6=$dir/sched-syscalls-v6.dat
cleanup() {
	echo 1 > /sys/kernel/tracing/tracing_on
	[ "$keep" = 1 ] || rm -f "$v7" "$v6"
}
trap cleanup EXIT

record() {
	trace-cmd record --no-filter -d -b 20000 -e sched -e raw_syscalls -o "$v7" \
		> "$dir/record.log" 2>&1 &
	pid=$!
	sleep 1
	# Each getppid is two raw_syscalls events; stop once enough are in.
	"$loop" getppid $((events / 2)) > /dev/null
	kill -INT "$pid"
	wait "$pid" || true
	echo 1 > /sys/kernel/tracing/tracing_on
	trace-cmd convert -i "$v7" --file-version 6 --compression none -o "$v6" \
		> /dev/null 2>&1
}
[ -s "$v7" ] && [ -s "$v6" ] || record

# run NAME CMD...: wall seconds and peak RSS (KB) of CMD > /dev/null.
run() {
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" > /dev/null 2> "$dir/stderr" ||
		{ echo "$0: $* failed: $(head -1 "$dir/stderr")" >&2; exit 1; }
	cat "$dir/time"
}

printf '%-14s %10s | %10s %12s %9s | %10s %12s %9s | %7s\n' file events \
	'tc s' 'tc ev/s' 'tc MB' 'tk s' 'tk ev/s' 'tk MB' 'speedup'
for f in "$v7" "$v6"; do
	n=$("$tk" report -i "$f" --stat | awk '/^Events:/ { print $2 }')
	set -- $(run trace-cmd report -i "$f")
	tcs=$1 tcm=$2
	set -- $(run "$tk" report -i "$f")
	tks=$1 tkm=$2
	awk -v f="$(basename "$f" .dat)" -v n="$n" -v a="$tcs" -v am="$tcm" -v b="$tks" \
		-v bm="$tkm" 'BEGIN {
		if (a <= 0) a = 0.01; if (b <= 0) b = 0.01
		printf "%-14s %10d | %10.2f %12.0f %9.1f | %10.2f %12.0f %9.1f | %6.1fx\n",
			substr(f, 16), n, a, n / a, am / 1024, b, n / b, bm / 1024, a / b }'
done
