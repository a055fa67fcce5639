#!/usr/bin/python3
"""A 21,500-file folder in the real window, left alone, default renderer.

The command-line report of the same folder is timed first, with the same
busy process loading a core. The window must then have every row within
10 s and within 3 times the report's time: all 1,500 records (the sidebar's
count for the folder) and all 20,000 operators (the progress line names
them while their classes are worked out, or is gone). When the summaries
are done is not timed here. Then Escape, pressed 0.5 s after the
window is on screen (mid-scan: fewer than the 1,500 records ever arrive),
must stop new rows: the sidebar's count, read at least 200 ms after the
press and again 2 s later, must not change; the progress bar must be gone
and the window must say the result is partial.

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

APP_CLASS = "overflow-inspector"
RECORDS = 1500  # ovi-bench-make tree DIR 50 400 30: 50 x (400 ops + 30 records)
OPERATORS = 20000  # every operator row is in once the window says "Summarizing ... of 20000"


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
    progress = ovi_e2e.shown(tree.find("progress bar"))
    summarizing = [s for s in tree.strings() if s.startswith("Summarizing operators")]
    ovi_e2e.stop_app(proc)
    ovi_e2e.emit({"total": total, "progress_bar": progress, "shots": shots,
                  "summarizing": summarizing[0] if summarizing else None})


def one_cancel(args):
    env = ovi_e2e.app_env(args.display, args.build)
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    proc = ovi_e2e.start_app([app, args.path], env)
    # Escape as soon as the window is on screen, as a user who opened the
    # wrong folder does; then find the count it shows.
    subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--classname", APP_CLASS],
                   env=dict(os.environ, DISPLAY=args.display), stdout=subprocess.DEVNULL,
                   timeout=30)
    time.sleep(args.wait)
    ovi_e2e.press_key(args.display, "Escape")  # the Cancel shortcut
    pressed = time.monotonic()
    label = ovi_e2e.sidebar_count_label(timeout=5)
    busy = True
    if label is None:
        ovi_e2e.emit({"error": "the sidebar never showed a count"})
        ovi_e2e.stop_app(proc)
        return
    time.sleep(0.2)
    at_200ms = int(label.get_name())
    read_at = time.monotonic() - pressed
    time.sleep(2)
    later = int(label.get_name())
    tree = ovi_e2e.application()
    strings = tree.strings()
    progress = ovi_e2e.shown(tree.find("progress bar"))
    ovi_e2e.stop_app(proc)
    ovi_e2e.emit({"busy_when_pressed": busy, "at_200ms": at_200ms, "read_after_s": read_at,
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

    skipped = ovi_e2e.skip_without(("Xvfb", "dbus-run-session", "import", "compare", "xdotool"))
    if skipped is not None:
        return skipped

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
            if "error" in r:
                problems.append(r["error"])
            elif r.get("total") != RECORDS:
                problems.append("sidebar shows %s records, not %d" % (r.get("total"), RECORDS))
            elif r["progress_bar"] and not (r["summarizing"] or "").endswith(" of %d" % OPERATORS):
                problems.append("still scanning: %s" % r["summarizing"])
            print("%s complete, run %d: %s" % (
                "FAIL" if problems else "ok  ", i + 1, "; ".join(problems) or
                "all %d records and %d operator rows after %.2f s (%s)"
                % (RECORDS, OPERATORS, wait, r["summarizing"] or "progress bar gone")))
            if problems:
                failures.append(problems)
            else:
                shutil.rmtree(r["shots"], ignore_errors=True)

        r = run_one(args, xvfb, "cancel", 0.5)
        problems = []
        if "error" in r:
            problems.append(r["error"])
        else:
            if r["later"] >= RECORDS:
                problems.append("the scan was over before Escape was pressed")
            if r["at_200ms"] != r["later"]:
                problems.append("rows kept coming after 200 ms: %s then %s"
                                % (r["at_200ms"], r["later"]))
            if not r["partial_said"]:
                problems.append("the window does not say the result is partial")
            if r["progress_bar"]:
                problems.append("progress bar still shown after Cancel")
        print("%s cancel: %s" % ("FAIL" if problems else "ok  ", "; ".join(problems) or
                                 "%s records at +%.0f ms after Escape, %s two seconds later"
                                 % (r["at_200ms"], 1000 * r["read_after_s"], r["later"])))
        if problems:
            failures.append(problems)
    finally:
        busy.close()
        xvfb.close()
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)
    return 1 if failures else 0


sys.exit(main())
