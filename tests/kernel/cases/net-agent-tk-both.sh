# tracekit record -A against tracekit agent on the guest's loopback, with a time-sync sample
# every 200 ms: both files as trace-cmd writes them, merged by trace-cmd report; -C local
# makes both sides read the clock through trace_marker_raw.
# lab: timeout 300
ip link set lo up 2>/dev/null || busybox ip link set lo up
LOOP=$LAB_BUILD/tests/progs/loop
tk agent -p 1702 --sessions 1 >agent.out 2>&1 &
APID=$!
show_on_fail agent.out
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q listening agent.out && break; sleep 0.5; done
ok tk record -C local --tsync-interval 200 -e syscalls:sys_enter_getppid -o host.dat \
	-A 127.0.0.1:1702 --name g -e syscalls:sys_enter_getppid "$LOOP" getppid 2000
has 'time sync ptp, [0-9]+ samples per vCPU'
wait $APID || fail "tracekit agent failed: $(cat agent.out)"
ok cat agent.out
has 'time sync \(ptp\)'
ok trace-cmd report -i host.dat -i host-g.dat
host_n=$(grep -c '^ *host\.dat:.*sys_enter_getppid' "$OUT")
guest_n=$(grep -c '^ *host-g\.dat:.*sys_enter_getppid' "$OUT")
echo "merged: $host_n from host.dat, $guest_n from host-g.dat"
[ "$host_n" = 2000 ] || fail "host.dat: $host_n of 2000"
[ "$guest_n" = 2000 ] || fail "host-g.dat: $guest_n of 2000"
true
