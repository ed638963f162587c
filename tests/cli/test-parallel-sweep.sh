#!/bin/bash
# scripts/atio-parallel.sh --sweep and --curve against three real sshd
# nodes (sshd-harness.sh), with the null engine: each point runs on every
# node at one instant and is summed per point; atio merge of the nodes'
# own documents of a point gives exactly the driver's figures of that
# point (sum, p50, p99, p99.9), each node counted once; a point with a
# failed node is INCOMPLETE, never chosen, and the exit status is 1; a
# curve's steps cap each node at the step's share of its own maximum in
# the uncapped run; --stop-latency ends a curve; Ctrl-C keeps the points
# done in -o; bad sweeps are refused (exit 2) before any node is
# logged into.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

command -v jq >/dev/null 2>&1 || skip "jq is not installed (it reads the -o document)"

# --- A point's options replace the test's own (the driver's atio_args,
# called directly): the vhi profile's --iodepth 32 and -s, randrw's --mix.
# point_args_of WORDS TEST: the vhi test's atio words at the point WORDS.
point_args_of() {
	# shellcheck disable=SC1090,SC2034 # the driver's own settings
	(ATIO_PARALLEL_LIB=1 . "$DRIVER"
		PROFILE=vhi BLOCKSIZE=4K FILE_SIZE=1G ATIO_OPTS="" ATIO_EXTRA=() TEST_DIR_SHOWN=/d
		POINT_OPTS=$1
		atio_args "$2" 4 10
		printf '%s\n' "${ARGS[*]}")
}
got=$(point_args_of "--iodepth 8 -s 16K" randread)
if [ "$got" = "--read --rand -s 16K --iops --iodepth 8 --uncached -p 4 -t 10 -u 1G -S -f /d" ]; then
	ok "a point's --iodepth and -s replace the test's own"
else
	not_ok "a point's --iodepth and -s replace the test's own" "$got"
fi
got=$(point_args_of "--mix 50" randrw)
if [ "$got" = "--mix 50 --rand -s 4K --iops --iodepth 32 --uncached -p 4 -t 10 -u 1G -S -f /d" ]; then
	ok "a point's --mix replaces randrw's"
else
	not_ok "a point's --mix replaces randrw's" "$got"
fi

# --- The sweep's summary from records made as the driver makes them (atio
# merge --record, --iteration-record), no node: a point whose nodes did
# not start together is never chosen; a document counted twice is refused.
L=$WORK/records
mkdir -p "$L"
: >"$L/empty"
for h in a b; do
	"$ATIO" --engine null --read --rand -s 4K --iops -t 1 -p 1 --json >"$L/$h.json" ||
		die "atio --engine null failed"
	"$ATIO" merge --record --out "$L/$h.rec" --host "$h" --exit-status 0 --stderr "$L/empty" \
		-- "$L/$h.json" >/dev/null || die "atio merge --record failed"
done
"$ATIO" merge --json --unaligned "$L/a.json" "$L/b.json" >"$L/merge.json" || die "atio merge failed"
for c in true false; do
	"$ATIO" merge --iteration-record --iteration 1 --start-at 1 --complete true --concurrent "$c" \
		--ok-nodes 2 --unit IOPS --max-skew-sec 0.01 --merge "$L/merge.json" -- "$L/a.rec" "$L/b.rec" \
		>"$L/$c.jsonl" || die "atio merge --iteration-record failed"
done
printf '%s\t%s\t%s\n' "$L/true.jsonl" "$L/a.json" "$L/b.json" "$L/false.jsonl" "$L/a.json" "$L/b.json" >"$L/points"
LAST="atio merge --sweep-summary (a point NOT CONCURRENT)"
if "$ATIO" merge --sweep-summary --points "$L/points" --values "$L/next" --threads 1 --test randread \
	--out "$L/sweep.json" -- 's=4K,8K' >"$OUT" 2>"$ERR"; then RC=0; else RC=$?; fi
expect_code "summary: two points, the second NOT CONCURRENT: exit 0" 0
expect_match "summary: the point not concurrent is marked, not chosen" "$OUT" '^point 2 of 2: -s 8K: NOT CONCURRENT \(start skew [0-9.]+ s\): not chosen$'
expect_match "summary: the peak is the concurrent point" "$OUT" '^peak: point 1, -s 4K: '
expect_match "summary: the sweep is done" "$L/next" '^end	done$'
if [ "$(jq -c '[.points[].valid, .peak]' "$L/sweep.json")" = '[true,false,1]' ]; then
	ok "summary: -o marks the point not valid, the peak is point 1"
else
	not_ok "summary: -o marks the point not valid, the peak is point 1" "$(jq -c '[.points[].valid, .peak]' "$L/sweep.json")"
fi
# A curve's maximum and its first step: --stop-latency ends it there.
printf '%s\t%s\t%s\n' "$L/true.jsonl" "$L/a.json" "$L/b.json" "$L/true.jsonl" "$L/a.json" "$L/b.json" >"$L/points"
LAST="atio merge --sweep-summary (--stop-latency)"
if "$ATIO" merge --sweep-summary --points "$L/points" --values "$L/next" --threads 1 --test randread \
	--out "$L/sweep.json" -- --stop-latency p99.9=1ns --curve 10,20 >"$OUT" 2>"$ERR"; then RC=0; else RC=$?; fi
expect_code "summary: a curve's step beyond --stop-latency: exit 0" 0
expect_match "summary: --stop-latency ends the curve at that step" "$OUT" '^curve: ended at step 2: its p99\.9 exceeds --stop-latency p99\.9=1ns$'
expect_match "summary: no step after it" "$L/next" '^end	stop-latency$'
printf '%s\t%s\t%s\n' "$L/true.jsonl" "$L/a.json" "$L/a.json" >"$L/points"
LAST="atio merge --sweep-summary (one document twice)"
if "$ATIO" merge --sweep-summary --points "$L/points" --values "$L/next" --threads 1 --test randread \
	--out "$L/sweep.json" -- 's=4K,8K' >"$OUT" 2>"$ERR"; then RC=0; else RC=$?; fi
expect_code "summary: a node's document given twice for a point: exit 2" 2
expect_match "summary: a document given twice: its sum is not the record's" "$ERR" 'documents sum to [0-9.e+]+, its record has 2 nodes and'

sshd_start 3
driver_setup
HOSTS=(node1 node2 node3)
DOC=$WORK/sweep.json
# Half a second between the last node ready and the start: ample on
# local nodes, and each of the many points starts sooner.
NULL=(TIME=1 THREADS=1 TESTS=randread "ATIO_OPTS=--engine null" START_MARGIN=0.5)

# --- Bad sweeps: exit 2 naming the value, no node logged into.
logins=$(all_logins)
bad() {
	local what=$1 re=$2
	shift 2
	run_driver "${NULL[@]}" "$@" "${HOSTS[@]}"
	expect_code "$what: exit 2" 2
	expect_match "$what: the message names it" "$ERR" "$re"
}
bad "an unknown axis" "depth=1,2" --sweep 'depth=1,2'
bad "an empty list" "iodepth=" --sweep 'iodepth='
bad "a bad range" "64-1" --sweep 'iodepth=64-1'
bad "--curve with --sweep" "--curve" --sweep 'iodepth=1,2' --curve
bad "a curve step of 0%" "--curve 0,50" --curve 0,50
bad "a sweep of the check test" "check" --sweep 'iodepth=1,2' --tests 'randread check'
bad "a target without a unit" "p99=2" --sweep 'iodepth=1,2' --target p99=2
bad "--knee without a sweep" "--knee" --knee 90
bad "a thread axis" "p=1,2" --sweep 'p=1,2'
bad "the swept option in ATIO_OPTS" "--iodepth" --sweep 'iodepth=1,2' --atio-opts '--engine null --iodepth 4'
bad "a cap in ATIO_OPTS with a curve" "--cap" --curve --atio-opts '--engine null --cap 100'
bad "mix= on a test that does not mix" "mix=" --sweep 'mix=50,70'
if [ "$(all_logins)" = "$logins" ]; then
	ok "bad sweeps: no node was logged into"
else
	not_ok "bad sweeps: no node was logged into" "$(($(all_logins) - logins)) logins"
fi

# Each node's atio keeps a copy of every JSON document it hands the
# driver (bin/out.PID.json, its arguments in bin/out.PID.args); with
# FAIL_WHEN in bin/fail, a run whose arguments hold it fails instead.
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
if [ -s "$d/fail" ]; then
	case " $* " in
	*" $(cat "$d/fail") "*) echo "atio: told to fail" >&2; exit 1 ;;
	esac
fi
printf '%s\n' "$*" >"$d/out.$$.args"
"$d/atio.real" "$@" >"$d/out.$$.json"
rc=$?
cat "$d/out.$$.json"
exit "$rc"
EOF
	chmod 755 "$b/atio"
done

# node_docs I PATTERN: node I's kept documents whose arguments match the
# extended regular expression PATTERN.
node_docs() {
	local b f
	b=$(node_dir "$1")/bin
	for f in "$b"/out.*.args; do
		[ -e "$f" ] || continue
		! grep -qE -- "$2" "$f" || printf '%s\n' "${f%.args}.json"
	done
}

# --- A sweep over 3 nodes: every point summed exactly from its 3 nodes.
run_driver "${NULL[@]}" --sweep 's=4K,8K,16K' -o "$DOC" "${HOSTS[@]}"
expect_code "sweep s=4K,8K,16K over 3 nodes: exit 0" 0
for k in 1 2 3; do
	expect_count "sweep: point $k has its section line" "$OUT" "^---=== Random read \\(1thr\\) point $k of 3: -s [0-9]+K ===---$" 1
done
# (The warm-up's sum is in MB/s.)
expect_count "sweep: a sum line for each point" "$OUT" '^Sum value on iteration 1 = \{ [0-9.]+ \} IOPS;$' 3
expect_match "sweep: the summary's section line" "$OUT" '^---=== Sweep summary: Random read \(1thr\), 3 points ===---$'
expect_count "sweep: the summary has a line per point" "$OUT" '^point [1-3] of 3: -s [0-9]+K: [0-9.]+ IOPS; latency \(usec\) p50 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+ \(merged from 3 nodes\)$' 3
expect_match "sweep: a peak line" "$OUT" '^peak: point [1-3], -s [0-9]+K: [0-9.]+ IOPS; p99 [0-9.]+ usec$'
expect_match "sweep: a knee line" "$OUT" '^knee \(95% of the peak\): point [1-3], '
expect_match "sweep: a use line" "$OUT" "^use: --sweep 's=([0-9]+K)' \\(every node runs the test with -s [0-9]+K\\)$"

why=()
[ "$(jq '.sweeps | length' "$DOC")" = 1 ] || why+=("$(jq '.sweeps | length' "$DOC") sweeps in -o, expected 1")
[ "$(jq -r '.sweeps[0].ended' "$DOC")" = "done" ] || why+=("ended: $(jq -r '.sweeps[0].ended' "$DOC")")
[ "$(jq '.sweeps[0].points | length' "$DOC")" = 3 ] || why+=("$(jq '.sweeps[0].points | length' "$DOC") points")
for k in 0 1 2; do
	opt=$(jq -r ".sweeps[0].points[$k].options" "$DOC")
	mapfile -t docs < <(for i in 1 2 3; do node_docs "$i" " -s ${opt#-s } .*--start-at"; done)
	if [ "${#docs[@]}" != 3 ]; then
		why+=("point $((k + 1)) ($opt): ${#docs[@]} node documents kept, expected 3")
		continue
	fi
	m=$("$ATIO" merge --json "${docs[@]}")
	got=$(jq -r ".sweeps[0].points[$k] | \"\(.sum) \(.latency_us.p50) \(.latency_us.p99) \(.latency_us[\"p99.9\"])\"" "$DOC")
	want=$(jq -r '"\(.sum) \(.latency_ns.p50 / 1000) \(.latency_ns.p99 / 1000) \(.latency_ns["p99.9"] / 1000)"' <<<"$m")
	[ "$got" = "$want" ] || why+=("point $((k + 1)) ($opt): the driver has $got, atio merge of the nodes' documents $want")
	# Each node once: three hosts, each node's value its own document's.
	hosts=$(jq -r ".sweeps[0].points[$k].nodes | map(.host) | sort | join(\" \")" "$DOC")
	[ "$hosts" = "node1 node2 node3" ] || why+=("point $((k + 1)): nodes $hosts")
	nv=$(jq -r ".sweeps[0].points[$k].nodes | map(.value) | sort | map(tostring) | join(\" \")" "$DOC")
	dv=$(for f in "${docs[@]}"; do jq -r '.result.value' "$f"; done | sort -g | tr '\n' ' ')
	[ "$(tr ' ' '\n' <<<"$nv" | sort -g | tr '\n' ' ')" = "$dv" ] ||
		why+=("point $((k + 1)): node values $nv, their documents $dv")
	[ "$(jq ".sweeps[0].points[$k].iteration.merge.documents" "$DOC")" = 3 ] ||
		why+=("point $((k + 1)): the merge has $(jq ".sweeps[0].points[$k].iteration.merge.documents" "$DOC") documents")
done
peak=$(jq '.sweeps[0].points | to_entries | max_by(.value.sum) | .key + 1' "$DOC")
[ "$(jq '.sweeps[0].peak' "$DOC")" = "$peak" ] || why+=("peak $(jq '.sweeps[0].peak' "$DOC"), the highest sum is point $peak")
verdict "sweep: each point's sum and p50/p99/p99.9 are atio merge's of its 3 nodes' documents, each node once" "$DOC"

# --- A point with a failed node: INCOMPLETE, not chosen, exit 1.
for i in 1 2 3; do rm -f "$(node_dir "$i")"/bin/out.*; done
echo "-s 8K" >"$(node_dir 2)/bin/fail"
run_driver "${NULL[@]}" --sweep 's=4K,8K' -o "$DOC" "${HOSTS[@]}"
rm -f "$(node_dir 2)/bin/fail"
expect_code "a point with a failed node: exit 1" 1
expect_match "a failed node's point: INCOMPLETE in the summary" "$OUT" '^point 2 of 2: -s 8K: INCOMPLETE \(2 of 3 nodes\): not chosen$'
expect_match "a failed node's point: the peak is the other point" "$OUT" '^peak: point 1, -s 4K: '
why=()
[ "$(jq '.sweeps[0].points[1].valid' "$DOC")" = false ] || why+=("point 2 valid: $(jq '.sweeps[0].points[1].valid' "$DOC")")
[ "$(jq '.sweeps[0].points[1].nodes | map(select(.ok)) | length' "$DOC")" = 2 ] || why+=("point 2: not 2 nodes ok")
[ "$(jq '.sweeps[0].peak' "$DOC")" = 1 ] || why+=("peak: $(jq '.sweeps[0].peak' "$DOC")")
verdict "a failed node's point: not valid in -o, never the peak" "$DOC"

# A curve whose maximum lacks a node: no steps (no node's share of it is
# known for sure), exit 1.
echo "--rand" >"$(node_dir 3)/bin/fail"
run_driver "${NULL[@]}" --curve 50 -o "$DOC" "${HOSTS[@]}"
rm -f "$(node_dir 3)/bin/fail"
expect_code "a curve whose maximum lacks a node: exit 1" 1
expect_match "a curve whose maximum lacks a node: no steps, said" "$OUT" '^curve: no steps: the maximum'"'"'s run was not summed from every node at one instant$'
expect_no_match "a curve whose maximum lacks a node: no capped step runs" "$OUT" '^---=== .* step 2: '
if [ "$(jq -c '.sweeps[0] | [.ended, (.points | length), .points[0].valid]' "$DOC")" = '["no maximum",1,false]' ]; then
	ok "a curve whose maximum lacks a node: -o says no maximum"
else
	not_ok "a curve whose maximum lacks a node: -o says no maximum" "$(jq -c '.sweeps[0] | [.ended, (.points | length), .points[0].valid]' "$DOC")"
fi

# --- A curve: the maximum on every node at once, then each node capped at
# the step's share of its own maximum.
for i in 1 2 3; do rm -f "$(node_dir "$i")"/bin/out.*; done
run_driver "${NULL[@]}" --curve 10,20 -o "$DOC" "${HOSTS[@]}"
expect_code "curve 10,20 over 3 nodes: exit 0" 0
expect_match "curve: the maximum's section line" "$OUT" '^---=== Random read \(1thr\) step 1: maximum \(uncapped\) ===---$'
expect_match "curve: the 10% step's section line" "$OUT" "^---=== Random read \\(1thr\\) step 2: 10% of each node's maximum ===---$"
expect_match "curve: the 20% step's section line" "$OUT" "^---=== Random read \\(1thr\\) step 3: 20% of each node's maximum ===---$"
expect_count "curve: the summary has the maximum and 2 steps" "$OUT" '^step [1-3] of 3: ' 3
expect_match "curve: the summary's curve line" "$OUT" '^curve: maximum [0-9.]+ IOPS; [0-2] of 2 steps held \(99% of the aim or more\); each node capped at the step'"'"'s share of its own maximum$'
why=()
for k in 1 2; do
	pct=$(jq ".sweeps[0].points[$k].share_percent" "$DOC")
	aim=0
	for i in 0 1 2; do
		host=$(jq -r ".sweeps[0].points[0].nodes[$i].host" "$DOC")
		max=$(jq ".sweeps[0].points[0].nodes[$i].value" "$DOC")
		cap=$(jq ".sweeps[0].points[$k].nodes[$i].cap" "$DOC")
		# The cap is the share of the node's own maximum, rounded up.
		want=$(awk -v m="$max" -v p="$pct" 'BEGIN { c = m * p / 100; w = int(c); if (w < c) w++; print w }')
		[ "$cap" = "$want" ] || why+=("step $((k + 1)): $host's cap $cap, its maximum $max at $pct% is $want")
		aim=$((aim + cap))
		# Its own document of that step ran with that cap.
		n=$(node_docs "${host#node}" " --cap $cap( |$)" | wc -l)
		[ "$n" = 1 ] || why+=("step $((k + 1)): $n documents of $host with --cap $cap, expected 1")
		grep -q -- "$host $cap" <<<"$(sed -n "/step $((k + 1)): $pct% of each node/,/^Sum value/p" "$OUT")" ||
			why+=("step $((k + 1)): no 'cap: ... $host $cap' line")
	done
	[ "$(jq ".sweeps[0].points[$k].aim" "$DOC")" = "$aim" ] ||
		why+=("step $((k + 1)): aim $(jq ".sweeps[0].points[$k].aim" "$DOC"), the caps add up to $aim")
done
verdict "curve: each step caps each node at its share of its own maximum; the aim is their sum" "$DOC"


# --- Ctrl-C in a point: exit 130, the -o document keeps the sweep, marked
# as still running, and the run as interrupted.
start_driver TIME=20 THREADS=1 TESTS=randread "ATIO_OPTS=--engine null" --sweep 's=4K,8K' \
	-o "$DOC" "${HOSTS[@]}"
wait_node_run '---=== Random read (1thr) point 1 of 2: -s 4K ===---' 1
kill -s INT -- "-$PID"
wait_exit 60
expect_code "Ctrl-C in a sweep's point: exit 130" 130
if [ "$(jq -c '[.interrupted, .sweeps[0].ended, (.sweeps[0].points | length)]' "$DOC")" = '[true,"running",0]' ]; then
	ok "Ctrl-C in a sweep's point: -o keeps the sweep, marked running, the run interrupted"
else
	not_ok "Ctrl-C in a sweep's point: -o keeps the sweep, marked running, the run interrupted" \
		"$(jq -c '[.interrupted, .sweeps[0].ended, (.sweeps[0].points | length)]' "$DOC" 2>&1)"
fi

for i in 1 2 3; do
	b=$(node_dir "$i")/bin
	rm -f "$b/atio" "$b/atio.real" "$b"/out.* "$b/fail"
	cp "$LOCAL_ATIO" "$b/atio"
done
expect_no_ssh_leftovers "no ssh process is left after the runs"

finish
