# trace-cmd 3.1.6 as the recorder, tracekit as its agent: trace-cmd record -A here, in the
# guest (trace-cmd record cannot run on every development machine), with tracekit agent on the
# host (net-agent-reverse.host.sh) reached at 10.0.2.2; the agent's data and time-sync ports
# come from 1516 up there (the lab's forwarding holds 1500-1515).  trace-cmd reaches the
# agent's data ports by the agent's --name, so the name is its address.  The recorded command
# is pingnet serve, which the host's pingnet ping talks to at 1515; the files are merged and
# checked for cause before effect here (causality.inc).
# lab: net
# lab: timeout 420
last=${LAB_NET_PORTS#*-}
await agent
E="-e syscalls:sys_enter_sendto -e syscalls:sys_exit_recvfrom"
trace-cmd record -C mono $E -A "$LAB_NET_HOST:$GOT" --name "$LAB_NET_HOST" -C mono $E \
	-- "$LAB_BUILD/tests/progs/pingnet" serve "$last" 20 >record.out 2>&1 &
RPID=$!
trap 'kill $RPID 2>/dev/null' EXIT
# trace-cmd starts the command after the first time-sync sample: 339 round trips through
# qemu's user network under TCG, slow on a loaded machine
end=$(($(date +%s) + 200))
while [ "$(date +%s)" -lt "$end" ]; do grep -qs serving record.out && break; sleep 0.5; done
grep -qs serving record.out || fail "pingnet serve did not start: $(cat record.out)"
signal serving "$last"
wait $RPID || fail "trace-cmd record -A failed: $(cat record.out)"
ok cat record.out
# trace-cmd record leaves its time-sync instance behind (the lab's check would fail the case)
rmdir /sys/kernel/tracing/instances/clock_synch-* 2>/dev/null
await synced
set -- $GOT
PING_PID=$1 SYNC_BOUND=$2
SERVE_PID=$(sed -n 's/^pingnet \([0-9]*\) serving.*/\1/p' record.out)
SERVE_PID=${SERVE_PID:-none} SERVE_FILE=trace.dat PING_FILE=trace-$LAB_NET_HOST.dat
. "$LAB_SRC/tests/kernel/causality.inc"
