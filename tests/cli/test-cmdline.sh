#!/bin/bash
# The printed command line runs the same test again: the Cmdline of the -a
# and -v headers and the JSON's settings.cmdline, pasted into a shell with
# -f, give settings identical to the first run's, for every kind of test;
# the cap is written --cap (--rate is its other name), so that grep rate
# still finds the result line alone.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null 2>&1 || skip "python3 is needed to compare the settings"

D=$WORK/d
mkdir "$D"
# An engine with a queue, for --iodepth: io_uring or libaio where built.
run_atio --help
QUEUED=
for e in io_uring libaio; do
	if grep -q "this atio has .*$e" "$OUT"; then
		QUEUED=$e
		break
	fi
done

# same_settings WHAT FIRST SECOND [KEY...]: the "settings" objects of the
# JSON documents FIRST and SECOND are equal, but for the KEYs named.
same_settings() {
	local what=$1 diff

	diff=$(python3 - "$2" "$3" "${@:4}" <<'EOF'
import json, sys

a, b = (json.load(open(p))["settings"] for p in sys.argv[1:3])
for k in sys.argv[3:]:
    a.pop(k, None)
    b.pop(k, None)
print("; ".join("%s: %r then %r" % (k, a.get(k), b.get(k))
                for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)))
EOF
	) || diff="(the documents do not read: $diff)"
	if [ -z "$diff" ]; then
		ok "$what"
	else
		not_ok "$what" "$diff"
	fi
}

# paste OUTFILE LINE ARG...: run "atio LINE ARG..." through a shell, as a
# user pasting LINE would, stdout to OUTFILE.
paste_run() {
	local out=$1 line=$2

	shift 2
	# shellcheck disable=SC2016 # $0 and $@ are the inner shell's.
	bash -c 'exec "$0" '"$line"' "$@"' "$ATIO" "$@" >"$out" 2>"$ERR"
}

# rerun WHAT [NOSEED] OPTION...: -a --json with OPTIONs, then its
# settings.cmdline and the -a header's Cmdline each pasted back: the same
# settings; with NOSEED "noseed", but for the seed drawn at random.
rerun() {
	local what=$1 skip=() line
	shift
	if [ "$1" = noseed ]; then
		skip=(seed seed_string)
		shift
	fi
	run_atio -a --json "$@" -f "$D"
	expect_code "$what: -a --json: exit 0" 0
	[ "$RC" -eq 0 ] || return 0
	cp "$OUT" "$WORK/first.json"
	line=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["settings"]["cmdline"])' \
		"$WORK/first.json")
	if paste_run "$WORK/again.json" "$line" -f "$D" --json; then
		same_settings "$what: settings.cmdline pasted back, the same settings" \
			"$WORK/first.json" "$WORK/again.json" "${skip[@]}"
	else
		not_ok "$what: settings.cmdline pasted back runs" "$line" "$(cat "$ERR")"
	fi
	run_atio -a "$@" -f "$D"
	line=$(sed -n 's/^Cmdline: //p' "$OUT")
	if paste_run "$WORK/again.json" "$line" -f "$D" --json; then
		same_settings "$what: the header's Cmdline pasted back, the same settings" \
			"$WORK/first.json" "$WORK/again.json" "${skip[@]}"
	else
		not_ok "$what: the header's Cmdline pasted back runs" "$line" "$(cat "$ERR")"
	fi
	expect_count "$what: -a prints no line with \"rate\"" "$OUT" rate 0
}

rerun "the defaults" noseed
rerun "a paced mixed test" --mix 70 --rand -s 4K -p 2 -t 0.3 -w 0.1 -u 8M --rate 800.5 \
	--seed 11 --interval 0.5 --no-thp --keep-cache --dsync
rerun "a sequential write of a shape" noseed --write --seq -s 64K --stride 128K --backward \
	-p 1 -u 4M --size 1M --loops 2 --delay 0.1 --fadvise sequential --compress 2 \
	--dedup 4 --dedup-unit 8K
rerun "syncs, a distribution, sized by the node" --fsync --rand -s 4K -q 8 --iops \
	-p auto -u auto --dist zipf:1.1 --seed 5 --verify -S
rerun "a mix of sizes, uncached" noseed --read --rand -s 4K/50,64K --mbs -p 3 -n 5 -t 2m \
	--uncached -u 64M --cap 20
rerun "--rewrite" noseed --rewrite --rand -s 4K -u 8M -t 1
rerun "--expand" noseed --expand --seq -s 1M -p 2 -u 8M -t 1 --osync
rerun "the null engine" --engine null --read --rand -s 4K --seed 3
rerun "--percentiles" noseed --read --rand -s 4K --percentiles 50,99.9,99.99
if [ -n "$QUEUED" ]; then
	rerun "$QUEUED with a queue" noseed --engine "$QUEUED" --iodepth 16 --iodepth-batch 4 \
		--read --rand -s 4K --uncached -u 8M -t 1
	run_atio -a --engine "$QUEUED" --iodepth 16 --rand -s 4K -f "$D"
	expect_match "-a --engine $QUEUED --iodepth 16: both on the Cmdline" "$OUT" \
		"^Cmdline: -a --read --rand .* --engine $QUEUED --iodepth 16$"
else
	skip_check "--iodepth on the Cmdline" "this atio has neither io_uring nor libaio"
fi

# A run, not -a: the result line alone holds "rate", and the -v header's
# Cmdline, pasted back with --json, gives the run's settings.
run_atio -v --engine null --rand -p 2 -t 0.3 --rate 5000 --seed 9
expect_code "-v --engine null --rate 5000: exit 0" 0
check_result "-v --rate 5000: \"rate\" on the result line alone" IOPS
expect_match "-v --rate 5000: the Cmdline says --cap" "$OUT" '^Cmdline: --read --rand .* --cap 5000 '
line=$(sed -n 's/^Cmdline: //p' "$OUT")
run_atio -a --json --engine null --rand -p 2 -t 0.3 --rate 5000 --seed 9
cp "$OUT" "$WORK/first.json"
if paste_run "$WORK/again.json" "-a $line" --json; then
	same_settings "-v: its Cmdline pasted back, the same settings" "$WORK/first.json" \
		"$WORK/again.json"
else
	not_ok "-v: its Cmdline pasted back runs" "$line" "$(cat "$ERR")"
fi

# --cap and --rate are one option: given both, it is given twice.
run_atio -a --engine null --cap 10 --rate 20
expect_code "--cap and --rate: exit 2" 2
expect_match "--cap and --rate: given twice, both values named" "$ERR" \
	'^atio: --cap given twice \(10 and 20\)'

finish
