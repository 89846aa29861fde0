# Kernel probes written in C, translated through the kernel's BTF, checked two ways: against
# values the workload makes known (a file of known name and inode read by head, the pid of a
# child sh forked, the pid python prints for its own getpid), and against bpftrace's BTF-typed
# reads (fentry, args->...) of the same members in the same calls: bpftrace runs beside
# tracekit, both filtered to the workload's comm, and their lines, made alike, must be equal.
echo hello >known-file
ino=$(stat -c %i known-file)

# bpftrace in the background until it has attached; its lines look like tracekit's args.
bt_start() {
	bpftrace -e "$1" >bt.out 2>&1 &
	BT=$!
	i=0
	until grep -q '^Attaching' bt.out; do
		i=$((i + 1))
		[ $i -lt 600 ] && kill -0 $BT 2>/dev/null || { cat bt.out; fail "bpftrace did not attach"; }
		sleep 0.2
	done
}
bt_stop() {
	kill -INT $BT
	wait $BT
	grep '^bt ' bt.out | sed 's/^bt //' | sort >bt.lines
	echo "bpftrace's lines:"; cat bt.lines
}
# tracekit's lines of EVENT as "pid=N ARGS" without quotes, sorted
tk_lines() {
	sed -nE "s/^ *[^ ]+-([0-9]+) +\[[0-9]+\] [^ ]+ +[0-9.]+: $1: \([^)]*\) (.*)$/pid=\1 \2/p" "$OUT" |
		tr -d '"' | sort >tk.lines
	echo "tracekit's lines:"; cat tk.lines
	[ -s tk.lines ] || fail "no $1 line from tracekit"
	# bpftrace sees the case's own shell too: the workload's pids are the ones tracekit traced
	cut -d' ' -f1 tk.lines | sort -u >tk.pids
	grep -F -w -f tk.pids bt.lines >bt.mine || true
	cmp -s tk.lines bt.mine || { diff tk.lines bt.mine; fail "tracekit's $1 values differ from bpftrace's"; }
}

# vfs_read: perf probe's own example, an anonymous union member (d_name.len), typedefs
# (fmode_t: u32, loff_t: s64), a char array (s_id) -- for every read head makes (head, not
# cat: cat writing to a file copies with copy_file_range, no read)
read_args='file->f_path.dentry->d_name.name:string count file->f_path.dentry->d_name.len file->f_inode->i_ino file->f_mode file->f_pos file->f_inode->i_sb->s_id'
bt_start 'kfunc:vfs_read /comm == "head"/ { printf("bt pid=%d name=%s count=%lu len=%u i_ino=%lu f_mode=%u f_pos=%ld s_id=%s\n", pid, str(args->file->f_path.dentry->d_name.name), args->count, args->file->f_path.dentry->d_name.len, args->file->f_inode->i_ino, args->file->f_mode, args->file->f_pos, args->file->f_inode->i_sb->s_id); }'
ok tk probe trace "vfs_read $read_args" -- head known-file
bt_stop
has '^hello$'
# the known file: its name, its length, its inode, read from 0 then from 6 (after "hello\n")
has "head-[0-9]+ .* vfs_read: \(vfs_read\+0x0/0x[0-9a-f]+\) name=\"known-file\" count=[0-9]+ len=10 i_ino=$ino f_mode=[0-9]+ f_pos=0 s_id=\"tmpfs\"$"
has "head-[0-9]+ .* vfs_read: \(vfs_read\+0x0/0x[0-9a-f]+\) name=\"known-file\" count=[0-9]+ len=10 i_ino=$ino f_mode=[0-9]+ f_pos=6 s_id=\"tmpfs\"$"
tk_lines vfs_read

# do_sys_openat2: a user pointer (the 6.1 BTF has no __user tag: :ustring says so) and a
# member of a struct behind the third argument
# (bpftrace's str() reads kernel memory: the name is checked against the known one only)
bt_start 'kfunc:do_sys_openat2 /comm == "head"/ { printf("bt pid=%d flags=%lu mode=%lu\n", pid, args->how->flags, args->how->mode); }'
ok tk probe trace 'do_sys_openat2 filename:ustring how->flags how->mode' -- head known-file
bt_stop
has "head-[0-9]+ .* do_sys_openat2: \(do_sys_openat2\+0x0/0x[0-9a-f]+\) filename=\"known-file\" flags=[0-9]+ mode=0$"
sed -i -E 's/ filename="[^"]*"//' "$OUT"
tk_lines do_sys_openat2

# kernel_clone (do_fork's successor): the new task's pid as $retval, typed pid_t (s32), the
# one the shell says it started; the clone args behind the first parameter
bt_start 'kfunc:kernel_clone /comm == "sh"/ { printf("bt pid=%d exit_signal=%d flags=%lu\n", pid, args->args->exit_signal, args->args->flags); }'
ok tk probe trace 'kernel_clone args->exit_signal args->flags' 'kernel_clone%return child=$retval' -- sh -c 'true & echo child=$!; wait'
bt_stop
child=$(sed -n 's/^child=//p' "$OUT")
[ -n "$child" ] || fail "the shell did not say its child's pid"
has "sh-[0-9]+ .* kernel_clone__return: \(.* <- kernel_clone\) child=$child$"
has "sh-[0-9]+ .* kernel_clone: \(kernel_clone\+0x0/0x[0-9a-f]+\) exit_signal=17 flags=[0-9]+$"
sed -i '/kernel_clone__return/d' "$OUT"
tk_lines kernel_clone

# getpid reading current: 6.1's fetch args cannot reach current; comm and pid come from the
# event, and they are python's own (it prints what getpid returned)
ok tk probe trace '__x64_sys_getpid $current->pid $current->comm' -- python3 -c 'import os; print("pid=%d" % os.getpid())'
pid=$(sed -n 's/^pid=//p' "$OUT")
[ -n "$pid" ] || fail "python did not print its pid"
has "python3-$pid .* __x64_sys_getpid: \([^)]*\) pid=$pid comm=\"python3\"$"
ok tk probe add -n -v '__x64_sys_getpid $current->pid $current->comm'
has '^# pid: no fetch arg \(kprobe fetch args cannot reach current\)'
has '^p:kprobes/__x64_sys_getpid __x64_sys_getpid comm=\$comm:string$'
refused tk probe add -n '__x64_sys_getpid $current->tgid'
has 'kprobe fetch args cannot reach the running task'

# a module's function: its BTF is /sys/kernel/btf/9pnet (split on vmlinux's); the guest's root
# is 9p, so reading a file of it goes through p9_client_read
ok tk probe add -n -v 'p9_client_read fid->fid offset'
has '^p:kprobes/p9_client_read p9_client_read fid=\+[0-9]+\(%di\):u32 offset=%si:u64$'

# the translation shown, a name misspelt, nothing left behind
ok tk probe add -n -v 'vfs_read file->f_path.dentry->d_name.name:string count'
has '^p:kprobes/vfs_read vfs_read name=\+0\(\+[0-9]+\(\+[0-9]+\(%di\)\)\):string count=%dx:u64$'
refused tk probe add -n 'vfs_read file->f_paht.dentry'
has "struct file has no member f_paht; did you mean f_path"
ok tk probe list
lacks 'tracekit_'
