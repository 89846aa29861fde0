# view draws function_graph calls as a flame chart under the task's lane.  Here: the
# recording (dd's fsync on the 9p checkout, a tree a dozen calls deep) and its page's
# data; on the host (ftrace-view.host.sh) chromium draws it and test_view.py's
# view-function-graph checks the pixels and tooltips against tracekit calls.
here=$PWD
cd "$LAB_BUILD"
ok tk record -p function_graph -g vfs_fsync_range -F -e sched:sched_switch \
	-e sched:sched_waking -o "$here/fg.dat" -- dd if=/dev/zero of=ftrace-view.bin bs=4k count=16 \
	conv=fsync
rm -f ftrace-view.bin
cd "$here"
ok tk view -i fg.dat -o fg.html
ok grep -oE '"fgCalls":\{"[0-9]+":\[[0-9]+,[0-9]+,[0-9]+,[0-9]+' fg.html
has '"fgCalls"'
ok grep -o '"fgFuncs":\[[^]]*vfs_fsync_range' fg.html
cp fg.dat /run/lab/fg.dat
