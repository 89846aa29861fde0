#!/usr/bin/env bash
# tracekit record vs trace-cmd record, side by side in one run: the same events
# (sched + raw_syscalls), the same buffer size, the same syscall-heavy load.
# Prints events captured, events lost and the recorder's CPU time for each, and
# the ratios.  Nothing is asserted.
#
#   bench/record.sh [-c CALLS | -d SECONDS] [-b KB] [-n RUNS] [BUILD_DIR]
#
# By default the load makes a fixed number of getppid calls (-c, 3 million) and
# each recorder is stopped when it ends, so both record the same work; -d runs
# the load for a fixed time instead (the load runs faster or slower beside each
# recorder, so the event counts then differ).
#
# trace-cmd records here only system-wide without a command, stopped with
# SIGINT, and leaves tracing_on at 0: it is restored after each of its runs.
set -uo pipefail

secs= calls=3000000 kb=1024 runs=3
while getopts c:d:b:n: opt; do
	case $opt in
	c) calls=$OPTARG ;;
	d) secs=$OPTARG ;;
	b) kb=$OPTARG ;;
	n) runs=$OPTARG ;;
	*) echo "usage: $0 [-c CALLS | -d SECONDS] [-b KB] [-n RUNS] [BUILD_DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=${1:-build}
tk=${TRACEKIT:-$build/tracekit}
loop=$build/tests/progs/loop
for need in "$tk" "$loop"; do
	[ -x "$need" ] || { echo "bench: $need not built (ninja -C $build)" >&2; exit 1; }
done
command -v trace-cmd >/dev/null || { echo "bench: trace-cmd not installed (apt-get install trace-cmd)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench: recording needs root" >&2; exit 1; }
tracefs=/sys/kernel/tracing
mountpoint -q $tracefs || mount -t tracefs nodev $tracefs

work=$(mktemp -d)
# trace-cmd enables its events at the top level; one that fails midway leaves them on.
cp $tracefs/set_event "$work/set_event.before"
# The load runs in subshells: its pid goes to a file so every exit path can end it.
cleanup() {
	[ -f "$work/load.pid" ] && kill "$(cat "$work/load.pid")" 2>/dev/null
	echo 1 > $tracefs/tracing_on
	if ! cmp -s $tracefs/set_event "$work/set_event.before"; then
		echo > $tracefs/set_event
		while read -r e; do echo "$e" >> $tracefs/set_event; done < "$work/set_event.before"
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

start_load() {
	"$loop" getppid "${secs:+2000000000}${secs:-$calls}" & echo $! > "$work/load.pid"
}
# The run's length: the load's fixed time, or until its fixed work is done.
await_load() {
	if [ -n "$secs" ]; then
		sleep "$secs"
	else
		wait "$(cat "$work/load.pid")" 2>/dev/null
	fi
}
stop_load() {
	local pid
	pid=$(cat "$work/load.pid")
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rm -f "$work/load.pid"
}

# events and lost, from the CPU stats and events both tools store in the file
count() {
	local f=$1 events lost
	events=$("$tk" report --stat -i "$f" 2>/dev/null | awk '/^Events:/ {print $2; exit}')
	lost=$(trace-cmd report --stat -i "$f" 2>/dev/null |
		awk '/^overrun:/ {s += $2} /^dropped events:/ {s += $3} END {print s + 0}')
	echo "$events $lost"
}

run_tracekit() {
	local f=$work/tk.dat
	# Stopped by SIGINT, as trace-cmd is (time's child is tracekit itself).
	/usr/bin/time -f "%U %S" -o "$work/time" "$tk" record -q -b "$kb" -e sched -e raw_syscalls \
		-o "$f" 2>/dev/null &
	local rec=$! tk_pid=
	sleep 0.5	# tracing on before the load starts, as for trace-cmd below
	start_load
	await_load
	tk_pid=$(pgrep -P "$rec" -x tracekit)
	[ -n "$tk_pid" ] && kill -INT "$tk_pid" 2>/dev/null
	wait "$rec" 2>/dev/null
	stop_load
	echo "$(count "$f") $(awk '{print $1 + $2}' "$work/time")"
}

# trace-cmd under /usr/bin/time as tracekit is: its per-CPU recorder processes are
# its children, waited for, so their CPU time is in what time reports.  (Sampling
# the session's CPU while it runs missed the time spent after the last sample.)
run_tracecmd() {
	local f=$work/tc.dat
	# Its own session: trace-cmd signals its whole process group when it stops.
	setsid /usr/bin/time -f "%U %S" -o "$work/tctime" trace-cmd record --no-filter -d \
		-b "$kb" -e sched -e raw_syscalls -o "$f" >/dev/null 2>&1 &
	local rec=$! tc=
	sleep 0.5
	start_load
	await_load
	# SIGINT to trace-cmd itself (time's child), which stops its recorders.
	tc=$(pgrep -P "$rec" -x trace-cmd)
	[ -n "$tc" ] && kill -INT "$tc" 2>/dev/null
	wait "$rec" 2>/dev/null
	stop_load
	echo 1 > $tracefs/tracing_on
	echo "$(count "$f") $(awk 'END {print $1 + $2}' "$work/tctime")"
}

printf '%-5s %12s %10s %8s %12s %10s %8s %9s %9s %9s\n' run tk-events tk-lost tk-cpu tc-events \
	tc-lost tc-cpu lost-ratio cpu-ratio cpu/ev
for i in $(seq "$runs"); do
	read -r te tl tc < <(run_tracekit)
	read -r ce cl cc < <(run_tracecmd)
	awk -v i="$i" -v te="$te" -v tl="$tl" -v tc="$tc" -v ce="$ce" -v cl="$cl" -v cc="$cc" 'BEGIN {
		tlr = te + tl ? tl / (te + tl) : 0; clr = ce + cl ? cl / (ce + cl) : 0
		pe = te && ce && cc ? (tc / te) / (cc / ce) : 0
		printf "%-5s %12d %10d %8.2f %12d %10d %8.2f %9s %9.2f %9.2f\n", i, te, tl, tc, ce, cl, cc,
			clr ? sprintf("%.2f", tlr / clr) : "-", cc ? tc / cc : 0, pe }'
done
echo "lost-ratio: tracekit's share of lost events / trace-cmd's (< 1: tracekit loses fewer);"
echo "cpu-ratio: tracekit's recorder CPU seconds / trace-cmd's; cpu/ev: the same per event recorded"
if [ -n "$secs" ]; then
	echo "(the load runs faster or slower with each recorder, so the event counts differ).  ${secs}s per"
	echo "run, -b $kb KB per CPU."
else
	echo "(the same $calls getppid calls beside each recorder).  -b $kb KB per CPU."
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
