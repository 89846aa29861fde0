# Helpers for the lab's cases (sourced before each case in the guest, and
# before a case's host part on the host; see docs/kernel-lab.md).  A case is a list of steps; the first failing step
# fails it with a line saying what was expected.  What each step ran and
# printed is in the case's output, which a failing meson test shows.
#
#   ok CMD...        run CMD, show its output; fail unless it exits 0
#   refused CMD...   run CMD, show its output; fail unless it exits non-zero
#   has REGEX        the last step's output has a line matching REGEX (grep -E)
#   lacks REGEX      it has none
#   count REGEX N    it has exactly N matching lines
#   fail MESSAGE     fail the case
#   show_on_fail FILE...  files (a background tool's log) that a failure prints
#   tk ARGS...       the tracekit under test ($TRACEKIT)
#   module_oops_decoded VERDICT  examples/kernel/oops's report in the last JSON output
#   need_module NAME KO=the path of examples/kernel/NAME/NAME.ko built for
#                    this kernel; fails the case (with the build log) without it
#
# Every case runs in its own empty folder ($CASE_DIR) on the guest's /tmp.  A
# host part (NAME.host.sh) runs in a temporary folder of its own, with
# CASE_OUT (the guest part's output file), CASE_RC (its status, empty when the
# guest died during it) and CONSOLE (the guest's console log; files the guest part
# copied to /run/lab are next to it).  A host part exits 77 to skip (not under CI=true).
#
# A net case's (# lab: net) two parts run at once, the guest's and the host's; they
# say where they are through files in the shared lab folder ($LAB_SHARED):
#   signal WORD [TEXT]   tell the other side WORD (with TEXT: a port, a file name)
#   await WORD [SECONDS] wait for the other side's WORD (default 240 s), its TEXT in
#                        $GOT; fails at once when the other side failed
#   free_port            a TCP port free on this side's 127.0.0.1 now
# $LAB_SIDE is host or guest; $LAB_NET_HOST is where this side reaches the other
# (the guest: 10.0.2.2, the host's loopback; the host: 127.0.0.1, forwarded to
# the guest's ports $LAB_NET_PORTS, FIRST-LAST).

OUT="$CASE_DIR/.out"

SHOW_ON_FAIL=

show_on_fail() {
	SHOW_ON_FAIL="$SHOW_ON_FAIL $*"
}

fail() {
	echo "FAIL: $*"
	for _f in $SHOW_ON_FAIL; do
		echo "== $_f"
		cat "$_f" 2>&1
	done
	[ -n "${LAB_NET_PORTS:-}" ] && : >"$LAB_SHARED/$CASE.$LAB_SIDE.failed"
	exit 1
}

signal() {
	printf '%s\n' "${2:-}" >"$LAB_SHARED/$CASE.$LAB_SIDE.$1.tmp" &&
		mv "$LAB_SHARED/$CASE.$LAB_SIDE.$1.tmp" "$LAB_SHARED/$CASE.$LAB_SIDE.$1"
}

await() {
	other=guest
	[ "$LAB_SIDE" = guest ] && other=host
	_left=$((${2:-240} * 5))
	while [ ! -e "$LAB_SHARED/$CASE.$other.$1" ]; do
		[ -e "$LAB_SHARED/$CASE.$other.failed" ] && fail "the $other's part failed (awaiting $1)"
		_left=$((_left - 1))
		[ "$_left" -gt 0 ] || fail "the $other never said $1 (${2:-240} s)"
		sleep 0.2
	done
	GOT=$(cat "$LAB_SHARED/$CASE.$other.$1")
}

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

tk() {
	"$TRACEKIT" "$@"
}

_step() {
	printf '$ %s\n' "$*"
	"$@" >"$OUT" 2>&1
	STATUS=$?
	cat "$OUT"
}

ok() {
	_step "$@"
	[ "$STATUS" = 0 ] || fail "exit $STATUS, wanted 0: $*"
}

refused() {
	_step "$@"
	[ "$STATUS" != 0 ] || fail "exit 0, wanted a refusal: $*"
}

has() {
	grep -qE -- "$1" "$OUT" || fail "no line matches /$1/ in the output above"
}

lacks() {
	! grep -qE -- "$1" "$OUT" || fail "a line matches /$1/ in the output above"
}

count() {
	n=$(grep -cE -- "$1" "$OUT")
	[ "$n" = "$2" ] || fail "$n lines match /$1/ in the output above, wanted $2"
}

need_module() {
	KO="$LAB_KMOD/$1/$1.ko"
	if [ ! -f "$KO" ]; then
		cat "$LAB_KMOD/build.log" 2>/dev/null
		fail "examples/kernel/$1 was not built for the lab's kernel (build log above)"
	fi
}

# The last step's JSON (tracekit oops --json) is examples/kernel/oops's report, decoded:
# kind, guilty frame, file:line of the store, the struct member, taint O and E, no
# MISMATCH, and verdict $1 (oops, or panic with oops=panic).
module_oops_decoded() {
	line=$(grep -n 'd->flags = 1;' "$LAB_SRC/examples/kernel/oops/oops.c" | cut -d: -f1)
	has '"kind":"null-ptr-deref"'
	has '"guilty_frame":"my_oops_init","guilty_module":"oops"'
	has "\"file\":\"[^\"]*/oops/oops.c\",\"line\":$line,"
	has '"null_member":\{"struct":"struct my_data","member":"flags"'
	has '"letter":"O"'
	has '"letter":"E"'
	has '"symbols_mismatch":false'
	# the call trace past the init function's bare "? 0xffffffffc0..." frame
	has '"function":"do_one_initcall"'
	# the log has no Code: bytes (init memory is freed): the .ko's, the store through NULL
	has '"from_file":"[^"]*oops\.ko","faulting_instruction":"mov dword ptr \[rbx \+ 8\], 1"'
	has "\"verdict\":\"$1\""
}
