#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Takes the screen grabs in data/screenshots from the real app window under
# Xvfb, through UI tests that open the example dump folder:
#
#   tests/app/take-screenshots.sh [BUILD_DIR]
#     the README's and docs/': /app/window/screenshots goes through the main views and saves
#     each in data/screenshots, and the tensor view again in Chinese as
#     tensor-zh_CN.png; /app/diff-page/screenshot saves the Diff page of two
#     generated runs as diff.png and diff-zh_CN.png; /app/graph-page/screenshot
#     the Graph page of a generated iteration as graph.png and graph-zh_CN.png.
#   tests/app/take-screenshots.sh --sizes [BUILD_DIR]
#     every page (Overflows, Operators, tensor view, Iterations, Timeline,
#     Problems, Diff) at 800x600, 1200x800 and 1920x1080, in English and in
#     Chinese, as data/screenshots/sizes/PAGE-WxH[-zh_CN].png. The test
#     test-sizes also fails if a label is cut or a column ends past the edge.
#
# BUILD_DIR defaults to _build.
set -eu

sizes=false
if [ "${1:-}" = --sizes ]; then
  sizes=true
  shift
fi
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$src/_build}" && pwd)

# run_test SCREEN LANGUAGE EXECUTABLE TEST_PATH VARIABLE=VALUE...
run_test() {
  screen=$1 language=$2 executable=$3 path=$4
  shift 4
  dbus-run-session -- xvfb-run -a -s "-screen 0 ${screen}x24" \
    env "$@" \
        OVI_EXAMPLE_DIR="$src/data/example-dump" \
        OVI_LOCALEDIR="$build/po" \
        LANGUAGE="$language" \
        GSETTINGS_BACKEND=memory \
        GSETTINGS_SCHEMA_DIR="$build/data" \
        GSK_RENDERER=cairo \
        GDK_DEBUG=gl-disable \
        GTK_A11Y=none \
        NO_AT_BRIDGE=1 \
        OVI_MAKE_GRAPH_ITERATION="$build/tests/fixtures/ovi-make-graph-iteration" \
        LC_ALL=C.UTF-8 \
    "$build/tests/app/$executable" -p "$path"
}

ninja -C "$build"
if $sizes; then
  out="$src/data/screenshots/sizes"
  mkdir -p "$out"
  for language in "" zh_CN; do
    run_test 2000x1200 "$language" test-sizes /app/sizes/every-page OVI_SIZES_DIR="$out"
  done
else
  out="$src/data/screenshots"
  mkdir -p "$out"
  run_test 1600x1024 "" test-window /app/window/screenshots OVI_SCREENSHOT_DIR="$out"
  # The tensor view in Chinese too, as tensor-zh_CN.png.
  zh=$(mktemp -d)
  run_test 1600x1024 zh_CN test-window /app/window/screenshots OVI_SCREENSHOT_DIR="$zh"
  cp "$zh/tensor.png" "$out/tensor-zh_CN.png"
  rm -rf "$zh"
  for language in "" zh_CN; do
    run_test 1600x1024 "$language" test-diff-page /app/diff-page/screenshot \
      OVI_SCREENSHOT_DIR="$out"
    run_test 1600x1024 "$language" test-graph-page /app/graph-page/screenshot \
      OVI_SCREENSHOT_DIR="$out"
  done
fi
ls -l "$out"
