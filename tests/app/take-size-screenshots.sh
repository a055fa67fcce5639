#!/bin/sh
# Takes the screen grabs in data/screenshots/sizes: every page (Overflows,
# Operators, tensor view, Compare, Timeline, Problems) at 800x600, 1200x800
# and 1920x1080, in English and in Chinese, as PAGE-WxH[-zh_CN].png. The UI
# test /app/window/sizes opens data/example-dump (the Timeline:
# data/example-cluster), fails if a needed label is ellipsized, and saves
# each page.
#
# Usage: tests/app/take-size-screenshots.sh [BUILD_DIR]     (default: _build)
set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/_build}" && pwd)
out="$src/data/screenshots/sizes"

ninja -C "$build"
mkdir -p "$out"

for language in "" zh_CN; do
  dbus-run-session -- xvfb-run -a -s '-screen 0 2000x1200x24' \
    env OVI_SIZES_DIR="$out" \
        OVI_EXAMPLE_DIR="$src/data/example-dump" \
        OVI_LOCALEDIR="$build/po" \
        LANGUAGE="$language" \
        GSETTINGS_BACKEND=memory \
        GSETTINGS_SCHEMA_DIR="$build/data" \
        GSK_RENDERER=cairo \
        GDK_DEBUG=gl-disable \
        GTK_A11Y=none \
        NO_AT_BRIDGE=1 \
        LC_ALL=C.UTF-8 \
    "$build/tests/app/test-app-window" -p /app/window/sizes
done

ls -l "$out"
