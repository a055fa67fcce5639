#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window left alone finishes its scan by itself.

For each folder and renderer, N times, with one busy process loading a core:
start the real inspector on a bare Xvfb under its own dbus-run-session (the
accessibility bus starts on demand) and send no input. Wait, from outside
and without sending the window anything, until the inspector and the X
server have gone idle (ovi_e2e.wait_idle reads /proc): either the scan is
over, or the window has stalled. Then take one screen grab and one read of
the accessibility tree. The scan must be over: every record row present,
and the progress bar gone. (Hidden stack pages stay in GTK 4.8's
accessibility tree, so the empty states are checked inside the process, in
tests/app.) Then input arrives (the pointer crosses the window) and, once
both are idle again, a second grab must be the same picture: a window that
had stalled looks different once input wakes it.

The "default" renderer is the inspector's own choice (main.c): on a machine
without a GPU render node, as CI's, that is cairo; GSK_RENDERER=gl forces
GTK's GL renderer on Mesa's software rasterizer.

  test-left-alone.py --build DIR [--renderers cairo,default]
                     --folder PATH:ROWS:TEXT:RUNS ...
A folder named tree=I,O,R is written first by ovi-bench-make (I iterations
of O operators and R overflow records each): tree=4,122,3 has 500 files.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovi_e2e  # noqa: E402


def one(args):
    """One run; inside its own D-Bus session. Prints one JSON line."""
    shots = tempfile.mkdtemp(prefix="ovi-e2e-")
    env = ovi_e2e.app_env(args.display, args.build,
                          None if args.renderer == "default" else args.renderer)
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    started = time.monotonic()
    proc = ovi_e2e.start_app([app, args.path], env)
    # No input and no AT-SPI call: the window is left alone until it and the
    # X server are idle.
    ovi_e2e.wait_idle([proc.pid, args.xvfb_pid])
    idle_after = time.monotonic() - started

    before = os.path.join(shots, "before.png")
    ovi_e2e.grab(args.display, before)
    tree = ovi_e2e.application()
    rows = ovi_e2e.table_rows(tree, "Overflow records")
    strings = tree.strings()
    progress = ovi_e2e.shown(tree.find("progress bar"))

    ovi_e2e.move_pointer(args.display, 600, 20)
    ovi_e2e.move_pointer(args.display, ovi_e2e.WIDTH - 1, ovi_e2e.HEIGHT - 1)
    ovi_e2e.wait_idle([proc.pid, args.xvfb_pid])
    after = os.path.join(shots, "after.png")
    ovi_e2e.grab(args.display, after)
    rows_after = ovi_e2e.table_rows(ovi_e2e.application(), "Overflow records")
    err = ovi_e2e.stop_app(proc)

    result = {
        "rows": len(rows) if rows is not None else -1,
        "rows_after_input": len(rows_after) if rows_after is not None else -1,
        "text_found": args.text in strings,
        "progress_bar": progress,
        "pixels_changed_by_input": ovi_e2e.differing_pixels(before, after),
        "criticals": [l for l in err.splitlines() if "CRITICAL" in l or "WARNING" in l][:5],
        "shots": shots,
        "idle_after_s": idle_after,
    }
    ovi_e2e.emit(result)


def check(result, expected_rows):
    problems = []
    if result["rows"] != expected_rows:
        problems.append("%d record rows after the wait, not %d" % (result["rows"], expected_rows))
    if not result["text_found"]:
        problems.append("the first overflow's operator is not shown")
    if result["progress_bar"]:
        problems.append("the progress bar is still shown")
    if result["pixels_changed_by_input"] != 0:
        problems.append("input changed %d pixels: the window had not finished by itself"
                        % result["pixels_changed_by_input"])
    if result["rows_after_input"] != result["rows"]:
        problems.append("input brought %d rows" % (result["rows_after_input"] - result["rows"]))
    if result["criticals"]:
        problems.append("warnings: %s" % result["criticals"])
    return problems


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--renderers", default="cairo,default")  # or gl, to force it
    p.add_argument("--folder", action="append", default=[])
    p.add_argument("--xvfb-pid", type=int)
    p.add_argument("--one", action="store_true")
    p.add_argument("--display")
    p.add_argument("--renderer")
    p.add_argument("--path")
    p.add_argument("--text")
    args = p.parse_args()
    if args.one:
        return one(args)

    skipped = ovi_e2e.skip_without(("Xvfb", "dbus-run-session", "import", "compare", "xdotool"))
    if skipped is not None:
        return skipped

    made = tempfile.mkdtemp(prefix="ovi-e2e-trees-")
    xvfb = ovi_e2e.Xvfb()
    busy = ovi_e2e.Busy()
    failures = 0
    total = 0
    try:
        for spec in args.folder:
            path, rows, text, runs = spec.rsplit(":", 3)
            if path.startswith("tree="):
                sizes = path[len("tree="):].split(",")
                path = os.path.join(made, "tree-" + "-".join(sizes))
                subprocess.run([os.path.join(args.build, "benchmarks", "ovi-bench-make"), "tree",
                                path] + sizes, check=True)
            for renderer in args.renderers.split(","):
                for i in range(int(runs)):
                    total += 1
                    r = ovi_e2e.in_private_session(
                        [sys.executable, os.path.abspath(__file__), "--one", "--build", args.build,
                         "--display", xvfb.display, "--renderer", renderer, "--path", path,
                         "--text", text, "--xvfb-pid", str(xvfb.proc.pid)])
                    try:
                        result = json.loads(r.stdout.strip().splitlines()[-1])
                        problems = check(result, int(rows))
                    except (IndexError, ValueError):
                        result, problems = {}, ["the run failed: " + r.stderr[-2000:]]
                    name = "%s, %s renderer, run %d" % (os.path.basename(path), renderer, i + 1)
                    if problems:
                        failures += 1
                        print("FAIL %s: %s (grabs in %s)" % (name, "; ".join(problems),
                                                             result.get("shots")))
                    else:
                        print("ok   %s: %d rows, idle after %.1f s, unchanged by input"
                              % (name, result["rows"], result["idle_after_s"]))
                        shutil.rmtree(result["shots"], ignore_errors=True)
                    sys.stdout.flush()
    finally:
        busy.close()
        xvfb.close()
        shutil.rmtree(made, ignore_errors=True)
    print("%d of %d runs finished by themselves" % (total - failures, total))
    return 1 if failures else 0


sys.exit(main())
