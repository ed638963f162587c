#!/bin/bash
# include_cycles.py against small trees of its own: a circle of two headers
# (beside each other, and across folders through include/), of three
# through others, and one through <...>, each found and named; the same
# trees with the circle broken by a forward declaration pass.
set -eu

command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is needed"; exit 77; }
CHECK=${1:?usage: test-include-cycles.sh INCLUDE_CYCLES_PY}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

fails=0
# expect RC DIR WORD...: include_cycles.py DIR exits RC and its output holds every WORD.
expect() {
	local rc=$1 dir=$2 out got=0
	shift 2
	out=$(python3 "$CHECK" "$dir") || got=$?
	if [ "$got" != "$rc" ]; then
		echo "FAIL: $dir: exit $got, expected $rc"; echo "$out"; fails=$((fails + 1))
		return 0
	fi
	for w in "$@"; do
		case $out in
		*"$w"*) ;;
		*) echo "FAIL: $dir: no \"$w\" in:"; echo "$out"; fails=$((fails + 1)) ;;
		esac
	done
}

# header FILE LINE...: write FILE (under the tree) with an include guard around LINEs.
header() {
	local f=$1
	shift
	mkdir -p "$(dirname "$f")"
	{ echo "#ifndef G_$RANDOM"; printf '%s\n' "$@"; echo "#endif"; } >"$f"
}

# Two headers of two folders that include each other.
d=$T/two
header "$d/include/atio/run/a.h" '#include <stdint.h>' '#include "atio/data/b.h"' 'struct a { struct b *b; };'
header "$d/include/atio/data/b.h" '#include "atio/run/a.h"' 'struct b { struct a a; };'
expect 1 "$d" "2 headers include each other" \
	'include/atio/data/b.h -> include/atio/run/a.h (#include "atio/run/a.h")' \
	'include/atio/run/a.h -> include/atio/data/b.h (#include "atio/data/b.h")' "1 circles"
# Broken by a forward declaration in the upper one.
header "$d/include/atio/run/a.h" '#include <stdint.h>' 'struct b;' 'struct a { struct b *b; };'
expect 0 "$d" "0 circles"

# Three, through each other, beside each other in src/.
d=$T/three
header "$d/src/cli/x.h" '#include "y.h"'
header "$d/src/cli/y.h" '#include "z.h"'
header "$d/src/cli/z.h" '#include "x.h"'
header "$d/src/cli/w.h" '#include "x.h"'
expect 1 "$d" "3 headers include each other" "src/cli/z.h -> src/cli/x.h" "1 circles"
case $(python3 "$CHECK" "$d" || true) in
*"src/cli/w.h ->"*) echo "FAIL: w.h, outside the circle, is listed in it"; fails=$((fails + 1)) ;;
esac
header "$d/src/cli/z.h" 'struct x;'
expect 0 "$d" "4 headers, 3 includes, 0 circles"

# Through <...>; a header of the system (not in the tree) is left out.
d=$T/angle
header "$d/include/atio/base/p.h" '#include <atio/base/q.h>' '#include <time.h>'
header "$d/include/atio/base/q.h" '#include <atio/base/p.h>'
expect 1 "$d" "include/atio/base/q.h -> include/atio/base/p.h"
header "$d/include/atio/base/q.h" 'struct p;'
expect 0 "$d" "0 circles"

[ "$fails" = 0 ] || exit 1
echo "include_cycles: every circle found, every tree without one passed"
