#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The installed Flatpak run as a person runs it, in its sandbox: a bare
Xvfb, a private session bus on which the session's services start on
demand (xdg-desktop-portal with its GTK back end, xdg-document-portal, the
permission store, the accessibility bus), no window manager. What the
window shows is read through AT-SPI from outside the sandbox and from
screen grabs read back with OCR (tesseract), with the helpers of
tests/e2e/ovi_e2e.py.

Each check prints one line, PASS, FAIL or SKIP, its name and what was seen;
the last line is DONE.

Session 1: the start page; the application's D-Bus name, owned from inside
the sandbox; a folder the sandbox cannot see (in /tmp), exported through
the document portal, opens, the Live popover says it is polled, and an
iteration written on the host appears; "Open With" of a folder as the
file manager does it (gio launch of the exported desktop file).
Session 2, a new session bus and a new document portal (a restart): both
folders are in Recent Folders, and the one in the document portal opens.
Session 3: a folder dragged from another application (GTK 4, on the host)
and dropped on the window opens.
Session 4: the report exported as JSON through the file chooser portal
into /tmp, which the sandbox cannot see: it appears there on the host.
Then the command-line tool: report on a folder given with --filesystem
for that run, refused without it, and convert into a folder the run may
write.

  test-sandbox.py --data DIR --work DIR --example DIR [--only SESSION ...]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "tests", "e2e"))
import ovi_e2e  # noqa: E402

from gi.repository import Gio, GLib  # noqa: E402

APP_ID = "io.github.npu_tools.OverflowInspector"
MODEL = os.path.join("20251202101500", "0", "resnet50_train", "11")
RECORDS = "Overflow records"
# The first start in a new installation builds the loader and font caches.
START_SECONDS = 120


def say(kind, name, detail):
    print("%s %s: %s" % (kind, name, detail))
    sys.stdout.flush()


def check(ok, name, detail):
    say("PASS" if ok else "FAIL", name, detail)
    return ok


# --- what a person sees -----------------------------------------------------

def wait_for(what, timeout, interval=0.5):
    """what() once it is truthy, or its last value after timeout seconds."""
    deadline = time.monotonic() + timeout
    value = what()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = what()
    return value


def tree_or_none():
    try:
        return ovi_e2e.application(timeout=2)
    except Exception:
        return None


def rows(tree):
    return ovi_e2e.table_rows(tree, RECORDS) if tree else None


def cells(row):
    return [c.replace("GtkColumnViewCell", "").strip() for c in row] if row else []


def rows_when(want, timeout):
    """The record rows once want(rows) holds (None when it never did)."""
    found = wait_for(lambda: (lambda r: r if r is not None and want(r) else None)(
        rows(tree_or_none())), timeout, 1.0)
    return found


def window_id(display, timeout=30):
    # By class: the title is the opened folder's name.
    out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--classname",
                          "^overflow-inspector$"], env=dict(os.environ, DISPLAY=display),
                         capture_output=True, text=True, timeout=timeout)
    ids = out.stdout.split()
    return ids[0] if ids else None


def shot(display, work, name):
    """The whole screen, kept in WORK/screenshots as NAME.png."""
    path = os.path.join(work, "screenshots", name + ".png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run(["import", "-display", display, "-window", "root", path], check=True)
    return path


def grab_window(display, name, work):
    """A screen grab of the inspector's window, the pointer moved off it
    first (a hovered row shows a tooltip)."""
    wid = window_id(display)
    if wid is None:
        return None
    ovi_e2e.move_pointer(display, ovi_e2e.WIDTH - 1, ovi_e2e.HEIGHT - 1)
    path = os.path.join(work, "screenshots", name + ".png")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    # The whole screen: a popover is a window of its own.
    subprocess.run(["import", "-display", display, "-window", "root", path], check=True)
    return path


def ocr(path):
    """The words tesseract reads in a screen grab, enlarged twice first."""
    if shutil.which("tesseract") is None:
        return None
    big = path[:-4] + "-ocr.png"
    subprocess.run(["convert", path, "-resize", "200%", big], check=True)
    out = subprocess.run(["tesseract", big, "-", "--psm", "3"], capture_output=True, text=True)
    os.unlink(big)
    return " ".join(out.stdout.split())


def screenshot_check(display, work, name, words, timeout=90):
    """Grabs the window until OCR reads every word of @words in it."""
    if shutil.which("tesseract") is None:
        say("SKIP", name, "tesseract is not installed: the screen grab cannot be read back")
        return
    text, path = "", None
    deadline = time.monotonic() + timeout
    while True:
        path = grab_window(display, name, work)
        text = ocr(path) if path else ""
        missing = [w for w in words if w.lower() not in text.lower()]
        if not missing or time.monotonic() > deadline:
            break
        time.sleep(1)
    check(path is not None and not missing, name,
          "%s: OCR reads %s%s" % (path, ", ".join(repr(w) for w in words if w not in missing),
                                  "; missing %s in %r" % (missing, text[:300]) if missing else ""))


# --- the sandboxed application ------------------------------------------------

def click_at(display, node):
    """Clicks the middle of a widget with the pointer, as a person does:
    GTK 4.8 gives buttons and rows no AT-SPI action."""
    wid = window_id(display)
    geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                         env=dict(os.environ, DISPLAY=display), capture_output=True, text=True)
    pos = dict(l.split("=", 1) for l in geo.stdout.split())
    x, y, w, h = ovi_e2e.extents(node)
    subprocess.run(["xdotool", "mousemove", "--sync", str(int(pos["X"]) + x + w // 2),
                    str(int(pos["Y"]) + y + h // 2), "click", "1"],
                   env=dict(os.environ, DISPLAY=display), check=True)


def start(args, env=None):
    return subprocess.Popen(["flatpak", "run", APP_ID] + args, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def stop(proc=None):
    """Ends the sandboxed inspector and waits until it has gone from the bus."""
    subprocess.run(["flatpak", "kill", APP_ID], capture_output=True)
    err = ""
    if proc is not None:
        err = ovi_e2e.stop_app(proc)
    wait_for(lambda: not name_owner(), 60)
    return err


def bus():
    return Gio.bus_get_sync(Gio.BusType.SESSION, None)


def name_owner():
    try:
        r = bus().call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus", "GetNameOwner", GLib.Variant("(s)", (APP_ID,)),
                            None, Gio.DBusCallFlags.NONE, 5000, None)
        return r.unpack()[0]
    except GLib.Error:
        return None


def owner_in_sandbox(owner):
    """The app id written in the sandbox of the process that owns the name."""
    r = bus().call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                        "GetConnectionUnixProcessID", GLib.Variant("(s)", (owner,)), None,
                        Gio.DBusCallFlags.NONE, 5000, None)
    pid = r.unpack()[0]
    try:
        with open("/proc/%d/root/.flatpak-info" % pid) as f:
            info = f.read()
    except OSError as e:
        return pid, None, str(e)
    m = re.search(r"^name=(.*)$", info, re.M)
    return pid, m.group(1) if m else None, ""


def session_runtime():
    """/run/user/UID, the runtime folder of a desktop login, when no login
    of this user is using it (missing or empty), else None (a temporary
    one). The document portal hands the app paths below the host's
    runtime folder, and the sandbox has its own at /run/user/UID: a path
    the file chooser portal returns exists in the sandbox only when the
    two are the same, as they are on every desktop."""
    path = "/run/user/%d" % os.getuid()
    if not os.path.exists(path) or (os.path.isdir(path) and not os.listdir(path)):
        return path
    return None


def sandbox_path(host_doc_path):
    """Where a document exported on the host appears inside the sandbox."""
    runtime = os.environ["XDG_RUNTIME_DIR"]
    rel = os.path.relpath(host_doc_path, os.path.join(runtime, "doc"))
    return os.path.join("/run/user/%d/doc" % os.getuid(), rel)


def copy_iterations(example, dest, iterations):
    for it in iterations:
        shutil.copytree(os.path.join(example, MODEL, it), os.path.join(dest, MODEL, it))


def write_iteration(example, dest, it):
    """As a training run writes an iteration: into a temporary name, then
    renamed into place."""
    shutil.copytree(os.path.join(example, MODEL, it), os.path.join(dest, MODEL, it + ".partial"))
    os.rename(os.path.join(dest, MODEL, it + ".partial"), os.path.join(dest, MODEL, it))


# --- session 1 ----------------------------------------------------------------

def session_first(args, state):
    display = args.display
    proc = start([])
    tree = wait_for(tree_or_none, START_SECONDS, 1.0)
    strings = tree.strings() if tree else []
    check(any("Open a dump folder written with overflow detection on" in s for s in strings),
          "start-page", "the start page's text is %sread through AT-SPI" % ("" if tree else "not "))
    screenshot_check(display, args.work, "start-page",
                     ["Overflow Inspector", "Open a dump folder", "Open Example"])

    owner = name_owner()
    if owner is None:
        check(False, "dbus-name", "nobody owns %s on the session bus" % APP_ID)
    else:
        pid, app, err = owner_in_sandbox(owner)
        check(app == APP_ID, "dbus-name", "%s is owned by %s, pid %d, in the sandbox of %s%s"
              % (APP_ID, owner, pid, app, " " + err if err else ""))
    err = stop(proc)

    # A folder the sandbox cannot see (host:ro leaves /tmp out), given to
    # the app through the document portal, as the file chooser does.
    live = os.path.join(state["doc_parent"], "live-run")
    copy_iterations(args.example, live, ["10", "12"])
    out = subprocess.run(["flatpak", "document-export", "--app=" + APP_ID, "--allow-read", live],
                         capture_output=True, text=True)
    host_doc = out.stdout.strip()
    if out.returncode != 0 or not host_doc:
        check(False, "doc-portal-export", "flatpak document-export: %s" % out.stderr.strip())
        return
    doc = sandbox_path(host_doc)
    state["doc_path"] = doc
    mount = subprocess.run(["stat", "-f", "-c", "%T", host_doc], capture_output=True, text=True)
    check("fuse" in mount.stdout, "doc-portal-export",
          "%s exported as %s, %s in the sandbox, on a %s file system"
          % (live, host_doc, doc, mount.stdout.strip()))

    proc = start([doc])
    before = rows_when(lambda r: len(r) == 3, START_SECONDS)
    check(before is not None and cells(before[0])[:2] == ["1", "10"], "doc-portal-open",
          "%s rows, first %s" % (len(before) if before else None,
                                 cells(before[0])[:5] if before else None))

    # The Live popover says how the folder is followed: a FUSE mount is polled.
    tree = tree_or_none()
    live_button = None
    for n in (tree.walk() if tree else []):
        if n.role in ("toggle button", "push button", "button") and n.name == "Live":
            live_button = n
            break
    mode = None
    if live_button is not None:
        click_at(display, live_button)

        def mode_label():
            t = tree_or_none()
            for n in (t.walk() if t else []):
                # How it is followed, one sentence: "Following changes as
                # the system reports them." or "Reading the folder again
                # every second: …."
                if (n.role == "label" and n.name.startswith(("Following ", "Reading "))
                        and n.name.endswith(".") and ovi_e2e.shown(n)):
                    return n.name
            return None
        mode = wait_for(mode_label, 60)
    check(mode is not None and "every second" in mode, "doc-portal-polls",
          "the Live popover says %r" % mode if live_button else "no Live button")
    if mode:
        # On screen, the popover is open; tesseract does not read its dim
        # small text, which AT-SPI gave above.
        screenshot_check(display, args.work, "live-popover", ["Follow the Folder"])
        ovi_e2e.press_key(display, "Escape")

    write_iteration(args.example, live, "3")
    written = time.monotonic()
    after = rows_when(lambda r: len(r) == 5, 60)
    first = cells(after[0]) if after else []
    check(after is not None and first[:2] == ["1", "3"] and "gradients/Cast_3" in first,
          "doc-portal-follow", "%s rows %.1f s after iteration 3 was written on the host, first %s"
          % (len(after) if after else None, time.monotonic() - written, first[:5]))
    screenshot_check(display, args.work, "records", ["Cast", "gradients/Cast_3"])
    err = stop(proc)
    warnings = [l for l in err.splitlines() if "CRITICAL" in l or "WARNING" in l]
    check(not warnings, "no-warnings", "%s" % (warnings[:3] or "none from the inspector"))

    # "Open With" in a file manager: the exported desktop file launched on
    # a folder the way GIO launches it (Exec with %U, file forwarding).
    desktop = os.path.join(os.environ["FLATPAK_USER_DIR"], "exports", "share", "applications",
                           APP_ID + ".desktop")
    folder = state["open_with"]
    # Not captured: the app it starts would hold the pipes open.
    with open(os.path.join(args.work, "log", "gio-launch.log"), "w") as log:
        launch = subprocess.run(["gio", "launch", desktop, folder], stdout=log, stderr=log,
                                timeout=60)
    got = rows_when(lambda r: len(r) == state["n_example"], START_SECONDS)
    check(launch.returncode == 0 and got is not None, "open-with",
          "gio launch %s %s: %s rows (the folder has %d records)%s"
          % (os.path.basename(desktop), folder, len(got) if got else None, state["n_example"],
             ", gio exit %d" % launch.returncode if launch.returncode else ""))
    stop()


# --- session 2: a restart -------------------------------------------------------

def session_restart(args, state):
    proc = start([])
    tree = wait_for(tree_or_none, START_SECONDS, 1.0)
    recent = []
    for n in (tree.walk() if tree else []):
        if n.role in ("list item", "table row", "push button", "button") and any(
                state["doc_path"] in s or state["open_with"] in s for s in n.strings()):
            recent.append(n)
    names = [" ".join(n.strings()) for n in recent]
    both = (any(state["doc_path"] in s for s in names)
            and any(state["open_with"] in s for s in names))
    check(both, "recent-folders", "after a restart, Recent Folders lists %s" % names)
    target = next((n for n in recent if any(state["doc_path"] in s for s in n.strings())), None)
    got = None
    if target is not None:
        click_at(args.display, target)
        got = rows_when(lambda r: len(r) == 5, START_SECONDS)
    check(got is not None, "open-recent-after-restart",
          "%s, opened from Recent Folders after the session and its document portal restarted:"
          " %s rows" % (state["doc_path"], len(got) if got else None))
    screenshot_check(args.display, args.work, "recent-reopened", ["Cast"])
    stop(proc)


# --- session 3: drag and drop ---------------------------------------------------

DRAG_SOURCE = r'''
import sys
import gi
gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GObject, Gtk

path = sys.argv[1]
app = Gtk.Application(application_id="org.example.OviDragSource")

def activate(app):
    win = Gtk.ApplicationWindow(application=app, title="ovi-drag-source")
    win.set_default_size(240, 120)
    label = Gtk.Label(label="drag me")
    source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
    def prepare(src, x, y):
        files = Gdk.FileList.new_from_list([Gio.File.new_for_path(path)])
        return Gdk.ContentProvider.new_for_value(GObject.Value(Gdk.FileList, files))
    source.connect("prepare", prepare)
    label.add_controller(source)
    win.set_child(label)
    win.present()

app.connect("activate", activate)
app.run([])
'''


def session_drop(args, state):
    display = args.display
    env = dict(os.environ, DISPLAY=display)
    proc = start([])
    tree = wait_for(tree_or_none, START_SECONDS, 1.0)
    target = window_id(display)
    script = os.path.join(args.work, "drag-source.py")
    with open(script, "w") as f:
        f.write(DRAG_SOURCE)
    source = subprocess.Popen(["/usr/bin/python3", script, state["drop"]], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    got = None
    try:
        out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name",
                              "ovi-drag-source"], env=env, capture_output=True, text=True,
                             timeout=30)
        sid = out.stdout.split()[0]
        subprocess.run(["xdotool", "windowmove", "--sync", sid, "1100", "700"], env=env)
        time.sleep(0.5)
        # Press on the label, move in steps onto the inspector, release.
        x0, y0 = 1100 + 120, 700 + 60
        x1, y1 = 500, 400
        subprocess.run(["xdotool", "mousemove", "--sync", str(x0), str(y0), "mousedown", "1"],
                       env=env)
        for i in range(1, 21):
            x = x0 + (x1 - x0) * i // 20
            y = y0 + (y1 - y0) * i // 20
            subprocess.run(["xdotool", "mousemove", "--sync", str(x), str(y)], env=env)
            time.sleep(0.05)
        time.sleep(0.5)
        subprocess.run(["xdotool", "mouseup", "1"], env=env)
        got = rows_when(lambda r: len(r) == state["n_drop"], 60)
    finally:
        source.kill()
        source.wait()
    err = stop(proc)
    check(tree is not None and target is not None and got is not None, "drag-and-drop",
          "%s dragged from another application onto the window: %s rows (it has %d records)%s"
          % (state["drop"], len(got) if got else None, state["n_drop"],
             "" if got else "; " + " | ".join(l for l in err.splitlines() if "Gtk" in l)[-500:]))


# --- session 4: an export through the file chooser portal ----------------------

def session_export(args, state):
    """The report exported as JSON from the window: Ctrl+E, "Report as
    JSON", and in the portal's file chooser (xdg-desktop-portal-gtk, on the
    host) a path in /tmp, which the sandbox cannot see at all. The portal
    hands the app a document to write; the file must appear on the host,
    whole, with nothing else left beside it."""
    display = args.display
    env = dict(os.environ, DISPLAY=display)
    if os.environ["XDG_RUNTIME_DIR"] != "/run/user/%d" % os.getuid():
        say("SKIP", "export-portal", "/run/user/%d is in use by a login of this user: the portal's "
            "paths would not exist in the sandbox" % os.getuid())
        return
    dest_dir = os.path.join(state["doc_parent"], "exports")
    os.makedirs(dest_dir)
    dest = os.path.join(dest_dir, "overflow-report.json")
    proc = start([state["open_with"]])
    got = rows_when(lambda r: len(r) == state["n_example"], START_SECONDS)
    # The report is written once the scan has finished: wait until the
    # window's progress bar has gone.
    wait_for(lambda: (lambda t: t is not None and not ovi_e2e.shown(t.find("progress bar")))(
        tree_or_none()), 60)
    ovi_e2e.press_key(display, "ctrl+e")

    def menu_item():
        t = tree_or_none()
        for n in (t.walk() if t else []):
            if n.role == "menu item" and n.name.replace("_", "") == "Report as JSON…" and \
                    ovi_e2e.shown(n):
                return n
        return None
    item = wait_for(menu_item, 60)
    shot(display, args.work, "export-menu")
    if item is not None:
        ovi_e2e.press_key(display, "j")  # the item's mnemonic
    try:
        out = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", "^Export$"],
                             env=env, capture_output=True, text=True, timeout=90).stdout.split()
    except subprocess.TimeoutExpired:
        out = []
    chooser = out[0] if out else None
    def labels():
        t = tree_or_none()
        return {n.name for n in (t.walk() if t else []) if n.role == "label" and n.name}
    before = labels()
    if chooser is not None:
        subprocess.run(["xdotool", "windowfocus", "--sync", chooser], env=env, timeout=10)
        # The name field has the focus, its base name selected: replace it
        # with the whole path, as a person may type one.
        ovi_e2e.press_key(display, "ctrl+a")
        ovi_e2e.type_text(display, dest)
        shot(display, args.work, "export-chooser")
        ovi_e2e.press_key(display, "Return")

    def written():
        try:
            with open(dest) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def toast_text():
        """A label that was not in the window before the export: the toast."""
        new = labels() - before
        return " | ".join(sorted(new)) if new else None
    # The file, and the toast that says so (or what went wrong), while it shows.
    seen = {}
    wait_for(lambda: seen.update(report=seen.get("report") or written(),
                                 toast=seen.get("toast") or toast_text())
             or (seen["report"] and seen["toast"]), 60)
    report, toast = seen.get("report"), seen.get("toast")
    shot(display, args.work, "export-done")
    left = sorted(set(os.listdir(dest_dir)) - {"overflow-report.json"})
    err = stop(proc)
    records = len(report["records"]) if report and "records" in report else None
    check(got is not None and chooser is not None and records == state["n_example"] and not left
          and toast is not None and toast.startswith("Exported"), "export-portal",
          "Ctrl+E, %s, %s typed in the portal's file chooser (%s): %s records "
          "written on the host (the folder has %d), toast %r, other files left there: %s%s"
          % ("Report as JSON" if item is not None else "no Report as JSON in the menu", dest,
             "shown" if chooser else "never shown", records, state["n_example"],
             toast, left or "none",
             "" if report else "; " + " | ".join(err.splitlines()[-5:])))


# --- the command-line tool ------------------------------------------------------

def cli(args, state):
    folder = state["cli_folder"]
    base = ["flatpak", "run", "--command=overflow-inspector-cli"]
    out = subprocess.run(base + ["--filesystem=%s:ro" % folder, APP_ID, "report", "--json", folder],
                         capture_output=True, text=True)
    try:
        report = json.loads(out.stdout)
        records = report["records"]
        first = records[0]["op"]
        # Exit 1: the example holds a broken file on purpose (listed).
        ok = (out.returncode in (0, 1) and len(records) == state["n_example"] and records[0]["first"]
              and first["op_type"] == "Cast" and first["op_name"] == "gradients/Cast_3")
        detail = "%d records, first %s %s" % (len(records), first["op_type"], first["op_name"])
    except (ValueError, KeyError, IndexError) as e:
        ok, detail = False, "exit %d, %s: %s" % (out.returncode, e, out.stderr.strip()[-300:])
    check(ok, "cli-report", "flatpak run --command=overflow-inspector-cli --filesystem=%s:ro ... "
          "report --json: %s" % (folder, detail))

    out = subprocess.run(base + [APP_ID, "report", folder], capture_output=True, text=True)
    check(out.returncode == 3 and "no dump file" in out.stderr + out.stdout, "cli-needs-permission",
          "without --filesystem the sandbox cannot see %s: exit %d, %s"
          % (folder, out.returncode, (out.stderr.strip() or out.stdout.strip())[-200:]))

    dest = os.path.join(state["doc_parent"], "converted")
    os.makedirs(dest)
    it3 = os.path.join(folder, MODEL, "3")
    out = subprocess.run(base + ["--filesystem=%s:ro" % folder, "--filesystem=%s" % dest, APP_ID,
                                 "convert", "-o", dest, it3], capture_output=True, text=True)
    written = [os.path.relpath(os.path.join(d, f), dest) for d, _, fs in os.walk(dest) for f in fs]
    npy = [w for w in written if w.endswith(".npy")]
    check(out.returncode == 0 and npy, "cli-convert",
          "convert into %s, given with --filesystem for that run: %d files, %d .npy%s"
          % (dest, len(written), len(npy), "" if out.returncode == 0 else ", exit %d: %s"
             % (out.returncode, out.stderr.strip()[-200:])))


# --- driver -----------------------------------------------------------------------

PHASES = {"first": session_first, "restart": session_restart, "drop": session_drop,
          "export": session_export}


def one(args):
    with open(args.state) as f:
        state = json.load(f)
    try:
        PHASES[args.phase](args, state)
    finally:
        with open(args.state, "w") as f:
            json.dump(state, f)


def count_records(folder):
    out = subprocess.run(["flatpak", "run", "--command=overflow-inspector-cli",
                          "--filesystem=%s:ro" % folder, APP_ID, "report", "--json", folder],
                         capture_output=True, text=True)
    return len(json.loads(out.stdout)["records"])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data")
    p.add_argument("--work")
    p.add_argument("--example")
    p.add_argument("--one", action="store_true")
    p.add_argument("--phase")
    p.add_argument("--state")
    p.add_argument("--display")
    p.add_argument("--only", action="append",
                   help="run only this session (first, restart, drop, export) or cli; repeatable")
    args = p.parse_args()
    if args.one:
        return one(args)

    for tool in ("Xvfb", "dbus-run-session", "flatpak", "xdotool", "import", "gio"):
        if shutil.which(tool) is None:
            say("SKIP", "sandbox", "%s is not installed" % tool)
            print("DONE")
            return 0
    if not os.path.exists("/dev/fuse"):
        say("SKIP", "sandbox", "/dev/fuse is missing: the document portal cannot mount")
        print("DONE")
        return 0

    # The session's home, seen by the sandbox through host:ro; the folder
    # only the document portal can hand over lives in /tmp, which host:ro
    # leaves out.
    home = os.path.join(args.data, "home")
    os.makedirs(home)
    os.environ.update({
        "HOME": home,
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "XDG_CURRENT_DESKTOP": "GNOME",
        "LANG": "C.UTF-8",
    })
    for k in ("GTK_A11Y", "NO_AT_BRIDGE", "GSK_RENDERER", "LANGUAGE", "LC_ALL", "G_DEBUG",
              "GSETTINGS_BACKEND", "GSETTINGS_SCHEMA_DIR"):
        os.environ.pop(k, None)
    doc_parent = tempfile.mkdtemp(prefix="ovi-flatpak-", dir="/tmp")
    open_with = os.path.join(home, "dumps", "example-run")
    shutil.copytree(args.example, open_with)
    drop = os.path.join(home, "dumps", "dropped-run")
    copy_iterations(args.example, drop, ["3", "4"])
    cli_folder = os.path.join(doc_parent, "cli-run")
    shutil.copytree(args.example, cli_folder)
    state = {"doc_parent": doc_parent, "open_with": open_with, "drop": drop,
             "cli_folder": cli_folder, "doc_path": None,
             "n_example": count_records(cli_folder), "n_drop": count_records(drop)}
    state_file = os.path.join(args.work, "sandbox-state.json")
    with open(state_file, "w") as f:
        json.dump(state, f)

    xvfb = ovi_e2e.Xvfb()
    try:
        for phase in ("first", "restart", "drop", "export"):
            if args.only and phase not in args.only:
                continue
            if phase == "restart" and not state.get("doc_path"):
                say("SKIP", "session-restart", "no folder was exported through the portal")
                continue
            r = ovi_e2e.in_private_session(
                [sys.executable, os.path.abspath(__file__), "--one", "--phase", phase,
                 "--state", state_file, "--work", args.work, "--example", args.example,
                 "--display", xvfb.display], timeout=900, runtime=session_runtime())
            sys.stdout.write(r.stdout)
            if r.returncode != 0:
                say("FAIL", "session-" + phase, "exit %d: %s" % (r.returncode, r.stderr[-2000:]))
            with open(state_file) as f:
                state = json.load(f)
    finally:
        xvfb.close()
    if not args.only or "cli" in args.only:
        cli(args, state)
    shutil.rmtree(doc_parent, ignore_errors=True)
    print("DONE")
    return 0


if __name__ == "__main__":
    sys.exit(main())
