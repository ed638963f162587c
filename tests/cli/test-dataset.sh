#!/bin/bash
# The test files: names and sizes for -f DIR and -f PREFIX, -n and -p;
# fully allocated (no holes), incompressible, no two 4 KiB blocks alike,
# also after a write test; reused as they are by a second run, resized when
# -u changes, completed when a fill was cut short or left a hole; kept after
# a run, deleted with --remove (and only atio's own files).
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# files_ok WHAT SIZE FILE...: each FILE exists with SIZE bytes, allocated,
# and incompressible.
files_ok() {
	local what=$1 size=$2 f why=()

	shift 2
	for f in "$@"; do
		if [ ! -f "$f" ]; then
			why+=("${f#"$WORK"/} is missing")
			continue
		fi
		[ "$(file_size "$f")" -eq "$size" ] ||
			why+=("${f#"$WORK"/} has $(file_size "$f") bytes, expected $size")
		not_sparse "$f" ||
			why+=("${f#"$WORK"/} is sparse: $(alloc_size "$f") bytes allocated of $(file_size "$f")")
		incompressible "$f" ||
			why+=("${f#"$WORK"/} compresses: gzip gives $(gzip -c "$f" | wc -c) bytes of $(file_size "$f")")
	done
	if [ ${#why[@]} -eq 0 ]; then
		ok "$what"
	else
		not_ok "$what" "${why[@]}" "after: $LAST"
	fi
}

# expect_listing WHAT DIR NAME...: DIR holds exactly the NAMEs.
expect_listing() {
	local what=$1 dir=$2 want got

	shift 2
	want=$(printf './%s\n' "$@" | LC_ALL=C sort)
	got=$(listing "$dir")
	if [ "$got" = "$want" ]; then
		ok "$what"
	else
		not_ok "$what" "expected: $(echo "$want" | tr '\n' ' ')" "found:    $(echo "$got" | tr '\n' ' ')" \
			"after: $LAST"
	fi
}

# stamp FILE...: size, mtime and ctime at full precision, for reuse checks.
stamp() {
	stat -c '%n %s %y %z' "$@"
}

# untouched WHAT BEFORE FILE...: the FILEs' stamps are still BEFORE.
untouched() {
	local what=$1 before=$2 after

	shift 2
	after=$(stamp "$@")
	if [ "$before" = "$after" ]; then
		ok "$what"
	else
		not_ok "$what" "before: $before" "after:  $after"
	fi
}

# -f DIR: DIR/atio.0 .. atio.N-1, each of -u/-n rounded down to 4096.
A=$WORK/a
mkdir "$A"
run_atio -t 0.2 -s 64K -p 3 -u 10M -f "$A"
expect_code "-p 3 -u 10M -f DIR: exit 0" 0
expect_match "-p 3 -u 10M -f DIR: a new dataset is prepared" "$ERR" '^atio: preparing'
expect_listing "-p 3 -f DIR: files atio.0 to atio.2, nothing else" "$A" atio.0 atio.1 atio.2
# 10M / 3 = 3495253.33, rounded down to 4096: 3493888
files_ok "-p 3 -u 10M: each file 3493888 bytes, allocated, incompressible" 3493888 "$A"/atio.{0,1,2}
check "-p 3 -u 10M: no two 4 KiB blocks alike in the dataset" unique_blocks "$A"/atio.{0,1,2}

# Reuse: the same -u and -n again, a read test: nothing is rewritten.
before=$(stamp "$A"/atio.*)
sleep 0.05
run_atio -t 0.2 -s 64K -p 3 -u 10M -f "$A"
expect_code "second run, same -u: exit 0" 0
expect_no_match "second run, same -u: no preparing" "$ERR" 'preparing'
untouched "second run, same -u: files untouched (size, mtime, ctime)" "$before" "$A"/atio.*
# The same files serve a different -p when -n stays: -p 1 -n 3.
run_atio -t 0.2 -s 64K -p 1 -n 3 -u 10M -f "$A"
expect_code "-p 1 -n 3 on the same files: exit 0" 0
expect_no_match "-p 1 -n 3 on the same files: no preparing" "$ERR" 'preparing'
untouched "-p 1 -n 3 on the same files: files untouched" "$before" "$A"/atio.*

# A write test keeps the files whole, incompressible and without repeats.
run_atio --write --rand -t 0.3 -p 3 -u 10M -f "$A"
expect_code "write test: exit 0" 0
files_ok "after a random write test: same size, allocated, incompressible" 3493888 "$A"/atio.{0,1,2}
check "after a random write test: no two 4 KiB blocks alike" unique_blocks "$A"/atio.{0,1,2}
run_atio --write --seq -s 64K -t 0.3 -p 3 -u 10M -f "$A"
expect_code "sequential write test: exit 0" 0
files_ok "after a sequential write test: same size, allocated, incompressible" 3493888 "$A"/atio.{0,1,2}
check "after a sequential write test: no two 4 KiB blocks alike" unique_blocks "$A"/atio.{0,1,2}

# Resize: -u grows, then shrinks.
run_atio -t 0.2 -s 64K -p 3 -u 24M -f "$A"
expect_code "grow to -u 24M: exit 0" 0
expect_match "grow to -u 24M: the files are prepared" "$ERR" '^atio: preparing'
files_ok "grow to -u 24M: each file 8M, allocated, incompressible" 8388608 "$A"/atio.{0,1,2}
expect_listing "grow: still three files" "$A" atio.0 atio.1 atio.2
run_atio -t 0.2 -s 64K -p 3 -u 6M -f "$A"
expect_code "shrink to -u 6M: exit 0" 0
files_ok "shrink to -u 6M: each file 2M, allocated, incompressible" 2097152 "$A"/atio.{0,1,2}
before=$(stamp "$A"/atio.*)
run_atio -t 0.2 -s 64K -p 3 -u 6M -f "$A"
untouched "after the shrink, the same -u reuses the files" "$before" "$A"/atio.*

# A run refused for lack of space must leave the prepared files alone.
before=$(stamp "$A"/atio.*)
if [ "$(free_bytes "$A")" -lt $((900 * 1024 * 1024 * 1024 * 1024)) ]; then
	run_atio -t 0.2 -s 64K -p 3 -u 900T -f "$A"
	expect_code "-u 900T, more than the free space: exit 1" 1
	expect_match "-u 900T: a message about free space" "$ERR" '^atio: .*free space'
	untouched "-u 900T, refused: the existing files are untouched" "$before" "$A"/atio.*
else
	skip_check "a run refused for lack of space" "more than 900T free in $WORK"
fi

# -f PREFIX (not a directory): PREFIX.0 ..; -n smaller than -p.
B=$WORK/b
mkdir "$B"
run_atio -t 0.2 -s 64K -p 3 -n 2 -u 8M -f "$B/pre"
expect_code "-p 3 -n 2 -f DIR/pre: exit 0" 0
expect_listing "-p 3 -n 2 -f DIR/pre: files pre.0 and pre.1 only" "$B" pre.0 pre.1
# A mistyped directory becomes a prefix: said first, before any file is made.
if [ "$(head -n 1 "$ERR")" = "atio: -f $B/pre: not a directory: files $B/pre.0 .. $B/pre.1 in $B" ]; then
	ok "-f DIR/pre: the first line on stderr says it is a prefix, the files and where"
else
	not_ok "-f DIR/pre: the first line on stderr says it is a prefix, the files and where" \
		"first line: $(head -n 1 "$ERR")"
fi
run_atio -t 0.2 -s 64K -p 1 -u 4M -f "$B/one"
expect_match "-p 1 -f DIR/one: one file named" "$ERR" "^atio: -f $B/one: not a directory: file $B/one\.0 in $B\$"
files_ok "-n 2 -u 8M: two files of 4M" 4194304 "$B"/pre.{0,1}
# -n larger than -p.
run_atio -t 0.2 -s 64K -p 2 -n 5 -u 10M -f "$B/many"
expect_code "-p 2 -n 5 -f DIR/many: exit 0" 0
expect_listing "-p 2 -n 5: five files many.0 to many.4" "$B" pre.0 pre.1 one.0 many.0 many.1 many.2 many.3 many.4
# 10M / 5 = 2M
files_ok "-n 5 -u 10M: five files of 2M" 2097152 "$B"/many.{0,1,2,3,4}

# --remove: the run's files go, anything else in the directory stays.
R=$WORK/r
mkdir "$R"
echo keep >"$R/keep.txt"
echo keep >"$R/atio.7"
run_atio -t 0.2 -s 64K -p 2 -u 8M -f "$R" --remove
expect_code "--remove: exit 0" 0
check_result "--remove: one result line"
expect_listing "--remove: atio.0 and atio.1 deleted, other files kept" "$R" keep.txt atio.7
expect_no_match "-f DIR: nothing said of a prefix" "$ERR" 'not a directory'
run_atio -t 0.2 -s 64K -p 2 -u 8M -f "$R/x" --remove
expect_code "--remove with a prefix: exit 0" 0
expect_listing "--remove with a prefix: x.0 and x.1 deleted" "$R" keep.txt atio.7

# Resume: a file of the right name that is too short, or full size but
# sparse, or with a hole in the middle, is filled completely by the next run.
C=$WORK/c
mkdir "$C"
run_atio -t 0.2 -s 64K -p 2 -u 16M -f "$C"
expect_code "dataset for the resume checks: exit 0" 0
# (in place: the files stay atio's, with their mark)
truncate -s 3M "$C/atio.0"
truncate -s 0 "$C/atio.1"
truncate -s 8M "$C/atio.1"
run_atio -t 0.2 -s 64K -p 2 -u 16M -f "$C"
expect_code "a short file and a sparse file: exit 0" 0
expect_match "a short file and a sparse file: the fill is resumed" "$ERR" '^atio: preparing.* 2 to resume'
files_ok "a short file and a sparse file: both completed, allocated, incompressible" 8388608 "$C"/atio.{0,1}
check "after the resume: no two 4 KiB blocks alike" unique_blocks "$C"/atio.{0,1}
if fallocate -p -o 5M -l 1M "$C/atio.0" 2>/dev/null && ! not_sparse "$C/atio.0"; then
	run_atio -t 0.2 -s 64K -p 2 -u 16M -f "$C"
	expect_code "a hole in the middle of a file: exit 0" 0
	expect_match "a hole in the middle of a file: the fill is resumed" "$ERR" '^atio: preparing.* 1 to resume'
	files_ok "a hole in the middle of a file: filled, allocated, incompressible" 8388608 "$C"/atio.{0,1}
else
	skip_check "a hole in the middle of a file" "fallocate cannot punch a hole in $WORK"
fi
# A file longer than planned, with a tail: truncated to the planned size.
head -c 1M /dev/zero >>"$C/atio.1"
run_atio -t 0.2 -s 64K -p 2 -u 16M -f "$C"
expect_code "a file longer than planned: exit 0" 0
files_ok "a file longer than planned: cut back to 8M" 8388608 "$C"/atio.{0,1}

# A file where a test file should be, but not a regular file.
mkdir "$C/sub" "$C/sub/atio.0"
run_atio -t 0.2 -s 64K -u 8M -f "$C/sub"
expect_code "a directory in the place of atio.0: refused, exit 2" 2
expect_match "a directory in the place of atio.0: the message names it" "$ERR" "^atio: .*$C/sub/atio.0"
check "a directory in the place of atio.0: it is left alone" [ -d "$C/sub/atio.0" ]

# An I/O failure in the middle of a run: the file shrinks under a read test,
# so a read comes back short. The run stops, names the file, the offset and
# the failure, prints no result line and exits 1.
E=$WORK/ioerr
mkdir "$E"
run_atio -t 0.1 -s 1M -p 1 -u 64M -f "$E"
expect_code "prepare for the mid-run failure: exit 0" 0
start_atio --read --rand -s 64K -t 30 -p 1 -u 64M -f "$E"
sleep 1
truncate -s 1M "$E/atio.0"
wait_exit 10
expect_code "a file cut short under a read test: exit 1" 1
expect_match "the failure names the file, the offset and what happened" "$ERR" \
	"^atio: $E/atio.0: short read at offset [0-9]+: [0-9]+ of 65536 bytes$"
expect_count "the failed run prints no result line" "$OUT" rate 0

# No space left in the middle of a write test: in a private 40 MiB tmpfs,
# the running test is stopped (SIGSTOP, so that it cannot take the space
# back first), a hole is punched in its file, the rest of the filesystem is
# filled but for 16 KiB, and the test goes on (SIGCONT): its first write
# into the hole stops after 16 KiB, and writing the rest gets ENOSPC from
# the kernel. The run stops, names the file, the offset, the bytes written
# and the error, prints no result line and exits 1; the same with each
# asynchronous engine this atio has (whose writes in flight share the
# 16 KiB, so a whole write may fail instead).
NS=$WORK/nospace
mkdir "$NS" "$NS/mnt"
cat >"$NS/run" <<'EOS'
#!/bin/sh
# run ATIO DIR OUT ARG...: in a 40 MiB tmpfs on DIR, fill a 16 MiB file,
# start atio ARG... on it (stdout OUT.out, stderr OUT.err), then take the
# space away from under it while it is stopped; exits with atio's status.
exec unshare -m sh -c '
	atio=$1 dir=$2 out=$3
	shift 3
	mount -t tmpfs -o size=40m atio-test "$dir" || exit 99
	"$atio" --write --seq -s 1M -p 1 -u 16M -t 0.1 --allow-memory-fs -f "$dir" >"$out.prep" 2>&1 || exit 98
	"$atio" "$@" --allow-memory-fs -f "$dir" >"$out.out" 2>"$out.err" &
	pid=$!
	sleep 1
	kill -STOP "$pid"
	fallocate -p -o 4M -l 8M "$dir/atio.0" || { kill -KILL "$pid"; exit 97; }
	dd if=/dev/zero of="$dir/filler" bs=4K 2>/dev/null
	fallocate -p -o 0 -l 16K "$dir/filler"
	kill -CONT "$pid"
	wait "$pid"
' sh "$@"
EOS
chmod +x "$NS/run"
# shellcheck disable=SC2016 # the $1 in single quotes is the inner shell's
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1 ||
	! unshare -m sh -c 'mount -t tmpfs -o size=1m atio-test "$1"' sh "$NS/mnt" 2>/dev/null; then
	skip_check "no space left mid-run" "cannot mount a tmpfs in a private mount namespace here (needs root and unshare -m)"
else
	for eng in sync io_uring libaio; do
		depth=8
		[ "$eng" != sync ] || depth=1
		args=(--write --rand -s 64K -p 1 -u 16M -t 30 --engine "$eng" --iodepth "$depth")
		LAST="atio ${args[*]} (space taken away under it)"
		if "$NS/run" "$ATIO" "$NS/mnt" "$NS/r" "${args[@]}"; then RC=0; else RC=$?; fi
		if [ "$eng" != sync ] && [ "$RC" = 1 ] &&
			grep -q "not built\|not available\|refuse" "$NS/r.err"; then
			skip_check "no space left mid-run, $eng" "$(head -n 1 "$NS/r.err")"
			continue
		fi
		why=()
		[ "$RC" = 1 ] || why+=("exit $RC, want 1")
		want="short write at offset [0-9]+: 16384 of 65536 bytes \(No space left on device\)"
		[ "$eng" = sync ] ||
			want="(write of 65536 bytes at offset [0-9]+: No space left on device|short write at offset [0-9]+: [0-9]+ of 65536 bytes \(No space left on device\))"
		grep -Eq "^atio: $NS/mnt/atio.0: $want$" "$NS/r.err" ||
			why+=("no line on stderr naming the file, the offset and ENOSPC: want $want")
		[ "$(grep -c rate "$NS/r.out")" = 0 ] || why+=("a result line was printed")
		verdict "no space left mid-run, $eng: stopped, named, exit 1" "$NS/r.out" "$NS/r.err" "$NS/r.prep"
	done
fi


# --- Files of an earlier dataset at the same names: -n 4, two of them
# removed, -n 2 makes a new dataset of atio.0 and atio.1, then -n 4 again
# finds two files of each. They are atio's own: a run makes the others
# again as its dataset's and says so; a read test with --verify, which
# checks what is there, refuses them naming why; --check then finds none.
SQ=$WORK/sequence
mkdir -p "$SQ"
run_atio --prepare -s 4K -n 4 -p 1 -u 16M -f "$SQ"
expect_code "setup: a dataset of 4 files" 0
rm -f "$SQ/atio.0" "$SQ/atio.1"
run_atio --prepare -s 4K -n 2 -p 1 -u 8M -f "$SQ"
expect_code "setup: -n 2 over two of them, a new dataset" 0
run_atio --read --verify -s 4K -t 0.2 -n 4 -p 1 -u 16M -f "$SQ"
expect_code "files of two datasets, a read test with --verify: refused, exit 2" 2
expect_match "files of two datasets, a read test with --verify: says why" "$ERR" \
	"^atio: $SQ/atio\.[0-3]: a file of atio's whose mark names another dataset than the other files'"
run_atio --read -s 4K -t 0.2 -n 4 -p 1 -u 16M -f "$SQ"
expect_code "files of two datasets, a read test: exit 0" 0
expect_match "files of two datasets, a read test: says two are made again" "$ERR" \
	"^atio: 2 file\(s\) of atio's whose mark names another dataset than the other files' are made again as this dataset's$"
run_atio --check -s 4K -n 4 -p 1 -u 16M -f "$SQ"
expect_code "files of two datasets, after that run: --check exits 0" 0
expect_match "files of two datasets, after that run: --check finds all good" "$OUT" \
	'^check: 4 file\(s\), 16\.00 MiB .* 0 bad sector\(s\); ok$'

finish
