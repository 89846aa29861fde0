# The host's end of net-record-to-tracecmd-listen: trace-cmd listen (3.1.6) takes the guest's
# tracekit record -N -t; its file has every one of the 3000 getppid calls, read alike by
# trace-cmd report and tracekit report.  (trace-cmd listen takes no port 0: a free one is
# picked, and another if someone else got it first.)  It forks a process per client: it and
# its children are stopped at the end; it stays in this script's process group, so the lab's
# kill of that group (a host part past its time) takes it too.
mkdir got
for try in 1 2 3; do
	port=$(free_port)
	trace-cmd listen -p "$port" -d got >listen.out 2>&1 &
	LPID=$!
	sleep 2
	kill -0 $LPID 2>/dev/null && break
	cat listen.out
done
# TERM, not INT: a background job of a script starts with SIGINT ignored, and trace-cmd
# listen stayed (one left listening per run).
trap 'pkill -TERM -P $LPID; kill -TERM $LPID 2>/dev/null; sleep 1;
	pkill -KILL -P $LPID; kill -KILL $LPID 2>/dev/null' EXIT
kill -0 $LPID 2>/dev/null || fail "trace-cmd listen did not start"
signal listening "$port"
await recorded 600
# trace-cmd writes the file after the client's CLOSE and a pause; its per-CPU files go last
for i in $(seq 60); do
	f=$(ls got | grep '\.dat$' | head -1)
	[ -n "$f" ] && [ -s "got/$f" ] && ! ls got | grep -q '\.cpu' && break
	sleep 0.5
done
sleep 1
ok ls got
echo "$f" | grep -qE '^trace\.localhost:[0-9]+\.dat$' || fail "file name '$f'"
ok trace-cmd report -i "got/$f"
theirs=$(grep -c 'sys_enter_getppid' "$OUT")
ok tk report -i "got/$f"
ours=$(grep -c 'sys_enter_getppid' "$OUT")
echo "trace-cmd report $theirs, tracekit report $ours getppid calls"
[ "$theirs" = 3000 ] || fail "trace-cmd report: $theirs of 3000 getppid calls"
[ "$ours" = 3000 ] || fail "tracekit report: $ours of 3000 getppid calls"
