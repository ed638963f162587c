#!/bin/bash
# --dist: skewed random offsets, read from -vvv's trace of each submit with
# the null engine (no I/O, every draw traced). A fixed --seed makes each
# run's draws the same, so each check looks at the first $D of them: the
# shares of the hottest blocks and the number of blocks touched as zipf
# says, against the same sums worked out here; the hot block moves with
# --seed and only with it; normal's deviation within 2% of the one asked;
# hot spots' shares within 1 point, none in a gap. The exact tests of the
# samplers (chi-square, the permutation a bijection) are
# tests/unit/run/test_dist.c. The header, a Cmdline that runs the same
# again, JSON; bad values refused.
set -eu
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

D=20000
DIR=$WORK/dir
mkdir "$DIR"

# blocks [THREAD]: the 4K block numbers the thread (0 if not given)
# submitted, one a line, the first $D of them.
blocks() {
	sed -n "s/^atio: \[${1:-0}\] submit read(fd -1, 4096 bytes, offset \([0-9]*\))\$/\1/p" "$ERR" |
		head -n "$D" | awk '{ print $1 / 4096 }'
}

# run_dist SPEC -u SIZE [ARG...]: one thread's -vvv trace of --dist SPEC.
# The run is long enough for $D draws on a busy machine (the null engine
# does about 100000 traced I/Os a second here).
run_dist() {
	local spec=$1

	shift
	run_atio --engine null --read --rand --dist "$spec" -s 4K -p 1 -t 3 -vvv "$@" -f "$DIR"
	expect_code "--dist $spec $*: exit 0" 0
	if [ "$(blocks | wc -l)" -lt "$D" ]; then
		not_ok "--dist $spec: $D draws traced" "only $(blocks | wc -l) in $LAST"
		return 1
	fi
}

# zipf:1 over 64 blocks: the shares of the four hottest blocks (those
# drawn most) are 1/H, 1/2H, 1/3H, 1/4H with H the 64th harmonic number,
# each within 1 point; every block is drawn.
run_dist zipf:1 -u 256K --seed 5
want=$(awk 'BEGIN { for (k = 1; k <= 64; k++) h += 1 / k;
	for (k = 1; k <= 4; k++) printf "%.4f ", 1 / k / h }')
got=$(blocks | sort -n | uniq -c | sort -rn | head -4 |
	awk -v d="$D" '{ printf "%.4f ", $1 / d }')
check "zipf:1: the four hottest blocks' shares ($got) near $want" \
	awk -v w="$want" -v g="$got" 'BEGIN { n = split(w, a, " "); split(g, b, " ");
		for (i = 1; i <= n; i++) if (b[i] - a[i] > 0.01 || a[i] - b[i] > 0.01) exit 1 }'
check "zipf:1: all 64 blocks drawn" [ "$(blocks | sort -u | wc -l)" = 64 ]
hot5=$(blocks | sort -n | uniq -c | sort -rn | head -1 | awk '{ print $2 }')
first=$(blocks | head -100 | md5sum)

# The same seed, the same draws; another seed, another hot block (its
# share the same); no --seed, the hot block of no --seed every time.
run_dist zipf:1 -u 256K --seed 5
check "zipf:1 --seed 5 again: the same draws" [ "$(blocks | head -100 | md5sum)" = "$first" ]
run_dist zipf:1 -u 256K --seed 6
hot6=$(blocks | sort -n | uniq -c | sort -rn | head -1 | awk '{ print $2 }')
check "zipf:1 --seed 6: the hottest block moves (block $hot5, then $hot6)" [ "$hot5" != "$hot6" ]
run_dist zipf:1 -u 256K
hot_a=$(blocks | sort -n | uniq -c | sort -rn | head -1 | awk '{ print $2 }')
run_dist zipf:1 -u 256K
hot_b=$(blocks | sort -n | uniq -c | sort -rn | head -1 | awk '{ print $2 }')
check "zipf:1 without --seed: the same hottest block each run ($hot_a, $hot_b)" \
	[ "$hot_a" = "$hot_b" ]

# Blocks touched over a large file: $D draws of zipf:0.8 over 2^18 blocks
# touch sum_k 1 - (1 - p_k)^D of them, within 3%; a scatter that is not a
# permutation folds ranks onto one block and touches far fewer.
run_dist zipf:0.8 -u 1G --seed 11
want=$(awk -v d="$D" 'BEGIN { n = 262144; for (k = 1; k <= n; k++) s += k ^ -0.8;
	for (k = 1; k <= n; k++) t += 1 - exp(d * log(1 - k ^ -0.8 / s)); printf "%d", t }')
got=$(blocks | sort -u | wc -l)
check "zipf:0.8 over 1G: $got blocks touched, $want expected" \
	awk -v w="$want" -v g="$got" 'BEGIN { exit !(g > 0.97 * w && g < 1.03 * w) }'

# pareto:0.8: the hottest 20% of the blocks get 80% of the draws.
run_dist pareto:0.8 -u 4M --seed 3
got=$(blocks | sort -n | uniq -c | sort -rn | head -n 204 | awk -v d="$D" '{ s += $1 }
	END { printf "%.4f", s / d }')
check "pareto:0.8: the hottest 20% of 1024 blocks get $got of the draws" \
	awk -v g="$got" 'BEGIN { exit !(g > 0.79 && g < 0.81) }'

# normal:10% over 4096 blocks: centred on block 2048, a deviation of 409.6
# blocks within 2% (each block counted at its middle).
run_dist normal:10% -u 16M --seed 7
read -r mean sd < <(blocks | awk '{ x = $1 + 0.5; s += x; q += x * x }
	END { m = s / NR; printf "%.2f %.2f\n", m, sqrt(q / NR - m * m) }')
check "normal:10%: mean $mean near 2048" awk -v m="$mean" 'BEGIN { exit !(m > 2038 && m < 2058) }'
check "normal:10%: deviation $sd within 2% of 409.6" \
	awk -v s="$sd" 'BEGIN { exit !(s > 401.4 && s < 417.8) }'

# Hot spots over 1000 blocks: 90% to the first 10%, none to the next 10%,
# 5% to the next 20%, and the remainder (5%) on the rest of the share.
run_dist 90/10:0/10:5/20 -u 4000K --seed 9
got=$(blocks | awk -v d="$D" '{ z = $1 < 100 ? 1 : $1 < 200 ? 2 : $1 < 400 ? 3 : 4; c[z]++ }
	END { printf "%.2f %.2f %.2f %.2f", 100 * c[1] / d, 100 * c[2] / d, 100 * c[3] / d,
		100 * c[4] / d }')
check "90/10:0/10:5/20: shares $got within 1 point of 90 0 5 5" \
	awk -v g="$got" 'BEGIN { split(g, b, " "); split("90 0 5 5", a, " ");
		for (i = 1; i <= 4; i++) if (b[i] - a[i] > 1 || a[i] - b[i] > 1) exit 1;
		exit b[2] != 0 }'

# Two threads: each draws within its own half of the file.
run_atio --engine null --read --rand --dist zipf:1.2 -s 4K -p 2 -n 1 -u 256K -t 0.5 -vvv \
	--seed 1 -f "$DIR"
expect_code "-p 2 --dist zipf:1.2: exit 0" 0
check "-p 2: thread 0 in blocks 0-31" [ "$(blocks 0 | awk '$1 >= 32' | wc -l)" = 0 ]
check "-p 2: thread 1 in blocks 32-63" [ "$(blocks 1 | awk '$1 < 32' | wc -l)" = 0 ]
check "-p 2: thread 1 drew" [ "$(blocks 1 | wc -l)" -gt 100 ]

# --verify on writes draws a block ahead: still zipf, every block checked.
run_atio --write --rand --dist zipf:1 --seed 5 -s 4K -p 1 -u 256K -t 0.5 -vvv --verify \
	--iodepth 4 --engine io_uring -f "$DIR/v"
if grep -q "io_uring.*not" "$ERR" && [ "$RC" != 0 ]; then
	skip_check "--verify --dist" "io_uring is not available here"
else
	expect_code "--write --dist zipf:1 --verify: exit 0" 0
	expect_match "--verify --dist: read back, none bad" "$OUT" '^verify: .* none bad$'
	got=$(sed -n 's/^atio: \[0\] submit write(fd [0-9]*, 4096 bytes, offset \([0-9]*\))$/\1/p' \
		"$ERR" | sort -n | uniq -c | sort -rn | awk '{ s += $1; if (NR == 1) t = $1 }
		END { printf "%.3f", t / s }')
	check "--verify --dist zipf:1: the hottest block's share $got near 1/H(64) = 0.21" \
		awk -v g="$got" 'BEGIN { exit !(g > 0.17 && g < 0.25) }'
fi

# The header, a Cmdline that runs the same again, JSON.
run_atio -a --rand --dist zipf:1.2 --seed 4 -s 4K -u 1G -f "$DIR"
expect_match "-a: Cmdline" "$OUT" '^Cmdline: .*--rand --dist zipf:1.2 --seed 4 -s 4K '
expect_match "-a: Testcase" "$OUT" \
	'random read by 4KB blocks, zipf with theta 1.2 over a permutation of the blocks$'
cmd=$(sed -n 's/^Cmdline: //p' "$OUT")
# shellcheck disable=SC2086
run_atio $cmd -f "$DIR"
expect_match "the Cmdline runs again, the same" "$OUT" "^Cmdline: $cmd\$"
run_atio -a --json --rand --dist 90/10:0/10 -s 4K -u 1G -f "$DIR"
check "-a --json: the distribution" \
	[ "$(jq -r '.settings.distribution' "$OUT")" = '90/10:0/10' ]
run_atio -a --json --rand -s 4K -u 1G -f "$DIR"
check "-a --json: uniform without --dist" \
	[ "$(jq -r '.settings.distribution' "$OUT")" = 'uniform' ]

# Bad values: exit 2 naming the value.
for bad in "zipf:0" "zipf:-1" "zipf:x" "zipf" "pareto:1" "pareto:0" "normal:0" \
	"normal:101%" "gauss:5" "90/10:20/95" "50/60:50/50" "120/10" "90/10:5/90" "1/0"; do
	run_atio --read --rand --dist "$bad" -s 4K -u 1M -f "$DIR"
	expect_code "--dist $bad: exit 2" 2
	expect_match "--dist $bad: names it" "$ERR" "^atio: --dist $bad: "
done
# The longest spec the Cmdline carries whole, and one character more.
long=zipf:1.$(printf '0%.0s' $(seq 121))
run_atio -a --rand --dist "$long" --seed 3 -s 4K -u 1M -f "$DIR"
expect_code "--dist of 128 characters: exit 0" 0
expect_match "--dist of 128 characters: whole in the Cmdline, --seed after it" "$OUT" \
	"^Cmdline: .* --dist $long --seed 3 "
run_atio -a --rand --dist "${long}0" -s 4K -u 1M -f "$DIR"
expect_code "--dist of 129 characters: exit 2" 2
expect_match "--dist of 129 characters: says so" "$ERR" '^atio: --dist zipf:1\.0+\.\.\.: longer than 128 characters$'
run_atio --read --seq --dist zipf:1 -s 4K -u 1M -f "$DIR"
expect_code "--seq --dist: exit 2" 2
expect_match "--seq --dist: says why" "$ERR" '^atio: --dist zipf:1: .*--rand'

finish
