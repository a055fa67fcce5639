#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Diff page as a person meets it: the real inspector started from the
build tree as `overflow-inspector --diff MINE GOLDEN` on two runs written by
the project's fixture writer (tests/fixtures/ovi-make-diff-runs: my Add
differs from the golden one at 12, 300 and 777), sent no input, read
through AT-SPI. My run has an overflow record on the Add that the golden
run has not.

  test-diff.py --build DIR [--shots DIR]

The page must name the first divergence at the top (core's headline, as
the CLI prints it), list the overflow records of one run only, mark the
first divergence's row for a screen reader and give that row the keyboard,
and the pair view, which the page opens on the first divergence, must list
the largest difference with its coordinates.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovi_e2e  # noqa: E402

FIRST = ("First divergence: #2 Add net/Add, the origin: its inputs agree and output 0 "
         "differs.")
OVERFLOWS = "Overflows only in my run: net/Add"
ROW = "First divergence, 2: Add net/Add, origin"
TOP_START = "1. 300 (2, 44): mine "
TOP_END = ", difference 2"
TABLE = "Compared operators in run order"


def focused_strings(tree):
    """The names below the node that has the keyboard (AT-SPI's FOCUSED)."""
    for node in tree.walk():
        try:
            focused = node.obj.get_state_set().contains(ovi_e2e.Atspi.StateType.FOCUSED)
        except Exception:
            focused = False
        if focused:
            return node.strings()
    return []


def one(args):
    env = ovi_e2e.app_env(args.display, args.build, "cairo")
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    make = os.path.join(args.build, "tests", "fixtures", "ovi-make-diff-runs")
    failures = []
    focused = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([make, tmp], check=True)
        proc = ovi_e2e.start_app([app, "--diff", os.path.join(tmp, "mine"),
                                  os.path.join(tmp, "golden")], env)
        try:
            def probe():
                tree = ovi_e2e.application()
                strings = tree.strings()
                # States are read while the inspector runs.
                focused[:] = focused_strings(tree)
                if (FIRST in strings and any(s.startswith(TOP_START) for s in strings)
                        and ROW in focused):
                    return tree
                return None

            tree = ovi_e2e.wait_for(probe, interval=0.5)
            if args.shots:
                ovi_e2e.grab(args.display, os.path.join(args.shots, "diff-e2e.png"))
            if tree is None:
                tree = ovi_e2e.application()
        finally:
            err = ovi_e2e.stop_app(proc)
    strings = tree.strings()
    if FIRST not in strings:
        failures.append("the page does not name the first divergence; it shows: %s"
                        % [s for s in strings if "divergence" in s][:10])
    else:
        print("ok   %s" % FIRST)
    if OVERFLOWS not in strings:
        failures.append("the page does not list the overflow of my run: %s"
                        % [s for s in strings if "verflow" in s][:10])
    else:
        print("ok   %s" % OVERFLOWS)
    if ROW not in focused:
        failures.append("the keyboard is not on the first divergence's row: %s" % focused[:5])
    else:
        print("ok   the focused row reads: %s" % ROW)
    rows = ovi_e2e.table_rows(tree, TABLE)
    if not rows:
        failures.append("no table named %r" % TABLE)
    elif len(rows) != 7:
        failures.append("%d rows, not the 7 operators of the two runs" % len(rows))
    if ROW not in strings:
        failures.append("no row read as %r: %s" % (ROW, [s for s in strings if ": " in s][:12]))
    else:
        print("ok   the row reads: %s" % ROW)
    top = [s for s in strings if s.startswith(TOP_START)]
    if not top:
        failures.append("the pair view lists no largest difference starting %r" % TOP_START)
    elif not top[0].endswith(TOP_END):
        failures.append("the largest difference is not 2 at (2, 44): %r" % top[0])
    else:
        print("ok   the largest difference: %s" % top[0])
    if "CRITICAL" in err or "WARNING" in err:
        failures.append("the inspector complained: %s" % err[-2000:])
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--shots")
    p.add_argument("--one", action="store_true")
    p.add_argument("--display")
    args = p.parse_args()
    if args.one:
        return one(args)
    return ovi_e2e.run_in_own_display(__file__)


if __name__ == "__main__":
    sys.exit(main())
