#!/bin/bash
# Latency and CPU as fio users read them: --percentiles gives the points
# asked in the text, per direction too; the JSON has fio's 17 points and
# those asked, each direction's, and the standard deviation; -v adds the
# distribution of the latencies; the CPU line gives percent of the measured
# time and context switches. Bad lists: exit 2, the point named.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the JSON"

# --- The text: the points asked, per direction, and stdev ---
run_atio --engine null --mix 70 --rand -t 0.3 --percentiles 50,99,99.9,99.99
expect_code "--percentiles 50,99,99.9,99.99: exit 0" 0
check_result "--percentiles: \"rate\" on the result line alone" IOPS
pts='min [0-9.]+, mean [0-9.]+, p50 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+, p99\.99 [0-9.]+, max [0-9.]+, stdev [0-9.]+'
expect_match "the latency line: the points asked, and stdev" "$OUT" "^latency \(usec\): $pts\$"
expect_match "the read line: the same points" "$OUT" "^read: .*, latency \(usec\): $pts\$"
expect_match "the write line: the same points" "$OUT" "^write: .*, latency \(usec\): $pts\$"
run_atio --engine null -t 0.2
expect_match "no --percentiles: p50, p90, p99, p99.9 and stdev" "$OUT" \
	'^latency \(usec\): min [0-9.]+, mean [0-9.]+, p50 [0-9.]+, p90 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+, max [0-9.]+, stdev [0-9.]+$'
expect_no_match "no -v: no distribution line" "$OUT" 'distribution'

# --- The JSON: fio's 17 points and those asked, per direction ---
run_atio --engine null --mix 70 --rand -t 0.3 --percentiles 75,99.999 --json
expect_code "--json --percentiles 75,99.999: exit 0" 0
cp "$OUT" "$WORK/p.json"
check_json() {
	python3 - "$WORK/p.json" <<'PY'
import json, sys

d = json.load(open(sys.argv[1]))
fio = [1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99]
want = sorted(set(fio) | {75, 99.999})
why = []
if d["settings"]["percentiles"] != [75, 99.999]:
    why.append("settings.percentiles: %r" % d["settings"]["percentiles"])
for where, lat in (("latency_ns", d["latency_ns"]), ("read", d["read"]["latency_ns"]),
                   ("write", d["write"]["latency_ns"])):
    p = lat.get("percentiles", {})
    keys = [float(k) for k in p]
    if keys != want:
        why.append("%s: keys %r" % (where, list(p)))
        continue
    vals = list(p.values())
    if vals != sorted(vals) or vals[0] < lat["min"] or vals[-1] > lat["max"]:
        why.append("%s: not ascending within min and max: %r" % (where, vals))
    for k in ("50", "90", "99", "99.9"):
        if p[k] != lat["p" + k]:
            why.append("%s: percentiles[%s] %r, p%s %r" % (where, k, p[k], k, lat["p" + k]))
    if not lat["stdev"] >= 0:
        why.append("%s: stdev %r" % (where, lat.get("stdev")))
r = d["result"]
for k in ("user", "sys"):
    pct, sec = r["cpu_%s_pct" % k], r["cpu_%s_sec" % k]
    if abs(pct - 100 * sec / r["time_sec"]) > 1e-6 * max(1, pct):
        why.append("cpu_%s_pct %r for %r sec of %r" % (k, pct, sec, r["time_sec"]))
for k in ("ctx_voluntary", "ctx_involuntary"):
    if not isinstance(r.get(k), int) or r[k] < 0:
        why.append("%s: %r" % (k, r.get(k)))
    if sum(t[k] for t in d["threads"]) != r[k]:
        why.append("%s: the threads' do not add up to the run's" % k)
print("\n".join(why))
PY
}
problems=$(check_json 2>&1) || problems="the document does not read: $problems"
if [ -z "$problems" ]; then
	ok "--json: fio's 17 points and those asked, ascending, per direction; stdev; cpu percent; context switches"
else
	not_ok "--json: fio's 17 points and those asked, per direction; stdev; cpu; context switches" "$problems"
fi

# --- -v: the distribution, per direction, adding up to 100% ---
run_atio -v --engine null --mix 70 --rand -t 0.3
expect_code "-v --mix 70: exit 0" 0
for name in latency "read latency" "write latency"; do
	line=$(grep "^$name distribution (usec): " "$OUT" || true)
	sum=$(sed 's/^[^:]*: //; s/[0-9]*=\([0-9.]*\)%/\1/g; s/, /+/g' <<<"$line")
	if [ -n "$line" ] && fcmp "$(python3 -c "print($sum)")" '>' 99.9 &&
		fcmp "$(python3 -c "print($sum)")" '<' 100.1; then
		ok "-v: \"$name distribution\" adds up to 100%"
	else
		not_ok "-v: \"$name distribution\" adds up to 100%" "${line:-no line}"
	fi
done

# --- -v: each thread's reads and writes apart, adding up to the thread's ---
sums=$(awk '/^thread [0-9]+: / { t[$2 + 0] = $3 } /^thread [0-9]+ (read|write): / { d[$2] += $4 }
	END { for (i in t) printf "%s %s\n", t[i], d[i] }' "$OUT")
if [ -n "$sums" ] && [ "$(grep -c '^thread [0-9]* read: ' "$OUT")" -ge 1 ] &&
	! awk '$1 != $2 { bad = 1 } END { exit !bad }' <<<"$sums"; then
	ok "-v --mix: a read and a write line a thread, adding up to its ops"
else
	not_ok "-v --mix: a read and a write line a thread, adding up to its ops" "$(grep '^thread' "$OUT")"
fi

# --- -vv: each interval's line gives the reads and writes apart ---
run_atio -vv --engine null --mix 70 --rand -t 1.5
line=$(grep -m1 '^atio: 1 s: ' "$ERR" || true)
if [[ $line =~ ,\ ([0-9]+)\ IOPS,.*\;\ read:\ [0-9.]+\ MB/s,\ ([0-9]+)\ IOPS,\ p99\ [0-9.]+\ usec\;\ write:\ [0-9.]+\ MB/s,\ ([0-9]+)\ IOPS,\ p99\ [0-9.]+\ usec$ ]] &&
	[ $((BASH_REMATCH[1] - BASH_REMATCH[2] - BASH_REMATCH[3])) -ge -1 ] &&
	[ $((BASH_REMATCH[1] - BASH_REMATCH[2] - BASH_REMATCH[3])) -le 1 ]; then
	ok "-vv --mix: the interval line gives read and write, adding up to its IOPS"
else
	not_ok "-vv --mix: the interval line gives read and write, adding up to its IOPS" "${line:-no line for 1 s}"
fi

# --- The CPU line: seconds, percent of the measured time, context switches ---
expect_match "the cpu line: seconds, percent, context switches" "$OUT" \
	'^cpu \(sec\): user [0-9.]+, system [0-9.]+ \(user [0-9.]+%, system [0-9.]+% of [0-9.]+ sec\); context switches: [0-9]+ voluntary, [0-9]+ involuntary$'

# --- Bad lists: exit 2, the point named, nothing run ---
for bad in '' 0 100 101 50,50 99,50 abc 1e2 '50,' ,50 -1 '50 99'; do
	run_atio --engine null -t 0.1 --percentiles "$bad"
	expect_code "--percentiles '$bad': exit 2" 2
	expect_count "--percentiles '$bad': nothing on stdout" "$OUT" . 0
done
run_atio --engine null -t 0.1 --percentiles 50,99,abc
expect_match "--percentiles 50,99,abc: names abc" "$ERR" '^atio: --percentiles 50,99,abc: abc: not a percentile'
run_atio --engine null -t 0.1 --percentiles 99,99.9,99.9
expect_match "--percentiles 99,99.9,99.9: given twice" "$ERR" '99\.9: given twice'
run_atio --engine null -t 0.1 --percentiles 90,50
expect_match "--percentiles 90,50: out of order" "$ERR" '50: below the point before it'
run_atio --engine null -t 0.1 --percentiles 100
expect_match "--percentiles 100: below 100" "$ERR" '100: a percentile is above 0 and below 100'

finish
