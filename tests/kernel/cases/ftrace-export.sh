# export puts function_graph calls on their thread as nested slices, in Chrome JSON and in
# Perfetto's protobuf (track events), as many as tracekit calls counts
# (tests/kernel/fg_slices.py reads both files back).
echo abc >in.txt
ok tk record -p function_graph -g vfs_read -F -o g.dat -- cat in.txt
ok tk export --format chrome -o g.json g.dat
ok tk export --format perfetto -o g.pftrace g.dat
ok tk calls --json --top 0 g.dat
cp "$OUT" calls.json
ok python3 "$LAB_SRC/tests/kernel/fg_slices.py" g.json g.pftrace calls.json
has '^chrome: [1-9][0-9]* slices nest ([2-9]|[1-9][0-9]+) deep \(0 calls without their entry\)$'
has '^perfetto: [1-9][0-9]* slices nest ([2-9]|[1-9][0-9]+) deep \(0 calls without their entry\)$'
