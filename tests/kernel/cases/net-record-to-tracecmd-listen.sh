# tracekit record -N -t in the guest streams to trace-cmd listen on the host, across qemu's user
# network (the host's 127.0.0.1 is the guest's 10.0.2.2).  The host part
# (net-record-to-tracecmd-listen.host.sh) runs trace-cmd listen and checks its file; here the
# guest makes 3000 getppid calls.
# lab: net
# lab: timeout 300
LOOP=$LAB_BUILD/tests/progs/loop
await listening
ok tk record -N "$LAB_NET_HOST:$GOT" -t -e syscalls:sys_enter_getppid -- "$LOOP" getppid 3000
signal recorded
