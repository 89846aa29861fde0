# A fresh host-guest pair from trace-cmd 3.1.6 (trace-cmd agent -N and trace-cmd record -A
# --name guest, both ends in this guest over its loopback, as tests/fixtures/make-hostguest-
# fixture.sh makes the committed pair), read merged by tracekit: report equal to trace-cmd
# report -i host -i guest line by line, sched naming both machines and the guest's missing vCPU
# map (a TCP guest), view and export taking both files.  trace-cmd connects to the agent's
# ports by the guest's name: "guest" is made a name of 127.0.0.1 in a private mount namespace.
# lab: timeout 400
ip link set lo up 2>/dev/null || busybox ip link set lo up
echo "127.0.0.1 localhost guest" >hosts
cat >pair.sh <<'PAIR'
mount --bind hosts /etc/hosts || exit 1
trace-cmd agent -N 127.0.0.1 -p 1710 >agent.log 2>&1 &
agent=$!
sleep 1
EV="-e sched:sched_switch -e sched:sched_wakeup -e sched:sched_process_exec"
trace-cmd record -C local -B host -b 1024 -e sched:sched_switch \
	-A 127.0.0.1:1710 --name guest -C local -b 1024 $EV \
	-- sh -c 'for i in 1 2 3 4; do cat /proc/self/stat >/dev/null; done'
rc=$?
kill $agent 2>/dev/null
wait $agent 2>/dev/null
# trace-cmd's time synchronisation leaves its instance behind (3.1.6): removed.
for i in /sys/kernel/tracing/instances/clock_synch-*; do [ -d "$i" ] && rmdir "$i"; done
exit $rc
PAIR
ok unshare -m sh pair.sh
[ -f trace.dat ] && [ -f trace-guest.dat ] || fail "trace-cmd record -A wrote $(ls)"
ok sh -c 'trace-cmd dump --options -i trace.dat | grep -A3 "Option GUEST"'
has 'guest \[Guest name\]'
ok sh -c 'trace-cmd dump --options -i trace-guest.dat | grep -c TimeShift'
ok sh -c 'trace-cmd report -i trace.dat -i trace-guest.dat >theirs.txt 2>/dev/null;
	"$TRACEKIT" report -i trace.dat -i trace-guest.dat >ours.txt &&
	cmp ours.txt theirs.txt && echo "$(wc -l <ours.txt) lines alike" &&
	grep -c "^trace-guest.dat: " ours.txt'
has 'lines alike'
ok tk sched -i trace.dat -i trace-guest.dat
has '^== host \(trace.dat\) ==$'
has '^== guest \(trace-guest.dat\) ==$'
has 'no vCPU-to-thread map'
ok tk view -q -i trace.dat -i trace-guest.dat -o pair.html
ok tk export -i trace.dat -i trace-guest.dat -f perfetto -o pair.pftrace
