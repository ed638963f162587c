#!/bin/bash
# --meta and signals, and --start-at: a SIGINT in the middle of a phase
# prints the phases done and the cut phase's figures so far, marked
# interrupted, exit 130, the JSON marked incomplete (and atio merge
# refuses it); the tree it leaves is reused by the next run. The phase is
# held in its middle by a FIFO in place of a file of the tree, which the
# test holds open: the read phase's read of it waits for data, so the
# signal comes at a known point. A SIGINT while waiting for the start instant
# measures nothing; --start-at - starts the phases at the instant given;
# --neighbour-dir reads another tree and refuses what it must. Intervals
# and stalls per phase: a read held on the FIFO is a stall of its phase,
# in the text, the JSON and atio merge's sum of two documents; -vv prints
# each phase's intervals as a data run's.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "needs python3 to read the JSON"
DIR=$WORK/dir
OTHER=$WORK/other
mkdir "$DIR" "$OTHER"
FIFO=$WORK/start
mkfifo "$FIFO"
# An atio that died holds no FIFO open: the write fails, the test goes on.
trap '' PIPE

# wait_piped: wait (60 s at most, while $PID runs) until a thread of $PID
# waits in a read of a pipe (the FIFO, which the test holds open).
# shellcheck disable=SC2317 # called through check
wait_piped() {
	local i t

	for ((i = 0; i < 1200; i++)); do
		for t in /proc/"$PID"/task/*/wchan; do
			case $(cat "$t" 2>/dev/null) in *pipe*) return 0 ;; esac
		done
		kill -0 "$PID" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# wait_err PATTERN: wait (60 s at most, while $PID runs) for PATTERN on its stderr.
wait_err() {
	local t0

	t0=$(now_ms)
	while ! grep -Eq "$1" "$ERR" && kill -0 "$PID" 2>/dev/null &&
		[ $(($(now_ms) - t0)) -lt 60000 ]; do
		sleep 0.05
	done
}

# --- A read cut by SIGINT. The tree: 1 thread, 200 files of 512 bytes;
# file 100 becomes a FIFO, so the phase holds in the middle.
run_atio --meta create -p 1 --files 200 --file-size 512 --keep-cache -f "$DIR"
expect_code "create: exit 0" 0
rm "$DIR/atio-meta/t0/d0/f100"
mkfifo "$DIR/atio-meta/t0/d0/f100"
# Held open by the test, so that atio's open of it goes through and its read waits.
exec 3<>"$DIR/atio-meta/t0/d0/f100"
start_atio --meta read -p 1 --files 200 --file-size 512 --keep-cache --json -f "$DIR"
check "the read phase waits on the FIFO" wait_piped
kill -INT "$PID" 2>/dev/null || true
wait_err 'SIGINT: stopping'
# The read it waits in gets its 512 bytes; the next file sees the stop.
head -c 512 /dev/zero >&3 || true
exec 3>&-
wait_exit 60
expect_code "a read cut by SIGINT: exit 130" 130
expect_json "the JSON: incomplete" '[d["complete"], d["interrupted"], d["signal"]]' \
	"[False, True, 'SIGINT']"
expect_json "the JSON: the cut phase named, and marked" \
	'[d["interrupted_phase"], [(p["phase"], p["interrupted"]) for p in d["phases"]]]' \
	"['read', [('read', True)]]"
expect_json "the JSON: the cut phase's figures so far (the files before the FIFO, and it)" \
	'[p["ops"] for p in d["phases"]]' "[101]"
cp "$OUT" "$WORK/cut.json"
run_atio merge "$WORK/cut.json"
expect_code "atio merge refuses an interrupted document: exit 2" 2
expect_match "atio merge names it" "$ERR" "cut.json: an interrupted run"

# The same in text: the phase line marked, the line saying where.
run_atio --meta create -p 1 --files 200 --file-size 512 --keep-cache -f "$OTHER"
rm "$OTHER/atio-meta/t0/d0/f100"
mkfifo "$OTHER/atio-meta/t0/d0/f100"
exec 3<>"$OTHER/atio-meta/t0/d0/f100"
start_atio --meta stat,read -p 1 --files 200 --file-size 512 --keep-cache -f "$OTHER"
check "text: the read phase waits on the FIFO" wait_piped
kill -INT "$PID" 2>/dev/null || true
wait_err 'SIGINT: stopping'
head -c 512 /dev/zero >&3 || true
exec 3>&-
wait_exit 60
expect_code "text: exit 130" 130
expect_match "text: stat ran whole" "$OUT" '^stat: .*200 ops in'
expect_match "text: read marked interrupted, its files so far" "$OUT" '^read: \(interrupted\) .*101 ops in'
expect_match "text: where the signal came" "$OUT" \
	'^interrupted: by SIGINT in read: its figures cover the files done before the signal'
expect_count "text: one result line" "$OUT" rate 1

# The trees are reused by the next run (stat and read changed nothing);
# the FIFO put back as a file first.
for d in "$DIR" "$OTHER"; do
	rm "$d/atio-meta/t0/d0/f100"
	head -c 512 /dev/zero >"$d/atio-meta/t0/d0/f100"
done
run_atio --meta delete -p 1 --files 200 --file-size 512 --keep-cache -f "$OTHER"
expect_code "the second cut tree is reused by a delete: exit 0" 0
run_atio --meta stat,delete -p 1 --files 200 --file-size 512 --keep-cache --json -f "$DIR"
expect_code "the cut tree is reused: exit 0" 0
expect_json "the cut tree: every file there" '[p["ops"] for p in d["phases"]]' "[200, 200]"
if [ -e "$DIR/atio-meta" ]; then not_ok "deleted" "$(ls "$DIR")"; else ok "the cut tree deleted"; fi

# --- Intervals and stalls per phase. A read held on a FIFO a second (ten
# intervals of 0.1 s with nothing done) is a stall of the read phase.
run_atio --meta create -p 1 --files 200 --file-size 512 --keep-cache -f "$OTHER"
expect_code "the tree to stall in: exit 0" 0
rm "$OTHER/atio-meta/t0/d0/f100"
mkfifo "$OTHER/atio-meta/t0/d0/f100"
exec 3<>"$OTHER/atio-meta/t0/d0/f100"
start_atio --meta stat,read -p 1 --files 200 --file-size 512 --keep-cache --interval 0.1 --json -f "$OTHER"
check "the held read waits on the FIFO" wait_piped
# The stall is made by holding the file; nothing is asserted of its length.
sleep 1
head -c 512 /dev/zero >&3 || true
exec 3>&-
wait_exit 60
expect_code "a read held a second: exit 0" 0
expect_json "the JSON: each phase's intervals add up to its operations" \
	'[sum(i["ops"] for i in p["intervals"]) for p in d["phases"]]' "[200, 200]"
expect_json "the JSON: the held read has a stall, stat none" \
	'[p["timeline"]["stalls"] > 0 for p in d["phases"]]' "[False, True]"
cp "$OUT" "$WORK/stalled.json"
run_atio merge --json "$WORK/stalled.json" "$WORK/stalled.json"
expect_code "atio merge of two stalled documents: exit 0" 0
expect_json "atio merge: the phases' intervals summed" \
	'[sum(i["ops"] for i in p["intervals"]) for p in d["phases"]]' "[400, 400]"
expect_json "atio merge: the read's stall kept (neither did anything then)" \
	'[p["timeline"]["stalls"] > 0 for p in d["phases"]]' "[False, True]"
run_atio merge "$WORK/stalled.json" "$WORK/stalled.json"
expect_match "atio merge: a line of intervals and stalls per phase" "$OUT" \
	'^read intervals: [0-9]+ x 0\.1 s: .*; stalls: [1-9]'
rm "$OTHER/atio-meta/t0/d0/f100"
head -c 512 /dev/zero >"$OTHER/atio-meta/t0/d0/f100"
run_atio --meta stat,delete -p 1 --files 200 --file-size 512 --keep-cache --interval 0.1 -vv -f "$OTHER"
expect_code "-vv: exit 0" 0
expect_match "-vv: an interval line of the stat phase on stderr" "$ERR" '^atio: stat: [0-9.]+ s: .* IOPS, '
expect_match "-vv: an interval line of the delete phase on stderr" "$ERR" '^atio: delete: [0-9.]+ s: .* IOPS, '
expect_match "text: a line of intervals and stalls per phase" "$OUT" '^delete intervals: [0-9]+ x 0\.1 s.*; stalls: [0-9]+'

# --- A signal while waiting for the start instant: nothing measured.
exec 4<>"$FIFO"
start_atio_ready "$FIFO" --meta create,delete -p 2 --files 50 --keep-cache --start-at - -f "$DIR"
kill -INT "$PID" 2>/dev/null || true
wait_exit 60
exec 4>&-
expect_code "SIGINT before the start instant: exit 130" 130
expect_match "nothing measured, said" "$OUT" '^interrupted: by SIGINT before the first phase began; nothing was measured'
expect_no_match "no result line" "$OUT" 'rate'

# --- --start-at -: the phases begin at the instant given.
exec 4<>"$FIFO"
start_atio_ready "$FIFO" --meta create,delete -p 2 --files 50 --keep-cache --json --start-at - -f "$DIR"
at=$(awk 'BEGIN { srand(); printf "%.6f", srand() + 1.5 }')
echo "$at" >&4
wait_exit 60
exec 4>&-
expect_code "--start-at -: exit 0" 0
expect_json "--start-at -: the phases began at or after the instant" "d[\"start_epoch\"] >= $at - 0.001" True
expect_json "--start-at -: exact counts" '[p["ops"] for p in d["phases"]]' "[100, 100]"

# --- --neighbour-dir: stat and read the tree made under another directory.
run_atio --meta create -p 2 --files 40 --file-size 4K --keep-cache -f "$OTHER"
expect_code "the other tree: a create of -p 2, exit 0" 0
run_atio --meta create,stat,read,delete -p 2 --files 40 --file-size 4K --verify --keep-cache --json \
	--neighbour-dir "$OTHER" -f "$DIR"
expect_code "--neighbour-dir: exit 0, its data verified" 0
expect_json "--neighbour-dir: exact counts" '[p["ops"] for p in d["phases"]]' "[80, 80, 80, 80]"
if [ "$(find "$OTHER/atio-meta" -type f | wc -l)" = 80 ]; then
	ok "--neighbour-dir: the other tree is left whole"
else
	not_ok "--neighbour-dir: the other tree is left whole" "$(find "$OTHER/atio-meta" -type f | wc -l) files"
fi
run_atio --meta create,stat,delete -p 3 --files 40 --keep-cache --neighbour-dir "$OTHER" -f "$DIR"
expect_code "--neighbour-dir of another shape: exit 2" 2
expect_match "--neighbour-dir of another shape: named" "$ERR" "neighbour-dir $OTHER: its tree was made with -p 2"
run_atio --meta create,stat,delete -p 2 --files 40 --keep-cache --neighbour-dir "$WORK" -f "$DIR"
expect_code "--neighbour-dir without a tree: exit 2" 2
expect_match "--neighbour-dir without a tree: named" "$ERR" "neighbour-dir: $WORK/atio-meta: "
run_atio --meta stat -p 2 --files 40 --neighbour-dir relative -f "$DIR"
expect_code "--neighbour-dir relative: exit 2" 2
expect_match "--neighbour-dir relative: named" "$ERR" "neighbour-dir relative: not an absolute path"
run_atio --meta create,delete -p 2 --files 40 --neighbour-dir "$OTHER" -f "$DIR"
expect_code "--neighbour-dir with neither stat nor read: exit 2" 2
run_atio --meta stat -p 2 --files 40 --file-size 4K --neighbour-dir "$OTHER" -f "$OTHER"
expect_code "--neighbour-dir of the run's own tree: exit 2" 2
expect_match "--neighbour-dir of the run's own tree: named" "$ERR" "the tree of this run itself"
run_atio --meta delete -p 2 --files 40 --file-size 4K --keep-cache -f "$OTHER"
expect_code "the other tree removed: exit 0" 0

finish
