# The host's end of net-tracecmd-to-listen: tracekit listen on 127.0.0.1, two clients (the
# guest's trace-cmd, TCP then UDP) from the guest's address as the host sees it (slirp's
# connections come from 127.0.0.1).  With -t every getppid call arrives; over UDP the events
# arrive or the listener counts pages lost; trace-cmd report and tracekit report agree.
mkdir got
# a free port, and another if someone else took it first
for try in 1 2 3; do
	tk listen -p "$(free_port)" -d got --clients 2 --json >listen.json 2>listen.err &
	LPID=$!
	for i in $(seq 50); do grep -qs listening listen.json && break; sleep 0.2; done
	port=$(sed -n 's/.*"event":"listening".*"port":\([0-9]*\).*/\1/p' listen.json)
	[ -n "$port" ] && break
	cat listen.err
done
trap 'kill $LPID 2>/dev/null' EXIT
[ -n "$port" ] || fail "tracekit listen did not start: $(cat listen.err)"
signal listening "$port"
await recorded 600
wait $LPID || fail "tracekit listen failed: $(cat listen.err)"
ok cat listen.json
count '"event":"done".*"complete":true' 2
for t in tcp udp; do
	line=$(grep "\"transport\":\"$t\"" listen.json | grep '"event":"done"')
	f=$(echo "$line" | sed -n 's/.*"file":"\([^"]*\)".*/\1/p')
	lost=$(echo "$line" | sed -n 's/.*"lost_pages":\([0-9]*\).*/\1/p')
	echo "$f" | grep -qE '^trace\.localhost:[0-9]+\.dat$' || fail "$t: file name '$f'"
	ok trace-cmd report -i "got/$f"
	theirs=$(grep -c 'sys_enter_getppid' "$OUT")
	ok tk report -i "got/$f"
	ours=$(grep -c 'sys_enter_getppid' "$OUT")
	dropped=$(grep -c 'EVENTS DROPPED' "$OUT")
	echo "$t: trace-cmd report $theirs, tracekit report $ours getppid events, $lost pages lost"
	[ "$ours" = "$theirs" ] || fail "$t: the two reports differ"
	if [ "$dropped" != 0 ]; then
		echo "$t: the kernel dropped events before trace-cmd read them ($dropped marks)"
	elif [ $t = tcp ] || [ "$lost" = 0 ]; then
		[ "$ours" = 3000 ] || fail "$t: $ours of 3000 events and no loss counted"
	fi
	[ "$ours" -gt 0 ] || fail "$t: no events"
done
ls got | grep -q '\.cpu' && fail "per-CPU temp files left: $(ls got)"
true
