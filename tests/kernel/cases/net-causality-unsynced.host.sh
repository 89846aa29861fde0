# The host's end of net-causality-unsynced: pingnet ping through the forwarded port, recorded
# by tracekit record; the merged reports of the two unsynchronised files (trace-cmd report and
# tracekit report) have the 20 rounds, and tests/kernel/causality.py finds them out of order,
# the window of shifts that would order them being the two clocks' difference.
await serving
port=$GOT
E="-e syscalls:sys_enter_sendto -e syscalls:sys_exit_recvfrom"
ok tk record -F -o host.dat $E -- "$LAB_BUILD/tests/progs/pingnet" ping 127.0.0.1 "$port" 20
await recorded 120
cp "$LAB_SHARED/$GOT" guest.dat
CHECK="python3 $LAB_SRC/tests/kernel/causality.py --host host.dat --guest guest.dat"
trace-cmd report -t -i host.dat -i guest.dat >tc.txt 2>&1 ||
	fail "trace-cmd report: $(tail -3 tc.txt)"
tk report -i host.dat -i guest.dat >tk.txt 2>&1 || fail "tracekit report: $(tail -3 tk.txt)"
for r in tc.txt tk.txt; do
	ok $CHECK --estimate $r
	has '^20 rounds'
	refused $CHECK $r
	has 'no single shift|out of order'
done
