#!/bin/bash
# A cluster's steady state, judged on its sum: atio --steady --all-rounds
# runs every round and keeps each round's counts; atio merge of such
# documents sums round k of every document and judges the sum by SNIA's
# criteria, and python3 recomputes the verdict from the documents' own
# rounds. Documents that do not add up round by round (other round
# lengths, one without rounds), fewer rounds in one, and a round's figure
# its counts contradict: not judged, said, or refused, never summed
# silently.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip "python3 is not installed (it recomputes the verdict)"

# steady_run NAME ARG...: a run of the null engine with --steady iops to $WORK/NAME.json.
steady_run() {
	local n=$1

	shift
	run_atio --engine null --rand -s 4K --rate 2000 -t 0.2 --steady iops "$@" --json
	[ "$RC" -eq 0 ] || die "atio $*: exit $RC: $(cat "$ERR")"
	cp "$OUT" "$WORK/$n.json"
}

steady_run a --round 0.1 --rounds 6 --all-rounds
steady_run b --round 0.1 --rounds 6 --all-rounds

# --all-rounds: every round run, each with its counts, whatever the verdict.
why=()
got=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["steady"]
print(s["rounds"], s["all_rounds"], len(s["round_figures"]), len(s["values"]),
      json.load(open(sys.argv[1]))["settings"]["steady"]["all_rounds"])' "$WORK/a.json")
[ "$got" = "6 True 6 6 True" ] || why+=("rounds, all_rounds, round_figures, values, settings: $got")
verdict "--all-rounds: all 6 rounds run and kept with their counts" "$WORK/a.json"

# The merge judges the sum; python3 sums the documents' rounds and judges them again.
run_atio merge --json --unaligned "$WORK/a.json" "$WORK/b.json"
expect_code "merge of two --all-rounds documents: exit 0" 0
cp "$OUT" "$WORK/ab.json"
cat >"$WORK/judge.py" <<'PY'
import json, sys

def first(v):
    """SNIA's two criteria on windows of 5, the first window where both hold."""
    for k in range(5, len(v) + 1):
        w = v[k - 5:k]
        if any(x is None for x in w):
            continue
        avg = sum(w) / 5
        if avg <= 0:
            continue
        slope = sum((i - 2) * (y - avg) for i, y in enumerate(w)) / 10
        if (max(w) - min(w)) * 100 / avg <= 20 and abs(slope) * 4 * 100 / avg <= 10:
            return k
    return None

m = json.load(open(sys.argv[1]))["steady"]
docs = [json.load(open(f))["steady"] for f in sys.argv[2:]]
n = min(d["rounds"] for d in docs)
want = [sum(d["values"][k] for d in docs) for k in range(n)]
bad = [k for k in range(n) if abs(want[k] - m["values"][k]) > 1e-9 * want[k]]
at = first(want)
alone = [first(d["values"]) for d in docs]
print("rounds=%d sum_ok=%s steady_at=%s merge_at=%s alone=%s merge_alone=%s" % (
    n, not bad and len(m["values"]) == n, at, m["steady_at"], alone,
    [d["steady_at"] for d in m["each_document"]]))
PY
got=$(python3 "$WORK/judge.py" "$WORK/ab.json" "$WORK/a.json" "$WORK/b.json")
why=()
[[ $got =~ ^rounds=6\ sum_ok=True\ steady_at=([0-9]+|None)\ merge_at=([0-9]+|None)\ alone=(.*)\ merge_alone=(.*)$ ]] ||
	why+=("$got")
[ "${#why[@]}" -gt 0 ] || [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] ||
	why+=("python3 finds the sum steady at round ${BASH_REMATCH[1]}, merge at ${BASH_REMATCH[2]}")
[ "${#why[@]}" -gt 0 ] || [ "${BASH_REMATCH[3]}" = "${BASH_REMATCH[4]}" ] ||
	why+=("each document alone: python3 ${BASH_REMATCH[3]}, merge ${BASH_REMATCH[4]}")
verdict "merge: the rounds summed round by round, and the verdict python3 finds ($got)" "$WORK/ab.json"

run_atio merge --unaligned "$WORK/a.json" "$WORK/b.json"
expect_match "merge text: the cluster's verdict line" "$OUT" \
	'^steady \(cluster of 2 documents\): iops in 6 round\(s\) of 0\.1 sec: (steady at round [5-6] \(window: rounds [12] to [56]\)|not steady after 6 rounds)$'
expect_match "merge text: the summed rounds" "$OUT" '^steady rounds summed \(IOPS\): 1: [0-9.]+, 2: .*, 6: [0-9.]+$'
expect_match "merge text: each document's own verdict" "$OUT" '^steady of each document alone: \[1\] .*, \[2\] '
expect_no_match "merge text: no word of the result line on the steady lines" "$OUT" '^steady.*rate'

# Rounds of another length: round k is not the same time: not judged, and said.
steady_run c --round 0.2 --rounds 6 --all-rounds
run_atio merge --json --unaligned "$WORK/a.json" "$WORK/c.json"
expect_code "merge of rounds of 0.1 and 0.2 sec: exit 0 (the results still add up)" 0
got=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["steady"]
print(s["judged"], s["steady"], s["values"], "rounds of 0.2 sec, the documents before it 0.1 sec" in s["why"])' "$OUT")
expect_same() { if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "got: $3"; fi; }
expect_same "rounds of another length: not judged, why says so" "False False [] True" "$got"
expect_match "rounds of another length: a warning" "$ERR" '^atio: merge: warning: steady: .*c\.json: rounds of 0\.2 sec'

# A document without rounds among documents with rounds: not judged.
run_atio --engine null --rand -s 4K --rate 2000 -t 0.2 --json
cp "$OUT" "$WORK/plain.json"
run_atio merge --unaligned "$WORK/a.json" "$WORK/plain.json"
expect_match "a document without rounds: not judged, named" "$OUT" \
	'^steady \(cluster of 2 documents\): iops: not judged: .*plain\.json: no --steady rounds'

# Fewer rounds in one document: judged on the rounds both ran, and said.
steady_run d --round 0.1 --rounds 5 --all-rounds
run_atio merge --json --unaligned "$WORK/a.json" "$WORK/d.json"
got=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["steady"]
print(s["judged"], s["rounds"], len(s["values"]), "ran 5 rounds, another document 6" in s["note"])' "$OUT")
expect_same "fewer rounds in one document: judged on the 5 both ran, the note says so" "True 5 5 True" "$got"
expect_match "fewer rounds: a warning names the document" "$ERR" '^atio: merge: warning: steady: .*d\.json ran 5 rounds'

# A round's figure its counts contradict: the document is refused.
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["steady"]["values"][2] *= 2
json.dump(d, open(sys.argv[2], "w"))' "$WORK/a.json" "$WORK/bad.json"
run_atio merge --unaligned "$WORK/bad.json" "$WORK/b.json"
expect_code "a round's figure twice its counts': refused" 2
expect_match "the refusal names the document and the round" "$ERR" 'bad\.json: steady\.values\[2\]: .* but its round.s counts give'

# --all-rounds without --steady: refused, named.
run_atio -a --engine null --all-rounds
expect_code "--all-rounds without --steady: exit 2" 2
expect_match "--all-rounds without --steady: said" "$ERR" '--all-rounds: the rounds are --steady'

finish
