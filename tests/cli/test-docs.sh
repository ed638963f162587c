#!/bin/bash
# The help, the man pages, the README and the bash completion change
# together: every option that `atio --help` or `atio-parallel.sh --help`
# defines is in the program's man page and completion, and atio's long
# options are in the README.
#
# Environment: ATIO (the binary), SRCDIR (the source tree).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

: "${SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
DRIVER=$SRCDIR/scripts/atio-parallel.sh

# The options a --help output defines: the leading option words of its
# lines that start with "  -", e.g. "  -h, --help   print ..." gives -h and
# --help.
defined_options() {
	sed -nE 's/^  (-[^ ].*)$/\1/p' "$1" |
		sed -E 's/(  |\t).*//; s/ [A-Z"][^,]*//g; s/,/ /g' |
		tr ' ' '\n' | grep -E '^--?[A-Za-z]' | sort -u
}

# in_man OPT FILE: the option as troff writes it, \- for every -.
in_man() {
	grep -qF -- "${1//-/\\-}" "$2"
}

# in_words OPT FILE: the option as a whole word.
in_words() {
	grep -qE -- "(^|[^-A-Za-z0-9])$1([^-A-Za-z0-9]|$)" "$2"
}

# agree PROGRAM HELP-FILE MAN COMPLETION [README]
agree() {
	local prog=$1 help=$2 man=$3 comp=$4 readme=${5:-} opt opts why

	mapfile -t opts < <(defined_options "$help")
	if [ ${#opts[@]} -lt 5 ]; then
		not_ok "$prog --help defines its options" "found only: ${opts[*]}"
		return
	fi
	why=()
	for opt in "${opts[@]}"; do
		in_man "$opt" "$man" || why+=("missing $opt")
	done
	verdict "$prog: the man page has all ${#opts[@]} options of --help"
	why=()
	for opt in "${opts[@]}"; do
		in_words "$opt" "$comp" || why+=("missing $opt")
	done
	verdict "$prog: the bash completion offers every option of --help"
	[ -n "$readme" ] || return 0
	why=()
	for opt in "${opts[@]}"; do
		[[ $opt == --* ]] || continue
		in_words "$opt" "$readme" || why+=("missing $opt")
	done
	verdict "$prog: the README names every long option of --help"
}

run_atio --help
expect_code "atio --help: exit 0" 0
cp "$OUT" "$WORK/atio.help"
# The README and the guides under doc/ together.
cat "$SRCDIR/README.md" "$SRCDIR"/doc/*.md >"$WORK/docs.md"
agree atio "$WORK/atio.help" "$SRCDIR/man/atio.1" "$SRCDIR/completions/atio" "$WORK/docs.md"

"$DRIVER" --help >"$WORK/driver.help" 2>&1 || die "atio-parallel.sh --help failed"
agree atio-parallel.sh "$WORK/driver.help" "$SRCDIR/man/atio-parallel.sh.1" \
	"$SRCDIR/completions/atio-parallel.sh"

# The check can fail: an option the docs lack is found.
printf '  --no-such-option      made up for this check\n' >>"$WORK/atio.help"
mapfile -t extra < <(defined_options "$WORK/atio.help")
if printf '%s\n' "${extra[@]}" | grep -qx -- --no-such-option &&
	! in_man --no-such-option "$SRCDIR/man/atio.1"; then
	ok "an option missing from the man page would be found"
else
	not_ok "an option missing from the man page would be found" "options: ${extra[*]}"
fi

finish
