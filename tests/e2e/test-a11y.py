#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a screen reader is told, read through AT-SPI from the real binary
of the build tree on the example folder: table rows, sidebar rows and
buttons have names a person can understand (a record row: its unit,
operator and status; an operator row: type, name and class; a sidebar
row: its level and count; a Timeline row: the device, its machine, the
iteration, the operator and its role; a Problems row: the file and the
reason), never a GTK type name such as "GtkListItemWidget", and no name
carries a mnemonic underscore or says its label twice. Then the keyboard,
with real key presses: Alt+2 and Ctrl+Page Down switch pages, Escape
empties the search and the table lists every record again, Tab leaves the
table for the details, and Shift+Tab from the search lands on a sidebar
row named by what it shows (not on an unnamed panel inside it).

  test-a11y.py --build DIR --folder PATH
"""

import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovi_e2e  # noqa: E402

# Roles a person moves to and hears by name.
NAMED_ROLES = ("table row", "list item", "push button", "toggle button", "check box",
               "radio button", "page tab", "combo box", "menu item")
# Names that a reader must never be given for those.
TYPE_NAME = re.compile(r"^(Gtk|Adw|Ovi)[A-Z]\w*$")
# "_Abnormal Only", "Open _Example": an underscore starting a word.
MNEMONIC = re.compile(r"(^|\s)_[^\W_]")

RECORD_ROWS = [
    "First overflow, AI Core: Cast gradients/Cast_3, status 0x110 FP16+INT",
    "Overflow 2, DHA Atomic Add: ReduceSum loss/ReduceSum, status 0x1",
]
EXAMPLE_RECORDS = 8
OPERATOR_ROW = "Cast gradients/Cast_3, Origin"
TIMELINE_TABLE = "Devices by their first overflow"
# What the example's one device shows besides its machine (this host and
# the folder's path, read from the row's first cell).
TIMELINE_SHOWN = ["device 0", "iteration 3", "Cast gradients/Cast_3", "AI Core", "Origin",
                  "Earliest"]
PROBLEMS_TABLE = "Files that could not be read"
SIDEBAR_ROWS = [
    "Folder example-dump: 8 overflow records",
    "Iteration 3: 2 overflow records",
    "Iteration 12: 1 overflow record",
]


def said_twice(name):
    words = name.split()
    half = len(words) // 2
    return len(words) >= 2 and len(words) % 2 == 0 and words[:half] == words[half:]


def bad_names(tree, where):
    """Interactive widgets a reader would announce badly."""
    failures = []
    for n in tree.walk():
        if n.role not in NAMED_ROLES:
            continue
        if n.role == "list item" and not n.name and not n.children:
            continue
        if TYPE_NAME.match(n.name):
            failures.append("%s: a %s is named %r" % (where, n.role, n.name))
        elif MNEMONIC.search(n.name):
            failures.append("%s: a %s's name has a mnemonic underscore: %r"
                            % (where, n.role, n.name))
        elif said_twice(n.name):
            failures.append("%s: a %s's name says its label twice: %r" % (where, n.role, n.name))
    return failures


def names(tree, role):
    return [n.name for n in tree.walk() if n.role == role]


def states(node):
    return [s.value_nick for s in node.obj.get_state_set().get_states()]


def shown_page():
    return next((n.name for n in ovi_e2e.application().walk()
                 if n.role == "page tab" and "selected" in states(n)), None)


def focused():
    return next(((n.role, n.name) for n in ovi_e2e.application().walk()
                 if "focused" in states(n)), (None, None))


def record_rows():
    return len(ovi_e2e.table_rows(ovi_e2e.application(), "Overflow records") or [])


def keyboard(display):
    """Real key presses, checked as a reader sees the result: after each,
    the result a key should bring is waited for (up to ovi_e2e's ceiling)."""
    failures = []
    for keys, page in (("alt+2", "Operators"), ("ctrl+Page_Down", "Graph"),
                       ("ctrl+Page_Up", "Operators"), ("alt+1", "Overflows")):
        ovi_e2e.press_key(display, keys)
        if not ovi_e2e.wait_for(lambda: shown_page() == page):
            failures.append("%s shows %r, not %r" % (keys, shown_page(), page))
    all_rows = record_rows()
    ovi_e2e.press_key(display, "ctrl+f")
    if not ovi_e2e.wait_for(lambda: focused()[0] in ("entry", "text")):
        failures.append("Ctrl+F focuses %r, not the search entry" % (focused(),))
    ovi_e2e.type_text(display, "ReduceSum")
    found = ovi_e2e.wait_for(lambda: record_rows() == 1) and 1 or record_rows()
    ovi_e2e.press_key(display, "Escape")
    again = ovi_e2e.wait_for(lambda: record_rows() == all_rows) and all_rows or record_rows()
    if not (found == 1 and again == all_rows == EXAMPLE_RECORDS):
        failures.append("search then Escape: %d rows, %d found, %d after Escape"
                        % (all_rows, found, again))
    # From the search: Tab to the unit filter, to a row of the table, then
    # out of the table. Each Tab moves the focus: wait for it to move.
    seen = []
    for _ in range(3):
        before = focused()
        ovi_e2e.press_key(display, "Tab")
        seen.append(ovi_e2e.wait_for(lambda: focused() != before and focused()) or before)
    roles = [role for role, _ in seen]
    if roles[1] != "table row" or roles[2] == "table row":
        failures.append("Tab from the search goes through %r" % seen)
    return failures + sidebar_keyboard(display)


def sidebar_focus():
    """(the sidebar row holding the keyboard focus, the focused object),
    or None when the focus is not in the sidebar."""
    tree = ovi_e2e.application()
    sidebar = next((n for n in tree.walk()
                    if n.role == "list" and n.name.startswith(ovi_e2e.SIDEBAR_NAME)), None)
    for item in (sidebar.children if sidebar else []):
        node = next((n for n in item.walk() if "focused" in states(n)), None)
        if node is not None:
            return item, node
    return None


def sidebar_keyboard(display):
    """From the search, Shift+Tab moves into the sidebar: what takes the
    focus there is named by what its row shows ("Iteration 3"), whichever
    object of the row GTK gives the focus to."""
    ovi_e2e.press_key(display, "ctrl+f")
    if not ovi_e2e.wait_for(lambda: focused()[0] in ("entry", "text")):
        return ["Ctrl+F focuses %r, not the search entry" % (focused(),)]
    ovi_e2e.press_key(display, "shift+Tab")
    found = ovi_e2e.wait_for(sidebar_focus)
    if not found:
        return ["Shift+Tab from the search focuses %r, not a sidebar row" % (focused(),)]
    item, node = found
    shown = next((n.name for n in item.walk() if n.role == "label" and n.name), "")
    print("Sidebar: Shift+Tab focuses a %s named %r in the row showing %r"
          % (node.role, node.name, shown))
    if not shown or shown not in node.name:
        return ["the sidebar row showing %r takes the focus as a %s named %r"
                % (shown, node.role, node.name)]
    return []


def row_nodes(tree, table_name):
    """The rows holding data of the table with this accessible name."""
    table = tree.find("tree table", table_name) or tree.find("table", table_name)
    if table is None:
        return []
    return [r for r in table.find_all("table row")
            if any(c.role == "table cell" for c in r.children)]


def cell_texts(row):
    """What each cell of a row shows: its labels' texts."""
    return [[n.name for n in c.walk() if n.role == "label" and n.name]
            for c in row.children if c.role == "table cell"]


def show_page(tree, page, table):
    """Clicks the page's tab and returns the tree once @table has rows."""
    tab = tree.find("page tab", page)
    if tab is None:
        return None
    ovi_e2e.click(tab)
    ovi_e2e.wait_for(lambda: row_nodes(ovi_e2e.application(), table), interval=0.5)
    return ovi_e2e.application()


def timeline_rows(tree):
    """A Timeline row is named by the device, its machine, where it first
    overflowed and its role."""
    tree = show_page(tree, "Timeline", TIMELINE_TABLE)
    rows = row_nodes(tree, TIMELINE_TABLE) if tree else []
    if not rows:
        return ["no Timeline row on screen"]
    failures = bad_names(tree, "Timeline")
    row = rows[0]
    machine = cell_texts(row)[0]
    for expected in machine[:1] + TIMELINE_SHOWN:
        if expected not in row.name:
            failures.append("the Timeline row is named %r, without %r" % (row.name, expected))
    print("Timeline: %r" % row.name)
    return failures


def problem_rows(tree):
    """A Problems row is named by the file and the reason it shows."""
    tree = show_page(tree, "Problems", PROBLEMS_TABLE)
    rows = row_nodes(tree, PROBLEMS_TABLE) if tree else []
    if not rows:
        return ["no Problems row on screen"]
    failures = bad_names(tree, "Problems")
    for row in rows:
        shown = [t for texts in cell_texts(row) for t in texts]
        if len(shown) < 2 or not all(t in row.name for t in shown):
            failures.append("the Problems row showing %r is named %r" % (shown, row.name))
    print("Problems: %r" % [r.name for r in rows])
    return failures


def one(args):
    env = ovi_e2e.app_env(args.display, args.build, "cairo")
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    proc = ovi_e2e.start_app([app, args.folder], env)
    failures = []

    # The scan is over once every record row is in the table.
    ovi_e2e.wait_for(lambda: record_rows() == EXAMPLE_RECORDS, interval=0.5)
    tree = ovi_e2e.application()
    rows = names(tree, "table row")
    for expected in RECORD_ROWS:
        if expected not in rows:
            failures.append("no record row named %r (rows: %r)" % (expected, rows[:4]))
    items = names(tree, "list item")
    for expected in SIDEBAR_ROWS:
        if expected not in items:
            failures.append("no sidebar row named %r" % expected)
    unit = next((n for n in tree.walk() if n.role == "combo box" and n.name == "Unit filter"),
                None)
    toggle = unit and next((c for c in unit.walk() if c is not unit and "button" in c.role), None)
    if toggle is None or toggle.name != "Unit":
        failures.append("the unit filter's button is named %r, not 'Unit'"
                        % (toggle.name if toggle else None))
    failures += bad_names(tree, "Overflows")
    print("Overflows: %d rows, %d list items read" % (len(rows), len(items)))

    tab = tree.find("page tab", "Operators")
    if tab is None:
        failures.append("no Operators page tab")
    else:
        ovi_e2e.click(tab)
        ovi_e2e.wait_for(lambda: OPERATOR_ROW in names(ovi_e2e.application(), "table row"),
                         interval=0.5)
        tree = ovi_e2e.application()
        rows = names(tree, "table row")
        if OPERATOR_ROW not in rows:
            failures.append("no operator row named %r (rows: %r)" % (OPERATOR_ROW, rows[:4]))
        abnormal = [n for n in tree.walk() if "button" in n.role and "Abnormal" in n.name]
        if [n.name for n in abnormal] != ["Abnormal Only"]:
            failures.append("the abnormal filter is named %r, not 'Abnormal Only'"
                            % [n.name for n in abnormal])
        failures += bad_names(tree, "Operators")
        print("Operators: %d rows read" % len(rows))

    failures += timeline_rows(tree)
    failures += problem_rows(ovi_e2e.application())

    failures += keyboard(args.display)

    err = ovi_e2e.stop_app(proc)
    for f in failures:
        print("FAIL " + f)
    if failures:
        print(err[-2000:])
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--folder", required=True)
    p.add_argument("--one", action="store_true")
    p.add_argument("--display")
    args = p.parse_args()
    if args.one:
        return one(args)
    return ovi_e2e.run_in_own_display(__file__)


sys.exit(main())
