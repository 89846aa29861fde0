#!/bin/bash
# strace parity judged by strace's own test suite (issue 17's oracle).
#
#   bench/strace-suite.sh [-j JOBS] [-b] [-r] [-R] [-k|-K|-m RUNS] [BUILD_DIR] [-- TEST...]
#
# Gets the Debian source package of the installed strace (adding a deb-src
# entry to apt if there is none), its build dependencies, and builds strace
# and its tests ONCE into a cache folder outside the repository:
# $TRACEKIT_STRACE_SUITE, default /var/cache/tracekit-bench/strace-suite.
# The file .built in that folder says the tests are built.  Then it runs the
# suite twice, with strace and with STRACE pointing at tracekit, and prints
# each test's result side by side, the totals, and the tests strace passes
# but tracekit does not, each with a reason taken from the test's log.
#
# STRACE points at a symlink named strace to tracekit: run under that name,
# tracekit is `tracekit syscalls` and says argv[0] in its messages, as strace
# does (the suite checks them).  Nothing rewrites options or output.
#
#   -j JOBS   tests run in parallel (default: the number of cores)
#   -b        build the cache only, run nothing
#   -r        reuse strace's results from an earlier run (strace does not
#             change between runs; tracekit does)
#   -R        run nothing: print the report of the last run again
#   -k, --kernel  also run the suite with `tracekit syscalls --kernel` as strace
#             (STRACE is then a script named strace: exec -a "$0" tracekit --kernel "$@"),
#             and print its results in a third column, its figures beside
#             the ptrace mode's
#   -K        the kernel mode only (with strace's results, and the ptrace
#             mode's of an earlier run when there are some)
#   -m RUNS   the runs to make, of strace,tracekit,kernel (the others' results
#             of an earlier run are reported beside them)
#   TEST...   run only these tests (names as in tests/Makefile: foo.gen.test)
#
# The kernel mode's figure counts, besides all tests, the tests strace
# passes that ask for none of inject=, fault= and --seccomp-bpf (what the
# kernel mode refuses: no BPF error injection in Debian's kernels, no
# seccomp filter without a tracer to stop for); a test asks for them when its
# script, or a script it sources, says so.
#
# ADAPTER=exec makes STRACE a script running `tracekit syscalls "$@"` (for
# builds that predate the strace name); SAVE_AS=NAME keeps a copy of
# tracekit's results as results/NAME.txt.
#
# Results of the last run stay in the cache's results/ folder (one line per
# test: NAME RESULT, and the logs of the tests tracekit fails).  A bench, not
# a test: `make check` never runs it, and it asserts nothing.
set -u

jobs=$(nproc)
build_only=0
reuse=0
report_only=0
runs=strace,tracekit
# --kernel is -k (the issue's name for it).
args=()
for a in "$@"; do [ "$a" = --kernel ] && args+=(-k) || args+=("$a"); done
set -- "${args[@]}"
while getopts j:brRkKm: opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	b) build_only=1 ;;
	r) reuse=1 ;;
	R) report_only=1 ;;
	k) runs=strace,tracekit,kernel ;;
	K) runs=strace,kernel ;;
	m) runs=$OPTARG ;;
	*) echo "usage: $0 [-j JOBS] [-b] [-r] [-R] [-k|-K|-m RUNS] [BUILD_DIR] [-- TEST...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
wants() { case ",$runs," in *",$1,"*) return 0 ;; esac; return 1; }
build=build
if [ $# -gt 0 ] && [ "$1" != -- ]; then
	build=$1
	shift
fi
[ "${1-}" = -- ] && shift
only_tests=("$@")

cache=${TRACEKIT_STRACE_SUITE:-/var/cache/tracekit-bench/strace-suite}
tracekit=$(readlink -f "${TRACEKIT:-$build/tracekit}")
# strace's tests give up on a test after this many seconds (their default
# is 1500: a hang would stall the bench for 25 minutes).
timeout_s=${STRACE_SUITE_TIMEOUT:-120}

say() { echo "strace-suite: $*" >&2; }
die() { say "$*"; exit 1; }

have_deb_src() {
	grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/
}

add_deb_src() {
	have_deb_src && return 0
	say "adding a deb-src entry for Debian $(. /etc/os-release; echo "$VERSION_CODENAME") to apt"
	local codename
	codename=$(. /etc/os-release; echo "$VERSION_CODENAME")
	cat >/etc/apt/sources.list.d/tracekit-deb-src.sources <<-EOF
	Types: deb-src
	URIs: http://deb.debian.org/debian
	Suites: $codename $codename-updates
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	apt-get update -q >/dev/null || die "apt-get update failed"
}

get_source() {
	src=$(ls -d "$cache"/strace-*/ 2>/dev/null | head -n 1)
	[ -n "$src" ] && [ -x "$src/configure" ] && return 0
	add_deb_src
	mkdir -p "$cache" || die "cannot create $cache (set TRACEKIT_STRACE_SUITE)"
	(cd "$cache" && apt-get source -q strace) >/dev/null || die "apt-get source strace failed"
	DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q strace >/dev/null ||
		die "apt-get build-dep strace failed"
	src=$(ls -d "$cache"/strace-*/ | head -n 1)
}

# Once: strace 6.1's src/rtnl_nh.c does not build against Debian 12's
# linux-libc-dev, hence the bundled kernel headers; mpers are not needed.
build_suite() {
	[ -e "$cache/.built" ] && return 0
	get_source
	say "building strace and its tests in $cache/build (once; takes a while)"
	mkdir -p "$cache/build"
	(cd "$cache/build" &&
	 "$src/configure" -q --enable-mpers=no --enable-bundled=yes >configure.log 2>&1 &&
	 make -j"$jobs" >make.log 2>&1 &&
	 make -j"$jobs" -C tests check TESTS= >make-tests.log 2>&1) ||
		die "build failed; see the logs in $cache/build"
	touch "$cache/.built"
}

# Runs the suite with $2 as STRACE; results/$1.txt gets "NAME RESULT" lines.
run_suite() {
	local name=$1 strace=$2 out=$cache/results/$1
	local tests_dir=$cache/build/tests
	say "running the suite with $name ($jobs jobs)"
	rm -rf "$out" && mkdir -p "$out"
	: >"$cache/results/$name.txt"
	(cd "$tests_dir" && rm -f -- *.log *.trs &&
	 STRACE="$strace" TIMEOUT_DURATION="$timeout_s" make -k -j"$jobs" check \
		${only_tests[@]:+TESTS="${only_tests[*]}"} >"$out/make.log" 2>&1)
	local trs t r
	for trs in "$tests_dir"/*.trs; do
		[ -e "$trs" ] || continue
		t=$(basename "$trs" .trs)
		r=$(sed -n 's/^:test-result: //p' "$trs" | head -n 1)
		echo "$t ${r:-ERROR}"
		case $r in PASS|SKIP) ;; *) cp "$tests_dir/$t.log" "$out/$t.log" 2>/dev/null ;; esac
	done | sort >"$cache/results/$name.txt"
}

# One line saying why a test failed: tracekit's own error if it printed one;
# for a wrong trace, the first line strace's test expected and the line
# tracekit printed instead; else the suite's failure message without the
# command line it quotes.
reason() {
	local log=$cache/results/${2:-tracekit}/$1.log line want got
	[ -e "$log" ] || { echo "no log"; return; }
	line=$(grep -m1 -E '^[^ ]*/tracekit(-kernel)?-bin/strace: ' "$log" | sed -E 's|^[^ ]*/tracekit(-kernel)?-bin/strace: |tracekit: |')
	[ -z "$line" ] && line=$(grep -m1 -E 'time limit .* exceeded' "$log")
	if [ -z "$line" ] && grep -q 'output mismatch\|failed to print expected diagnostics' "$log"; then
		want=$(grep -m1 -E '^-([^-]|$)' "$log" | cut -c2-)
		got=$(grep -m1 -E '^\+([^+]|$)' "$log" | cut -c2-)
		line="mismatch: want '${want:0:70}' got '${got:0:70}'"
	fi
	[ -z "$line" ] && line=$(grep -m1 -E '^[^ ]+\.test: ' "$log" |
		sed -E 's/^[^ ]*\.test: //; s|failed test: [^ ]*/tracekit(-kernel)?-bin/strace .* \.\./[^ ]*|failed test:|')
	[ -z "$line" ] && line=$(tail -n 1 "$log")
	echo "${line:0:200}"
}

[ "$report_only" = 0 ] && build_suite
[ "$build_only" = 1 ] && { say "built: $cache/.built"; exit 0; }
[ -x "$tracekit" ] || die "$tracekit not found; build first (make)"
command -v strace >/dev/null || die "strace is not installed"

mkdir -p "$cache/results"
if [ "$report_only" = 0 ]; then
mkdir -p "$cache/tracekit-bin"
adapter=$cache/tracekit-bin/strace
rm -f "$adapter"
if [ "${ADAPTER-link}" = exec ]; then
	# For tracekit builds older than the strace name: the same argv, through a script.
	printf '#!/bin/sh\nexec %s syscalls "$@"\n' "$tracekit" >"$adapter"
	chmod +x "$adapter"
else
	ln -s "$tracekit" "$adapter"
fi

if wants strace && { [ "$reuse" = 0 ] || [ ! -s "$cache/results/strace.txt" ]; }; then
	run_suite strace "$cache/build/src/strace"
fi
wants tracekit && run_suite tracekit "$adapter"
[ -n "${SAVE_AS-}" ] && wants tracekit && cp "$cache/results/tracekit.txt" "$cache/results/$SAVE_AS.txt"
if wants kernel; then
	# Named strace too, and run under its own path (the suite checks "$STRACE: message").
	mkdir -p "$cache/tracekit-kernel-bin"
	kadapter=$cache/tracekit-kernel-bin/strace
	# Started with stderr closed, bash keeps the script open on fd 2: closed again, as the
	# suite gave it (redirect-fds checks).
	printf '#!/bin/bash\n[ /proc/$$/fd/2 -ef "$0" ] && exec 2>&-\nexec -a "$0" %s --kernel "$@"\n' \
		"$tracekit" >"$kadapter"
	chmod +x "$kadapter"
	run_suite kernel "$kadapter"
fi
fi
for r in strace tracekit kernel; do
	[ -e "$cache/results/$r.txt" ] || : >"$cache/results/$r.txt"
done

# Whether a test asks for what the kernel mode refuses: inject=, fault=, --seccomp-bpf.
refused_in_kernel_mode() {
	local f=$src/tests/$1.test g
	[ -e "$f" ] || return 1
	for g in "$f" $(sed -n 's|^\. "\${srcdir=\.}/\([^"]*\)".*|\1|p' "$f" | grep -v '^init\.sh$'); do
		[ "${g#/}" = "$g" ] && [ "$g" != "$f" ] && g=$src/tests/$g
		grep -qE 'inject=|fault=|seccomp-bpf' "$g" 2>/dev/null && return 0
	done
	return 1
}

src=$(ls -d "$cache"/strace-*/ 2>/dev/null | head -n 1)
src=${src%/}
join -a1 -a2 -e - -o 0,1.2,2.2 "$cache/results/strace.txt" "$cache/results/tracekit.txt" |
	join -a1 -a2 -e - -o 0,1.2,1.3,2.2 - "$cache/results/kernel.txt" |
	while read -r t a b c; do
		r=-
		[ -n "$src" ] && { refused_in_kernel_mode "$t" && r=refused || r=ok; }
		echo "$t $a $b $c $r"
	done >"$cache/results/side-by-side.txt"
[ ${#only_tests[@]} -gt 0 ] &&
	grep -wFf <(printf '%s\n' "${only_tests[@]%.test}") "$cache/results/side-by-side.txt" \
		>"$cache/results/side.tmp" && mv "$cache/results/side.tmp" "$cache/results/side-by-side.txt"

printf '%-40s %-8s %-8s %-8s\n' test strace tracekit --kernel
awk '{ printf "%-40s %-8s %-8s %-8s\n", $1, $2, $3, $4 }' "$cache/results/side-by-side.txt"
echo
awk '{ s[$2]++; k[$3]++; m[$4]++; n++
	if ($2 == "PASS" && $3 == "PASS") both++
	if ($2 == "PASS" && $4 == "PASS") kboth++
	if ($2 == "PASS" && $5 == "ok") { open++; if ($4 == "PASS") kopen++ }
	if ($4 != "-") kran++
	if ($3 != "-") tran++ }
END {
	printf "%-10s %8s %8s %8s\n", "", "strace", "tracekit", "--kernel"
	split("PASS SKIP FAIL XFAIL ERROR", kinds, " ")
	for (i = 1; i <= 5; i++)
		printf "%-10s %8d %8d %8d\n", kinds[i], s[kinds[i]], k[kinds[i]], m[kinds[i]]
	printf "%-10s %8d %8d %8d\n", "total", n, tran, kran
	if (s["PASS"] && tran)
		printf "tracekit passes %d of the %d tests strace passes (%.1f%%)\n",
			both, s["PASS"], 100 * both / s["PASS"]
	if (s["PASS"] && kran)
		printf "tracekit --kernel passes %d of the %d tests strace passes (%.1f%%)\n",
			kboth, s["PASS"], 100 * kboth / s["PASS"]
	if (open && kran)
		printf "tracekit --kernel passes %d of the %d tests strace passes that ask for none of inject=, fault=, --seccomp-bpf (%.1f%%)\n",
			kopen, open, 100 * kopen / open
}' "$cache/results/side-by-side.txt"
for mode in tracekit kernel; do
	col=3 name=tracekit
	[ $mode = kernel ] && col=4 name="tracekit --kernel"
	awk -v c=$col '$2 == "PASS" && $c != "PASS" && $c != "-"' "$cache/results/side-by-side.txt" | grep -q . || continue
	echo
	echo "strace passes, $name does not:"
	awk -v c=$col '$2 == "PASS" && $c != "PASS" && $c != "-" { print $1, $c, $5 }' "$cache/results/side-by-side.txt" |
	while read -r t r why; do
		printf '%-40s %-6s %s%s\n' "$t" "$r" "$([ "$why" = refused ] && echo '(refused in kernel mode) ')" \
			"$(reason "$t" "$mode")"
	done
done
