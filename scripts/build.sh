#!/bin/sh
# Configure (once) and compile in ./build; safe to run again. With no
# argument everything (atio, the tests, their sanitized copies); with
# files of build/ only those and what they need: `scripts/build.sh atio`.
set -eu
cd "$(dirname "$0")/.."
if [ -f build/build.ninja ]; then
	meson setup --reconfigure build >/dev/null
else
	meson setup build
fi
if [ $# -gt 0 ]; then
	ninja -C build "$@"
else
	meson compile -C build
fi
