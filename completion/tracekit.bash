# bash completion for tracekit.                                 -*- shell-script -*-
#
# Verbs and each verb's options are read from tracekit's own help text
# (`tracekit --help`, `tracekit help VERB`), so an option completes as soon as
# --help lists it.  What an option's value completes to follows its placeholder
# there (FILE, DIR, PID, EVENT...); a few values are known here (-e of syscalls,
# probe specs, export formats).

# The verbs, from the "Verbs:" block of `tracekit --help`.
_tracekit_verbs()
{
	"$1" --help 2>/dev/null | awk '/^Verbs:/ { v = 1; next } v && /^  [a-z]/ { print $1 } v && /^$/ { v = 0 }'
}

# "OPTION PLACEHOLDER" per option of verb $2 (PLACEHOLDER "-" when it takes no
# value): tokens -x/--long on the usage lines and on lines starting with '-'.
# tests/pkg/help_options.py reads option names the same way.  Last, "@args KIND":
# what the verb's other words are by its usage lines, COMMAND (a command to run),
# FILE (a trace or log file) or "-".
_tracekit_optspec()
{
	"$1" help "$2" 2>/dev/null | awk '
	function value(rest) {
		if (rest ~ /^=[A-Za-z]/) { sub(/^=/, "", rest) }
		else if (rest ~ /^ +['\''[]?[A-Z]/) { sub(/^ +['\''[]?/, "", rest) }
		else return "-"
		match(rest, /^[A-Za-z_]+/)
		return substr(rest, 1, RLENGTH)
	}
	/^usage:/ || /^[ \t]+tracekit / {
		if ($0 ~ / \[?COMMAND/ && $0 !~ / -- COMMAND/) args = "COMMAND"
		else if (args == "" && ($0 ~ /[[|] ?FILE(\.\.\.)?\]/)) args = "FILE"
	}
	!/^usage:/ && !/^[ \t]+(-|tracekit )/ { next }
	{
		line = $0
		k = 0
		while (match(line, /(^|[ \t,[|(])--?[A-Za-z][A-Za-z0-9-]*/)) {
			tok = substr(line, RSTART, RLENGTH)
			sub(/^[ \t,[|(]/, "", tok)
			# "-o, --output=FILE": a short form takes the value of the long one after it
			pair[k] = (k > 0 && substr(line, 1, RSTART) == ", ")
			line = substr(line, RSTART + RLENGTH)
			t[k] = tok; v[k++] = value(line)
		}
		for (i = k - 1; i > 0; i--)
			if (pair[i] && v[i - 1] == "-") v[i - 1] = v[i]
		for (i = 0; i < k; i++) {
			tok = t[i]
			if (!(tok in seen) || seen[tok] == "-") seen[tok] = v[i]
			if (!(tok in order)) { order[tok] = n; names[n++] = tok }
		}
	}
	END {
		for (i = 0; i < n; i++) print names[i], seen[names[i]]
		print "@args", (args == "" ? "-" : args)
	}'
}

# The tracepoints as SYSTEM:EVENT and their systems, when tracefs is readable.
_tracekit_events()
{
	local f
	for f in /sys/kernel/tracing/available_events /sys/kernel/debug/tracing/available_events; do
		[ -r "$f" ] || continue
		awk -F: '{ print; if (!($1 in s)) { s[$1]; print $1 } }' "$f" 2>/dev/null
		return
	done
}

# Drop from each reply what readline keeps of the word: up to its last ':' or '='.
_tracekit_ltrim()
{
	local word=$1 keep i
	[[ $word == *[:=]* ]] || return 0
	keep=${word%"${word##*[:=]}"}
	for i in "${!COMPREPLY[@]}"; do
		COMPREPLY[i]=${COMPREPLY[i]#"$keep"}
	done
}

# The index in COMP_WORDS of words[$1]: _init_completion joined COMP_WORDS around ':'
# and '=', and _command_offset counts in COMP_WORDS.
_tracekit_comp_index()
{
	local want=$1 w=0 j acc=
	for ((j = 0; j < ${#COMP_WORDS[@]}; j++)); do
		((w == want)) && [[ -z $acc ]] && break
		acc+=${COMP_WORDS[j]}
		[[ $acc == "${words[w]}" ]] && { ((w++)); acc=; }
	done
	echo "$j"
}

# -e of syscalls: trace=SET, signal=..., with syscall names and %classes after trace=.
_tracekit_syscall_expr()
{
	local cmd=$1 cur=$2 head item
	if [[ $cur != *=* ]]; then
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W 'trace= signal= status= inject= fault=' -- "$cur"))
		return
	fi
	[[ $cur == trace=* ]] || return
	head=${cur%"${cur##*[=,]}"}
	item=${cur##*[=,]}
	[[ $item == [\!?]* ]] && { head+=${item:0:1}; item=${item:1}; }
	local names="$("$cmd" list --syscalls 2>/dev/null) all none
		%file %desc %process %network %signal %ipc %memory %creds %clock %stat %lstat
		%fstat %%stat %statfs %fstatfs %%statfs %pure"
	COMPREPLY=($(compgen -P "$head" -W "$names" -- "$item"))
	_tracekit_ltrim "$cur"
}

# A probe spec 'p[:EVENT] PATH:SYMBOL': files after the space, the file's symbols after
# the colon (tracekit probe list --symbols PATH).
_tracekit_probe_spec()
{
	local cmd=$1 cur=${2#[\'\"]} head path
	case $cur in
	[pr]\ *:* | [pr]:*\ *:*)
		head=${cur%%:*}
		[[ $cur == [pr]:* ]] && head=${cur#*:} && head=${cur%%"$head"}${head%%:*}
		path=${head##* }
		head+=:
		mapfile -t COMPREPLY < <(compgen -P "$head" -W "$("$cmd" probe list --symbols \
			"$path" 2>/dev/null | awk '{ print $3 }')" -- "${cur#"$head"}")
		;;
	[pr]\ * | [pr]:*\ *)
		head=${cur%"${cur##* }"}
		mapfile -t COMPREPLY < <(compgen -P "$head" -f -- "${cur##* }")
		;;
	*)
		COMPREPLY=($(compgen -W "'p 'r" -- "$cur"))
		compopt -o nospace 2>/dev/null
		;;
	esac
}

# The value of option $3 of verb $2, whose help placeholder is $4.
_tracekit_value()
{
	local cmd=$1 verb=$2 opt=$3 ph=$4
	case $verb:$opt in
	syscalls:-e) _tracekit_syscall_expr "$cmd" "$cur"; return ;;
	record:-e | list:-e | list:--events)
		COMPREPLY=($(compgen -W "$(_tracekit_events)" -- "$cur"))
		_tracekit_ltrim "$cur"
		return
		;;
	export:-f | export:--format)
		COMPREPLY=($(compgen -W 'chrome perfetto' -- "$cur")); return ;;
	syscalls:-S | syscalls:--summary-sort-by)
		COMPREPLY=($(compgen -W 'time calls errors name avg-time nothing' -- "$cur")); return ;;
	record:--probe) _tracekit_probe_spec "$cmd" "$cur"; return ;;
	esac
	case $ph in
	FILE | PATH | OUT) _filedir ;;
	DIR) _filedir -d ;;
	PID) _pids ;;
	EVENT | GLOB)
		COMPREPLY=($(compgen -W "$(_tracekit_events)" -- "$cur"))
		_tracekit_ltrim "$cur"
		;;
	esac
}

_tracekit()
{
	local cur prev words cword
	_init_completion -n := || return
	local cmd=${words[0]} verb=${words[1]}

	if ((cword == 1)); then
		COMPREPLY=($(compgen -W "$(_tracekit_verbs "$cmd") --help --version" -- "$cur"))
		return
	fi
	if [[ $verb == help ]]; then
		((cword == 2)) && COMPREPLY=($(compgen -W "$(_tracekit_verbs "$cmd")" -- "$cur"))
		return
	fi

	local -A takes=()
	local opt ph i sub= args
	while read -r opt ph; do
		takes[$opt]=$ph
	done < <(_tracekit_optspec "$cmd" "$verb")
	args=${takes[@args]:--}
	unset 'takes[@args]'
	[[ $verb == export ]] && takes[-f]=FORMAT takes[--format]=FORMAT

	# Walk the words before the cursor: option values, the probe subcommand, and
	# where a traced COMMAND starts (its words complete as that command's).
	for ((i = 2; i < cword; i++)); do
		opt=${words[i]}
		if [[ $opt == -- ]]; then
			_command_offset "$(_tracekit_comp_index $((i + 1)))"
			return
		fi
		if [[ $opt == -* ]]; then
			[[ $opt != *=* && ${takes[$opt]:--} != - ]] && ((i++))
			continue
		fi
		if [[ $verb == probe && -z $sub ]]; then
			sub=$opt
		elif [[ $args == COMMAND ]]; then
			_command_offset "$(_tracekit_comp_index "$i")"
			return
		fi
	done

	# --opt=value
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		cur=${cur#*=}
		_tracekit_value "$cmd" "$verb" "$opt" "${takes[$opt]:--}"
		return
	fi
	if [[ $prev == -* && ${takes[$prev]:--} != - ]]; then
		_tracekit_value "$cmd" "$verb" "$prev" "${takes[$prev]}"
		return
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "${!takes[*]}" -- "$cur"))
		return
	fi
	if [[ $verb == probe ]]; then
		if [[ -z $sub ]]; then
			COMPREPLY=($(compgen -W 'add del list trace' -- "$cur"))
		elif [[ $sub == add || $sub == trace ]]; then
			_tracekit_probe_spec "$cmd" "$cur"
		fi
	elif [[ $args == COMMAND ]]; then
		COMPREPLY=($(compgen -c -- "$cur"))
	elif [[ $args == FILE ]]; then
		_filedir
	fi
} &&
	complete -F _tracekit tracekit
