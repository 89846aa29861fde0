#!/bin/sh
# tracekit sched against trace-cmd report --profile on the same trace.dat files: wall
# seconds, peak RSS and the ratio.  The recording is made here with trace-cmd: the sched
# events, system-wide, while `perf bench sched pipe` ping-pongs two tasks (each round trip
# is a handful of sched events) for about N events (default 10M); then trace-cmd convert
# makes an uncompressed version 6 copy.  Run as root.
#
#   bench/sched.sh [-e EVENTS] [-k] BUILD_DIR     # -e 1000000: a smaller recording
#                                                 # -k: keep (and reuse) the files
# BENCH_DIR picks the directory (default /var/tmp/tracekit-bench-sched).
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
for t in trace-cmd perf /usr/bin/time "$tk"; do
	command -v "$t" > /dev/null || { echo "$0: $t is missing" >&2; exit 1; }
done

dir=${BENCH_DIR:-/var/tmp/tracekit-bench-sched}
mkdir -p "$dir"
v7=$dir/sched-v7zstd.dat
v6=$dir/sched-v6.dat
cleanup() {
	echo 1 > /sys/kernel/tracing/tracing_on
	[ "$keep" = 1 ] || rm -f "$v7" "$v6"
}
trap cleanup EXIT

record() {
	trace-cmd record --no-filter -d -b 20000 -e sched -o "$v7" > "$dir/record.log" 2>&1 &
	pid=$!
	sleep 1
	# A pipe round trip: two wakeups and two switches, plus waking/migrations: ~6 events.
	perf bench sched pipe -l $((events / 6)) > /dev/null
	kill -INT "$pid"
	wait "$pid" || true
	echo 1 > /sys/kernel/tracing/tracing_on
	[ -s "$v7" ] || { echo "$0: trace-cmd record failed: $(tail -1 "$dir/record.log")" >&2; exit 1; }
	trace-cmd convert -i "$v7" --file-version 6 --compression none -o "$v6" \
		> /dev/null 2>&1
}
[ -s "$v7" ] && [ -s "$v6" ] || record

# run CMD...: wall seconds and peak RSS (KB) of CMD > /dev/null.
run() {
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" > /dev/null 2> "$dir/stderr" ||
		{ echo "$0: $* failed: $(head -1 "$dir/stderr")" >&2; exit 1; }
	cat "$dir/time"
}

printf '%-10s %10s | %8s %8s | %8s %8s | %7s\n' file events 'tc s' 'tc MB' 'tk s' 'tk MB' \
	'speedup'
for f in "$v7" "$v6"; do
	n=$("$tk" report -i "$f" --stat | awk '/^Events:/ { print $2 }')
	set -- $(run trace-cmd report --profile -i "$f")
	tcs=$1 tcm=$2
	set -- $(run "$tk" sched -i "$f")
	tks=$1 tkm=$2
	awk -v f="$(basename "$f" .dat)" -v n="$n" -v a="$tcs" -v am="$tcm" -v b="$tks" \
		-v bm="$tkm" 'BEGIN {
		if (a <= 0) a = 0.01; if (b <= 0) b = 0.01
		printf "%-10s %10d | %8.2f %8.1f | %8.2f %8.1f | %6.1fx\n",
			substr(f, 7), n, a, am / 1024, b, bm / 1024, a / b }'
done
