#!/bin/bash
# scripts/atio-parallel.sh against three real sshd nodes (sshd-harness.sh):
# the -o document keeps the cluster's intervals (atio merge of the nodes'
# documents: they add up to the merge's operations, and each interval's
# value is the sum of the nodes' values in it) and each node's value per
# interval; with -vv the driver prints a line a second on stderr with the
# cluster's value in the nodes' latest intervals and the slowest node,
# and the nodes' interval lines stay out of the output and of the records.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed (it reads the -o document)"

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
DOC=$WORK/timeline.json

run_driver TIME=3 TESTS=randread ITERATIONS=1 -o "$DOC" -vv "${HOSTS[@]}"
expect_code "-vv -o, 3 nodes, 3 s of randread: exit 0" 0

# jdoc FILTER: FILTER on the randread iteration of the -o document.
jdoc() {
	jq -r "[.results[].tests[] | select(.test == \"randread\") | .iterations[]][0] | $1" "$DOC"
}

why=()
n=$(jdoc '.merge.intervals | length')
[ "$n" -ge 3 ] || why+=("$n intervals in the merge, expected 3 or more")
[ "$(jdoc '.merge.timeline.intervals')" = "$n" ] ||
	why+=("merge.timeline.intervals is $(jdoc '.merge.timeline.intervals'), not $n")
[ "$(jdoc '[.merge.intervals[].ops] | add')" = "$(jdoc '.merge.ops')" ] ||
	why+=("the merged intervals' ops add up to $(jdoc '[.merge.intervals[].ops] | add'), the merge has $(jdoc '.merge.ops')")
[ "$(jdoc '[.merge.intervals[] | select(.documents == 3)] | length')" -ge 3 ] ||
	why+=("fewer than 3 intervals hold all 3 nodes")
verdict "-o: the cluster's intervals ($n) add up to its operations" "$DOC"

why=()
# shellcheck disable=SC2016 # jq's own $variables
bad=$(jdoc '. as $it | [range(0; $it.merge.intervals | length)
	| select((([$it.merge.documents_merged[].interval_values[.] // 0] | add)
		- $it.merge.intervals[.].value | fabs) > 1e-6 * $it.merge.intervals[.].value + 1e-9)]
	| length')
[ "$bad" = 0 ] || why+=("$bad intervals whose value is not the sum of the nodes' values")
verdict "-o: each cluster interval's value is the sum of the nodes' values in it" "$DOC"

why=()
[ "$(jdoc '[.nodes[] | select(.interval_values | type == "array" and length >= 3)] | length')" = 3 ] ||
	why+=("not every node record has 3 or more interval_values")
[ "$(jdoc '([.nodes[].interval_values] | sort) == ([.merge.documents_merged[].interval_values] | sort)')" = true ] ||
	why+=("the nodes' interval_values are not the merge's documents'")
[ "$(jdoc '[.nodes[] | select(.stalls == 0 and .longest_stall_sec == 0)] | length')" = 3 ] ||
	why+=("stalls: $(jdoc '[.nodes[] | .stalls] | tostring')")
verdict "-o: each node's record has its value per interval and its stalls" "$DOC"

re='^atio-parallel\.sh: [0-9.]+ s: cluster [0-9.]+ IOPS \(([1-3]) of 3 nodes\); slowest node[1-3]: [0-9.]+ IOPS$'
live=$(count_lines "$ERR" "$re")
why=()
[ "$live" -ge 1 ] || why+=("no live line on stderr")
while IFS= read -r l; do
	sum=$(sed -E 's/.* cluster ([0-9.]+) IOPS .*/\1/' <<<"$l")
	low=$(sed -E 's/.* slowest node[1-3]: ([0-9.]+) IOPS$/\1/' <<<"$l")
	fcmp "$sum" '>=' "$low" || why+=("the cluster's $sum IOPS is below its slowest node's $low: $l")
done < <(grep -E "$re" "$ERR" || true)
verdict "-vv: $live live lines on stderr, each the cluster's sum and its slowest node" "$ERR"
expect_no_match "-vv: no live line and no node interval line on stdout" "$OUT" '(cluster .* slowest|^atio: [0-9.]+ s: )'
if jq -e '[.. | .stderr? // empty | strings | select(test("atio: [0-9.]+ s: "))] | length == 0' "$DOC" >/dev/null; then
	ok "-vv: the nodes' interval lines are not kept as their stderr in the records"
else
	not_ok "-vv: the nodes' interval lines are not kept as their stderr in the records"
fi

finish
