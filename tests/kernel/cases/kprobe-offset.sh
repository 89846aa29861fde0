# SYMBOL+OFFS: the kernel takes an offset on an instruction boundary and refuses one
# inside an instruction.  Debian's kernel has no IBT (no endbr64): a function begins with
# the 5-byte call to __fentry__, so +5 is the next instruction and +1 is inside the call.
ok tk probe trace 'p:tk/off do_sys_openat2+5 dfd=%di:s32' -- cat /dev/null
has 'cat-[0-9]+ .* off: \(do_sys_openat2\+0x5/0x[0-9a-f]+\) dfd=-100$'
refused tk probe trace 'p:tk/bad do_sys_openat2+1' -- true
has "^tracekit: probe: the kernel refused 'p:[a-z0-9_]+/bad do_sys_openat2\+1': Probe point is not an instruction boundary"
refused tk probe trace 'r:tk/bad do_sys_openat2+5' -- true
has "a return probe goes on a function's entry"
