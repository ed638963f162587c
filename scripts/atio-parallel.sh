#!/bin/bash
# SPDX-License-Identifier: MIT
#
# atio-parallel.sh: start atio on many nodes over SSH at one instant, test
# after test and thread count after thread count, and print each node's
# result line, the sum of every run and the average of every test as
# at_io_iops' at_io_parallel.sh did, so that `grep '===' results.txt` gives
# the table. See --help and man/atio-parallel.sh.1.
#
# Sourced with ATIO_PARALLEL_LIB=1 it only defines its functions (and sets
# -eu, pipefail and LC_ALL=C), for tests to call them.

set -eu
set -o pipefail
export LC_ALL=C

PROG='atio-parallel.sh'
ALL_TESTS="seqread seqwrite randread randwrite randfsync randrw expand dsyncwrite check"
PROFILES="at_io vhi"
LOAD_TIME=1            # -t of the run that creates and fills the files
STOP_GRACE=10          # seconds atio gets to exit after SIGINT
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Print "atio-parallel.sh: MESSAGE" on stderr and exit with $2 (default 2).
die() {
	printf '%s: %s\n' "$PROG" "$1" >&2
	exit "${2:-2}"
}

# Print "atio-parallel.sh: warning: MESSAGE" on stderr.
warn() {
	printf '%s: warning: %s\n' "$PROG" "$1" >&2
}

# The help text.
usage() {
	cat <<EOF
Usage: $PROG [options] -d DIR HOST...
       $PROG [options] -d DIR -h HOSTS_FILE

Start atio on every HOST over SSH at one instant: every node's atio
prepares and says it is ready (--start-at -), then one start instant goes
to all of them over their open sessions. Each node is logged into once, in
preparation: one session per node, FANOUT of them being opened at a time,
carries every later command (runs, start instants, stops), so that a run
pays no login; how long each login took is measured, and later waits on a
node allow WAIT_FACTOR times it. For each thread count the
files are prepared ("Loading"), a short warm-up runs, then each test runs
ITERATIONS times with PAUSE seconds before each run. Each node's result
line, the sum of every run and the average of every test are printed as
at_io_iops' at_io_parallel.sh printed them: grep '===' gives the table.
HOST is a name, an address, user@host or an ssh-config alias, or a host
list that names many (see Host lists); ssh must log in without a password
(BatchMode). A node runs the atio on its login PATH
(as the RPM installs it) when that is this atio's version, else
REMOTE_BINARIES_PATH/atio, which is copied there when missing (the
directory is created). The sums, skew and cluster latency come from the
local atio's "atio merge" of the nodes' JSON results.

Options (each overrides the environment variable named beside it):
  -d DIR              REMOTE_PCS_MOUNT_PATH: test directory on the nodes
                      (required, absolute)
  -t SEC              TIME: test time in seconds (60)
  -u SIZE             FILE_SIZE: total size of a node's files (16G), or
                      auto: twice each node's RAM
  -p "N ..."          THREADS: thread counts (1 4 16); auto: each node's
                      online CPUs
  -i N                ITERATIONS: runs of each test (3)
  -s SIZE             BLOCKSIZE: block size of the random tests (4K)
  --tests "NAME ..."  TESTS: some of $ALL_TESTS
                      (the profile's)
  --profile NAME      PROFILE: at_io (at_io_parallel.sh's matrix) or vhi
                      (seed 000's fio node profiles); see Profiles (at_io)
  --pause SEC         PAUSE: seconds before each run (30)
  --remote-bin DIR    REMOTE_BINARIES_PATH: where atio is, or is copied to,
                      on nodes without this atio on their PATH (/root)
  -b FILE             AT_IO_LOCAL_PATH: the local atio, whose version the
                      nodes must have, copied to nodes that lack it
                      (default: the atio beside this script, or on PATH)
  --atio-opts "..."   ATIO_OPTS: more atio options for every run
  --ssh-opts "..."    SSH_OPTS: more ssh and scp options, e.g. "-F FILE"
  --warmup-time SEC   WARMUP_TIME: length of the warm-up run (1)
  --start-margin SEC  START_MARGIN: a run starts this long after the last
                      node is ready (0.5)
  --ready-timeout SEC READY_TIMEOUT: a node not ready this long after its
                      launch is a FAILURE, the run goes on without it (120;
                      or WAIT_FACTOR times the slowest login, when longer)
  -f N                FANOUT: SSH connections being made at once, the
                      rest queued (32)
  --login-timeout SEC LOGIN_TIMEOUT: a node whose session has not answered
                      this long after it was opened is a FAILURE (120)
  --wait-factor K     WAIT_FACTOR: a wait on a node (an answer, the ready
                      line, a stop) allows K times its measured login when
                      that is longer than the wait's own limit (4)
  --max-skew PCT      MAX_SKEW: an iteration whose start skew is above PCT
                      percent of its time is NOT CONCURRENT: out of the
                      average, exit status 1 (1)
  --overrun SEC       OVERRUN: a run still going OVERRUN seconds after its
                      time is stopped on every node (60)
  -h FILE             hosts file: one host or host list per line, # starts
                      a comment
  -o FILE             also write every result as one JSON document (FILE
                      a regular file, which it replaces, or a new name; a
                      link to a regular file leads it there)
  --replace           copy this atio over another version in
                      REMOTE_BINARIES_PATH on the nodes
  --dry-run           print what each node would run; connect to nothing
  -vv                 every node's atio runs with -vv, and once a second
                      a line on stderr: the cluster's value in the last
                      interval each node reported (their sum) and the
                      slowest node
  --help              print this help

Profiles. at_io (the default): THREADS "1 4 16", FILE_SIZE 16G, TESTS
"seqread seqwrite randread randwrite randfsync", each test with
-p N -t TIME -u FILE_SIZE -S --cached -f DIR ATIO_OPTS; files made by a
1 s sequential read ("Loading"):
  seqread    --read --seq -s 16M --mbs
  seqwrite   --write --seq -s 16M --mbs
  randread   --read --rand -s BLOCKSIZE --iops
  randwrite  --fdatasync --rand -s BLOCKSIZE --iops
  randfsync  --fsync --rand -s BLOCKSIZE -q 32 --iops
  randrw     --mix 70 --rand -s BLOCKSIZE --iops
  expand     --expand -s 16M --mbs
  dsyncwrite --write --rand -s BLOCKSIZE --dsync --iops
vhi: THREADS auto, FILE_SIZE auto, TESTS "seqread randread seqwrite
randwrite randrw expand", each test with -p N -t TIME -u FILE_SIZE -S
--uncached -f DIR ATIO_OPTS; files made by atio --prepare ("Loading"):
  seqread    --read --seq -s 1M --mbs --iodepth 32
  seqwrite   --write --seq -s 1M --mbs --iodepth 32
  randread   --read --rand -s BLOCKSIZE --iops --iodepth 32
  randwrite  --write --rand -s BLOCKSIZE --iops --iodepth 32
  randfsync  --fsync --rand -s BLOCKSIZE -q 32 --iops
  randrw     --mix 70 --rand -s BLOCKSIZE --iops --iodepth 32
  expand     --expand -s 16M --mbs
  dsyncwrite --write --rand -s BLOCKSIZE --dsync --iops
check: atio --check of every node's files (no common start, no sum): each
node's summary line, or a FAILURE naming the bad file and offset.
A --rate N in ATIO_OPTS caps each node, not the cluster: the summary
says so. With --verify in ATIO_OPTS each node says that its reads
verified, or that every block it wrote read back right after the run, and
a node whose data was bad is a FAILURE naming the file and offset.

Host lists, as ClusterShell's nodeset and pdsh write them, in arguments
and -h lines: node[001-128] is node001 ... node128 (a bound with a leading
zero sets the width), 10.0.0.[1-64] 64 addresses, n[1-3,7,10-12/2] numbers,
ranges and ranges with a step, r[1-2]n[1-4] every combination (r1n1 r1n2
... r2n4), node[1-2],login1 several lists (a comma in brackets belongs to
the range), root@node[1-4] with a user. A name without brackets or commas
(an IPv6 address such as fe80::1, an ssh-config alias) is taken as
written; an IPv6 address is written without brackets. A bad range (from
high to low, unclosed, empty, not digits) or more than 100000 hosts is
refused, naming it, and so is a host that two lists name. Quote a list
in an argument ('node[001-128]'): the shell expands [...] to file names.

Each node once: hosts that ssh -G takes to one place (X and root@X, an
alias and its address), or whose nodes say they are one machine with one
test directory, are refused.

Exit status: 0 every run complete; 1 preparation failed, or a run failed,
was incomplete or NOT CONCURRENT, or -o could not be written; 2 bad usage
(also a bad host list, a node given twice, an -o that is not a regular
file); 130
interrupted (atio stopped on every node).
EOF
}

# True when $1 is a number of seconds (digits, an optional decimal part).
is_number() {
	[[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]
}

# True when $1 is a number of seconds, maybe negative (a clock offset).
is_signed() {
	is_number "${1#-}"
}

# True when $1 is a number of seconds above zero.
is_positive() {
	is_number "$1" && awk -v t="$1" 'BEGIN { exit !(t > 0) }'
}

# True when $1 is a whole number above zero.
is_count() {
	[[ $1 =~ ^[0-9]+$ ]] && [ "$((10#$1))" -gt 0 ]
}

# True when $1 is a host the script accepts: a name, an address, user@host
# or an ssh-config alias, never anything a shell or ssh would interpret.
valid_host() {
	[[ $1 =~ ^[A-Za-z0-9._:@%-]+$ ]] && [[ $1 != -* ]]
}

# Print $1 quoted for a message: '...', or $'...' when it holds a control
# character (a CR from a CRLF file, an escape), which a terminal would act
# on instead of showing.
shown() {
	if [[ $1 == *[[:cntrl:]]* ]]; then printf '%q' "$1"; else printf "'%s'" "$1"; fi
}

# Print the host lists of hosts file $1 (a host, or a NodeSet such as
# node[001-128], see nodeset_expand), one a line as "LINENO LIST", without
# comments and blanks; a line may end in CR LF.
read_hosts_file() {
	local line word n=0 blank=$' \t'
	local -a lines
	[ -r "$1" ] || die "-h $1: cannot read the hosts file"
	mapfile -t lines <"$1" || die "-h $1: cannot read the hosts file"
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

# Print where ssh takes host $1 with SSH_EXTRA, as `ssh -G` resolves it
# without connecting: "HOSTNAME port PORT", and the proxy it goes through
# if any (the user is left out: root@X and X are one node).
ssh_destination() {
	local out k v name="" port="" proxy=""
	out=$(ssh -G ${SSH_EXTRA[@]+"${SSH_EXTRA[@]}"} -- "$1" 2>&1 </dev/null) ||
		die "host '$1': ssh -G cannot resolve it: $(head -n 1 <<<"$out")"
	while read -r k v; do
		case $k in
		hostname) name=$v ;;
		port) port=$v ;;
		proxyjump | proxycommand) [ "$v" = none ] || proxy+=" via $k $v" ;;
		esac
	done <<<"$out"
	printf '%s port %s%s' "$name" "$port" "$proxy"
}

# Refuse (exit 2) two hosts that ssh takes to one destination: an alias and
# its address, X and root@X. Needs no connection; with no ssh here (a dry
# run) there is nothing to ask.
same_destinations() {
	local n d
	local -A seen=()
	command -v ssh >/dev/null || return 0
	for n in "${!HOSTS[@]}"; do
		d=$(ssh_destination "${HOSTS[n]}") || exit 2
		[ -z "${seen[$d]:-}" ] ||
			die "hosts '${seen[$d]}' and '${HOSTS[n]}' are one node: ssh reaches both at $d (ssh -G): give each node once"
		seen[$d]=${HOSTS[n]}
	done
}

# The remote command printing what node it runs on and what its test
# directory is, one "KEY VALUE" a line: boot_id (the running kernel's),
# machine_id, hostname, and target, the device:inode of REMOTE_PCS_MOUNT_PATH
# (or, where it is no directory, of its parent directory followed by /NAME,
# as atio then makes the files NAME.0 ... there; "-" when neither exists).
remote_identity_cmd() {
	local d=$REMOTE_PCS_MOUNT_PATH p n
	d=${d%/}
	p=${d%/*} n=${d##*/}
	# shellcheck disable=SC2016 # expanded by the remote shell
	printf 'b=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null); m=$(cat /etc/machine-id 2>/dev/null || cat /var/lib/dbus/machine-id 2>/dev/null); h=$(uname -n 2>/dev/null); if [ -d %s ]; then t=$(stat -L -c %%d:%%i %s 2>/dev/null); else t=$(stat -L -c %%d:%%i %s 2>/dev/null) && t=$t/%s; fi; printf "boot_id %%s\\nmachine_id %%s\\nhostname %%s\\ntarget %%s\\n" "${b:--}" "${m:--}" "${h:--}" "${t:--}"' \
		"$(quote_words "${d:-/}")" "$(quote_words "${d:-/}")" "$(quote_words "${p:-/}")" "$(quote_words "$n")"
}

# Refuse (exit 2) two hosts whose nodes, as they said over their sessions
# (files INDEX.id in directory $1, from remote_identity_cmd), are one
# machine (one boot id; or, where there is none, one machine id and host
# name) with one test directory (device and inode): two spellings that ssh
# -G could not tell apart, such as a name and its address. Nodes on one
# machine with test directories of their own (containers) are not one.
same_nodes() {
	local dir=$1 i j k v
	local -a boot=() mach=() name=() target=()
	for i in "${!HOSTS[@]}"; do
		boot[i]=- mach[i]=- name[i]=- target[i]=-
		[ -e "$dir/$i.id" ] || continue
		while read -r k v; do
			case $k in
			boot_id) boot[i]=${v:--} ;;
			machine_id) mach[i]=${v:--} ;;
			hostname) name[i]=${v:--} ;;
			target) target[i]=${v:--} ;;
			esac
		done <"$dir/$i.id"
	done
	for i in "${!HOSTS[@]}"; do
		[ "${target[i]}" != - ] || continue
		for ((j = 0; j < i; j++)); do
			[ "${target[j]}" = "${target[i]}" ] || continue
			if [ "${boot[i]}" != - ]; then
				[ "${boot[j]}" = "${boot[i]}" ] || continue
			elif ! { [ "${boot[j]}" = - ] && [ "${mach[i]}" != - ] && [ "${mach[j]}" = "${mach[i]}" ] &&
				[ "${name[j]}" = "${name[i]}" ]; }; then
				continue
			fi
			die "hosts '${HOSTS[j]}' and '${HOSTS[i]}' are one node: both are $(shown "${name[i]}") (boot id ${boot[i]}, machine id ${mach[i]}) with one test directory $REMOTE_PCS_MOUNT_PATH (device:inode ${target[i]}): give each node once"
		done
	done
}

# Set T_OPTS (atio options), T_TITLE (section title) and T_UNIT (expected
# unit) of test $1 in PROFILE; "warmup" and "load" are the warm-up read
# and the run that makes the files.
test_info() {
	local q="" d="" seq=16M
	T_UNIT="MB/s"
	# vhi: seed 000's profiles, O_DIRECT at depth 32 (expand as its sync job).
	[ "$PROFILE" != vhi ] || { q=" --iodepth 32" d=" --uncached" seq=1M; }
	case $1 in
	warmup) T_OPTS="--read --seq -s $seq --mbs$q" T_TITLE="Warming" ;;
	load) T_OPTS="--read --seq -s 16M --mbs" T_TITLE="Loading"
		[ "$PROFILE" != vhi ] || { T_OPTS="--prepare"; return 0; } ;;
	seqread) T_OPTS="--read --seq -s $seq --mbs$q" T_TITLE="Sequential read" ;;
	seqwrite) T_OPTS="--write --seq -s $seq --mbs$q" T_TITLE="Sequential write" ;;
	randread) T_OPTS="--read --rand -s $BLOCKSIZE --iops$q" T_TITLE="Random read" T_UNIT="IOPS" ;;
	randwrite) T_OPTS="--fdatasync --rand -s $BLOCKSIZE --iops" T_TITLE="Random write" T_UNIT="sync/s"
		[ "$PROFILE" != vhi ] || T_OPTS="--write --rand -s $BLOCKSIZE --iops$q" T_UNIT="IOPS" ;;
	randfsync) T_OPTS="--fsync --rand -s $BLOCKSIZE -q 32 --iops" T_TITLE="Random fsync" T_UNIT="sync/s" ;;
	randrw) T_OPTS="--mix 70 --rand -s $BLOCKSIZE --iops$q" T_TITLE="Random read/write 70/30" T_UNIT="IOPS" ;;
	expand) T_OPTS="--expand -s 16M --mbs" T_TITLE="Expand" ;;
	dsyncwrite) T_OPTS="--write --rand -s $BLOCKSIZE --dsync --iops" T_TITLE="Random dsync write" T_UNIT="IOPS" ;;
	check) T_OPTS="--check" T_TITLE="Check"; return 0 ;;
	*) return 1 ;;
	esac
	T_OPTS+=$d
}

# Set ARGS to atio's arguments for test $1 with $2 threads for $3 seconds:
# the guide's command line, then ATIO_OPTS (whose --uncached drops --cached,
# which atio would call contradictory).
atio_args() {
	local n
	test_info "$1"
	read -ra ARGS <<<"$T_OPTS"
	if [ "$T_OPTS" = --prepare ] || [ "$T_OPTS" = --check ]; then
		# atio --prepare and --check take the options that shape the
		# files only (the smallest block keeps -u's minimum the tests';
		# --check reads in 4M, its default, whatever the files' size).
		ARGS+=(-s "$([ "$T_OPTS" = --check ] && echo 4M || echo 4K)" -p "$2" -u "$FILE_SIZE" -f "$REMOTE_PCS_MOUNT_PATH")
		for n in "${!ATIO_EXTRA[@]}"; do
			case ${ATIO_EXTRA[n]} in
			-n) ARGS+=(-n "${ATIO_EXTRA[n + 1]:-}") ;;
			-n?* | --allow-memory-fs) ARGS+=("${ATIO_EXTRA[n]}") ;;
			--take-over) [ "$T_OPTS" = --check ] || ARGS+=("${ATIO_EXTRA[n]}") ;;
			esac
		done
		return 0
	fi
	ARGS+=(-p "$2" -t "$3" -u "$FILE_SIZE" -S)
	[[ " $T_OPTS $ATIO_OPTS " == *" --uncached "* ]] || ARGS+=(--cached)
	ARGS+=(-f "$REMOTE_PCS_MOUNT_PATH" ${ATIO_EXTRA[@]+"${ATIO_EXTRA[@]}"})
}

# Print words $@ quoted for a POSIX shell (the nodes' sessions run
# /bin/sh, which may be dash: no $'...'), separated by spaces: a word of
# letters, digits and ./_:=@%+,- as it is, any other in single quotes.
quote_words() {
	local w out=""
	for w in "$@"; do
		if [[ -n $w && $w != *[!A-Za-z0-9./_:=@%+,-]* ]]; then
			out+="$w "
		else
			out+="'${w//\'/\'\\\'\'}' "
		fi
	done
	printf '%s' "${out% }"
}

# The session line that runs atio with arguments $5... as run $2 (its
# stderr goes to that run's file) in the background of node $1's shell, and
# answers to token $4 when atio ends. A child shell records its PID in
# $D/pid (session_stop signals it) and becomes atio, whose status the
# answer carries: 128+N when signal N killed it. atio's stdin: with $3 =
# start, the FIFO $D/s, which the session's shell holds open on descriptor
# 4 until the start instant comes (launch_run); else /dev/null. Its
# stdout is kept in $D/o until the answer. (The shell's own word on a
# killed job, bash's "Killed", is left out: the status says it.)
remote_run_cmd() {
	local run=$2 in=$3 tok=$4 open="" src=/dev/null
	shift 4
	if [ "$in" = start ]; then
		# shellcheck disable=SC2016 # expanded by the node's shell
		open='rm -f "$D/s" && mkfifo "$D/s" && command exec 4<>"$D/s" && '
		# shellcheck disable=SC2016 # expanded by the node's shell
		src='"$D/s"'
	fi
	# shellcheck disable=SC2016 # expanded by the node's shell
	printf '%s' "printf '\\036E $run\\n' >&2; rm -f \"\$D/o\" \"\$D/pid\"; if ${open}:; then { sh -c 'echo \$\$ >\"\$1\" && shift && exec \"\$@\"' sh \"\$D/pid\" $(quote_words "$@") <$src >\"\$D/o\" 4>&- & wait \$! 2>/dev/null; s=\$?; printf '\\036E 0\\n' >&2; printf '\\036R $tok %s %s\\n' \"\$s\" \"\$(wc -c <\"\$D/o\")\"; cat \"\$D/o\"; } 4>&- & else printf '\\036E 0\\n' >&2; printf '\\036R $tok 126 0\\n'; fi"
}

# Print why node $1's remote command in the run of directory $2 ended with
# status $3 when that was not atio's own: 255, ssh's (the connection lost
# or never made), or 128+N, atio killed by signal N (the OOM killer, a
# user, or the script's SIGKILL after its SIGINT was not obeyed); print
# nothing for other statuses. atio exits 130 itself when interrupted.
exit_reason() {
	local i=$1 dir=$2 rc=$3 sig name
	if [ "$rc" = 255 ] && [ -s "$dir/$i.lost" ]; then
		cat "$dir/$i.lost"
	elif [ "$rc" = 255 ]; then
		echo "ssh failed (exit 255): the connection to the node was lost, or could not be made"
	elif [ "$rc" = 126 ] || [ "$rc" = 127 ]; then
		echo "atio could not be started on the node (exit $rc): see below"
	elif [ "$rc" -gt 128 ] && [ "$rc" -le 192 ] && [ "$rc" != 130 ]; then
		sig=$((rc - 128))
		name=$(kill -l "$sig" 2>/dev/null) || name=
		if [ -n "$name" ]; then name="SIG${name#SIG} (signal $sig, exit $rc)"; else name="signal $sig (exit $rc)"; fi
		printf 'atio was killed by %s on the node, whose connection held' "$name"
		if [ "$sig" = 9 ] && [ -e "$dir/$i.stopped" ]; then
			printf '; the script had stopped it: it did not exit within %s s of SIGINT\n' "$STOP_GRACE"
		elif [ "$sig" = 9 ]; then
			printf ' (the kernel'\''s OOM killer sends SIGKILL: see the node'\''s kernel log)\n'
		else
			printf '\n'
		fi
	fi
}

# The session line that stops the atio of the node's current run if it
# still runs, in the background of the session's shell: SIGINT (atio
# prints its results so far), STOP_GRACE seconds to exit, then SIGKILL.
# The PID counts only while it still belongs to an atio. The grace is
# timed by a sleep of its own, not counted in rounds of the loop, which a
# busy node runs slower.
remote_stop_cmd() {
	# shellcheck disable=SC2016 # expanded by the node's shell
	printf '( p=$(cat "$D/pid" 2>/dev/null) || exit 0; alive() { c=; read -r c 2>/dev/null </proc/$p/comm; [ "$c" = atio ]; }; ! alive || kill -INT "$p"; sleep %d >/dev/null 2>&1 & t=$!; while alive && kill -0 $t 2>/dev/null; do sleep 0.05; done; kill $t 2>/dev/null; ! alive || kill -KILL "$p" ) </dev/null >/dev/null 2>&1 &' \
		"$STOP_GRACE"
}

# The remote command printing the atio that the node's login PATH finds
# (the package's: /usr/bin/atio) as "PATH<TAB>first line of its --version",
# or "none" when it finds none.
remote_installed_probe_cmd() {
	# shellcheck disable=SC2016 # expanded by the remote shell
	printf '%s' 'p=$(command -v atio 2>/dev/null) || p=; case $p in /*) printf "%s\t" "$p"; "$p" --version 2>&1 | head -n 1 ;; *) echo none ;; esac'
}

# The remote command printing the first line of `$1 --version`, or
# "missing" when there is no file $1.
remote_probe_cmd() {
	local q
	printf -v q '%q' "$1"
	printf 'if [ -e %s ]; then %s --version 2>&1 | head -n 1; else echo missing; fi' "$q" "$q"
}

# Run command $2... for node $1 (an index) in the background of the calling
# shell and wait for it, with the caller's standard input; return its
# status. While it runs, the file $SSH_PIDS/NODE.CALLER.PID (CALLER: the
# $BASHPID of the shell that waits) names it, so that the script can end it
# (end_ssh) when it gives up on the node or exits: killing the job that
# waits would leave it running.
tracked() {
	local i=$1 pid rc=0 f
	shift
	"$@" <&0 &
	pid=$!
	f="$SSH_PIDS/$i.$BASHPID.$pid"
	: >"$f"
	wait "$pid" || rc=$?
	rm -f "$f"
	return "$rc"
}

# End the ssh and scp clients still running for node $1 (every node when
# $1 is empty), only those that shell $2 waits for when $2 is given: the
# ones named by files in $SSH_PIDS whose PID is still an ssh or scp.
# SIGTERM first (scp then ends its own ssh), SIGKILL 0.2 s later: a client
# started while the script ignored SIGTERM (on_signal, cleanup) ignores it.
end_ssh() {
	local f name caller p pids=()
	for f in "$SSH_PIDS"/*; do
		[ -e "$f" ] || continue
		name=${f##*/}
		caller=${name#*.}
		caller=${caller%.*}
		[ -z "$1" ] || [ "${name%%.*}" = "$1" ] || continue
		[ -z "${2:-}" ] || [ "$caller" = "$2" ] || continue
		p=${name##*.}
		if is_client "$p"; then
			kill "$p" 2>/dev/null || true
			pids+=("$p")
		fi
		rm -f "$f"
	done
	[ "${#pids[@]}" -gt 0 ] || return 0
	nap 0.2
	for p in "${pids[@]}"; do
		! is_client "$p" || kill -KILL "$p" 2>/dev/null || true
	done
}

# Wait until none of processes $2... runs, $1 tenths of a second at most;
# false when some still run then.
wait_gone() {
	local n p left=0
	for ((n = 0; n < $1; n++)); do
		left=0
		for p in "${@:2}"; do ! kill -0 "$p" 2>/dev/null || left=1; done
		[ "$left" = 1 ] || return 0
		nap 0.1
	done
	[ "$left" = 0 ]
}

# True when process $1 runs ssh or scp (or setsid, about to run ssh).
is_client() {
	local c=""
	read -r c 2>/dev/null <"/proc/$1/comm" || true
	[ "$c" = ssh ] || [ "$c" = scp ] || [ "$c" = setsid ]
}

# scp's name for path $2 on host $1, with an IPv6 address in brackets.
scp_target() {
	local user="" host=$1
	if [[ $host == *@* ]]; then
		user=${host%@*}@
		host=${host##*@}
	fi
	[[ $host != *:* ]] || host="[$host]"
	printf '%s%s:%s' "$user" "$host" "$2"
}

# Print the time as seconds since the epoch, with microseconds or better.
now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then echo "$EPOCHREALTIME"; else date +%s.%N; fi
}

# Set NOW_US to the time in microseconds since the epoch (no fork with
# bash 5's EPOCHREALTIME).
now_us() {
	if [ -n "${EPOCHREALTIME:-}" ]; then
		NOW_US=${EPOCHREALTIME/./}
	else
		NOW_US=$(date +%s%6N)
	fi
	NOW_US=$((10#$NOW_US))
}

# Set variable $1 to the seconds $2 (digits, an optional decimal part; as
# is_number takes them) in whole microseconds, rounded down.
to_us() {
	local s=$2 int frac
	int=${s%%.*}
	frac=
	[[ $s != *.* ]] || frac=${s#*.}
	frac="${frac}000000"
	printf -v "$1" '%d' "$((10#${int:-0} * 1000000 + 10#${frac:0:6}))"
}

# Print microseconds $1 as seconds with 6 decimals.
us_to_sec() {
	printf '%d.%06d' "$(($1 / 1000000))" "$(($1 % 1000000))"
}

# Sleep $1 seconds. An external sleep, not a `read -t` on an idle FIFO
# (which would start no process): bash runs the trap of a signal that
# comes during `read -t` inside the read, and a process the trap then
# starts in the background resumes the interrupted loop instead of its
# own command. After a foreground sleep the trap runs where it belongs.
nap() {
	sleep "$1"
}

# --- Sessions: one ssh session per node, opened in preparation, that every
# later command of the node goes over, so that a run costs no login (PAM,
# LDAP, motd and shell start-up take seconds on some clusters, and a
# hundred nodes logging in at once contend). The session runs a POSIX
# shell that reads one command a line from its stdin, a FIFO the driver
# holds open (SESS_IN), and answers each on its stdout (SESS_OUT) with a
# header line "<RS>R TOKEN STATUS SIZE" and SIZE bytes, the command's
# output, kept in a file on the node until then. A run's stderr streams
# back: a line "<RS>E N" on the session's stderr says that the lines after
# it belong to run N (WORK/run.N/INDEX.err; 0: the session's own log), and
# a reader of the driver (session_split) files them there. The session's
# directory on the node ($D: answers, the start FIFO and the PID of atio)
# goes when the session ends.

# The program of the node's side of a session, run as /bin/sh -c PROGRAM.
# shellcheck disable=SC2016 # expanded by the node's shell
AGENT_SH='umask 077; D=$(mktemp -d "${TMPDIR:-/tmp}/atio-parallel.XXXXXX") || exit 1; trap '\''rm -rf "$D"'\'' EXIT; trap '\''exit 1'\'' HUP TERM; while IFS= read -r l; do eval "$l"; done'
# The session's remote command: that program, in single quotes.
AGENT_CMD="exec /bin/sh -c '${AGENT_SH//\'/\'\\\'\'}'"

# Close, in the calling subshell, the descriptors of every session opened
# so far: a process that outlived the script holding them would keep the
# nodes' sessions from ending.
session_close_fds() {
	local fd
	for fd in ${SESS_IN[@]+"${SESS_IN[@]}"} ${SESS_OUT[@]+"${SESS_OUT[@]}"}; do
		exec {fd}>&-
	done
}

# Open node $1's session (in the script's own shell, which keeps its
# descriptors for the jobs of every later step): the ssh in a session of
# its own (Ctrl-C reaches only the script, which then stops atio), its
# status written to SESS_DIR/INDEX.exit when it ends, and the reader of
# its stderr. Sets SESS_IN, SESS_OUT, SESS_PID and SESS_T0 (the instant it
# was opened, in microseconds) of the node. Opening does not wait for the
# login: the first answer tells when the session started (prep_connect).
session_open() {
	local i=$1 d=$SESS_DIR w r
	# A session that ended: its descriptors go, and its processes.
	if [ -n "${SESS_IN[$i]:-}" ]; then
		w=${SESS_IN[$i]} r=${SESS_OUT[$i]}
		exec {w}>&- {r}<&-
		wait "${SESS_PID[$i]}" 2>/dev/null || true
		unset "SESS_IN[$i]" "SESS_OUT[$i]"
	fi
	rm -f "$d/$i.in" "$d/$i.out" "$d/$i.eo" "$d/$i.exit" "$d/$i.pid" "$d/$i.up"
	mkfifo "$d/$i.in" "$d/$i.out" "$d/$i.eo"
	exec {w}<>"$d/$i.in"
	(
		trap '' INT TERM HUP
		session_close_fds
		exec {w}>&-
		session_split "$i" <"$d/$i.eo"
	) &
	(
		trap '' INT TERM HUP
		session_close_fds
		exec {w}>&-
		rc=0
		${SETSID[@]+"${SETSID[@]}"} ssh "${SSH_BASE[@]}" -- "${HOSTS[$i]}" "$AGENT_CMD" \
			<"$d/$i.in" >"$d/$i.out" 2>"$d/$i.eo" &
		echo "$!" >"$d/$i.pid"
		wait "$!" 2>/dev/null || rc=$?
		echo "$rc" >"$d/$i.exit"
	) &
	SESS_PID[i]=$!
	exec {r}<"$d/$i.out"
	SESS_IN[i]=$w SESS_OUT[i]=$r
	now_us
	SESS_T0[i]=$NOW_US
}

# The reader of node $1's session stderr (stdin): each line to the file
# of the run the last "<RS>E N" named, the session's log SESS_DIR/INDEX.err
# at first and for N = 0; a run's file, once switched away from, gets
# INDEX.errend beside it (all its lines are in). Lines that no longer have
# a file (a run's directory removed) are dropped.
session_split() {
	local i=$1 f="$SESS_DIR/$1.err" run=0 l n
	while IFS= read -r l || [ -n "$l" ]; do
		if [[ $l != *$'\036E '* ]]; then
			{ printf '%s\n' "$l" >>"$f"; } 2>/dev/null || true
			continue
		fi
		[ -z "${l%%$'\036E '*}" ] || { printf '%s\n' "${l%%$'\036E '*}" >>"$f"; } 2>/dev/null || true
		n=${l##*$'\036E '}
		[[ $n =~ ^[0-9]+$ ]] || continue
		[ "$run" = 0 ] || { : >"$WORK/run.$run/$i.errend"; } 2>/dev/null || true
		run=$n f="$SESS_DIR/$i.err"
		[ "$run" = 0 ] || f="$WORK/run.$run/$i.err"
		{ : >>"$f"; } 2>/dev/null || true
	done
	[ "$run" = 0 ] || { : >"$WORK/run.$run/$i.errend"; } 2>/dev/null || true
}

# True while node $1's session is open: its ssh has not ended.
session_alive() {
	[ -n "${SESS_IN[$1]:-}" ] && [ ! -e "$SESS_DIR/$1.exit" ]
}

# Write command line $2 to node $1's session; false when it is closed (or
# the command is not one line: quote_words keeps words on it, and the
# settings that reach a command have no control characters).
session_send() {
	session_alive "$1" || return 1
	[[ $2 != *$'\n'* ]] || { warn "${HOSTS[$1]}: a command of more than one line is not sent"; return 1; }
	{ printf '%s\n' "$2" >&"${SESS_IN[$1]}"; } 2>/dev/null
}

# Set SESS_WHY to why node $1's session gave no answer: $2 = lost (it
# ended) or late (none within $3 seconds).
session_why() {
	local i=$1 rc="" first=""
	if [ "$2" = late ]; then
		SESS_WHY="connected, but the node did not answer within $3 s"
		return 0
	fi
	# The ssh's status comes a moment after its output ends.
	if wait_file "$SESS_DIR/$i.exit" 20; then read -r rc <"$SESS_DIR/$i.exit" || true; fi
	first=$(grep -av $'^\036' "$SESS_DIR/$i.err" 2>/dev/null | tail -n 1) || true
	if [ ! -e "$SESS_DIR/$i.up" ]; then
		# It never answered.
		case $rc in
		255) SESS_WHY="could not connect (ssh exit 255)${first:+: $first}" ;;
		*) SESS_WHY="connected, but the session ended before the node answered (ssh exit ${rc:-unknown}: its login shell or sshd ended it)${first:+: $first}" ;;
		esac
		return 0
	fi
	case $rc in
	255) SESS_WHY="ssh failed (exit 255): the connection to the node was lost${first:+: $first}" ;;
	*) SESS_WHY="the session to the node ended (ssh exit ${rc:-unknown})${first:+: $first}" ;;
	esac
}

# Wait until file $1 exists, $2 tenths of a second at most. For the
# node jobs: it naps by a `read -t` on a FIFO nobody writes to, which
# starts no process (the script's own shell, whose traps must run where
# they belong, naps with nap).
wait_file() {
	local n
	for ((n = 0; n < $2; n++)); do
		[ ! -e "$1" ] || return 0
		read -r -t 0.1 _ <>"$SESS_DIR/nap" || true
	done
	[ -e "$1" ]
}

# Read node $1's answer to the command of token $2 into file $3, waiting
# $4 seconds at most (0: as long as it takes); older answers (to commands
# whose wait ended) are skipped. Return the command's status on the node;
# 255 with SESS_WHY set when the session ended, 254 when no answer came in
# time.
session_answer() {
	local i=$1 tok=$2 out=$3 limit=$4 fd=${SESS_OUT[$1]} line st size end=0 left t rc
	if [ "$limit" != 0 ]; then
		to_us end "$limit"
		now_us
		end=$((NOW_US + end))
	fi
	while :; do
		t=()
		if [ "$end" != 0 ]; then
			now_us
			left=$((end - NOW_US))
			[ "$left" -gt 0 ] || { session_why "$i" late "$limit"; return 254; }
			t=(-t "$(us_to_sec "$left")")
		fi
		rc=0
		IFS= read -r ${t[@]+"${t[@]}"} line <&"$fd" || rc=$?
		if [ "$rc" -gt 128 ]; then
			session_why "$i" late "$limit"
			return 254
		elif [ "$rc" != 0 ]; then
			session_why "$i" lost
			return 255
		fi
		[[ $line == *$'\036R '"$tok "* ]] || continue
		read -r st size SESS_EXTRA <<<"${line##*$'\036R '"$tok "}"
		if ! [[ $st =~ ^[0-9]+$ && $size =~ ^[0-9]+$ ]]; then continue; fi
		[ -e "$SESS_DIR/$i.up" ] || : >"$SESS_DIR/$i.up"
		if [ "$size" -gt 0 ]; then
			head -c "$size" <&"$fd" >"$out" || true
		else
			: >"$out"
		fi
		return "$st"
	done
}

# A token for one command: unique among the commands of this script.
session_token() {
	SESS_TOKEN="$BASHPID.$RANDOM$RANDOM"
}

# Read node $1's clock over its session: set SESS_EXTRA to its `date
# +%s.%N`, waiting $2 seconds at most. Returns as session_answer. The time
# is in the answer's header: nothing on the node runs between the date
# and the answer but printf.
session_clock() {
	session_token
	session_alive "$1" || { session_why "$1" lost; return 255; }
	# shellcheck disable=SC2016 # expanded by the node's shell
	session_send "$1" "printf '\\036R %s 0 0 %s\\n' $SESS_TOKEN \"\$(date +%s.%N)\"" ||
		{ session_why "$1" lost; return 255; }
	session_answer "$1" "$SESS_TOKEN" /dev/null "$2"
}

# Close every session: each node's shell sees its stdin end and exits,
# removing its directory; a session still there 3 s later is killed.
session_close_all() {
	local i fd pids=()
	for i in "${!SESS_IN[@]}"; do
		fd=${SESS_IN[$i]}
		exec {fd}>&-
		fd=${SESS_OUT[$i]}
		exec {fd}<&-
		pids+=("${SESS_PID[$i]}")
	done
	SESS_IN=() SESS_OUT=()
	[ "${#pids[@]}" -gt 0 ] || return 0
	if ! wait_gone 30 "${pids[@]}"; then
		for i in "${!SESS_PID[@]}"; do session_kill "$i"; done
	fi
	wait "${pids[@]}" 2>/dev/null || true
}

# End node $1's session at once (it stopped answering, or would not
# close): its ssh, named in SESS_DIR/INDEX.pid, is killed.
session_kill() {
	local p=""
	read -r p 2>/dev/null <"$SESS_DIR/$1.pid" || true
	[ -z "$p" ] || ! is_client "$p" || kill -KILL "$p" 2>/dev/null || true
}

# The wait, in seconds, for a node whose session took $1 seconds to open:
# $2 seconds, or WAIT_FACTOR times its login when that is longer.
wait_limit() {
	awk -v l="$1" -v b="$2" -v f="$WAIT_FACTOR" 'BEGIN { w = l * f; if (w < b) w = b; printf "%.3f\n", w }'
}

# Run shell command $2 on node $1 over its session, its stdin /dev/null,
# its stdout and stderr to file $3; wait $4 seconds at most (0: as long
# as it takes). Returns as session_answer.
session_call() {
	local i=$1 cmd=$2
	session_token
	session_alive "$i" || { session_why "$i" lost; return 255; }
	# shellcheck disable=SC2016 # expanded by the node's shell
	session_send "$i" "{ $cmd ; } </dev/null >\"\$D/a\" 2>&1; s=\$?; printf '\\036R %s %s %s\\n' $SESS_TOKEN \"\$s\" \"\$(wc -c <\"\$D/a\")\"; cat \"\$D/a\"" ||
		{ session_why "$i" lost; return 255; }
	session_answer "$i" "$SESS_TOKEN" "$3" "$4"
}

# Summarise one test from its iteration records in file $1 (one line per
# iteration: iteration, counted (1: complete and concurrent), the exact
# sum, the unit, then each node's value or "-") and the merge documents of
# its counted iterations (iter.THREADS.TEST.N.json), with $2 threads and
# test name $3: print "RUNS COUNTED AVERAGE MIN MAX STDDEV UNIT" (the
# figures over the counted iterations only; "-" where there are none),
# then one "HOST PERCENT" line per node, its share of the counted sums;
# atio merge --test-summary computes them and writes them as one JSON
# object to file $4.
test_summary() {
	local runs=0 unit="" u f l files=()
	while IFS=$'\t' read -r _ _ _ u _; do
		runs=$((runs + 1)) unit=$u
	done <"$1"
	for f in "$WORK/iter.$2.$3."*.json; do
		[ -e "$f" ] && files+=("$f")
	done
	printf '%s\n' "${HOSTS[@]}" >"$WORK/hosts"
	"$AT_IO_LOCAL_PATH" merge --test-summary --out "$4" --threads "$2" --test "$3" --unit "$unit" \
		--runs "$runs" --hosts "$WORK/hosts" -- ${files[@]+"${files[@]}"} 2>"$WORK/summary.err" || {
		l=""
		read -r l <"$WORK/summary.err" || true
		warn "atio merge --test-summary failed: $l"
		# Nothing said at all (bad usage): a summary with no figure.
		[ -s "$4" ] || printf '%s 0 - - - - %s\n' "$runs" "$unit"
	}
}

# Print the guide's average line for the test summary on stdin (from
# test_summary) and, with $1 = 1, the share and spread lines that
# at_io_parallel.sh lacked.
print_test_summary() {
	local runs ncomp avg min max sd unit h p shares=""
	read -r runs ncomp avg min max sd unit
	if [ "$ncomp" = 0 ]; then
		printf -- '---=== Average value: none, no complete iteration (0 of %s) ===---\n' "$runs"
		return 0
	fi
	printf -- '---=== Average value = { %.5f } %s; ===---' "$avg" "$unit"
	[ "$ncomp" = "$runs" ] || printf ' (INCOMPLETE: %s of %s iterations complete)' "$ncomp" "$runs"
	printf '\n'
	if [ "$1" != 1 ]; then
		cat >/dev/null
		return 0
	fi
	while read -r h p; do
		printf -v p '%.2f' "$p"
		shares+="$h $p%, "
	done
	[ -z "$shares" ] || printf 'share of the sum: %s\n' "${shares%, }"
	if [ "$sd" = - ]; then
		printf 'sums over 1 complete iteration: min %.5f, max %.5f, stddev n/a %s\n' "$min" "$max" "$unit"
	else
		printf 'sums over %s complete iterations: min %.5f, max %.5f, stddev %.5f %s\n' \
			"$ncomp" "$min" "$max" "$sd" "$unit"
	fi
}

# Read the settings from the environment, then from the options; exit 2 on
# bad usage.
parse_args() {
	# Empty until the options are read: the profile fills what is left.
	FILE_SIZE=${FILE_SIZE:-} THREADS=${THREADS:-} TESTS=${TESTS:-} PROFILE=${PROFILE:-}
	TIME=${TIME:-60} ITERATIONS=${ITERATIONS:-3} BLOCKSIZE=${BLOCKSIZE:-4K} PAUSE=${PAUSE:-30}
	REMOTE_BINARIES_PATH=${REMOTE_BINARIES_PATH:-/root}
	REMOTE_PCS_MOUNT_PATH=${REMOTE_PCS_MOUNT_PATH:-} AT_IO_LOCAL_PATH=${AT_IO_LOCAL_PATH:-}
	ATIO_OPTS=${ATIO_OPTS:-} SSH_OPTS=${SSH_OPTS:-}
	WARMUP_TIME=${WARMUP_TIME:-1} START_MARGIN=${START_MARGIN:-0.5} OVERRUN=${OVERRUN:-60}
	READY_TIMEOUT=${READY_TIMEOUT:-120} MAX_SKEW=${MAX_SKEW:-1}
	FANOUT=${FANOUT:-32} LOGIN_TIMEOUT=${LOGIN_TIMEOUT:-120} WAIT_FACTOR=${WAIT_FACTOR:-4}
	DRY_RUN=0 REPLACE=0 OUT_JSON="" OUT_PATH="" HOSTS=() VERBOSE=0
	HOST_LISTS=() HOST_WHERES=() HOST_LIST_OF=()
	declare -gA HOST_INDEX=()
	local opt val h list
	local -a lines
	while [ $# -gt 0 ]; do
		opt=$1
		case $opt in
		--help) usage; exit 0 ;;
		--dry-run) DRY_RUN=1; shift; continue ;;
		--replace) REPLACE=1; shift; continue ;;
		-vv) VERBOSE=2; shift; continue ;;
		--) shift
			for h in "$@"; do add_hosts "$h"; done
			break ;;
		--*=*) val=${opt#*=}; opt=${opt%%=*}; shift ;;
		-t | -u | -p | -i | -s | -d | -b | -h | -o | --pause | --tests | --remote-bin | \
			--atio-opts | --ssh-opts | --warmup-time | --start-margin | --overrun | \
			--ready-timeout | --max-skew | --profile | -f | --login-timeout | --wait-factor)
			[ $# -ge 2 ] || die "$opt: needs a value"
			val=$2; shift 2 ;;
		-*) die "$opt: unknown option (see --help)" ;;
		*) add_hosts "$opt"; shift; continue ;;
		esac
		case $opt in
		-t) TIME=$val ;; -u) FILE_SIZE=$val ;; -p) THREADS=$val ;; -i) ITERATIONS=$val ;;
		-s) BLOCKSIZE=$val ;; -d) REMOTE_PCS_MOUNT_PATH=$val ;; -b) AT_IO_LOCAL_PATH=$val ;;
		-o) OUT_JSON=$val ;; --pause) PAUSE=$val ;; --tests) TESTS=$val ;;
		--remote-bin) REMOTE_BINARIES_PATH=$val ;; --atio-opts) ATIO_OPTS=$val ;;
		--ssh-opts) SSH_OPTS=$val ;; --warmup-time) WARMUP_TIME=$val ;;
		--start-margin) START_MARGIN=$val ;; --overrun) OVERRUN=$val ;;
		--ready-timeout) READY_TIMEOUT=$val ;; --max-skew) MAX_SKEW=$val ;;
		--profile) PROFILE=$val ;;
		-f) FANOUT=$val ;; --login-timeout) LOGIN_TIMEOUT=$val ;; --wait-factor) WAIT_FACTOR=$val ;;
		-h) list=$(read_hosts_file "$val") || exit 2
			mapfile -t lines <<<"$list"
			for h in "${lines[@]}"; do
				[ -z "$h" ] || add_hosts "${h#* }" "-h $val line ${h%% *}"
			done ;;
		*) die "$opt: unknown option (see --help)" ;;
		esac
	done
	PROFILE=${PROFILE:-at_io}
	case $PROFILE in
	at_io) THREADS=${THREADS:-1 4 16} FILE_SIZE=${FILE_SIZE:-16G}
		TESTS=${TESTS:-seqread seqwrite randread randwrite randfsync} ;;
	vhi) THREADS=${THREADS:-auto} FILE_SIZE=${FILE_SIZE:-auto}
		TESTS=${TESTS:-seqread randread seqwrite randwrite randrw expand} ;;
	*) die "PROFILE (--profile) '$PROFILE': not one of $PROFILES" ;;
	esac
}

# Check -o FILE before anything runs and set OUT_PATH, the file that the
# document replaces at the end: FILE, or the file that FILE, a symbolic
# link, leads to (the link stays). Exit 2 for a FILE that ends in /, that
# exists and is not a regular file (a directory, a device such as
# /dev/null, a FIFO), for a link that leads nowhere or to such a file, or
# for a directory that does not exist or is not writable.
out_target() {
	local f=$OUT_JSON name=$OUT_JSON
	[[ $f != */ ]] || die "-o $f: ends in /: give the name of a file"
	OUT_PATH=$f
	if [ -L "$f" ]; then
		OUT_PATH=$(readlink -f -- "$f") || OUT_PATH=""
		if [ -z "$OUT_PATH" ] || [ ! -e "$OUT_PATH" ]; then
			die "-o $f: a symbolic link to $(readlink -- "$f"), which does not exist: give the file itself"
		fi
		name="$f (a link to $OUT_PATH)"
	fi
	if [ -d "$OUT_PATH" ]; then
		die "-o $name: is a directory: give the name of a file"
	elif [ -e "$OUT_PATH" ] && [ ! -f "$OUT_PATH" ]; then
		die "-o $name: exists and is not a regular file (a device, FIFO or socket): the results go only to a regular file"
	fi
	[ -w "$(dirname -- "$OUT_PATH")" ] || die "-o $name: its directory does not exist or is not writable"
}

# Check every setting and find the local atio; exit 2 naming the first bad
# one. atio -a checks the options of every run before any node is touched.
validate() {
	local h n t
	is_positive "$TIME" || die "TIME (-t) '$TIME': not a number of seconds above 0"
	is_positive "$WARMUP_TIME" || die "WARMUP_TIME (--warmup-time) '$WARMUP_TIME': not a number of seconds above 0"
	is_number "$PAUSE" || die "PAUSE (--pause) '$PAUSE': not a number of seconds"
	is_number "$START_MARGIN" || die "START_MARGIN (--start-margin) '$START_MARGIN': not a number of seconds"
	is_number "$OVERRUN" || die "OVERRUN (--overrun) '$OVERRUN': not a number of seconds"
	is_positive "$READY_TIMEOUT" || die "READY_TIMEOUT (--ready-timeout) '$READY_TIMEOUT': not a number of seconds above 0"
	is_count "$FANOUT" || die "FANOUT (-f) '$FANOUT': not a whole number above 0"
	FANOUT=$((10#$FANOUT))
	is_positive "$LOGIN_TIMEOUT" || die "LOGIN_TIMEOUT (--login-timeout) '$LOGIN_TIMEOUT': not a number of seconds above 0"
	is_positive "$WAIT_FACTOR" || die "WAIT_FACTOR (--wait-factor) '$WAIT_FACTOR': not a number above 0"
	is_number "$MAX_SKEW" || die "MAX_SKEW (--max-skew) '$MAX_SKEW': not a percentage of TIME (a number such as 1 or 0.5)"
	is_count "$ITERATIONS" || die "ITERATIONS (-i) '$ITERATIONS': not a whole number above 0"
	ITERATIONS=$((10#$ITERATIONS)) # 08 is eight, not an octal error
	[[ $FILE_SIZE =~ ^[0-9][0-9.]*[A-Za-z]*$ ]] || [ "$FILE_SIZE" = auto ] ||
		die "FILE_SIZE (-u) '$FILE_SIZE': not a size such as 16G, nor auto"
	[[ $BLOCKSIZE =~ ^[0-9][0-9.]*[A-Za-z]*$ ]] || die "BLOCKSIZE (-s) '$BLOCKSIZE': not a size such as 4K"
	read -ra THREAD_LIST <<<"$THREADS" || true
	[ "${#THREAD_LIST[@]}" -gt 0 ] || die "THREADS (-p) is empty"
	for n in "${!THREAD_LIST[@]}"; do
		[ "${THREAD_LIST[n]}" != auto ] || continue
		is_count "${THREAD_LIST[n]}" ||
			die "THREADS (-p) '$THREADS': '${THREAD_LIST[n]}' is neither a whole number above 0 nor auto"
		THREAD_LIST[n]=$((10#${THREAD_LIST[n]}))
	done
	read -ra TEST_LIST <<<"$TESTS" || true
	[ "${#TEST_LIST[@]}" -gt 0 ] || die "TESTS (--tests) is empty"
	for t in "${TEST_LIST[@]}"; do
		[[ " $ALL_TESTS " == *" $t "* ]] || die "TESTS (--tests) '$t': not one of $ALL_TESTS"
	done
	[ -n "$REMOTE_PCS_MOUNT_PATH" ] || die "REMOTE_PCS_MOUNT_PATH (-d) is required: the test directory on the nodes"
	[[ $REMOTE_PCS_MOUNT_PATH == /* ]] || die "REMOTE_PCS_MOUNT_PATH (-d) '$REMOTE_PCS_MOUNT_PATH': not an absolute path"
	# Under LC_ALL=C, [[:cntrl:]] is bytes 1-31 and 127: UTF-8 names pass.
	[[ $REMOTE_PCS_MOUNT_PATH != *[[:cntrl:]]* ]] || die "REMOTE_PCS_MOUNT_PATH (-d): control characters in the path"
	# scp may hand this path to a remote shell or to SFTP: keep it plain.
	[[ $REMOTE_BINARIES_PATH =~ ^/[A-Za-z0-9._/+-]*$ ]] ||
		die "REMOTE_BINARIES_PATH (--remote-bin) '$REMOTE_BINARIES_PATH': not an absolute path of letters, digits and ._/+-"
	read -ra ATIO_EXTRA <<<"$ATIO_OPTS" || true
	NODE_CAP=""
	for n in "${!ATIO_EXTRA[@]}"; do
		case ${ATIO_EXTRA[n]} in
		--rate) NODE_CAP=${ATIO_EXTRA[n + 1]:-} ;;
		--rate=*) NODE_CAP=${ATIO_EXTRA[n]#--rate=} ;;
		esac
	done
	read -ra SSH_EXTRA <<<"$SSH_OPTS" || true
	[ "${#HOSTS[@]}" -gt 0 ] || die "no host given (HOST arguments or -h FILE)"
	# A host given twice (two atio on one data set, summed twice) was
	# refused as it was read (add_hosts).
	for h in "${HOSTS[@]}"; do
		valid_host "$h" || die "host $(shown "$h"): only letters, digits and ._:@%- are allowed, and not a leading -"
	done
	same_destinations
	[ -z "$OUT_JSON" ] || out_target
	if [ -z "$AT_IO_LOCAL_PATH" ]; then
		for h in "$SCRIPT_DIR/atio" "${SCRIPT_DIR%/*}/build/atio" "$(command -v atio || true)"; do
			[ -z "$h" ] || [ ! -f "$h" ] || [ ! -x "$h" ] || { AT_IO_LOCAL_PATH=$h; break; }
		done
		[ -n "$AT_IO_LOCAL_PATH" ] || die "AT_IO_LOCAL_PATH (-b): no atio beside the script, in ../build or on PATH"
	fi
	{ [ -f "$AT_IO_LOCAL_PATH" ] && [ -x "$AT_IO_LOCAL_PATH" ]; } ||
		die "AT_IO_LOCAL_PATH (-b) '$AT_IO_LOCAL_PATH': not an executable file"
	LOCAL_VERSION=$("$AT_IO_LOCAL_PATH" --version 2>&1 | head -n 1) ||
		die "AT_IO_LOCAL_PATH (-b) $AT_IO_LOCAL_PATH: --version failed: $LOCAL_VERSION"
	for n in "${THREAD_LIST[@]}"; do
		for t in load warmup "${TEST_LIST[@]}"; do
			atio_args "$t" "$n" "$TIME"
			case ${ARGS[0]} in
			# Nothing to show settings of (-a): check the rest.
			--prepare | --check) ARGS=("${ARGS[@]:1}") ;;
			# With the options the driver adds at launch (see launch_run).
			*) ARGS+=(--json)
				[ "$t" = load ] || ARGS+=(--start-at -) ;;
			esac
			h=$("$AT_IO_LOCAL_PATH" -a "${ARGS[@]}" 2>&1 >/dev/null) ||
				die "atio refuses the options of $t with $n threads: $(head -n 1 <<<"$h")"
		done
	done
}

# Start "$1 INDEX $2 $3..." in the background for every node, the job
# leaving its files in directory $2; set JOB_PIDS and JOB_DIR.
for_all_nodes() {
	local fn=$1 dir=$2 i
	shift 2
	mkdir "$dir"
	JOB_PIDS=() JOB_DIR=$dir
	for i in "${!HOSTS[@]}"; do
		"$fn" "$i" "$dir" "$@" &
		JOB_PIDS[i]=$!
	done
}

# True while the job of node $1 runs (a job writes INDEX.rc last).
job_running() {
	[ -n "${JOB_PIDS[$1]:-}" ] && [ ! -e "$JOB_DIR/$1.rc" ] && kill -0 "${JOB_PIDS[$1]}" 2>/dev/null
}

# True while the job of a node runs that has not had its node's answer.
any_unanswered() {
	local i
	for i in "${!HOSTS[@]}"; do
		! job_running "$i" || [ -e "$JOB_DIR/$i.answered" ] || return 0
	done
	return 1
}

# True while the job of any node runs.
any_running() {
	local i
	for i in "${!HOSTS[@]}"; do
		! job_running "$i" || return 0
	done
	return 1
}

# Wait for the jobs; past the instant $1 (microseconds since the epoch; 0:
# never) stop atio on every node still running and set OVERRAN.
wait_jobs() {
	local deadline=$1 i next=0
	while any_running; do
		if [ "$VERBOSE" -ge 2 ] && [ "$deadline" != 0 ]; then
			now_us
			if [ "$NOW_US" -ge "$next" ]; then
				[ "$next" = 0 ] || live_line "$JOB_DIR"
				next=$((NOW_US + 1000000))
			fi
		fi
		if [ "$deadline" != 0 ]; then
			now_us
			# Past it, a run overruns only while a node has not answered:
			# the driver's own reading of the answers is not the nodes'.
			if [ "$NOW_US" -gt "$deadline" ] && any_unanswered; then
				warn "the run overran its time by OVERRUN ($OVERRUN s): stopping atio on every node"
				OVERRAN=1
				: >"$JOB_DIR/overran"
				stop_nodes
				break
			fi
		fi
		nap 0.1
	done
	for i in "${!JOB_PIDS[@]}"; do wait "${JOB_PIDS[$i]}" 2>/dev/null || true; done
}

# Stop atio on every node of the current run that has not ended well and
# was not stopped yet (a line to each node's session), then wait for their
# jobs: STOP_GRACE seconds for atio to exit and 3 for the answer (or
# WAIT_FACTOR times the slowest login, when longer). A node whose job is
# still waiting then is given up on: its session is ended.
stop_nodes() {
	local i n limit
	for i in "${!HOSTS[@]}"; do
		{ [ -n "${JOB_PIDS[$i]:-}" ] && [ ! -e "$JOB_DIR/$i.ok" ] && [ ! -e "$JOB_DIR/$i.stopped" ]; } || continue
		: >"$JOB_DIR/$i.stopped"
		# Also where the job ended: its atio may outlive it.
		session_send "$i" "$(remote_stop_cmd)" || true
	done
	to_us limit "$(wait_limit "$MAX_LOGIN" $((STOP_GRACE + 3)))"
	for ((n = 0; n < limit / 100000; n++)); do
		any_unanswered || break
		nap 0.1
	done
	for i in "${!HOSTS[@]}"; do
		if job_running "$i" && [ -e "$JOB_DIR/$i.answered" ]; then
			wait "${JOB_PIDS[$i]}" 2>/dev/null || true
		elif job_running "$i"; then
			warn "${HOSTS[$i]}: no answer after stopping atio; giving up on it"
			# Its session (the job waits on it), then the job.
			session_kill "$i"
			end_ssh "$i"
			kill "${JOB_PIDS[$i]}" 2>/dev/null || true
			wait "${JOB_PIDS[$i]}" 2>/dev/null || true
			gave_up "$i"
		fi
	done
}

# Record node $1 of the current run as failed when its job had to be
# killed before it could say anything itself.
gave_up() {
	local i=$1 dir=$JOB_DIR
	[ ! -e "$dir/$i.ok" ] || return 0
	printf '%(%H:%M:%S)T\n' -1 >"$dir/$i.time"
	echo "no answer from the node after stopping its atio" >"$dir/$i.why"
	"$AT_IO_LOCAL_PATH" merge --record --out "$dir/$i.json" --host "${HOSTS[$i]}" --exit-status none \
		--stderr "$dir/$i.why" >/dev/null 2>&1 || true
}

# Node job, first preparation round: wait for the first answer of the
# node's session (opened by prepare_nodes), which tells how long its login
# took (INDEX.login: later waits on the node allow WAIT_FACTOR times it);
# ask what the node is (INDEX.id, for same_nodes); then read its clock.
# The offset is the node's `date +%s.%N` minus the midpoint of the local
# times before and after it, best of 3 (smallest round trip); INDEX.clock
# holds "OFFSET ROUND_TRIP LOGIN".
prep_connect() {
	local i=$1 dir=$2 rc=0 t0 t1 k best="" login limit
	trap '' INT # the script's to handle, as in run_job
	session_call "$i" : /dev/null "$LOGIN_TIMEOUT" || rc=$?
	if [ "$rc" = 0 ]; then
		now_us
		login=$(us_to_sec $((NOW_US - SESS_T0[i])))
		echo "$login" >"$dir/$i.login"
		limit=$(wait_limit "$login" 10)
		session_call "$i" "$(remote_identity_cmd)" "$dir/$i.id" "$limit" || rc=$?
	elif [ "$rc" = 254 ]; then
		# No answer at all: logged in (the connection master is up) or not.
		if ssh "${SSH_BASE[@]}" -O check -- "${HOSTS[$i]}" </dev/null >/dev/null 2>&1; then
			SESS_WHY="connected (ssh logged in), but its login shell did not answer within LOGIN_TIMEOUT ($LOGIN_TIMEOUT s): see what the node runs at login (~/.bashrc, PAM, motd)"
		else
			SESS_WHY="could not connect: no ssh connection within LOGIN_TIMEOUT ($LOGIN_TIMEOUT s)"
		fi
		session_kill "$i"
	fi
	for k in 0 1 2 3; do
		[ "$rc" = 0 ] || break
		now_us
		t0=$NOW_US
		session_clock "$i" "$limit" || { rc=$?; break; }
		now_us
		t1=$NOW_US
		is_number "$SESS_EXTRA" || { rc=1; SESS_WHY="its clock (date +%s.%N) answered '$SESS_EXTRA', not a time"; break; }
		# The first round trip wakes the node's shell up: not counted.
		[ "$k" != 0 ] || continue
		best=$(awk -v a="$(us_to_sec "$t0")" -v r="$SESS_EXTRA" -v b="$(us_to_sec "$t1")" -v best="$best" 'BEGIN {
			if (best != "") { split(best, f, " "); if (f[2] <= b - a) { print best; exit } }
			printf "%.6f %.6f\n", r - (a + b) / 2, b - a }')
	done
	[ -z "$best" ] || echo "$best $login" >"$dir/$i.clock"
	if [ "$rc" = 0 ]; then
		: >"$dir/$i.ok"
	else
		echo "${SESS_WHY:-the first commands on the node failed (exit $rc)}" >"$dir/$i.why"
	fi
	printf '%(%H:%M:%S)T\n' -1 >"$dir/$i.time"
	echo "$rc" >"$dir/$i.rc"
}

# Run shell command $2 on node $1 over its session and print what it
# printed (stdout and stderr), waiting as long as the node's limit allows
# (30 s, or WAIT_FACTOR times its login). Returns as session_answer; when
# the session ended or did not answer, why goes to stderr.
node_cmd() {
	local rc=0 f="$WORK/call.$1.$BASHPID"
	session_call "$1" "$2" "$f" "$(wait_limit "${NODE_LOGIN[$1]:-0}" 30)" || rc=$?
	cat "$f" 2>/dev/null || true
	rm -f "$f"
	[ "$rc" -lt 254 ] || echo "$SESS_WHY" >&2
	return "$rc"
}

# Node job, second preparation round: choose the atio node $1 runs. The
# one its login PATH finds (installed from the package) when it is of the
# local version; else REMOTE_BINARIES_PATH/atio, copied there when missing
# (or, with --replace, of another version). The choice goes to INDEX.atio,
# a note on it to INDEX.note.
prep_install() {
	local i=$1 dir=$2 rc=0 path="$REMOTE_BINARIES_PATH/atio" v chosen="" pre="" found
	local tmp="$REMOTE_BINARIES_PATH/.atio-parallel.$RUN_ID.tmp"
	trap '' INT # the script's to handle, as in run_job
	v=$(node_cmd "$i" "$(remote_installed_probe_cmd)" 2>>"$dir/$i.err") || rc=$?
	if [ "$rc" = 0 ] && [[ $v == /*$'\t'* ]]; then
		found=${v%%$'\t'*}
		v=${v#*$'\t'}
		if [ "$v" = "$LOCAL_VERSION" ]; then
			chosen=$found
			echo "using $found ($v), installed on the node" >"$dir/$i.note"
		else
			pre="its $found is '${v:-no output}', not '$LOCAL_VERSION'"
		fi
	fi
	if [ "$rc" = 0 ] && [ -z "$chosen" ]; then
		v=$(node_cmd "$i" "$(remote_probe_cmd "$path")" 2>>"$dir/$i.err") || rc=$?
	fi
	if [ "$rc" = 0 ] && [ -z "$chosen" ] && [ "$v" != "$LOCAL_VERSION" ]; then
		if [ "$v" = missing ] || [ "$REPLACE" = 1 ]; then
			node_cmd "$i" "mkdir -p -- $(quote_words "$REMOTE_BINARIES_PATH")" >>"$dir/$i.err" 2>&1 || {
				rc=$?
				echo "cannot create REMOTE_BINARIES_PATH $REMOTE_BINARIES_PATH there (mkdir -p exit $rc): nowhere to copy atio to" >>"$dir/$i.err"
			}
			if [ "$rc" = 0 ]; then
				tracked "$i" scp -q "${SSH_BASE[@]}" -- "$AT_IO_LOCAL_PATH" "$(scp_target "${HOSTS[$i]}" "$tmp")" \
					</dev/null >/dev/null 2>>"$dir/$i.err" &&
					node_cmd "$i" "chmod 755 $(quote_words "$tmp") && mv -f $(quote_words "$tmp" "$path")" \
						>>"$dir/$i.err" 2>&1 &&
					v=$(node_cmd "$i" "$(remote_probe_cmd "$path")" 2>>"$dir/$i.err") || rc=$?
			fi
			if [ "$rc" = 0 ] && [ "$v" != "$LOCAL_VERSION" ]; then
				echo "the atio copied to $path does not run there: ${v:-no output}" >>"$dir/$i.err"
				rc=1
			fi
			[ "$rc" != 0 ] || echo "${pre:+$pre: }copied $AT_IO_LOCAL_PATH ($LOCAL_VERSION) to $path" >"$dir/$i.note"
		else
			echo "$path is '${v:-no output}', this atio is '$LOCAL_VERSION': refusing to run two versions (--replace copies this one over it)${pre:+; $pre}" >>"$dir/$i.err"
			rc=1
		fi
	elif [ "$rc" = 0 ] && [ -z "$chosen" ] && [ -n "$pre" ]; then
		echo "$pre: using $path" >"$dir/$i.note"
	fi
	[ -n "$chosen" ] || chosen=$path
	[ "$rc" != 0 ] || { echo "$chosen" >"$dir/$i.atio" && : >"$dir/$i.ok"; }
	printf '%(%H:%M:%S)T\n' -1 >"$dir/$i.time"
	echo "$rc" >"$dir/$i.rc"
}

# The stderr of a node's atio, file $1, without its ready line and the
# interval lines of -vv.
node_err() {
	grep -av -e '^atio: ready:' -e '^atio: [0-9.]* s: ' "$1" || true
}

# -vv: one line on stderr from the last interval line (atio -vv) each node
# of the run in directory $1 has printed: their values in the test's unit
# added up, and the node with the smallest. A node whose last line says
# that an interval is overdue (no I/O completed) counts 0, "(stalled)".
live_line() {
	local dir=$1 i l v at sum=0 n=0 low="" lowhost="" lownote="" note re stall
	re="^atio: ([0-9.]+) s: .* ([0-9.]+) $T_UNIT,"
	stall='^atio: ([0-9.]+) s: interval [0-9]+ not closed'
	for i in "${!HOSTS[@]}"; do
		l=$(grep -a '^atio: [0-9.]* s: ' "$dir/$i.err" 2>/dev/null | tail -n 1) || true
		note=""
		if [[ $l =~ $re ]]; then
			at=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
		elif [[ $l =~ $stall ]]; then
			at=${BASH_REMATCH[1]} v=0 note=" (stalled)"
		else
			continue
		fi
		sum=$(awk -v a="$sum" -v b="$v" 'BEGIN { printf "%.2f", a + b }')
		n=$((n + 1))
		if [ -z "$low" ] || awk -v a="$v" -v b="$low" 'BEGIN { exit !(a < b) }'; then
			low=$v lowhost=${HOSTS[$i]} lownote=$note
		fi
	done
	[ "$n" -gt 0 ] || return 0
	printf '%s: %s s: cluster %s %s (%d of %d nodes); slowest %s: %s %s%s\n' "$PROG" "$at" \
		"$sum" "$T_UNIT" "$n" "${#HOSTS[@]}" "$lowhost" "$low" "$T_UNIT" "$lownote" >&2
}

# Node job of a run: send session line $3 (remote_run_cmd, answering to
# token $4) to node $1's session and wait for atio's end; keep the node's
# result line, why it failed, and its record (INDEX.json, written by atio
# merge --record from its document).
run_job() {
	local i=$1 dir=$2 cmd=$3 tok=$4 rc=0 v="" u="" why="" ok="" k l
	# Ctrl-C is the script's to handle (it stops atio on every node and
	# prints what the jobs found): a job ignores it, explicitly, since
	# bash's read would otherwise take SIGINT while it waits.
	trap '' INT
	if session_send "$i" "$cmd"; then
		session_answer "$i" "$tok" "$dir/$i.out" 0 || rc=$?
	else
		session_why "$i" lost
		rc=255
	fi
	[ "$rc" != 255 ] || echo "$SESS_WHY" >"$dir/$i.lost"
	# The node is done; what is left is the driver's (wait_jobs).
	: >"$dir/$i.answered"
	# The last of its stderr, which comes on another stream.
	wait_file "$dir/$i.errend" 50 || true
	printf '%(%H:%M:%S)T\n' -1 >"$dir/$i.time"
	if [[ $cmd == *" --check "* ]]; then
		# --check: its summary line is the node's line; a node whose data
		# is bad (exit 1) is a FAILURE showing what --check named.
		if [ "$rc" = 0 ]; then
			head -n 1 "$dir/$i.out" >"$dir/$i.result"
			: >"$dir/$i.ok"
		else
			why=$(exit_reason "$i" "$dir" "$rc")
			case $rc in
			1) echo "atio --check found bad data, or could not read it (exit 1):" ;;
			*) echo "${why:-atio --check failed (exit $rc)}" ;;
			esac >"$dir/$i.why"
			{ grep -E '^(check|bad|missing):' "$dir/$i.out" | head -n 6
			  node_err "$dir/$i.err" | head -n 3; } >>"$dir/$i.why" || true
		fi
		echo "$rc" >"$dir/$i.rc"
		return 0
	fi
	if [[ $cmd == *" --prepare "* ]]; then
		# Loading with atio --prepare: its document is no result to add up.
		if [ "$rc" = 0 ]; then
			: >"$dir/$i.ok"
		else
			why=$(exit_reason "$i" "$dir" "$rc")
			echo "${why:-atio --prepare failed (exit $rc)}" >"$dir/$i.why"
			node_err "$dir/$i.err" | head -n 5 >>"$dir/$i.why" || true
		fi
		echo "$rc" >"$dir/$i.rc"
		return 0
	fi
	if [ "$rc" != 0 ]; then
		case $rc in
		130) why="atio was interrupted (exit 130)"
			[ ! -e "$dir/overran" ] || why="stopped: the run overran its time by $OVERRUN s (atio exit 130)" ;;
		*) why=$(exit_reason "$i" "$dir" "$rc")
			why=${why:-atio exited with status $rc}
			[ ! -e "$dir/overran" ] || [ "$rc" = 255 ] || why="stopped: the run overran its time by $OVERRUN s; $why" ;;
		esac
	fi
	# A node not ready in time: that is why, unless its document has a result.
	[ ! -e "$dir/$i.notready" ] || why=$(<"$dir/$i.notready")
	node_err "$dir/$i.err" | head -n 5 >"$dir/$i.why" || true
	# Its record ($dir/$i.json), from its document or its failure, and the
	# values of its lines, one KEY<TAB>VALUE a line: atio merge --record.
	"$AT_IO_LOCAL_PATH" merge --record --out "$dir/$i.json" --host "${HOSTS[$i]}" --exit-status "$rc" \
		--stderr "$dir/$i.why" ${why:+--why "$why"} -- "$dir/$i.out" >"$dir/$i.rv" 2>"$dir/$i.merr" || true
	while IFS=$'\t' read -r k l; do
		case $k in
		ok) ok=$l ;;
		why) why=$l ;;
		value) v=$l ;;
		unit) u=$l ;;
		result) printf '%s\n' "$l" >"$dir/$i.result" ;;
		verify) printf '%s\n' "$l" >"$dir/$i.note2" ;;
		esac
	done <"$dir/$i.rv"
	[ -n "$ok" ] || why="no record from atio: $(head -n 1 "$dir/$i.merr" 2>/dev/null)"
	if [ "$ok" = true ]; then
		printf '%s\t%s\n' "$v" "$u" >"$dir/$i.value"
		: >"$dir/$i.ok"
	else
		# The reason first, then the node's own lines.
		mapfile -t l <"$dir/$i.why"
		printf '%s\n' "$why" ${l[@]+"${l[@]}"} >"$dir/$i.why"
	fi
	echo "$rc" >"$dir/$i.rc"
}

# Print each node's `[i] HH:MM:SS [SUCCESS|FAILURE] host` line for the jobs
# in directory $1, then (with $2 = 1) its result line or, when it failed,
# the first lines of its errors; set NFAIL and FAILED_HOSTS.
print_nodes() {
	local dir=$1 show=$2 i t l
	NFAIL=0 FAILED_HOSTS=""
	# Read with the shell's own read and mapfile: a fork a node costs a
	# thousand nodes seconds.
	for i in "${!HOSTS[@]}"; do
		t=""
		{ read -r t <"$dir/$i.time"; } 2>/dev/null || printf -v t '%(%H:%M:%S)T' -1
		if [ -e "$dir/$i.ok" ]; then
			printf '[%d] %s [SUCCESS] %s\n' "$((i + 1))" "$t" "${HOSTS[$i]}"
			if [ "$show" = 1 ]; then
				mapfile -t l <"$dir/$i.result"
				[ "${#l[@]}" = 0 ] || printf '%s\n' "${l[@]}"
				if [ -e "$dir/$i.note2" ]; then
					mapfile -t l <"$dir/$i.note2"
					[ "${#l[@]}" = 0 ] || printf '%s\n' "${l[@]}"
				fi
			fi
			if [ -e "$dir/$i.note" ]; then
				read -r l <"$dir/$i.note" || true
				printf '%s: %s: %s\n' "$PROG" "${HOSTS[$i]}" "$l" >&2
			fi
		else
			printf '[%d] %s [FAILURE] %s\n' "$((i + 1))" "$t" "${HOSTS[$i]}"
			# As atio does, keep the word rate to result lines (grep rate).
			{ cat "$dir/$i.why" 2>/dev/null || head -n 5 "$dir/$i.err" 2>/dev/null || true; } |
				sed -e 's/rate/r\\x61te/g' -e 's/^/    /'
			NFAIL=$((NFAIL + 1))
			FAILED_HOSTS+="${FAILED_HOSTS:+, }${HOSTS[$i]}"
		fi
	done
}

# Open every node's session, at most FANOUT at once, and start its first
# preparation job (prep_connect) in directory $1; set JOB_PIDS and JOB_DIR.
# A session is being opened until its SSH connection is up (its
# connection master's socket is there: ssh -G names it), it answered, or
# its job ended: a login shell that takes long on the node (a profile
# waiting on a lock, LDAP) costs this machine and the node's sshd nothing
# more, and does not hold the others back.
open_sessions() {
	local dir=$1 i next=0 opening n=${#HOSTS[@]} k v
	local -a ctl=()
	mkdir "$dir"
	JOB_PIDS=() JOB_DIR=$dir
	while :; do
		opening=0
		for ((i = 0; i < next; i++)); do
			if job_running "$i" && [ ! -e "$dir/$i.login" ] && [ ! -S "${ctl[i]}" ]; then
				opening=$((opening + 1))
			fi
		done
		while [ "$next" -lt "$n" ] && [ "$opening" -lt "$FANOUT" ]; do
			ctl[next]=-
			while read -r k v; do
				[ "$k" != controlpath ] || ctl[next]=$v
			done < <(ssh -G "${SSH_BASE[@]}" -- "${HOSTS[$next]}" 2>/dev/null </dev/null || true)
			session_open "$next"
			prep_connect "$next" "$dir" &
			JOB_PIDS[next]=$!
			next=$((next + 1)) opening=$((opening + 1))
		done
		[ "$next" -lt "$n" ] || return 0
		nap 0.05
	done
}

# Prepare every node in two rounds, as at_io_parallel.sh did: connect and
# read its clock; then check or install atio. Any failure ends the script.
prepare_nodes() {
	local dir="$WORK/prep1" i off rtt slow
	echo "Preparation..."
	open_sessions "$dir"
	wait_jobs 0
	print_nodes "$dir" 0
	MAX_LOGIN=0 slow=""
	for i in "${!HOSTS[@]}"; do
		NODE_LOGIN[i]=0
		[ ! -e "$dir/$i.login" ] || read -r "NODE_LOGIN[$i]" <"$dir/$i.login"
		if awk -v a="${NODE_LOGIN[i]}" -v b="$MAX_LOGIN" 'BEGIN { exit !(a > b) }'; then
			MAX_LOGIN=${NODE_LOGIN[i]} slow=${HOSTS[$i]}
		fi
	done
	! awk -v a="$MAX_LOGIN" 'BEGIN { exit !(a > 5) }' ||
		warn "logging in took up to $MAX_LOGIN s ($slow): later waits on a node allow WAIT_FACTOR ($WAIT_FACTOR) times its own login"
	for i in "${!HOSTS[@]}"; do
		off=unknown rtt=unknown
		[ ! -e "$dir/$i.clock" ] || read -r off rtt _ <"$dir/$i.clock"
		NODE_OFFSET[i]=$off
		# Known to within half the round trip: a smaller offset is no offset.
		NODE_SKEW_OFFSET[i]=
		if is_signed "$off" && is_number "$rtt" &&
			awk -v o="$off" -v r="$rtt" 'BEGIN { exit !(o > r / 2 || -o > r / 2) }'; then
			NODE_SKEW_OFFSET[i]=$off
		fi
		if [ ! -e "$dir/$i.ok" ]; then
			continue
		elif [ "$off" = unknown ]; then
			warn "${HOSTS[$i]}: cannot read its clock (date +%s.%N)"
		elif awk -v o="$off" -v r="$rtt" -v m="$START_MARGIN" 'BEGIN { if (o < 0) o = -o; exit !(o - r / 2 > m) }'; then
			# Known to within half the round trip: only beyond that is it off.
			warn "${HOSTS[$i]}: its clock is $off s off this machine's (give or take $(awk -v r="$rtt" 'BEGIN { printf "%.3f", r / 2 }') s), more than the start margin ($START_MARGIN s): runs will not start together; synchronize the clocks (NTP)"
		fi
	done
	[ "$NFAIL" = 0 ] || die "preparation failed: cannot connect to $NFAIL of ${#HOSTS[@]} nodes ($FAILED_HOSTS)" 1
	same_nodes "$dir"
	dir="$WORK/prep2"
	for_all_nodes prep_install "$dir"
	wait_jobs 0
	print_nodes "$dir" 0
	[ "$NFAIL" = 0 ] || die "preparation failed: no usable atio on $NFAIL of ${#HOSTS[@]} nodes ($FAILED_HOSTS)" 1
	for i in "${!HOSTS[@]}"; do NODE_ATIO[i]=$(cat "$dir/$i.atio"); done
}

# Sleep PAUSE seconds in a way a signal interrupts at once.
pause() {
	awk -v p="$PAUSE" 'BEGIN { exit !(p > 0) }' || return 0
	sleep "$PAUSE" &
	SLEEP_PID=$!
	wait "$SLEEP_PID" || true
	SLEEP_PID=""
}

# True when atio's stderr, file $1, has its ready line (--start-at -).
node_ready() {
	local l lines=()
	mapfile -t lines 2>/dev/null <"$1" || return 1
	for l in ${lines[@]+"${lines[@]}"}; do
		[[ $l != "atio: ready:"* ]] || return 0
	done
	return 1
}

# Wait until the atio of every node of the current run is ready, its job
# has ended (it failed), or READY_TIMEOUT seconds have passed; a node not
# ready by then gets INDEX.notready, its reason. Sets READY[i] to 1 for
# the nodes that are ready.
wait_ready() {
	local i left end limit
	READY=()
	now_us
	limit=$(wait_limit "$MAX_LOGIN" "$READY_TIMEOUT")
	to_us end "$limit"
	end=$((NOW_US + end))
	while :; do
		left=0
		for i in "${!HOSTS[@]}"; do
			[ -z "${READY[$i]:-}" ] || continue
			job_running "$i" || continue
			if node_ready "$JOB_DIR/$i.err"; then
				READY[i]=1
			else
				left=1
			fi
		done
		[ "$left" = 1 ] || return 0
		now_us
		[ "$NOW_US" -lt "$end" ] || break
		nap 0.05
	done
	for i in "${!HOSTS[@]}"; do
		if [ -n "${READY[$i]:-}" ] || ! job_running "$i"; then continue; fi
		echo "not ready within $limit s (READY_TIMEOUT, or WAIT_FACTOR times the slowest login): atio had not checked and opened its files and set up its threads by then" \
			>"$JOB_DIR/$i.notready"
	done
}

# Run test $1 with $2 threads for $3 seconds on every node, the jobs' files
# in directory $4. With $5 = 1 all nodes start at one instant: each atio
# (--start-at -) prepares everything and says it is ready, and once every
# node is ready (or READY_TIMEOUT has passed) the instant START, the time
# now plus START_MARGIN, is written to every node's open session; a run
# still going OVERRUN seconds after its time is stopped. Loading has
# neither: filling the files takes what it takes. Nodes that failed are
# then stopped too, in case their atio outlived their ssh.
launch_run() {
	local dir=$4 deadline=0 i margin t in=none
	atio_args "$1" "$2" "$3"
	# --check's text output is its node line; everything else reports JSON.
	[ "$1" = check ] || ARGS+=(--json)
	# -vv: the nodes' interval lines stream back on their stderr.
	if [ "$VERBOSE" -ge 2 ] && [ "$5" = 1 ] && [ "$1" != check ]; then
		ARGS+=(-vv)
	fi
	START=null
	mkdir "$dir"
	JOB_PIDS=() JOB_DIR=$dir
	if [ "$5" = 1 ]; then
		ARGS+=(--start-at -)
		in=start
	fi
	# A node whose session ended (it was lost, or given up on) gets a new
	# one; its login then counts in the wait for its ready line.
	for i in "${!HOSTS[@]}"; do
		session_alive "$i" || session_open "$i"
	done
	RUN_ACTIVE=1
	for i in "${!HOSTS[@]}"; do
		session_token
		run_job "$i" "$dir" "$(remote_run_cmd "$i" "$RUN_SEQ" "$in" "$SESS_TOKEN" "${NODE_ATIO[$i]}" "${ARGS[@]}")" \
			"$SESS_TOKEN" &
		JOB_PIDS[i]=$!
	done
	if [ "$5" = 1 ]; then
		wait_ready
		to_us margin "$START_MARGIN"
		to_us t "$3"
		now_us
		START=$((NOW_US + margin))
		deadline=$((START + t))
		to_us t "$OVERRUN"
		deadline=$((deadline + t))
		START=$(us_to_sec "$START")
		# The instant to the ready nodes' atio; the others see their stdin end.
		for i in "${!HOSTS[@]}"; do
			if [ -n "${READY[$i]:-}" ]; then
				session_send "$i" "printf '%s\\n' $START >&4; exec 4>&-" || true
			else
				session_send "$i" 'exec 4>&-' || true
			fi
		done
	fi
	wait_jobs "$deadline"
	for i in "${!HOSTS[@]}"; do
		[ -e "$dir/$i.ok" ] || { stop_nodes; break; }
	done
	JOB_PIDS=() RUN_ACTIVE=0
}

# One run of test $1 ($2 threads, $3 seconds), iteration $4: launch it,
# print the nodes and the sum (from `atio merge` of the nodes' documents),
# then the start and end skew and the cluster latency. An iteration with a
# failed node is INCOMPLETE; one whose start skew is above MAX_SKEW percent
# of its time is NOT CONCURRENT; neither counts in the average, both make
# the exit status 1 (a NOT CONCURRENT warm-up does not: it measures
# nothing). Its record goes to rec.THREADS.TEST.tsv (for the
# average) and rec.THREADS.TEST.jsonl (for -o).
run_once() {
	local name=$1 threads=$2 iter=$4 dir i sum=0 unit m="" note="" counted=1 vals="" k v
	local nodes=() outs=() margs=() merge=() skew=null eskew=null late p50 p99 p999 last max_us pct_us skew_us
	RUN_SEQ=$((RUN_SEQ + 1))
	dir="$WORK/run.$RUN_SEQ"
	launch_run "$name" "$threads" "$3" "$dir" 1
	print_nodes "$dir" 1
	for i in "${!HOSTS[@]}"; do
		[ ! -e "$dir/$i.json" ] || nodes+=("$dir/$i.json")
		if [ -e "$dir/$i.ok" ]; then
			outs+=("$dir/$i.out")
			# The node's instants in this machine's clock, for the skew.
			if [ -n "${NODE_SKEW_OFFSET[i]:-}" ]; then
				margs+=(--clock-offset "${NODE_SKEW_OFFSET[i]}")
			fi
			margs+=("$dir/$i.out")
			IFS=$'\t' read -r m _ <"$dir/$i.value" || true
			vals+=$'\t'$m
			m=""
		else
			vals+=$'\t-'
		fi
	done
	test_info "$name"
	unit=$T_UNIT
	# The merge's figures, one KEY<TAB>VALUE a line (merge --values).
	if [ "${#outs[@]}" -gt 0 ] && "$AT_IO_LOCAL_PATH" merge --json --values "$dir/merge.tsv" "${margs[@]}" \
		>"$dir/merge.json" 2>"$dir/merge.err"; then
		merge=(--merge "$dir/merge.json")
		while IFS=$'\t' read -r k v; do
			case $k in
			sum) sum=$v ;;
			unit) unit=$v ;;
			start_skew_sec) skew=$v ;;
			end_skew_sec) eskew=$v ;;
			last_start_epoch) last=$v ;;
			p50_us) p50=$v ;;
			p99_us) p99=$v ;;
			p99.9_us) p999=$v ;;
			esac
		done <"$dir/merge.tsv"
	elif [ "${#outs[@]}" -gt 0 ]; then
		warn "atio merge failed: $(head -n 1 "$dir/merge.err")"
		NFAIL=${#HOSTS[@]}
		outs=()
	fi
	[ "$NFAIL" = 0 ] || { note=" (INCOMPLETE: $((${#HOSTS[@]} - NFAIL)) of ${#HOSTS[@]} nodes)"; counted=0; FAILED=1; }
	# MAX_SKEW percent of the time, in microseconds.
	to_us max_us "$3"
	to_us pct_us "$MAX_SKEW"
	max_us=$((max_us * pct_us / 100000000))
	if [ "${#outs[@]}" -gt 1 ]; then
		printf -v skew '%.6f' "$skew"
		to_us skew_us "$skew"
		if [ "$skew_us" -gt "$max_us" ]; then
			note+=" (NOT CONCURRENT: skew $(printf '%.4f' "$skew") s)"
			counted=0
			# The warm-up measures nothing: marked, but no failure.
			[ "$name" = warmup ] || FAILED=1
		fi
	fi
	printf 'Sum value on iteration %d = { %.5f } %s;%s\n' "$iter" "$sum" "$unit" "$note"
	if [ "${#outs[@]}" -gt 0 ]; then
		late=$(awk -v a="$last" -v s="$START" 'BEGIN { printf "%.4f", a - s }')
		printf 'start skew: %.4f s over %d nodes (last start %s s after the agreed instant); end skew: %.4f s\n' \
			"$skew" "${#outs[@]}" "$late" "$eskew"
		if [ "$p50" != 0.000 ] || [ "$p99" != 0.000 ]; then
			printf 'latency (usec): p50 %.2f, p99 %.2f, p99.9 %.2f (merged from %d nodes)\n' \
				"$p50" "$p99" "$p999" "${#outs[@]}"
		fi
	fi
	printf '%s\t%s\t%.17g\t%s%s\n' "$iter" "$counted" "$sum" "$unit" "$vals" >>"$WORK/rec.$threads.$name.tsv"
	# Its record, from the merge and the nodes' records (merge --iteration-record).
	k=true v=true
	[ "$NFAIL" = 0 ] || k=false
	[[ $note != *"NOT CONCURRENT"* ]] || v=false
	"$AT_IO_LOCAL_PATH" merge --iteration-record --iteration "$iter" --start-at "$START" --complete "$k" \
		--concurrent "$v" --ok-nodes "$((${#HOSTS[@]} - NFAIL))" --unit "$unit" \
		--max-skew-sec "$(us_to_sec "$max_us")" ${merge[@]+"${merge[@]}"} -- ${nodes[@]+"${nodes[@]}"} \
		>>"$WORK/rec.$threads.$name.jsonl" 2>"$dir/record.err" ||
		warn "atio merge --iteration-record failed: $(head -n 1 "$dir/record.err")"
	[ "$counted" = 0 ] || [ "${#merge[@]}" = 0 ] || mv -f "$dir/merge.json" "$WORK/iter.$threads.$name.$iter.json"
	rm -rf "$dir"
}

# Test $1 with $2 threads: its section line, atio's settings header, the
# iterations (each after a pause) and the average line; its summary goes
# to sum.THREADS.TEST.json.
run_test() {
	local name=$1 threads=$2 time=$TIME iters=$ITERATIONS it extras=1
	[ "$name" != warmup ] || { time=$WARMUP_TIME iters=1 extras=0; }
	atio_args "$name" "$threads" "$time"
	printf -- '---=== %s (%sthr) ===---\n' "$T_TITLE" "$threads"
	# The seed of -a is not the nodes' seed, nor the filesystem here theirs:
	# leave them out.
	"$AT_IO_LOCAL_PATH" -a "${ARGS[@]}" | grep -Ev '^(Seed|Filesystem):' || true
	# The word of atio's option stays off this line: grep rate finds results only.
	[ -z "$NODE_CAP" ] || [ "$name" = warmup ] ||
		printf 'cap: %s %s on each node (ATIO_OPTS), not on the cluster: the sum may reach %s times that\n' \
			"$NODE_CAP" "$T_UNIT" "${#HOSTS[@]}"
	for ((it = 1; it <= iters; it++)); do
		pause
		run_once "$name" "$threads" "$time" "$it"
	done
	test_summary "$WORK/rec.$threads.$name.tsv" "$threads" "$name" "$WORK/sum.$threads.$name.json" |
		print_test_summary "$extras"
}

# The check step of TESTS: atio --check of the files of $1 threads on every
# node (no common start, no time limit: reading them takes what it takes),
# each node's summary line, or a FAILURE with the bad ranges atio named;
# then how many nodes' data checked out. A node's bad data makes the exit
# status 1 and is never a figure in a sum.
check_data() {
	local dir
	RUN_SEQ=$((RUN_SEQ + 1))
	dir="$WORK/run.$RUN_SEQ"
	printf -- '---=== Check (%sthr) ===---\n' "$1"
	launch_run check "$1" 0 "$dir" 0
	print_nodes "$dir" 1
	printf 'Check: the data of %d of %d nodes checked out%s\n' "$((${#HOSTS[@]} - NFAIL))" \
		"${#HOSTS[@]}" "$([ "$NFAIL" = 0 ] || echo " (FAILURE: $FAILED_HOSTS)")"
	[ "$NFAIL" = 0 ] || FAILED=1
	rm -rf "$dir"
}

# Create and fill the files of $1 threads on every node ("Loading in N
# threads..."), passing atio's warnings on.
load_files() {
	local dir i
	RUN_SEQ=$((RUN_SEQ + 1))
	dir="$WORK/run.$RUN_SEQ"
	echo "Loading in $1 threads..."
	launch_run load "$1" "$LOAD_TIME" "$dir" 0
	print_nodes "$dir" 0
	for i in "${!HOSTS[@]}"; do
		{ grep -h 'warning' "$dir/$i.err" 2>/dev/null || true; } | sed "s|^|$PROG: ${HOSTS[$i]}: |" >&2
	done
	[ "$NFAIL" = 0 ] || FAILED=1
	rm -rf "$dir"
}

# Print, per node, the remote commands a session would send: connect to
# nothing, copy nothing, run nothing.
dry_run() {
	local i n t time path="$REMOTE_BINARIES_PATH/atio" tmp="$REMOTE_BINARIES_PATH/.atio-parallel.RUNID.tmp"
	RUN_ID=RUNID
	echo "Dry run: nothing is connected to, copied or run."
	echo "Each node's session (one login, at most $FANOUT being opened at once): ssh $(quote_words ${SSH_EXTRA[@]+"${SSH_EXTRA[@]}"} -o BatchMode=yes \
		-o ConnectTimeout=5 -o ControlMaster=auto -o ControlPath=DIR/%C -o ControlPersist=600 \
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3) -- HOST $AGENT_CMD"
	echo "Every COMMAND below is one line written to that session; \$D is its directory on the node. --start-at -: once every node's atio says \"atio: ready:\" on stderr, the driver writes one EPOCH (that time + $START_MARGIN s) to every node's session; N: the run's number, TOKEN: the answer's."
	for i in "${!HOSTS[@]}"; do
		printf '[%d] %s\n  connect, and say what the node is: %s\n  clock: date +%%s.%%N\n' "$((i + 1))" \
			"${HOSTS[$i]}" "$(remote_identity_cmd)"
		echo "  installed atio: $(remote_installed_probe_cmd)"
		echo "    if it prints PATH<TAB>$LOCAL_VERSION: PATH is the atio of the commands below, in place of $path; nothing is checked or copied"
		echo "  else check atio: $(remote_probe_cmd "$path")"
		printf '  if atio is missing%s: scp %s %s\n' "$([ "$REPLACE" = 0 ] || echo " or of another version")" \
			"$(quote_words "$AT_IO_LOCAL_PATH")" "$(scp_target "${HOSTS[$i]}" "$tmp")"
		echo "    then: chmod 755 $(quote_words "$tmp") && mv -f $(quote_words "$tmp" "$path")"
		for n in "${THREAD_LIST[@]}"; do
			atio_args load "$n" "$LOAD_TIME"
			echo "  load ($n threads): $(remote_run_cmd "$i" N none TOKEN "$path" "${ARGS[@]}" --json)"
			for t in warmup "${TEST_LIST[@]}"; do
				time=$TIME
				[ "$t" != warmup ] || time=$WARMUP_TIME
				atio_args "$t" "$n" "$time"
				if [ "$t" = check ]; then
					echo "  $t ($n threads): $(remote_run_cmd "$i" N none TOKEN "$path" "${ARGS[@]}")"
				else
					echo "  $t ($n threads): $(remote_run_cmd "$i" N start TOKEN "$path" "${ARGS[@]}" --json --start-at -)"
					printf '    then: printf %s EPOCH >&4; exec 4>&-\n' "'%s\\n'"
				fi
			done
		done
		echo "  stop (Ctrl-C, overrun, failure): $(remote_stop_cmd)"
		echo "  at the end: the session's input closed (its shell removes \$D)"
	done
}

# Write the -o file: one JSON document with the settings, the nodes, and
# per thread count and test the summary and every iteration with every
# node's result (atio merge --matrix, from the node list, the list of the
# tests' summaries and records, and the settings); $1 is the exit status.
# False, with a warning, when it could not be written.
write_matrix() {
	local i n t sum l="" flags=()
	[ "$INTERRUPTED" != 1 ] || flags=(--interrupted)
	for i in "${!HOSTS[@]}"; do
		printf '%s\t%s\t%s\n' "${HOSTS[$i]}" "${NODE_OFFSET[$i]:-unknown}" "${NODE_ATIO[$i]:-}"
	done >"$WORK/nodes.tsv"
	for n in "${THREAD_LIST[@]}"; do
		for t in warmup "${TEST_LIST[@]}"; do
			[ -e "$WORK/rec.$n.$t.jsonl" ] || continue
			sum="$WORK/sum.$n.$t.json"
			[ -s "$sum" ] || sum=""
			printf '%s\t%s\t%s\t%s\n' "$n" "$t" "$sum" "$WORK/rec.$n.$t.jsonl"
		done
	done >"$WORK/results.tsv"
	"$AT_IO_LOCAL_PATH" merge --matrix --nodes "$WORK/nodes.tsv" --results "$WORK/results.tsv" \
		--exit-status "$1" ${flags[@]+"${flags[@]}"} \
		--set "atio_version=$LOCAL_VERSION" --set "time_sec=$TIME" --set "file_size=$FILE_SIZE" \
		--set "threads=$THREADS" --set "iterations=$ITERATIONS" --set "blocksize=$BLOCKSIZE" \
		--set "remote_binaries_path=$REMOTE_BINARIES_PATH" \
		--set "remote_pcs_mount_path=$REMOTE_PCS_MOUNT_PATH" --set "pause_sec=$PAUSE" \
		--set "tests=$TESTS" --set "atio_opts=$ATIO_OPTS" --set "warmup_time_sec=$WARMUP_TIME" \
		--set "start_margin_sec=$START_MARGIN" --set "overrun_sec=$OVERRUN" \
		--set "ready_timeout_sec=$READY_TIMEOUT" --set "max_skew_percent=$MAX_SKEW" \
		--set "profile=$PROFILE" --set "node_cap=$NODE_CAP" \
		>"$WORK/matrix.json" 2>"$WORK/matrix.err" || {
		read -r l <"$WORK/matrix.err" || true
		warn "-o $OUT_JSON: could not make the document: $l"
		return 1
	}
	write_out_file "$WORK/matrix.json"
}

# Put file $1 at OUT_PATH (see out_target): copied to a new temporary file
# beside it, which then replaces it (mv -T: never into a directory made
# there meanwhile), keeping the mode of the file it replaces. What is at
# OUT_PATH now and is not a regular file is left alone. False, with a
# warning, when the document could not be written.
write_out_file() {
	local d tmp="" err="$WORK/out.err"
	if [ -L "$OUT_PATH" ] || { [ -e "$OUT_PATH" ] && [ ! -f "$OUT_PATH" ]; }; then
		warn "-o $OUT_JSON: $OUT_PATH is no longer a regular file: the results were not written"
		return 1
	fi
	d=$(dirname -- "$OUT_PATH")
	if tmp=$(mktemp -- "$d/.${OUT_PATH##*/}.XXXXXX" 2>"$err") && cat -- "$1" >"$tmp" 2>"$err" &&
		{ [ ! -e "$OUT_PATH" ] || chmod --reference="$OUT_PATH" -- "$tmp" 2>"$err"; } &&
		mv -f -T -- "$tmp" "$OUT_PATH" 2>"$err"; then
		return 0
	fi
	[ -z "$tmp" ] || rm -f -- "$tmp"
	warn "-o $OUT_JSON: could not write the results: $(head -n 1 "$err")"
	return 1
}

# On SIGINT, SIGTERM or SIGHUP: stop atio on every node, show what the
# nodes of the interrupted run said, exit 130.
on_signal() {
	trap '' INT TERM HUP
	INTERRUPTED=1
	warn "interrupted: stopping atio on the nodes"
	[ -z "${SLEEP_PID:-}" ] || kill "$SLEEP_PID" 2>/dev/null || true
	if [ "${RUN_ACTIVE:-0}" = 1 ]; then
		stop_nodes
		wait_jobs 0
		print_nodes "$JOB_DIR" 1
	fi
	exit 130
}

# At exit ($? the status): end the jobs still running and their ssh, write
# -o, remove the PID files on the nodes (a node gets 3 s to answer), close
# the shared connections, remove the work files.
cleanup() {
	local status=$? i pids=()
	trap '' INT TERM HUP
	# The ssh of the jobs, the jobs, then any ssh a job started meanwhile.
	[ -z "${SSH_PIDS:-}" ] || end_ssh ""
	for i in "${!HOSTS[@]}"; do
		job_running "$i" || continue
		kill "${JOB_PIDS[$i]}" 2>/dev/null || true
		wait "${JOB_PIDS[$i]}" 2>/dev/null || true
	done
	[ -z "${SSH_PIDS:-}" ] || end_ssh ""
	# Results that could not be written are a failure (exit 1).
	[ -z "$OUT_JSON" ] || write_matrix "$status" || [ "$status" != 0 ] || status=1
	session_close_all
	for i in "${!HOSTS[@]}"; do
		ssh "${SSH_BASE[@]}" -O exit -- "${HOSTS[$i]}" </dev/null >/dev/null 2>&1 &
		pids+=($!)
	done
	# A node that did not answer: its rm ends, its connection is closed.
	wait_gone 30 ${pids[@]+"${pids[@]}"} || end_ssh ""
	[ "${#pids[@]}" -eq 0 ] || wait "${pids[@]}" 2>/dev/null || true
	rm -rf "$WORK"
	exit "$status"
}

# Run the matrix: preparation, then per thread count the loading, the
# warm-up and every test (none when the loading failed on every node).
main() {
	local n t status=0
	parse_args "$@"
	validate
	if [ "$DRY_RUN" = 1 ]; then
		dry_run
		exit 0
	fi
	FAILED=0 INTERRUPTED=0 OVERRAN=0 RUN_SEQ=0 RUN_ACTIVE=0 SLEEP_PID="" SSH_PIDS="" MAX_LOGIN=0
	JOB_PIDS=() JOB_DIR="" NODE_OFFSET=() NODE_SKEW_OFFSET=() NODE_ATIO=() SETSID=() READY=()
	SESS_IN=() SESS_OUT=() SESS_PID=() SESS_T0=() NODE_LOGIN=() SESS_WHY="" SESS_EXTRA="" SESS_TOKEN=""
	! command -v setsid >/dev/null || SETSID=(setsid)
	WORK=$(mktemp -d /tmp/atio-parallel.XXXXXX)
	SSH_PIDS=$WORK/ssh-pids
	SESS_DIR=$WORK/sessions
	mkdir "$SSH_PIDS" "$SESS_DIR"
	mkfifo "$SESS_DIR/nap"
	RUN_ID="$(date +%s).$$.$RANDOM"
	# One socket per node in a private directory: one handshake per node.
	SSH_BASE=(${SSH_EXTRA[@]+"${SSH_EXTRA[@]}"} -o BatchMode=yes -o ConnectTimeout=5
		-o ControlMaster=auto -o "ControlPath=$WORK/%C" -o ControlPersist=600
		-o ServerAliveInterval=5 -o ServerAliveCountMax=3)
	trap cleanup EXIT
	trap on_signal INT TERM HUP
	prepare_nodes
	for n in "${THREAD_LIST[@]}"; do
		load_files "$n"
		# No node has files to test: every run would fail the same way.
		if [ "$NFAIL" = "${#HOSTS[@]}" ]; then
			printf 'Loading failed on every node: the warm-up and the tests with %s threads are skipped\n' "$n"
			continue
		fi
		run_test warmup "$n"
		for t in "${TEST_LIST[@]}"; do
			if [ "$t" = check ]; then
				check_data "$n"
				continue
			fi
			run_test "$t" "$n"
		done
	done
	[ "$FAILED" = 0 ] && [ "$OVERRAN" = 0 ] || status=1
	exit "$status"
}

if [ "${ATIO_PARALLEL_LIB:-}" != 1 ]; then
	main "$@"
fi
