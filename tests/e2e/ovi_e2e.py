# SPDX-License-Identifier: GPL-3.0-or-later
"""The real inspector as a person runs it: a bare X server, a private D-Bus
session with the accessibility bus started on demand, and no input unless a
test sends some. What the window shows is read the way a person or a screen
reader would: screen grabs and AT-SPI. Used by the tests in this folder."""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

APP_NAME = "overflow-inspector"
WIDTH, HEIGHT = 1400, 900


class Xvfb:
    """A bare X server of its own, 1400x900, no window manager.

    -noreset: by default an X server resets itself each time its last client
    leaves, and a client that connects during the reset is refused. Here the
    last client to leave is often the accessibility bus launcher (it only sets
    a property on the root window) or the previous run's inspector, so the
    inspector started next failed with "cannot open display" and never
    reached the accessibility bus: 3 of 6 runs of window-live on a quiet
    machine, 0 of 10 with -noreset. A desktop session's X server never
    resets while the session runs, so this is the condition a user has."""

    def __init__(self):
        r, w = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", "%dx%dx24" % (WIDTH, HEIGHT),
             "-nolisten", "tcp", "-noreset"], pass_fds=[w], stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            self.display = ":" + f.readline().strip()

    def close(self):
        self.proc.terminate()
        self.proc.wait()


class Busy:
    """One process keeping one core busy, as a loaded machine has."""

    def __init__(self):
        self.proc = subprocess.Popen(["sh", "-c", "while :; do :; done"])

    def close(self):
        self.proc.kill()
        self.proc.wait()


def app_env(display, build, renderer=None, language=None):
    env = dict(os.environ)
    for k in ("GTK_A11Y", "NO_AT_BRIDGE", "GSK_RENDERER", "LANGUAGE", "LC_ALL", "G_DEBUG"):
        env.pop(k, None)
    home = tempfile.mkdtemp(prefix="ovi-e2e-home-")
    atexit.register(shutil.rmtree, home, True)
    env.update({
        "DISPLAY": display,
        "GSETTINGS_BACKEND": "memory",
        "GSETTINGS_SCHEMA_DIR": os.path.join(build, "data"),
        "OVI_LOCALEDIR": os.path.join(build, "po"),
        "XDG_CONFIG_HOME": os.path.join(home, "config"),
        "XDG_CACHE_HOME": os.path.join(home, "cache"),
        "XDG_DATA_HOME": os.path.join(home, "data"),
        "LANG": "C.UTF-8",
    })
    if renderer:
        env["GSK_RENDERER"] = renderer
    if language:
        env["LANGUAGE"] = language
    return env


def grab(display, path):
    subprocess.run(["import", "-display", display, "-window", "root", path], check=True)


def differing_pixels(a, b):
    out = subprocess.run(["compare", "-metric", "AE", a, b, "null:"],
                         capture_output=True, text=True)
    return int(float(out.stderr.split()[0]))


def move_pointer(display, x, y):
    subprocess.run(["xdotool", "mousemove", str(x), str(y)], check=True,
                   env=dict(os.environ, DISPLAY=display))


def press_key(display, key):
    subprocess.run(["xdotool", "key", key], check=True, env=dict(os.environ, DISPLAY=display))


def type_text(display, text):
    subprocess.run(["xdotool", "type", text], check=True, env=dict(os.environ, DISPLAY=display))


def text_of(obj, role):
    """The text of an entry or a text view; a label's text is its name."""
    if role not in ("text", "entry", "password text", "terminal"):
        return ""
    try:
        if "Text" in obj.get_interfaces():
            return Atspi.Text.get_text(obj, 0, -1) or ""
    except Exception:
        pass
    return ""


class Node:
    def __init__(self, obj, role, name, text, children):
        self.obj, self.role, self.name, self.text, self.children = obj, role, name, text, children

    def walk(self):
        yield self
        for c in self.children:
            yield from c.walk()

    def strings(self):
        return [s for n in self.walk() for s in (n.name, n.text) if s]

    def find(self, role=None, name=None):
        for n in self.walk():
            if (role is None or n.role == role) and (name is None or n.name == name):
                return n
        return None

    def find_all(self, role):
        return [n for n in self.walk() if n.role == role]


class Unresponsive(Exception):
    pass


# A window answers each call at once unless its main loop is stuck; a whole
# read is a few thousand calls, which a loaded machine makes slow.
READ_SECONDS = 90
Atspi.set_timeout(5000, 15000)


def read_tree(obj, deadline=None):
    """The accessible tree below obj; a window that does not answer within
    READ_SECONDS in all is reported, not waited for."""
    if deadline is None:
        deadline = time.monotonic() + READ_SECONDS
    if time.monotonic() > deadline:
        raise Unresponsive("the window did not answer the accessibility bus within %d s"
                           % READ_SECONDS)
    try:
        role = obj.get_role_name()
        name = obj.get_name() or ""
    except Exception:
        return None
    children = []
    try:
        for i in range(obj.get_child_count()):
            c = obj.get_child_at_index(i)
            if c is not None:
                node = read_tree(c, deadline)
                if node is not None:
                    children.append(node)
    except Unresponsive:
        raise
    except Exception:
        pass
    return Node(obj, role, name, text_of(obj, role), children)


# Ceilings for conditions waited on: far above what any of them takes on a
# busy machine (the inspector reaches the accessibility bus in 0.4-1.1 s),
# so that only a window that never gets there fails.
APPEAR_SECONDS = 60
WAIT_SECONDS = 60

_started = []  # the inspectors start_app() started, to tell a crash from a slow start


def wait_for(probe, timeout=WAIT_SECONDS, interval=0.1):
    """Calls probe() until it returns a true value, and returns that value;
    after @timeout seconds, returns the last value probe() gave (a caller
    reports it). A condition, not a delay: it returns as soon as it holds."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def _exited():
    """Why no inspector will appear: one that start_app() started has ended."""
    for proc in _started:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            return "the inspector exited with status %d: %s" % (proc.returncode, err[-1500:])
    return None


def find_application(timeout=APPEAR_SECONDS):
    """The inspector's accessible application, once the registry lists it.
    Raises as soon as the inspector has exited (with what it printed), or
    after @timeout seconds."""
    def probe():
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is not None and (app.get_name() or "") == APP_NAME:
                return app
        return _exited()

    found = wait_for(probe, timeout)
    if isinstance(found, str):
        raise RuntimeError(found)
    if not found:
        raise RuntimeError("the inspector did not appear on the accessibility bus within %d s"
                           % timeout)
    return found


def application(timeout=APPEAR_SECONDS):
    """The inspector's accessible tree: one read of the whole tree."""
    return read_tree(find_application(timeout))


def table_rows(tree, table_name):
    """Rows holding data (cells) of the table with this accessible name."""
    table = tree.find("tree table", table_name) or tree.find("table", table_name)
    if table is None:
        return None
    rows = []
    for row in table.find_all("table row"):
        cells = [c for c in row.children if c.role == "table cell"]
        if cells:
            rows.append([" ".join(c.strings()) for c in cells])
    return rows


def extents(node):
    """(x, y, width, height) in the window; a widget in a closed revealer is
    0 x 0 (GTK 4.8 does not report the SHOWING state reliably)."""
    if node is None:
        return None
    e = Atspi.Component.get_extents(node.obj, Atspi.CoordType.WINDOW)
    return [e.x, e.y, e.width, e.height]


SIDEBAR_NAME = "Time, device, model and iteration"


def sidebar_count_label(timeout=WAIT_SECONDS):
    """The label holding the record count of the sidebar's first row, found
    without reading the tables (a few hundred calls, not thousands); waits
    up to @timeout seconds for it, None if it never comes."""
    def search(obj, depth=0):
        role = obj.get_role_name()
        if role in ("tree table", "table") or depth > 40:
            return None
        name = obj.get_name() or ""
        if role in ("list", "tree") and name.startswith(SIDEBAR_NAME):
            for i in range(obj.get_child_count()):
                row = obj.get_child_at_index(i)
                if row.get_role_name() in ("list item", "table row"):
                    labels = [n for n in read_tree(row).walk() if n.role == "label"]
                    digits = [n for n in labels if n.name.isdigit()]
                    return digits[-1].obj if digits else None
            return None
        for i in range(obj.get_child_count()):
            c = obj.get_child_at_index(i)
            found = search(c, depth + 1) if c is not None else None
            if found is not None:
                return found
        return None

    return wait_for(lambda: search(find_application()), timeout)


def find_outside_tables(probe, timeout=WAIT_SECONDS):
    """The first accessible below the inspector for which probe(obj, role,
    name) is true, searched without entering tables (a few hundred calls,
    not thousands); waits for it up to @timeout seconds, None if it never
    comes."""
    def search(obj, depth=0):
        role = obj.get_role_name()
        if role in ("tree table", "table") or depth > 40:
            return None
        if probe(obj, role, obj.get_name() or ""):
            return obj
        for i in range(obj.get_child_count()):
            c = obj.get_child_at_index(i)
            found = search(c, depth + 1) if c is not None else None
            if found is not None:
                return found
        return None

    return wait_for(lambda: search(find_application()), timeout)


def sidebar_total(tree):
    """The record count the sidebar gives the opened folder (its first row)."""
    sidebar = next((n for n in tree.walk() if n.role in ("list", "tree", "tree table")
                    and n.name.startswith("Time, device, model and iteration")), None)
    if sidebar is None:
        return None
    first = next((n for n in sidebar.walk() if n.role in ("list item", "table row")), None)
    if first is None:
        return 0
    numbers = [s for s in first.strings() if s.isdigit()]
    return int(numbers[-1]) if numbers else None


def shown(node):
    """Whether a widget is on screen as far as AT-SPI can tell: GTK 4.8
    reports no SHOWING state and keeps hidden widgets in the tree, so it
    must be visible and have a size (a closed revealer's child is 0 x 0)."""
    return node is not None and obj_shown(node.obj)


def obj_shown(obj):
    """shown() for an Atspi.Accessible."""
    states = [s.value_nick for s in obj.get_state_set().get_states()]
    e = Atspi.Component.get_extents(obj, Atspi.CoordType.WINDOW)
    return "visible" in states and e.width * e.height > 0


def click(node):
    """Activates a widget as assistive technologies do (its first action)."""
    if "Action" not in node.obj.get_interfaces():
        raise RuntimeError("%s %s has no action" % (node.role, node.name))
    Atspi.Action.do_action(node.obj, 0)


def start_app(args, env):
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _started.append(proc)
    return proc


def _cpu_ticks_and_running(pid):
    """(user + system clock ticks of the process, whether one of its threads
    is running, runnable or in uninterruptible sleep)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    running = False
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue  # a worker thread that just ended
        running |= state in ("R", "D")
    return ticks, running


IDLE_SECONDS = 1.0


def settled(proc):
    """wait_idle() for the inspector @proc and the X server that
    run_in_own_display() started for this run."""
    pids = [proc.pid]
    if os.environ.get("OVI_E2E_XVFB_PID"):
        pids.append(int(os.environ["OVI_E2E_XVFB_PID"]))
    return wait_idle(pids)


def wait_idle(pids, quiet=IDLE_SECONDS, timeout=120):
    """Waits, without touching them, until the processes @pids (the
    inspector, and the X server that draws for it) have been idle for
    @quiet seconds: no thread seen running or runnable at any 50 ms sample,
    and less than 2 % of a core used over that time. Reading /proc sends a
    process nothing, so a window whose main loop has stalled stays stalled
    and is then seen idle with its work unfinished. Returns the seconds it
    took; raises if the processes never go idle within @timeout, or if one
    has exited."""
    start = time.monotonic()
    deadline = start + timeout
    window = []  # (time, total ticks, anything running)
    while True:
        now = time.monotonic()
        total, running = 0, False
        for pid in pids:
            try:
                ticks, busy = _cpu_ticks_and_running(pid)
            except OSError:
                raise RuntimeError("process %d exited while waiting for it to be idle: %s"
                                   % (pid, _exited() or "")) from None
            total += ticks
            running |= busy
        window.append((now, total, running))
        while window and window[0][0] < now - quiet:
            window.pop(0)
        if (now - start >= quiet and window[0][0] <= now - quiet + 0.1
                and not any(r for _, _, r in window)
                and (window[-1][1] - window[0][1]) < 0.02 * quiet * os.sysconf("SC_CLK_TCK")):
            return now - start
        if now > deadline:
            raise RuntimeError("still busy after %d s" % timeout)
        time.sleep(0.05)


def stop_app(proc):
    if proc in _started:
        _started.remove(proc)
    proc.terminate()
    try:
        _, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err.decode(errors="replace")


def in_private_session(argv, timeout=120, runtime=None):
    """Runs argv under its own dbus-run-session and runtime folder, as a
    desktop login has: the accessibility bus's socket lives there, and two
    sessions sharing one would take each other's. @runtime: that folder, an
    empty one the caller owns (made if missing, emptied afterwards), instead
    of a new temporary one."""
    made = runtime is None or not os.path.exists(runtime)
    if runtime is None:
        runtime = tempfile.mkdtemp(prefix="ovi-e2e-run-")
    os.makedirs(runtime, mode=0o700, exist_ok=True)
    os.chmod(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=runtime)
    # The accessibility registry is started by the session bus with the
    # bus's environment: it must open the X server the inspector runs on,
    # not whichever one DISPLAY named outside (under xvfb-run, another
    # one; when that one is busy or gone, "Cannot open default display"
    # and the inspector never reaches the bus).
    if "--display" in argv:
        env["DISPLAY"] = argv[argv.index("--display") + 1]
    try:
        return subprocess.run(["dbus-run-session", "--"] + argv, capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(argv, -1, "", "timed out after %d s" % timeout)
    finally:
        if made:
            shutil.rmtree(runtime, ignore_errors=True)
        else:
            for name in os.listdir(runtime):
                path = os.path.join(runtime, name)
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    os.unlink(path)


def emit(result):
    print(json.dumps(result))
    sys.stdout.flush()


def skip_without(tools):
    """77 (meson's "skipped") with a line saying why, when a tool is missing."""
    for tool in tools:
        if shutil.which(tool) is None:
            print("skipped: %s is not installed" % tool)
            return 77
    return None


def run_in_own_display(script, tools=("Xvfb", "dbus-run-session")):
    """What a test's main() does when it is not the --one run: starts a bare
    Xvfb, runs the script again with --one --display and the arguments it was
    given, under its own session bus, prints what it printed and returns its
    exit status."""
    skipped = skip_without(tools)
    if skipped is not None:
        return skipped
    xvfb = Xvfb()
    os.environ["OVI_E2E_XVFB_PID"] = str(xvfb.proc.pid)
    try:
        r = in_private_session([sys.executable, os.path.abspath(script), "--one",
                                "--display", xvfb.display] + sys.argv[1:])
    finally:
        xvfb.close()
    print(r.stdout)
    if r.returncode != 0:
        print(r.stderr[-3000:])
    return r.returncode
