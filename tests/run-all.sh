#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds Overflow Inspector from scratch and runs every test headless (Xvfb,
# a private D-Bus session), then again in a clang build with AddressSanitizer
# and UndefinedBehaviorSanitizer, then a short run of every fuzz target,
# then the Flatpak in its sandbox when its runtime is cached (else one line
# says why it did not run and how to run it). Each stage
# says how long it took.
# Ends with "N passed, N failed, N skipped" over all of them.
#   OVI_FUZZ_SECONDS   seconds per fuzz target (default 15)
#   OVI_SKIP_SANITIZERS=1  only the normal build
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
passed=0 failed=0 skipped=0

summary () {
  echo "$passed passed, $failed failed, $skipped skipped"
}

# stage_done: says how long the stage that just ended took.
stage_start=$SECONDS
stage_done () {
  echo "-- $((SECONDS - stage_start)) s"
  stage_start=$SECONDS
}

echo "== packages"
if ! bash tests/install-deps.sh; then
  failed=1
  summary
  exit 1
fi
stage_done

export XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"
trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT

# count_results BUILD_DIR: adds meson's results to the totals.
count_results () {
  local counts
  counts=$(/usr/bin/python3 - "$1/meson-logs/testlog.json" <<'PY'
import json, sys
p = f = s = 0
try:
    for line in open(sys.argv[1]):
        r = json.loads(line)["result"]
        if r in ("OK", "EXPECTEDFAIL"):
            p += 1
        elif r == "SKIP":
            s += 1
        else:
            f += 1
except FileNotFoundError:
    f = 1
print(p, f, s)
PY
)
  read -r p f s <<<"$counts"
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}

# build_and_test NAME BUILD_DIR TEST_ARGS MESON_ARGS...: configure, build, run the suite.
build_and_test () {
  local name=$1 build=$2 test_args=$3
  shift 3
  echo "== $name"
  rm -rf "$build"
  if ! "$@" >"$build.log" 2>&1 || ! ninja -C "$build" >>"$build.log" 2>&1; then
    tail -n 60 "$build.log"
    failed=$((failed + 1))
    stage_done
    return
  fi
  echo "-- built in $((SECONDS - stage_start)) s"
  dbus-run-session -- xvfb-run -a -s '-screen 0 1280x1024x24' \
    meson test -C "$build" --print-errorlogs --num-processes 2 --timeout-multiplier 3 $test_args
  count_results "$build"
  stage_done
}

build_and_test "normal build" _build-ci "" meson setup _build-ci

if [ "${OVI_SKIP_SANITIZERS:-0}" != 1 ]; then
  # Third-party leaks at exit (fontconfig, GTK's caches) are suppressed in
  # tests/lsan.supp, each with its reason; the project's own are not.
  export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
  # The end-to-end suite times the real window as a user meets it, and the
  # benchmark measures speed and memory: not in a build that runs several
  # times slower and keeps freed memory in quarantine.
  CC=clang build_and_test "AddressSanitizer + UndefinedBehaviorSanitizer build" _build-asan \
    "--no-suite e2e --no-suite bench" \
    meson setup _build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dfuzzing=true

  # Two targets at a time, one per core: the machine has two.
  echo "== fuzzing, ${OVI_FUZZ_SECONDS:-15} s per target, two at a time"
  fuzz_one () {
    local target=$1 corpus
    corpus=$(mktemp -d)
    TMPDIR=/dev/shm ASAN_OPTIONS=max_malloc_fill_size=0:quarantine_size_mb=8:detect_leaks=1 \
      _build-asan/tests/fuzz/fuzz-$target -max_total_time="${OVI_FUZZ_SECONDS:-15}" \
        -print_final_stats=1 "$corpus" "tests/fuzz/corpus/$target" >"_build-asan/fuzz-$target.log" 2>&1
    echo $? >"_build-asan/fuzz-$target.rc"
    rm -rf "$corpus"
  }
  targets=(file-name dump-file overflow mapping folder nano csv npy diff-map diff-pairing report-json)
  for ((i = 0; i < ${#targets[@]}; i += 2)); do
    fuzz_one "${targets[i]}" &
    [ $((i + 1)) -lt ${#targets[@]} ] && fuzz_one "${targets[i + 1]}" &
    wait
  done
  for target in "${targets[@]}"; do
    if [ "$(cat "_build-asan/fuzz-$target.rc" 2>/dev/null)" = 0 ]; then
      echo "fuzz-$target: $(grep -m1 'stat::number_of_executed_units' "_build-asan/fuzz-$target.log" | awk '{print $2}') runs, no finding"
      passed=$((passed + 1))
    else
      tail -n 40 "_build-asan/fuzz-$target.log"
      echo "fuzz-$target: FAILED"
      failed=$((failed + 1))
    fi
  done
  stage_done
fi

# --- Flatpak (tests/flatpak/run.sh) -------------------------------------
# Runs when its stand-in runtime is cached (building one takes minutes and
# fetches Debian packages) or when OVI_FLATPAK=1 asks for it.
if [ "${OVI_FLATPAK:-0}" = 1 ] || bash tests/flatpak/build-runtime.sh --check 2>/dev/null; then
  echo "== Flatpak in its sandbox (stand-in runtime)"
  flatpak_last=$(bash tests/flatpak/run.sh 2>&1 | tee _build-flatpak.log | tail -n 1)
  if [[ $flatpak_last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
    passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2]))
    skipped=$((skipped + ${BASH_REMATCH[4]:-0}))
    # A failure names itself in the CI output, not only in a log CI drops.
    [ "${BASH_REMATCH[2]}" -eq 0 ] || grep -E '^FAIL ' _build-flatpak.log | cut -c1-2000
  else
    tail -n 40 _build-flatpak.log
    failed=$((failed + 1))
  fi
  echo "flatpak: $flatpak_last"
  stage_done
else
  # Said, not skipped in silence: what did not run, why, and how to run it.
  if ! command -v flatpak-builder >/dev/null 2>&1; then
    why="flatpak-builder is not installed (tests/install-deps.sh installs it)"
  else
    why="no stand-in runtime is cached in ${OVI_FLATPAK_CACHE:-/var/cache/overflow-inspector-flatpak}"
  fi
  echo "== Flatpak skipped: $why; to run it: OVI_FLATPAK=1 bash tests/run-all.sh, or bash tests/flatpak/run.sh alone (building the runtime first takes minutes and downloads Debian packages)"
fi
# --- end of Flatpak ---------------------------------------------------------

summary
[ "$failed" -eq 0 ]
