#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The window in Chinese, started from the build tree as the README's first
command does (OVI_LOCALEDIR, which `meson devenv` sets), read through AT-SPI
page by page: each page's strings must be there in Simplified Chinese, and
not in English.

  test-chinese.py --build DIR --folder PATH --po po/zh_CN.po
                  --page NAME=MSGID;MSGID... ...
                  [--shown NAME=TEXT ...] [--not-shown NAME=TEXT ...]
                  [--lang LOCALE]

With --lang the window is started as the README says, LANG=LOCALE with no
LANGUAGE, rather than LANG=C.UTF-8 LANGUAGE=zh_CN: with LOCALE
zh_CN.UTF-8 on a machine that never generated it (`locale -a`), the C
library refuses the locale and the inspector must still speak Chinese.

--shown and --not-shown check text that no single msgid holds, such as a
problem's reason or a tensor label built by core from a format.

On every page, no text of the whole accessible tree that has Chinese in it
may hold an English word, except data (op types and names, record fields,
the folder's path) and the small list of terms in ALLOWED.
"""

import argparse
import os
import re
import socket
import subprocess
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


# Words that stay as they are in a Chinese sentence: value and type names,
# the units and status bits as the vendor's documents write them, tensor
# formats, and names of tools and file formats.
ALLOWED = set("""
NaN Inf nan inf float16 float32 float64 bfloat16 int4 int8 int16 int32 int64 uint1 uint8 uint16
uint32 uint64 bool complex32 complex64 complex128 double string hifloat8 hifloat4 float8_e5m2
float8_e4m3fn float8_e8m0 float6_e3m2 float6_e2m3 float4_e2m1 float4_e1m2
AI Core AIC AIV AICPU DHA SDMA L2 Atomic Add NEG INT FP F2U FP16 CUBE
NCHW NHWC ND NC1HWC0 FRACTAL_Z FRACTAL_NZ NDHWC NCDHW
Dump Opdebug JSON CSV npy txt CLI HCCL NPU Ascend Tab Ctrl Alt Shift Enter Esc Escape F5 F9
overflow inspector cli stats report ID FP32 INT32 UB max
""".split())
# A word is two letters or more after no letter or digit ("0x110" has
# none; one letter is a mnemonic, "迭代(I)", or "|x|"). Identifiers
# with an underscore (op names, record fields such as pc_start) are data.
WORD = re.compile(r"(?<![0-9A-Za-z_])[A-Za-z][A-Za-z0-9_]+")
PIECE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
CJK = re.compile(r"[\u4e00-\u9fff]")


def data_words(folder):
    """Words of the names under the folder, of mapping.csv (long op names)
    and of its path: op types and names, shown as they are."""
    words = set(PIECE.findall(os.path.abspath(folder)))
    words.update(PIECE.findall(socket.gethostname()))
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            words.update(PIECE.findall(name))
            if name == "mapping.csv":
                with open(os.path.join(top, name), encoding="utf-8", errors="replace") as f:
                    words.update(PIECE.findall(f.read()))
    return words


def mixed(strings, allowed):
    """Chinese strings with an English word that is neither data nor an
    allowed term, as (word, string) pairs."""
    found = []
    for text in strings:
        if not CJK.search(text):
            continue
        for word in WORD.findall(text):
            if "_" not in word and word not in allowed and word.lower() not in allowed:
                found.append((word, text))
    return found


def texts(specs, page):
    """The TEXTs of the NAME=TEXT specs for @page."""
    return [spec.split("=", 1)[1] for spec in specs if spec.split("=", 1)[0] == page]


def one(args):
    catalog = read_po(args.po)
    env = ovi_e2e.app_env(args.display, args.build, "cairo", "zh_CN")
    if args.lang:
        for k in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            env.pop(k, None)
        env["LANG"] = args.lang
        generated = subprocess.run(["locale", "-a"], capture_output=True, text=True).stdout
        wanted = args.lang.lower().replace("-", "")
        print("LANG=%s, no LANGUAGE; `locale -a` %s it" %
              (args.lang, "lists" if wanted in generated.lower().split() else "does not list"))
    app = os.path.join(args.build, "src", "app", "overflow-inspector")
    proc = ovi_e2e.start_app([app, args.folder], env)
    # Left alone until the inspector and the X server are idle: the scan is
    # over (tests/e2e/test-left-alone.py shows an idle window is a finished one).
    ovi_e2e.settled(proc)
    failures = []
    allowed = ALLOWED | data_words(args.folder)
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
        # The page is drawn once the texts it must show are there (a page
        # that lacks one is read again until ovi_e2e's ceiling, then fails).
        wanted = [catalog.get(m) for m in msgids.split(";") if catalog.get(m)]
        wanted += texts(args.shown, page)

        def page_shown():
            strings = ovi_e2e.application().strings()
            seen = " \x00 ".join(strings)
            return strings if all(w in seen for w in wanted) else None

        strings = ovi_e2e.wait_for(page_shown, interval=0.5) or ovi_e2e.application().strings()
        seen = " \x00 ".join(strings)
        for msgid in msgids.split(";"):
            msgstr = catalog.get(msgid)
            if not msgstr:
                failures.append("%s: %r has no translation in the catalog" % (page, msgid))
            elif msgstr not in seen:
                failures.append("%s: %r is not shown as %r" % (page, msgid, msgstr))
            elif msgid != msgstr and msgid in strings:
                failures.append("%s: %r is shown in English" % (page, msgid))
        for word, text in mixed(strings, allowed):
            failures.append("%s: the English word %r in a Chinese text: %r" % (page, word, text))
        for text in texts(args.shown, page):
            if text not in seen:
                failures.append("%s: %r is not shown" % (page, text))
        for text in texts(args.not_shown, page):
            if text in seen:
                failures.append("%s: %r is shown, in %r" %
                                (page, text, [t for t in strings if text in t][:3]))
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
    p.add_argument("--lang")
    p.add_argument("--one", action="store_true")
    p.add_argument("--display")
    args = p.parse_args()
    if args.one:
        return one(args)
    return ovi_e2e.run_in_own_display(__file__)


sys.exit(main())
