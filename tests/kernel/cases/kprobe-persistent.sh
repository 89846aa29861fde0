# probe add makes persistent kprobes (and uprobes) that list shows as tracekit's, record
# -e takes like any event, and del removes; a kprobe someone else made is listed as theirs
# and left alone.
kev=/sys/kernel/tracing/kprobe_events
probed=$LAB_BUILD/tests/progs/probed
ok tk probe add 'p:tkp/open do_sys_openat2 path=+0(%si):ustring' "p:tkp/user $probed:main"
has '^added probe tkp/open$'
echo 'p:other/vr vfs_read' >>"$kev" || fail "cannot write $kev"
ok tk probe list
has '^tkp/open  p:tkp/open do_sys_openat2 path=\+0\(%si\):ustring  \[tracekit: '
has "^tkp/user  p:tkp/user $probed:0x[0-9a-f]+  \[tracekit: "
has '^other/vr  p:other/vr vfs_read$'
ok tk probe list --json
has '"group":"other","event":"vr",.*"owner":"other"'
has '"group":"tkp","event":"open",.*"owner":"tracekit"'

echo some text >words
ok tk record -e tkp:open -o p.dat -- cat words
ok tk report -i p.dat
has "cat-[0-9]+ +\[[0-9]+\] +[0-9.]+: open: +\([0-9a-f]+\) path=\"words\"$"

refused tk probe del other
has 'other was not made by tracekit probe add: left alone .*kprobe_events'
ok tk probe del tkp
has '^removed probe tkp/open$'
ok tk probe list
lacks tkp
has '^other/vr'
echo '-:other/vr' >>"$kev"
