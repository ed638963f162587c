#!/bin/sh
# Configure (once) and compile atio in ./build; safe to run again.
set -eu
cd "$(dirname "$0")/.."
if [ -f build/build.ninja ]; then
	meson setup --reconfigure build >/dev/null
else
	meson setup build
fi
meson compile -C build
