# trace-cmd record -N streams to tracekit listen on the guest's loopback (trace-cmd record
# changes the top-level tracing state, so it runs here, not on the shared machine).  With -t
# (TCP) every one of the command's 3000 getppid calls arrives; over UDP they arrive or the
# listener counts pages lost.  trace-cmd report and tracekit report read the files alike.
# (Under TCG on a loaded host trace-cmd's reader can fall behind the kernel's ring buffer: that
# loss is the kernel's, marked in the pages, and both reports show it as [EVENTS DROPPED].)
# lab: timeout 300
ip link set lo up 2>/dev/null || busybox ip link set lo up
LOOP=$LAB_BUILD/tests/progs/loop
mkdir got
tk listen -p 1600 -d got --clients 2 --json >listen.json 2>listen.err &
LPID=$!
for i in 1 2 3 4 5 6 7 8 9 10; do grep -q listening listen.json && break; sleep 0.5; done
ok trace-cmd record -b 4096 -N 127.0.0.1:1600 -t -e syscalls:sys_enter_getppid -F "$LOOP" getppid 3000
ok trace-cmd record -b 4096 -N 127.0.0.1:1600 -e syscalls:sys_enter_getppid -F "$LOOP" getppid 3000
wait $LPID || fail "tracekit listen failed: $(cat listen.err)"
cp got/*.dat /run/lab/ 2>/dev/null
ok cat listen.json
count '"event":"done".*"complete":true' 2
for t in tcp udp; do
	line=$(grep "\"transport\":\"$t\"" listen.json | grep '"event":"done"')
	f=$(echo "$line" | sed -n 's/.*"file":"\([^"]*\)".*/\1/p')
	lost=$(echo "$line" | sed -n 's/.*"lost_pages":\([0-9]*\).*/\1/p')
	echo "$f" | grep -qE '^trace\.[A-Za-z0-9.]+:[0-9]+\.dat$' || fail "$t: file name '$f'"
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
