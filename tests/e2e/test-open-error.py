#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A path that does not exist, given on the command line.

The real inspector starts on a bare Xvfb under its own dbus-run-session with
a path that does not exist, and no input. Read through AT-SPI: the window
shows its start page (the Open Folder button), and the page itself says
that the path does not exist, naming it: the message is beside the page's
buttons, not in a toast that is gone five seconds later.

  test-open-error.py --build DIR
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovi_e2e  # noqa: E402

MISSING = "/nonexistent/ovi-e2e-dump"
MESSAGE = "“%s” does not exist" % MISSING


def holder_of(tree, text):
    """The accessible that holds the one showing @text."""
    for node in tree.walk():
        for child in node.children:
            if text in (child.name, child.text):
                return node
    return None


def one(args):
    env = ovi_e2e.app_env(args.display, args.build)
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    proc = ovi_e2e.start_app([app, MISSING], env)
    try:
        tree = ovi_e2e.wait_for(lambda: (lambda t: t if MESSAGE in t.strings() else None)(
            ovi_e2e.application()))
        if tree is None:
            strings = ovi_e2e.application().strings()
            print("FAIL: the window never said %r; it shows: %s" % (MESSAGE, strings[:40]))
            return 1
        button = tree.find("push button", "Open Folder…")
        if button is None or not ovi_e2e.shown(button):
            print("FAIL: the start page's Open Folder button is not shown")
            return 1
        holder = holder_of(tree, MESSAGE)
        if holder is None or holder.find("push button", "Open Folder…") is None:
            print("FAIL: %r is not on the start page, beside its buttons (a toast?)" % MESSAGE)
            return 1
        print("ok   the start page says: %s" % MESSAGE)
        return 0
    finally:
        ovi_e2e.stop_app(proc)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--one", action="store_true")
    p.add_argument("--display")
    args = p.parse_args()
    if args.one:
        return one(args)
    return ovi_e2e.run_in_own_display(__file__)


if __name__ == "__main__":
    sys.exit(main())
