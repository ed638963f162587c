#!/bin/bash
# scripts/atio-parallel.sh's profiles and the tests of the seed 000 guide
# (sshd-harness.sh): --profile vhi runs every test O_DIRECT at depth 32 with
# the guide's block sizes, threads and data set sized by each node (auto),
# the files made by atio --prepare; the tests randrw, expand and
# dsyncwrite run and sum as the others do; a --rate in ATIO_OPTS is said to
# cap each node and holds on each; a bad profile and a host given twice are
# refused before any connection.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

sshd_start 2
driver_setup
HOSTS=(node1 node2)
NCPU=$(getconf _NPROCESSORS_ONLN)

# expect_refused WHAT PATTERN: exit 2, stderr matching PATTERN, no login.
expect_refused() {
	local what=$1

	expect_code "$what: refused with exit 2" 2
	expect_match "$what: the message names it" "$ERR" "$2"
	if [ "$(all_logins)" -eq "$logins" ]; then
		ok "$what: no node was connected to"
	else
		not_ok "$what: no node was connected to" "$(($(all_logins) - logins)) logins"
	fi
}

# --- Refused before any connection.
logins=$(all_logins)
run_driver --profile nope "${HOSTS[@]}"
expect_refused "--profile nope" "PROFILE \\(--profile\\) 'nope': not one of at_io vhi"
run_driver node1 node2 node1
expect_refused "node1 given twice" "host 'node1' is given twice"
run_driver THREADS="1 auto x" node1
expect_refused "THREADS with x" "THREADS \\(-p\\) '1 auto x': 'x' is neither"

# --- The vhi profile's commands (--dry-run), its defaults not overridden.
run_driver FILE_SIZE= THREADS= TESTS= --profile vhi --dry-run node1
what="--dry-run --profile vhi"
expect_code "$what: exit 0" 0
expect_match "$what: the files made by atio --prepare, sized by the node" "$OUT" \
	"load \(auto threads\): .*atio'? --prepare -s 4K -p auto -u auto -f "
expect_match "$what: seqread 1M at depth 32, O_DIRECT" "$OUT" \
	"seqread \(auto threads\): .*atio'? --read --seq -s 1M --mbs --iodepth 32 --uncached -p auto -t 1 -u auto -S -f"
expect_match "$what: seqwrite 1M at depth 32" "$OUT" \
	"seqwrite \(auto threads\): .*--write --seq -s 1M --mbs --iodepth 32 --uncached -p auto"
expect_match "$what: randread 4K at depth 32" "$OUT" \
	"randread \(auto threads\): .*--read --rand -s 4K --iops --iodepth 32 --uncached -p auto"
expect_match "$what: randwrite: plain writes at depth 32, as the guide's" "$OUT" \
	"randwrite \(auto threads\): .*--write --rand -s 4K --iops --iodepth 32 --uncached -p auto"
expect_match "$what: randrw 70/30 at depth 32" "$OUT" \
	"randrw \(auto threads\): .*--mix 70 --rand -s 4K --iops --iodepth 32 --uncached -p auto"
expect_match "$what: expand 16M" "$OUT" "expand \(auto threads\): .*--expand -s 16M --mbs --uncached -p auto"
expect_no_match "$what: no test is --cached" "$OUT" "--cached"
grep -oE '^  [a-z]+ \(auto threads\)' "$OUT" | awk '{print $1}' | paste -s -d ' ' >"$WORK/order"
expect_match "$what: the guide's tests, reads first, expand last" "$WORK/order" \
	'^load warmup seqread randread seqwrite randwrite randrw expand$'

# --- A vhi run on two nodes: threads as each node's CPUs, small files.
rm -rf "$(node_dir 1)/data"/* "$(node_dir 2)/data"/*
run_driver THREADS= TESTS="randrw expand" FILE_SIZE=64M ITERATIONS=1 --profile vhi \
	-o "$WORK/vhi.json" "${HOSTS[@]}"
what="--profile vhi, randrw and expand on 2 nodes"
expect_code "$what: exit 0" 0
parse_driver_output "$OUT" "${HOSTS[*]}" >"$WORK/parsed"
expect_no_match "$what: no [FAILURE]" "$OUT" '\[FAILURE\]'
grep '^ERR ' "$WORK/parsed" >"$WORK/errs" || true
expect_empty "$what: every sum the sum of its nodes, every average the mean of its sums" "$WORK/errs"
expect_count "$what: a summed randrw iteration, auto threads" "$WORK/parsed" \
	'^SUM Random read/write 70/30\|auto\|1\|[0-9.]+\|IOPS\|1$' 1
expect_count "$what: a summed expand iteration in MB/s" "$WORK/parsed" '^SUM Expand\|auto\|1\|[0-9.]+\|MB/s\|1$' 1
for i in 1 2; do
	n=$(find "$(node_dir "$i")/data" -maxdepth 1 -name 'atio.*' -type f | wc -l)
	if [ "$n" -eq "$NCPU" ]; then
		ok "$what: node$i ran one file per online CPU ($n)"
	else
		not_ok "$what: node$i ran one file per online CPU" "$n files, $NCPU CPUs" \
			"$(ls -la "$(node_dir "$i")/data")"
	fi
done
expect_match "$what: the -o document names the profile" "$WORK/vhi.json" '"profile":"vhi"'
expect_match "$what: the -o document keeps threads auto" "$WORK/vhi.json" '"threads":\["auto"\]'

# --- at_io with the new tests and a per-node cap of 300 IOPS.
run_driver TESTS="dsyncwrite randrw" ITERATIONS=1 ATIO_OPTS="--rate 300" "${HOSTS[@]}"
what="dsyncwrite and randrw with ATIO_OPTS=--rate 300"
expect_code "$what: exit 0" 0
parse_driver_output "$OUT" "${HOSTS[*]}" >"$WORK/parsed"
grep '^ERR ' "$WORK/parsed" >"$WORK/errs" || true
expect_empty "$what: every sum the sum of its nodes" "$WORK/errs"
expect_count "$what: each test's section says the cap is per node" "$OUT" \
	'^cap: 300 IOPS on each node \(ATIO_OPTS\), not on the cluster: the sum may reach 2 times that$' 2
expect_no_match "$what: the cap line leaves the word rate to result lines" "$OUT" '^cap:.*rate'
for t in "Random dsync write" "Random read/write 70/30"; do
	v=$(awk -F'|' -v t="SUM $t" '$1 == t { print $4 }' "$WORK/parsed")
	if [ -n "$v" ] && fcmp "$v" '<=' 606 && fcmp "$v" '>' 0; then
		ok "$what: $t: the sum of 2 capped nodes, $v IOPS, is at most 2 x 300 (+1%)"
	else
		not_ok "$what: $t: the sum of 2 capped nodes is at most 2 x 300 (+1%)" "sum '$v'"
	fi
done

finish
