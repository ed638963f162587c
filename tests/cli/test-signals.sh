#!/bin/bash
# SIGINT, SIGTERM and SIGHUP: a timed run stops within a few seconds, exits 130 and
# prints the results of the time run so far (text or JSON) with an
# "interrupted" line; a signal during the fill of the files exits 130 at
# once, says that the next run resumes, and the next run completes the fill.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir "$D"
run_atio -t 0.1 -s 1M -p 2 -u 16M -f "$D"
expect_code "prepare a dataset: exit 0" 0

# interrupt SIG WHAT ARG...: start atio ARG... (a 30 s run), signal it after
# 1.5 s, and check how it ends.
interrupt() {
	local sig=$1 what=$2

	shift 2
	start_atio "$@"
	sleep 1.5
	kill -s "$sig" "$PID" 2>/dev/null || true
	wait_exit 10
	if [ "$RC" = 130 ] && [ "$WAITED_MS" -le 5000 ]; then
		ok "$what: exit 130, $WAITED_MS ms after SIG$sig"
	else
		not_ok "$what: exit 130 within 5 s of SIG$sig" \
			"exit $RC after $WAITED_MS ms (999: still running after 10 s, killed)" "command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
}

for sig in INT TERM HUP; do
	interrupt "$sig" "SIG$sig in a read test" --read --seq -s 1M -t 30 -p 2 -u 16M -f "$D"
	check_result "SIG$sig: the result line" MB/s
	if [ -n "$R_TIME" ] && fcmp "$R_TIME" '>=' 1 && fcmp "$R_TIME" '<=' 5; then
		ok "SIG$sig: the reported time ($R_TIME s) is the time run, 1 to 5 s"
	else
		not_ok "SIG$sig: the reported time is the time run, 1 to 5 s" "reported: ${R_TIME:-none}"
	fi
	expect_match "SIG$sig: an \"interrupted\" line on stdout" "$OUT" '^interrupted'
	expect_match "SIG$sig: the io line is still there" "$OUT" '^io: [1-9][0-9]* reads'
done

interrupt INT "SIGINT in a write test with -v" -v --write --rand -t 30 -p 2 -u 16M -f "$D"
check_result "SIGINT with -v: the result line, and \"rate\" on no other line" IOPS
expect_match "SIGINT with -v: an \"interrupted\" line" "$OUT" '^interrupted'

interrupt INT "SIGINT in an fsync test with --remove" --fsync --rand -q 4 -t 30 -p 2 -u 16M -f "$D/rm" --remove
check_result "SIGINT with --remove: the result line" sync/s
expect_listing_none() {
	local left

	left=$(cd "$D" && find . -name 'rm.*')
	if [ -z "$left" ]; then
		ok "$1"
	else
		not_ok "$1" "left: $(echo "$left" | tr '\n' ' ')"
	fi
}
expect_listing_none "SIGINT with --remove: the files are removed all the same"

if command -v python3 >/dev/null 2>&1; then
	interrupt TERM "SIGTERM with --json" --json --rand -t 30 -p 2 -u 16M -f "$D"
	if msg=$(python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["interrupted"] is True, "interrupted is not true"
assert 1 <= d["result"]["time_sec"] <= 5, "time_sec %r" % d["result"]["time_sec"]
assert d["result"]["ops"] > 0, "no ops"
' <"$OUT" 2>&1); then
		ok "SIGTERM with --json: one valid document, interrupted, 1 to 5 s"
	else
		not_ok "SIGTERM with --json: one valid document, interrupted, 1 to 5 s" "$(tail -n 1 <<<"$msg")"
		show stdout "$OUT"
	fi
else
	skip_check "SIGTERM with --json" "python3 is not available to validate JSON"
fi

# A signal during the warm-up: nothing was measured, so no result line
# (grep rate must not take a 0 for a result), and the reason on stderr.
start_atio -w 10 -t 5 -s 1M -p 2 -u 16M -f "$D"
sleep 1
kill -s INT "$PID" 2>/dev/null || true
wait_exit 10
expect_code "SIGINT in the warm-up: exit 130" 130
expect_count "SIGINT in the warm-up: no result line" "$OUT" rate 0
expect_match "SIGINT in the warm-up: stdout says nothing was measured" "$OUT" \
	'^interrupted: by SIGINT before the measured time began; nothing was measured$'
expect_match "SIGINT in the warm-up: stderr says so" "$ERR" \
	'^atio: SIGINT before the measured time began \(in the warm-up\): no result$'

# A signal in --precondition's writes: nothing was measured, said on stdout
# as for the warm-up (and, with --json, a document that says so).
P=$WORK/precondition
mkdir "$P"
run_atio --read --seq -s 1M -p 1 -u 512M -t 0.1 -f "$P" # the files made: no fill below
for fmt in text json; do
	extra=()
	[ "$fmt" = text ] || extra=(--json)
	start_atio -v --write --rand -s 4K -p 1 -u 512M -t 5 --steady iops --round 1s \
		--rounds 6 --precondition "${extra[@]}" -f "$P"
	t0=$(now_ms)
	while ! grep -q '^atio: precondition: ' "$ERR" && kill -0 "$PID" 2>/dev/null &&
		[ $(($(now_ms) - t0)) -lt 60000 ]; do
		sleep 0.01
	done
	kill -s INT "$PID" 2>/dev/null || true
	wait_exit 30
	if ! grep -q 'in the precondition, before the rounds' "$ERR"; then
		skip_check "SIGINT in the precondition ($fmt)" "the precondition had ended before the signal"
		continue
	fi
	expect_code "SIGINT in the precondition ($fmt): exit 130" 130
	if [ "$fmt" = text ]; then
		expect_match "SIGINT in the precondition: stdout says nothing was measured" "$OUT" \
			'^interrupted: by SIGINT before the measured time began; nothing was measured$'
	else
		expect_json "SIGINT in the precondition (json): a document, interrupted, nothing measured" \
			'(d["interrupted"], d["signal"], d["measured"], d["result"])' "(True, 'SIGINT', False, None)"
	fi
done

# A signal during the fill: exit 130 at once, and the next run resumes.
F=$WORK/fill
mkdir "$F"
need=$((3 * 1024 * 1024 * 1024))
if [ "$(free_bytes "$F")" -lt "$need" ]; then
	skip_check "SIGINT during the fill" "less than 3 GiB free in $WORK"
	finish
fi
start_atio -t 0.2 -s 1M -p 1 -u 2G -f "$F"
# Signal as soon as the fill has begun.
t0=$(now_ms)
while [ ! -s "$F/atio.0" ] && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 10000 ]; do
	sleep 0.01
done
kill -s INT "$PID" 2>/dev/null || true
wait_exit 10
if [ "$RC" = 130 ] && [ "$WAITED_MS" -le 3000 ]; then
	ok "SIGINT during the fill: exit 130, $WAITED_MS ms after the signal"
else
	not_ok "SIGINT during the fill: exit 130 within 3 s" "exit $RC after $WAITED_MS ms" "command: $LAST"
	show stderr "$ERR"
fi
expect_match "SIGINT during the fill: says the next run resumes" "$ERR" '^atio: .*resume'
expect_count "SIGINT during the fill: no result line" "$OUT" rate 0
expect_match "SIGINT during the fill: stdout says nothing was measured" "$OUT" \
	'^interrupted: by SIGINT before the measured time began; nothing was measured$'
cut_at=$(file_size "$F/atio.0" 2>/dev/null || echo 0)
if [ "$cut_at" -ge $((2 * 1024 * 1024 * 1024)) ]; then
	skip_check "the next run resumes the fill" "the fill had finished before the signal came"
	finish
fi
ok "SIGINT during the fill: the file was left at $cut_at of 2147483648 bytes"
run_atio -t 0.2 -s 1M -p 1 -u 2G -f "$F"
expect_code "the run after the interrupted fill: exit 0" 0
expect_match "the run after the interrupted fill: resumes it" "$ERR" '^atio: preparing.* 1 to resume'
check_result "the run after the interrupted fill: the result line" MB/s
check "the resumed file has its full size" [ "$(file_size "$F/atio.0")" -eq 2147483648 ]
check "the resumed file is not sparse" not_sparse "$F/atio.0"
# gzip of 2 GiB takes too long: sample 8 MiB where the fill was cut, and the end.
# shellcheck disable=SC2317 # called through check
sample() {
	dd if="$F/atio.0" of="$WORK/sample" bs=1M skip="$1" count=8 2>/dev/null
	incompressible "$WORK/sample" && [ "$(file_size "$WORK/sample")" -eq 8388608 ]
}
at=$((cut_at / 1048576))
at=$((at > 4 ? at - 4 : 0))
check "the resumed file is incompressible where the fill was cut" sample "$at"
check "the resumed file is incompressible at its end" sample 2040

# A signal after the test time, in the final sync of a cached write test
# (up to 2 GiB dirty): the interrupted line says so, rather than "after
# 1.8 of 1 sec". The run starts when told (--start-at -), after its set-up.
FIFO=$WORK/start
mkfifo "$FIFO"
exec 7<>"$FIFO"
start_atio_ready "$FIFO" --write --seq -s 1M -p 1 -u 2G -t 1 -f "$F" --start-at -
date +%s.%N | cut -c 1-17 >&7
exec 7>&-
sleep 1.3
kill -s HUP "$PID" 2>/dev/null || true
wait_exit 60
line=$(grep '^interrupted: ' "$OUT" || true)
case $RC:$line in
0:*) skip_check "SIGHUP in the final sync" "the run had ended before the signal came" ;;
130:*"in the final sync, after the 1 sec of I/O"*) ok "SIGHUP in the final sync: $line" ;;
130:*" after 0."*" of 1 sec;"*) skip_check "SIGHUP in the final sync" "the signal came inside the test time: $line" ;;
*) not_ok "SIGHUP in the final sync: the line says so" "exit $RC, line: $line" "command: $LAST" ;;
esac
rm -rf "$F"

# --json: a signal in the fill still gives one document, "measured": false.
mkdir "$F"
start_atio --json -t 0.2 -s 1M -p 1 -u 2G -f "$F"
t0=$(now_ms)
while [ ! -s "$F/atio.0" ] && kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt 10000 ]; do
	sleep 0.01
done
kill -s TERM "$PID" 2>/dev/null || true
wait_exit 10
if [ "$RC" = 0 ]; then
	skip_check "SIGTERM during the fill with --json" "the fill had finished before the signal came"
else
	expect_code "SIGTERM during the fill with --json: exit 130" 130
	expect_match "SIGTERM during the fill with --json: \"measured\": false" "$OUT" '"measured": ?false'
	expect_match "SIGTERM during the fill with --json: \"result\": null" "$OUT" '"result": ?null'
	expect_match "SIGTERM during the fill with --json: the signal named" "$OUT" '"signal": ?"SIGTERM"'
	check "SIGTERM during the fill with --json: one valid JSON document" \
		python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$OUT"
fi
rm -rf "$F"

finish
