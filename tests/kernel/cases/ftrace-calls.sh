# tracekit calls on a function_graph recording of cat: vfs_read is the one depth-0
# function (-g vfs_read), called by cat; every function's calls and total time equal
# what trace-cmd report's lines add up to (tests/kernel/fg_totals.py); folded stacks
# start at the process and their self times add up to vfs_read's total.
echo abc >in.txt
ok tk record -p function_graph -g vfs_read -F -o g.dat -- cat in.txt
ok tk calls g.dat
has '^g.dat: [0-9]+ calls in 1 tasks$'
has '^ +[0-9]+ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} .* vfs_read$'
has '^Hottest paths'
has '^ +[0-9]+\.[0-9]{3} +0\.000 +[0-9]+  cat$'
has '^ +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3} +[0-9]+    vfs_read$'
ok tk calls --json --top 0 g.dat
cp "$OUT" calls.json
ok trace-cmd report -i g.dat
cp "$OUT" theirs.txt
ok python3 "$LAB_SRC/tests/kernel/fg_totals.py" theirs.txt calls.json
has '^[0-9]+ functions agree$'
ok tk calls --folded g.dat
has '^cat;vfs_read [0-9]+$'
lacks '^[^c]'
# Interrupt work the kernel recorded for cat between calls (irq_enter_rcu, irq_exit_rcu ...
# at depth 0: seen on a slow sanitized run) is its own stack; everything else is under vfs_read.
awk '{ split($1, f, ";"); if (f[2] != "vfs_read" && f[2] !~ /^(irq_|__irq_|sysvec_|__sysvec_|asm_)/) print }' \
	"$OUT" >other.txt
[ ! -s other.txt ] || fail "depth-0 calls besides vfs_read and interrupt work: $(head -3 other.txt)"
folded=$(awk '$1 ~ /^cat;vfs_read(;|$)/ { s += $NF } END { print s }' "$OUT")
total=$(python3 -c 'import json,sys; print([f["total_ns"] for f in json.load(open("calls.json"))["functions"] if f["function"] == "vfs_read"][0])')
[ "$folded" = "$total" ] || fail "folded self times add up to $folded ns, vfs_read took $total ns"
ok tk calls --by thread g.dat
has '  cat-[0-9]+  vfs_read$'
refused tk calls --by cpu g.dat
has "--by 'cpu': give process, thread or all"
# A file without function_graph calls says so.
ok tk record -p function -l vfs_read -F -o f.dat -- cat in.txt
refused tk calls f.dat
has 'f.dat has no function_graph calls \(record with tracekit record -p function_graph\)'
# trace-cmd's own function_graph recording: report prints what trace-cmd prints, calls agrees.
# (Without -F: with -F and -g together, trace-cmd 3.1 recorded nothing in this guest.)
ok trace-cmd record -p function_graph -g vfs_read -o tc.dat cat in.txt
ok trace-cmd report -i tc.dat
has "funcgraph_exit: .*\|  }$"
cp "$OUT" theirs.txt
ok tk report -i tc.dat
cp "$OUT" ours.txt
ok diff ours.txt theirs.txt
ok tk calls --json --top 0 tc.dat
cp "$OUT" calls.json
ok python3 "$LAB_SRC/tests/kernel/fg_totals.py" theirs.txt calls.json
has '^[0-9]+ functions agree$'
