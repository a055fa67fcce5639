#!/bin/sh
# Takes the screenshots in data/screenshots from the real app window under
# Xvfb: the UI test /app/screenshots opens the example dump folder, goes
# through the main views and saves each as a PNG.
#
# Usage: tests/app/take-screenshots.sh [BUILD_DIR]     (default: _build)
set -eu

src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/_build}" && pwd)
out="$src/data/screenshots"

ninja -C "$build"
mkdir -p "$out"

dbus-run-session -- xvfb-run -a -s '-screen 0 1600x1024x24' \
  env OVI_SCREENSHOT_DIR="$out" \
      OVI_EXAMPLE_DIR="$src/data/example-dump" \
      GSETTINGS_BACKEND=memory \
      GSETTINGS_SCHEMA_DIR="$build/data" \
      GSK_RENDERER=cairo \
      GTK_A11Y=none \
      LC_ALL=C.UTF-8 \
  "$build/tests/app/test-app-window" -p /app/screenshots

ls -l "$out"
