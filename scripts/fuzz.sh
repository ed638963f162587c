#!/bin/sh
# Fuzz atio's readers of outside input with libFuzzer, for as long as one
# likes: scripts/fuzz.sh [TARGET] [SECONDS]
#
#   TARGET   merge (atio merge's run and merge documents), report (atio
#            report's run, merge and driver documents), journal (the
#            journal --check reads), cli (the command line), or all (the
#            default: each in turn, SECONDS each)
#   SECONDS  how long each target runs (default 60)
#
# The targets (tests/fuzz/fuzz_TARGET.c) are built with clang,
# -fsanitize=fuzzer,address,undefined, in build-fuzz/ (FUZZ_BUILD to
# change it), and start from the corpus of the test suite,
# tests/fuzz/corpus/CORPUS (json for merge and report, else TARGET's
# name). What libFuzzer adds to it goes to
# build-fuzz/corpus/TARGET, an input that fails to
# build-fuzz/crash/TARGET-*. FUZZ_ARGS adds libFuzzer options (e.g.
# "-jobs=2 -seed=1"). Exit 0 when no target failed, 1 when one did (its
# input is named), 2 on bad usage or when it cannot be built here.
set -eu

die() {
	printf 'fuzz.sh: %s\n' "$*" >&2
	exit 2
}

TOP=$(cd "$(dirname "$0")/.." && pwd)
TARGETS='merge report journal cli'
target=${1:-all}
seconds=${2:-60}
build=${FUZZ_BUILD:-$TOP/build-fuzz}

case $seconds in
'' | *[!0-9]*) die "SECONDS: $seconds is not a whole number of seconds" ;;
esac
[ "$seconds" -gt 0 ] || die "SECONDS: give at least 1"
if [ "$target" = all ]; then
	list=$TARGETS
else
	case " $TARGETS " in
	*" $target "*) list=$target ;;
	*) die "TARGET: $target is not one of: $TARGETS all" ;;
	esac
fi
command -v clang >/dev/null 2>&1 ||
	die "clang is not installed (apt-get install clang, or dnf install clang): libFuzzer comes with it"
command -v meson >/dev/null 2>&1 || die "meson is not installed (scripts/install-deps.sh)"

if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$TOP" -Dfuzz=true -Db_sanitize=address,undefined \
		-Db_lundef=false -Dbuildtype=debugoptimized -Dc_args=-fno-sanitize-recover=all \
		-Dc_link_args=-fno-sanitize-recover=all >"$build.setup.log" 2>&1 ||
		{
			tail -n 20 "$build.setup.log" >&2
			die "meson setup of $build failed (log: $build.setup.log)"
		}
fi

# corpus_of TARGET: the directory of tests/fuzz/corpus/ its inputs start from.
corpus_of() {
	case $1 in
	merge | report) echo json ;;
	*) echo "$1" ;;
	esac
}

failed=''
for t in $list; do
	meson compile -C "$build" "tests/fuzz-$t" >/dev/null ||
		die "cannot build fuzz-$t in $build (meson compile -C $build tests/fuzz-$t)"
	mkdir -p "$build/corpus/$t" "$build/crash"
	printf 'fuzz.sh: %s for %s s\n' "$t" "$seconds" >&2
	# shellcheck disable=SC2086 # FUZZ_ARGS is a list of options
	if ! "$build/tests/fuzz-$t" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$build/crash/$t-" ${FUZZ_ARGS:-} \
		"$build/corpus/$t" "$TOP/tests/fuzz/corpus/$(corpus_of "$t")"; then
		failed="$failed $t"
	fi
done
if [ -n "$failed" ]; then
	printf 'fuzz.sh: failed:%s (the inputs: %s/crash/; run one again: %s/tests/fuzz-TARGET FILE)\n' \
		"$failed" "$build" "$build" >&2
	exit 1
fi
printf 'fuzz.sh: %s: no failure\n' "$list" >&2
