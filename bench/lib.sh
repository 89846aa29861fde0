# Shared by the bash benches (sourced): timing one run and the median of $runs runs.
# A bench sets $runs (and $median_digits, default 6) before calling median.

# Seconds taken by one run of "$@", or "fail" if it exits non-zero.
time_once() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 </dev/null || { echo fail; return; }
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
}

# The median of the numbers given, to $median_digits digits; "fail" if one of them is.
median_of() {
	case " $* " in *" fail "*) echo fail; return ;; esac
	printf '%s\n' "$@" | sort -g | awk -v d="${median_digits:-6}" '{ v[NR] = $1 } END {
		if (NR % 2) m = v[(NR + 1) / 2]; else m = (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.*f\n", d, m }'
}

# Median seconds of $runs runs of "$@"; "fail" if any run failed.
median() {
	local i t all=()
	for ((i = 0; i < runs; i++)); do
		t=$(time_once "$@")
		[ "$t" = fail ] && { echo fail; return; }
		all+=("$t")
	done
	median_of "${all[@]}"
}
