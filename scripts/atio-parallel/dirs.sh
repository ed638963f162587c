# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153 # the test directories it sets are read by the other parts
#
# atio-parallel.sh, sourced part: the test directory of each node. With
# NODE_DIR=subdir (the default) a node runs in a subdirectory of its own
# of REMOTE_PCS_MOUNT_PATH, named for it (node-HOST), which the driver makes
# when it is missing; with NODE_DIR=given in REMOTE_PCS_MOUNT_PATH itself.
# Before the first run the driver finds out which nodes share the test
# directory (a cluster filesystem's mount, which every node sees): each
# node makes a marker file of a random name in it, each looks for the
# others', and each removes its own. A device and inode say nothing across
# machines; a file one node made and another finds does. Two nodes never
# run on one dataset: NODE_DIR=given with a shared directory is refused.

# Set DIR_NAME to the name of host $1's subdirectory (no fork: a
# thousand nodes take none): node-HOST, HOST the host as given without its
# user (root@X and X are one node) in lower case (as ssh takes it), every
# character but letters, digits and ._- (the colons and % of an IPv6
# address) made _. Stable from run to run, so that a node finds the
# dataset it made before.
node_dir_name() {
	local h=${1##*@}
	h=${h,,}
	DIR_NAME=node-${h//[!a-z0-9._-]/_}
}

# Set NODE_TEST_DIR[i], the directory node i's atio runs in, and
# TEST_DIR_SHOWN, the one atio -a shows in the test headers; exit 2 when
# two hosts would get one subdirectory (two spellings that ssh -G could
# not resolve: one node given twice) or a name is too long for one.
node_test_dirs() {
	local i name base=${REMOTE_PCS_MOUNT_PATH%/}
	local -A seen=()
	NODE_TEST_DIR=()
	if [ "$NODE_DIR" = given ]; then
		TEST_DIR_SHOWN=$REMOTE_PCS_MOUNT_PATH
		for i in "${!HOSTS[@]}"; do NODE_TEST_DIR[i]=$REMOTE_PCS_MOUNT_PATH; done
		return 0
	fi
	TEST_DIR_SHOWN=$base/node-HOST
	for i in "${!HOSTS[@]}"; do
		node_dir_name "${HOSTS[i]}"
		name=$DIR_NAME
		[ "${#name}" -le 255 ] ||
			die "host $(shown "${HOSTS[i]}"): its subdirectory name $name is longer than 255 bytes: give a shorter name (an ssh-config alias)"
		[ -z "${seen[$name]:-}" ] ||
			die "hosts '${seen[$name]}' and '${HOSTS[i]}' would run in one subdirectory $base/$name: give each node once, by one name"
		seen[$name]=${HOSTS[i]}
		NODE_TEST_DIR[i]=$base/$name
	done
}

# The directory that holds node $1's dataset, where the markers go: the
# test directory; with NODE_DIR=given, where that is no directory on the
# node, its parent (atio then makes the files NAME.0 ... there), as the
# node's shell variable m. For the node's shell.
remote_mark_dir_cmd() {
	local d=${REMOTE_PCS_MOUNT_PATH%/} p
	p=${d%/*}
	if [ "$NODE_DIR" = given ]; then
		# shellcheck disable=SC2016 # expanded by the remote shell
		printf 'm=%s; [ -d "$m" ] || m=%s' "$(quote_words "${d:-/}")" "$(quote_words "${p:-/}")"
	else
		printf 'm=%s' "$(quote_words "${d:-/}")"
	fi
}

# The remote command making node $1's marker in its test directory: a new
# file (never one that is there) named by MARK_TOKEN and the node's index.
# Prints "marker PATH", or "marker -" when none could be made (no such
# directory, not writable).
remote_mark_cmd() {
	# shellcheck disable=SC2016 # expanded by the remote shell
	printf '%s; f="$m/.atio-parallel-shared.%s.%s"; if [ -d "$m" ] && (set -C; printf "a marker of atio-parallel.sh, removed when its preparation is over\\n" >"$f") 2>/dev/null; then printf "marker %%s\\n" "$f"; else echo "marker -"; fi' \
		"$(remote_mark_dir_cmd)" "$MARK_TOKEN" "$1"
}

# The remote command of node $1's second preparation round: with
# NODE_DIR=subdir, its subdirectory made when missing ("dir made", "dir
# kept", "dir missing": no test directory there; mkdir's message when it
# fails); then the first other node whose marker it finds in the directory
# its own went to, $2 ("shares INDEX"; nothing for none).
remote_dir_cmd() {
	local i=$1 look=$2 sub
	if [ "$NODE_DIR" = subdir ]; then
		sub=$(quote_words "${NODE_TEST_DIR[i]}")
		printf 'if [ ! -d %s ]; then echo "dir missing"; elif [ -d %s ]; then echo "dir kept"; elif mkdir %s; then echo "dir made"; else echo "dir failed"; fi' \
			"$(quote_words "${REMOTE_PCS_MOUNT_PATH%/}")" "$sub" "$sub"
	fi
	[ -n "$look" ] || return 0
	[ "$NODE_DIR" != subdir ] || printf '; '
	# shellcheck disable=SC2016 # expanded by the remote shell
	printf 'j=0; while [ $j -lt %d ]; do if [ $j != %d ] && [ -e %s/.atio-parallel-shared.%s.$j ]; then echo "shares $j"; break; fi; j=$((j + 1)); done' \
		"${#HOSTS[@]}" "$i" "$(quote_words "$look")" "$MARK_TOKEN"
}

# Node job, first step of the second preparation round: the node's test
# directory (remote_dir_cmd); its findings go to INDEX.dir ("made") and
# INDEX.shares (the index of a node whose marker it found). Returns 1 when
# the command failed (the session lost), 2 when the node has no test
# directory to run in; the reason goes to INDEX.err.
prep_dir() {
	local i=$1 dir=$2 out rc=0 l look=""
	[ -z "${MARK_PATH[i]:-}" ] || look=${MARK_PATH[i]%/*}
	# Nothing to make, nowhere to look.
	[ "$NODE_DIR" = subdir ] || [ -n "$look" ] || return 0
	out=$(node_cmd "$i" "$(remote_dir_cmd "$i" "$look")" 2>>"$dir/$i.err") || rc=$?
	[ "$rc" = 0 ] || return 1
	while IFS= read -r l; do
		case $l in
		"dir made") echo made >"$dir/$i.dir" ;;
		"dir missing")
			echo "test directory $REMOTE_PCS_MOUNT_PATH does not exist on the node, or is no directory: each node runs in a subdirectory of its own of it (NODE_DIR=given: in it as given)" >>"$dir/$i.err"
			rc=1 ;;
		"dir failed")
			echo "cannot make its subdirectory ${NODE_TEST_DIR[i]} there (mkdir failed, above)" >>"$dir/$i.err"
			rc=1 ;;
		"shares "*) echo "${l#shares }" >"$dir/$i.shares" ;;
		"dir kept" | "") ;;
		*) printf '%s\n' "$l" >>"$dir/$i.err" ;;
		esac
	done <<<"$out"
	[ "$rc" = 0 ] || return 2
}

# Read the markers each node made in the first preparation round (files
# INDEX.id in directory $1: a "marker PATH" line) into MARK_PATH.
read_markers() {
	local i k v
	MARK_PATH=()
	for i in "${!HOSTS[@]}"; do
		[ -e "$1/$i.id" ] || continue
		while read -r k v; do
			[ "$k" != marker ] || [ "$v" = - ] || MARK_PATH[i]=$v
		done <"$1/$i.id"
	done
}

# Remove every node's marker: a line to its session, not waited for (the
# session runs its commands in order: the marker is gone before anything
# later runs there, or the session ends).
remove_markers() {
	local i
	for i in "${!MARK_PATH[@]}"; do
		session_send "$i" "rm -f -- $(quote_words "${MARK_PATH[i]}") >/dev/null 2>&1" || true
	done
	MARK_PATH=()
}

# Print hosts of indices $@ for a message: all of them up to 8, else the
# first 6, the last and how many.
hosts_shown() {
	local -a a=("$@")
	local i out=""
	if [ "$#" -le 8 ]; then
		for i in "${a[@]}"; do out+="${out:+, }${HOSTS[i]}"; done
		printf '%s' "$out"
		return 0
	fi
	printf '%s, ... %s (%d nodes)' "$(hosts_shown "${a[@]:0:6}")" "${HOSTS[a[$# - 1]]}" "$#"
}

# After the second preparation round (its files in directory $1): remove
# the markers, and say which nodes share the test directory, each group of
# them once; with NODE_DIR=given, refuse (exit 2) nodes that share it.
shared_dirs() {
	local dir=$1 i j r made=0 unknown=0 line
	local -a top=() members=()
	SHARED_ALL=0
	for i in "${!HOSTS[@]}"; do top[i]=$i; done
	# Each node joins the group of the node whose marker it found.
	for i in "${!HOSTS[@]}"; do
		[ -e "$dir/$i.shares" ] || continue
		read -r j <"$dir/$i.shares" || continue
		if ! [[ $j =~ ^[0-9]+$ ]] || [ -z "${HOSTS[j]:-}" ]; then continue; fi
		r=$j
		while [ "${top[r]}" != "$r" ]; do r=${top[r]}; done
		j=$i
		while [ "${top[j]}" != "$j" ]; do j=${top[j]}; done
		[ "$r" = "$j" ] || top[j]=$r
	done
	for i in "${!HOSTS[@]}"; do
		r=$i
		while [ "${top[r]}" != "$r" ]; do r=${top[r]}; done
		members[r]+="$i "
		[ ! -e "$dir/$i.dir" ] || made=$((made + 1))
		[ -n "${MARK_PATH[i]:-}" ] || unknown=$((unknown + 1))
	done
	for r in "${!members[@]}"; do
		read -ra line <<<"${members[r]}"
		[ "${#line[@]}" -gt 1 ] || continue
		[ "${#line[@]}" != "${#HOSTS[@]}" ] || SHARED_ALL=1
		if [ "$NODE_DIR" = given ]; then
			remove_markers
			die "test directory $REMOTE_PCS_MOUNT_PATH is shared by nodes $(hosts_shown "${line[@]}") (a file that one made there, the others found): with NODE_DIR=given (--node-dir given) they would run on one dataset; leave NODE_DIR unset and each node runs in a subdirectory of its own"
		fi
		echo "test directory $REMOTE_PCS_MOUNT_PATH is shared by nodes $(hosts_shown "${line[@]}"): each node runs in its own subdirectory"
	done
	remove_markers
	[ "$unknown" = 0 ] ||
		warn "could not make a file in the test directory on $unknown of ${#HOSTS[@]} nodes: whether they share it with others is not known"
	TEST_DIRS_MADE=$made
}

# Say where the nodes run: the test directory as given, or each node's
# subdirectory (the first and the last) and on how many nodes the driver
# made it (TEST_DIRS_MADE, from shared_dirs).
say_test_dirs() {
	local n=${#HOSTS[@]}
	if [ "$NODE_DIR" = given ]; then
		echo "Test directory: $REMOTE_PCS_MOUNT_PATH on every node, as given (NODE_DIR=given)"
		return 0
	fi
	printf 'Test directory: %s on each node, a subdirectory of its own (%s%s%s)\n' "$TEST_DIR_SHOWN" \
		"${NODE_TEST_DIR[0]}" "$([ "$n" = 1 ] || echo " ... ${NODE_TEST_DIR[n - 1]}")" \
		"$([ "${TEST_DIRS_MADE:-0}" = 0 ] || echo "; made on $TEST_DIRS_MADE of $n nodes")"
}
