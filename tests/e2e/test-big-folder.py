#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A 21,500-file folder in the real window, left alone, default renderer.

The command-line report of the same folder is timed first, with the same
busy process loading a core. The window must then have every row within
10 s and within 3 times the report's time: all 1,500 records (the sidebar's
count for the folder) and all 20,000 operators (the progress line names
them while their classes are worked out, or is gone). When the summaries
are done is not timed here. Then Cancel, on a folder six times as large
(129,000 files; a machine that scans all of it before the key can be sent
gets it again twice, then four times as large): Escape is
pressed only once the window shows the scan under way and far from its end:
the progress bar shown, the sidebar's count below the folder's 9,000
records by more than the window takes in a second at the pace it shows in
this run (a count just below the total, read a moment before the key
arrives, may be the total when it does).
It must stop new rows: the sidebar's count read 200 ms after the press must
be the count once the window says the result is partial and it and the X
server have gone idle; the progress bar must be gone.

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
# The folder Cancel is pressed in: 300 x (400 ops + 30 records). A machine
# that scans it before the count can be read a second before its end gets
# the test again with twice as many iterations, then four times.
CANCEL_ITERATIONS = (300, 600, 1200)


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
    started = time.monotonic()

    # Escape once the scan is shown under way and far from finished, as a
    # user who opened the wrong folder presses it. The sidebar's count and
    # the progress bar are found once (a walk of the tree, slow while the
    # window is busy), then only read. The count must be at least a second
    # of this run's pace below the total: the key takes a moment to arrive.
    def label_and_bar():
        label = ovi_e2e.sidebar_count_label(timeout=0)
        if label is None:
            return None
        if int(label.get_name()) >= args.records:
            return "late"
        bar = ovi_e2e.find_outside_tables(lambda o, role, name: role == "progress bar", 0)
        return (label, bar) if bar else None

    found = ovi_e2e.wait_for(label_and_bar)
    reads = []
    if found == "late":
        ovi_e2e.emit({"late": True, "error": "the window had every record before its count"
                      " and progress bar were found"})
        ovi_e2e.stop_app(proc)
        return

    def under_way():
        label, bar = found
        count = int(label.get_name())
        reads.append((time.monotonic(), count))
        if count >= args.records:
            return "late", count
        if len(reads) < 2 or reads[-1][0] - reads[0][0] < 0.1 or not ovi_e2e.obj_shown(bar):
            return None
        pace = (reads[-1][1] - reads[0][1]) / (reads[-1][0] - reads[0][0])
        return (label, count) if count + pace * 1.0 < args.records else None

    seen = ovi_e2e.wait_for(under_way, interval=0.01) if found else None
    if not seen or seen[0] == "late":
        ovi_e2e.emit({"late": bool(seen), "error": "the window never showed the scan under way a second before its end"
                      "%s" % ("; counts read: %s" % [c for _, c in reads[:10]] if reads else "")})
        ovi_e2e.stop_app(proc)
        return
    label, at_press = seen
    ovi_e2e.press_key(args.display, "Escape")  # the Cancel shortcut
    pressed = time.monotonic()
    time.sleep(0.2)  # the bound itself: no row may arrive later than this
    at_200ms = int(label.get_name())
    read_at = time.monotonic() - pressed
    said = ovi_e2e.find_outside_tables(
        lambda o, role, name: "cancelled" in name.lower() and "so far" in name.lower())
    ovi_e2e.wait_idle([proc.pid, args.xvfb_pid])
    later = int(label.get_name())
    tree = ovi_e2e.application()
    progress = ovi_e2e.shown(tree.find("progress bar"))
    ovi_e2e.stop_app(proc)
    ovi_e2e.emit({"first_read": reads[0][1], "first_read_s": reads[0][0] - started,
                  "at_press": at_press, "at_200ms": at_200ms, "read_after_s": read_at,
                  "later": later, "partial_said": said is not None, "progress_bar": progress})


def tree_dir():
    """/dev/shm when it has room for the trees (up to 2.1 GB): written
    to a disk, they take half a minute of writeback on a small machine,
    and the test is about the window, not the disk."""
    try:
        st = os.statvfs("/dev/shm")
        if st.f_bavail * st.f_frsize > 3 * 1024 ** 3:
            return "/dev/shm"
    except OSError:
        pass
    return None


def run_one(args, xvfb, mode, path, wait=0, records=0):
    r = ovi_e2e.in_private_session(
        [sys.executable, os.path.abspath(__file__), "--" + mode, "--build", args.build,
         "--display", xvfb.display, "--path", path, "--wait", str(wait),
         "--records", str(records),
         "--xvfb-pid", str(xvfb.proc.pid)])
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
    p.add_argument("--records", type=int)
    p.add_argument("--xvfb-pid", type=int)
    args = p.parse_args()
    if args.complete:
        return one_complete(args)
    if args.cancel:
        return one_cancel(args)

    skipped = ovi_e2e.skip_without(("Xvfb", "dbus-run-session", "import", "compare", "xdotool"))
    if skipped is not None:
        return skipped

    top = args.keep or tempfile.mkdtemp(prefix="ovi-big-", dir=tree_dir())
    path = os.path.join(top, "tree")
    cancel_path = os.path.join(top, "cancel-tree")
    make = os.path.join(args.build, "benchmarks", "ovi-bench-make")
    if not os.path.isdir(path):
        subprocess.run([make, "tree", path, "50", "400", "30"], check=True)
    cli = os.path.join(args.build, "src", "cli", "overflow-inspector-cli")
    xvfb = ovi_e2e.Xvfb()
    busy = ovi_e2e.Busy()
    failures = []
    try:
        start = time.monotonic()
        subprocess.run([cli, "report", path], stdout=subprocess.DEVNULL, check=True)
        cli_s = time.monotonic() - start
        wait = min(10.0, 3 * cli_s)
        print("CLI report: %.2f s; the window gets min(10 s, 3 x that) = %.2f s" % (cli_s, wait))

        for i in range(args.runs):
            r = run_one(args, xvfb, "complete", path, wait)
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

        for n, iterations in enumerate(CANCEL_ITERATIONS):
            records = iterations * 30
            shutil.rmtree(cancel_path, ignore_errors=True)
            subprocess.run([make, "tree", cancel_path, str(iterations), "400", "30"], check=True)
            r = run_one(args, xvfb, "cancel", cancel_path, records=records)
            if not r.get("late") or n + 1 == len(CANCEL_ITERATIONS):
                break
            print("note cancel: the window had all %d records before its count could be read"
                  " a second before the end; again with %d iterations"
                  % (records, CANCEL_ITERATIONS[n + 1]))
        shutil.rmtree(cancel_path, ignore_errors=True)
        problems = []
        if "error" in r:
            problems.append(r["error"])
        else:
            if r["at_200ms"] != r["later"]:
                problems.append("rows kept coming after 200 ms: %s then %s"
                                % (r["at_200ms"], r["later"]))
            if r["later"] >= records:
                problems.append("all %d records arrived: the scan was not cancelled" % records)
            if not r["partial_said"]:
                problems.append("the window does not say the result is partial")
            if r["progress_bar"]:
                problems.append("progress bar still shown after Cancel")
        seen = ("count first read at %s after %.1f s; Escape at %s of %d records; "
                "%s at +%.0f ms, %s once idle"
                % (r["first_read"], r["first_read_s"], r["at_press"], records,
                   r["at_200ms"], 1000 * r["read_after_s"], r["later"])
                if "error" not in r else "")
        print("%s cancel: %s" % ("FAIL" if problems else "ok  ",
                                 "; ".join(problems + [seen]) if problems else seen))
        if problems:
            failures.append(problems)
    finally:
        busy.close()
        xvfb.close()
        if not args.keep:
            shutil.rmtree(top, ignore_errors=True)
    return 1 if failures else 0


sys.exit(main())
