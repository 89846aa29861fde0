# Host and guest on one clock, tracekit at both ends: tracekit agent here, tracekit record -A on
# the host (net-agent-tracekit.host.sh), over the lab's forwarded ports (the agent's data and
# time-sync ports from 1500 up, its own at 1514).  The guest runs pingnet serve, which the host's
# pingnet ping talks to at 1515; the host part checks cause before effect in the merged files.
# lab: net
# lab: timeout 300
first=${LAB_NET_PORTS%-*}
last=${LAB_NET_PORTS#*-}
"$LAB_BUILD/tests/progs/pingnet" serve "$last" 20 >serve.out 2>&1 &
SPID=$!
tk agent -p $((last - 1)) --address 0.0.0.0 -N "$LAB_NET_HOST" --sessions 1 >agent.out 2>&1 &
APID=$!
show_on_fail agent.out serve.out
trap 'kill $SPID $APID 2>/dev/null' EXIT
for i in $(seq 100); do
	grep -qs serving serve.out && grep -qs listening agent.out && break
	sleep 0.2
done
grep -qs listening agent.out || fail "tracekit agent did not start: $(cat agent.out)"
signal ready "$((last - 1)) $last $SPID"
wait $APID || fail "tracekit agent failed: $(cat agent.out)"
wait $SPID || fail "pingnet serve failed: $(cat serve.out)"
ok cat agent.out serve.out
has 'time sync \(ptp\)'
signal done
