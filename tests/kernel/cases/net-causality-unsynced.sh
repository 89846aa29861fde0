# The causality check's control: pingnet between host and guest, each side recorded on its own
# clock with no time synchronisation (tracekit record here, tracekit record on the host).  The
# host part merges the two files and must find every round, and find them out of order: the
# guest's clock started at its boot, the host's long before.  (The synchronised cases,
# net-agent-*, pass the same check.)
# lab: net
# lab: timeout 300
port=${LAB_NET_PORTS#*-}
E="-e syscalls:sys_enter_sendto -e syscalls:sys_exit_recvfrom"
tk record -F -o guest.dat $E -- "$LAB_BUILD/tests/progs/pingnet" serve "$port" 20 \
	>serve.out 2>&1 &
RPID=$!
for i in $(seq 100); do grep -qs serving serve.out && break; sleep 0.2; done
grep -qs serving serve.out || fail "pingnet serve did not start: $(cat serve.out)"
signal serving "$port"
wait $RPID || fail "record of pingnet serve failed: $(cat serve.out)"
ok cat serve.out
cp guest.dat "$LAB_SHARED/$CASE.guest.dat"
signal recorded "$CASE.guest.dat"
