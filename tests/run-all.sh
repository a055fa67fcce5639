#!/bin/bash
# Builds Overflow Inspector from scratch and runs every test headless (Xvfb,
# a private D-Bus session). Ends with "N passed, N failed, N skipped".
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash tests/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }

build=${OVI_BUILD_DIR:-_build-tests-all}
rm -rf "$build"
if ! meson setup "$build" >"$build.log" 2>&1 || ! ninja -C "$build" >>"$build.log" 2>&1; then
  tail -n 60 "$build.log"
  echo "0 passed, 1 failed"
  exit 1
fi

export XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"
dbus-run-session -- xvfb-run -a -s '-screen 0 1280x1024x24' \
  meson test -C "$build" --print-errorlogs --num-processes 2
status=$?
rm -rf "$XDG_RUNTIME_DIR"

/usr/bin/python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
counts = {"passed": 0, "failed": 0, "skipped": 0}
for line in open(sys.argv[1]):
    result = json.loads(line)["result"]
    if result in ("OK", "EXPECTEDFAIL"):
        counts["passed"] += 1
    elif result == "SKIP":
        counts["skipped"] += 1
    else:
        counts["failed"] += 1
print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
PY
exit $status
