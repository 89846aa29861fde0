# tracekit record -A against trace-cmd 3.1.6's agent on the guest's loopback: trace-cmd agent
# records (the top-level buffer, its way) and sends the guest file's metadata and pages;
# tracekit writes trace.dat (TRACEID, GUEST) and trace-g.dat (TIME_SHIFT naming trace.dat's
# trace id).  trace-cmd report merges the two (both machines are this one, so the ptp offset
# found is within the round trip of zero); tracekit report reads each.
# lab: timeout 300
ip link set lo up 2>/dev/null || busybox ip link set lo up
LOOP=$LAB_BUILD/tests/progs/loop
trace-cmd agent -N 127.0.0.1 -p 1700 >agent.out 2>&1 &
APID=$!
show_on_fail agent.out
sleep 2
ok tk record -e syscalls:sys_enter_getppid -o host.dat -A 127.0.0.1:1700 --name g \
	-e sched:sched_switch -e syscalls:sys_enter_getppid "$LOOP" getppid 2000
has '^tracekit: record: guest g \(127\.0\.0\.1:1700\): host-g\.dat'
has 'time sync ptp, [0-9]+ samples? per vCPU'
off=$(sed -n 's/.*offset \(-\{0,1\}[0-9]*\) ns (guest to host).*/\1/p' "$OUT")
err=$(sed -n 's/.*estimated error +-\([0-9]*\) ns.*/\1/p' "$OUT")
echo "offset $off ns, estimated error $err ns"
kill $APID
wait $APID 2>/dev/null
cat agent.out
cp host.dat host-g.dat /run/lab/ 2>/dev/null
# One machine: the true offset is zero, so the one found is within the error estimated (half
# the least sure sample's round trip; doubled, and 1 ms, for TCG's noise).
[ "${off#-}" -le $((2 * err + 1000000)) ] || fail "offset $off ns between a clock and itself (error +-$err ns)"
ok trace-cmd dump --options -i host-g.dat
has 'Option TimeShift'
host_id=$(trace-cmd dump --options -i host.dat 2>&1 | sed -n '/Option TRACEID/{n;p;}' | head -1)
has "^$host_id \\[peer's trace id\\]"
ok trace-cmd dump --options -i host.dat
has 'Option GUEST'
has '^g \[Guest name\]'
ok trace-cmd report -i host.dat -i host-g.dat
host_n=$(grep -c '^ *host\.dat:.*sys_enter_getppid' "$OUT")
guest_n=$(grep -c '^ *host-g\.dat:.*sys_enter_getppid' "$OUT")
echo "merged: $host_n getppid events from host.dat, $guest_n from host-g.dat"
[ "$host_n" -ge 2000 ] || fail "host.dat: $host_n of 2000 getppid calls"
[ "$guest_n" -ge 2000 ] || fail "host-g.dat: $guest_n of 2000 getppid calls (the agent traced them too)"
ok tk report -i host-g.dat
has 'sched_switch'
ok tk report -i host.dat
has 'sys_enter_getppid'
ls | grep -q '\.cpu\|\.part' && fail "temporary files left: $(ls)"
true
