# trace-cmd record -N in the guest streams to tracekit listen on the host, across qemu's user
# network (the guest reaches the host's 127.0.0.1 at 10.0.2.2): over TCP (-t) and UDP.  The
# host part (net-tracecmd-to-listen.host.sh) listens and checks the files; here the guest
# makes 3000 getppid calls for each.
# lab: net
# lab: timeout 300
LOOP=$LAB_BUILD/tests/progs/loop
await listening
port=$GOT
ok trace-cmd record -b 4096 -N "$LAB_NET_HOST:$port" -t -e syscalls:sys_enter_getppid -F "$LOOP" getppid 3000
ok trace-cmd record -b 4096 -N "$LAB_NET_HOST:$port" -e syscalls:sys_enter_getppid -F "$LOOP" getppid 3000
signal recorded
