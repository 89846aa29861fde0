# Host and guest on one clock with trace-cmd 3.1.6 as the guest's end: trace-cmd agent -N here,
# tracekit record -A on the host (net-agent-tracecmd.host.sh), over the lab's forwarded ports
# (trace-cmd's agent takes its data and time-sync ports from 1500 up; its own is 1514).  The
# guest runs pingnet serve, which the host's pingnet ping talks to at 1515; the host part checks
# cause before effect in the merged files.
# lab: net
# lab: timeout 300
last=${LAB_NET_PORTS#*-}
"$LAB_BUILD/tests/progs/pingnet" serve "$last" 20 >serve.out 2>&1 &
SPID=$!
trace-cmd agent -N "$LAB_NET_HOST" -p $((last - 1)) >agent.out 2>&1 &
APID=$!
show_on_fail agent.out serve.out
trap 'kill $SPID $APID 2>/dev/null' EXIT
for i in $(seq 100); do
	grep -qs serving serve.out && ss -ltn | grep -q ":$((last - 1)) " && break
	sleep 0.2
done
kill -0 $APID 2>/dev/null || fail "trace-cmd agent did not start: $(cat agent.out)"
signal ready "$((last - 1)) $last $SPID"
wait $SPID || fail "pingnet serve failed: $(cat serve.out)"
await recorded 240
ok cat agent.out serve.out
signal done
