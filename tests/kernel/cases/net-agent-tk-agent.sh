# trace-cmd 3.1.6's record -A against tracekit agent on the guest's loopback: trace-cmd sends its
# record options with -C, its clock; tracekit agent records with it and sends metadata and
# pages. trace-cmd writes trace.dat and trace-127.0.0.1.dat (its name for a guest reached by
# address; with --name NAME, 3.1.6 connects the time-sync and data ports at NAME) with TIME_SHIFT,
# and its report merges them.  -C mono: without -C, on a machine with x86-tsc and KVM's time
# sync compiled in, trace-cmd 3.1.6 gives the guest x86-tsc but syncs on its own default clock,
# so ptp compares cycles with nanoseconds (a trace-cmd-to-trace-cmd session does the same).
# lab: timeout 300
ip link set lo up 2>/dev/null || busybox ip link set lo up
LOOP=$LAB_BUILD/tests/progs/loop
tk agent -p 1701 --sessions 1 >agent.out 2>&1 &
APID=$!
show_on_fail agent.out
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q listening agent.out && break; sleep 0.5; done
ok trace-cmd record -C mono -e syscalls:sys_enter_getppid -A 127.0.0.1:1701 \
	-e sched:sched_switch -e syscalls:sys_enter_getppid "$LOOP" getppid 2000
has 'Negotiated ptp time sync protocol'
# trace-cmd 3.1.6's own time-sync instance, which it leaves (not tracekit's: tracekit-*)
if [ -d /sys/kernel/tracing/instances/clock_synch-0 ]; then
	echo "trace-cmd left its instance clock_synch-0: removed"
	rmdir /sys/kernel/tracing/instances/clock_synch-0
fi
wait $APID || fail "tracekit agent failed: $(cat agent.out)"
ok cat agent.out
has 'tracekit: agent: 127\.0\.0\.1: [0-9]+ events, 0 lost in the kernel'
has 'time sync \(ptp\): [0-9]+ samples, offset -?[0-9]+ ns'
# the last sample's offset, and the longest round trip a sample was taken at
off=$(sed -n 's/.*offset \(-\{0,1\}[0-9]*\) ns, shortest round trip [0-9]* ns, longest \([0-9]*\) ns.*/\1 \2/p' "$OUT")
set -- $off
[ -n "$2" ] || fail "the agent said no round trips"
echo "offset $1 ns, longest round trip $2 ns"
[ "${1#-}" -le $(($2 + 1000000)) ] || fail "offset $1 ns between a clock and itself (round trip $2 ns)"
cp trace.dat trace-127.0.0.1.dat /run/lab/ 2>/dev/null
ok trace-cmd dump --options -i trace-127.0.0.1.dat
has 'Option TimeShift'
has 'Option TRACEID'
ok trace-cmd report -i trace.dat -i trace-127.0.0.1.dat
host_n=$(grep -c '^ *trace\.dat:.*sys_enter_getppid' "$OUT")
guest_n=$(grep -c '^ *trace-127\.0\.0\.1\.dat:.*sys_enter_getppid' "$OUT")
echo "merged: $host_n getppid events from trace.dat, $guest_n from the guest's file"
[ "$host_n" -ge 2000 ] || fail "trace.dat: $host_n of 2000 getppid calls"
[ "$guest_n" -ge 2000 ] || fail "guest file: $guest_n of 2000 getppid calls"
ok tk report -i trace-127.0.0.1.dat
has 'sys_enter_getppid'
true
