#!/usr/bin/env bash
# Drives the bash completion (completion/tracekit.bash) the way bash calls it: the
# command line split into COMP_WORDS at blanks and at ':' and '=' outside quotes,
# then _tracekit, then COMPREPLY checked.  Every option a verb's help lists (read by
# tests/pkg/help_options.py, independently of the completion's own reading) must
# complete.  Usage: test_completion.sh TRACEKIT COMPLETION_FILE HELP_OPTIONS_DIR
set -u
tracekit=$(realpath "$1")
completion=$2
pydir=$(realpath "$3")

. /usr/share/bash-completion/bash_completion || { echo "bash-completion is not installed"; exit 1; }
. "$completion"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
touch trace.dat out.txt
mkdir mods

failed=0
# complete LINE: COMPREPLY for the cursor at the end of LINE.
complete_line()
{
	local line=$1 word= q= c i
	COMP_WORDS=()
	for ((i = 0; i < ${#line}; i++)); do
		c=${line:i:1}
		if [[ -n $q ]]; then
			word+=$c
			[[ $c == "$q" ]] && q=
		elif [[ $c == [\'\"] ]]; then
			word+=$c
			q=$c
		elif [[ $c == ' ' ]]; then
			[[ -n $word ]] && COMP_WORDS+=("$word")
			word=
		elif [[ $c == [:=] ]]; then
			[[ -n $word ]] && COMP_WORDS+=("$word")
			COMP_WORDS+=("$c")
			word=
		else
			word+=$c
		fi
	done
	COMP_WORDS+=("$word")
	[[ -z $word && ${COMP_WORDS[-2]:-} == [:=] ]] && unset 'COMP_WORDS[-1]'
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_WORDS[0]=$tracekit
	COMP_LINE="$tracekit ${line#tracekit }"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_tracekit
}

# expect LINE WORD...: every WORD is among the completions of LINE.
expect()
{
	local line=$1 w r found
	shift
	complete_line "$line"
	for w in "$@"; do
		found=
		for r in "${COMPREPLY[@]}"; do
			[[ $r == "$w" ]] && found=1 && break
		done
		if [[ -z $found ]]; then
			echo "FAIL: '$line' does not complete to '$w' (got: ${COMPREPLY[*]:0:20})"
			failed=1
		fi
	done
}

# only LINE WORD...: the completions of LINE are exactly the WORDs.
only()
{
	local line=$1
	shift
	complete_line "$line"
	local got="${COMPREPLY[*]}" want="$*"
	got=$(printf '%s\n' $got | sort | tr '\n' ' ')
	want=$(printf '%s\n' $want | sort | tr '\n' ' ')
	if [[ $got != "$want" ]]; then
		echo "FAIL: '$line' completes to '$got', expected '$want'"
		failed=1
	fi
}

verbs=$(python3 -c "import sys; sys.path.insert(0, '$pydir'); import help_options as h; print(' '.join(h.verbs('$tracekit')))")
only 'tracekit ' $verbs --help --version
only 'tracekit rec' record
only 'tracekit help sch' sched

# Every option of every verb, as its help lists it.
for verb in $verbs; do
	[[ $verb == help ]] && continue
	opts=$(python3 -c "import sys; sys.path.insert(0, '$pydir'); import help_options as h; print(' '.join(h.options(h.help_text('$tracekit', '$verb'))))")
	[[ -n $opts ]] || { echo "FAIL: no options read from 'tracekit help $verb'"; failed=1; }
	expect "tracekit $verb -" $opts
done

# syscalls -e: the expression's keys, syscall names, classes, negation.
only 'tracekit syscalls -e tr' trace=
expect 'tracekit syscalls -e trace=opena' openat
expect 'tracekit syscalls -e trace=open,%fi' open,%file
expect 'tracekit syscalls -f -e trace=!clo' '!close' '!clone'
only 'tracekit syscalls -S ca' calls
# values by placeholder: files, directories
only 'tracekit syscalls -o ou' out.txt
only 'tracekit syscalls --output=ou' out.txt
only 'tracekit report tra' trace.dat
only 'tracekit view tra' trace.dat
only 'tracekit export -o x.json tra' trace.dat
only 'tracekit oops ou' out.txt
only 'tracekit list ou'
only 'tracekit reset ou'
only 'tracekit sched -i tr' trace.dat
only 'tracekit oops --modules ' mods
only 'tracekit export --format p' perfetto
# the traced command: commands, then that command's own arguments
expect 'tracekit syscalls -f -o x ech' echo
expect 'tracekit record -e sched -- tru' true
only 'tracekit syscalls -f ls ou' out.txt
# (after -e values that bash splits at '=' and ':', the command still starts at ls)
only 'tracekit syscalls -e trace=open,close ls --almost-al' --almost-all
only 'tracekit record -e sched:sched_switch -- ls --almost-al' --almost-all
# probes: subcommands, then files and the file's symbols inside the quoted spec
only 'tracekit probe ' add del list trace
expect "tracekit probe trace 'p $tracekit:cli_sec" "p $tracekit:cli_seconds"
expect "tracekit probe add 'r:ret $tracekit:cli_input_f" "r:ret $tracekit:cli_input_file"
expect "tracekit record --probe 'p $tracekit:cli_sec" "p $tracekit:cli_seconds"

# -e EVENT from tracefs when it is readable, else nothing.
events=/sys/kernel/tracing/available_events
if [[ -r $events ]] && grep -qx 'sched:sched_switch' "$events"; then
	expect 'tracekit record -e sched:sched_swi' sched_switch
	expect 'tracekit list -e sche' sched
else
	[[ ${CI:-} == true ]] && { echo "FAIL: $events is not readable under CI"; failed=1; }
	echo "note: $events not readable (not root?): checking that -e completes to nothing"
	only 'tracekit record -e sched:sched_swi'
fi

[[ $failed == 0 ]] && echo "completion: all cases pass"
exit $failed
