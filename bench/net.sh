#!/usr/bin/env bash
# record -N over loopback: tracekit against trace-cmd, side by side in one run.
#
#   bench/net.sh [-c CALLS] [-n RUNS] [BUILD_DIR]
#
# Part 1, one client: `tracekit record -N` and `trace-cmd record -N` each stream
# the same load (CALLS getppid calls of tests/progs/loop, -e
# syscalls:sys_enter_getppid -F) to one `tracekit listen`, over TCP (-t) and
# over UDP.  For each: the events that arrived, the events lost (made minus
# arrived), the recorder's CPU seconds (user+sys, its threads and children
# included) and events per second of wall time.
#
# Part 2, N clients at once (N = 1, 4, 16), each `tracekit record -N -t` of
# CALLS/N calls, into one `tracekit listen` and into one `trace-cmd listen`:
# the events that arrived, lost, and the listener's CPU seconds.
#
# trace-cmd record changes the top-level tracing state (tracing_on, its
# events): as bench/record.sh, tracing_on is set back to 1 after each of its
# runs.  Where trace-cmd record cannot start (a kernel that refuses the
# function tracer: it dies writing set_ftrace_filter) its rows say "fail": run
# the bench in the kernel lab then, `tests/kernel/lab -- bench/net.sh -c N`.  Nothing is asserted; the medians of RUNS runs are printed.  A client
# that trace-cmd listen failed shows as lost events (its file is missing).
set -uo pipefail

calls=500000 runs=3
while getopts c:n: opt; do
	case $opt in
	c) calls=$OPTARG ;;
	n) runs=$OPTARG ;;
	*) echo "usage: $0 [-c CALLS] [-n RUNS] [BUILD_DIR]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=${1:-build}
tk=${TRACEKIT:-$build/tracekit}
loop=$build/tests/progs/loop
for need in "$tk" "$loop"; do
	[ -x "$need" ] || { echo "bench: $need not built (ninja -C $build)" >&2; exit 1; }
done
command -v trace-cmd >/dev/null || { echo "bench: trace-cmd not installed" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench: recording needs root" >&2; exit 1; }
tracefs=/sys/kernel/tracing
# In the kernel lab (tests/kernel/lab -- bench/net.sh ...) loopback starts down and /dev/fd,
# which bash's process substitution needs, is missing.
ip link show lo 2>/dev/null | grep -q UP || ip link set lo up 2>/dev/null || busybox ip link set lo up
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/lib.sh"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# The getppid events in the files of dir.
arrived() {
	local n=0 f
	for f in "$1"/*.dat; do
		[ -e "$f" ] || continue
		n=$((n + $("$tk" report -i "$f" 2>/dev/null | grep -c sys_enter_getppid)))
	done
	echo "$n"
}

# CPU seconds (user+sys) of a running process so far, its waited-for children included.
cpu_of() { awk '{ printf "%.3f\n", ($14 + $15 + $16 + $17) / 100 }' "/proc/$1/stat"; }

# One client run: "events lost cpu_s events_per_s" for RECORDER (tk|tc) and transport (tcp|udp).
one_client() {
	local who=$1 tr=$2 dir=$work/one port lp t0 t1 rc
	rm -rf "$dir"; mkdir -p "$dir"
	port=$(free_port)
	"$tk" listen -p "$port" -d "$dir" --clients 1 2>/dev/null &
	lp=$!
	sleep 0.3
	local topt=(); [ "$tr" = tcp ] && topt=(-t)
	t0=$(date +%s.%N)
	if [ "$who" = tk ]; then
		/usr/bin/time -f "%U %S" -o "$work/time" "$tk" record -q -N "127.0.0.1:$port" "${topt[@]}" \
			-e syscalls:sys_enter_getppid -F "$loop" getppid "$calls" >/dev/null 2>&1
	else
		# trace-cmd fails when /proc/kallsyms changes size while it copies it (BPF
		# programs come and go on a shared machine): tried up to 5 times, each said.
		local try ok=
		for try in 1 2 3 4 5; do
			/usr/bin/time -f "%U %S" -o "$work/time" trace-cmd record -q -d \
				-N "127.0.0.1:$port" "${topt[@]}" -e syscalls:sys_enter_getppid \
				-F "$loop" getppid "$calls" >"$work/tc.log" 2>&1 && { ok=1; break; }
			echo 1 > $tracefs/tracing_on
			echo "bench: trace-cmd record -N failed ($(grep -m1 -i error "$work/tc.log" |
				sed 's/^ *//')), again" >&2
			kill "$lp" 2>/dev/null; wait "$lp" 2>/dev/null
			rm -rf "$dir"; mkdir -p "$dir"
			"$tk" listen -p "$port" -d "$dir" --clients 1 2>/dev/null &
			lp=$!
			sleep 0.3
			t0=$(date +%s.%N)
		done
		echo 1 > $tracefs/tracing_on
		if [ -z "$ok" ]; then
			kill "$lp" 2>/dev/null; wait "$lp" 2>/dev/null
			echo "fail fail fail fail"
			return
		fi
	fi
	t1=$(date +%s.%N)
	wait "$lp"
	local n; n=$(arrived "$dir")
	awk -v n="$n" -v c="$calls" -v a="$t0" -v b="$t1" '
		FNR == 1 && NF == 2 { cpu = $1 + $2 }
		END { printf "%d %d %.2f %.0f\n", n, c - n, cpu, n / (b - a) }' "$work/time"
}

# N clients into one listener (tk|tc): "events lost listener_cpu_s".
n_clients() {
	local lis=$1 n=$2 dir=$work/many port lp pids=() i each=$((calls / n)) cpu
	rm -rf "$dir"; mkdir -p "$dir"
	port=$(free_port)
	if [ "$lis" = tk ]; then
		"$tk" listen -p "$port" -d "$dir" --max-clients 64 2>/dev/null &
	else
		setsid trace-cmd listen -p "$port" -d "$dir" >/dev/null 2>&1 &
	fi
	lp=$!
	sleep 0.5
	for ((i = 0; i < n; i++)); do
		"$tk" record -q -N "127.0.0.1:$port" -t -e syscalls:sys_enter_getppid -F \
			"$loop" getppid "$each" >/dev/null 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
	# trace-cmd listen writes a client's file a second or two after CLOSE
	for ((i = 0; i < 30; i++)); do
		ls "$dir" | grep -q '\.cpu[0-9]*$' || break
		sleep 0.5
	done
	sleep 2
	cpu=$(cpu_of "$lp")
	if [ "$lis" = tk ]; then kill -INT "$lp"; else kill -INT -- "-$lp"; fi
	wait "$lp" 2>/dev/null
	local got; got=$(arrived "$dir")
	echo "$got $((each * n - got)) $cpu"
}

# The median of the runs that did not fail; "fail" when none succeeded.
col() {
	local v=() x
	for x; do [ "$x" = fail ] || v+=("$x"); done
	if [ ${#v[@]} = 0 ]; then echo fail; else median_of "${v[@]}"; fi
}

echo "# one client, $calls getppid calls, into tracekit listen (medians of $runs runs)"
printf '%-10s %-4s %10s %8s %8s %12s\n' recorder net events lost cpu-s events/s
for tr in tcp udp; do
	for who in tk tc; do
		ev=() lo=() cp=() rt=()
		for ((r = 0; r < runs; r++)); do
			read -r e l c s < <(one_client "$who" "$tr")
			ev+=("$e"); lo+=("$l"); cp+=("$c"); rt+=("$s")
		done
		median_digits=0
		printf '%-10s %-4s %10s %8s ' "$([ $who = tk ] && echo tracekit || echo trace-cmd)" "$tr" \
			"$(col "${ev[@]}")" "$(col "${lo[@]}")"
		median_digits=2
		printf '%8s ' "$(col "${cp[@]}")"
		median_digits=0
		printf '%12s\n' "$(col "${rt[@]}")"
	done
done

echo
echo "# N clients (tracekit record -N -t, $calls calls in all) into one listener"
printf '%-10s %4s %10s %8s %8s\n' listener N events lost cpu-s
for n in 1 4 16; do
	for lis in tk tc; do
		ev=() lo=() cp=()
		for ((r = 0; r < runs; r++)); do
			read -r e l c < <(n_clients "$lis" "$n")
			ev+=("$e"); lo+=("$l"); cp+=("$c")
		done
		median_digits=0
		printf '%-10s %4s %10s %8s ' "$([ $lis = tk ] && echo tracekit || echo trace-cmd)" "$n" \
			"$(col "${ev[@]}")" "$(col "${lo[@]}")"
		median_digits=2
		printf '%8s\n' "$(col "${cp[@]}")"
	done
done
