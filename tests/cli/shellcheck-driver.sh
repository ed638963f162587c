#!/bin/bash
# The cluster driver through shellcheck as one script: scripts/atio-parallel.sh
# with each part it sources written in place of its source line. Checked
# part by part, a part cannot know the variables the others set and read
# (each part turns off the checks that need them: SC2034, SC2153); here
# the checks across parts work as they did when the driver was one file: a
# variable set and never read, a misspelt one, an associative array
# declared in another part. Also: the driver checks that it can read, then
# sources, every file of scripts/atio-parallel/, and nothing else.
#
# Usage: shellcheck-driver.sh SHELLCHECK SRCDIR
set -eu

shellcheck=$1
driver=$2/scripts/atio-parallel.sh
parts=$2/scripts/atio-parallel
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0

# shellcheck disable=SC2016 # the driver's own text
mapfile -t sourced < <(sed -n 's|^\. "\$PARTS_DIR/\([a-z]*\.sh\)"$|\1|p' "$driver" | sort)
mapfile -t checked < <(sed -n 's/^for PART in \([a-z ]*\); do$/\1/p' "$driver" | tr ' ' '\n' |
	sed 's/$/.sh/' | sort)
mapfile -t present < <(cd "$parts" && find . -maxdepth 1 -name '*.sh' | sed 's|^\./||' | sort)
if [ "${sourced[*]}" != "${present[*]}" ] || [ "${checked[*]}" != "${present[*]}" ]; then
	printf 'atio-parallel.sh sources: %s\nit checks first: %s\nscripts/atio-parallel/ has: %s\n' \
		"${sourced[*]}" "${checked[*]}" "${present[*]}" >&2
	status=1
fi

# The parts' leading directives (shell=, disable=) would apply to a whole
# file: left out. A "# --- PART" line marks where each part begins.
awk -v dir="$parts" '
/^\. "\$PARTS_DIR\/[a-z]+\.sh"$/ {
	f = $0
	sub(/^\. "\$PARTS_DIR\//, "", f)
	sub(/"$/, "", f)
	print "# --- " f
	n = 0
	while ((getline l < (dir "/" f)) > 0) {
		if (++n <= 3 && l ~ /^# shellcheck (shell|disable)=/)
			continue
		print l
	}
	close(dir "/" f)
	next
}
{ print }' "$driver" >"$work/atio-parallel.sh"
if ! (cd "$work" && "$shellcheck" atio-parallel.sh); then
	echo "where the parts begin in that file:" >&2
	grep -n '^# --- ' "$work/atio-parallel.sh" >&2
	status=1
fi
exit "$status"
