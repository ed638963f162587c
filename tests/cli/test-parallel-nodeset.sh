#!/bin/bash
# scripts/atio-parallel.sh's host lists, as ClusterShell's nodeset and pdsh
# write them, with no node and no sshd: node[001-128] keeps the width of
# its bounds, 10.0.0.[1-64], lists and ranges in one group (n[1-3,7]),
# steps (n[1-9/2]), several groups (every combination, the first slowest),
# lists of patterns on one argument or -h line (node[1-2],other), and
# user@node[1-4]. IPv6 addresses and ssh-config aliases pass as written; a
# bad range (high to low, unclosed, empty, not digits, [::1], too many
# hosts) is exit 2 naming the text. A host that two lists name is refused
# (exit 2) naming it and both lists, with the -h file's line. The function
# (nodeset_expand, the driver sourced with ATIO_PARALLEL_LIB=1) is called
# directly; --dry-run shows the hosts in order and refuses a duplicate
# before printing anything. node[00001-10000] is expanded in a time that
# is printed, bounded far above what it takes. Each host's subdirectory of
# the test directory (node_dir_name) and where the dry run runs atio.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DRIVER=${ATIO_PARALLEL:-$(cd "$(dirname "$0")/../.." && pwd)/scripts/atio-parallel.sh}
[ -f "$DRIVER" ] || die "$DRIVER does not exist"

# expand LIST [WHERE]: the driver's nodeset_expand of LIST in a subshell of
# its own (the driver's die exits it): the hosts on $OUT, one a line, the
# message on $ERR, the status in $RC.
expand() {
	LAST="nodeset_expand $*"
	# shellcheck disable=SC1090,SC2034 # the driver under test, which reads ATIO_PARALLEL_LIB
	if (ATIO_PARALLEL_LIB=1 && . "$DRIVER" && nodeset_expand "$@" && printf '%s\n' "${NODESET[@]}") \
		>"$OUT" 2>"$ERR"; then
		RC=0
	else
		RC=$?
	fi
}

# expands WHAT LIST EXPECTED_FILE: LIST expands, exit 0, to the lines of
# EXPECTED_FILE, in their order.
expands() {
	expand "$2"
	if [ "$RC" = 0 ] && cmp -s "$OUT" "$3"; then
		ok "$1: $2"
	else
		not_ok "$1: $2" "exit $RC; expected (<) and expanded (>):" \
			"$(diff "$3" "$OUT" | head -n 12)" "$(cat "$ERR")"
	fi
}

# expands_to WHAT LIST HOST...: LIST expands to the HOSTs, in order.
expands_to() {
	local what=$1 list=$2

	shift 2
	printf '%s\n' "$@" >"$WORK/expected"
	expands "$what" "$list" "$WORK/expected"
}

# refused WHAT LIST ERE: LIST is refused with exit 2 and one line on
# stderr that names LIST and matches ERE; nothing on stdout.
refused() {
	expand "$2"
	if [ "$RC" = 2 ] && [ ! -s "$OUT" ] && [ "$(wc -l <"$ERR")" = 1 ] &&
		grep -qF -- "host '$2'" "$ERR" && grep -qE -- "$3" "$ERR"; then
		ok "$1: $2 refused (exit 2), named"
	else
		not_ok "$1: $2 refused (exit 2), named" "exit $RC, expected 2; stderr should name '$2' and match: $3" \
			"stderr: $(cat "$ERR")" "stdout: $(head -n 3 "$OUT")"
	fi
}

# --- Ranges as large clusters write them. The expected lists are made by
# seq, not by the driver.
seq -f 'node%03g' 1 128 >"$WORK/expected"
expands "zero padding kept from the bounds' width" 'node[001-128]' "$WORK/expected"
seq -f '10.0.0.%g' 1 64 >"$WORK/expected"
expands "an address range" '10.0.0.[1-64]' "$WORK/expected"
expands_to "lists and ranges in one group" 'n[1-3,7,10-12]' n1 n2 n3 n7 n10 n11 n12
expands_to "no padding without a leading zero" 'n[8-11]' n8 n9 n10 n11
expands_to "a padded lower bound pads the range" 'n[08-11]' n08 n09 n10 n11
{ seq -f 'n%03g' 998 999; echo n1000; } >"$WORK/expected"
expands "a wider upper bound is its own width" 'n[998-1000]' "$WORK/expected"
expands_to "a single number keeps its zeros" 'n[007]' n007
expands_to "a step" 'n[1-9/2]' n1 n3 n5 n7 n9
expands_to "a step with padding, in a list" 'n[01-10/3,20]' n01 n04 n07 n10 n20
expands_to "several groups: every combination, the first slowest" 'r[1-2]n[1-3]' \
	r1n1 r1n2 r1n3 r2n1 r2n2 r2n3
expands_to "groups side by side, text after" 'c[0-1][8-9].ib' c08.ib c09.ib c18.ib c19.ib
expands_to "a list of patterns (commas inside brackets are the range's)" 'node[1-2,4],other,x[7]' \
	node1 node2 node4 other x7
expands_to "user@ before a range" 'root@node[1-4]' root@node1 root@node2 root@node3 root@node4

# --- What has no brackets and no commas passes as written.
for h in fe80::1 ::1 2001:db8::10 root@fe80::1%eth0 my-alias node-1.example.com 10.1.2.3; do
	expands_to "passes untouched" "$h" "$h"
done

# --- Bad ranges: exit 2, the list and the bad part named.
refused "a range from high to low" 'n[5-1]' "'5-1' in '\[5-1\]' goes from high to low: write 1-5"
refused "an unclosed bracket" 'n[1-3' "a '\[' without its '\]'"
refused "a stray closing bracket" 'n1-3]' "a '\]' without its '\['"
refused "brackets inside brackets" 'n[1-[2]]' "brackets do not nest"
refused "an empty group" 'n[]' "an empty \[\]"
refused "an empty item" 'n[1,,3]' "an empty item in '\[1,,3\]'"
refused "a trailing comma in a group" 'n[1,]' "an empty item in '\[1,\]'"
refused "letters in a group" 'n[a-c]' "'a-c' in '\[a-c\]' is not a number"
refused "a range with two dashes" 'n[1-2-3]' "'1-2-3' in '\[1-2-3\]' is not a number"
refused "blanks in a group" 'n[1, 2]' "' 2' in '\[1, 2\]' is not a number"
refused "a step of 0" 'n[1-9/0]' "'1-9/0' in '\[1-9/0\]': a step of 0"
refused "bounds of different widths" 'n[1-010]' "'1-010' in '\[1-010\]': its bounds have different widths"
refused "a number of 19 digits" 'n[1234567890123456789]' "a number of more than 18 digits"
refused "an IPv6 address in brackets" '[::1]' "no range of numbers: write an IPv6 address without brackets \('::1'\)"
refused "an empty name in a list" 'a,,b' "an empty name before or after a comma"
refused "a list ending in a comma" 'node[1-2],' "an empty name before or after a comma"
refused "a range of more than 100000 hosts" 'n[1-100001]' "'\[1-100001\]' names more than 100000 hosts"
refused "groups whose combinations exceed 100000 hosts" 'r[1-1000]n[1-1000]' "names more than 100000 hosts"
refused "a list whose patterns together exceed 100000 hosts" 'a[1-60000],b[1-60000]' "names more than 100000 hosts"
expand ''
what="an empty host"
if [ "$RC" = 2 ] && grep -q "host '': an empty host name" "$ERR"; then ok "$what: refused"; else
	not_ok "$what: refused" "exit $RC: $(cat "$ERR")"; fi
expand $'n[1\r]'
what="a control character in a group"
if [ "$RC" = 2 ] && grep -qF "host \$'n[1\\r]'" "$ERR" && [ "$(tr -cd '\r' <"$ERR" | wc -c)" = 0 ]; then
	ok "$what: shown quoted, never raw"
else
	not_ok "$what: shown quoted, never raw" "exit $RC: $(cat -A "$ERR")"
fi

# --- 10,000 hosts: expanded in the shell, the time printed; bounded at
# 20 s, a hundred times what it takes on a busy 2-core machine (the bound
# catches a fork per host or a quadratic step, not a slow machine).
t0=$(now_ms)
expand 'node[00001-10000]'
ms=$(($(now_ms) - t0))
seq -f 'node%05g' 1 10000 >"$WORK/expected"
if [ "$RC" = 0 ] && cmp -s "$OUT" "$WORK/expected"; then
	ok "node[00001-10000]: 10000 hosts, node00001 to node10000 in order ($ms ms, the driver sourced included)"
else
	not_ok "node[00001-10000]: 10000 hosts in order" "exit $RC, $(wc -l <"$OUT") lines: $(head -c 300 "$ERR")"
fi
if [ "$ms" -lt 20000 ]; then ok "node[00001-10000]: expanded in $ms ms (bound 20000)"; else
	not_ok "node[00001-10000]: expanded within 20 s" "$ms ms"; fi

# --- The driver's host arguments and -h files (parse_args): ranges in
# both, in the order given; a host that two lists name is refused naming
# it, both lists, and where in the file.
# hosts WHERE ARG...: parse_args ARG... in a subshell; HOSTS on $OUT, one a
# line, the message on $ERR, the status in $RC.
hosts() {
	LAST="parse_args $*"
	# shellcheck disable=SC1090,SC2034 # the driver under test, which reads ATIO_PARALLEL_LIB
	if (ATIO_PARALLEL_LIB=1 && . "$DRIVER" && parse_args "$@" && printf '%s\n' "${HOSTS[@]}") \
		>"$OUT" 2>"$ERR"; then
		RC=0
	else
		RC=$?
	fi
}
printf '# the racks\nr[1-2]n[01-02]   # four nodes\n\n  login[1-2],gw\r\n10.0.0.[7-8]\n' >"$WORK/nodes"
hosts 'c[1-2]' -h "$WORK/nodes" fe80::1 -- 'd[3,5]'
printf '%s\n' c1 c2 r1n01 r1n02 r2n01 r2n02 login1 login2 gw 10.0.0.7 10.0.0.8 fe80::1 d3 d5 >"$WORK/expected"
if [ "$RC" = 0 ] && cmp -s "$OUT" "$WORK/expected"; then
	ok "ranges in arguments, a -h file (comments, blanks, CR LF) and after --, in order"
else
	not_ok "ranges in arguments, a -h file and after --, in order" "exit $RC" \
		"$(diff "$WORK/expected" "$OUT")" "$(cat "$ERR")"
fi
# dup WHAT ERE ARG...: parse_args ARG... is exit 2, its message matching ERE.
dup() {
	local what=$1 ere=$2

	shift 2
	hosts "$@"
	if [ "$RC" = 2 ] && grep -qE -- "$ere" "$ERR"; then
		ok "$what: refused (exit 2), naming the host and both lists"
	else
		not_ok "$what: refused (exit 2), naming the host and both lists" "exit $RC; expected: $ere" \
			"stderr: $(cat "$ERR")"
	fi
}
dup "two overlapping ranges" "host 'node3' is given twice, by 'node\[1-4\]' and by 'node\[3-5\]': each node once" \
	'node[1-4]' 'node[3-5]'
dup "a range and a plain name" "host 'node03' is given twice, by 'node\[01-04\]' and by 'node03'" 'node[01-04]' node03
dup "twice in one group" "host 'n2' is given twice, by 'n\[1-3,2\]' and by 'n\[1-3,2\]'" 'n[1-3,2]'
dup "a plain name twice" "^atio-parallel.sh: host 'node1' is given twice: each node once$" node1 node2 node1
# A name that a shell would run, twice: refused as a name, never run (the
# duplicate check looks names up, never evaluates them).
evil="\$(touch $WORK/ran)"
dup "a name holding \$(...), twice" "host '\\\$\(touch .*/ran\)' is given twice" "$evil" 'n[1-2]' "$evil"
check "a name holding \$(...): nothing ran" test ! -e "$WORK/ran"
printf 'a[1-3]\n# b\nb[1-2]\n' >"$WORK/dup"
dup "a -h file's line and an argument" \
	"host 'b2' is given twice, by 'b\[1-2\]' \(-h $WORK/dup line 3\) and by 'b\[2-3\]'" -h "$WORK/dup" 'b[2-3]'
printf 'ok1\nn[3-1]\n' >"$WORK/bad"
hosts -h "$WORK/bad"
what="a bad range in a -h file"
if [ "$RC" = 2 ] && grep -qF -- "-h $WORK/bad line 2: host 'n[3-1]': '3-1' in '[3-1]' goes from high to low" "$ERR"; then
	ok "$what: exit 2, the file, line and range named"
else
	not_ok "$what: exit 2, the file, line and range named" "exit $RC: $(cat "$ERR")"
fi
printf 'n[1-2] n3\n' >"$WORK/bad"
hosts -h "$WORK/bad"
what="two lists on one -h line"
if [ "$RC" = 2 ] && grep -qF -- "line 1: 'n[1-2] n3': one host or host list per line" "$ERR"; then
	ok "$what: exit 2, the line named"
else
	not_ok "$what: exit 2, the line named" "exit $RC: $(cat "$ERR")"
fi

# --- --dry-run, which connects to nothing: the expanded hosts in order,
# and a duplicate refused before anything is printed. ssh -G (the check of
# sameness by destination, where ssh is installed) reads no user's config.
# drive ARG...: the driver, stdout on $OUT, stderr on $ERR, status in $RC.
drive() {
	LAST="atio-parallel.sh $*"
	if ${LIMIT[@]+"${LIMIT[@]}"} env AT_IO_LOCAL_PATH="$ATIO" SSH_OPTS="-F /dev/null" TIME=1 THREADS=1 \
		TESTS=seqread ITERATIONS=1 PAUSE=0 FILE_SIZE=16M "$DRIVER" --dry-run -d /mnt/bench "$@" \
		</dev/null >"$OUT" 2>"$ERR"; then
		RC=0
	else
		RC=$?
	fi
}
printf 'gw\nrack[1-2]-n[1-2]\n' >"$WORK/nodes"
drive 'node[08-10]' -h "$WORK/nodes" 'root@10.0.0.[1-2]'
expect_code "--dry-run with ranges: exit 0" 0
grep -E '^\[[0-9]+\] ' "$OUT" >"$WORK/listed" || true
printf '%s\n' '[1] node08' '[2] node09' '[3] node10' '[4] gw' '[5] rack1-n1' '[6] rack1-n2' '[7] rack2-n1' \
	'[8] rack2-n2' '[9] root@10.0.0.1' '[10] root@10.0.0.2' >"$WORK/expected"
if cmp -s "$WORK/listed" "$WORK/expected"; then
	ok "--dry-run with ranges: every host once, in order"
else
	not_ok "--dry-run with ranges: every host once, in order" "$(diff "$WORK/expected" "$WORK/listed")"
fi
expect_match "--dry-run with ranges: a node's commands" "$OUT" "atio'? --read --seq -s 16M --mbs -p 1 -t 1 "
drive 'node[08-10]' -h "$WORK/nodes" 'rack2-n[0-1]'
expect_code "--dry-run, rack2-n1 twice: exit 2" 2
expect_match "--dry-run, rack2-n1 twice: both lists named" "$ERR" \
	"host 'rack2-n1' is given twice, by 'rack\[1-2\]-n\[1-2\]' \(-h $WORK/nodes line 2\) and by 'rack2-n\[0-1\]': each node once"
expect_empty "--dry-run, rack2-n1 twice: nothing printed" "$OUT"
drive 'node[10-8]'
expect_code "--dry-run node[10-8]: exit 2" 2
expect_match "--dry-run node[10-8]: the range named" "$ERR" "host 'node\[10-8\]': '10-8' in '\[10-8\]' goes from high to low"
drive fe80::1 'node[1-2]'
expect_code "--dry-run with an IPv6 address and a range: exit 0" 0
expect_match "--dry-run with an IPv6 address: as written" "$OUT" '^\[1\] fe80::1$'
expect_match "--dry-run with an IPv6 address: the range after it" "$OUT" '^\[3\] node2$'

# --- Each node's subdirectory of the test directory (NODE_DIR=subdir, the
# default): node-HOST, without the user, in lower case, with _ for what is
# no letter, digit or ._- (an IPv6 address's colons and zone); the dry
# run's commands run there. Two hosts of one name are refused (exit 2),
# and so is a NODE_DIR that is neither subdir nor given.
for h in 'node1|node-node1' 'root@Node1|node-node1' 'fe80::1%eth0|node-fe80__1_eth0' \
	'user@10.0.0.1|node-10.0.0.1' 'a.b-c_d|node-a.b-c_d'; do
	# shellcheck disable=SC1090,SC2034 # the driver under test, which reads ATIO_PARALLEL_LIB
	got=$(ATIO_PARALLEL_LIB=1 && . "$DRIVER" && node_dir_name "${h%|*}" && printf '%s' "$DIR_NAME") ||
		got="(failed)"
	if [ "$got" = "${h#*|}" ]; then
		ok "the subdirectory of host ${h%|*}: ${h#*|}"
	else
		not_ok "the subdirectory of host ${h%|*}: ${h#*|}" "it is $got"
	fi
done
drive root@node1 fe80::1
expect_code "--dry-run, a subdirectory for each node: exit 0" 0
expect_match "--dry-run: root@node1 runs in /mnt/bench/node-node1" "$OUT" "atio'? --read --seq .* -f /mnt/bench/node-node1( |$)"
expect_match "--dry-run: fe80::1 runs in /mnt/bench/node-fe80__1" "$OUT" "atio'? --read --seq .* -f /mnt/bench/node-fe80__1( |$)"
expect_match "--dry-run: root@node1's subdirectory is made when missing" "$OUT" "mkdir /mnt/bench/node-node1;"
drive --node-dir given node1
expect_code "--dry-run, NODE_DIR=given: exit 0" 0
expect_match "--dry-run, NODE_DIR=given: node1 runs in /mnt/bench" "$OUT" "atio'? --read --seq .* -f /mnt/bench( |$)"
expect_no_match "--dry-run, NODE_DIR=given: no mkdir" "$OUT" "mkdir /mnt/bench"
drive fe80::1 fe80__1
expect_code "--dry-run, fe80::1 and fe80__1: exit 2" 2
expect_match "--dry-run, fe80::1 and fe80__1: both named, and the subdirectory" "$ERR" \
	"hosts 'fe80::1' and 'fe80__1' would run in one subdirectory /mnt/bench/node-fe80__1"
drive --node-dir local node1
expect_code "--dry-run, --node-dir local: exit 2" 2
expect_match "--dry-run, --node-dir local: the value named" "$ERR" "NODE_DIR \(--node-dir\) 'local': not subdir"

# What the driver cannot write or run as asked: refused before any node.
drive -o "$WORK/same" --csv "$WORK/same" node1
expect_code "--dry-run, -o and --csv one file: exit 2" 2
expect_match "--dry-run, -o and --csv one file: named" "$ERR" "--csv $WORK/same: the file of -o $WORK/same too"
# A CSV of other columns (a run's, not the driver's): left alone, before any node.
run_atio --engine null --read -t 0.1 --csv "$WORK/run.csv"
drive --csv "$WORK/run.csv" node1
expect_code "--dry-run, --csv to a file of other columns: exit 2" 2
expect_match "--dry-run, --csv to a file of other columns: said" "$ERR" "--csv $WORK/run.csv: holds something else"
drive --csv "$WORK/new.csv" --sweep 's=4K,8K' node1
expect_code "--dry-run, --csv with --sweep: exit 2" 2
expect_match "--dry-run, --csv with --sweep: said" "$ERR" "--csv $WORK/new.csv with --sweep or --curve"
drive --csv "$WORK/new.csv" --tests 'mdcreate mddelete' node1
expect_code "--dry-run, --csv with metadata tests: exit 2" 2
expect_match "--dry-run, --csv with metadata tests: said" "$ERR" "with the metadata test mdcreate"
drive --sweep 'iodepth=1,2' --tests 'mdcreate mddelete' node1
expect_code "--dry-run, --sweep of metadata tests: exit 2" 2
expect_match "--dry-run, --sweep of metadata tests: said" "$ERR" "--sweep 'iodepth=1,2' with the metadata test mdcreate"
drive --curve '10,abc' node1
expect_code "--dry-run, --curve 10,abc: exit 2, not taken as hosts" 2
expect_match "--dry-run, --curve 10,abc: named" "$ERR" "--curve '10,abc': not a list of percentages"
drive --curve '10.0.0.1,10.0.0.2'
expect_code "--dry-run, --curve then addresses: the default curve on those hosts, exit 0" 0
check "--dry-run refusals: no CSV made" [ ! -e "$WORK/new.csv" ]

finish
