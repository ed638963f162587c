#!/bin/bash
# --start-at -: atio prepares everything (the files made and filled,
# opened, the threads set up), says "atio: ready: ..." on stderr, then
# reads the start instant from stdin and starts at it, never before. Stdin
# ending first: exit 1, nothing measured. A line that is no instant: exit
# 2, naming it. --start-at EPOCH with -v says it waits.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir "$D"
FIFO=$WORK/in
mkfifo "$FIFO"

# --- Ready, then go: a new dataset is filled before the ready line, and
# atio waits for the instant after it.
what="--start-at - on a new dataset"
exec 7<>"$FIFO"
start_atio_ready "$FIFO" --read --rand -s 4K --iops -p 2 -t 0.5 -u 16M -f "$D" --json --start-at -
if grep -q '^atio: ready: waiting for the start instant (seconds since the epoch) on standard input$' "$ERR"; then
	ok "$what: the ready line on stderr"
else
	not_ok "$what: the ready line on stderr" "command: $LAST"
	show stderr "$ERR"
fi
n_pre=$(grep -n '^atio: preparing ' "$ERR" | cut -d: -f1)
n_ready=$(grep -n '^atio: ready: ' "$ERR" | cut -d: -f1)
if [ -n "$n_pre" ] && [ -n "$n_ready" ] && [ "$n_pre" -lt "$n_ready" ] &&
	[ "$(find "$D" -type f -name 'atio.[0-9]*' -printf '%s\n' | awk '{ s += $1 } END { print s }')" -eq $((16 << 20)) ]; then
	ok "$what: the files were made and filled before it"
else
	not_ok "$what: the files were made and filled before it" "$(cat "$ERR")" "$(listing "$D")"
fi
# Waiting: still running a second later, nothing measured yet.
sleep 1
if kill -0 "$PID" 2>/dev/null && [ ! -s "$OUT" ]; then
	ok "$what: it waits for the instant, nothing measured"
else
	not_ok "$what: it waits for the instant, nothing measured" "$(head -c 200 "$OUT")"
fi
epoch=$(date +%s.%N | cut -c 1-17)
epoch=$(awk -v e="$epoch" 'BEGIN { printf "%.6f", e + 1 }')
echo "$epoch" >&7
exec 7>&-
wait_exit 60
expect_code "$what: exit 0 once the instant came" 0
start=$(grep -o '"start_epoch":[0-9.]*' "$OUT" | head -n 1 | cut -d: -f2)
if [ -n "$start" ] && awk -v s="$start" -v e="$epoch" 'BEGIN { exit !(s >= e && s < e + 5) }'; then
	ok "$what: the measured time began at the instant, not before ($start, instant $epoch)"
else
	not_ok "$what: the measured time began at the instant, not before" "start_epoch ${start:-none}, instant $epoch"
fi

# --- Stdin ends before an instant: exit 1, nothing measured.
what="--start-at - with stdin at its end"
run_atio --read -s 4K -p 1 -t 0.5 -u 16M -f "$D" --json --start-at - </dev/null
expect_code "$what: exit 1" 1
expect_match "$what: the ready line came first" "$ERR" '^atio: ready: '
expect_match "$what: says it does not start" "$ERR" '^atio: --start-at -: standard input ended before a start instant came: not starting$'
expect_empty "$what: no result" "$OUT"

# --- Stdin closed: the same, never a wait on whatever took descriptor 0.
what="--start-at - with stdin closed"
run_atio --read -s 4K -p 1 -t 0.5 -u 16M -f "$D" --start-at - <&-
expect_code "$what: exit 1 (124: it hung)" 1
expect_match "$what: says it does not start" "$ERR" '^atio: --start-at -: standard input ended before a start instant came: not starting$'
expect_empty "$what: no result" "$OUT"

# --- A line that is no instant: exit 2, naming it.
for bad in 12abc 5 "" "1.5e9"; do
	what="--start-at - reading '$bad'"
	printf '%s\n' "$bad" >"$WORK/line"
	run_atio --read -s 4K -p 1 -t 0.5 -u 16M -f "$D" --json --start-at - <"$WORK/line"
	expect_code "$what: exit 2" 2
	expect_match "$what: names the line" "$ERR" "^atio: --start-at -: standard input: --start-at $bad: not "
	expect_empty "$what: no result" "$OUT"
done

# --- --start-at EPOCH with -v: said on stderr.
what="--start-at EPOCH -v"
epoch=$(($(date +%s) + 2))
run_atio -v --read -s 4K -p 1 -t 0.2 -u 16M -f "$D" --start-at "$epoch"
expect_code "$what: exit 0" 0
expect_match "$what: says it waits for the instant" "$ERR" "^atio: waiting [0-9.]+ s for the start instant $epoch\\.000000$"

finish
