# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2004 # HOST_INDEX is associative (declared by parse_args): its $h is a key
#
# atio-parallel.sh, sourced part: the host lists. Hosts files, NodeSet
# ranges (node[001-128]) expanded without a fork, and the list of hosts
# (HOSTS) with each host named once.

# Print the host lists of hosts file $1 (a host, or a NodeSet such as
# node[001-128], see nodeset_expand), one a line as "LINENO LIST", without
# comments and blanks; a line may end in CR LF. Exit 2 for a directory, a
# NUL byte (which the shell would cut the line at: host<NUL>evil read as
# host) or a byte order mark at the start, each named. The file is read
# once: it may be a pipe (-h <(...)).
read_hosts_file() {
	local line word n=0 blank=$' \t' text="" rest="" nl nul=0
	local -a lines
	[ ! -d "$1" ] || die "-h $1: is a directory: give a file of hosts, one a line"
	[ -e "$1" ] || die "-h $1: no such hosts file"
	[ -r "$1" ] || die "-h $1: cannot read the hosts file"
	# All of it, up to a NUL byte if there is one (read then succeeds).
	{
		if IFS= read -r -d '' text; then nul=1; IFS= read -r -d '' rest || true; fi
	} <"$1"
	if [ "$nul" = 1 ]; then
		nl=${text//[!$'\n']/}
		line=${text##*$'\n'}\\0${rest%%$'\n'*}
		die "-h $1 line $((${#nl} + 1)): $(shown "$line"): a NUL byte (\\0) in the line: a hosts file is text, one host or host list per line"
	fi
	[[ $text != $'\xef\xbb\xbf'* ]] ||
		die "-h $1: begins with a UTF-8 byte order mark (bytes EF BB BF, invisible in most editors): save it as plain text without one"
	mapfile -t lines <<<"$text"
	for line in ${lines[@]+"${lines[@]}"}; do
		line=${line%$'\r'} n=$((n + 1))
		# Without comment and blanks around, by pattern: no fork, no
		# here-string a line.
		word=${line%%#*}
		word=${word#"${word%%[!"$blank"]*}"}
		word=${word%"${word##*[!"$blank"]}"}
		[[ $word != *["$blank"]* ]] || die "-h $1 line $n: $(shown "$line"): one host or host list per line"
		[ -z "$word" ] || printf '%s %s\n' "$n" "$word"
	done
}

# The most hosts the host arguments and -h files may name together: a
# range that names more is a slip (node[1-100000] for node[1-1000]).
NODESET_MAX=100000

# Exit 2 saying that host list $1 (from $2, as "-h FILE line N", if not
# empty) is bad: $3.
nodeset_die() {
	die "${2:+$2: }host $(shown "$1"): $3"
}

# Set NODESET to the hosts that host list $1 names, in order, as
# ClusterShell's nodeset and pdsh read it: patterns separated by commas
# outside brackets (node[1-2],login1), each pattern text with [...] groups
# of numbers and ranges separated by commas: N, N-M, and N-M/S for every
# S-th number from N to M (n[1-3,7,10-12/2]). A bound written with a
# leading zero sets the width of every number of its range (node[001-128]
# is node001 ... node128). Several groups in a pattern name every
# combination, the first group varying slowest (r[1-2]n[1-2] is r1n1 r1n2
# r2n1 r2n2). A list without brackets or commas, such as an IPv6 address
# (fe80::1) or an ssh-config alias, is one host as written. Exit 2, naming
# the bad text, for an unclosed or stray bracket, an empty group, item or
# name, a range from high to low, a step of 0, bounds of different widths
# where one is zero-padded, a group with anything but digits, - , and /
# (an IPv6 address is written bare: [::1] is refused), or more than
# NODESET_MAX hosts. $2, if given, says where the list comes from. No
# command is forked, whatever the number of hosts.
nodeset_expand() {
	# Most hosts are one name: at once (bash copies a function's body at
	# each call: this one stays small).
	NODESET=("$1")
	[[ $1 == *[][,]* || -z $1 ]] || return 0
	nodeset_patterns "$@"
}

# nodeset_expand of a list $1 with brackets or commas (or an empty one).
nodeset_patterns() {
	local list=$1 where=${2:-} rest=$1 lit text group item lo hi step width count total=0 n i j
	local -a segs items ranges names cur grown
	NODESET=()
	[ -n "$list" ] || nodeset_die "$list" "$where" "an empty host name"
	while :; do
		# One pattern, up to a comma outside brackets, into segs: its
		# text and groups in turn (text, group, ..., text), a group as
		# "WIDTH FIRST LAST STEP" of each of its ranges. Its hosts are
		# counted before any is made.
		segs=() count=1 lit=""
		while :; do
			text=${rest%%[][,]*}
			lit+=$text rest=${rest:${#text}}
			case $rest in
			']'*) nodeset_die "$list" "$where" "a ']' without its '['" ;;
			'['*) ;;
			*) break ;;
			esac
			[[ $rest == *']'* ]] || nodeset_die "$list" "$where" "a '[' without its ']'"
			group=${rest:1} group=${group%%]*} rest=${rest#*]}
			[[ $group != *'['* ]] ||
				nodeset_die "$list" "$where" "a '[' inside $(shown "[$group]"): brackets do not nest"
			[ -n "$group" ] || nodeset_die "$list" "$where" "an empty []: give numbers and ranges, such as [1-4,7]"
			[[ ,$group, != *,,* ]] || nodeset_die "$list" "$where" "an empty item in $(shown "[$group]")"
			[[ $group != *:* ]] ||
				nodeset_die "$list" "$where" "$(shown "[$group]") is no range of numbers: write an IPv6 address without brackets ($(shown "$group"))"
			items=() text=$group,
			while [ -n "$text" ]; do
				items+=("${text%%,*}") text=${text#*,}
			done
			ranges=() n=0
			for item in "${items[@]}"; do
				if ! [[ $item =~ ^([0-9]{1,18})(-([0-9]{1,18})(/([0-9]{1,18}))?)?$ ]]; then
					[[ ! $item =~ ^[0-9/-]+$ ]] || [[ ! $item =~ [0-9]{19} ]] ||
						nodeset_die "$list" "$where" "$(shown "$item") in $(shown "[$group]"): a number of more than 18 digits"
					nodeset_die "$list" "$where" "$(shown "$item") in $(shown "[$group]") is not a number N, a range N-M or a range with a step N-M/S"
				fi
				lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[3]:-${BASH_REMATCH[1]}} step=${BASH_REMATCH[5]:-1}
				width=1
				[[ $lo != 0?* ]] || width=${#lo}
				if [ "${#hi}" -lt "$width" ] || { [[ $hi == 0?* ]] && [ "${#hi}" != "$width" ]; }; then
					nodeset_die "$list" "$where" "$(shown "$item") in $(shown "[$group]"): its bounds have different widths; write both with as many digits (zero-padded), such as 01-10"
				fi
				[ "$((10#$lo))" -le "$((10#$hi))" ] ||
					nodeset_die "$list" "$where" "$(shown "$item") in $(shown "[$group]") goes from high to low: write $hi-$lo"
				[ "$((10#$step))" -gt 0 ] || nodeset_die "$list" "$where" "$(shown "$item") in $(shown "[$group]"): a step of 0"
				n=$((n + (10#$hi - 10#$lo) / 10#$step + 1))
				[ "$n" -le "$NODESET_MAX" ] ||
					nodeset_die "$list" "$where" "$(shown "[$group]") names more than $NODESET_MAX hosts"
				ranges+=("$width $((10#$lo)) $((10#$hi)) $((10#$step))")
			done
			count=$((count * n))
			[ "$((total + count))" -le "$NODESET_MAX" ] ||
				nodeset_die "$list" "$where" "names more than $NODESET_MAX hosts"
			segs+=("$lit" "${ranges[*]}") lit=""
		done
		segs+=("$lit")
		[ -n "${segs[*]}" ] || nodeset_die "$list" "$where" "an empty name before or after a comma"
		total=$((total + count))
		# The hosts: after each name so far, the next text and each
		# number of the next group.
		cur=("")
		for ((i = 0; i + 1 < ${#segs[@]}; i += 2)); do
			read -ra ranges <<<"${segs[i + 1]}"
			names=()
			for ((j = 0; j < ${#ranges[@]}; j += 4)); do
				if [ "${ranges[j]}" = 1 ]; then
					for ((n = ranges[j + 1]; n <= ranges[j + 2]; n += ranges[j + 3])); do
						names+=("$n")
					done
				else
					for ((n = ranges[j + 1]; n <= ranges[j + 2]; n += ranges[j + 3])); do
						printf -v item '%0*d' "${ranges[j]}" "$n"
						names+=("$item")
					done
				fi
			done
			grown=()
			for item in "${cur[@]}"; do
				grown+=("${names[@]/#/"$item${segs[i]}"}")
			done
			cur=("${grown[@]}")
		done
		NODESET+=("${cur[@]/%/"${segs[i]}"}")
		case $rest in
		,*) rest=${rest:1} ;;
		*) break ;;
		esac
	done
}

# Print where host list number $1 (of HOST_LISTS) comes from, for a
# message: 'LIST', and " (-h FILE line N)" for a line of a hosts file.
host_origin() {
	local where=${HOST_WHERES[$1]}
	printf '%s%s' "$(shown "${HOST_LISTS[$1]}")" "${where:+ ($where)}"
}

# Exit 2: host $1, already in HOSTS, is named again by the last host list
# of HOST_LISTS. Name it and both lists (only it, when both are just it).
host_twice() {
	local i=${HOST_INDEX[$1]} a b
	a=$(host_origin "${HOST_LIST_OF[i]}") b=$(host_origin "$((${#HOST_LISTS[@]} - 1))")
	[ "$a" != "'$1'" ] || [ "$b" != "'$1'" ] || die "host $(shown "$1") is given twice: each node once"
	die "host $(shown "$1") is given twice, by $a and by $b: each node once"
}

# Add the hosts of host list $1 (nodeset_expand; $2, if not empty, where it
# comes from, as "-h FILE line N") to HOSTS. Exit 2 for a host already
# there, naming it and the lists that gave it each time, or for more than
# NODESET_MAX hosts in all. HOST_INDEX[HOST] is a host's place in HOSTS;
# HOST_LIST_OF[PLACE] the place of the list that gave it in HOST_LISTS
# and HOST_WHERES.
add_hosts() {
	local h k=${#HOST_LISTS[@]}
	nodeset_expand "$1" "${2:-}"
	HOST_LISTS+=("$1") HOST_WHERES+=("${2:-}")
	[ "$((${#HOSTS[@]} + ${#NODESET[@]}))" -le "$NODESET_MAX" ] ||
		die "more than $NODESET_MAX hosts in all (the host arguments and -h files)"
	for h in "${NODESET[@]}"; do
		[ -z "${HOST_INDEX[$h]:-}" ] || host_twice "$h"
		HOST_INDEX[$h]=${#HOSTS[@]}
		HOSTS+=("$h") HOST_LIST_OF+=("$k")
	done
}
