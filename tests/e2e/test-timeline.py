#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The cluster timeline as a person meets it: the real inspector started
from the build tree on one machine's dump folder and another machine's
report (`overflow-inspector node-a node-b.json`), sent no input, read
through AT-SPI and a screen grab.

  test-timeline.py --build DIR --cluster data/example-cluster [--shots DIR [--language zh_CN]]

The timeline must list the 16 devices of the two machines, the earliest
first and marked (node-a's device 3, its own Cast), every other device as
having received the values through the collective, and node-b's devices
under node-b's name.

Then two folders and the report together (`overflow-inspector node-a
node-c node-b.json`, node-c a copy of node-a written a minute later): one
window titled with both folders, a sidebar row per folder, and the 24
devices on the timeline with node-a's device 3 first.
"""

import argparse
import gettext
import re
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovi_e2e  # noqa: E402

TABLE = "Devices by their first overflow"
TYPE_NAME = re.compile(r"^(Gtk|Ovi|Adw)[A-Z][A-Za-z]*$")


def cells_of(row):
    """A row's cell texts without the widget type names GTK 4.8 gives
    cells that have no accessible name of their own."""
    return [" ".join(w for w in c.split(" ") if not TYPE_NAME.match(w)) for c in row]


def one(args):
    env = ovi_e2e.app_env(args.display, args.build, "cairo", args.language)
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    node_a = os.path.join(args.cluster, "node-a")
    node_b = os.path.join(args.cluster, "node-b.json")
    # The pointer off the window: no tooltip in the screen grab.
    ovi_e2e.move_pointer(args.display, ovi_e2e.WIDTH - 1, ovi_e2e.HEIGHT - 1)
    proc = ovi_e2e.start_app([app, node_a, node_b], env)
    failures = []
    table = TABLE
    if args.language:
        # Only for a screen grab in that language: the checks below read
        # the English words.
        table = gettext.translation("overflow-inspector", os.path.join(args.build, "po"),
                                    [args.language]).gettext(TABLE)
    rows, _ = wait_for_rows(16, table)
    if args.shots:
        ovi_e2e.grab(args.display, os.path.join(args.shots, "timeline.png"))
    err = ovi_e2e.stop_app(proc)
    if not rows:
        failures.append("no table named %r on screen" % TABLE)
        rows = []
    elif len(rows) != 16:
        failures.append("%d rows, not the 16 devices of the two machines" % len(rows))
    else:
        first = rows[0]
        print("first row: %s" % " | ".join(first))
        if not (first[0].endswith("node-a") and first[1].startswith("3")
                and "Earliest" in first[1]):
            failures.append("the first row is not node-a's device 3 marked earliest: %r" % first)
        if not first[-1].startswith("Overflows in 1 iteration: 5."):
            failures.append("the strip of the earliest device does not say iteration 5: %r"
                            % first[-1])
        if "Cast net/Cast_3" not in first or first[-2] != "Origin":
            failures.append("the earliest device is not an origin with its Cast: %r" % first)
        for row in rows[1:]:
            if "Earliest" in " ".join(row) or row[-2] != "Received" or "collective" not in row[4]:
                failures.append("a device after the first did not receive through the "
                                "collective: %r" % row)
        node_b_rows = [r for r in rows if r[0] == "node-b:/data/dump"]
        if len(node_b_rows) != 8:
            failures.append("%d rows of node-b, not 8" % len(node_b_rows))
    if "CRITICAL" in err or "WARNING" in err:
        failures.append("the inspector complained: %s" % err[-2000:])
    for f in failures:
        print("FAIL " + f)
    print("%d rows read" % len(rows))
    return 1 if failures else 0


def wait_for_rows(count, table=TABLE):
    """The timeline's rows and the tree they were read from, once it has
    @count rows (or the last read, after ovi_e2e's ceiling)."""
    last = [None, None]

    def probe():
        tree = ovi_e2e.application()
        rows = ovi_e2e.table_rows(tree, table)
        last[:] = [[cells_of(r) for r in rows] if rows else rows, tree]
        return rows and len(rows) >= count

    ovi_e2e.wait_for(probe, interval=0.5)
    return last[0] or [], last[1]


def several(args):
    env = ovi_e2e.app_env(args.display, args.build, "cairo", args.language)
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        node_a = os.path.join(tmp, "node-a")
        node_c = os.path.join(tmp, "node-c")
        shutil.copytree(os.path.join(args.cluster, "node-a"), node_a)
        shutil.copytree(os.path.join(args.cluster, "node-a"), node_c)
        # node-c's files are written a minute later: its overflows are later.
        for top, dirs, files in os.walk(node_c):
            for name in files:
                parts = name.split(".")
                if len(parts) >= 5 and parts[-1].isdigit():
                    parts[-1] = str(int(parts[-1]) + 60000000)
                    os.rename(os.path.join(top, name), os.path.join(top, ".".join(parts)))
        proc = ovi_e2e.start_app([app, node_a, node_c,
                                  os.path.join(args.cluster, "node-b.json")], env)
        rows, tree = wait_for_rows(24)
        if args.shots:
            ovi_e2e.grab(args.display, os.path.join(args.shots, "several-folders.png"))
        err = ovi_e2e.stop_app(proc)
    strings = tree.strings() if tree else []
    if len(rows) != 24:
        failures.append("%d rows, not the 24 devices of the three machines" % len(rows))
    elif not (rows[0][0].endswith("node-a") and rows[0][1].startswith("3")
              and "Earliest" in rows[0][1]):
        failures.append("the first row is not node-a's device 3 marked earliest: %r" % rows[0])
    elif len([r for r in rows if r[0].endswith("node-c")]) != 8:
        failures.append("node-c's 8 devices are not on the timeline")
    if "node-a, node-c" not in strings:
        failures.append("no window titled with both folders")
    for name in ("node-a", "node-c"):
        if not any(s.startswith("Folder %s: " % name) for s in strings):
            failures.append("no sidebar row for the folder %s" % name)
    if "CRITICAL" in err or "WARNING" in err:
        failures.append("the inspector complained: %s" % err[-2000:])
    for f in failures:
        print("FAIL " + f)
    print("several folders: %d rows read" % len(rows))
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--cluster", required=True)
    p.add_argument("--shots")
    p.add_argument("--language")  # zh_CN: the README's Chinese screen grab
    p.add_argument("--one", action="store_true")
    p.add_argument("--display")
    args = p.parse_args()
    if args.one:
        return max(one(args), several(args))
    return ovi_e2e.run_in_own_display(__file__)


sys.exit(main())
