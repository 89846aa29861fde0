#!/bin/sh
# e2e: `tracekit syscalls -f` against `strace -f` on one program.
#
#   test_syscalls_vs_strace.sh CASE [PROGRAM]
#
# CASE is a bundled program (files procs signals sockets memory polling time
# threads pidns netlink ioctls sysapi, sysapi-v/-xraw/-xverbose with -v, -X raw/verbose;
# PROGRAM is its path) or an everyday one (ls cat cp tar shpipe
# python).  The binary comes from $TRACEKIT; with TRACER=strace the second
# run is strace too, which checks the test itself.  compare.py does the work;
# this script picks the command, the threshold and the scheduling-dependent
# lines to leave out for each case.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
case_name=${1:?usage: test_syscalls_vs_strace.sh CASE [PROGRAM]}
prog=${2:-}

# Outside CI a missing prerequisite skips (exit 77) with the reason; in CI it fails.
skip() {
	if [ "${CI:-}" = true ]; then
		echo "FAIL (CI=true, cannot skip): $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}

command -v strace >/dev/null 2>&1 || skip "strace is not installed"
command -v python3 >/dev/null 2>&1 || skip "python3 is not installed"
strace -o /dev/null true 2>/dev/null || skip "ptrace is not permitted here (strace true fails)"
if [ "${TRACER:-}" != strace ]; then
	[ -n "${TRACEKIT:-}" ] || skip "TRACEKIT is not set to the tracekit binary"
	[ -x "$TRACEKIT" ] || skip "TRACEKIT=$TRACEKIT is not executable"
fi

need_prog() {
	[ -n "$prog" ] && [ -x "$prog" ] || { echo "FAIL: $case_name needs the program path" >&2; exit 1; }
	# compare.py runs the tracers in a fresh directory: the path must be absolute.
	prog=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog")
}

# Bundled programs are written to be deterministic: they must match fully,
# apart from futex waits in programs with threads (whether pthread_join has to
# wait depends on whether the thread has already gone).
min=1.0
racy=
aslr=
targs=
sysapi_calls=prctl,quotactl,quotactl_fd,msgctl,shmctl,semctl,keyctl,io_uring_setup,io_uring_enter,io_uring_register,bpf,inotify_init,memfd_create,mount_setattr,_sysctl,capset,fanotify_mark,ioprio_set,mq_open,sendmsg,io_setup,io_submit,io_getevents,io_destroy,seccomp,set_thread_area,get_thread_area,perf_event_open
case $case_name in
files|signals|sockets|memory|polling|time|sysapi|netlink)
	need_prog; set -- "$prog" ;;
sysapi-v)
	need_prog; set -- "--tracer-args=-v" --only "$sysapi_calls" -- "$prog" ;;
sysapi-xraw|sysapi-xverbose)
	# Only the program's own calls: how libc's start-up calls print under -X is
	# the everyday decoders' business (files, memory).
	need_prog; set -- "--tracer-args=-X ${case_name#sysapi-x}" --only "$sysapi_calls" -- "$prog" ;;
sockets-v)
	# Structures behind pointers in full: setsockopt's BPF filter, every
	# entry of a sendmmsg batch.
	need_prog; set -- "--tracer-args=-v" --only setsockopt,sendmmsg,recvmmsg -- "$prog" ;;
sockets-xraw|sockets-xverbose)
	# Socket addresses of every family the program uses, as bytes (-X raw) or
	# bytes with the readable form in comments (-X verbose).
	need_prog; set -- "--tracer-args=-X ${case_name#sockets-x}" --only connect,bind,getsockname -- "$prog" ;;
procs|threads)
	need_prog; racy=futex; set -- "$prog" ;;
pidns)
	# A child in a new PID namespace: pids print with --pidns-translation's
	# comments.  Its clone3 child's SIGCHLD may come before or after clone3 returns.
	need_prog; racy=SIGCHLD; targs=--tracer-args=--pidns-translation; set -- "$prog" ;;
ioctls)
	need_prog; set -- "$prog" ;;
ls)
	# The listing written to stdout shows /proc's link count (one per
	# process) and /tmp's mtime, which other tests change: one line may differ.
	min=0.99; set -- ls -la / ;;
cat)
	set -- cat /etc/passwd ;;
cp)
	set -- --setup 'printf "some data\n" > src' -- cp src dst ;;
devioctls)
	# ioctl lines only: the program's other calls are the files case's
	need_prog; set -- --setup true --only ioctl -- "$prog" ;;
devioctls-X*)
	# the same requests as numbers (-Xraw) or numbers and names (-Xverbose)
	need_prog; set -- --setup true --only ioctl --tracer-args="-${case_name#devioctls-}" -- "$prog" ;;
tar)
	set -- --setup 'mkdir d && echo a > d/a && echo b > d/b && touch -d "2020-01-01 00:00" d/a d/b d' \
		-- tar cf out.tar d ;;
shpipe)
	# Where the shell takes SIGCHLD (and returns from its handler), and so
	# where its wait4 calls fall among its other calls, depends on when each
	# side of the pipe exits.
	racy=SIGCHLD,rt_sigreturn,wait4; set -- sh -c 'echo hi | wc -c' ;;
python)
	# Whether CPython maps another arena depends on where its heap landed:
	# the same layout in both runs makes its mmap calls repeatable.
	command -v setarch >/dev/null 2>&1 || skip "setarch (util-linux) is not installed"
	# The interpreter itself, not a launcher script in front of it (pyenv shims
	# are shell scripts whose subshells make the trace racy).
	py=$(python3 -c 'import sys; print(sys.executable)')
	aslr=--no-aslr; set -- "$py" -c 'print(1)' ;;
*)
	echo "unknown case '$case_name'" >&2; exit 2 ;;
esac
case $case_name@${TRACEKIT_ARGS:-} in
procs@*--kernel*)
	# --kernel's documented difference (docs/syscalls.md): the forked child's
	# execve reads its path and argv from pages the child has not touched yet,
	# which BPF cannot fault in, so that one line prints addresses.
	min=0.99 ;;
pidns@*--kernel*)
	# One line: --kernel knows the audit socket's protocol from its socket()
	# call and decodes the sendto's message by it; strace asks
	# /proc/PID/net/netlink, which lists a netlink socket only once it is bound,
	# and sendto binds it after strace has printed the message (NLMSG_???).
	min=0.98 ;;
esac

case ${1:-} in
--setup|--tracer-args=*|--only) ;;
*) set -- -- "$@" ;;
esac
# Two runs of one program can differ by a signal landing mid-call (a restarted clone
# in the shell's trace): a mismatch gets one more pair of runs, judged the same way.
python3 "$here/compare.py" --min-match "$min" --racy "$racy" $aslr $targs --timeout 120 "$@" && exit 0
echo "retrying once: a second pair of runs"
exec python3 "$here/compare.py" --min-match "$min" --racy "$racy" $aslr $targs --timeout 120 "$@"
