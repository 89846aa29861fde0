# Return probes show the real return value: cat reads a file of 1234 bytes (read returns
# 1234, then 0) and opens one that does not exist (-ENOENT).  r:, the p ...%return
# spelling and r16 (maxactive) all register and fire.
printf '%01234d' 0 >data1234
ok tk probe trace 'r:tk/read ksys_read ret=$retval:s64' 'p:tk/read2 ksys_read%return r=$retval:s32' \
	'r16:tk/open do_sys_openat2 fd=$retval:s32' \
	-- sh -c 'cat data1234 >/dev/null; cat missing-file 2>/dev/null; true'
has 'cat-[0-9]+ .* read: \([^ ]+ <- ksys_read\) ret=1234$'
has 'cat-[0-9]+ .* read: \([^ ]+ <- ksys_read\) ret=0$'
has 'cat-[0-9]+ .* read2: \([^ ]+ <- ksys_read\) r=1234$'
has 'cat-[0-9]+ .* open: \([^ ]+ <- do_sys_openat2\) fd=3$'
has 'cat-[0-9]+ .* open: \([^ ]+ <- do_sys_openat2\) fd=-2$'

# maxactive reaches the kernel: its line keeps r16.
ok tk probe add 'r16:tk/ra ksys_read n=$retval:s64'
ok cat /sys/kernel/tracing/kprobe_events
has '^r16:tk/ra ksys_read n=\$retval:s64$'
ok tk probe del tk/ra
