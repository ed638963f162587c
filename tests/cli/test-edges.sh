#!/bin/bash
# Bad input and odd moments: a signal before anything was measured
# (warm-up, --start-at), SIGHUP with --remove, paths that are not UTF-8 in
# JSON, the seed as a string, --iodepth above the kernel's limit, memory the
# threads cannot have, output to a full disk, times shown as they run, the
# order of an error and the RAM warning, messages with very long paths,
# and umount right after an io_uring run.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=$WORK/d
mkdir "$D"
run_atio -t 0.1 -s 1M -p 1 -u 8M -f "$D"
expect_code "prepare a dataset: exit 0" 0

# json_check WHAT PYTHON: $OUT is one JSON document for which the python
# statements (with d the document) raise nothing.
json_check() {
	local what=$1 msg

	if ! command -v python3 >/dev/null 2>&1; then
		skip_check "$what" "python3 is not available to read JSON"
		return 0
	fi
	if msg=$(python3 -c "
import json, sys
raw = open(sys.argv[1], 'rb').read()
d = json.loads(raw.decode('utf-8'))
$2" "$OUT" 2>&1); then
		ok "$what"
	else
		not_ok "$what" "$(tail -n 1 <<<"$msg")" "command: $LAST"
		show stdout "$OUT"
	fi
}

# Defect: a signal while waiting for --start-at gave a result line of 0.
start_atio --start-at "$(($(date +%s) + 30))" -t 1 -s 1M -p 1 -u 8M -f "$D"
sleep 1
kill -s INT "$PID" 2>/dev/null || true
wait_exit 10
expect_code "SIGINT while waiting for --start-at: exit 130" 130
expect_count "SIGINT while waiting for --start-at: no result line" "$OUT" rate 0
expect_match "SIGINT while waiting for --start-at: stderr says why" "$ERR" \
	'^atio: SIGINT before the measured time began \(waiting for the start instant\): no result$'

start_atio --json -w 10 -t 1 -s 1M -p 1 -u 8M -f "$D"
sleep 1
kill -s TERM "$PID" 2>/dev/null || true
wait_exit 10
expect_code "SIGTERM in the warm-up with --json: exit 130" 130
json_check "SIGTERM in the warm-up with --json: interrupted, not measured, no value" '
assert d["interrupted"] is True and d["signal"] == "SIGTERM", "interrupted/signal"
assert d["measured"] is False, "measured is %r" % d["measured"]
assert d["result"] is None, "result is %r" % d["result"]
assert d["threads"] == [], "threads listed"'

# Defect: SIGHUP killed atio (exit 129) with no result and left the files.
start_atio --write --rand -s 4K -t 30 -p 1 -u 8M -f "$D/hup" --remove
sleep 1.5
kill -s HUP "$PID" 2>/dev/null || true
wait_exit 10
expect_code "SIGHUP with --remove: exit 130" 130
check_result "SIGHUP with --remove: the result line" IOPS
expect_match "SIGHUP with --remove: interrupted by SIGHUP" "$OUT" '^interrupted: by SIGHUP after'
expect_match "SIGHUP with --remove: a message on stderr" "$ERR" '^atio: SIGHUP: stopping'
check "SIGHUP with --remove: the files are removed" [ ! -e "$D/hup.0" ]

# Defect: bytes that are not UTF-8 in a path made the JSON invalid. They
# come out as \u00XX escapes, one per byte; valid UTF-8 passes as it is.
B=$WORK/$'caf\xe9-\xff'-é
mkdir "$B"
run_atio --json -t 0.05 -s 1M -p 1 -u 8M -f "$B"
expect_code "a path with bytes that are not UTF-8: exit 0" 0
json_check "a path with bytes that are not UTF-8: valid JSON, each such byte one \\u00XX" '
p = d["settings"]["path"]
assert p.endswith("/caf\u00e9-\u00ff-\u00e9"), "path %r" % p
assert b"caf\\u00e9-\\u00ff-\xc3\xa9" in raw, "escapes not as documented: %r" % raw[:400]
back = bytes(ord(c) for c in p[-5:-2])
assert back == b"\xe9-\xff", back'

# Defect: the seed is also a string, so that a reader that turns numbers
# into doubles keeps all its digits.
run_atio --json --engine null -t 0.01 --seed 8897702014863851541
json_check "--json: the seed also as a string, every digit" '
s = d["settings"]
assert s["seed_string"] == "8897702014863851541", s["seed_string"]
assert json.loads(raw, parse_int=float)["settings"]["seed_string"] == "8897702014863851541"'

# Defect: --iodepth above what the kernel allows failed only at run time.
if "$ATIO" --engine io_uring -a >/dev/null 2>&1; then
	run_atio --engine io_uring --iodepth 32769 -s 1M -t 1 -u 8M -f "$D"
	expect_code "io_uring --iodepth 32769: exit 2 before the run" 2
	expect_match "io_uring --iodepth 32769: names the value and the limit" "$ERR" \
		'^atio: --iodepth 32769: the kernel lets io_uring have at most [0-9]+ I/Os in flight'
	expect_no_match "io_uring --iodepth 32769: no fill, no run" "$ERR" 'preparing|Invalid argument'
else
	skip_check "io_uring --iodepth above the kernel's limit" "io_uring does not run here"
fi
aio_max=$(cat /proc/sys/fs/aio-max-nr 2>/dev/null || echo 0)
if "$ATIO" --engine libaio -a >/dev/null 2>&1 && [ "$aio_max" -gt 0 ] && [ "$aio_max" -lt 1048576 ]; then
	depth=$((aio_max / 2 + 1))
	if [ "$depth" -gt 65536 ]; then
		depth=65536
	fi
	run_atio --engine libaio --iodepth "$depth" -s 1M -p 2 -n 1 -t 1 -u 8M -f "$D"
	expect_code "libaio -p 2 --iodepth $depth (fs.aio-max-nr $aio_max): exit 2" 2
	expect_match "libaio: names the value and the limit" "$ERR" \
		"^atio: --iodepth $depth: the kernel lets libaio have at most [0-9]+ I/Os"
else
	skip_check "libaio --iodepth above fs.aio-max-nr" "libaio does not run here"
fi

# Defect: the memory of the threads' buffers was not checked: -p 4096 of
# 1 GiB reads is 4 TiB of buffers.
run_atio --engine null --read -s 1G -p 4096 -u 4T -t 1
expect_code "-p 4096 -s 1G: exit 2" 2
expect_match "-p 4096 -s 1G: the figures" "$ERR" \
	'^atio: -p 4096: the read buffers \(one per I/O in flight\) of 4096 threads need 4194304\.00 MiB of memory \(1024\.00 MiB a thread\), more than the [0-9.]+ MiB available \(MemAvailable\)'

# Defect: --verify's map (a word for every block of -u, whatever -p is)
# too large for memory was refused with the advice of fewer threads, even
# at -p 1: a larger -s or a smaller -u is what makes it smaller.
for p in 1 8; do
	run_atio --engine null --write --verify --rand -s 4K -p $p -u 1024T -t 1
	expect_code "--verify -p $p -u 1024T -s 4K: exit 2" 2
	expect_match "--verify -p $p -u 1024T: the map's figures, a larger -s or a smaller -u" "$ERR" \
		'^atio: --verify -u 1024T -s 4K: the map of the last write to every block \(4 bytes a block of -u, however many threads share it\) needs 1048576\.00 MiB of memory, more than the [0-9.]+ MiB available \(MemAvailable\); use a larger -s or a smaller -u$'
	expect_no_match "--verify -p $p -u 1024T: no advice of fewer threads" "$ERR" 'fewer threads'
done
run_atio --read -s 1G --iodepth 1024 -p 1 -u 1T -t 1 -f "$D"
expect_match "-p 1 -s 1G --iodepth 1024: a smaller -s or --iodepth, not fewer threads" "$ERR" \
	'^atio: -p 1: the read buffers .*; use a smaller -s or --iodepth$'

# Defect: --help to a full disk exited 0.
if [ -w /dev/full ]; then
	LAST="atio --help >/dev/full"
	if "$ATIO" --help >/dev/full 2>"$ERR"; then RC=0; else RC=$?; fi
	expect_code "--help to /dev/full: exit 1" 1
	expect_match "--help to /dev/full: says so" "$ERR" \
		'^atio: cannot write the help to standard output: No space left on device'
else
	skip_check "--help to a full disk" "no /dev/full"
fi

# Defect: -t 0.0004 was shown as -t 0.001.
run_atio -v --engine null -t 0.0004 -w 0.0000005
expect_match "-v header: -t 0.0004 as it runs" "$OUT" '^Cmdline: .* -t 0\.0004 -w 0\.0000005 '
expect_match "-v header: Time: 0.0004 sec" "$OUT" '^Time: 0\.0004 sec$'

# Defect: a run that fails before it measures showed the RAM warning first.
# A directory where atio's file would be: refused after the planning.
mkdir -p "$WORK/ro/atio.0"
run_atio -s 1M -p 1 -u 8M -t 1 -f "$WORK/ro"
expect_code "a run that fails before measuring: exit 2" 2
if head -n 1 "$ERR" | grep -q 'is not a regular file'; then
	ok "a run that fails before measuring: the error comes first"
else
	not_ok "a run that fails before measuring: the error comes first" "command: $LAST"
	show stderr "$ERR"
fi
expect_no_match "a run that fails before measuring: no RAM warning" "$ERR" 'page cache may serve'
run_atio -s 1M -p 1 -u 8M -t 0.05 -f "$D"
expect_match "a run that measures: the RAM warning is still given" "$ERR" 'page cache may serve'

# Defect: a message with a path of about 4,000 characters was cut at 1,023
# characters and lost its reason.
long=$WORK/l
while [ "${#long}" -lt 3900 ]; do
	long=$long/dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd
done
if mkdir -p "$long" 2>/dev/null; then
	name=$(printf 'x%.0s' $(seq 1 250))
	run_atio -s 1M -p 1 -u 8M -t 1 -f "$long/$name"
	expect_code "a path of ${#long} characters, a name too long: exit 1" 1
	expect_match "the message keeps the whole path and the reason" "$ERR" \
		"^atio: $long/$name\\.(0|lock): .*File name too long$"
else
	skip_check "messages with long paths" "cannot make a directory of ${#long} characters here"
fi

# Defect: umount failed ("target is busy") right after an io_uring run:
# the kernel held the ring's registered files for a while after exit.
if [ "$(id -u)" != 0 ] || ! command -v mkfs.ext4 >/dev/null 2>&1 ||
	! "$ATIO" --engine io_uring -a >/dev/null 2>&1; then
	skip_check "umount right after an io_uring run" "needs root, mkfs.ext4 and io_uring"
else
	img=$WORK/ext4.img
	mnt=$WORK/mnt
	mkdir "$mnt"
	truncate -s 128M "$img"
	mkfs.ext4 -q -F "$img"
	busy=0
	for i in 1 2 3; do
		if ! mount -o loop "$img" "$mnt"; then
			skip_check "umount right after an io_uring run" "cannot loop-mount here"
			break
		fi
		run_atio --engine io_uring --iodepth 4 --write --rand -s 4K -u 16M -t 0.2 -f "$mnt"
		if ! umount "$mnt" 2>/dev/null; then
			busy=$((busy + 1))
			sleep 1
			umount "$mnt" || umount -l "$mnt"
		fi
	done
	check "umount right after each of 3 io_uring runs succeeds ($busy busy)" [ "$busy" -eq 0 ]
fi

finish
