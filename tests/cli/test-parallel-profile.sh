#!/bin/bash
# scripts/atio-parallel.sh's profiles and the tests of the seed 000 guide
# (sshd-harness.sh): --profile vhi runs every test O_DIRECT at depth 32 with
# the guide's block sizes, threads and data set sized by each node (auto),
# the files made by atio --prepare (in 4K blocks; the check step reads in
# 4M); the tests randrw, expand and
# dsyncwrite run and sum as the others do; randrw gives read and write
# apart, randfsync its write and sync latency, as atio merge has them; a
# --rate in ATIO_OPTS is said to cap each node and holds on each; the check step reads every node's data
# and names the node, file and offset of bad data, a FAILURE never summed;
# ATIO_OPTS=--verify says per node that its reads verified, or that what
# it wrote read back right, and a node that read bad data is a FAILURE
# naming it; a bad profile and a host given
# twice are refused before any connection.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

sshd_start 2
driver_setup
HOSTS=(node1 node2)
NCPU=$(getconf _NPROCESSORS_ONLN)

# expect_refused WHAT PATTERN: exit 2, stderr matching PATTERN, no login.
expect_refused() {
	local what=$1

	expect_code "$what: refused with exit 2" 2
	expect_match "$what: the message names it" "$ERR" "$2"
	if [ "$(all_logins)" -eq "$logins" ]; then
		ok "$what: no node was connected to"
	else
		not_ok "$what: no node was connected to" "$(($(all_logins) - logins)) logins"
	fi
}

# --- Refused before any connection.
logins=$(all_logins)
run_driver --profile nope "${HOSTS[@]}"
expect_refused "--profile nope" "PROFILE \\(--profile\\) 'nope': not one of at_io vhi"
run_driver node1 node2 node1
expect_refused "node1 given twice" "host 'node1' is given twice"
run_driver THREADS="1 auto x" node1
expect_refused "THREADS with x" "THREADS \\(-p\\) '1 auto x': 'x' is neither"

# --- The vhi profile's commands (--dry-run), its defaults not overridden.
run_driver -u FILE_SIZE -u THREADS -u TESTS --profile vhi --dry-run node1
what="--dry-run --profile vhi"
expect_code "$what: exit 0" 0
expect_match "$what: the files made by atio --prepare, sized by the node" "$OUT" \
	"load \(auto threads\): .*atio'? --prepare -s 4K -p auto -u auto -f "
expect_match "$what: seqread 1M at depth 32, O_DIRECT" "$OUT" \
	"seqread \(auto threads\): .*atio'? --read --seq -s 1M --mbs --iodepth 32 --uncached -p auto -t 1 -u auto -S -f"
expect_match "$what: seqwrite 1M at depth 32" "$OUT" \
	"seqwrite \(auto threads\): .*--write --seq -s 1M --mbs --iodepth 32 --uncached -p auto"
expect_match "$what: randread 4K at depth 32" "$OUT" \
	"randread \(auto threads\): .*--read --rand -s 4K --iops --iodepth 32 --uncached -p auto"
expect_match "$what: randwrite: plain writes at depth 32, as the guide's" "$OUT" \
	"randwrite \(auto threads\): .*--write --rand -s 4K --iops --iodepth 32 --uncached -p auto"
expect_match "$what: randrw 70/30 at depth 32" "$OUT" \
	"randrw \(auto threads\): .*--mix 70 --rand -s 4K --iops --iodepth 32 --uncached -p auto"
expect_match "$what: expand 16M" "$OUT" "expand \(auto threads\): .*--expand -s 16M --mbs --uncached -p auto"
expect_no_match "$what: no test is --cached" "$OUT" "--cached"
grep -oE '^  [a-z]+ \(auto threads\)' "$OUT" | awk '{print $1}' | paste -s -d ' ' >"$WORK/order"
expect_match "$what: the guide's tests, reads first, expand last" "$WORK/order" \
	'^load warmup seqread randread seqwrite randwrite randrw expand$'

# --- The check step reads in 4M (atio --check's default), not in the 4K
# blocks the files' preparation names.
run_driver TESTS="check" THREADS=1 FILE_SIZE=32M --dry-run node1
what="--dry-run TESTS=check"
expect_code "$what: exit 0" 0
expect_match "$what: atio --check reads in 4M" "$OUT" \
	"check \(1 threads\): .*atio'? --check -s 4M -p 1 -u 32M -f "
expect_match "$what: the load step as before" "$OUT" \
	"load \(1 threads\): .*atio'? --read --seq -s 16M"
run_driver -u FILE_SIZE -u THREADS TESTS="check" --profile vhi --dry-run node1
expect_match "$what --profile vhi: --prepare in 4K, --check in 4M" "$OUT" \
	"check \(auto threads\): .*atio'? --check -s 4M -p auto -u auto -f "

# --- A vhi run on two nodes: threads as each node's CPUs, small files.
rm -rf "$(node_dir 1)/data"/* "$(node_dir 2)/data"/*
run_driver -u THREADS TESTS="randrw expand" FILE_SIZE=64M ITERATIONS=1 --profile vhi \
	-o "$WORK/vhi.json" "${HOSTS[@]}"
what="--profile vhi, randrw and expand on 2 nodes"
expect_code "$what: exit 0" 0
parse_driver_output "$OUT" "${HOSTS[*]}" >"$WORK/parsed"
expect_no_match "$what: no [FAILURE]" "$OUT" '\[FAILURE\]'
grep '^ERR ' "$WORK/parsed" >"$WORK/errs" || true
expect_empty "$what: every sum the sum of its nodes, every average the mean of its sums" "$WORK/errs"
expect_count "$what: a summed randrw iteration, auto threads" "$WORK/parsed" \
	'^SUM Random read/write 70/30\|auto\|1\|[0-9.]+\|IOPS\|1$' 1
expect_count "$what: a summed expand iteration in MB/s" "$WORK/parsed" '^SUM Expand\|auto\|1\|[0-9.]+\|MB/s\|1$' 1
for i in 1 2; do
	n=$(find "$(node_dir "$i")/data" -maxdepth 1 -name 'atio.*' -type f | wc -l)
	if [ "$n" -eq "$NCPU" ]; then
		ok "$what: node$i ran one file per online CPU ($n)"
	else
		not_ok "$what: node$i ran one file per online CPU" "$n files, $NCPU CPUs" \
			"$(ls -la "$(node_dir "$i")/data")"
	fi
done
expect_match "$what: the -o document names the profile" "$WORK/vhi.json" '"profile":"vhi"'
expect_match "$what: the -o document keeps threads auto" "$WORK/vhi.json" '"threads":\["auto"\]'

# --- at_io with the new tests and a per-node cap of 300 IOPS.
run_driver TESTS="dsyncwrite randrw randfsync" ITERATIONS=1 ATIO_OPTS="--rate 300" \
	-o "$WORK/dirs.json" "${HOSTS[@]}"
what="dsyncwrite and randrw with ATIO_OPTS=--rate 300"
expect_code "$what: exit 0" 0
parse_driver_output "$OUT" "${HOSTS[*]}" >"$WORK/parsed"
grep '^ERR ' "$WORK/parsed" >"$WORK/errs" || true
expect_empty "$what: every sum the sum of its nodes" "$WORK/errs"
expect_count "$what: each test's section says the cap is per node" "$OUT" \
	'^cap: 300 IOPS on each node \(ATIO_OPTS\), not on the cluster: the sum may reach 2 times that$' 2
expect_no_match "$what: the cap line leaves the word rate to result lines" "$OUT" '^cap:.*rate'
for t in "Random dsync write" "Random read/write 70/30"; do
	v=$(awk -F'|' -v t="SUM $t" '$1 == t { print $4 }' "$WORK/parsed")
	if [ -n "$v" ] && fcmp "$v" '<=' 606 && fcmp "$v" '>' 0; then
		ok "$what: $t: the sum of 2 capped nodes, $v IOPS, is at most 2 x 300 (+1%)"
	else
		not_ok "$what: $t: the sum of 2 capped nodes is at most 2 x 300 (+1%)" "sum '$v'"
	fi
done

# --- Per direction and per call: randrw's nodes, sum and average each
# followed by a read and a write line, randfsync's by a write latency and a
# sync latency line (no unnamed latency line); each figure that of atio
# merge of the nodes' documents, which -o keeps (each node's record, and
# the iteration's merge of them). The at_io_parallel lines stay as they
# were (parse_driver_output above found every sum the sum of its nodes).
what="randrw and randfsync, per direction and per call"
python3 - "$OUT" "$WORK/dirs.json" >"$WORK/dirs.check" <<'PY' || echo "ERR the check failed" >>"$WORK/dirs.check"
import json, re, sys

out = open(sys.argv[1]).read().split("\n")
doc = json.load(open(sys.argv[2]))
tests = {t["test"]: t for r in doc["results"] for t in r["tests"]}

def section(title):
    """The lines of the driver's section of test TITLE."""
    start = next(i for i, l in enumerate(out) if l.startswith("---=== " + title + " ("))
    end = next((i for i in range(start + 1, len(out)) if out[i].startswith("---=== ")
                and not out[i].startswith("---=== Average")), len(out))
    return out[start:end]

def us(v):
    return "p50 %.2f, p99 %.2f, p99.9 %.2f" % (v["p50"], v["p99"], v["p99.9"])

def want(lines, line, what):
    print(("OK " if line in lines else "ERR ") + what + ": " + line)

def after(lines, first, line, what):
    """LINE comes after the line that starts with FIRST."""
    i = next((k for k, l in enumerate(lines) if l.startswith(first)), None)
    ok = i is not None and line in lines[i + 1:]
    print(("OK " if ok else "ERR ") + what + ": " + line + " after " + first)

rw = section("Random read/write 70/30")
it = tests["randrw"]["iterations"][0]
for n in it["nodes"]:
    for d in ("read", "write"):
        x = n[d]
        line = "%s: %.2f IOPS, %.2f MB/s, latency (usec): %s" % (d, x["iops"], x["mbs"], us(x["latency_us"]))
        want(rw, line, "randrw: " + n["host"] + "'s " + d + " line")
for d in ("read", "write"):
    s = sum(n[d]["iops"] for n in it["nodes"])
    m = it["merge"][d]
    print(("OK " if abs(s - m["iops"]) <= 1e-6 * s else "ERR ") +
          "randrw: the merge's %s IOPS %r is the sum of the nodes' %r" % (d, m["iops"], s))
    x = it[d]
    line = "%s: %.2f IOPS, %.2f MB/s, latency (usec): %s (merged from 2 nodes)" % (
        d, m["iops"], m["mbs"], us({k: m["latency_ns"][k] / 1000 for k in ("p50", "p99", "p99.9")}))
    after(rw, "Sum value on iteration 1 ", line, "randrw: the sum's " + d + " line")
    print(("OK " if (x["iops"], x["mbs"]) == (m["iops"], m["mbs"]) else "ERR ") +
          "randrw: -o's iteration " + d + " is the merge's")
    a = tests["randrw"][d]
    line = "%s: average %.2f IOPS, %.2f MB/s over 1 complete iteration" % (d, a["average_iops"], a["average_mbs"])
    after(rw, "---=== Average value", line, "randrw: the average's " + d + " line")
print(("ERR " if any("rate" in l for l in rw if re.match(r"(read|write): ", l)) else "OK ") +
      "randrw: the word rate is on no read or write line")

fs = section("Random fsync")
it = tests["randfsync"]["iterations"][0]
for n in it["nodes"]:
    want(fs, "write latency (usec): " + us(n["latency_us"]), "randfsync: " + n["host"] + "'s write latency")
    want(fs, "sync latency (usec): " + us(n["sync_latency_us"]), "randfsync: " + n["host"] + "'s sync latency")
m = it["merge"]
for name, key in (("write latency", "latency_ns"), ("sync latency", "sync_latency_ns")):
    line = "%s (usec): %s (merged from 2 nodes)" % (name, us({k: m[key][k] / 1000 for k in ("p50", "p99", "p99.9")}))
    after(fs, "Sum value on iteration 1 ", line, "randfsync: the sum's " + name)
print(("OK " if it["sync_latency_us"]["p50"] == m["sync_latency_ns"]["p50"] / 1000 else "ERR ") +
      "randfsync: -o's iteration sync p50 is the merged histograms'")
print(("ERR " if any(l.startswith("latency (usec)") for l in fs) else "OK ") +
      "randfsync: no unnamed latency line")
print(("OK " if tests["randfsync"]["read"] is None and it["read"] is None else "ERR ") +
      "randfsync: no figures per direction")
PY
grep '^ERR' "$WORK/dirs.check" >"$WORK/dirs.err" || true
expect_empty "$what: every line there and its figures atio merge's" "$WORK/dirs.err"
n=$(grep -c '^OK' "$WORK/dirs.check" || true)
if [ "$n" -ge 20 ]; then ok "$what: $n figures checked"; else not_ok "$what: figures checked" "$n: $(head -c 300 "$WORK/dirs.check")"; fi

# --- The check step, and --verify, over good and then bad data.
run_driver TESTS="seqwrite check" ITERATIONS=1 "${HOSTS[@]}"
what="TESTS=\"seqwrite check\""
expect_code "$what: exit 0" 0
expect_count "$what: a Check section" "$OUT" '^---=== Check \(1thr\) ===---$' 1
expect_count "$what: each node's check line says ok" "$OUT" \
	'^check: 1 file\(s\), 32\.00 MiB read and checked in [0-9.]+ sec, [0-9.]+ MB/s; 0 bad sector\(s\); ok$' 2
expect_match "$what: both nodes' data checked out" "$OUT" '^Check: the data of 2 of 2 nodes checked out$'
run_driver TESTS="randread" ITERATIONS=1 ATIO_OPTS=--verify "${HOSTS[@]}"
what="ATIO_OPTS=--verify, randread"
expect_code "$what: exit 0" 0
expect_count "$what: each node says its reads verified" "$OUT" \
	'^verify: every block read checked, [0-9]+ bytes, none bad$' 4
run_driver TESTS="randwrite" ITERATIONS=1 ATIO_OPTS=--verify "${HOSTS[@]}"
what="ATIO_OPTS=--verify, randwrite"
expect_code "$what: exit 0" 0
expect_count "$what: each node says every block it wrote read back right" "$OUT" \
	'^verify: every block written read back and checked, [1-9][0-9]* bytes, none bad$' 2
dd if=/dev/zero of="$(node_dir 2)/data/atio.0" bs=4096 seek=2 count=1 conv=notrunc status=none
run_driver TESTS="check" ITERATIONS=1 "${HOSTS[@]}"
what="the check step with a zeroed block on node2"
expect_code "$what: exit 1" 1
expect_match "$what: node2 is a FAILURE" "$OUT" '^\[2\] [0-9:]{8} \[FAILURE\] node2$'
expect_match "$what: the bad range named: file and offset" "$OUT" \
	'^    bad: .*/atio\.0: offset 8192, 4096 bytes \(8 sector\(s\)\): zeros'
expect_match "$what: node1 checked out" "$OUT" '^\[1\] [0-9:]{8} \[SUCCESS\] node1$'
expect_match "$what: the count names node2" "$OUT" '^Check: the data of 1 of 2 nodes checked out \(FAILURE: node2\)$'
awk '/^---=== Check/ { on = 1 } on' "$OUT" >"$WORK/check.part"
expect_no_match "$what: nothing summed in the Check section" "$WORK/check.part" '^Sum value'
run_driver TESTS="randread" ITERATIONS=1 ATIO_OPTS=--verify "${HOSTS[@]}"
what="ATIO_OPTS=--verify, randread, a zeroed block on node2"
expect_code "$what: exit 1" 1
expect_match "$what: node2's read of bad data named, file and offset" "$OUT" \
	'^    atio: verify: .*/atio\.0: offset 8192 '
expect_match "$what: its iteration INCOMPLETE, not summed with node2" "$OUT" \
	'^Sum value on iteration 1 = \{ [0-9.]+ \} IOPS; \(INCOMPLETE: 1 of 2 nodes\)'

finish
