# The host's end of net-agent-reverse: tracekit agent for the guest's trace-cmd record -A (its
# connections come through qemu's user network from 127.0.0.1), and pingnet ping to the
# guest's pingnet serve through the forwarded port 1515 while the agent records.
for try in 1 2 3; do
	port=$(free_port)
	tk agent -p "$port" --sessions 1 >agent.out 2>&1 &
	APID=$!
	for i in $(seq 50); do grep -qs listening agent.out && break; sleep 0.2; done
	grep -qs listening agent.out && break
	cat agent.out
done
trap 'kill $APID 2>/dev/null' EXIT
show_on_fail agent.out
grep -qs listening agent.out || fail "tracekit agent did not start"
signal agent "$port"
await serving 240
"$LAB_BUILD/tests/progs/pingnet" ping 127.0.0.1 "$GOT" 20 >ping.out 2>&1 &
PPID_=$!
wait $PPID_ || fail "pingnet ping failed: $(cat ping.out)"
wait $APID || fail "tracekit agent failed: $(cat agent.out)"
ok cat agent.out
has 'time sync \(ptp\)'
signal synced "$PPID_ $(sed -n 's/.*within +-\([0-9]*\) ns.*/\1/p' agent.out)"
