#!/bin/bash
# What atio will and will not touch: files it did not make (a user's file at
# one of its names, a symbolic link, a file of zeros, a copy of one of its
# files under another name) are refused with exit 2 and left byte for byte
# as they were, unless --take-over; fallocated (unwritten) space is filled,
# not read as data; a second atio on a dataset in use is refused with exit 1
# naming the first; a file that changes size under a run fails the run;
# memory and kernel filesystems are refused; the open-file limit is checked
# before any file is made; reads work on a read-only mount, on a full
# filesystem (no space, no inode) and for a user who may only read, without
# a lock file that can be written (the directory is locked and it is said),
# and a writer is refused while such a reader reads.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

# sums FILE...: name, size and SHA-256 of each FILE, to compare before/after.
sums() {
	local f

	for f in "$@"; do
		printf '%s %s %s\n' "$f" "$(file_size "$f")" "$(sha256sum <"$f" | cut -d ' ' -f 1)"
	done
}

# same WHAT BEFORE FILE...: the FILEs' sums are still BEFORE.
same() {
	local what=$1 before=$2 after

	shift 2
	after=$(sums "$@")
	if [ "$before" = "$after" ]; then
		ok "$what"
	else
		not_ok "$what" "before: $before" "after:  $after"
	fi
}

# refused WHAT CODE ERE: the last run exited CODE, printed nothing on
# stdout, and its first stderr line (past warnings and the line that says
# -f is a file-name prefix) matches ERE.
refused() {
	local what=$1 code=$2 ere=$3 why=()

	[ "$RC" = "$code" ] || why+=("exit $RC, expected $code")
	[ ! -s "$OUT" ] || why+=("stdout is not empty")
	grep -v -e '^atio: warning' -e '^atio: -f .*: not a directory: files\? ' "$ERR" |
		head -n 1 | grep -Eq -- "$ere" ||
		why+=("the message does not match: $ere")
	verdict "$what" "$OUT" "$ERR"
}

# Whatever an atio that ignored the rules below left in /dev and /dev/shm.
# shellcheck disable=SC2317 # called by the EXIT trap
teardown() {
	rm -f /dev/atio-test-safety-$$.* /dev/shm/atio-test-safety-$$.*
	cleanup
}
trap teardown EXIT

# mark FILE: the value of FILE's user.atio attribute, or nothing.
mark() {
	getfattr --only-values -n user.atio "$1" 2>/dev/null || true
}

# A user's file where -f DIR/log would put its second file: a 22 MB log.
L=$WORK/logs
mkdir "$L"
seq 1 3000000 >"$L/log.1"
before=$(sums "$L/log.1")
run_atio -t 0.2 -s 64K -p 2 -u 8M -f "$L/log"
refused "-f DIR/log with the user's DIR/log.1: exit 2, the file named" 2 \
	"^atio: $L/log.1: not a file atio made: it has no user.atio mark"
same "-f DIR/log: the user's log.1 is byte for byte untouched" "$before" "$L/log.1"
check "-f DIR/log: nothing made next to it (no log.0, no lock file)" \
	[ "$(listing "$L")" = "./log.1" ]

# A symbolic link at atio.0: never followed, its target untouched.
S=$WORK/link
mkdir "$S"
seq 1 100000 >"$WORK/target"
ln -s "$WORK/target" "$S/atio.0"
before=$(sums "$WORK/target")
run_atio -t 0.2 -s 64K -u 8M -f "$S"
refused "a symbolic link at atio.0: exit 2, the link named" 2 \
	"^atio: $S/atio.0: is a symbolic link, at the name of one of atio's files; atio does not follow it"
same "a symbolic link at atio.0: its target is untouched" "$before" "$WORK/target"
check "a symbolic link at atio.0: still the same link" [ "$(readlink "$S/atio.0")" = "$WORK/target" ]
run_atio -t 0.2 -s 64K -u 8M -f "$S" --take-over
refused "a symbolic link, even with --take-over: exit 2" 2 "^atio: $S/atio.0: is a symbolic link"
same "a symbolic link with --take-over: its target is untouched" "$before" "$WORK/target"

# A user's file where atio keeps its lock file: refused and kept as it was.
echo "the user's own notes" >"$S/y.lock"
kept=$(sums "$S/y.lock")
run_atio -t 0.2 -s 64K -u 8M -f "$S/y"
refused "a user's file at the lock file's name: exit 2" 2 "^atio: $S/y.lock: not atio's lock file"
same "a user's file at the lock file's name: left as it was" "$kept" "$S/y.lock"

# A run refused by the survey removes nothing with --remove, neither the
# foreign file waiting to be taken over nor atio's own files before it.
mkdir "$S/tk"
echo "not atio's" >"$S/tk/atio.0"
ln -s "$WORK/target" "$S/tk/atio.1"
kept=$(sums "$S/tk/atio.0")
run_atio -p 2 -u 32M -s 4K -t 0.2 --take-over --remove -f "$S/tk"
refused "--take-over --remove, a link among the files: exit 2" 2 "^atio: $S/tk/atio.1: is a symbolic link"
same "--take-over --remove refused: the file to take over is still there, unchanged" "$kept" "$S/tk/atio.0"

# A symbolic link where atio keeps its lock file.
ln -s "$WORK/target" "$S/x.lock"
run_atio -t 0.2 -s 64K -u 8M -f "$S/x"
refused "a symbolic link at the lock file's name: exit 2" 2 "^atio: $S/x.lock: is a symbolic link"
same "a symbolic link at the lock file's name: its target is untouched" "$before" "$WORK/target"
check "a symbolic link at the lock file's name: no x.0 made" [ ! -e "$S/x.0" ]

# A UNIX socket where atio keeps its lock file: not atio's lock file
# (which no open() can take), refused with exit 2 and left alone.
if python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$S/u.lock" 2>/dev/null; then
	run_atio -t 0.2 -s 64K -u 8M -f "$S/u"
	refused "a UNIX socket at the lock file's name: exit 2" 2 "^atio: $S/u.lock: not atio's lock file"
	check "a UNIX socket at the lock file's name: still the socket" test -S "$S/u.lock"
	check "a UNIX socket at the lock file's name: no u.0 made" [ ! -e "$S/u.0" ]
else
	skip_check "a UNIX socket at the lock file's name" "python3 cannot make a UNIX socket here"
fi

# A file of zeros of the right size: not reused as test data.
Z=$WORK/zeros
mkdir "$Z"
head -c 4M /dev/zero >"$Z/atio.0"
before=$(sums "$Z/atio.0")
run_atio -t 0.2 -s 64K -u 4M -f "$Z"
refused "a file of zeros at atio.0: exit 2, not reused" 2 "^atio: $Z/atio.0: not a file atio made"
expect_match "the refusal says how to adopt files of an atio that did not mark them" "$ERR" \
	'--take-over adopts them'
same "a file of zeros at atio.0: untouched" "$before" "$Z/atio.0"
# --take-over: rewritten with atio's data, and marked.
run_atio -t 0.2 -s 64K -u 4M -f "$Z" --take-over
expect_code "--take-over: exit 0" 0
expect_match "--take-over: the file is rewritten" "$ERR" '^atio: preparing .*1 taken over; writing 4.00 MiB'
check "--take-over: the file now holds atio's data" incompressible "$Z/atio.0"
if command -v getfattr >/dev/null 2>&1; then
	check "--take-over: the file carries atio's mark, with its dataset's id" \
		grep -Eqx 'atio-file 2 [0-9a-f]{16} atio\.0' <<<"$(mark "$Z/atio.0")"
else
	skip_check "--take-over: the file carries atio's mark" "getfattr is not installed (package attr)"
fi
before=$(stat -c '%s %y %z' "$Z/atio.0")
run_atio -t 0.2 -s 64K -u 4M -f "$Z"
expect_code "the file taken over is atio's now: the next run reuses it, exit 0" 0
check "the file taken over is reused unchanged" [ "$before" = "$(stat -c '%s %y %z' "$Z/atio.0")" ]

# One of atio's files copied, mark and all, to another of its names.
cp --preserve=xattr "$Z/atio.0" "$Z/other.1"
run_atio -t 0.2 -s 64K -p 2 -u 8M -f "$Z/other"
refused "a copy of atio.0 at other.1: exit 2 (its mark names another file)" 2 \
	"^atio: $Z/other.1: not a file atio made: it carries atio's mark for another file name"

# Fallocated space in one of atio's files, with its pages cached (so that
# SEEK_HOLE counts it as data): filled by the next run, not read as data.
U=$WORK/prealloc
mkdir "$U"
run_atio -t 0.1 -s 1M -u 8M -f "$U"
expect_code "dataset for the unwritten-extent check: exit 0" 0
if fallocate -p -o 2M -l 1M "$U/atio.0" 2>/dev/null && fallocate -o 2M -l 1M "$U/atio.0" 2>/dev/null &&
	command -v filefrag >/dev/null 2>&1 && filefrag -v "$U/atio.0" | grep -q unwritten; then
	dd if="$U/atio.0" of=/dev/null bs=1M skip=2 count=1 status=none
	run_atio -t 0.1 -s 1M -u 8M -f "$U"
	expect_code "an unwritten extent in atio.0: exit 0" 0
	expect_match "an unwritten extent in atio.0: the fill resumes there" "$ERR" '^atio: preparing.* 1 to resume'
	check "an unwritten extent in atio.0: none left after the fill" no_unwritten "$U/atio.0"
	check "an unwritten extent in atio.0: it holds atio's data now" incompressible "$U/atio.0"
else
	skip_check "an unwritten extent is filled" "no fallocate or filefrag, or no unwritten extents in $WORK"
fi

# The lock: a write test holds the dataset alone.
K=$WORK/lock
mkdir "$K"
run_atio -t 0.1 -s 1M -p 2 -u 16M -f "$K"
expect_code "dataset for the lock checks: exit 0" 0
start_atio --write --seq -s 1M -p 2 -u 16M -t 30 -S -f "$K"
FIRST=$PID
FIRST_ERR=$ERR
OUT=$WORK/stdout2
ERR=$WORK/stderr2
wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
run_atio --read -t 0.2 -s 1M -p 2 -u 16M -f "$K"
refused "a read test while a write test runs: exit 1, naming the writer" 1 \
	"^atio: $K/atio.lock: another atio is working on this dataset \\(pid $FIRST \\(atio\\) holds its lock file\\)"
run_atio --write -t 0.2 -s 1M -p 2 -u 16M -f "$K"
refused "a second write test: exit 1, naming the first" 1 "pid $FIRST \\(atio\\)"
PID=$FIRST
kill -TERM "$PID" 2>/dev/null || true
wait_exit 10
expect_code "the first write test, stopped by SIGTERM: exit 130" 130
OUT=$WORK/stdout
ERR=$FIRST_ERR
check "after the lock checks: no lock file left behind" [ ! -e "$K/atio.lock" ]

# Two write tests started 30 ms apart on a new directory: one fills and
# runs, the other is refused at once naming it; the files end complete.
T=$WORK/two
mkdir "$T"
"$ATIO" --write -s 1M -p 2 -u 64M -t 1 -f "$T" >"$WORK/a.out" 2>"$WORK/a.err" &
A_PID=$!
BG_PIDS+=("$A_PID")
sleep 0.03
"$ATIO" --write -s 1M -p 2 -u 64M -t 1 -f "$T" >"$WORK/b.out" 2>"$WORK/b.err" &
B_PID=$!
BG_PIDS+=("$B_PID")
if wait "$A_PID"; then A_RC=0; else A_RC=$?; fi
if wait "$B_PID"; then B_RC=0; else B_RC=$?; fi
why=()
case $A_RC.$B_RC in
0.1)
	grep -q "^atio: $T/atio.lock: another atio is working on this dataset (pid $A_PID (atio)" "$WORK/b.err" ||
		why+=("the second does not name the first (pid $A_PID): $(head -c 300 "$WORK/b.err")")
	;;
1.0)
	grep -q "^atio: $T/atio.lock: another atio is working on this dataset (pid $B_PID (atio)" "$WORK/a.err" ||
		why+=("the first does not name the second (pid $B_PID): $(head -c 300 "$WORK/a.err")")
	;;
*) why+=("exits $A_RC and $B_RC, expected one 0 and one 1") ;;
esac
for f in "$T"/atio.0 "$T"/atio.1; do
	[ "$(file_size "$f")" -eq 33554432 ] && not_sparse "$f" ||
		why+=("$f: $(file_size "$f") bytes, $(alloc_size "$f") allocated, expected 33554432 of each")
done
verdict "two write tests 30 ms apart: one runs, the other is refused naming it, files complete" \
	"$WORK/a.err" "$WORK/b.err"

# Readers share the lock; a writer waits for none of them.
start_atio --read --seq -s 1M -p 2 -u 16M -t 30 -f "$K"
FIRST=$PID
OUT=$WORK/stdout2
ERR=$WORK/stderr2
wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
run_atio --read -t 0.2 -s 1M -p 2 -u 16M -f "$K"
expect_code "two read tests on one dataset at once: exit 0" 0
run_atio --write -t 0.2 -s 1M -p 2 -u 16M -f "$K"
refused "a write test while a read test runs: exit 1, naming the reader" 1 "pid $FIRST \\(atio\\)"
# --remove by one reader while another reads: the files stay for the other.
kept=$(sums "$K/atio.0" "$K/atio.1")
run_atio --read -t 0.2 -s 1M -p 2 -u 16M --remove -f "$K"
expect_code "--remove while another read test runs: exit 0" 0
expect_match "--remove while another read test runs: says the files are kept" "$ERR" \
	"^atio: warning: --remove: another atio is using the files of -f $K: they are kept$"
same "--remove while another read test runs: the files are untouched" "$kept" "$K/atio.0" "$K/atio.1"
PID=$FIRST
kill -TERM "$PID" 2>/dev/null || true
wait_exit 10
OUT=$WORK/stdout
ERR=$WORK/stderr

# A file that changes under a run: the run fails, without a result.
start_atio --read --rand -s 4K -p 1 -u 16M -n 2 -t 3 -f "$K"
wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
truncate -s 9M "$K/atio.1"
wait_exit 20
expect_code "a file grown under a read test: exit 1" 1
expect_match "a file grown under a read test: named, with its size" "$ERR" \
	"^atio: $K/atio.1: its size changed during the run \\(9437184 bytes, planned 8388608\\)"
expect_count "a file grown under a read test: no result line" "$OUT" rate 0

# A file replaced under a run (renamed over): named, with the size of the
# file now at its name, not of the one the run had open.
start_atio --read --rand -s 4K -p 1 -u 16M -n 2 -t 3 -f "$K"
wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
head -c 5M /dev/zero >"$K/replacement"
mv "$K/replacement" "$K/atio.1"
wait_exit 20
expect_code "a file replaced under a read test: exit 1" 1
expect_match "a file replaced under a read test: named, with the replacement's size" "$ERR" \
	"^atio: $K/atio.1: it was replaced during the run \\(by a file of 5242880 bytes, planned 8388608\\)"
expect_count "a file replaced under a read test: no result line" "$OUT" rate 0
# The zeros are no file of atio's: gone, and made again.
rm -f "$K/atio.1"
run_atio --write -t 0.2 -s 1M -p 1 -u 16M -n 2 -f "$K"
expect_code "setup: the replaced file is made again" 0

# A file cut and grown again to its size under a run: the size alone
# misses it, the hole it leaves is named (reads of it would be zeros from
# no device). The run is paced so that its own writes cannot fill the hole.
if fallocate --punch-hole -o 0 -l 4096 "$K/atio.0" 2>/dev/null; then
	run_atio --write -t 0.2 -s 1M -p 1 -u 16M -n 2 -f "$K"
	expect_code "setup: the hole punched to see whether this filesystem can is filled" 0
	start_atio --read --rand -s 4K -p 1 -u 16M -n 2 -t 3 -f "$K"
	wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
	fallocate --punch-hole -o 1M -l 1M "$K/atio.1"
	wait_exit 20
	expect_code "a hole punched under a read test: exit 1" 1
	expect_match "a hole punched under a read test: named, with where" "$ERR" \
		"^atio: $K/atio.1: a hole appeared in it during the run \\(at byte 1048576 of 8388608\\)"
	expect_count "a hole punched under a read test: no result line" "$OUT" rate 0
	run_atio --write -t 0.2 -s 1M -p 1 -u 16M -n 2 -f "$K"
	expect_code "setup: the hole punched under the read test is filled" 0
	start_atio --write --rand -s 4K -p 1 -u 16M -n 2 -t 3 --rate 100 -f "$K"
	wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
	truncate -s 0 "$K/atio.1"
	dd if=/dev/zero of="$K/atio.1" bs=4096 seek=2047 count=1 conv=notrunc status=none
	wait_exit 20
	expect_code "a file truncated and grown again by a write under a write test: exit 1" 1
	expect_match "a file truncated and grown again by a write under a write test: named" "$ERR" \
		"^atio: $K/atio.1: a hole appeared in it during the run \\(at byte [0-9]+ of 8388608\\)"
	expect_count "a file truncated and grown again under a write test: no result line" "$OUT" rate 0
else
	skip_check "a hole made in a file under a run" "fallocate --punch-hole does not work on $K"
fi

# Memory filesystems: refused unless asked for, and named in the header.
run_atio -t 0.2 -s 64K -u 8M -f /dev/shm/atio-test-safety-$$
refused "-f on /dev/shm (tmpfs): exit 2" 2 \
	"^atio: -f /dev/shm/atio-test-safety-$$: on tmpfs, a filesystem in memory: .*--allow-memory-fs"
# shellcheck disable=SC2016 # the $1 in single quotes is the inner shell's
check "-f on /dev/shm: no file made there" sh -c '! ls /dev/shm/atio-test-safety-"$1".* 2>/dev/null' sh "$$"
run_atio -t 0.2 -s 64K -u 8M -f /dev/atio-test-safety-$$
refused "-f /dev/NAME where no such device is: exit 2, said so" 2 \
	"^atio: -f /dev/atio-test-safety-$$: no such device: nothing has that name in [a-z]+, where the kernel's devices are"
run_atio --check -f /dev/atio-test-safety-$$
refused "--check -f /dev/NAME where no such device is: exit 2, said so" 2 "^atio: -f /dev/atio-test-safety-$$: no such device"
check "-f in /dev: no file made there" [ ! -e /dev/atio-test-safety-$$.0 ]
run_atio -v -t 0.2 -s 64K -u 8M --remove --allow-memory-fs -f /dev/shm/atio-test-safety-$$
expect_code "--allow-memory-fs on tmpfs: exit 0" 0
expect_match "-v on tmpfs: the header names the filesystem" "$OUT" '^Filesystem: tmpfs$'
# shellcheck disable=SC2016 # the $1 in single quotes is the inner shell's
check "--allow-memory-fs --remove: nothing left in /dev/shm" \
	sh -c '! ls /dev/shm/atio-test-safety-"$1".* 2>/dev/null' sh "$$"
run_atio -a --json -f "$K"
if command -v findmnt >/dev/null 2>&1; then
	expect_match "-a --json: the settings name the filesystem, as findmnt does" "$OUT" \
		"\"filesystem\": *\"$(findmnt -n -o FSTYPE -T "$K")\""
else
	expect_match "-a --json: the settings name the filesystem" "$OUT" '"filesystem": *"[a-z0-9]+"'
fi
run_atio -a -f "$K"
expect_match "-a: the header names the filesystem" "$OUT" '^Filesystem: [a-z0-9]+$'

# A filesystem without user extended attributes (ramfs): atio uses the files
# it creates, and says it cannot mark them; the next run does not trust them.
RAM=$WORK/ramfs
mkdir "$RAM"
# shellcheck disable=SC2016 # the $1 in single quotes is the inner shell's
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c 'mount -t ramfs atio-test "$1"' sh "$RAM" 2>/dev/null; then
	RAMWRAP=$WORK/ramfs-atio
	cat >"$RAMWRAP" <<'EOF'
#!/bin/sh
# ramfs-atio ATIO DIR ARG...: ATIO twice (the ARGs) with a ramfs on DIR;
# the output of the second run goes to DIR.second.*, its status is returned.
atio=$1 dir=$2
shift 2
exec unshare -m sh -c 'dir=$1 atio=$2; shift 2
	mount -t ramfs atio-test "$dir" || exit 99
	"$atio" "$@" || exit 98
	"$atio" "$@" >"$dir.second.out" 2>"$dir.second.err"' sh "$dir" "$atio" "$@"
EOF
	chmod +x "$RAMWRAP"
	REAL=$ATIO
	ATIO=$RAMWRAP
	run_atio "$REAL" "$RAM" -t 0.1 -s 64K -u 4M --allow-memory-fs -f "$RAM"
	ATIO=$REAL
	expect_match "ramfs: the first run warns that it cannot mark its files" "$ERR" \
		"^atio: warning: the filesystem of -f $RAM keeps no user extended attributes: atio could not mark the 1 file\\(s\\) it created"
	expect_code "ramfs: the second run refuses the unmarked file, exit 2" 2
	expect_match "ramfs: the second run says why" "$RAM.second.err" \
		"^atio: $RAM/atio.0: not a file atio made: the filesystem keeps no user extended attributes"
else
	skip_check "a filesystem without user extended attributes" "cannot mount a ramfs in a private mount namespace here"
fi

# Kernel filesystems: not storage, exit 2 (not "not enough free space").
run_atio -t 0.2 -s 64K -u 8M -f /proc
refused "-f /proc: exit 2, cannot create files there" 2 \
	"^atio: -f /proc: proc is a filesystem of the kernel's, not storage: atio cannot create its files there$"
run_atio -t 0.2 -s 64K -u 8M -f /sys/kernel
refused "-f /sys/kernel: exit 2, cannot create files there" 2 \
	"^atio: -f /sys/kernel: sysfs is a filesystem of the kernel's, not storage"

# The open-file limit is judged before any file is made; a soft limit
# below the hard one is raised when that is enough.
ULIM=$WORK/ulimit-atio
cat >"$ULIM" <<'EOF'
#!/bin/bash
# ulimit-atio SOFT HARD ATIO ARG...: ATIO with RLIMIT_NOFILE SOFT/HARD.
soft=$1 hard=$2
shift 2
ulimit -Sn "$soft" && ulimit -Hn "$hard" && exec "$@"
EOF
chmod +x "$ULIM"
N=$WORK/nofile
mkdir "$N"
REAL=$ATIO
ATIO=$ULIM
run_atio 64 64 "$REAL" -s 512 -n 100 -p 2 -u 800K -t 0.2 -f "$N"
refused "-n 100 with an open-file limit of 64: exit 2 before any file is made" 2 \
	"^atio: -n 100: the run holds 100 files open at once and needs about [0-9]+ descriptors, but the open-file limit is 64 \\(hard limit 64\\)"
check "-n 100 with a limit of 64: no file made" [ -z "$(listing "$N")" ]
run_atio 64 1024 "$REAL" -s 512 -n 100 -p 2 -u 800K -t 0.2 -f "$N"
expect_code "-n 100 with a soft limit of 64 and a hard one of 1024: raised, exit 0" 0
check "-n 100: all 100 files made" [ "$(find "$N" -name 'atio.*' | wc -l)" -eq 100 ]
ATIO=$REAL

# A read test on a read-only mount, with complete files: it runs.
RO=$WORK/ro
mkdir "$RO"
run_atio -t 0.1 -s 1M -u 8M -f "$RO"
expect_code "dataset for the read-only check: exit 0" 0
# shellcheck disable=SC2016 # the $1 in single quotes is the inner shell's
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" &&
		! touch "$1/probe" 2>/dev/null' sh "$RO" 2>/dev/null; then
	ROWRAP=$WORK/ro-atio
	cat >"$ROWRAP" <<'EOF'
#!/bin/sh
# ro-atio ATIO DIR ARG...: ATIO with DIR bind-mounted read-only, privately.
atio=$1 dir=$2
shift 2
exec unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" &&
	shift && exec "$@"' sh "$dir" "$atio" "$@"
EOF
	chmod +x "$ROWRAP"
	before=$(sums "$RO/atio.0")
	ATIO=$ROWRAP
	run_atio "$REAL" "$RO" --read -t 0.2 -s 1M -u 8M -f "$RO"
	expect_code "a read test on a read-only mount: exit 0" 0
	check_result "a read test on a read-only mount: one result line" MB/s
	expect_match "a read test on a read-only mount: says it locks the directory" "$ERR" \
		"^atio: $RO/atio.lock: cannot create the lock file: Read-only file system; reading with a shared lock on its directory instead"
	run_atio "$REAL" "$RO" --read --uncached -t 0.2 -s 1M -u 8M -f "$RO"
	if direct_io_works "$RO"; then
		expect_code "an --uncached read test on a read-only mount: exit 0" 0
	fi
	ATIO=$REAL
	same "the read-only files are unchanged" "$before" "$RO/atio.0"
else
	skip_check "a read test on a read-only mount" "no read-only bind mount possible here (needs root and unshare -m)"
fi

# --- Reading needs no lock file that can be written. A full filesystem:
# a tmpfs whose blocks are used up (the lock file is made, its line cannot
# be written: an empty lock file is one), an ext4 whose inodes are (none
# can be made: the directory is locked instead, and said so).
if [ "$(id -u)" -eq 0 ] && mkdir "$WORK/full" && mount -t tmpfs -o size=48M tmpfs "$WORK/full" 2>/dev/null; then
	TEST_MOUNTS+=("$WORK/full")
	run_atio --prepare -p 2 -s 1M -u 8M --allow-memory-fs -f "$WORK/full"
	expect_code "setup: a dataset on a 48 MiB tmpfs" 0
	dd if=/dev/zero of="$WORK/full/filler" bs=4k status=none 2>/dev/null || true
	run_atio --check -p 2 -u 8M --allow-memory-fs -f "$WORK/full"
	expect_code "a full tmpfs: --check exits 0" 0
	expect_match "a full tmpfs: --check finds every sector good" "$OUT" '; 0 bad sector\(s\); ok$'
	run_atio --read -s 1M -p 2 -u 8M -t 0.2 --allow-memory-fs -f "$WORK/full"
	expect_code "a full tmpfs: a read test exits 0" 0
	check "a full tmpfs: no lock file left" [ ! -e "$WORK/full/atio.lock" ]
	umount "$WORK/full"
else
	skip_check "reading on a full tmpfs" "not root, or no tmpfs can be mounted"
fi
# noinodes_ext4 MNT: a 64 MiB ext4 of 32 inodes on a loop device, mounted
# at MNT; 1 with the reason in $WHY where that cannot be made here.
noinodes_ext4() {
	local loop

	WHY="needs root, losetup and mkfs.ext4"
	[ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
		command -v mkfs.ext4 >/dev/null 2>&1 || return 1
	WHY="no loop device with ext4 here"
	truncate -s 64M "$WORK/noinodes.img"
	loop=$(losetup --find --show "$WORK/noinodes.img" 2>/dev/null) || return 1
	TEST_LOOPS+=("$loop")
	mkdir -p "$1"
	mkfs.ext4 -q -F -N 32 "$loop" >/dev/null 2>&1 && mount "$loop" "$1" || return 1
	TEST_MOUNTS+=("$1")
}
if noinodes_ext4 "$WORK/noinodes"; then
	run_atio --prepare -p 2 -s 1M -u 8M -f "$WORK/noinodes"
	expect_code "setup: a dataset on a 64 MiB ext4 of 32 inodes" 0
	i=0
	while : 2>/dev/null >"$WORK/noinodes/i$i"; do
		i=$((i + 1))
	done
	run_atio --check -p 2 -u 8M -f "$WORK/noinodes"
	expect_code "an ext4 with no inode left: --check exits 0" 0
	expect_match "an ext4 with no inode left: --check says it locks the directory" "$ERR" \
		"^atio: $WORK/noinodes/atio.lock: cannot create the lock file: No space left on device; reading with a shared lock on its directory instead"
	run_atio --read -s 1M -p 2 -u 8M -t 0.2 -f "$WORK/noinodes"
	expect_code "an ext4 with no inode left: a read test exits 0" 0
	run_atio --write -s 1M -p 2 -u 8M -t 0.2 -f "$WORK/noinodes"
	refused "an ext4 with no inode left: a write test still needs the lock file, exit 1" 1 \
		"^atio: $WORK/noinodes/atio.lock: cannot create the lock file: No space left on device"
else
	skip_check "reading on an ext4 with no inode left" "$WHY"
fi

# --- A user who may only read: the dataset is root's, the directory not
# writable by that user. Reads and --check lock the directory; a write test
# by root is refused while such a reader runs, naming it.
RUNAS=()
if [ "$(id -u)" -ne 0 ]; then
	WHYNOT="not root: no other user to run as"
elif ! id nobody >/dev/null 2>&1; then
	WHYNOT="no user nobody"
elif command -v setpriv >/dev/null 2>&1; then
	RUNAS=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)
elif command -v runuser >/dev/null 2>&1; then
	RUNAS=(runuser -u nobody --)
else
	WHYNOT="neither setpriv nor runuser"
fi
if [ ${#RUNAS[@]} -gt 0 ]; then
	U=$WORK/user
	mkdir "$U"
	chmod 755 "$WORK" "$U"
	run_atio --prepare -p 2 -s 1M -u 8M -f "$U"
	expect_code "setup: root's dataset, readable by all" 0
	before=$(sums "$U/atio.0" "$U/atio.1")
	REAL=$ATIO
	ATIO=$WORK/as-user
	printf '#!/bin/sh\nexec %s "$@"\n' "$(printf '%q ' "${RUNAS[@]}" "$REAL")" >"$ATIO"
	chmod 755 "$ATIO"
	run_atio --check -p 2 -u 8M -f "$U"
	expect_code "a user who may only read: --check exits 0" 0
	expect_match "a user who may only read: --check finds every sector good" "$OUT" '; 0 bad sector\(s\); ok$'
	expect_match "a user who may only read: says it locks the directory" "$ERR" \
		"^atio: $U/atio.lock: cannot create the lock file: Permission denied; reading with a shared lock on its directory instead"
	run_atio --read -s 1M -p 2 -u 8M -t 0.2 -f "$U"
	expect_code "a user who may only read: a read test exits 0" 0
	check_result "a user who may only read: one result line" MB/s
	run_atio --write -s 1M -p 2 -u 8M -t 0.2 -f "$U"
	refused "a user who may only read: a write test is refused, exit 2" 2 \
		"^atio: $U/atio.lock: cannot create the lock file: Permission denied"
	check "a user who may only read: nothing made in the directory" \
		[ "$(listing "$U" | tr '\n' ' ')" = "./atio.0 ./atio.1 " ]
	start_atio --read -s 1M -p 2 -u 8M -t 30 -f "$U"
	READER=$PID
	wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
	ATIO=$REAL
	run_atio --write -s 1M -p 2 -u 8M -t 0.2 -f "$U"
	refused "root's write test while the user reads: exit 1, naming the reader" 1 \
		"^atio: $U/atio.lock: another atio is reading the files in its directory without a lock file \(pid $READER \(atio\) holds a lock on the directory\)"
	check "root's refused write test: no lock file left" [ ! -e "$U/atio.lock" ]
	same "root's refused write test: the files are unchanged" "$before" "$U/atio.0" "$U/atio.1"
	PID=$READER
	kill -TERM "$PID" 2>/dev/null || true
	wait_exit 10
	run_atio --write -s 1M -p 2 -u 8M -t 0.2 -f "$U"
	expect_code "root's write test once the reader ended: exit 0" 0
else
	skip_check "a user who may only read" "$WHYNOT"
fi

finish
