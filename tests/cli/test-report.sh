#!/bin/bash
# atio report: one self-contained HTML page from atio's JSON, checked in a
# real browser. Bad input (missing file, not JSON, foreign JSON, no -o, an
# -o that cannot be written or names an input) exits 2 naming it and
# leaves no file; an -o that is a symbolic link gets the page at the file
# it leads to, and stays a link, unless it is another user's link in a
# sticky directory anyone may write to (refused), also a link in a
# directory part of the name; another user's file in such a directory is
# refused; a replaced file keeps its mode (less set-ID bits) and owner;
# merge --output-file's check does what its write will do. Headless Chromium loads each page with the network
# closed: no console message, and the SVGs of the DOM it dumps hold the
# series and points of known documents (report-gen.py writes them: NODES
# nodes, INTERVALS intervals, STALLS stalls, as runs, their merge and a
# driver's matrix), overlaid for two documents with their ratio; strings from the documents arrive escaped; a real
# atio --json run without intervals shows its histogram and says no time
# series was recorded; a real atio-parallel.sh -o document from sshd nodes
# gives its matrix of bars with whiskers. Where Chromium cannot run, the
# test is skipped (77) with the reason, after the checks that need no
# browser.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=sshd-harness.sh
. "$(dirname "$0")/sshd-harness.sh"

GEN=$(cd "$(dirname "$0")" && pwd)/report-gen.py
NODES=3
INTERVALS=12
STALLS=2
G=$WORK/gen
mkdir -p "$G"

gen() {
	python3 "$GEN" "$@"
}

# --- Known documents: NODES runs with intervals and stalls, and their merge
# (atio merge's own, with the merged intervals added).
command -v python3 >/dev/null || skip "python3 is not installed (it writes the test's documents)"
gen nodes "$G" "$NODES" "$INTERVALS" "$STALLS"
run_atio merge --json "$G"/node-*.json
[ "$RC" -eq 0 ] || die "atio merge of the generated documents failed: $(cat "$ERR")"
gen attach "$G" "$OUT" "$G/merge.json"
gen driver "$G/merge.json" "$G/driver.json"

# --- Bad input: exit 2, the message names it, no page left behind.
printf '{"hello": "world"}\n' >"$WORK/foreign.json"
printf 'not json\n' >"$WORK/text.json"
head -c 300 "$G/node-1.json" >"$WORK/cut.json"
bad() {
	local what=$1 re=$2

	shift 2
	run_atio report "$@"
	expect_code "$what: exit 2" 2
	expect_match "$what: the message names it" "$ERR" "$re"
}
bad "a missing file" 'atio: report: .*/nothere\.json: cannot open' "$WORK/nothere.json" -o "$WORK/p.html"
bad "not JSON" 'text\.json: not JSON: line 1' "$WORK/text.json" -o "$WORK/p.html"
bad "truncated JSON" 'cut\.json: truncated' "$WORK/cut.json" -o "$WORK/p.html"
bad "another program's JSON" 'foreign\.json: not an atio --json run' "$WORK/foreign.json" -o "$WORK/p.html"
# A unit that is none of atio's is refused, not written into the page.
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["unit"] = "<img src=x onerror=alert(1)>"; json.dump(d, open(sys.argv[2], "w"))' \
	"$G/merge.json" "$WORK/evil.json"
bad "a merge whose unit is markup" 'evil\.json: unit: not MB/s, IOPS or sync/s' "$WORK/evil.json" -o "$WORK/p.html"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["results"][0]["tests"][-1]["unit"] = "<b>"; json.dump(d, open(sys.argv[2], "w"))' \
	"$G/driver.json" "$WORK/evil-driver.json"
bad "a driver document whose unit is markup" 'evil-driver\.json: results\[0\]\.tests\[[0-9]+\]\.unit: not MB/s' \
	"$WORK/evil-driver.json" -o "$WORK/p.html"
bad "no -o" 'no -o PAGE\.html' "$G/node-1.json"
bad "-o without a file" '-o: give the file' "$G/node-1.json" -o
bad "no document" 'no document given' -o "$WORK/p.html"
bad "an unknown option" '--frobnicate: unknown option' --frobnicate "$G/node-1.json" -o "$WORK/p.html"
bad "-o in a missing directory" "-o $WORK/no/dir/p.html: cannot write there" "$G/node-1.json" -o "$WORK/no/dir/p.html"
cp "$G/node-1.json" "$WORK/input.json"
bad "-o naming an input" 'is the document .*input\.json: it would be overwritten' "$WORK/input.json" -o "$WORK/input.json"
check "-o naming an input: the input is unchanged" cmp -s "$G/node-1.json" "$WORK/input.json"
check "no page was left by the bad runs" test ! -e "$WORK/p.html"
if [ -z "$(find "$WORK" -maxdepth 1 -name '.atio-*')" ]; then
	ok "no temporary file was left behind"
else
	not_ok "no temporary file was left behind" "$(find "$WORK" -maxdepth 1 -name '.atio-*')"
fi

# --- The pages.
page() {
	local out=$1

	shift
	run_atio report "$@" -o "$out"
	expect_code "atio report $(basename "$out"): exit 0" 0
	expect_empty "atio report $(basename "$out"): nothing on stderr" "$ERR"
}
echo 'an old page' >"$WORK/merge.html"
page "$WORK/merge.html" "$G/merge.json"
expect_no_match "-o replaces the file it names" "$WORK/merge.html" '^an old page$'
# A symbolic link: the page goes to the file it leads to, the link stays;
# a link that leads nowhere is refused and nothing is made at its end.
echo 'an old page' >"$WORK/linked.html"
ln -s linked.html "$WORK/link.html"
page "$WORK/link.html" "$G/merge.json"
if [ -L "$WORK/link.html" ] && [ "$(readlink "$WORK/link.html")" = linked.html ]; then
	ok "-o a symbolic link: the link stays"
else
	not_ok "-o a symbolic link: the link stays" "$(ls -l "$WORK/link.html")"
fi
expect_no_match "-o a symbolic link: the old page it led to is gone" "$WORK/linked.html" '^an old page$'
expect_match "-o a symbolic link: the file it leads to has the page" "$WORK/linked.html" '^<!DOCTYPE html>'
ln -s nowhere.html "$WORK/dangling.html"
bad "-o a link that leads nowhere" "-o $WORK/dangling\.html: a symbolic link to .*nowhere\.html, which does not exist" \
	"$G/merge.json" -o "$WORK/dangling.html"
check "-o a link that leads nowhere: nothing made at its end" test ! -e "$WORK/nowhere.html"
# In a sticky directory anyone may write to (/tmp), another user's link is
# not followed (the kernel's protected_symlinks rule, which cannot act when
# atio reads the link itself): refused, naming the link and its owner, the
# file it leads to untouched. A link of the caller's is followed, and the
# file it replaces keeps its mode 0600 and its owner.
mkdir -m 1777 "$WORK/sticky"
mkdir -m 0700 "$WORK/private"
echo 'a secret' >"$WORK/private/secret.conf"
chmod 0600 "$WORK/private/secret.conf"
chown 1234:1234 "$WORK/private/secret.conf"
ln -s "$WORK/private/secret.conf" "$WORK/sticky/page.html"
chown -h nobody "$WORK/sticky/page.html"
before=$(stat -c '%a %u:%g %s %Y' "$WORK/private/secret.conf")
bad "-o another user's link in a sticky world-writable directory" \
	"-o $WORK/sticky/page\.html: a symbolic link of user nobody \(uid [0-9]+\) in $WORK/sticky, a sticky directory that anyone may write to: not followed" \
	"$G/merge.json" -o "$WORK/sticky/page.html"
check "-o another user's link: the file it leads to is untouched" \
	test "$(stat -c '%a %u:%g %s %Y' "$WORK/private/secret.conf")" = "$before" -a \
	"$(cat "$WORK/private/secret.conf")" = 'a secret'
ln -s "$WORK/private/secret.conf" "$WORK/sticky/mine.html"
page "$WORK/sticky/mine.html" "$G/merge.json"
expect_match "-o the caller's link in a sticky directory: followed" "$WORK/private/secret.conf" '^<!DOCTYPE html>'
check "-o the caller's link: the file it replaced keeps mode 0600 and its owner" \
	test "$(stat -c '%a %u:%g' "$WORK/private/secret.conf")" = "600 1234:1234"
check "-o the caller's link: still a link" test -L "$WORK/sticky/mine.html"
# The rule holds for every link on the way, a directory's too: another
# user's link to a directory, in the sticky directory, is refused.
mkdir -m 0700 "$WORK/secretdir"
echo 'a secret' >"$WORK/secretdir/page.html"
chmod 0600 "$WORK/secretdir/page.html"
ln -s "$WORK/secretdir" "$WORK/sticky/d"
chown -h nobody "$WORK/sticky/d"
bad "-o through another user's directory link in a sticky directory" \
	"-o $WORK/sticky/d/page\.html: leads through $WORK/sticky/d, a symbolic link of user nobody \(uid [0-9]+\) in $WORK/sticky, a sticky directory" \
	"$G/merge.json" -o "$WORK/sticky/d/page.html"
expect_match "-o through another user's directory link: the file behind it untouched" \
	"$WORK/secretdir/page.html" '^a secret$'
# The caller's links on the way are followed, relative and absolute, and
# ".." after a link goes up from where the link led.
mkdir -p "$WORK/walk/a/b"
ln -s a/b "$WORK/walk/rel"
ln -s "$WORK/walk/a" "$WORK/walk/abs"
page "$WORK/walk/rel/../w1.html" "$G/merge.json"
expect_match "-o through a relative directory link, then ..: the page where the link led, up" "$WORK/walk/a/w1.html" '^<!DOCTYPE html>'
page "$WORK/walk/abs/b/w2.html" "$G/merge.json"
expect_match "-o through an absolute directory link: the page there" "$WORK/walk/a/b/w2.html" '^<!DOCTYPE html>'
ln -s loop1 "$WORK/walk/loop2"
ln -s loop2 "$WORK/walk/loop1"
bad "-o through a loop of links" "-o $WORK/walk/loop1/x\.html: more than 40 symbolic links" \
	"$G/merge.json" -o "$WORK/walk/loop1/x.html"
# A replaced file keeps its mode less its set-user-ID and set-group-ID bits.
echo 'a program' >"$WORK/suid.html"
chmod 06755 "$WORK/suid.html"
page "$WORK/suid.html" "$G/merge.json"
check "-o a set-user-ID file: the page is not set-user-ID nor set-group-ID" \
	test "$(stat -c '%a' "$WORK/suid.html")" = 755
# Another user's file in a sticky directory anyone may write to is not
# replaced (the kernel's protected_regular rule): that user would own the page.
echo 'theirs' >"$WORK/sticky/theirs.html"
chown nobody "$WORK/sticky/theirs.html"
bad "-o another user's file in a sticky world-writable directory" \
	"-o $WORK/sticky/theirs\.html: a file of user nobody \(uid [0-9]+\) in $WORK/sticky, a sticky directory that anyone may write to: not replaced" \
	"$G/merge.json" -o "$WORK/sticky/theirs.html"
expect_match "-o another user's file in a sticky directory: left as it was" "$WORK/sticky/theirs.html" '^theirs$'
# merge --output-file FILE (the driver's -o, checked before anything runs)
# does what its write will: a name of 250 bytes, which it can write, passes;
# a name too long is refused; for a caller who could not give the file its
# owner back, another user's file is refused up front.
mkdir "$WORK/names"
long=$WORK/names/$(printf 'a%.0s' $(seq 250))
run_atio merge --output-file "$long"
expect_code "merge --output-file, a name of 250 bytes: the check passes" 0
run_atio merge --output-file "$long" "$G/merge.json"
expect_code "merge --output-file, a name of 250 bytes: written" 0
check "merge --output-file, a name of 250 bytes: it holds the document" cmp -s "$long" "$G/merge.json"
run_atio merge --output-file "${long}aaaaaa"
expect_code "merge --output-file, a name of 256 bytes: refused" 2
expect_match "merge --output-file, a name of 256 bytes: the message names it" "$ERR" "${long}aaaaaa: "
if [ -n "$(find "$WORK/names" -name '.atio-*')" ]; then
	not_ok "merge --output-file's check leaves no temporary file" "$(ls -a "$WORK/names")"
else
	ok "merge --output-file's check leaves no temporary file"
fi
mkdir -m 0777 "$WORK/shared"
echo 'root owns it' >"$WORK/shared/root.json"
chmod 0666 "$WORK/shared/root.json"
chmod 0711 "$WORK"
if setpriv --reuid=nobody --regid=nogroup --clear-groups "$ATIO" merge --output-file \
	"$WORK/shared/root.json" >"$OUT" 2>"$ERR"; then RC=0; else RC=$?; fi
LAST="atio merge --output-file $WORK/shared/root.json (as nobody)"
expect_code "merge --output-file, as nobody, a file of root's: refused by the check" 2
expect_match "merge --output-file, as nobody, a file of root's: the message says why" "$ERR" \
	"$WORK/shared/root\.json: cannot give it the owner and mode of the file it replaces"
expect_match "merge --output-file, as nobody: the file is left as it was" "$WORK/shared/root.json" '^root owns it$'
# A directory as the DOCUMENT, and --output-file given twice: said.
run_atio merge --output-file "$WORK/names/d.json" "$WORK/names"
expect_code "merge --output-file FILE DIR: refused" 2
expect_match "merge --output-file FILE DIR: says DIR is a directory" "$ERR" "$WORK/names: is a directory"
run_atio merge --output-file "$WORK/names/d.json" --output-file "$WORK/names/e.json"
expect_code "merge --output-file given twice: refused" 2
expect_match "merge --output-file given twice: said" "$ERR" "given twice"
page "$WORK/node.html" "$G/node-1.json"
# A run's last few microseconds (its last interval made 6 us long, the
# same I/Os in it: a spike of a rate) are no interval of the charts.
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
last = d["intervals"][-1]
last.update(duration_sec=6e-6, value=last["ops"] / 6e-6, iops=last["ops"] / 6e-6,
            mbs=last["bytes"] / 6e-6 / 1048576)
json.dump(d, open(sys.argv[2], "w"))' "$G/node-1.json" "$WORK/tail.json"
page "$WORK/tail.html" "$WORK/tail.json"
expect_match "a last interval of 6 us: not charted" <(gen count "$WORK/tail.html" rate-0) \
	"^series=1 points=$((INTERVALS - 1)) "
page "$WORK/two.html" "$G/node-1.json" "$G/node-2.json"
page "$WORK/matrix.html" "$G/driver.json"
# The nodes of the iteration shown: a row each, its share of the sum; the
# failed node says so.
expect_match "a driver's matrix: a table of the nodes of the iteration shown" "$WORK/matrix.html" \
	'<caption>driver\.json: the nodes in iteration 2 '
expect_count "a driver's matrix: a row per node that ran, with its share" "$WORK/matrix.html" \
	'^<tr><td class="k">node[0-9]</td><td class="n">[0-9.]+ IOPS</td><td class="n">[0-9.]+%</td>' "$NODES"
expect_match "a driver's matrix: the failed node's row says it failed" "$WORK/matrix.html" \
	'<td class="k">node9</td><td colspan="6">failed'
# THREADS=auto: the test is "auto threads" (each node its own count, in
# its row), never "0 threads".
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for row in d["results"]:
    row["threads"] = "auto"
    for t in row["tests"]:
        t["threads"] = "auto"
        for it in t["iterations"]:
            for k, n in enumerate(it["nodes"]):
                if n["ok"]:
                    n.update(threads=k + 2, total_size=(k + 1) << 30)
json.dump(d, open(sys.argv[2], "w"))' "$G/driver.json" "$WORK/auto.json"
page "$WORK/auto.html" "$WORK/auto.json"
expect_match "THREADS=auto: the test is named with auto threads" "$WORK/auto.html" 'randread, auto threads'
expect_no_match "THREADS=auto: never 0 threads" "$WORK/auto.html" '0 threads'
expect_match "THREADS=auto: each node's row has the threads and dataset it resolved" "$WORK/auto.html" \
	'<td class="k">node2</td>.*<td class="n">3</td><td class="n">2048\.00 MiB</td></tr>'
# A driver's test: its rate is the driver's average, said, not the sum of
# the iteration whose charts are shown (that one named with its sum).
avg=$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["results"][0]["tests"][-1]; print("%.2f" % t["average"])' "$G/driver.json")
expect_match "a driver's matrix: the summary's rate is the test's average, said" "$WORK/matrix.html" \
	"<td class=\"n\">${avg//./\\.} IOPS</td><td>average of 2 iterations \\(of 2 run\\); the charts: iteration 2, sum [0-9.]+ IOPS</td>"
expect_match "a driver's matrix: the page says which iteration the charts are of" "$WORK/matrix.html" \
	'the charts below are of iteration 2 of 2, whose sum is [0-9.]+ IOPS; the summary.s rate is the test.s average'
run_atio --write --rand -s 4K -p 1 -t 1 -u 16M -f "$WORK/data" --json
expect_code "a real run: exit 0" 0
cp "$OUT" "$WORK/real.json"
page "$WORK/real.html" "$WORK/real.json"

# Two files of one name are told apart by their paths.
mkdir -p "$WORK/other"
cp "$G/node-2.json" "$WORK/other/node-1.json"
page "$WORK/clash.html" "$G/node-1.json" "$WORK/other/node-1.json"
expect_match "two files of one name: the legend gives their paths" "$WORK/clash.html" \
	"data-name=\"$WORK/other/node-1\.json\""

# Self-contained: nothing to fetch, no script.
for p in merge node two matrix real; do
	f=$WORK/$p.html
	expect_no_match "$p.html: no script" "$f" '<script|javascript:|on(load|error|click)='
	if grep -o 'https\?://[^" ]*' "$f" | grep -qv '^http://www\.w3\.org/2000/svg$'; then
		not_ok "$p.html: no address to fetch" "$(grep -o 'https\?://[^" ]*' "$f" | sort -u | head -n 3)"
	else
		ok "$p.html: no address to fetch"
	fi
	expect_no_match "$p.html: url() only to the page's own patterns" "$f" 'url\([^#]'
done

# --- In the browser.
# The browser: $CHROMIUM when set, else chromium or chromium-browser.
find_chromium() {
	local c

	if [ -n "${CHROMIUM:-}" ]; then
		command -v "$CHROMIUM"
		return
	fi
	for c in chromium chromium-browser; do
		if command -v "$c"; then
			return 0
		fi
	done
	return 1
}
if ! CHROME=$(find_chromium); then
	[ "$FAILED" -eq 0 ] || finish
	skip "Chromium (${CHROMIUM:-chromium}) is not installed (package chromium): the pages were not loaded in a browser ($PASSED checks without it passed)"
fi
CHROME_ARGS=(--headless --disable-gpu --no-first-run --no-default-browser-check
	--user-data-dir="$WORK/chrome" --enable-logging=stderr --v=0
	--host-resolver-rules='MAP * ~NOTFOUND' --hide-scrollbars)
if [ "$(id -u)" -eq 0 ]; then
	CHROME_ARGS+=(--no-sandbox)
fi

# chrome FILE.html OUT ARG...: Chromium on FILE, stdout to OUT, its log to OUT.err.
chrome() {
	local file=$1 out=$2

	shift 2
	timeout -k 5 90 "$CHROME" "${CHROME_ARGS[@]}" "$@" "file://$file" >"$out" 2>"$out.err"
}

printf '<!DOCTYPE html><html><body><p>control</p><script>console.error("control-%s")</script></body></html>\n' \
	"$$" >"$WORK/control.html"
rc=0
chrome "$WORK/control.html" "$WORK/control.dom" --dump-dom || rc=$?
if [ "$rc" -ne 0 ] || ! grep -q 'control' "$WORK/control.dom"; then
	[ "$FAILED" -eq 0 ] || finish
	skip "Chromium ($CHROME) cannot run here (exit $rc, no page dumped): $(tail -n 2 "$WORK/control.dom.err" | tr '\n' ' ')"
fi
# The control page proves that a console message would be seen.
expect_match "the console check sees a console error (control page)" "$WORK/control.dom.err" \
	":CONSOLE.*control-$$"

# load NAME: dump the DOM of NAME.html, and check the console stayed quiet.
load() {
	local n=$1

	if chrome "$WORK/$n.html" "$WORK/$n.dom" --dump-dom; then
		ok "$n.html: Chromium loads it"
	else
		not_ok "$n.html: Chromium loads it" "$(tail -n 3 "$WORK/$n.dom.err")"
	fi
	expect_no_match "$n.html: no console message" "$WORK/$n.dom.err" ':CONSOLE'
	expect_match "$n.html: the DOM has the page" "$WORK/$n.dom" '<h1>atio report</h1>'
}

# expect_chart WHAT NAME CHART EXPECTED: what chart CHART holds in the DOM.
expect_chart() {
	local what=$1 n=$2 chart=$3 want=$4 got

	got=$(gen count "$WORK/$n.dom" "$chart")
	if [ "$got" = "$want" ]; then
		ok "$what"
	else
		not_ok "$what" "expected: $want" "in the DOM: $got" \
			"in the file: $(gen count "$WORK/$n.html" "$chart")"
	fi
}

# "N,N,...": @2 copies of @1.
repeat() {
	local i out=

	for ((i = 0; i < $2; i++)); do
		out=$out${out:+,}$1
	done
	printf '%s\n' "$out"
}

live=$((INTERVALS - STALLS))
load merge
expect_chart "merge: the rate of the cluster and of its $NODES nodes, $INTERVALS points each, $STALLS stalls marked" \
	merge rate-0 "series=$((NODES + 1)) points=$(repeat "$INTERVALS" $((NODES + 1))) bands=$STALLS bars=0 whiskers=0"
expect_chart "merge: p50, p99, p99.9 and max over the $live intervals that completed I/O" \
	merge lat-0 "series=4 points=$(repeat "$live" 4) bands=0 bars=0 whiskers=0"
h=$(gen count "$WORK/merge.dom" hist-0)
if [[ $h =~ ^series=1\ points=([0-9]+)\ bands=0 ]] && [ "${BASH_REMATCH[1]}" -gt 2 ] &&
	[ "$h" = "$(gen count "$WORK/merge.html" hist-0)" ]; then
	ok "merge: one histogram of the whole run, as the page wrote it"
else
	not_ok "merge: one histogram of the whole run, as the page wrote it" "DOM: $h" \
		"file: $(gen count "$WORK/merge.html" hist-0)"
fi
expect_match "merge: the legend names the cluster's sum" "$WORK/merge.dom" '>cluster sum</text>'
expect_match "merge: ... and the stalls" "$WORK/merge.dom" '>stall: no I/O completed</text>'

load node
expect_chart "one node: its rate, $STALLS stalls marked" node rate-0 \
	"series=1 points=$INTERVALS bands=$STALLS bars=0 whiskers=0"
expect_chart "one node: its percentiles" node lat-0 \
	"series=4 points=$(repeat "$live" 4) bands=0 bars=0 whiskers=0"
expect_match "one node: its record holds the kernel, host and device" "$WORK/node.dom" \
	'<td class="k">system.kernel</td><td class="k">Linux 6.1.0-test</td>'
expect_match "one node: a host name from the document is escaped" "$WORK/node.dom" 'node1&lt;b&gt;'
expect_match "one node: a path from the document is escaped" "$WORK/node.dom" \
	'/data/&lt;node 1&gt; &amp; "co"'
expect_no_match "one node: no element came from the document's strings" "$WORK/node.dom" '<b>|<node'

load two
expect_chart "two documents: their rates overlaid" two rate-0 \
	"series=2 points=$INTERVALS,$INTERVALS bands=$((2 * STALLS)) bars=0 whiskers=0"
expect_chart "two documents: their percentiles overlaid" two lat-0 \
	"series=8 points=$(repeat "$live" 8) bands=0 bars=0 whiskers=0"
expect_chart "two documents: their histograms overlaid" two hist-0 \
	"series=2 points=$(gen count "$WORK/two.html" hist-0 | sed -n 's/.*points=\([0-9,]*\).*/\1/p') bands=0 bars=0 whiskers=0"
# Node 2 completes 2000 + 10 i I/Os in each live interval i, node 1 1000 + 10 i.
ratio=$(awk -v n="$INTERVALS" -v s="$STALLS" 'BEGIN {
	for (i = 0; i < n; i++) {
		if (i >= 2 && (i - 2) % 3 == 0 && (i - 2) / 3 < s)
			continue
		a += 1000 + 10 * i; b += 2000 + 10 * i
	}
	printf "%.2f", b / a }')
expect_match "two documents: the ratio of their rates ($ratio)" "$WORK/two.dom" \
	"<td class=\"k\">node-2.json</td><td class=\"n\">$ratio</td>"
if chrome "$WORK/two.html" "$WORK/two.png.out" --window-size=900,2400 \
	--screenshot="$WORK/two.png" && [ "$(head -c 4 "$WORK/two.png" | od -An -c | tr -d ' ')" = '211PNG' ] &&
	[ "$(file_size "$WORK/two.png")" -gt 20000 ]; then
	ok "two documents: Chromium takes a screenshot of the page"
else
	not_ok "two documents: Chromium takes a screenshot of the page" "$(tail -n 3 "$WORK/two.png.out.err")"
fi

load matrix
expect_chart "a driver's matrix: one bar with its whisker" matrix bars-0 \
	"series=0 points= bands=0 bars=1 whiskers=1"
expect_chart "a driver's matrix: the cluster and its $NODES nodes that ran (not the failed one)" \
	matrix rate-0 "series=$((NODES + 1)) points=$(repeat "$INTERVALS" $((NODES + 1))) bands=$STALLS bars=0 whiskers=0"
expect_match "a driver's matrix: the nodes' series named by host" "$WORK/matrix.dom" \
	"data-name=\"node$NODES\""
expect_no_match "a driver's matrix: no series for the failed node" "$WORK/matrix.dom" 'data-name="node9"'

load real
n=$(gen intervals "$WORK/real.json")
if [ "$n" -eq 0 ]; then
	expect_match "a real run without intervals: the page says no time series was recorded" \
		"$WORK/real.dom" 'No time series was recorded in real\.json'
	expect_chart "a real run without intervals: no rate chart" real rate-0 none
else
	got=$(gen count "$WORK/real.dom" rate-0)
	if [[ $got == "series=1 points=$n "* ]]; then
		ok "a real run: its rate over its $n intervals"
	else
		not_ok "a real run: its rate over its $n intervals" "in the DOM: $got"
	fi
fi
h=$(gen count "$WORK/real.dom" hist-0)
if [[ $h =~ ^series=1\ points=[1-9] ]]; then
	ok "a real run: its latency histogram"
else
	not_ok "a real run: its latency histogram" "DOM: $h"
fi
# The seed as the string that says it exactly, not a double's 1.5e+19;
# a setting that does not apply says "none", not JSON's null.
expect_match "a real run: its record has the seed as written" "$WORK/real.html" \
	"<td class=\"k\">settings\.seed_string</td><td class=\"k\">$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))[\"settings\"][\"seed_string\"])" "$WORK/real.json")</td>"
expect_no_match "a real run: no seed rounded to a double" "$WORK/real.html" 'settings\.seed</td>'
expect_match "a real run: a setting that does not apply says none" "$WORK/real.html" \
	'<td class="k">settings\.mix</td><td class="k">none</td>'
expect_no_match "a real run: no null in the record" "$WORK/real.html" '<td class="k">null</td>'
expect_match "a real run: its record has this kernel" "$WORK/real.dom" \
	"<td class=\"k\">system.kernel</td><td class=\"k\">$(uname -s) $(uname -r | sed 's/[.]/[.]/g')"

# --- A real driver document, from sshd nodes.
why=$(sshd_unusable)
if [ -n "$why" ]; then
	skip_check "a real atio-parallel.sh -o document" "cannot start sshd nodes: $why"
else
	sshd_start 2
	driver_setup
	run_driver THREADS="1 2" TESTS=seqread ITERATIONS=2 -o "$WORK/driver.json" node1 node2
	expect_code "the driver: exit 0" 0
	page "$WORK/driver.html" "$WORK/driver.json"
	load driver
	expect_chart "the driver: a bar with min-max whiskers per thread count" driver bars-0 \
		"series=0 points= bands=0 bars=2 whiskers=2"
	expect_match "the driver: the bars are labelled by test and thread count" "$WORK/driver.dom" \
		'Sequential read<tspan[^>]*>2 threads</tspan>|seqread<tspan[^>]*>2 threads</tspan>'
	expect_count "the driver: a table of nodes per test, with the threads each ran" "$WORK/driver.html" \
		'^<tr><td class="k">node[12]</td><td class="n">[0-9.]+ MB/s</td><td class="n">[0-9.]+%</td>.*<td class="n">[12]</td><td class="n">[0-9.]+ MiB</td></tr>$' 4
	expect_match "the driver: its record names its nodes" "$WORK/driver.dom" \
		'<td class="k">nodes\[1\]\.host</td><td class="k">node2</td>'
	# Each node's system as its atio said it: this kernel, the nodes'
	# filesystem.
	kernel=$(uname -sr)
	for n in node1 node2; do
		expect_match "the driver: its record has $n's kernel" "$WORK/driver.dom" \
			"<td class=\"k\">node $n\.system\.kernel</td><td class=\"k\">${kernel//./\\.} "
		expect_match "the driver: its record has $n's filesystem" "$WORK/driver.dom" \
			"<td class=\"k\">node $n\.filesystem</td><td class=\"k\">[a-z0-9]+</td>"
	done
	n=$(gen intervals "$WORK/driver.json")
	if [ "$n" -eq 0 ]; then
		expect_match "the driver without intervals: the page says no time series was recorded" \
			"$WORK/driver.dom" 'No time series was recorded in driver\.json'
	else
		got=$(gen count "$WORK/driver.dom" rate-0)
		if [[ $got == "series=3 points=$n,$n,$n "* ]]; then
			ok "the driver: the cluster's and its 2 nodes' rates over $n intervals"
		else
			not_ok "the driver: the cluster's and its 2 nodes' rates over $n intervals" \
				"in the DOM: $got"
		fi
	fi
fi
finish
