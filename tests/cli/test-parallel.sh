#!/bin/bash
# scripts/atio-parallel.sh against three real sshd nodes (sshd-harness.sh):
# a short full matrix whose sums are the sums of the nodes' own numbers and
# whose averages are the means of the sums, the guide's table from
# grep '===', the -o JSON document (every node starting at one instant),
# one connection per node, every node's files in its own directory, and
# nothing left running after; then all five tests, with the hosts named
# as user@alias, alias and address; then the cluster latency, the
# percentiles of the nodes' histograms merged, not an average of theirs.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
ITER=2

# iterations_ok WHAT FILTER: ok when the -o document ($WORK/matrix.json) has
# iterations and the jq FILTER, run on each one, prints nothing; else
# not_ok with the first lines it printed.
iterations_ok() {
	local msg

	if msg=$(jq -r "[.results[].tests[].iterations[]] as \$it
		| if (\$it | length) == 0 then \"no iterations\" else (\$it[] | $2) end" \
		"$WORK/matrix.json" 2>&1) && [ -z "$msg" ]; then
		ok "$1"
	else
		not_ok "$1" "$(head -n 3 <<<"$msg")"
	fi
}

# The section title of each test, and the unit atio reports for it.
title_of() {
	case $1 in
	seqread) echo "Sequential read" ;;
	seqwrite) echo "Sequential write" ;;
	randread) echo "Random read" ;;
	randwrite) echo "Random write" ;;
	randfsync) echo "Random fsync" ;;
	esac
}
unit_of() {
	case $1 in
	seq*) echo "MB/s" ;;
	randread) echo "IOPS" ;;
	*) echo "sync/s" ;;
	esac
}

# check_matrix WHAT "THREADS" "TESTS" ITERATIONS: $OUT is a complete run of
# that matrix over $HOSTS: no failure, every sum the sum of its
# nodes and complete, every average the mean of its sums, units as atio
# reports them, and grep '===' gives the table in order.
check_matrix() {
	local what=$1 threads=$2 tests=$3 iter=$4 P=$WORK/parsed thr t n u expected=()

	parse_driver_output "$OUT" "${HOSTS[*]}" >"$P"
	expect_no_match "$what: no [FAILURE] line" "$OUT" '\[FAILURE\]'
	expect_no_match "$what: no INCOMPLETE sum" "$OUT" 'INCOMPLETE'
	if grep -q '^ERR ' "$P"; then
		not_ok "$what: every sum is the sum of the nodes' values above it, every average the mean of its sums" \
			"$(grep '^ERR ' "$P" | head -n 5)" "command: $LAST"
	else
		ok "$what: every sum is the sum of the nodes' values above it, every average the mean of its sums ($(count_lines "$P" '^SUM ') sums)"
	fi
	for thr in $threads; do
		n=$(count_lines "$P" "^SUM Warming\|$thr\|")
		if [ "$n" -ge 1 ]; then
			ok "$what: a warm-up with $thr threads, $n run(s) summed"
		else
			not_ok "$what: a warm-up with $thr threads" "no Warming ($thr thr) sum" "command: $LAST"
		fi
		expected+=("---=== Warming (${thr}thr) ===---" "---=== Average value = { X } U; ===---")
		for t in $tests; do
			n=$(count_lines "$P" "^SUM $(title_of "$t")\|$thr\|[0-9]+\|[0-9.]+\|[^|]+\|1$")
			if [ "$n" -eq "$iter" ]; then
				ok "$what: $t with $thr threads: $iter complete sums"
			else
				not_ok "$what: $t with $thr threads: $iter complete sums" "found $n" "command: $LAST"
			fi
			u=$(unit_of "$t")
			n=$(count_lines "$P" "^NODE $(title_of "$t")\|$thr\|[0-9]+\|[^|]+\|[0-9.]+\|$u$")
			if [ "$n" -eq $((iter * 3)) ]; then
				ok "$what: $t with $thr threads: a $u value from each of the 3 nodes in each iteration"
			else
				not_ok "$what: $t with $thr threads: a $u value from each node in each iteration" \
					"$n node values in $u, expected $((iter * 3))" "command: $LAST"
			fi
			expected+=("---=== $(title_of "$t") (${thr}thr) ===---" "---=== Average value = { X } U; ===---")
		done
	done
	# grep '===' gives the table: the sections in order, each with its average.
	printf '%s\n' "${expected[@]}" >"$WORK/table.expected"
	grep '===' "$OUT" | sed -E 's/^---=== Average value = \{ [0-9]+\.[0-9]+ \} [^ ;]+; ===---$/---=== Average value = { X } U; ===---/' \
		>"$WORK/table.actual" || true
	if cmp -s "$WORK/table.expected" "$WORK/table.actual"; then
		ok "$what: grep '===' gives the table: $(wc -l <"$WORK/table.actual") lines, sections and averages in order"
	else
		not_ok "$what: grep '===' gives the table, sections and averages in order" \
			"$(diff "$WORK/table.expected" "$WORK/table.actual" | head -n 12)" "command: $LAST"
	fi
}

# --- A full matrix: two thread counts, a sequential and a random test.
for i in 1 2 3; do
	LOGINS[i]=$(node_logins "$i")
done
run_driver THREADS="1 2" TESTS="seqread randwrite" ITERATIONS=$ITER -o "$WORK/matrix.json" "${HOSTS[@]}"
echo "# full matrix: $WALL_MS ms"
expect_code "full matrix over 3 nodes: exit 0" 0
check_matrix "full matrix" "1 2" "seqread randwrite" "$ITER"

# Every node got the atio it runs, and its own files: in its own data
# directory, none on the host's path behind the mounts.
for i in 1 2 3; do
	d=$(node_dir "$i")
	if cmp -s "$LOCAL_ATIO" "$d/bin/atio"; then
		ok "node$i: atio was copied to its REMOTE_BINARIES_PATH"
	else
		not_ok "node$i: atio was copied to its REMOTE_BINARIES_PATH" \
			"node$i bin: $(listing "$d/bin" | tr "\n" " ")"
	fi
	n=$(find "$d/data" -type f | wc -l)
	bytes=$(find "$d/data" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
	if [ "$n" -ge 1 ] && [ "$bytes" -ge $((32 << 20)) ]; then
		ok "node$i: its test files are in its own data directory ($n files, $bytes bytes)"
	else
		not_ok "node$i: its test files are in its own data directory" "$n files, $bytes bytes"
	fi
done
# The same files on every node, each written there: atio's data is random,
# so no two nodes' copies of a file are equal.
f=$(cd "$(node_dir 1)/data" && find . -type f | LC_ALL=C sort | head -n 1)
if [ -n "$f" ] &&
	[ "$(listing "$(node_dir 1)/data")" = "$(listing "$(node_dir 2)/data")" ] &&
	[ "$(listing "$(node_dir 1)/data")" = "$(listing "$(node_dir 3)/data")" ] &&
	! cmp -s "$(node_dir 1)/data/$f" "$(node_dir 2)/data/$f" &&
	! cmp -s "$(node_dir 1)/data/$f" "$(node_dir 3)/data/$f" &&
	! cmp -s "$(node_dir 2)/data/$f" "$(node_dir 3)/data/$f"; then
	ok "the nodes made the same files ($(listing "$(node_dir 1)/data" | tr '\n' ' ')), each its own data"
else
	not_ok "the nodes made the same files, each its own data" \
		"node1: $(listing "$(node_dir 1)/data" | tr '\n' ' ')" \
		"node2: $(listing "$(node_dir 2)/data" | tr '\n' ' ')" \
		"node3: $(listing "$(node_dir 3)/data" | tr '\n' ' ')"
fi
if [ -z "$(listing "$REMOTE_DATA")" ] && [ -z "$(listing "$REMOTE_BIN")" ]; then
	ok "nothing was written to the remote paths on the host itself"
else
	not_ok "nothing was written to the remote paths on the host itself" \
		"$(listing "$REMOTE_DATA" | head -n 3)" "$(listing "$REMOTE_BIN" | head -n 3)"
fi

# One handshake per node for the whole run: the connection is reused.
for i in 1 2 3; do
	n=$(($(node_logins "$i") - LOGINS[i]))
	if [ "$n" -eq 1 ]; then
		ok "node$i: one ssh login for the whole run"
	else
		not_ok "node$i: one ssh login for the whole run (ControlMaster)" "$n logins"
	fi
done
expect_no_ssh_leftovers "no ssh process (master connection) is left after the run"
if [ "$(node_atio_count)" -eq 0 ]; then
	ok "no atio is left running on any node"
else
	not_ok "no atio is left running on any node" "$(node_atio_count) still running"
fi

# --- The -o document: valid JSON whose sums are the printed sums, each the
# sum of its nodes' values, every iteration complete, exit status 0.
if ! command -v jq >/dev/null 2>&1; then
	skip_check "the -o JSON document" "jq is not installed"
elif [ ! -s "$WORK/matrix.json" ]; then
	not_ok "-o FILE writes the JSON document" "$WORK/matrix.json is missing or empty" "command: $LAST"
elif ! jq -e . "$WORK/matrix.json" >/dev/null 2>"$WORK/jq.err"; then
	not_ok "-o FILE: valid JSON" "$(head -n 2 "$WORK/jq.err")"
else
	ok "-o FILE: valid JSON"
	# Every sum as title|threads|iteration|value, from the text and from
	# the document (.results[].tests[].iterations[]), which holds the exact
	# sum the text prints with 5 decimals.
	awk -F'|' '/^SUM / { sub(/^SUM /, ""); printf "%s|%s|%s|%.5f\n", $1, $2, $3, $4 }' "$WORK/parsed" |
		LC_ALL=C sort >"$WORK/sums.text"
	jq -r '{warmup: "Warming", seqread: "Sequential read", seqwrite: "Sequential write",
			randread: "Random read", randwrite: "Random write", randfsync: "Random fsync"} as $title
		| .results[] | .threads as $t | .tests[] | .test as $n | .iterations[]
		| "\($title[$n] // $n)|\($t)|\(.iteration)|\(.sum)"' "$WORK/matrix.json" 2>&1 |
		awk -F'|' '{ printf "%s|%s|%s|%.5f\n", $1, $2, $3, $4 }' | LC_ALL=C sort >"$WORK/sums.json"
	if [ -s "$WORK/sums.text" ] && cmp -s "$WORK/sums.text" "$WORK/sums.json"; then
		ok "-o FILE: its sums are the printed sums ($(wc -l <"$WORK/sums.json") runs)"
	else
		not_ok "-o FILE: its sums are the printed sums" \
			"$(diff "$WORK/sums.text" "$WORK/sums.json" | head -n 8)"
	fi
	# shellcheck disable=SC2016 # jq's own $variables
	iterations_ok "-o FILE: every iteration complete, with node1..3 whose values add up to its sum (within 0.5e-5 a node)" \
		'select((.complete != true) or ((.nodes | map(.host)) != ["node1", "node2", "node3"])
			or (((.nodes | map(.value) | add) - .sum) | fabs) > 0.5e-5 * (.nodes | length))
		| "iteration \(.iteration) of a test: complete \(.complete), nodes \(.nodes | map(.host)), sum \(.sum), values \(.nodes | map(.value))"'
	# One instant: every node of every iteration started (atio's own
	# start_epoch) at the run's start_at, within 0.5 s (one clock here).
	# shellcheck disable=SC2016 # jq's own $variables
	iterations_ok "-o FILE: in every iteration every node started at the agreed instant (within 0.5 s)" \
		'.start_at as $s | .nodes[]
		| select(($s | type) != "number" or (.start_epoch | type) != "number"
			or .start_epoch < $s - 0.05 or .start_epoch > $s + 0.5)
		| "\(.host): started at \(.start_epoch), the run at \($s)"'
	if [ "$(jq -r '"\(.exit_status) \(.interrupted)"' "$WORK/matrix.json" 2>&1)" = "0 false" ]; then
		ok "-o FILE: exit_status 0, not interrupted"
	else
		not_ok "-o FILE: exit_status 0, not interrupted" \
			"$(jq -c '{exit_status, interrupted}' "$WORK/matrix.json" 2>&1)"
	fi
fi

# --- All five tests, one thread, one iteration; the hosts as user@alias,
# alias and address.
HOSTS=(root@node1 node2 127.0.0.4)
for i in 1 2 3; do
	SESSIONS[i]=$(node_session_count "$i")
done
run_driver THREADS=1 TESTS="seqread seqwrite randread randwrite randfsync" ITERATIONS=1 "${HOSTS[@]}"
echo "# five tests: $WALL_MS ms"
expect_code "all five tests over 3 nodes: exit 0" 0
check_matrix "five tests" "1" "seqread seqwrite randread randwrite randfsync" 1
# atio is on every node already: each node was logged into once, and its
# one session carried the checks and all 7 runs (loading, warm-up, five
# tests), their start instants included.
for i in 1 2 3; do
	n=$(($(node_session_count "$i") - SESSIONS[i]))
	if [ "$n" = 1 ]; then
		ok "five tests: node$i: one ssh session for the checks and the 7 runs"
	else
		not_ok "five tests: node$i: one ssh session for the checks and the 7 runs" "$n sessions (sshd log)"
	fi
done
expect_no_ssh_leftovers "five tests: no ssh process is left after the run"

# --- The cluster latency: percentiles of the nodes' histograms merged
# (bucket counts added), never an average of the nodes' percentiles. The
# -o document keeps each node's percentiles but not its buckets, so each
# node's atio is a wrapper that keeps a copy of the JSON it hands the
# driver (bin/out.PID.json, its arguments in bin/out.PID.args), which
# atio merge then merges. node1's data is on a tmpfs, where fdatasync
# costs next to nothing: its writes are faster and more numerous than the
# other nodes', so an average of the three nodes' percentiles is far from
# the percentiles of all their writes together.

# merged_pcts FILE...: the p50, p99 and p99.9 (ns) of the latency of atio
# --json documents FILE... merged by `atio merge --json` (the merge of
# their histograms; tests/unit/merge/test_merge.c checks it against one run
# that recorded every value), as "P50 P99 P99.9"; "ERR ..." when merge
# refuses them.
PCT_RE='"latency_ns":\{"count":[0-9]+,"min":[0-9]+,"mean":[^,]+,"p50":([0-9]+),"p90":[0-9]+,"p99":([0-9]+),"p99.9":([0-9]+)'
merged_pcts() {
	local m
	if ! m=$("$ATIO" merge --json "$@" 2>&1); then
		echo "ERR atio merge: $m"
	elif [[ $m =~ $PCT_RE ]]; then
		echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
	else
		echo "ERR no latency_ns in: ${m:0:200}"
	fi
}

# own_pcts FILE: the p50, p99 and p99.9 (ns) atio itself reported in its
# --json document FILE.
own_pcts() {
	local m
	m=$(cat "$1")
	if [[ $m =~ $PCT_RE ]]; then
		echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
	else
		echo "ERR no latency_ns in $1"
	fi
}

# usec_line "P50 P99 P99.9" N: the driver's write latency line for these
# ns (Random write syncs: its write() calls' latency is named apart from
# its sync calls'), each ns / 1000 in a double rounded to 2 places, as
# atio merge prints it.
usec_line() {
	awk -v n="$2" -v p="$1" 'BEGIN {
		split(p, x, " ")
		printf "write latency (usec): p50 %.2f, p99 %.2f, p99.9 %.2f (merged from %d nodes)\n",
			x[1] / 1000, x[2] / 1000, x[3] / 1000, n
	}'
}

what="cluster latency"
got=0
HOSTS=(node1 node2 node3)
for i in 1 2 3; do
	b=$(node_dir "$i")/bin
	rm -f "$b/atio" "$b"/out.*
	cp "$LOCAL_ATIO" "$b/atio.real"
	cat >"$b/atio" <<'EOF'
#!/bin/sh
d=$(dirname "$0")
case " $* " in
*" --json "*) ;;
*) exec "$d/atio.real" "$@" ;;
esac
printf '%s\n' "$*" >"$d/out.$$.args"
"$d/atio.real" "$@" >"$d/out.$$.json"
rc=$?
cat "$d/out.$$.json"
exit "$rc"
EOF
	chmod 755 "$b/atio"
done
node_exec 1 mount -t tmpfs -o size=64m atio-test-fast "$REMOTE_DATA" ||
	die "cannot mount a tmpfs in node1's namespace"
# atio refuses a memory filesystem unless asked: ask, for node1's tmpfs.
run_driver TESTS=randwrite ITERATIONS=1 ATIO_OPTS=--allow-memory-fs \
	-o "$WORK/latency.json" "${HOSTS[@]}"
echo "# latency, node1 on a tmpfs: $WALL_MS ms"
node_exec 1 umount "$REMOTE_DATA" || die "cannot unmount node1's tmpfs"
expect_code "$what: the run over 3 nodes: exit 0" 0
# Each node's JSON of the Random write run, the only one with --fdatasync.
mkdir -p "$WORK/lat"
for i in 1 2 3; do
	b=$(node_dir "$i")/bin
	mapfile -t f < <(grep -l -e '--fdatasync' "$b"/out.*.args 2>/dev/null || true)
	if [ ${#f[@]} -eq 1 ] && grep -q '"latency_ns":{[^}]*"buckets":\[\[' "${f[0]%.args}.json"; then
		cp "${f[0]%.args}.json" "$WORK/lat/node$i.json"
		got=$((got + 1))
	else
		not_ok "$what: node$i's atio JSON of the Random write run, with its buckets, was kept" \
			"${#f[@]} runs with --fdatasync in $b: $(listing "$b" | tr '\n' ' ')"
	fi
done
[ "$got" -ne 3 ] || ok "$what: each node's atio JSON of the Random write run, with its buckets, was kept"
# Restore the plain atio on the nodes.
for i in 1 2 3; do
	b=$(node_dir "$i")/bin
	rm -f "$b/atio" "$b/atio.real" "$b"/out.*
	cp "$LOCAL_ATIO" "$b/atio"
done
if [ "$got" -eq 3 ]; then
	L=$WORK/lat
	# atio merge of one document gives that node's own percentiles back.
	msg=
	for i in 1 2 3; do
		own=$(own_pcts "$L/node$i.json")
		calc=$(merged_pcts "$L/node$i.json")
		if [ "$calc" != "$own" ] || [[ $own == ERR* ]]; then
			msg+="node$i: atio says $own, atio merge of its document $calc"$'\n'
		fi
	done
	if [ -z "$msg" ]; then
		ok "$what: atio merge of each node's document alone gives its own p50, p99 and p99.9"
	else
		not_ok "$what: atio merge of each node's document alone gives its own p50, p99 and p99.9" "$msg"
	fi
	merged=$(merged_pcts "$L/node1.json" "$L/node2.json" "$L/node3.json")
	# The average of the nodes' own percentiles, which must not be shown.
	avg=$(for i in 1 2 3; do own_pcts "$L/node$i.json"; done |
		awk '{ for (k = 1; k <= 3; k++) s[k] += $k } END { printf "%d %d %d\n", s[1] / NR, s[2] / NR, s[3] / NR }')
	# The driver's line under the Random write section's sum (each node's
	# own write latency line above it has no "merged from").
	line=$(awk '/^---=== Random write \(1thr\) ===---$/ { on = 1 }
		on && /^write latency \(usec\): .* \(merged from [0-9]+ nodes\)$/ { print; exit }' "$OUT")
	if [[ $merged == ERR* ]]; then
		not_ok "$what: atio merge reads the nodes' documents" "$merged"
	else
		want=$(usec_line "$merged" 3)
		averaged=$(usec_line "$avg" 3)
		if [ "$line" = "$want" ]; then
			ok "$what: the printed line is atio merge's percentiles of the nodes' documents: $line"
		else
			not_ok "$what: the printed line is atio merge's percentiles of the nodes' documents" \
				"printed:  ${line:-(no write latency line under Random write)}" "expected: $want" \
				"an average of the nodes' percentiles would print: $averaged" "command: $LAST"
		fi
		# The check above tells a merge from an average only where the two
		# print differently: here at least one percentile must.
		if [ "$want" != "$averaged" ]; then
			ok "$what: an average of the nodes' percentiles would print otherwise ($averaged)"
		else
			not_ok "$what: an average of the nodes' percentiles would print otherwise" \
				"merged and averaged print alike: $want" \
				"nodes (ns): $(for i in 1 2 3; do own_pcts "$L/node$i.json"; done | tr '\n' ' ')"
		fi
		# The sum printed is atio merge's sum of the nodes' documents.
		sum=$(awk '/^---=== Random write \(1thr\) ===---$/ { on = 1 } on && /^Sum value on iteration 1 / { print $8; exit }' "$OUT")
		msum=$("$ATIO" merge "$L/node1.json" "$L/node2.json" "$L/node3.json" |
			sed -n 's|^Sum value = { \([0-9.]*\) } sync/s;$|\1|p')
		if [ -n "$sum" ] && [ "$sum" = "$msum" ]; then
			ok "$what: the printed sum is atio merge's sum of the nodes' documents ($sum sync/s)"
		else
			not_ok "$what: the printed sum is atio merge's sum of the nodes' documents" \
				"printed: ${sum:-none}; atio merge: ${msum:-none}"
		fi
	fi
	if ! command -v jq >/dev/null 2>&1; then
		skip_check "$what: -o FILE: the iteration's latency_us is the merge" "jq is not installed"
	else
		doc=$(jq -r '.results[].tests[] | select(.test == "randwrite") | .iterations[]
			| .latency_us | "\(.p50) \(.p99) \(.["p99.9"])"' "$WORK/latency.json" 2>&1)
		if awk -v a="$merged" -v b="$doc" 'BEGIN {
			if (split(a, x, " ") != 3 || split(b, y, " ") != 3) exit 1
			for (k = 1; k <= 3; k++) { d = x[k] / 1000 - y[k]; if (d < -1e-6 || d > 1e-6) exit 1 }
		}'; then
			ok "$what: -o FILE: the iteration's latency_us is the merge ($doc)"
		else
			not_ok "$what: -o FILE: the iteration's latency_us is the merge" "in the document: $doc" \
				"merged here (ns): $merged"
		fi
	fi
fi
expect_no_ssh_leftovers "$what: no ssh process is left after the run"

finish
