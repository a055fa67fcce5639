#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Graph page as a person meets it: the real inspector started from the
build tree as `overflow-inspector --page graph ROOT` on an iteration written
by tests/fixtures/ovi-make-graph-iteration (a small network whose l2/MatMul makes
NaN; the headers carry buffer addresses; the Opdebug record of l2/MatMul's
overflow), sent no input, read through AT-SPI.

  test-graph.py --build DIR [--shots DIR]

The window opens on the first overflow's operator; the Graph page must draw
it and its neighbours two edges up and down as buttons named for a screen
reader (type, name, class, counts), and say how the NaN spread from it.
"""

import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovi_e2e  # noqa: E402

GROUP = "Dataflow graph"
# l2/MatMul, two hops up and down: what fed it (l1/Relu, the weight w2,
# l1/MatMul) and what it fed (l2/Relu, res/Add).
NODES = [
    "MatMul l2/MatMul, Origin, 1 NaN",
    "Relu l1/Relu, Normal",
    "MatMul l1/MatMul, Normal",
    "Relu l2/Relu, Propagated, 2 NaN",
    "Add res/Add, Propagated, 2 NaN",
]
NOT_DRAWN = ["out/Cast", "input_ids"]  # more than two edges away
CHAIN = "Chain: l2/MatMul"


def one(args):
    env = ovi_e2e.app_env(args.display, args.build, "cairo")
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    make = os.path.join(args.build, "tests", "fixtures", "ovi-make-graph-iteration")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([make, tmp], check=True)
        proc = ovi_e2e.start_app([app, "--page", "graph", tmp], env)
        try:
            def probe():
                tree = ovi_e2e.application()
                group = tree.find(name=GROUP)
                if group is not None and len(group.find_all("push button")) >= len(NODES):
                    return tree
                return None

            tree = ovi_e2e.wait_for(probe, interval=0.5)
            if args.shots:
                ovi_e2e.grab(args.display, os.path.join(args.shots, "graph-e2e.png"))
            if tree is None:
                tree = ovi_e2e.application()
        finally:
            err = ovi_e2e.stop_app(proc)
    group = tree.find(name=GROUP)
    if group is None:
        failures.append("no %r on the window: %s" % (GROUP, tree.strings()[:40]))
        names = []
    else:
        names = [n.name for n in group.find_all("push button")]
        print("nodes: %s" % names)
    for expected in NODES:
        if expected not in names:
            failures.append("no node read as %r: %s" % (expected, names))
        else:
            print("ok   a node reads: %s" % expected)
    for far in NOT_DRAWN:
        if any(far in n for n in names):
            failures.append("%s is drawn, though more than two edges away" % far)
    strings = tree.strings()
    if not any(s.startswith(CHAIN) for s in strings):
        failures.append("no chain line starting %r" % CHAIN)
    else:
        print("ok   %s" % next(s for s in strings if s.startswith(CHAIN)))
    if any(s.endswith("the blame follows run order") for s in strings):
        failures.append("the page says the edges come from run order, though the dumps carry "
                        "addresses")
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
