# shellcheck shell=bash disable=SC2034
# Helpers for atio's command-line tests. Each tests/cli/test-NAME.sh sources
# this file, runs the atio named by $ATIO, prints one line per check
# ("ok - WHAT" or "not ok - WHAT", with indented "#" details below a failure)
# and ends with finish, which exits 1 when any check failed. A test that
# cannot run here calls skip, which exits 77 (meson's "skipped") and says why;
# a check that cannot run here calls skip_check, which says why and goes on.
#
# What the helpers set, for the tests to read:
#   WORK      a private temporary directory, removed at exit
#   OUT ERR   stdout and stderr of the last run_atio
#   RC        its exit status
#   WALL_MS   its wall-clock time in milliseconds
#   R_TIME R_VALUE R_UNIT              after parse_result
#   IO_OPS IO_KIND IO_BYTES IO_SYNCS   after parse_io

set -eu

NAME=$(basename "$0" .sh)
PASSED=0
FAILED=0
BG_PIDS=()
TEST_MOUNTS=()
TEST_LOOPS=()

# The result line as at_io_iops printed it; scripts parse it with
# grep rate | awk '{print $6}'.
RESULT_RE='^time: [0-9]+\.[0-9]{6} sec; rate: \{ [0-9]+\.[0-9]{5} \} (MB/s|IOPS|sync/s);$'

# Stop the whole test: something that is not atio's fault went wrong.
die() {
	printf '%s: error: %s\n' "$NAME" "$*" >&2
	exit 1
}

# Skip the whole test (exit 77), saying why.
skip() {
	printf '%s: skipped: %s\n' "$NAME" "$*"
	exit 77
}

ok() {
	PASSED=$((PASSED + 1))
	printf 'ok - %s\n' "$1"
}

# not_ok WHAT [DETAIL...]: a failed check, with details on "#" lines.
not_ok() {
	local line

	FAILED=$((FAILED + 1))
	printf 'not ok - %s\n' "$1"
	shift
	for line in "$@"; do
		printf '%s\n' "$line" | sed 's/^/#   /'
	done
}

# skip_check WHAT WHY: a check that cannot run here; said, not counted.
skip_check() {
	printf 'ok - %s # SKIP %s\n' "$1" "$2"
}

# check WHAT COMMAND...: ok when COMMAND succeeds.
check() {
	local what=$1

	shift
	if "$@"; then
		ok "$what"
	else
		not_ok "$what" "failed: $*"
	fi
}

# Print the end of a file on "#" lines, for the details of a failure.
show() {
	local label=$1 file=$2

	if [ ! -s "$file" ]; then
		printf '#   (%s is empty)\n' "$label"
		return 0
	fi
	printf '#   --- %s (last lines) ---\n' "$label"
	tail -n 8 "$file" | cut -c 1-200 | sed 's/^/#   | /'
}

finish() {
	if [ "$FAILED" -ne 0 ]; then
		printf '%s: %d of %d checks failed\n' "$NAME" "$FAILED" "$((PASSED + FAILED))"
		exit 1
	fi
	printf '%s: all %d checks passed\n' "$NAME" "$PASSED"
	exit 0
}

cleanup() {
	local pid

	for pid in "${BG_PIDS[@]}"; do
		kill -KILL "$pid" 2>/dev/null || true
	done
	for pid in ${TEST_MOUNTS[@]+"${TEST_MOUNTS[@]}"}; do
		! mountpoint -q "$pid" 2>/dev/null || umount "$pid" || true
	done
	for pid in ${TEST_LOOPS[@]+"${TEST_LOOPS[@]}"}; do
		losetup -d "$pid" 2>/dev/null || true
	done
	if [ -n "${WORK:-}" ] && [ -d "$WORK" ]; then
		chmod -R u+rwx "$WORK" 2>/dev/null || true
		rm -rf "$WORK"
	fi
}

[ -n "${ATIO:-}" ] || die "set ATIO to the atio binary to test, e.g. ATIO=build/atio $0"
[ -x "$ATIO" ] || die "ATIO=$ATIO is not an executable file"
case $ATIO in
/*) ;;
*) ATIO=$(cd "$(dirname "$ATIO")" && pwd)/$(basename "$ATIO") ;;
esac

# Under /var/tmp, which is on disk on every distribution: /tmp is a tmpfs on
# some (Fedora, Debian 13), and atio refuses memory filesystems.
WORK=$(mktemp -d "${TMPDIR:-/var/tmp}/atio-$NAME.XXXXXX") || die "mktemp -d failed"
trap cleanup EXIT
trap 'exit 130' INT TERM
OUT=$WORK/stdout
ERR=$WORK/stderr
RC=0
WALL_MS=0

# A run that hangs must not hang the test: limit every foreground run.
if command -v timeout >/dev/null 2>&1; then
	LIMIT=(timeout -k 10 120)
else
	LIMIT=()
fi

now_ms() {
	date +%s%3N
}

# ext4_loop SIZE MNT: an ext4 filesystem of SIZE on a loop device over a
# file in $WORK, mounted at MNT (made here); the device in $LOOP. Both go at
# exit. Returns 1, with the reason in $WHY, where that cannot be done here
# (not root, no losetup or mkfs.ext4, no loop device).
ext4_loop() {
	LOOP='' WHY=''
	if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1 ||
		! command -v mkfs.ext4 >/dev/null 2>&1; then
		WHY="needs root, losetup and mkfs.ext4"
		return 1
	fi
	truncate -s "$1" "$WORK/ext4.$$.img"
	LOOP=$(losetup --find --show "$WORK/ext4.$$.img" 2>/dev/null) || LOOP=''
	[ -z "$LOOP" ] || TEST_LOOPS+=("$LOOP")
	mkdir -p "$2"
	if [ -z "$LOOP" ] || ! mkfs.ext4 -q -F "$LOOP" >/dev/null 2>&1 || ! mount "$LOOP" "$2"; then
		WHY="no loop device with ext4 here"
		return 1
	fi
	TEST_MOUNTS+=("$2")
}

# run_atio ARG...: run atio, stdout to $OUT, stderr to $ERR, status to $RC.
run_atio() {
	local t0

	LAST="atio $*"
	t0=$(now_ms)
	if "${LIMIT[@]}" "$ATIO" "$@" >"$OUT" 2>"$ERR"; then
		RC=0
	else
		RC=$?
	fi
	WALL_MS=$(($(now_ms) - t0))
}

# start_atio ARG...: start atio in the background (stdout $OUT, stderr
# $ERR), its pid in $PID. SIGINT and SIGTERM are set to their defaults when
# env can do it, as in an interactive shell (a shell without job control
# starts background commands with SIGINT ignored).
start_atio() {
	local pre=()

	if env --default-signal=INT true 2>/dev/null; then
		pre=(env --default-signal=INT --default-signal=TERM)
	fi
	LAST="atio $*"
	# Emptied here, not only by the child: a wait on a line must not find the last run's.
	: >"$OUT"
	: >"$ERR"
	"${pre[@]}" "$ATIO" "$@" >"$OUT" 2>"$ERR" &
	PID=$!
	BG_PIDS+=("$PID")
}

# start_atio_ready FIFO ARG...: start atio in the background, ARG with
# --start-at - among them, its stdin from FIFO (which the caller holds
# open for writing: start_atio would give it /dev/null, as a background
# command without job control reads from /dev/null unless redirected
# itself); stdout $OUT, stderr $ERR, pid $PID. Then wait, 60 s at most and
# while it runs, for its "atio: ready:" line on stderr.
start_atio_ready() {
	local fifo=$1 t0

	shift
	LAST="atio $* <FIFO"
	: >"$OUT"
	: >"$ERR"
	"$ATIO" "$@" <"$fifo" >"$OUT" 2>"$ERR" &
	PID=$!
	BG_PIDS+=("$PID")
	t0=$(now_ms)
	while ! grep -q '^atio: ready: ' "$ERR" && kill -0 "$PID" 2>/dev/null &&
		[ $(($(now_ms) - t0)) -lt 60000 ]; do
		sleep 0.05
	done
}

# wait_exit SECONDS: wait for $PID to end, at most SECONDS (then kill it);
# sets RC (or 999 when it had to be killed) and WAITED_MS.
wait_exit() {
	local limit=$(($1 * 1000)) t0

	t0=$(now_ms)
	while kill -0 "$PID" 2>/dev/null && [ $(($(now_ms) - t0)) -lt "$limit" ]; do
		sleep 0.05
	done
	WAITED_MS=$(($(now_ms) - t0))
	if kill -0 "$PID" 2>/dev/null; then
		kill -KILL "$PID" 2>/dev/null || true
		wait "$PID" 2>/dev/null || true
		RC=999
		return 0
	fi
	if wait "$PID"; then RC=0; else RC=$?; fi
}

# expect_code WHAT CODE: the last run exited with CODE.
expect_code() {
	if [ "$RC" = "$2" ]; then
		ok "$1"
	else
		not_ok "$1" "expected exit $2, got $RC from: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
}

# expect_match WHAT FILE ERE: some line of FILE matches ERE.
expect_match() {
	if grep -aEq -- "$3" "$2"; then
		ok "$1"
	else
		not_ok "$1" "no line of $(basename "$2") matches: $3" "command: $LAST"
		show "$(basename "$2")" "$2"
	fi
}

# expect_no_match WHAT FILE ERE: no line of FILE matches ERE.
expect_no_match() {
	if grep -aEq -- "$3" "$2"; then
		not_ok "$1" "unexpected line in $(basename "$2") matching: $3" \
			"$(grep -aEm 3 -- "$3" "$2" | cut -c 1-200)" "command: $LAST"
	else
		ok "$1"
	fi
}

# count_lines FILE ERE: how many lines of FILE match ERE.
count_lines() {
	grep -aEc -- "$2" "$1" || true
}

# expect_count WHAT FILE ERE N: exactly N lines of FILE match ERE.
expect_count() {
	local n

	n=$(count_lines "$2" "$3")
	if [ "$n" -eq "$4" ]; then
		ok "$1"
	else
		not_ok "$1" "$n lines of $(basename "$2") match $3, expected $4" "command: $LAST"
		show "$(basename "$2")" "$2"
	fi
}

# expect_empty WHAT FILE
expect_empty() {
	if [ -s "$2" ]; then
		not_ok "$1" "$(basename "$2") is not empty" "command: $LAST"
		show "$(basename "$2")" "$2"
	else
		ok "$1"
	fi
}

# fcmp A OP B: compare decimal numbers (OP one of < <= > >= ==).
fcmp() {
	awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
		a += 0; b += 0
		if (op == "<") r = a < b
		else if (op == "<=") r = a <= b
		else if (op == ">") r = a > b
		else if (op == ">=") r = a >= b
		else r = a == b
		exit !r
	}'
}

# near A B REL: |A - B| <= REL * max(|A|, |B|) + 1e-5.
near() {
	awk -v a="$1" -v b="$2" -v rel="$3" 'BEGIN {
		a += 0; b += 0; d = a - b; if (d < 0) d = -d
		m = a < 0 ? -a : a; n = b < 0 ? -b : b; if (n > m) m = n
		exit !(d <= rel * m + 1e-5)
	}'
}

# check_result WHAT [UNIT]: stdout holds exactly one line with "rate", in
# at_io_iops' exact form (and with UNIT when given), and grep rate | awk
# '{print $6}' yields exactly one number. Sets R_TIME, R_VALUE, R_UNIT.
check_result() {
	local what=$1 unit=${2:-} why=() six

	R_TIME='' R_VALUE='' R_UNIT=''
	[ "$(count_lines "$OUT" rate)" -eq 1 ] ||
		why+=("$(count_lines "$OUT" rate) stdout lines contain \"rate\", expected 1")
	[ "$(count_lines "$OUT" "$RESULT_RE")" -eq 1 ] ||
		why+=("no stdout line matches $RESULT_RE")
	six=$(grep rate "$OUT" | awk '{print $6}' || true)
	if ! printf '%s\n' "$six" | grep -Eqx '[0-9]+\.[0-9]{5}' ||
		[ "$(printf '%s\n' "$six" | wc -l)" -ne 1 ]; then
		why+=("grep rate | awk '{print \$6}' gives: $(printf '%s' "$six" | tr '\n' ' ')")
	fi
	if parse_result && [ -n "$unit" ] && [ "$R_UNIT" != "$unit" ]; then
		why+=("unit is $R_UNIT, expected $unit")
	fi
	verdict "$what" "$OUT"
}

# io_problems MODE BS Q THREADS: append to the caller's why array what is
# wrong with the io line (after parse_io): the kind of operation counted,
# bytes = ops x BS, and the syncs: none in read and write tests, otherwise
# one per Q writes of each thread, so at most THREADS x (Q - 1) writes of
# unfinished groups are left without one.
io_problems() {
	local mode=$1 bs=$2 q=$3 p=$4 want=writes

	[ "$mode" = read ] && want=reads
	[ "$IO_KIND" = "$want" ] || why+=("io line counts $IO_KIND, expected $want")
	[ "$IO_OPS" -gt 0 ] || why+=("no operation was done")
	[ "$IO_BYTES" -eq $((IO_OPS * bs)) ] ||
		why+=("bytes $IO_BYTES != ops $IO_OPS x block size $bs")
	case $mode in
	read | write)
		[ "$IO_SYNCS" -eq 0 ] || why+=("$IO_SYNCS syncs in a $mode test")
		;;
	*)
		[ "$IO_SYNCS" -gt 0 ] || why+=("no sync in a $mode test")
		[ $((IO_SYNCS * q)) -le "$IO_OPS" ] ||
			why+=("$IO_SYNCS syncs for $IO_OPS writes with -q $q: more than one per $q writes")
		[ $((IO_OPS - IO_SYNCS * q)) -le $((p * (q - 1))) ] ||
			why+=("$IO_SYNCS syncs for $IO_OPS writes with -q $q and $p threads: too few")
		;;
	esac
}

# value_problems: append to the caller's why array when the value on the
# result line (parse_result) is not what the io line's counts (parse_io)
# and the reported time give in its unit, to 0.2%.
value_problems() {
	local expect

	case $R_UNIT in
	MB/s) expect=$(awk -v b="$IO_BYTES" -v t="$R_TIME" 'BEGIN {printf "%.6f", b / 1048576 / t}') ;;
	IOPS) expect=$(awk -v n="$IO_OPS" -v t="$R_TIME" 'BEGIN {printf "%.6f", n / t}') ;;
	*) expect=$(awk -v n="$IO_SYNCS" -v t="$R_TIME" 'BEGIN {printf "%.6f", n / t}') ;;
	esac
	near "$R_VALUE" "$expect" 0.002 ||
		why+=("rate $R_VALUE $R_UNIT, but the io line and the time give $expect")
}

# verdict WHAT [FILE...]: ok when the caller's why array is empty, else
# not_ok with its reasons and the last command, showing each FILE ($OUT,
# $ERR) below.
verdict() {
	local what=$1 f

	shift
	if [ ${#why[@]} -eq 0 ]; then
		ok "$what"
		return 0
	fi
	not_ok "$what" "${why[@]}" "command: $LAST"
	for f in "$@"; do
		case $f in
		"$OUT") show stdout "$f" ;;
		"$ERR") show stderr "$f" ;;
		*) show "$(basename "$f")" "$f" ;;
		esac
	done
}

# parse_result: R_TIME, R_VALUE, R_UNIT from the result line of $OUT.
parse_result() {
	local line

	line=$(grep -aE "$RESULT_RE" "$OUT" | head -n 1 || true)
	[ -n "$line" ] || return 1
	R_TIME=$(printf '%s\n' "$line" | awk '{print $2}')
	R_VALUE=$(printf '%s\n' "$line" | awk '{print $6}')
	R_UNIT=$(printf '%s\n' "$line" | awk '{u = $8; sub(/;$/, "", u); print u}')
}

# parse_io: IO_OPS, IO_KIND (reads or writes), IO_BYTES, IO_SYNCS from the
# "io:" line of $OUT; fails when there is none.
parse_io() {
	local f

	f=$(sed -nE 's/^io: ([0-9]+) (reads|writes), ([0-9]+) bytes \([0-9.]+ [A-Za-z]+(, [0-9.]+ MB)?\), ([0-9]+) syncs$/\1 \2 \3 \5/p' "$OUT" | head -n 1)
	[ -n "$f" ] || return 1
	read -r IO_OPS IO_KIND IO_BYTES IO_SYNCS <<<"$f"
}

file_size() {
	stat -c %s "$1"
}

# Bytes the filesystem allocated to a file.
alloc_size() {
	local b

	read -r b <<<"$(stat -c '%b %B' "$1" | awk '{printf "%.0f", $1 * $2}')"
	printf '%s\n' "$b"
}

# not_sparse FILE: every byte of FILE has blocks behind it.
not_sparse() {
	[ "$(alloc_size "$1")" -ge "$(file_size "$1")" ]
}

# incompressible FILE: gzip leaves at least 99% of it.
incompressible() {
	local size gz

	size=$(file_size "$1")
	gz=$(gzip -c "$1" | wc -c)
	[ "$size" -gt 0 ] && [ $((gz * 100)) -ge $((size * 99)) ]
}

# unique_blocks FILE...: no two 4 KiB blocks of the files are equal (and the
# files are whole blocks).
unique_blocks() {
	local d=$WORK/blocks f i=0 dups

	rm -rf "$d"
	mkdir "$d"
	for f in "$@"; do
		[ $(($(file_size "$f") % 4096)) -eq 0 ] || return 1
		split -a 6 -b 4096 "$f" "$d/$i."
		i=$((i + 1))
	done
	dups=$(find "$d" -type f -exec md5sum {} + | awk '{print $1}' | sort | uniq -d | wc -l)
	rm -rf "$d"
	[ "$dups" -eq 0 ]
}

# listing DIR: the names in DIR, one a line, sorted, hidden ones included.
listing() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort)
}

# direct_io_works DIR: O_DIRECT writes are accepted in DIR.
direct_io_works() {
	local f=$1/.odirect-probe r=0

	dd if=/dev/zero of="$f" bs=4096 count=1 oflag=direct 2>/dev/null || r=1
	rm -f "$f"
	return "$r"
}

# free_bytes DIR: space available to us in DIR's filesystem.
free_bytes() {
	df -P -B 1 "$1" | awk 'NR == 2 {print $4}'
}

# no_unwritten FILE: filefrag shows no unwritten (fallocated, never
# written) extent inside FILE's size; XFS may keep one past the end, as
# speculative preallocation, which no read reaches.
no_unwritten() {
	filefrag -v "$1" | awk '
		/^File size of / { n = $0; sub(/.*\(/, "", n); n += 0 }
		$1 ~ /^[0-9]+:$/ && $2 + 0 < n && /unwritten/ { bad = 1 }
		END { exit bad || n == 0 }'
}

# wait_flock PID: wait, at most 20 s, until process PID holds a flock()
# (atio's lock on its data set), as /proc/locks shows it.
wait_flock() {
	local i

	for ((i = 0; i < 400; i++)); do
		if awk -v p="$1" '$2 == "FLOCK" && $5 == p { f = 1 } END { exit !f }' /proc/locks; then
			return 0
		fi
		sleep 0.05
	done
	return 1
}

# json EXPR: evaluate the Python expression EXPR on the JSON document in
# $OUT (bound to d, and its "check" object to c) and print the result.
json() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); c = d.get("check"); print(eval(sys.argv[2]))' \
		"$OUT" "$1"
}

# expect_json WHAT EXPR WANT: json EXPR prints WANT.
expect_json() {
	local got

	got=$(json "$2" 2>&1) || got="(error: $got)"
	if [ "$got" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "$2 is '$got', expected '$3'" "command: $LAST"
	fi
}

# expect_out WHAT EXPECTED COMMAND...: COMMAND prints EXPECTED (stdout and
# stderr together).
expect_out() {
	local what=$1 want=$2 got

	shift 2
	got=$("$@" 2>&1) || true
	if [ "$got" = "$want" ]; then
		ok "$what"
	else
		not_ok "$what" "expected: $want" "got: $got"
	fi
}

# chromium_ready: find headless Chromium ($CHROMIUM, else chromium or
# chromium-browser), check that it loads a page and that a console message
# reaches its log (a control page that logs one); when it is missing or
# cannot run, skip the rest of the test (the checks so far stand, unless
# one failed). Then chrome FILE OUT [ARG...] loads FILE with ARG (e.g.
# --dump-dom): its stdout in OUT, its log (console messages) in OUT.err.
chromium_ready() {
	local c
	CHROME=
	for c in ${CHROMIUM:-chromium chromium-browser}; do
		CHROME=$(command -v "$c") && break
	done
	[ -n "$CHROME" ] || skip "Chromium (${CHROMIUM:-chromium}) is not installed: the pages were not loaded in a browser ($PASSED checks without it passed)"
	CHROME_ARGS=(--headless --disable-gpu --no-first-run --no-default-browser-check
		--user-data-dir="$WORK/chrome" --enable-logging=stderr --v=0
		--host-resolver-rules='MAP * ~NOTFOUND' --hide-scrollbars)
	[ "$(id -u)" -ne 0 ] || CHROME_ARGS+=(--no-sandbox)
	printf '<!DOCTYPE html><html><body><p>control</p><script>console.error("control-%s")</script></body></html>\n' \
		"$$" >"$WORK/control.html"
	if ! chrome "$WORK/control.html" "$WORK/control.dom" --dump-dom || ! grep -q control "$WORK/control.dom"; then
		[ "$FAILED" -eq 0 ] || finish
		skip "Chromium ($CHROME) cannot run here: $(tail -n 2 "$WORK/control.dom.err" | tr '\n' ' ')"
	fi
	expect_match "the console check sees a console error (control page)" "$WORK/control.dom.err" ":CONSOLE.*control-$$"
}

chrome() {
	local file=$1 out=$2

	shift 2
	timeout -k 5 90 "$CHROME" "${CHROME_ARGS[@]}" "$@" "file://$file" >"$out" 2>"$out.err"
}
