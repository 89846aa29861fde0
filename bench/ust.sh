#!/bin/bash
# bench/ust.sh: the cost of a user tracepoint per event, tracekit beside its peers, in one run.
#
#   bench/ust.sh                  # N=10000000 events, N_UPROBE=100000, BUF_KB=65536 (64 MB)
#
# One event of three fields (int, string, long), fired N times in a loop, as
#   - tracekit's TRACE_EVENT (bench/ust/bench_tk.c): disabled (no recorder), then enabled
#     under `tracekit record -b BUF_KB` with TSC stamps and with clock_gettime stamps, then
#     into the default buffer (4 MB) twice: dropping when full (--user-wait 0, the behaviour
#     before issue 25) and waiting for room (the default)
#   - the yardstick: one clock_gettime(CLOCK_MONOTONIC) call (bench_clock.c)
#   - LTTng-UST's TRACEPOINT_EVENT (bench_lttng.c): no session, then a session with its
#     default channel (liblttng-ust-dev, lttng-tools; skipped when missing)
#   - a USDT probe (bench_usdt.c): a nop, then a kernel uprobe on it through
#     `tracekit record --probe` (N_UPROBE events: a hit costs microseconds)
# Each program times its own loop and prints ns per event of the thread's CPU time and of
# wall time; the CPU time is the tracepoint's cost even when a busy machine keeps the
# program waiting.  Lost events are what each recorder says it dropped.  Needs root.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${BUILD:-$root/build}
tk=$build/tracekit
N=${N:-10000000}
N_UPROBE=${N_UPROBE:-100000}
BUF_KB=${BUF_KB:-65536}
tmp=$(mktemp -d /tmp/tk-bench-ust.XXXXXX)
sessiond=
cleanup() {
	[ -n "$sessiond" ] && kill "$sessiond" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

[ -x "$tk" ] || { echo "bench/ust.sh: build first (make): no $tk" >&2; exit 1; }
export PKG_CONFIG_PATH=$build/meson-uninstalled
flags=$(pkg-config --cflags --libs tracekit) || { echo "bench/ust.sh: no tracekit.pc in $PKG_CONFIG_PATH" >&2; exit 1; }
libdir=$(echo "$flags" | sed -n 's/.*-L\([^ ]*\).*/\1/p')
cc -O2 -I"$here/ust" "$here/ust/bench_tk.c" -o "$tmp/bench_tk" $flags -Wl,-rpath,"$libdir" || exit 1
cc -O2 -I"$here/ust" -I"$root/tests/progs" "$here/ust/bench_usdt.c" -o "$tmp/bench_usdt" || exit 1
cc -O2 -I"$here/ust" "$here/ust/bench_clock.c" -o "$tmp/bench_clock" || exit 1
have_lttng=
if cc -O2 -I"$here/ust" "$here/ust/bench_lttng.c" -o "$tmp/bench_lttng" -llttng-ust -ldl 2>/dev/null &&
	command -v lttng >/dev/null && command -v lttng-sessiond >/dev/null; then
	have_lttng=1
fi

row() {	# name, "cpu wall" from the program, events, lost
	local cpu=${2% *} wall=${2#* }
	printf '%-34s %12s %12s %10s %10s\n' "$1" "$cpu" "$wall" "$3" "$4"
	eval "cpu_$5=$cpu"
}

# "user events: X events, Y lost" from record's summary.
user_counts() {
	sed -n 's/.*user events: \([0-9]*\) events, \([0-9]*\) lost.*/\1 \2/p' "$1"
}

printf '%-34s %12s %12s %10s %10s\n' "$N events of (int, string, long)" "cpu ns/ev" "wall ns/ev" \
	"recorded" "lost"
row "tracekit, disabled" "$("$tmp/bench_tk" "$N")" - - tk_off

out=$("$tk" record -b "$BUF_KB" -e 'bench:*' -o "$tmp/tk.dat" "$tmp/bench_tk" "$N" 2>"$tmp/tk.err")
read -r ev lost <<<"$(user_counts "$tmp/tk.err")"
row "tracekit, recording (TSC)" "$out" "${ev:-?}" "${lost:-?}" tk_on

out=$(TRACEKIT_UST_CLOCK=mono "$tk" record -b "$BUF_KB" -e 'bench:*' -o "$tmp/tk.dat" \
	"$tmp/bench_tk" "$N" 2>"$tmp/tk.err")
read -r ev lost <<<"$(user_counts "$tmp/tk.err")"
row "tracekit, recording (clock_gettime)" "$out" "${ev:-?}" "${lost:-?}" tk_mono

out=$("$tk" record --user-wait 0 -e 'bench:*' -o "$tmp/tk.dat" "$tmp/bench_tk" "$N" 2>"$tmp/tk.err")
read -r ev lost <<<"$(user_counts "$tmp/tk.err")"
row "tracekit, 4 MB, drop when full" "$out" "${ev:-?}" "${lost:-?}" tk_drop

out=$("$tk" record -e 'bench:*' -o "$tmp/tk.dat" "$tmp/bench_tk" "$N" 2>"$tmp/tk.err")
read -r ev lost <<<"$(user_counts "$tmp/tk.err")"
row "tracekit, 4 MB, wait for room" "$out" "${ev:-?}" "${lost:-?}" tk_wait
rm -f "$tmp/tk.dat"
row "clock_gettime(CLOCK_MONOTONIC)" "$("$tmp/bench_clock" "$N")" - - clock

if [ -n "$have_lttng" ]; then
	row "LTTng-UST, no session" "$(LTTNG_UST_REGISTER_TIMEOUT=0 "$tmp/bench_lttng" "$N")" - - lt_off
	# Our own session daemon, stopped at the end, unless one runs already.
	if ! pgrep -x lttng-sessiond >/dev/null && lttng-sessiond --daemonize --no-kernel \
		>/dev/null 2>&1; then
		sessiond=$(pgrep -n -x lttng-sessiond)
	fi
	s=tkbench-$$
	lttng create "$s" --output="$tmp/lttng" >/dev/null &&
		lttng enable-event -s "$s" -u 'bench:*' >/dev/null &&
		lttng start "$s" >/dev/null
	out=$("$tmp/bench_lttng" "$N")
	stop=$(lttng stop "$s" 2>&1)
	lttng destroy "$s" >/dev/null 2>&1
	lost=$(echo "$stop" | sed -n 's/.*Warning: \([0-9]*\) events were discarded.*/\1/p')
	row "LTTng-UST, session (default buffers)" "$out" - "${lost:-0}" lt_on
else
	echo "LTTng-UST: skipped (apt-get install liblttng-ust-dev lttng-tools)"
fi

row "USDT, not probed (a nop)" "$("$tmp/bench_usdt" "$N")" - - usdt_off
out=$("$tk" record --probe "p $tmp/bench_usdt:%bench:request_done" -o "$tmp/up.dat" \
	"$tmp/bench_usdt" "$N_UPROBE" 2>"$tmp/up.err")
ev=$(sed -n 's/.*: \([0-9]*\) events, \([0-9]*\) lost.*/\1 \2/p' "$tmp/up.err" | tail -1)
row "USDT + kernel uprobe ($N_UPROBE events)" "$out" "${ev% *}" "${ev#* }" usdt_on

awk -v t="$cpu_tk_on" -v w="$cpu_tk_wait" -v c="$cpu_clock" 'BEGIN {
	if (c > 0) printf "tracekit, recording (TSC, 64 MB) / clock_gettime, cpu ns: %.2fx\n", t / c
	if (c > 0) printf "tracekit, 4 MB, wait for room / clock_gettime, cpu ns: %.2fx\n", w / c
}'
awk -v t="$cpu_tk_on" -v u="$cpu_usdt_on" -v l="${cpu_lt_on:-}" 'BEGIN {
	if (l != "" && t > 0) printf "LTTng-UST / tracekit, recording, cpu ns per event: %.2fx\n", l / t
	if (t > 0) printf "uprobe / tracekit, recording, cpu ns per event: %.0fx\n", u / t
}'
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
