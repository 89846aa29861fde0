# examples/kernel/kprobe_example: its handlers on kernel_clone print at every fork, and its
# kretprobe reports the new task's pid, the one the parent shell sees in $!.  Those lines
# are no kernel report for tracekit oops --dmesg.
need_module kprobe_example
ok insmod "$KO"
child=$(sh -c 'true & echo $!')
ok rmmod kprobe_example
ok dmesg
has 'kprobe_example: <kernel_clone> pre_handler: p->addr = 0x[0-9a-f]+, ip = [0-9a-f]+, flags = 0x[0-9a-f]+$'
has 'kprobe_example: <kernel_clone> post_handler: p->addr = 0x[0-9a-f]+, flags = 0x[0-9a-f]+$'
has "kprobe_example: <kernel_clone> returned $child to sh\[[0-9]+\]$"
refused tk oops --dmesg
has 'no kernel report found'
