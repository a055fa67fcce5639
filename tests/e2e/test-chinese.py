#!/usr/bin/python3
"""The window in Chinese, started from the build tree as the README's first
command does (OVI_LOCALEDIR, which `meson devenv` sets), read through AT-SPI
page by page: each page's strings must be there in Simplified Chinese, and
not in English.

  test-chinese.py --build DIR --folder PATH --po po/zh_CN.po
                  --page NAME=MSGID;MSGID... ...
                  [--shown NAME=TEXT ...] [--not-shown NAME=TEXT ...]

--shown and --not-shown check text that no single msgid holds, such as a
problem's reason or a tensor label built by core from a format.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ovi_e2e  # noqa: E402


def read_po(path):
    """msgid -> msgstr of the catalog (plain entries, no plurals needed)."""
    catalog, field = {}, None
    entry = {"msgid": "", "msgstr": ""}

    def unquote(s):
        return s.strip()[1:-1].encode().decode("unicode_escape").encode("latin-1").decode()

    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("msgid "):
            if entry["msgid"]:
                catalog[entry["msgid"]] = entry["msgstr"]
            entry = {"msgid": unquote(line[6:]), "msgstr": ""}
            field = "msgid"
        elif line.startswith("msgstr "):
            entry["msgstr"] = unquote(line[7:])
            field = "msgstr"
        elif line.startswith('"') and field:
            entry[field] += unquote(line)
        elif not line.strip():
            field = None
    if entry["msgid"]:
        catalog[entry["msgid"]] = entry["msgstr"]
    return catalog


def texts(specs, page):
    """The TEXTs of the NAME=TEXT specs for @page."""
    return [spec.split("=", 1)[1] for spec in specs if spec.split("=", 1)[0] == page]


def one(args):
    catalog = read_po(args.po)
    env = ovi_e2e.app_env(args.display, args.build, "cairo", "zh_CN")
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    proc = ovi_e2e.start_app([app, args.folder], env)
    time.sleep(6)
    failures = []
    for spec in args.page:
        page, msgids = spec.split("=", 1)
        tab_name = catalog.get(page, page)
        tree = ovi_e2e.application()
        tab = tree.find("page tab", tab_name) or next(
            (n for n in tree.walk() if n.role in ("page tab", "toggle button", "radio button")
             and n.name == tab_name), None)
        if tab is None:
            failures.append("no page tab named %s (%s)" % (tab_name, page))
            continue
        ovi_e2e.click(tab)
        time.sleep(1.5)
        strings = ovi_e2e.application().strings()
        seen = " \x00 ".join(strings)
        for msgid in msgids.split(";"):
            msgstr = catalog.get(msgid)
            if not msgstr:
                failures.append("%s: %r has no translation in the catalog" % (page, msgid))
            elif msgstr not in seen:
                failures.append("%s: %r is not shown as %r" % (page, msgid, msgstr))
            elif msgid != msgstr and msgid in strings:
                failures.append("%s: %r is shown in English" % (page, msgid))
        for text in texts(args.shown, page):
            if text not in seen:
                failures.append("%s: %r is not shown" % (page, text))
        for text in texts(args.not_shown, page):
            if text in seen:
                failures.append("%s: %r is shown" % (page, text))
        print("%s %s (%s): %d strings read" % ("ok  " if not failures else "....", page, tab_name,
                                               len(strings)))
    ovi_e2e.stop_app(proc)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", required=True)
    p.add_argument("--folder", required=True)
    p.add_argument("--po", required=True)
    p.add_argument("--page", action="append", default=[])
    p.add_argument("--shown", action="append", default=[])
    p.add_argument("--not-shown", action="append", default=[])
    p.add_argument("--one", action="store_true")
    p.add_argument("--display")
    args = p.parse_args()
    if args.one:
        return one(args)
    return ovi_e2e.run_in_own_display(__file__)


sys.exit(main())
