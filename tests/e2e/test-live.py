#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window follows a folder that another process writes into.

The real inspector starts on a bare Xvfb under its own dbus-run-session, on
a folder with iterations 10 and 12 of the example; a stand-in notification
server owns org.freedesktop.Notifications and org.gtk.Notifications on that
session bus. With no input at all, this script then copies iteration 3 of
the example into the folder, as a training run writes it. Read through
AT-SPI: once another application (xmessage) has the focus, the new records
appear by themselves, the first-overflow mark moves
to iteration 3's Cast (it ran earlier), the header bar says "Live", and the
desktop was told, in words, about the overflow.

  test-live.py --build DIR --example PATH
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovi_e2e  # noqa: E402

from gi.repository import Gio, GLib  # noqa: E402

FDO_XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/><arg type="u" direction="in"/>
      <arg type="s" direction="in"/><arg type="s" direction="in"/>
      <arg type="s" direction="in"/><arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
      <arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification"><arg type="u" direction="in"/></method>
    <method name="GetCapabilities"><arg type="as" direction="out"/></method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
      <arg type="s" direction="out"/><arg type="s" direction="out"/>
    </method>
  </interface>
</node>"""

GTK_XML = """
<node>
  <interface name="org.gtk.Notifications">
    <method name="AddNotification">
      <arg type="s" direction="in"/><arg type="s" direction="in"/>
      <arg type="a{sv}" direction="in"/>
    </method>
    <method name="RemoveNotification">
      <arg type="s" direction="in"/><arg type="s" direction="in"/>
    </method>
  </interface>
</node>"""


class Notifications:
    """A stand-in for the desktop's notification server: it notes what it
    is asked to show."""

    def __init__(self):
        self.shown = []
        self.ready = threading.Event()
        threading.Thread(target=self.run, daemon=True).start()
        self.ready.wait(10)

    def call(self, conn, sender, path, iface, method, params, invocation):
        args = params.unpack()
        if method == "Notify":
            self.shown.append({"title": args[3], "body": args[4]})
            invocation.return_value(GLib.Variant("(u)", (len(self.shown),)))
        elif method == "AddNotification":
            n = args[2]
            self.shown.append({"title": n.get("title", ""), "body": n.get("body", "")})
            invocation.return_value(None)
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["body", "actions"],)))
        elif method == "GetServerInformation":
            invocation.return_value(GLib.Variant("(ssss)", ("stand-in", "test", "1", "1.2")))
        else:
            invocation.return_value(None)

    def run(self):
        ctx = GLib.MainContext()
        ctx.push_thread_default()
        bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        for xml, name, path in ((FDO_XML, "org.freedesktop.Notifications",
                                 "/org/freedesktop/Notifications"),
                                (GTK_XML, "org.gtk.Notifications", "/org/gtk/Notifications")):
            info = Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0]
            bus.register_object(path, info, self.call, None, None)
            bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                          "RequestName", GLib.Variant("(su)", (name, 4)), None,
                          Gio.DBusCallFlags.NONE, -1, None)
        self.ready.set()
        loop = GLib.MainLoop(ctx)
        loop.run()


def cells(row):
    """A row's cell texts, without the accessible role name GTK 4.8 puts first."""
    return [c.replace("GtkColumnViewCell", "").strip() for c in row] if row else None


def first_rows(want):
    """The record rows once @want(rows) holds, or the last ones read."""
    last = []

    def probe():
        last[:] = [ovi_e2e.table_rows(ovi_e2e.application(), "Overflow records")]
        return last[0] is not None and want(last[0])

    ovi_e2e.wait_for(probe, interval=0.5)
    return last[0] if last else None


def states_of(node):
    return [s.value_nick for s in node.obj.get_state_set().get_states()]


def one(args):
    notifications = Notifications()
    folder = tempfile.mkdtemp(prefix="ovi-e2e-live-")
    model = os.path.join("20251202101500", "0", "resnet50_train", "11")
    for it in ("10", "12"):
        shutil.copytree(os.path.join(args.example, model, it), os.path.join(folder, model, it))
    env = ovi_e2e.app_env(args.display, args.build, "cairo")
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    proc = ovi_e2e.start_app([app, folder], env)
    result = {}
    other = None
    try:
        before = first_rows(lambda rows: len(rows) == 3)
        tree = ovi_e2e.application()
        result["rows_before"] = len(before or [])
        result["first_before"] = cells(before[0]) if before else None
        result["live_shown"] = "Live" in tree.strings()
        frame = next((n for n in tree.walk() if n.role in ("frame", "window")), None)
        result["window_states"] = states_of(frame) if frame else None

        # The user turns to another application: the inspector's window is
        # not focused any more.
        other = subprocess.Popen(["xmessage", "-geometry", "+900+700", "another application"],
                                 env=dict(os.environ, DISPLAY=args.display),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        xenv = dict(os.environ, DISPLAY=args.display)
        wid = subprocess.run(["xdotool", "search", "--sync", "--class", "Xmessage"], env=xenv,
                             capture_output=True, text=True, timeout=10).stdout.split()[0]
        subprocess.run(["xdotool", "windowfocus", "--sync", wid], env=xenv, timeout=10)
        # The window hears that it lost the focus: wait for it to say so.
        ovi_e2e.wait_for(lambda: "active" not in states_of(frame))
        result["window_states_unfocused"] = states_of(frame)

        # Another process writes iteration 3: it ran before 10 and 12.
        shutil.copytree(os.path.join(args.example, model, "3"),
                        os.path.join(folder, model, "3.partial"))
        os.rename(os.path.join(folder, model, "3.partial"), os.path.join(folder, model, "3"))
        written = time.monotonic()
        after = first_rows(lambda rows: len(rows) == 5)
        result["seconds_to_rows"] = round(time.monotonic() - written, 2)
        result["rows_after"] = len(after or [])
        result["first_after"] = cells(after[0]) if after else None
        ovi_e2e.wait_for(lambda: notifications.shown)
        result["notifications"] = notifications.shown
    finally:
        if other is not None:
            other.kill()
        err = ovi_e2e.stop_app(proc)
        shutil.rmtree(folder, ignore_errors=True)
    result["criticals"] = [l for l in err.splitlines() if "CRITICAL" in l or "WARNING" in l][:5]
    ovi_e2e.emit(result)


def check(r):
    problems = []
    if "active" in (r.get("window_states_unfocused") or ["active"]):
        problems.append("the window stayed focused when another application was")
    if r.get("rows_before") != 3:
        problems.append("%s rows before the run wrote, not 3" % r.get("rows_before"))
    if not r.get("live_shown"):
        problems.append("the header bar does not say Live")
    if r.get("rows_after") != 5:
        problems.append("%s rows after iteration 3 was written, not 5" % r.get("rows_after"))
    first_before, first_after = r.get("first_before") or [], r.get("first_after") or []
    # Columns: #, Iteration, Unit, Op Type, Op Name...
    if first_before[:2] != ["1", "10"]:
        problems.append("first row before: %s, not #1 of iteration 10" % first_before[:5])
    if first_after[:2] != ["1", "3"] or "gradients/Cast_3" not in first_after:
        problems.append("the first-overflow mark did not move to iteration 3's Cast: %s"
                        % first_after[:5])
    bodies = [n["title"] + " | " + n["body"] for n in r.get("notifications", [])]
    if not any("Overflow on device 0, iteration 3: Cast gradients/Cast_3" in b for b in bodies):
        problems.append("no notification named the overflow: %s" % bodies)
    if r.get("criticals"):
        problems.append("warnings: %s" % r["criticals"])
    return problems


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--example", required=True)
    p.add_argument("--one", action="store_true")
    p.add_argument("--display")
    args = p.parse_args()
    if args.one:
        return one(args)
    skipped = ovi_e2e.skip_without(("Xvfb", "dbus-run-session", "xmessage", "xdotool"))
    if skipped is not None:
        return skipped
    xvfb = ovi_e2e.Xvfb()
    try:
        out = ovi_e2e.in_private_session(
            [sys.executable, os.path.abspath(__file__), "--one", "--build", args.build,
             "--example", args.example, "--display", xvfb.display])
    finally:
        xvfb.close()
    line = [l for l in out.stdout.splitlines() if l.startswith("{")]
    if not line:
        print("no result:", out.stdout[-2000:], out.stderr[-2000:])
        return 1
    import json
    result = json.loads(line[-1])
    print(json.dumps(result, indent=1, ensure_ascii=False))
    problems = check(result)
    for p_ in problems:
        print("FAIL:", p_)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
