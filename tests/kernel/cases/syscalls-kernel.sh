# tracekit syscalls --kernel on Debian's stock kernel, the one a Debian 12 user runs: the BPF
# program loads and passes that kernel's verifier (--kernel=bpf: no fallback to ftrace) and the
# lines are strace's, for one-record calls (openat, read, write), a call that never returns and a
# read that waits.
echo abc >in.txt
ok tk syscalls --kernel=bpf -e trace=openat,read,write,exit_group -o t.txt -- head -c 4 in.txt
has '^abc$'
ok cat t.txt
has '^openat\(AT_FDCWD, "in.txt", O_RDONLY\) += 3$'
has '^read\(3, "abc\\n", 4\) += 4$'
has '^write\(1, "abc\\n", 4\) += 4$'
has '^exit_group\(0\) += \?$'
has '^\+\+\+ exited with 0 \+\+\+$'
# The read waits 2 s (its entry is taken from the task's slot meanwhile): one line at the end.
ok sh -c "sleep 2 | $TRACEKIT syscalls --kernel=bpf -e trace=read -o w.txt -- head -c 1"
ok cat w.txt
has '^read\(0, "", 1\) += 0$'
ok tk syscalls --kernel=bpf -c -o c.txt -- head -c 4 in.txt
ok cat c.txt
has '^100\.00 .* total$'
# -yy: descriptors looked up by the BPF program while each call runs (its walk to the root passes
# this kernel's verifier): one inherited from before the trace, a device's numbers, and fd 6
# closed and reused right after, each line with what its call saw.
ok sh -c "exec 5</dev/null; exec $TRACEKIT syscalls --kernel=bpf -yy -e trace=dup2,close -o y.txt -- sh -c 'exec 6<&5; exec 6<&-; exec 6<in.txt; exec 6<&-'"
ok cat y.txt
has '^dup2\(5</dev/null<char 1:3>>, 6\) += 6</dev/null<char 1:3>>$'
has '^close\(6</dev/null<char 1:3>>\) += 0$'
has '^dup2\(3</.*/in\.txt>, 6\) += 6</.*/in\.txt>$'
has '^close\(6</.*/in\.txt>\) += 0$'
# --pidns-translation: the program sends a task's ids in each PID namespace (reading struct pid
# through BTF, which 6.1's verifier checks too); sh, pid 1 of a new namespace, is gone from /proc
# before its line prints, and still gets its number here.
ok tk syscalls --kernel=bpf --pidns-translation -f -e trace=getpid -o p.txt -- unshare -pf sh -c 'exit 0'
ok cat p.txt
has 'getpid\(\) += 1 /\* [0-9]+ in strace.s PID NS \*/$'
