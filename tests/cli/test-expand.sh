#!/bin/bash
# --expand: every write appends. The run truncates its files to zero, each
# thread appends blocks of -s to files of its own, and a file that reaches
# its share of -u is truncated again and grows anew. Checked here: files
# grow from zero (their old content is gone, their size is what was
# appended since the last truncation, a multiple of -s), no holes, the
# restart at the share of -u with the truncations counted, the sync,
# io_uring, libaio and null engines (asynchronous ones at depth, where no
# truncation may overtake an append in flight), the stamps of the appended
# sectors, a foreign file refused, the lock, a later read run on the partly
# grown files, the refused combinations, the header and the JSON.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to read the files and JSON"

# jq_py EXPR: evaluate the Python expression EXPR with d = the JSON document in $OUT.
jq_py() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' \
		"$OUT" "$1"
}

# data_end FILE: where SEEK_HOLE finds the first hole (the size when there is none).
data_end() {
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
print(os.lseek(fd, 0, os.SEEK_HOLE) if os.fstat(fd).st_size else 0)' "$1"
}

# stamps FILE KIND: check every 512-byte sector of FILE: a stamp of
# version 2 and of KIND (1 fill, 2 write) naming the sector's own offset,
# its check word right, the tag of FILE's dataset and index (from its
# user.atio mark), no two sectors alike and, where python3's cryptography
# module is there, bytes 56..511 the keystream the stamp names
# (include/atio/data/stamp.h). Prints "ok N" with the number of keystreams
# checked, or what is wrong.
stamps() {
	python3 - "$1" "$2" <<'EOF'
import hashlib, os, struct, sys
M = (1 << 64) - 1
K = [0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9, 0x94d049bb133111eb,
     0xd6e8feb86659fd93, 0xa0761d6478bd642f, 0xe7037ed1a0b428db]
C1, C2 = 0x8ebc6af09c88c6e3, 0x589965cc75374cc3
try:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
except ImportError:
    Cipher = None

def fmix(x):
    x ^= x >> 33
    x = x * 0xff51afd7ed558ccd & M
    x ^= x >> 33
    x = x * 0xc4ceb9fe1a85ec53 & M
    return x ^ (x >> 33)

def splitmix(x):
    x = (x + K[0]) & M
    z = x
    z = ((z ^ (z >> 30)) * K[1]) & M
    z = ((z ^ (z >> 27)) * K[2]) & M
    return x, z ^ (z >> 31)

def keystream(key, pos, n):
    x, hi = splitmix(key)
    x, lo = splitmix(x)
    k = struct.pack('<QQ', hi, lo)
    iv = (pos // 16).to_bytes(16, 'big')
    e = Cipher(algorithms.AES(k), modes.CTR(iv)).encryptor()
    return e.update(bytes(n + pos % 16))[pos % 16:]

path, kind = sys.argv[1], int(sys.argv[2])
seen, checked = set(), 0
mark = os.getxattr(path, 'user.atio').decode().split(' ')
tag = fmix(int(mark[2], 16) + fmix(int(path.rsplit('.', 1)[1]) + 1) & M)
with open(path, 'rb') as f:
    off = 0
    while True:
        s = f.read(512)
        if not s:
            break
        if len(s) != 512:
            sys.exit('a partial sector at offset %d' % off)
        n = off // 512 + 1
        w = struct.unpack('<7Q', s[:56])
        head = w[0] - n * K[0] & M
        if w[1] != n * K[1] & M:
            sys.exit('offset %d: the stamp names another offset' % off)
        if head & 0xffffffff != 0x6f697461 or (head >> 32) & 0xff != 2:
            sys.exit('offset %d: no atio stamp of version 2' % off)
        if (head >> 40) & 0xff != kind:
            sys.exit('offset %d: stamp of kind %d, expected %d' % (off, (head >> 40) & 0xff, kind))
        gen, key, pos, t = (w[i] - n * K[i] & M for i in (2, 3, 4, 5))
        if kind == 2 and gen == 0:
            sys.exit('offset %d: a write stamp with generation 0' % off)
        if t != tag:
            sys.exit('offset %d: the tag of another file or dataset' % off)
        if w[6] != ((fmix(fmix(key ^ t) + gen & M) ^ head) + n * C1 + pos * C2) & M:
            sys.exit('offset %d: the check word is wrong' % off)
        if Cipher and s[56:] != keystream(key, pos, 512)[56:]:
            sys.exit('offset %d: the data is not the keystream its stamp names' % off)
        checked += Cipher is not None
        h = hashlib.blake2b(s, digest_size=16).digest()
        if h in seen:
            sys.exit('offset %d: a sector repeats an earlier one' % off)
        seen.add(h)
        off += 512
print('ok', checked)
EOF
}

# grown_ok WHAT BS BLOCKS FILE...: after a --json run: every FILE's size
# is a multiple of BS and at most BLOCKS blocks, with no hole and nothing
# unwritten, and the sizes add up to what was appended since the last
# truncations: ops x BS - truncations x BLOCKS x BS (a file is emptied
# when it holds BLOCKS blocks).
grown_ok() {
	local what=$1 bs=$2 blocks=$3 f sum=0 size ops trunc
	why=()

	shift 3
	ops=$(jq_py 'd["result"]["ops"]')
	trunc=$(jq_py 'd["result"]["truncations"]')
	for f in "$@"; do
		size=$(file_size "$f")
		sum=$((sum + size))
		[ $((size % bs)) -eq 0 ] || why+=("$f: size $size is not a multiple of $bs")
		[ "$size" -le $((blocks * bs)) ] ||
			why+=("$f: size $size is more than its share, $blocks blocks of $bs")
		[ "$(data_end "$f")" -eq "$size" ] || why+=("$f: SEEK_HOLE finds a hole at $(data_end "$f") of $size")
		not_sparse "$f" || why+=("$f: $(alloc_size "$f") bytes allocated for $size")
		if [ "$size" -gt 0 ] && command -v filefrag >/dev/null 2>&1 && ! no_unwritten "$f"; then
			why+=("$f: filefrag shows an unwritten extent")
		fi
	done
	[ "$sum" -eq $((ops * bs - trunc * blocks * bs)) ] ||
		why+=("files hold $sum bytes; $ops appends and $trunc truncations of $blocks blocks give $((ops * bs - trunc * blocks * bs))")
	verdict "$what" "$OUT" "$ERR"
}

D=$WORK/d
mkdir "$D"
F=$D/atio.0

# --- Refused combinations (nothing is touched: no -f directory needed) ---
for m in --read --write --fsync --fdatasync; do
	run_atio --expand "$m" -f "$D"
	expect_code "--expand $m: exit 2" 2
	expect_match "--expand $m: the two workloads named" "$ERR" "^atio: --expand and $m are contradictory"
done
run_atio --expand --rand -f "$D"
expect_code "--expand --rand: exit 2" 2
expect_match "--expand --rand: says why" "$ERR" "^atio: --expand --rand: .*no random pattern"
run_atio --expand -p 4 -n 2 -u 64M -f "$D"
expect_code "--expand -p 4 -n 2: exit 2" 2
expect_match "--expand -p 4 -n 2: names -n and what is needed" "$ERR" \
	"^atio: -n 2: --expand needs a file of its own for each of the 4 threads.*give -n 4 or more"
run_atio --expand -q 4 -u 64M -f "$D"
expect_code "--expand -q 4: exit 2" 2
check "refused runs made no file" [ -z "$(ls -A "$D")" ]

# --- Settings: the header says what happens, the Cmdline reruns it ---
run_atio -a --expand -s 1M -u 8M -p 2 -t 1 --uncached -f "$D"
expect_code "-a --expand: exit 0" 0
expect_match "-a --expand: Cmdline" "$OUT" "^Cmdline: -a --expand --seq -s 1M --mbs -p 2 -n 2 -t 1 --uncached -u 8M$"
expect_match "-a --expand: Testcase says the files grow from zero to their share" "$OUT" \
	"^Testcase: create/open 2 file\\(s\\) .*truncate them to zero, start 2 thread\\(s\\) and append uncached 1024KB blocks to files that grow from zero to 4\\.00 MB, each emptied again when full$"
read -ra again <<<"$(sed -n 's/^Cmdline: //p' "$OUT")"
run_atio "${again[@]}" -f "$D"
expect_match "the printed Cmdline gives the same Cmdline" "$OUT" "^Cmdline: -a --expand --seq -s 1M --mbs -p 2 -n 2 -t 1 --uncached -u 8M$"
run_atio -a --json --expand -s 1M -u 8M -f "$D"
check "-a --json --expand: settings.expand true, expand_max_size 8 MiB" \
	[ "$(jq_py 'd["settings"]["expand"], d["settings"]["expand_max_size"], d["settings"]["mode"]')" = "(True, 8388608, 'expand')" ]
run_atio -a --json --write -s 1M -u 8M -f "$D"
check "-a --json --write: settings.expand false, expand_max_size null" \
	[ "$(jq_py 'd["settings"]["expand"], d["settings"]["expand_max_size"]')" = "(False, None)" ]

# --- Files grow from zero: a complete file of the fill becomes appends only ---
run_atio --write -s 1M -u 32M -t 0.05 --cached -f "$D" --seed 5
expect_code "a complete 32 MiB file from --write: exit 0" 0
[ "$(file_size "$F")" -eq $((32 << 20)) ] || die "the --write run left $(file_size "$F") bytes"
run_atio --expand -s 1M -u 32M -t 0.3 --uncached -f "$D" --json --seed 6
expect_code "--expand over the complete file, sync engine, --uncached: exit 0" 0
grown_ok "sync --uncached: the file grew from zero, no hole, size = appends since the last truncation" \
	$((1 << 20)) 32 "$F"
r=$(stamps "$F" 2 2>&1) || true
check "sync --uncached: every sector a write stamp of its offset, unique ($r)" [ "${r%% *}" = ok ]
check "sync --uncached: the appended data does not compress" incompressible "$F"

# --- The restart at the share of -u: a small -u, a fast cached run ---
run_atio --expand -s 64K -u 1M -t 0.5 --cached -f "$D" --json
expect_code "--expand -u 1M --cached: exit 0" 0
t=$(jq_py 'd["result"]["truncations"]')
check "--expand -u 1M: the file was emptied again ($t truncations)" [ "$t" -gt 0 ]
check "--expand -u 1M: threads' truncations add up" \
	[ "$(jq_py 'sum(x["truncations"] for x in d["threads"])')" -eq "$t" ]
grown_ok "--expand -u 1M: size at most the share, = appends since the last truncation" $((64 << 10)) 16 "$F"

# The text output: one rate line, the count below it.
run_atio --expand -s 64K -u 1M -t 0.2 --cached -f "$D"
why=()
check_result "--expand text: the result line in MB/s" MB/s
expect_match "--expand text: the truncations below the result line" "$OUT" \
	"^expand: [1-9][0-9]* truncations to zero of files full at 1\\.00 MiB$"

# engine_runs ENGINE: a plain write run with ENGINE works here.
P=$WORK/probe
mkdir "$P"
engine_runs() {
	run_atio --write -s 64K -u 1M -t 0.01 --uncached --engine "$1" --iodepth 2 -f "$P"
	[ "$RC" -eq 0 ]
}

# --- io_uring at depth: appends in flight, never a truncation among them ---
if engine_runs io_uring; then
	run_atio --expand -s 64K -u 2M -t 0.3 --uncached --engine io_uring --iodepth 8 -f "$D" -vvv
	expect_code "io_uring --iodepth 8: exit 0" 0
	why=()
	n=$(count_lines "$ERR" '^atio: \[0\] ftruncate\(fd [0-9]+, 0\) = 0')
	[ "$n" -gt 0 ] || why+=("no truncation traced")
	bad=$(awk '/^atio: \[0\] submit write\(/ {s++} /^atio: \[0\] write\(/ {c++}
		/^atio: \[0\] ftruncate\(/ {if (s != c) bad++} END {print bad + 0}' "$ERR")
	[ "$bad" -eq 0 ] || why+=("$bad truncations while appends were in flight")
	most=$(awk '/^atio: \[0\] submit write\(/ {s++} /^atio: \[0\] write\(/ {c++; if (s - c + 1 > m) m = s - c + 1}
		END {print m + 0}' "$ERR")
	[ "$most" -gt 1 ] || why+=("never more than one append in flight")
	verdict "io_uring --iodepth 8: $n truncations, each after every append in flight completed (up to $most in flight)" "$ERR"
	run_atio --expand -s 64K -u 4M -p 2 -n 4 -t 0.3 --uncached --engine io_uring --iodepth 8 -f "$D" --json
	expect_code "io_uring --iodepth 8 -p 2 -n 4: exit 0" 0
	grown_ok "io_uring --iodepth 8 -p 2 -n 4: four files, no hole, sizes = appends since the truncations" \
		$((64 << 10)) 16 "$D/atio.0" "$D/atio.1" "$D/atio.2" "$D/atio.3"
	r=$(stamps "$D/atio.3" 2 2>&1) || true
	check "io_uring: every sector a write stamp of its offset, unique ($r)" [ "${r%% *}" = ok ]
else
	skip_check "--expand with io_uring" "io_uring is not available here: $(head -n 1 "$ERR")"
fi

# libaio at depth and the null engine.
if engine_runs libaio; then
	run_atio --expand -s 64K -u 2M -t 0.3 --uncached --engine libaio --iodepth 4 -f "$D" --json
	expect_code "libaio --iodepth 4: exit 0" 0
	grown_ok "libaio --iodepth 4: no hole, size = appends since the last truncation" $((64 << 10)) 32 "$F"
else
	skip_check "--expand with libaio" "libaio is not available here: $(head -n 1 "$ERR")"
fi
N=$WORK/null
mkdir "$N"
run_atio --expand -s 64K -u 1M -t 0.1 --engine null -f "$N" --json
expect_code "--engine null: exit 0" 0
check "--engine null: truncations counted, no file made" \
	[ "$(jq_py 'd["result"]["truncations"] > 0')" = True ] && [ -z "$(ls -A "$N")" ]

# --- A later read run on partly grown files resumes the fill ---
run_atio --expand -s 1M -u 16M -t 0.2 --cached -f "$D" -n 1 --json
size=$(file_size "$F")
run_atio --read -s 1M -u 16M -t 0.1 --cached -f "$D" -n 1
expect_code "a read run after --expand: exit 0" 0
if [ "$size" -lt $((16 << 20)) ]; then
	expect_match "a read run after --expand: the partly grown file ($size bytes) is filled" "$ERR" \
		"^atio: preparing 1 file\\(s\\) of 16\\.00 MiB: 0 new, 1 to resume"
else
	expect_no_match "a read run after --expand: the full-grown file is reused" "$ERR" "^atio: preparing"
fi
why=()
[ "$(file_size "$F")" -eq $((16 << 20)) ] || why+=("size $(file_size "$F") after the read run (was $size)")
[ "$(data_end "$F")" -eq $((16 << 20)) ] || why+=("a hole at $(data_end "$F")")
verdict "a read run after --expand: the file is complete (16 MiB, no hole)" "$ERR"

# --- Safety: a foreign file, a symbolic link, the lock ---
X=$WORK/x
mkdir "$X"
head -c 1M /dev/urandom >"$X/atio.0"
sum0=$(md5sum <"$X/atio.0")
run_atio --expand -s 64K -u 1M -t 0.1 -f "$X"
expect_code "a foreign file at atio.0: exit 2" 2
expect_match "a foreign file at atio.0: named" "$ERR" "^atio: $X/atio.0: not a file atio made"
check "a foreign file at atio.0: left as it was" [ "$(md5sum <"$X/atio.0")" = "$sum0" ]
run_atio --expand -s 64K -u 1M -t 0.1 -f "$X" --take-over --json
expect_code "--take-over: exit 0" 0
grown_ok "--take-over: the file was emptied and grown by appends" $((64 << 10)) 16 "$X/atio.0"
run_atio --expand -s 64K -u 1M -t 0.1 -f "$X"
expect_code "the taken-over file is atio's now: a run without --take-over, exit 0" 0

L=$WORK/l
mkdir "$L"
printf 'target\n' >"$WORK/target"
ln -s "$WORK/target" "$L/atio.0"
run_atio --expand -s 64K -u 1M -t 0.1 -f "$L" --take-over
expect_code "a symbolic link at atio.0: exit 2" 2
check "a symbolic link at atio.0: its target untouched" [ "$(cat "$WORK/target")" = target ]

run_atio --read -s 64K -u 1M -t 0.1 --cached -f "$D" -n 1
start_atio --read -s 64K -u 1M -t 20 --cached -f "$D" -n 1
wait_flock "$PID" || die "atio (pid $PID) took no lock within 20 s"
FIRST=$PID
OUT=$WORK/second.out ERR=$WORK/second.err run_atio --expand -s 64K -u 1M -t 0.1 -f "$D" -n 1
OUT=$WORK/stdout ERR=$WORK/stderr
expect_code "--expand while a read run holds the dataset: refused (exit 1)" 1
expect_match "--expand while a read run holds the dataset: says who" "$WORK/second.err" \
	"another atio is working on this dataset \\(pid $FIRST "
kill -TERM "$FIRST" 2>/dev/null || true
wait_exit 20

# --- A block device cannot grow ---
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 &&
	truncate -s 16M "$WORK/dev.img" && LOOP=$(losetup -f --show "$WORK/dev.img" 2>/dev/null); then
	run_atio --expand -s 64K -t 0.1 -f "$LOOP" --allow-device-write
	losetup -d "$LOOP"
	expect_code "--expand on a block device: exit 2" 2
	expect_match "--expand on a block device: says why" "$ERR" "^atio: --expand: -f $LOOP is a block device, which cannot grow"
else
	skip_check "--expand on a block device" "no loop device here (needs root and losetup)"
fi


# --- -S on ext4: the run's last appends may still be in writeback when the
# run ends, in extents ext4 keeps unwritten until then; they are data, not
# a hole that another program made (seen in 1 of 3 such runs before).
E4=$WORK/e4
if [ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null 2>&1 && mkdir -p "$E4" &&
	truncate -s 1536M "$WORK/e4.img" && mkfs.ext4 -q -F "$WORK/e4.img" >/dev/null 2>&1 &&
	mount -o loop "$WORK/e4.img" "$E4" 2>/dev/null; then
	holes=0 failed=0
	for _ in 1 2 3 4; do
		run_atio --expand --cached -S -t 3 -p 2 -u 1G -f "$E4"
		if [ "$RC" -ne 0 ]; then
			failed=$((failed + 1))
		fi
		if grep -q 'a hole appeared' "$ERR"; then
			holes=$((holes + 1))
		fi
	done
	umount "$E4"
	check "--expand --cached -S on ext4, 4 runs: none takes writeback for a hole" [ "$holes" -eq 0 ]
	check "--expand --cached -S on ext4, 4 runs: every one exits 0" [ "$failed" -eq 0 ]
else
	skip_check "--expand -S on ext4" "needs root, mkfs.ext4 (e2fsprogs) and a loop mount"
fi

finish
