# The host's end of net-record-to-listen: tracekit listen on 127.0.0.1 takes the guest's
# tracekit record -N -t; the file has every one of the 3000 getppid calls (TCP loses nothing),
# read alike by trace-cmd report and tracekit report.
mkdir got
# a free port, and another if someone else took it first
for try in 1 2 3; do
	tk listen -p "$(free_port)" -d got --clients 1 --json >listen.json 2>listen.err &
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
grep '"event":"done"' listen.json | grep '"transport":"tcp"' | grep -q '"complete":true' ||
	fail "the client's file is not complete"
count '"event":"done"' 1
f=$(sed -n 's/.*"event":"done".*"file":"\([^"]*\)".*/\1/p' listen.json)
ok trace-cmd report -i "got/$f"
theirs=$(grep -c 'sys_enter_getppid' "$OUT")
ok tk report -i "got/$f"
ours=$(grep -c 'sys_enter_getppid' "$OUT")
echo "trace-cmd report $theirs, tracekit report $ours getppid calls"
[ "$theirs" = 3000 ] || fail "trace-cmd report: $theirs of 3000 getppid calls"
[ "$ours" = 3000 ] || fail "tracekit report: $ours of 3000 getppid calls"
