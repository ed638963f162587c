#!/bin/bash
# --meta --shared-by I/N: several atio as the members of one shared tree
# (mdtest without -u across nodes), here two on one machine. Every
# member's files made, stat'ed, read and deleted (exact counts), no name
# used by two members, the tree gone after the last member's delete (or
# --remove) and not before; --neighbour on the next member's files; a run of another N
# or seed on the tree refused and the tree left; a run without
# --shared-by refused while a member holds the tree; a foreign directory
# refused; two members started at one instant (their mkdir of the tree
# and its directories racing, then their rmdir), several times; bad
# inputs exit 2.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "needs python3 to read the JSON"
DIR=$WORK/dir
mkdir "$DIR"
F=40
SHAPE=(-p 2 --files "$F" --dirs 3 --file-size 512 --seed 11 --keep-cache)

# files_in D: the regular files under D/atio-meta.
files_in() {
	find "$1/atio-meta" -type f 2>/dev/null | wc -l
}

# --- Bad inputs.
for bad in 2/2 0/1 1 a/2 0/ /2 0/4097 -1/2; do
	run_atio --meta create "${SHAPE[@]}" --shared-by "$bad" -a -f "$DIR"
	expect_code "--shared-by $bad: exit 2" 2
	expect_match "--shared-by $bad: named" "$ERR" "--shared-by $bad: not I/N"
done
run_atio --meta create -p 2 --files 10 --shared-by 0/2 -a -f "$DIR"
expect_code "--shared-by without --seed: exit 2" 2
expect_match "--shared-by without --seed: said" "$ERR" 'give --seed, the same to every member'
run_atio --meta create,delete "${SHAPE[@]}" --loops 2 --shared-by 0/2 -a -f "$DIR"
expect_code "--shared-by with --loops 2: exit 2" 2
run_atio --meta create,stat "${SHAPE[@]}" --shared-by 0/2 --neighbour-dir "$DIR" -a -f "$DIR"
expect_code "--shared-by with --neighbour-dir: exit 2" 2
run_atio --meta stat "${SHAPE[@]}" --shared-by 0/2 -f "$DIR"
expect_code "stat with no tree: exit 2" 2

# --- Two members, one after the other.
run_atio --meta create,stat "${SHAPE[@]}" --shared-by 0/2 --json -f "$DIR"
expect_code "member 0: create,stat: exit 0" 0
expect_json "member 0: its own files only" '[p["ops"] for p in d["phases"]]' "[$((2 * F)), $((2 * F))]"
expect_json "member 0: said in the settings" '(d["settings"]["member"], d["settings"]["members"])' "(0, 2)"
if [ "$(files_in "$DIR")" = $((2 * F)) ]; then
	ok "member 0's files there"
else
	not_ok "member 0's files there" "$(files_in "$DIR")"
fi
run_atio --meta create,stat "${SHAPE[@]}" --shared-by 1/2 -v -f "$DIR"
expect_code "member 1: create,stat in the same tree: exit 0" 0
expect_match "member 1: the header says so" "$OUT" '^Shared by: member 1 of 2 \(its threads are the tree.s 2 to 3\)'
names=$(find "$DIR/atio-meta" -type f -printf '%f\n' 2>/dev/null) || true
if [ "$(wc -l <<<"$names")" = $((4 * F)) ] && [ -z "$(sort <<<"$names" | uniq -d)" ] &&
	[ "$(cut -d. -f1 <<<"$names" | sort | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' ')" = "t0=$F t1=$F t2=$F t3=$F " ]; then
	ok "every member's files, no name twice: t0..t3, $F each"
else
	not_ok "every member's files, no name twice" "$(cut -d. -f1 <<<"$names" | sort | uniq -c)"
fi
if [ "$(find "$DIR/atio-meta" -mindepth 1 -maxdepth 1)" = "$DIR/atio-meta/shared" ]; then
	ok "one shared tree"
else
	not_ok "one shared tree" "$(find "$DIR/atio-meta" -maxdepth 1)"
fi

# Another N, another seed, a run without --shared-by: refused, the tree left.
run_atio --meta stat -p 2 --files "$F" --dirs 3 --file-size 512 --seed 11 --shared-by 0/3 -f "$DIR"
expect_code "another N on the tree: exit 2" 2
expect_match "another N: said" "$ERR" 'the tree of another run .*--shared-by \?/2.*not this one.s \(--shared-by \?/3\)'
run_atio --meta create -p 2 --files "$F" --dirs 3 --file-size 512 --seed 12 --shared-by 2/3 -f "$DIR"
expect_code "another seed's create on the tree: exit 2" 2
run_atio --meta stat "${SHAPE[@]}" -f "$DIR"
expect_code "a run without --shared-by on the shared tree: exit 2" 2
if [ "$(files_in "$DIR")" = $((4 * F)) ]; then
	ok "the refused runs left the tree"
else
	not_ok "the refused runs left the tree" "$(files_in "$DIR")"
fi

# --neighbour: member 1 stats and reads member 0's files, verified.
run_atio --meta stat,read --neighbour --verify "${SHAPE[@]}" --shared-by 1/2 --json -f "$DIR"
expect_code "--neighbour: member 1 reads member 0's files: exit 0" 0
expect_json "--neighbour: exact counts" '[p["ops"] for p in d["phases"]]' "[$((2 * F)), $((2 * F))]"
run_atio --meta rename "${SHAPE[@]}" --shared-by 0/2 -f "$DIR"
expect_code "member 0 renames its files: exit 0" 0
run_atio --meta stat,read --neighbour --verify "${SHAPE[@]}" --shared-by 0/2 -f "$DIR"
expect_code "--neighbour: member 0 reads member 1's files, its own renamed: exit 0" 0
run_atio --meta create,stat --neighbour "${SHAPE[@]}" --shared-by 0/2 -a -f "$DIR"
expect_code "--neighbour with create in the same run: exit 2" 2
expect_match "--neighbour with create: said" "$ERR" 'do not wait for each other between phases'

# A member's delete removes its own files only; the last one the tree.
run_atio --meta delete "${SHAPE[@]}" --shared-by 1/2 --json -f "$DIR"
expect_code "member 1: delete: exit 0" 0
expect_json "member 1: deleted its own" '[p["ops"] for p in d["phases"]]' "[$((2 * F))]"
if [ "$(files_in "$DIR")" = $((2 * F)) ] && [ -z "$(find "$DIR/atio-meta" -type f -name 't[23].*')" ]; then
	ok "member 0's files still there, the tree too"
else
	not_ok "member 0's files still there" "$(find "$DIR" | head)"
fi
run_atio --meta delete "${SHAPE[@]}" --shared-by 0/2 --json -f "$DIR"
expect_code "member 0: delete (its files renamed): exit 0" 0
expect_json "member 0: deleted its own" '[p["ops"] for p in d["phases"]]' "[$((2 * F))]"
if [ -e "$DIR/atio-meta" ] || [ -e "$DIR/atio-meta.lock" ]; then
	not_ok "the last member's delete: the tree is gone" "$(find "$DIR")"
else
	ok "the last member's delete: the tree is gone"
fi

# --- --remove: a member's own files, then the directories the last one.
for m in 0 1; do
	run_atio --meta create "${SHAPE[@]}" --shared-by "$m/2" -f "$DIR"
	expect_code "--remove: member $m's create: exit 0" 0
done
run_atio --meta stat "${SHAPE[@]}" --shared-by 0/2 --remove -f "$DIR"
expect_code "--remove: member 0: exit 0" 0
if [ "$(files_in "$DIR")" = $((2 * F)) ] && [ -z "$(find "$DIR/atio-meta" -type f -name 't[01].*')" ]; then
	ok "--remove: member 0's files gone, member 1's left"
else
	not_ok "--remove: member 0's files gone, member 1's left" "$(files_in "$DIR")"
fi
run_atio --meta stat "${SHAPE[@]}" --shared-by 1/2 --remove -f "$DIR"
expect_code "--remove: member 1: exit 0" 0
if [ -e "$DIR/atio-meta" ] || [ -e "$DIR/atio-meta.lock" ]; then
	not_ok "--remove: the last member's: the tree is gone" "$(find "$DIR")"
else
	ok "--remove: the last member's: the tree is gone"
fi

# --- A foreign directory: refused, left as it is.
mkdir "$DIR/atio-meta"
echo mine >"$DIR/atio-meta/note"
run_atio --meta create "${SHAPE[@]}" --shared-by 0/2 -f "$DIR"
expect_code "a foreign atio-meta: exit 2" 2
expect_match "a foreign atio-meta: said" "$ERR" 'a directory atio did not make'
if [ "$(cat "$DIR/atio-meta/note")" = mine ]; then
	ok "the foreign directory left"
else
	not_ok "the foreign directory left"
fi
rm -r "$DIR/atio-meta"

# --- Two members at one instant, racing to make the tree; a run without
# --shared-by refused while they hold it.
FIFO0=$WORK/fifo0
FIFO1=$WORK/fifo1
mkfifo "$FIFO0" "$FIFO1"
for round in 1 2 3; do
	exec 4<>"$FIFO0" 5<>"$FIFO1"
	OUT=$WORK/out0 ERR=$WORK/err0
	start_atio_ready "$FIFO0" --meta create,stat,read,delete --verify "${SHAPE[@]}" \
		--shared-by 0/2 --json --start-at - -f "$DIR"
	P0=$PID
	OUT=$WORK/out1 ERR=$WORK/err1
	start_atio_ready "$FIFO1" --meta create,stat,read,delete --verify "${SHAPE[@]}" \
		--shared-by 1/2 --json --start-at - -f "$DIR"
	P1=$PID
	if [ "$round" = 1 ]; then
		OUT=$WORK/out ERR=$WORK/err
		run_atio --meta create,delete "${SHAPE[@]}" -f "$DIR"
		expect_code "a run without --shared-by while members hold the tree: exit 1" 1
	fi
	at=$(awk 'BEGIN { srand(); printf "%.6f", srand() + 0.5 }')
	echo "$at" >&4
	echo "$at" >&5
	for m in 0 1; do
		OUT=$WORK/out$m ERR=$WORK/err$m
		PID=$P0
		[ "$m" = 0 ] || PID=$P1
		wait_exit 60
		expect_code "race $round: member $m: exit 0" 0
		expect_json "race $round: member $m: exact counts" '[p["ops"] for p in d["phases"]]' \
			"[$((2 * F)), $((2 * F)), $((2 * F)), $((2 * F))]"
	done
	exec 4>&- 5>&-
	OUT=$WORK/out ERR=$WORK/err
	if [ -e "$DIR/atio-meta" ] || [ -e "$DIR/atio-meta.lock" ]; then
		not_ok "race $round: the tree is gone" "$(find "$DIR")"
	else
		ok "race $round: the tree is gone"
	fi
done

finish
