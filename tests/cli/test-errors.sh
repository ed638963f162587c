#!/bin/bash
# Bad usage and bad input: exit 2, nothing on stdout, one "atio: " line on
# stderr naming the bad value and then "Try 'atio --help' ...". Paths that
# cannot be used: exit 2 and a message naming the path. Not enough free
# space: exit 1 and a message about it, and no file left behind. --help and
# --version.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

TRY="Try 'atio --help' for more information."
D=$WORK/dir
mkdir "$D"

# usage WHAT WORD ARG...: atio ARG... is refused as bad usage, with one
# message line naming WORD (fixed string) and the "Try" line.
usage() {
	local what=$1 word=$2 why=() first

	shift 2
	run_atio "$@"
	[ "$RC" -eq 2 ] || why+=("exit $RC, expected 2")
	[ ! -s "$OUT" ] || why+=("stdout is not empty")
	[ "$(wc -l <"$ERR")" -eq 2 ] || why+=("stderr has $(wc -l <"$ERR") lines, expected 2")
	first=$(head -n 1 "$ERR")
	case $first in
	"atio: "*"$word"*) ;;
	*) why+=("first stderr line does not start with \"atio: \" and name \"$word\"") ;;
	esac
	[ "$(sed -n 2p "$ERR")" = "$TRY" ] || why+=("second stderr line is not: $TRY")
	if [ ${#why[@]} -eq 0 ]; then
		ok "$what: exit 2, $first"
	else
		not_ok "$what" "${why[@]}" "command: $LAST"
		show stdout "$OUT"
		show stderr "$ERR"
	fi
}

F=(-f "$D")
usage "unknown long option" --bogus --bogus "${F[@]}"
usage "unknown short option" -x -x "${F[@]}"
usage "missing -f" -f -t 1 -u 16M
usage "-p 0" "-p 0" -p 0 "${F[@]}"
usage "-s 0" "-s 0" -s 0 "${F[@]}"
usage "-s 3K --uncached" "-s 3K" -s 3K --uncached "${F[@]}"
if [ "$(head -n 1 "$ERR")" = "atio: -s 3K: block size must be a multiple of 4096 with --uncached" ]; then
	ok "-s 3K --uncached: the exact message"
else
	not_ok "-s 3K --uncached: the exact message" "got: $(head -n 1 "$ERR")"
fi
# --check reads with O_DIRECT unless --cached: the message says so, and
# blames no --uncached that was not given.
usage "--check -s 512" "-s 512" --check -s 512 "${F[@]}"
expect_match "--check -s 512: says --check reads with O_DIRECT, not \"with --uncached\"" "$ERR" \
	'^atio: -s 512: block size must be a multiple of 4096: --check reads with O_DIRECT unless --cached is given$'
usage "-u smaller than -p x -s" "-u 1M" -u 1M -p 4 -s 1M "${F[@]}"
usage "-u smaller than -p x default -s" "-u 8M" --seq -u 8M -p 1 "${F[@]}"
usage "size suffix Q" 4Q -u 4Q "${F[@]}"
usage "size with two points" 1.5.5G -u 1.5.5G "${F[@]}"
usage "block size suffix Q" 4Q -s 4Q "${F[@]}"
usage "overflowing size" 99999999999T -u 99999999999T "${F[@]}"
usage "overflowing block size" 99999999999T -s 99999999999T "${F[@]}"
usage "negative time" "-t -1" -t -1 "${F[@]}"
usage "zero time" "-t 0" -t 0 "${F[@]}"
usage "time suffix y" 10y -t 10y "${F[@]}"
usage "overlong time" 9999999h -t 9999999h "${F[@]}"
usage "warm-up suffix y" 10y -w 10y "${F[@]}"
usage "--read --write" --write --read --write "${F[@]}"
usage "--seq --rand" --rand --seq --rand "${F[@]}"
usage "--cached --uncached" --uncached --cached --uncached "${F[@]}"
usage "--mbs --iops" --iops --mbs --iops "${F[@]}"
usage "--fsync --fdatasync" --fdatasync --fsync --fdatasync "${F[@]}"
usage "-q 4 without --fsync" "-q 4" -q 4 "${F[@]}"
usage "-q 0" "-q 0" --fsync -q 0 "${F[@]}"
usage "--engine nosuch" nosuch --engine nosuch "${F[@]}"
usage "-p abc" abc -p abc "${F[@]}"
usage "-n 0" "-n 0" -n 0 "${F[@]}"
usage "stray argument" stray "${F[@]}" stray
usage "option without its value" -t "${F[@]}" -t
check "no file was created by the refused command lines" [ -z "$(listing "$D")" ]

# pathcheck WHAT CODE WORD ARG...: exit CODE, stdout empty, stderr names WORD.
pathcheck() {
	local what=$1 code=$2 word=$3 why=()

	shift 3
	run_atio "$@"
	[ "$RC" -eq "$code" ] || why+=("exit $RC, expected $code")
	[ ! -s "$OUT" ] || why+=("stdout is not empty")
	grep -q '^atio: ' "$ERR" || why+=("no line starting \"atio: \" on stderr")
	grep -qF -- "$word" "$ERR" || why+=("stderr does not name $word")
	if [ ${#why[@]} -eq 0 ]; then
		ok "$what: $(grep -F -- "$word" "$ERR" | head -n 1)"
	else
		not_ok "$what" "${why[@]}" "command: $LAST"
		show stderr "$ERR"
	fi
}

pathcheck "-f in a directory that does not exist" 2 "$WORK/nodir" \
	-t 0.2 -u 8M -s 1M -f "$WORK/nodir/prefix"
pathcheck "-f DIR/ that does not exist" 2 "$WORK/nodir" -t 0.2 -u 8M -s 1M -f "$WORK/nodir/"
check "no directory was created for a missing one" [ ! -e "$WORK/nodir" ]

# A directory that cannot be written. Root writes anywhere, so as root the
# directory is made read-only with a read-only bind mount in a private mount
# namespace.
RO=$WORK/ro
mkdir "$RO"
# shellcheck disable=SC2016 # the $1 in single quotes is the inner shell's
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 "$RO"
	pathcheck "-f in a directory that cannot be written" 2 "$RO" -t 0.2 -u 8M -s 1M -f "$RO"
	pathcheck "-f prefix in a directory that cannot be written" 2 "$RO" \
		-t 0.2 -u 8M -s 1M -f "$RO/pre"
	chmod 755 "$RO"
elif command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" &&
		! touch "$1/probe" 2>/dev/null' sh "$RO" 2>/dev/null; then
	ROWRAP=$WORK/ro-atio
	cat >"$ROWRAP" <<'EOF'
#!/bin/sh
# Run atio ($1) with $2 bind-mounted read-only, in a private mount namespace.
atio=$1 dir=$2
shift 2
exec unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" "$1" &&
	shift && exec "$@"' sh "$dir" "$atio" "$@"
EOF
	chmod +x "$ROWRAP"
	REAL=$ATIO
	ATIO=$ROWRAP
	pathcheck "-f in a read-only directory" 2 "$RO" "$REAL" "$RO" -t 0.2 -u 8M -s 1M -f "$RO"
	pathcheck "-f prefix in a read-only directory" 2 "$RO" "$REAL" "$RO" \
		-t 0.2 -u 8M -s 1M -f "$RO/pre"
	ATIO=$REAL
else
	skip_check "-f in a directory that cannot be written" \
		"running as root, and no read-only bind mount is possible here (unshare -m)"
fi
check "nothing was created in the unwritable directory" [ -z "$(listing "$RO")" ]

# Not enough space: a 16 MiB tmpfs in a private mount namespace.
SMALL=$WORK/small
mkdir "$SMALL"
# shellcheck disable=SC2016 # the $1 in single quotes is the inner shell's
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c 'mount -t tmpfs -o size=16m atio-test "$1"' sh "$SMALL" 2>/dev/null; then
	# Run atio with a tmpfs of SIZE on $SMALL; afterwards list what is left.
	TMPFSWRAP=$WORK/tmpfs-atio
	cat >"$TMPFSWRAP" <<'EOF'
#!/bin/sh
# tmpfs-atio ATIO DIR SIZE LISTING ARG...: atio with a tmpfs of SIZE on DIR.
atio=$1 dir=$2 size=$3 list=$4
shift 4
exec unshare -m sh -c 'mount -t tmpfs -o "size=$2" atio-test "$1" || exit 99
	dir=$1 list=$3 atio=$4; shift 4
	"$atio" "$@"; rc=$?
	ls -A "$dir" >"$list" 2>&1
	exit $rc' sh "$dir" "$size" "$list" "$atio" "$@"
EOF
	chmod +x "$TMPFSWRAP"
	REAL=$ATIO
	ATIO=$TMPFSWRAP
	LEFT=$WORK/left
	run_atio "$REAL" "$SMALL" 16m "$LEFT" -t 0.2 -s 1M -u 64M -p 2 --allow-memory-fs -f "$SMALL"
	expect_code "-u 64M on a 16 MiB filesystem: exit 1" 1
	expect_match "-u 64M on a 16 MiB filesystem: message about free space" "$ERR" \
		'^atio: .*free space'
	expect_empty "-u 64M on a 16 MiB filesystem: stdout empty" "$OUT"
	check "-u 64M on a 16 MiB filesystem: no file left in the directory" [ ! -s "$LEFT" ]
	run_atio "$REAL" "$SMALL" 16m "$LEFT" -t 0.2 -s 1M -u 64M -p 2 --allow-memory-fs -f "$SMALL/pre"
	expect_code "-u 64M with a prefix on a 16 MiB filesystem: exit 1" 1
	check "-u 64M with a prefix on a 16 MiB filesystem: no file left" [ ! -s "$LEFT" ]
	# Enough room: the check must not refuse what fits.
	run_atio "$REAL" "$SMALL" 96m "$LEFT" -t 0.2 -s 1M -u 32M -p 2 --allow-memory-fs -f "$SMALL"
	expect_code "-u 32M on a 96 MiB filesystem: exit 0" 0
	check "-u 32M on a 96 MiB filesystem: two files" [ "$(wc -l <"$LEFT")" -eq 2 ]
	ATIO=$REAL
else
	skip_check "not enough free space" "cannot mount a tmpfs in a private mount namespace here (needs root and unshare -m)"
fi

# io_uring for a user other than root whose locked-memory limit is 0
# (ulimit -l 0): kernels that count the ring against RLIMIT_MEMLOCK refuse
# it with ENOMEM, and the message names the limit and its value.
memlock_check() {
	local wrap=$WORK/memlock0.sh uid gid bin

	if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1 ||
		! uid=$(id -u nobody 2>/dev/null) || ! gid=$(id -g nobody 2>/dev/null); then
		skip_check "io_uring with ulimit -l 0" "needs root, setpriv and the user nobody"
		return 0
	fi
	run_atio --engine io_uring --iodepth 4 -a -s 4K -u 8M -f "$D"
	if [ "$RC" -ne 0 ]; then
		skip_check "io_uring with ulimit -l 0" "io_uring cannot run here: $(head -n 1 "$ERR")"
		return 0
	fi
	# A copy nobody can reach: the build may lie under a directory only
	# root may enter (/root on a fresh machine).
	if ! bin=$(mktemp -d /tmp/atio-test-memlock.XXXXXX) || ! chmod 755 "$bin" ||
		! cp "$ATIO" "$bin/atio" || ! chmod 755 "$bin/atio"; then
		skip_check "io_uring with ulimit -l 0" "cannot copy atio to a directory nobody can reach"
		return 0
	fi
	cat >"$wrap" <<EOF
#!/bin/sh
exec setpriv --reuid=$uid --regid=$gid --clear-groups sh -c 'ulimit -l 0 && exec "\$0" "\$@"' "$bin/atio" "\$@"
EOF
	chmod +x "$wrap"
	ATIO=$wrap run_atio --version
	if [ "$RC" -ne 0 ]; then
		skip_check "io_uring with ulimit -l 0" "nobody cannot run atio here: $(head -n 1 "$ERR")"
		rm -rf "$bin"
		return 0
	fi
	ATIO=$wrap run_atio --engine io_uring --iodepth 4 -a -s 4K -u 8M -f "$D"
	rm -rf "$bin"
	if [ "$RC" -eq 0 ]; then
		skip_check "io_uring with ulimit -l 0" \
			"io_uring needs no locked memory on this kernel ($(uname -r))"
		return 0
	fi
	expect_code "io_uring with ulimit -l 0 as nobody: exit 1" 1
	expect_match "io_uring with ulimit -l 0 as nobody: names RLIMIT_MEMLOCK and its value" \
		"$ERR" '^atio: --engine io_uring: not available: .*RLIMIT_MEMLOCK \(ulimit -l\), which is 0 KiB'
}
memlock_check

# --help and --version.
run_atio --help
expect_code "--help: exit 0" 0
missing=()
for opt in --read --write --fsync --fdatasync --seq --rand --mbs --iops --cached --uncached \
	-s -p -n -t -u -q -S -f -a -v -vv -vvv -w --json --seed --start-at --remove \
	--keep-cache --no-thp --engine --iodepth --help --version; do
	grep -Eq -- "(^|[ ,])$opt([ ,=]|$)" "$OUT" || missing+=("$opt")
done
if [ ${#missing[@]} -eq 0 ]; then
	ok "--help mentions every option"
else
	not_ok "--help mentions every option" "missing: ${missing[*]}"
fi
expect_count "--help: no line with \"rate\" on stdout but the --rate option's" "$OUT" rate 1
expect_count "--help: the line with \"rate\" is the --rate option's" "$OUT" '^  --rate N ' 1
expect_empty "--help: stderr empty" "$ERR"
run_atio -h
expect_code "-h: exit 0" 0
expect_match "-h: prints the usage" "$OUT" '^Usage: atio'

run_atio --version
expect_code "--version: exit 0" 0
expect_match "--version: prints a version" "$OUT" '^atio [0-9]+\.[0-9]+(\.[0-9]+)?'
expect_empty "--version: stderr empty" "$ERR"
run_atio -V
expect_match "-V: prints a version" "$OUT" '^atio [0-9]+\.[0-9]+'
check "nothing was created by --help or --version" [ -z "$(listing "$D")" ]

# The command word run: the same run as without it; a word that names no
# command is no stray path taken for one.
run_atio run -a --rand -p 2 -u 16M --seed 7 "${F[@]}"
expect_code "atio run -a: exit 0" 0
run_copy=$WORK/run-a.out
cp "$OUT" "$run_copy"
run_atio -a --rand -p 2 -u 16M --seed 7 "${F[@]}"
check "atio run -a prints the settings atio -a prints" cmp -s "$OUT" "$run_copy"
usage "a stray word is not a command" runx runx -a "${F[@]}"

# A thread that cannot be made (RLIMIT_NPROC of an unprivileged user): exit
# 1 naming the thread, and the run still ends as a run does: --remove
# deletes the files it made, the lock goes. Root is exempt from the limit.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	T=$WORK/threads
	mkdir "$T"
	chown nobody "$T"
	chmod o+x "$WORK"
	# A copy nobody can reach: the build may lie under a directory only
	# root may enter (/root on a fresh machine).
	mkdir -m 755 "$WORK/bin"
	cp "$ATIO" "$WORK/bin/atio"
	chmod 755 "$WORK/bin/atio"
	LAST="atio --write --rand -s 4K -p 32 -t 1 -u 32M --remove -f $T (as nobody, ulimit -u 8)"
	RC=0
	# shellcheck disable=SC2016 # the inner shell expands its own arguments
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		bash -c 'ulimit -u 8 && exec "$0" "$@"' "$WORK/bin/atio" --write --rand -s 4K -p 32 -t 1 \
		-u 32M --remove -f "$T" >"$OUT" 2>"$ERR" || RC=$?
	expect_code "threads not made: exit 1" 1
	expect_match "threads not made: says which thread" "$ERR" \
		'^atio: cannot start thread [0-9]+ of 32: '
	check "threads not made: --remove still deleted the files and the lock" \
		[ -z "$(listing "$T")" ]
else
	skip_check "threads not made" "needs root, setpriv and the user nobody"
fi

finish
