#!/bin/bash
# --meta: the metadata workload. Exact counts (every phase did p * files
# operations, in JSON), one result line, the tree gone after delete; a
# tree left by a create reused by a later run, and one left by a killed
# run removed by the next create; --shared-dir on ext4, xfs and btrfs
# (loop devices); --neighbour and --loops; inode exhaustion on a small
# ext4 named with its phase, file and errno; a second run refused on a
# tree another atio uses; a foreign directory refused and left as it is;
# --verify catching a changed file; bad inputs exit 2 naming the value.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

DIR=$WORK/dir
mkdir "$DIR"
command -v python3 >/dev/null 2>&1 || skip "needs python3 to read the JSON"

# ops_are WHAT N: every phase of the JSON in $OUT did exactly N operations.
ops_are() {
	expect_json "$1: every phase did $2 operations" \
		'sorted(set(p["ops"] for p in d["phases"]))' "[$2]"
}

# gone WHAT D: no tree and no lock file left under D.
gone() {
	if [ -e "$2/atio-meta" ] || [ -e "$2/atio-meta.lock" ]; then
		not_ok "$1: the tree is gone" "$(ls -la "$2")"
	else
		ok "$1: the tree is gone"
	fi
}

# fs_loop FS SIZE MNT [MKFS ARG...]: FS on a loop device over a file, mounted at MNT.
fs_loop() {
	local fs=$1 size=$2 mnt=$3 img loop

	shift 3
	WHY="needs root, losetup and mkfs.$fs"
	[ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
		command -v "mkfs.$fs" >/dev/null 2>&1 || return 1
	img=$WORK/$fs.$RANDOM.img
	truncate -s "$size" "$img"
	WHY="no loop device with $fs here"
	loop=$(losetup --find --show "$img" 2>/dev/null) || return 1
	TEST_LOOPS+=("$loop")
	mkdir -p "$mnt"
	"mkfs.$fs" "$@" "$loop" >/dev/null 2>&1 && mount "$loop" "$mnt" || return 1
	TEST_MOUNTS+=("$mnt")
}

# The whole cycle: exact counts, one result line, the tree gone.
run_atio --meta create,stat,read,rename,delete -p 2 --files 150 --file-size 4K --dirs 4 \
	--verify --keep-cache -f "$DIR"
expect_code "create..delete: exit 0" 0
expect_count "one line with the result's word" "$OUT" rate 1
expect_match "the result line, at_io_iops' shape, in ops/s" "$OUT" \
	'^time: [0-9]+\.[0-9]{6} sec; rate: \{ [0-9]+\.[0-9]{5} \} ops/s;$'
expect_count "a line a phase" "$OUT" '^(create|stat|read|rename|delete): ' 5
expect_match "each phase: ops and latency percentiles" "$OUT" \
	'^stat: .*300 ops in [0-9.]+ sec, latency \(usec\): p50 [0-9.]+, p99 [0-9.]+, p99\.9 [0-9.]+, max [0-9.]+$'
expect_match "--verify said" "$OUT" '^verify: every file read checked'
gone "create..delete" "$DIR"

run_atio --meta create,stat,read,rename,delete -p 3 --files 100 --file-size 3901 --dirs 7 \
	--verify --keep-cache --json -f "$DIR"
expect_code "--json: exit 0" 0
ops_are "-p 3 --files 100" 300
expect_json "--json: the figure is create's" 'd["result"]["phase"]' create
expect_json "--json: each thread's count" '[t["ops"] for t in d["phases"][1]["threads"]]' \
	'[100, 100, 100]'
expect_json "--json: the histogram with its buckets" \
	'sum(b[2] for b in d["phases"][2]["latency_ns"]["buckets"])' 300
gone "--json" "$DIR"

# -a: the settings, and nothing made.
run_atio --meta create,stat,delete -p 2 --files 50 --shared-dir -a -f "$DIR"
expect_code "-a: exit 0" 0
expect_match "-a: the Testcase line" "$OUT" '^Testcase: metadata: create,stat,delete of 50 empty file\(s\) .* one tree all threads share'
run_atio --meta create,stat,delete -p 2 --files 50 -a --json -f "$DIR"
expect_json "-a --json: the settings" 'd["settings"]["phases"]' "['create', 'stat', 'delete']"
check "-a: no tree made" test ! -e "$DIR/atio-meta"

# A tree left by a create, reused by the next run; the figure of --figure.
run_atio --meta create -p 2 --files 120 --file-size 1K --dirs 3 --keep-cache -f "$DIR"
expect_code "create alone: exit 0" 0
check "create alone: the tree is left" test -d "$DIR/atio-meta/t1/d2"
run_atio --meta stat,read -p 2 --files 120 --file-size 1K --dirs 5 --keep-cache -f "$DIR"
expect_code "a tree of another shape: exit 2" 2
expect_match "a tree of another shape: said" "$ERR" 'was made with -p 2 --files 120 --dirs 3'
run_atio --meta stat,rename,read,delete --figure read -p 2 --files 120 --file-size 1K --dirs 3 \
	--keep-cache --json -f "$DIR"
expect_code "stat,rename,read,delete on the tree left: exit 0" 0
ops_are "the tree left" 240
expect_json "--figure read" 'd["result"]["phase"]' read
gone "the tree left" "$DIR"
run_atio --meta stat -p 2 --files 120 -f "$DIR"
expect_code "stat with no tree: exit 2" 2
expect_match "stat with no tree: said" "$ERR" 'no tree at .* to stat'

# atio merge: two nodes' documents summed phase by phase, histograms exactly.
mkdir "$WORK/n1" "$WORK/n2"
run_atio --meta create,stat,delete -p 2 --files 90 --keep-cache --json -f "$WORK/n1"
cp "$OUT" "$WORK/n1.json"
run_atio --meta create,stat,delete -p 3 --files 40 --keep-cache --json -f "$WORK/n2"
cp "$OUT" "$WORK/n2.json"
run_atio merge --json "$WORK/n1.json" "$WORK/n2.json"
expect_code "merge of two metadata documents: exit 0" 0
ops_are "merge" 300
expect_json "merge: each phase's histogram holds every operation" 	'[p["latency_ns"]["count"] for p in d["phases"]]' '[300, 300, 300]'
mx=$(python3 -c 'import json, sys; print([max(json.load(open(f))["phases"][i]["latency_ns"]["max"] for f in sys.argv[1:]) for i in range(3)])' 	"$WORK/n1.json" "$WORK/n2.json")
expect_json "merge: each phase's max the larger node's" '[p["latency_ns"]["max"] for p in d["phases"]]' "$mx"
expect_json "merge: the time the slowest node's" 'd["phases"][0]["elapsed_ns"]' 	"$(python3 -c 'import json, sys; print(max(json.load(open(f))["phases"][0]["elapsed_ns"] for f in sys.argv[1:]))' 		"$WORK/n1.json" "$WORK/n2.json")"
run_atio merge "$WORK/n1.json" "$WORK/n2.json"
expect_count "merge: one line with the result's word" "$OUT" rate 1
expect_count "merge: a line a phase" "$OUT" '^(create|stat|delete): .*300 ops in' 3
run_atio --meta create,delete -p 1 --files 10 --keep-cache --json -f "$WORK/n2"
cp "$OUT" "$WORK/n3.json"
run_atio merge "$WORK/n1.json" "$WORK/n3.json"
expect_code "merge of other phases: exit 2" 2
expect_match "merge of other phases: said" "$ERR" 'n3.json: other phases than the first'

# --neighbour, --rand and --loops.
run_atio --meta create,stat,rename,read,delete --neighbour --rand --loops 2 -p 2 --files 80 \
	--file-size 512 --dirs 2 --verify --keep-cache --json -f "$DIR"
expect_code "--neighbour --rand --loops 2: exit 0" 0
ops_are "--loops 2 -p 2 --files 80" 320
expect_json "--loops 2: two passes" 'd["phases"][0]["passes"]' 2
expect_json "--loops 2: each pass stats and reads what its create made" \
	'[p["phase"] for p in d["phases"]]' "['create', 'stat', 'rename', 'read', 'delete']"
gone "--loops 2" "$DIR"

# One thread held back: thread 1's first file is a FIFO whose open waits
# for a writer. Once thread 0 has ended the phase (it waits at the barrier,
# /proc says; the main thread polls for the threads' ends and the
# signals), the FIFO gets its bytes: the phase's
# time is thread 1's, and each thread's own figure tells them apart.
run_atio --meta create -p 2 --files 5 --file-size 512 --keep-cache -f "$DIR"
rm "$DIR/atio-meta/t1/d0/f0"
mkfifo "$DIR/atio-meta/t1/d0/f0"
start_atio --meta read -p 2 --files 5 --file-size 512 --keep-cache --json -f "$DIR"
held=0
for ((i = 0; i < 1200; i++)); do
	w=$(for t in /proc/"$PID"/task/*/wchan; do cat "$t" 2>/dev/null; echo; done |
		sort | uniq -c | tr -s ' ' | tr '\n' ';') || w=
	case $w in *" 1 wait_for_partner;"*) case $w in *" 1 futex"*) held=1 && break ;; esac ;; esac
	kill -0 "$PID" 2>/dev/null || break
	sleep 0.05
done
check "thread 1 held at its FIFO while thread 0 waits" test "$held" = 1
printf '%512s' '' >"$DIR/atio-meta/t1/d0/f0"
wait_exit 60
expect_code "one thread held back: exit 0" 0
expect_json "one thread held back: thread 1 took over twice thread 0's time" \
	'd["phases"][0]["threads"][1]["elapsed_ns"] > 2 * d["phases"][0]["threads"][0]["elapsed_ns"]' True
expect_json "one thread held back: the phase's time is the slowest thread's" \
	'd["phases"][0]["elapsed_ns"] >= d["phases"][0]["threads"][1]["elapsed_ns"]' True
rm "$DIR/atio-meta/t1/d0/f0"
: >"$DIR/atio-meta/t1/d0/f0"
run_atio --meta create,delete -p 1 --files 1 --keep-cache -f "$DIR"
expect_code "one thread held back: the tree removed after" 0

# --verify: a changed byte in one file is named.
run_atio --meta create -p 1 --files 20 --file-size 2K --keep-cache -f "$DIR"
printf 'X' | dd of="$DIR/atio-meta/t0/d0/f7" bs=1 seek=1000 conv=notrunc status=none
run_atio --meta read --verify -p 1 --files 20 --file-size 2K --keep-cache -f "$DIR"
expect_code "--verify, a changed file: exit 1" 1
expect_match "--verify: the file and the sector named" "$ERR" 't0/d0/f7: verify: the sector at offset 512'
run_atio --meta read --verify -p 1 --files 20 --file-size 2K --keep-cache -f "$DIR"
expect_code "--verify again: the tree is still whole, the file still bad" 1
run_atio --meta create,delete -p 1 --files 20 --keep-cache -f "$DIR"
expect_code "create on a tree left: exit 0" 0
expect_match "create on a tree left: its removal said" "$ERR" 'removing the tree a run left'
gone "create on a tree left" "$DIR"

# A foreign directory at the tree's name: refused and left as it is.
mkdir "$DIR/atio-meta"
echo mine >"$DIR/atio-meta/f0"
run_atio --meta create,delete -p 1 --files 10 -f "$DIR"
expect_code "a foreign atio-meta: exit 2" 2
expect_match "a foreign atio-meta: said" "$ERR" 'a directory atio did not make'
check "a foreign atio-meta: its file untouched" grep -qx mine "$DIR/atio-meta/f0"
check "a foreign atio-meta: nothing added" test "$(ls -A "$DIR/atio-meta")" = f0
run_atio --meta create --remove -p 1 --files 10 -f "$DIR"
expect_code "--remove on a foreign atio-meta: exit 2" 2
check "--remove on a foreign atio-meta: left" test -f "$DIR/atio-meta/f0"
rm -r "$DIR/atio-meta"

# A name atio does not give, inside its own tree: left there.
run_atio --meta create -p 1 --files 10 --keep-cache -f "$DIR"
echo mine >"$DIR/atio-meta/t0/d0/notes"
run_atio --meta create -p 1 --files 10 --keep-cache -f "$DIR"
expect_code "a stranger in the tree: exit 1" 1
expect_match "a stranger in the tree: named" "$ERR" 't0/d0/notes: not a name atio gives'
check "a stranger in the tree: kept" test -f "$DIR/atio-meta/t0/d0/notes"
rm "$DIR/atio-meta/t0/d0/notes"
run_atio --meta stat -p 1 --files 10 --keep-cache -f "$DIR"
expect_code "a tree cut in its removal: refused to stat" 2
run_atio --meta create,delete -p 1 --files 10 --keep-cache -f "$DIR"
expect_code "a tree cut in its removal: the next create removes it" 0
gone "a tree cut in its removal" "$DIR"

# Links planted in atio's tree are never followed by its removal: a
# directory of the tree replaced by a link to another directory holding
# names atio gives, a file replaced by a link to another file. Both are
# left, named, and what they lead to is untouched.
OUTSIDE=$WORK/outside
mkdir -p "$OUTSIDE/d0"
echo theirs >"$OUTSIDE/d0/f0"
echo theirs >"$OUTSIDE/f1"
run_atio --meta create -p 1 --files 4 --dirs 1 --keep-cache -f "$DIR"
mv "$DIR/atio-meta/t0" "$WORK/t0.moved"
ln -s "$OUTSIDE" "$DIR/atio-meta/t0"
run_atio --meta create -p 1 --files 4 --dirs 1 --keep-cache -f "$DIR"
expect_code "a thread's tree that is a link: exit 1" 1
expect_match "a thread's tree that is a link: named" "$ERR" 'atio-meta/t0: .*not a directory atio made'
check "a thread's tree that is a link: what it leads to is untouched" \
	test "$(cat "$OUTSIDE/d0/f0")" = theirs
rm "$DIR/atio-meta/t0"
mv "$WORK/t0.moved" "$DIR/atio-meta/t0"
rm "$DIR/atio-meta/t0/d0/f1"
ln -s "$OUTSIDE/f1" "$DIR/atio-meta/t0/d0/f1"
run_atio --meta create -p 1 --files 4 --dirs 1 --keep-cache -f "$DIR"
expect_code "a file of the tree that is a link: exit 1" 1
expect_match "a file of the tree that is a link: named" "$ERR" 't0/d0/f1: not a file atio made'
check "a file of the tree that is a link: the file it leads to is untouched" \
	test "$(cat "$OUTSIDE/f1")" = theirs
check "a file of the tree that is a link: the link is left" test -L "$DIR/atio-meta/t0/d0/f1"
rm "$DIR/atio-meta/t0/d0/f1"
run_atio --meta create,delete -p 1 --files 4 --dirs 1 --keep-cache -f "$DIR"
expect_code "links taken away: the next create removes the tree" 0
gone "links taken away" "$DIR"

# --remove: the tree left by the phases goes too.
run_atio --meta create,stat --remove -p 1 --files 10 --keep-cache -f "$DIR"
expect_code "create,stat --remove: exit 0" 0
gone "create,stat --remove" "$DIR"

# A run killed in its create: the next create removes what it left.
start_atio --meta create -v -p 1 --files 1000000 --keep-cache -f "$DIR"
for ((i = 0; i < 1200; i++)); do
	[ -e "$DIR/atio-meta/t0/d0/f10" ] || ! kill -0 "$PID" 2>/dev/null || { sleep 0.05; continue; }
	break
done
check "the first run is at work" test -e "$DIR/atio-meta/t0/d0/f10"
# A second atio on the same tree is refused, naming the holder.
run_atio --meta create,delete -p 1 --files 10 -f "$DIR"
expect_code "a second run on a tree in use: exit 1" 1
expect_match "a second run on a tree in use: the holder named" "$ERR" "atio-meta.lock.*$PID"
kill -KILL "$PID" 2>/dev/null || true
wait_exit 20
run_atio --meta stat -p 1 --files 1000000 -f "$DIR"
expect_code "stat on a tree a killed run left: exit 2" 2
expect_match "stat on a tree a killed run left: said" "$ERR" 'part of its files'
run_atio --meta create,delete -p 2 --files 30 --keep-cache --json -f "$DIR"
expect_code "create after a killed run: exit 0" 0
ops_are "create after a killed run" 60
gone "create after a killed run" "$DIR"

# The caches dropped between phases, as root; said either way.
run_atio --meta create,stat,delete -p 1 --files 20 -v -f "$DIR"
expect_code "without --keep-cache: exit 0" 0
if [ "$(id -u)" -eq 0 ]; then
	expect_match "as root: the caches dropped" "$OUT" '^Cache: the page, dentry and inode caches dropped'
else
	expect_match "not root: why they are not dropped" "$OUT" '^Cache: not dropped: '
fi

# Not root: the caches cannot be dropped; the header says why, and a small tree is warned of.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	chmod 711 "$WORK"
	mkdir -m 777 "$WORK/pub"
	LAST="setpriv (nobody) atio --meta create,stat,delete -v"
	RC=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$ATIO" --meta create,stat,delete \
		-p 1 --files 20 -v -f "$WORK/pub" >"$OUT" 2>"$ERR" || RC=$?
	expect_code "not root: exit 0" 0
	expect_match "not root: why the caches are not dropped" "$OUT" '^Cache: not dropped: .*drop_caches'
	expect_match "not root: the small tree warned of" "$ERR" 'fits in the caches'
else
	skip_check "the caches of a run not by root" "needs root, setpriv and a user nobody"
fi

# One shared directory for all threads, on ext4, xfs and btrfs.
for fs in ext4 xfs btrfs; do
	case $fs in
	ext4) args=(-q -F) size=64M ;;
	xfs) args=(-q -f) size=320M ;;
	btrfs) args=(-q -f) size=160M ;;
	esac
	if ! fs_loop "$fs" "$size" "$WORK/$fs" "${args[@]}"; then
		skip_check "--shared-dir on $fs" "$WHY"
		continue
	fi
	run_atio --meta create,stat,read,rename,delete --shared-dir -p 3 --files 60 --dirs 2 \
		--file-size 1K --verify --keep-cache --json -f "$WORK/$fs"
	expect_code "--shared-dir on $fs: exit 0" 0
	ops_are "--shared-dir on $fs" 180
	expect_json "--shared-dir on $fs: the filesystem said" 'd["settings"]["filesystem"]' "$fs"
	gone "--shared-dir on $fs" "$WORK/$fs"
done

# No inode left: the phase, the file and the errno named.
if fs_loop ext4 16M "$WORK/few" -q -F -N 64; then
	run_atio --meta create,delete -p 1 --files 500 --keep-cache -f "$WORK/few"
	expect_code "no inode left: exit 1" 1
	expect_match "no inode left: phase, file and errno named" "$ERR" \
		'create: .*/atio-meta/t0/d0/f[0-9]+: open: No space left on device \(ENOSPC\): no free inodes'
	run_atio --meta stat --remove -p 1 --files 500 --keep-cache -f "$WORK/few"
	expect_code "no inode left: a stat on what is left is refused" 2
	run_atio --meta create,delete -p 1 --files 20 --keep-cache -f "$WORK/few"
	expect_code "no inode left: the next create removes it and runs" 0
	gone "no inode left" "$WORK/few"
else
	skip_check "inode exhaustion on a small ext4" "$WHY"
fi

# Bad inputs: exit 2, naming the value.
bad() {
	local what=$1 re=$2

	shift 2
	run_atio "$@"
	expect_code "$what: exit 2" 2
	expect_match "$what: named" "$ERR" "$re"
}
bad "an unknown phase" "'chmod' is not a phase" --meta create,chmod -f "$DIR"
bad "an empty phase" "'' is not a phase" --meta create,,delete -f "$DIR"
bad "--files 0" '--files 0: ' --meta create --files 0 -f "$DIR"
bad "--files x" '--files x: ' --meta create --files x -f "$DIR"
bad "--file-size 4Q" '--file-size 4Q: not a size' --meta create --file-size 4Q -f "$DIR"
bad "--dirs 0" '--dirs 0: ' --meta create --dirs 0 -f "$DIR"
bad "--figure chmod" '--figure chmod: not a phase' --meta create --figure chmod -f "$DIR"
bad "--figure not among the phases" '--figure stat: not one of the phases' \
	--meta create,delete --figure stat -f "$DIR"
bad "a data option" '-s: not with --meta' --meta create -s 4K -f "$DIR"
bad "--rate with --meta" '--(rate|cap): not with --meta' --meta create --rate 10 -f "$DIR"
# The warm-up, preconditioning and output options of data runs: refused, not ignored.
for opt in "--steady iops" "--round 1" "--rounds 7" --all-rounds --precondition \
	"--arrivals uniform" --no-thp "--percentiles 50" "--csv $WORK/m.csv"; do
	# shellcheck disable=SC2086 # an option and its value
	bad "$opt with --meta" "${opt%% *}: not with --meta" --meta create $opt -f "$DIR"
done
bad "--files without --meta" '--files: only with --meta' --read --files 10 -f "$DIR"
bad "--neighbour -p 1" '--neighbour: .*-p 1' --meta create,stat,delete --neighbour -f "$DIR"
bad "--verify with small files" '--file-size 100 holds no stamp' \
	--meta create,read,delete --verify --file-size 100 -f "$DIR"
bad "stat after delete" 'stat after delete' --meta create,delete,stat -f "$DIR"
bad "create twice" 'create after the files were made' --meta create,create -f "$DIR"
bad "--loops without delete" '--loops 2 with --meta create,stat' --meta create,stat --loops 2 -f "$DIR"
bad "no such directory" "-f $DIR/none: no such directory" --meta create -f "$DIR/none"
bad "in a plan" '--meta: a metadata run has phases of its own' \
	--meta create,delete -f "$DIR" --and --read -u 1M -f "$DIR"
bad "a path too long" 'leaves no room for the tree' --meta create -f "/$(printf 'x%.0s' {1..4080})"
check "no bad input made a tree" test ! -e "$DIR/atio-meta"

finish
