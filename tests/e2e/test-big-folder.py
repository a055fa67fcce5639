#!/usr/bin/python3
"""A 21,500-file folder in the real window, left alone, default renderer.

The command-line report of the same folder is timed first, with the same
busy process loading a core. The window must then show every overflow
record (the sidebar's count for the folder), with its progress bar gone,
within 10 s and within 3 times the report's time: one grab and one read of
the accessibility tree at that moment, and a second grab after input shows
the same picture. Then Cancel, pressed mid-scan, must stop new rows within
200 ms, and the window must say the result is partial.

  test-big-folder.py --build DIR [--runs N] [--keep DIR]
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

RECORDS = 1500  # ovi-bench-make tree DIR 50 400 30: 50 x (400 ops + 30 records)


def one_complete(args):
    env = ovi_e2e.app_env(args.display, args.build)
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    shots = tempfile.mkdtemp(prefix="ovi-e2e-big-")
    proc = ovi_e2e.start_app([app, args.path], env)
    time.sleep(args.wait)  # left alone
    before = os.path.join(shots, "before.png")
    ovi_e2e.grab(args.display, before)
    tree = ovi_e2e.application()
    total = ovi_e2e.sidebar_total(tree)
    progress = ovi_e2e.extents(tree.find("progress bar"))
    ovi_e2e.move_pointer(args.display, 600, 20)
    ovi_e2e.move_pointer(args.display, ovi_e2e.WIDTH - 1, ovi_e2e.HEIGHT - 1)
    time.sleep(2)
    after = os.path.join(shots, "after.png")
    ovi_e2e.grab(args.display, after)
    ovi_e2e.stop_app(proc)
    ovi_e2e.emit({"total": total, "progress_bar": progress, "shots": shots,
                  "pixels_changed_by_input": ovi_e2e.differing_pixels(before, after)})


def one_cancel(args):
    env = ovi_e2e.app_env(args.display, args.build)
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    proc = ovi_e2e.start_app([app, args.path], env)
    time.sleep(args.wait)
    tree = ovi_e2e.application()
    before = ovi_e2e.sidebar_total(tree)
    cancel = next((n for n in tree.walk() if n.role == "push button" and "Cancel" in n.name), None)
    if cancel is None:
        ovi_e2e.emit({"error": "no Cancel button"})
        ovi_e2e.stop_app(proc)
        return
    ovi_e2e.click(cancel)
    pressed = time.monotonic()
    time.sleep(0.2)
    at_200ms = ovi_e2e.sidebar_total(ovi_e2e.application())
    read_at = time.monotonic() - pressed
    time.sleep(2)
    tree = ovi_e2e.application()
    later = ovi_e2e.sidebar_total(tree)
    strings = tree.strings()
    progress = ovi_e2e.extents(tree.find("progress bar"))
    ovi_e2e.stop_app(proc)
    ovi_e2e.emit({"before": before, "at_200ms": at_200ms, "read_after_s": read_at,
                  "later": later,
                  "partial_said": any("cancelled" in s.lower() and "so far" in s.lower()
                                      for s in strings),
                  "progress_bar": progress})


def run_one(args, xvfb, mode, wait):
    r = ovi_e2e.in_private_session(
        [sys.executable, os.path.abspath(__file__), "--" + mode, "--build", args.build,
         "--display", xvfb.display, "--path", args.path, "--wait", str(wait)])
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (IndexError, ValueError):
        return {"error": r.stderr[-2000:]}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--keep")
    p.add_argument("--complete", action="store_true")
    p.add_argument("--cancel", action="store_true")
    p.add_argument("--display")
    p.add_argument("--path")
    p.add_argument("--wait", type=float)
    args = p.parse_args()
    if args.complete:
        return one_complete(args)
    if args.cancel:
        return one_cancel(args)

    for tool in ("Xvfb", "dbus-run-session", "import", "compare", "xdotool"):
        if shutil.which(tool) is None:
            print("skipped: %s is not installed" % tool)
            return 77

    top = args.keep or tempfile.mkdtemp(prefix="ovi-big-")
    args.path = os.path.join(top, "tree")
    if not os.path.isdir(args.path):
        subprocess.run([os.path.join(args.build, "benchmarks", "ovi-bench-make"), "tree",
                        args.path, "50", "400", "30"], check=True)
    cli = os.path.join(args.build, "src", "cli", "overflow-inspector-cli")
    xvfb = ovi_e2e.Xvfb()
    busy = ovi_e2e.Busy()
    failures = []
    try:
        start = time.monotonic()
        subprocess.run([cli, "report", args.path], stdout=subprocess.DEVNULL, check=True)
        cli_s = time.monotonic() - start
        wait = min(10.0, 3 * cli_s)
        print("CLI report: %.2f s; the window gets min(10 s, 3 x that) = %.2f s" % (cli_s, wait))

        for i in range(args.runs):
            r = run_one(args, xvfb, "complete", wait)
            problems = []
            if r.get("total") != RECORDS:
                problems.append("sidebar shows %s records, not %d" % (r.get("total"), RECORDS))
            pb = r.get("progress_bar")
            if pb is None or pb[2] * pb[3] > 0:
                problems.append("progress bar still shown (%s)" % pb)
            if r.get("pixels_changed_by_input", -1) != 0:
                problems.append("input changed %s pixels" % r.get("pixels_changed_by_input"))
            if "error" in r:
                problems.append(r["error"])
            print("%s complete, run %d: %s" % ("FAIL" if problems else "ok  ", i + 1,
                                               "; ".join(problems) or
                                               "all %d records after %.2f s, unchanged by input"
                                               % (RECORDS, wait)))
            if problems:
                failures.append(problems)
            else:
                shutil.rmtree(r["shots"], ignore_errors=True)

        r = run_one(args, xvfb, "cancel", 1.0)
        problems = []
        if "error" in r:
            problems.append(r["error"])
        else:
            if not (r["before"] is not None and r["before"] < RECORDS):
                problems.append("not mid-scan when Cancel was pressed (%s records)" % r["before"])
            if r["at_200ms"] != r["later"]:
                problems.append("rows kept coming after 200 ms: %s then %s"
                                % (r["at_200ms"], r["later"]))
            if not r["partial_said"]:
                problems.append("the window does not say the result is partial")
            if r["progress_bar"] is None or r["progress_bar"][2] * r["progress_bar"][3] > 0:
                problems.append("progress bar still shown after Cancel")
        print("%s cancel: %s" % ("FAIL" if problems else "ok  ", "; ".join(problems) or
                                 "%s records when pressed, %s at +%.0f ms, %s two seconds later"
                                 % (r["before"], r["at_200ms"], 1000 * r["read_after_s"],
                                    r["later"])))
        if problems:
            failures.append(problems)
    finally:
        busy.close()
        xvfb.close()
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)
    return 1 if failures else 0


sys.exit(main())
