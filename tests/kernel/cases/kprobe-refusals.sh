# What the kernel refuses comes back with its error_log reason and tracekit's why:
# the kprobe blacklist (do_int3, kprobe_*), a name this kernel lacks (with the closest
# ones), a data symbol.  Nothing is left behind (the lab checks after every case).
refused tk probe trace 'p do_int3' -- true
has "the kernel refused 'p:[a-z0-9_]+/do_int3 do_int3': Failed to register probe event .*: do_int3 is on the kernel's kprobe blacklist"
refused tk probe add 'p:tk/kp kprobe_int3_handler'
has 'kprobe_int3_handler is on the kernel.s kprobe blacklist \(/sys/kernel/debug/kprobes/blacklist\)'
refused tk probe trace 'p do_sys_openat3' -- true
has 'Invalid probed address or symbol .*: this kernel has no function do_sys_openat3 \(did you mean do_sys_openat2'
refused tk probe add 'p:tk/j jiffies_64'
has "jiffies_64 is data \\('D' in /proc/kallsyms\\), not code"
refused tk probe add 'p:tk/x vfs_read a=%rdi'
has "column 19: unknown register '%rdi' \(did you mean %di\?\)"
refused tk record --probe 'p do_int3' -o x.dat -- true
has 'do_int3 is on the kernel.s kprobe blacklist'
