#!/bin/bash
# What atio prints: the result line in at_io_iops' exact form, on one line
# of stdout that alone holds the word "rate" (with -v, -vv, -vvv too); the
# -a header with the Cmdline at_io_iops printed for the guide's command
# lines, and no file made; -v header before the run; --json as one valid
# document; --seed and repeatable offsets under -vvv; -vv progress on
# stderr only; the warm-up outside the measured time.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir "$D"
run_atio -t 0.1 -s 64K -p 2 -u 8M -f "$D"
expect_code "prepare a dataset: exit 0" 0

# Plain, -v, -vv and -vvv: one result line, and "rate" nowhere else.
run_atio -t 0.3 -s 64K -p 2 -u 8M -f "$D"
expect_code "plain run: exit 0" 0
check_result "plain run: the result line" MB/s
expect_match "plain run: an io line" "$OUT" '^io: [0-9]+ reads, [0-9]+ bytes'
expect_match "plain run: a latency line" "$OUT" '^latency \(usec\): min [0-9.]+, mean [0-9.]+, p50 [0-9.]+, p90 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+, max [0-9.]+, stdev [0-9.]+$'
expect_no_match "plain run: no header without -v" "$OUT" '^(Title|Cmdline):'
for v in -v -vv -vvv; do
	run_atio "$v" --rand -t 0.2 -p 2 -u 8M -f "$D"
	expect_code "$v: exit 0" 0
	check_result "$v: the result line, and \"rate\" on no other stdout line" IOPS
done

# A path with "rate" in it must not add a line that grep rate finds.
mkdir "$WORK/rated"
run_atio -v -t 0.2 -s 64K -u 4M -f "$WORK/rated/prorate"
expect_code "-v with \"rate\" in the path: exit 0" 0
check_result "-v with \"rate\" in the path: \"rate\" on the result line only" MB/s
expect_match "-v with \"rate\" in the path: the header still names the files" "$OUT" '^Testcase: .*named '
run_atio -a -f "$WORK/rated/prorate"
expect_count "-a with \"rate\" in the path: no line with \"rate\"" "$OUT" rate 0

# -v: the header, then the run, and per-thread lines.
run_atio -v -t 0.2 -s 64K -p 2 -u 8M -f "$D"
expect_code "-v: exit 0" 0
check_result "-v: the result line" MB/s
title=$(grep -n '^Title: ' "$OUT" | head -n 1 | cut -d: -f1)
result=$(grep -En "$RESULT_RE" "$OUT" | head -n 1 | cut -d: -f1)
if [ "${title:-x}" = 1 ] && [ -n "$result" ] && [ "$result" -gt "$title" ]; then
	ok "-v: the header comes first, then the result line"
else
	not_ok "-v: the header comes first, then the result line" \
		"Title: on line ${title:-none}, result on line ${result:-none}"
fi
expect_match "-v: a line for thread 0" "$OUT" '^thread 0\b'
expect_match "-v: a line for thread 1" "$OUT" '^thread 1\b'

# -a: the settings as at_io_iops printed them, and no I/O at all.
run_atio --version
version=$(sed -n '1s/^atio //p' "$OUT")
A=$WORK/a
mkdir "$A"
echo keep >"$A/other"
before=$(listing "$A")

# header_ok WHAT CMDLINE-ERE PROCESSES TIME TESTCASE-ERE: the -a output.
header_ok() {
	local what=$1 keys why=()

	keys=$(sed -nE 's/^([A-Za-z]+): .*/\1/p' "$OUT" | head -n 7 | tr '\n' ' ')
	[ "$RC" -eq 0 ] || why+=("exit $RC, expected 0")
	[ "$keys" = "Title Cmdline Version Processes Time Warmup Testcase " ] ||
		why+=("the header lines are: $keys")
	[ "$(sed -n 1p "$OUT")" = "Title: atio" ] || why+=("line 1 is not: Title: atio")
	grep -Eqx "Cmdline: $2" "$OUT" || why+=("no line matches: Cmdline: $2")
	grep -qx "Version: $version" "$OUT" || why+=("no line: Version: $version")
	grep -qx "Processes: $3" "$OUT" || why+=("no line: Processes: $3")
	grep -qx "Time: $4 sec" "$OUT" || why+=("no line: Time: $4 sec")
	grep -qx "Warmup: 0 sec" "$OUT" || why+=("no line: Warmup: 0 sec")
	grep -Eqx "Testcase: $5" "$OUT" || why+=("no line matches: Testcase: $5")
	[ "$(count_lines "$OUT" rate)" -eq 0 ] || why+=("a line holds \"rate\"")
	[ ! -s "$ERR" ] || why+=("stderr is not empty")
	[ "$(listing "$A")" = "$before" ] || why+=("files appeared: $(listing "$A" | tr '\n' ' ')")
	verdict "$what" "$OUT"
}

TC='create/open %s file\(s\) of total size 16384\.00 MB named %s, start %s thread\(s\) and do cached %s by %sKB blocks'
# The guide's five command lines; -f names a prefix that does not exist.
run_atio -a --read --seq -s 16M --mbs -p 4 -t 30 -u 16G -S --cached -f "$A/new"
# shellcheck disable=SC2059
header_ok "-a, the guide's sequential read" \
	'-a --read --seq -s 16M --mbs -p 4 -n 4 -t 30 --cached -u 16G -S' 4 30 \
	"$(printf "$TC" 4 "$A/new" 4 'sequential read' 16384)"
run_atio -a --write --seq -s 16M --mbs -p 4 -t 30 -u 16G -S --cached -f "$A/new"
# shellcheck disable=SC2059
header_ok "-a, the guide's sequential write" \
	'-a --write --seq -s 16M --mbs -p 4 -n 4 -t 30 --cached -u 16G -S' 4 30 \
	"$(printf "$TC" 4 "$A/new" 4 'sequential write' 16384)"
run_atio -a --read --rand -s 4K --iops -p 16 -t 30 -u 16G -S --cached -f "$A"
# shellcheck disable=SC2059
header_ok "-a, the guide's random read" \
	'-a --read --rand -s 4K --iops -p 16 -n 16 -t 30 --cached -u 16G -S' 16 30 \
	"$(printf "$TC" 16 "$A" 16 'random read' 4)"
# at_io_iops' wording for the sync modes is not in the guide: the Cmdline
# keeps the order of the guide's command line, -q after -s (a default -q 1
# may be shown or not), and the Testcase line starts as for a write.
run_atio -a --fdatasync --rand -s 4K --iops -p 16 -t 30 -u 16G -S --cached -f "$A"
header_ok "-a, the guide's random fdatasync write" \
	'-a --fdatasync --rand -s 4K( -q 1)? --iops -p 16 -n 16 -t 30 --cached -u 16G -S' 16 30 \
	"create/open 16 file\(s\) of total size 16384\.00 MB named $A, start 16 thread\(s\) and do cached random .*write.* by 4KB blocks"
run_atio -a --fsync --rand -s 4K -q 32 --iops -p 16 -t 30 -u 16G -S --cached -f "$A"
header_ok "-a, the guide's database-like fsync write" \
	'-a --fsync --rand -s 4K -q 32 --iops -p 16 -n 16 -t 30 --cached -u 16G -S' 16 30 \
	"create/open 16 file\(s\) of total size 16384\.00 MB named $A, start 16 thread\(s\) and do cached random .*write.* by 4KB blocks"
# at_io_parallel.sh's warm-up line, as the guide shows its output.
run_atio -a -t 1 -S -f "$A/new"
# shellcheck disable=SC2059
header_ok "-a, at_io_parallel.sh's warm-up (the guide's Cmdline line)" \
	'-a --read --seq -s 16M --mbs -p 1 -n 1 -t 1 --cached -u 16G -S' 1 1 \
	"$(printf "$TC" 1 "$A/new" 1 'sequential read' 16384)"
run_atio -a -w 1 -t 2 -f "$A/new"
expect_match "-a -w 1: Warmup: 1 sec" "$OUT" '^Warmup: 1 sec$'
expect_match "-a -w 1: -w in the Cmdline" "$OUT" '^Cmdline: .* -w 1 '
run_atio -a -f "$WORK/no/such/dir/pre"
expect_code "-a with -f in a missing directory: exit 0" 0
check "-a with -f in a missing directory: nothing created" [ ! -e "$WORK/no" ]

# --json: one valid document on stdout, the figures adding up.
if command -v python3 >/dev/null 2>&1 && python3 -c 'import json' 2>/dev/null; then
	JCHECK=$WORK/jcheck.py
	cat >"$JCHECK" <<'EOF'
import json, sys

# jcheck.py FILE UNIT [SEED]: the --json document in FILE is valid, and its
# figures agree with one another.
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
except ValueError as e:
    print("not valid JSON: %s" % e)
    sys.exit(1)
errs = []
try:
    r, s = d["result"], d["settings"]
    want = sys.argv[2]
    if r["unit"] != want:
        errs.append("result.unit is %r, expected %r" % (r["unit"], want))
    if r["ops"] <= 0:
        errs.append("result.ops is %r" % r["ops"])
    if r["bytes"] != r["ops"] * s["block_size"]:
        errs.append("result.bytes %r != ops %r x block_size %r"
                    % (r["bytes"], r["ops"], s["block_size"]))
    t = r["time_sec"]
    n = {"MB/s": r["bytes"] / 1048576.0, "IOPS": r["ops"], "sync/s": r["syncs"]}[want]
    if t <= 0 or abs(r["value"] - n / t) > 1e-6 * (n / t) + 1e-9:
        errs.append("result.value %r != %r / time %r" % (r["value"], n, t))
    if d["latency_ns"]["count"] != r["ops"]:
        errs.append("latency_ns.count %r != ops %r" % (d["latency_ns"]["count"], r["ops"]))
    if len(d["threads"]) != s["threads"]:
        errs.append("%d threads listed, settings say %r" % (len(d["threads"]), s["threads"]))
    if sum(x["ops"] for x in d["threads"]) != r["ops"]:
        errs.append("the threads' ops do not add up to result.ops")
    if d["interrupted"] is not False:
        errs.append("interrupted is %r" % d["interrupted"])
    if len(sys.argv) > 3 and s["seed"] != int(sys.argv[3]):
        errs.append("settings.seed is %r, expected %s" % (s["seed"], sys.argv[3]))
except (KeyError, TypeError) as e:
    errs.append("missing or malformed member: %r" % (e,))
for e in errs:
    print(e)
sys.exit(1 if errs else 0)
EOF
	# json_ok WHAT UNIT [SEED]
	json_ok() {
		local what=$1 msg

		if msg=$(python3 "$JCHECK" "$OUT" "${@:2}" 2>&1); then
			ok "$what"
		else
			# shellcheck disable=SC2206
			IFS=$'\n' lines=($msg)
			not_ok "$what" "${lines[@]}" "command: $LAST"
			show stdout "$OUT"
		fi
	}
	run_atio --json --rand -t 0.2 -p 2 -u 8M -f "$D" --seed 7
	expect_code "--json: exit 0" 0
	json_ok "--json: stdout is one valid document whose figures add up" IOPS 7
	run_atio --json -vv --write --seq -s 64K -t 1.2 -p 2 -u 8M -f "$D"
	expect_code "--json -vv write: exit 0" 0
	json_ok "--json -vv write: stdout is still only the document" MB/s
	expect_match "--json -vv: the progress goes to stderr" "$ERR" '^atio: 1 s: '
	run_atio --json --fsync --rand -q 4 -t 0.2 -p 2 -u 8M -f "$D"
	expect_code "--json --fsync: exit 0" 0
	json_ok "--json --fsync -q 4: valid, in sync/s" sync/s
	run_atio --json -a -f "$D"
	expect_code "--json -a: exit 0" 0
	if msg=$(python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["settings"]["cmdline"].startswith("-a --read --seq"), "cmdline %r" % d["settings"]["cmdline"]
' <"$OUT" 2>&1); then
		ok "--json -a: one valid document with the Cmdline"
	else
		not_ok "--json -a: one valid document with the Cmdline" "$(tail -n 1 <<<"$msg")"
		show stdout "$OUT"
	fi
else
	skip_check "--json output" "python3 is not available to validate JSON"
fi

# --seed: printed, and the same seed draws the same offsets.
TRACE_RE='^atio: \[[0-9]+\] (submit (read|write|fsync|fdatasync)\(fd [0-9]+, [0-9]+ bytes, offset [0-9]+\)|(read|write|fsync|fdatasync)\(fd [0-9]+, [0-9]+ bytes, offset [0-9]+\) = -?[0-9]+ in [0-9.]+ usec)$'
offsets() {
	sed -nE 's/^atio: \[0\] read\(fd [0-9]+, 4096 bytes, offset ([0-9]+)\) = 4096 in .*/\1/p' "$ERR" |
		head -n 100 | tr '\n' ' '
}
run_atio -vvv --rand -t 0.1 --keep-cache -p 1 -u 8M -f "$D/one" --seed 42
expect_code "-vvv --seed 42: exit 0" 0
expect_match "--seed 42: the seed line" "$OUT" '^seed: 42$'
n=$(count_lines "$ERR" '^atio: \[')
bad=$(grep '^atio: \[' "$ERR" | grep -Evc "$TRACE_RE" || true)
if [ "$n" -ge 100 ] && [ "$bad" -eq 0 ]; then
	ok "-vvv: every I/O traced in the documented form ($n lines)"
else
	not_ok "-vvv: every I/O traced in the documented form" "$n trace lines, $bad malformed" \
		"$(grep '^atio: \[' "$ERR" | grep -Ev "$TRACE_RE" | head -n 3)"
fi
first=$(offsets)
run_atio -vvv --rand -t 0.1 --keep-cache -p 1 -u 8M -f "$D/one" --seed 42
second=$(offsets)
run_atio -vvv --rand -t 0.1 --keep-cache -p 1 -u 8M -f "$D/one" --seed 43
other=$(offsets)
if [ "$(wc -w <<<"$first")" -eq 100 ] && [ "$first" = "$second" ]; then
	ok "--seed 42 twice: the same first 100 random offsets"
else
	not_ok "--seed 42 twice: the same first 100 random offsets" \
		"first:  $(cut -c 1-150 <<<"$first")" "second: $(cut -c 1-150 <<<"$second")"
fi
if [ -n "$other" ] && [ "$first" != "$other" ]; then
	ok "--seed 43: other offsets than --seed 42"
else
	not_ok "--seed 43: other offsets than --seed 42" "seed 43: $(cut -c 1-150 <<<"$other")"
fi
run_atio -vvv --rand -t 0.1 --keep-cache -p 1 -u 8M -f "$D/one"
check "no --seed: other offsets than --seed 42" [ "$first" != "$(offsets)" ]

# -vv: a progress line each second, on stderr only.
run_atio -vv --rand -t 2.5 -p 2 -u 8M -f "$D"
expect_code "-vv -t 2.5: exit 0" 0
n=$(count_lines "$ERR" '^atio: [0-9]+ s: ')
if [ "$n" -ge 2 ] && [ "$n" -le 3 ]; then
	ok "-vv -t 2.5: $n progress lines on stderr"
else
	not_ok "-vv -t 2.5: 2 or 3 progress lines on stderr" "got $n"
	show stderr "$ERR"
fi
expect_no_match "-vv: no progress line on stdout" "$OUT" '(^|: )[0-9]+ s: .*(MB/s|IOPS)'
check_result "-vv: the result line" IOPS

# -w: the warm-up runs first and is not measured.
run_atio -w 1 -t 1 -s 64K -p 2 -u 8M -f "$D"
expect_code "-w 1 -t 1: exit 0" 0
check_result "-w 1 -t 1: the result line" MB/s
check "-w 1 -t 1: at least 2 s of wall time (took ${WALL_MS} ms)" [ "$WALL_MS" -ge 2000 ]
if fcmp "${R_TIME:-0}" '>=' 0.9 && fcmp "${R_TIME:-0}" '<=' 1.6; then
	ok "-w 1 -t 1: the reported time is about 1 s (${R_TIME})"
else
	not_ok "-w 1 -t 1: the reported time is about 1 s" "reported: ${R_TIME:-none}"
fi

finish
