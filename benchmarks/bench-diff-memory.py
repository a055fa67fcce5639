#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peak memory of `overflow-inspector-cli diff` for many small operators.

    benchmarks/bench-diff-memory.py BUILD [--ops N] [--keep DIR]
    benchmarks/bench-diff-memory.py BUILD --check

--check (the test `diff-memory`, suite bench) diffs 2 000 and 20 000
operators in each mode, in one run, and fails when the memory an operator
costs, (RSS(20 000) - RSS(2 000)) / 18 000, is above 5 500 bytes, or when
RSS(20 000) / RSS(2 000) is above 6.8 (the per-operator share growing
against what every diff costs). These guard against growth from where the
diff is now (2026-12-08: 5 042 bytes, ratio 6.34, text; 100 000 operators
peak at 487 MB, under issue #39's 500 MB, see benchmarks/README.md).

Writes two runs of N operators (default 100 000) in one iteration with the
project's writer (`ovi-bench-make tree`), then diffs them once in each output
mode (text, --json, --csv FILE) and prints each run's peak resident set size
(the kernel's ru_maxrss of the child, from wait4) and wall time, as a
Markdown table. The target of issue #39: under 500 MB in every mode.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time


def run(argv):
    start = time.monotonic()
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, usage.ru_maxrss * 1024, time.monotonic() - start


def make_runs(make, work, ops):
    sides = [os.path.join(work, side) for side in ("mine", "golden")]
    for side in sides:
        if not os.path.isdir(side):
            subprocess.run([make, "tree", side, "1", str(ops), "0"], check=True,
                           stdout=subprocess.DEVNULL)
    return sides


MODES = (("text", []), ("--json", ["--json"]), ("--csv", ["--csv", None]))


def measure(cli, sides, csv):
    out = {}
    for mode, extra in MODES:
        extra = [csv if e is None else e for e in extra]
        out[mode] = run([cli, "diff"] + extra + sides)
    return out


def check(cli, make):
    work = tempfile.mkdtemp(prefix="ovi-diff-memory-")
    failed = False
    try:
        small = measure(cli, make_runs(make, os.path.join(work, "2k"), 2000),
                        os.path.join(work, "2k.csv"))
        large = measure(cli, make_runs(make, os.path.join(work, "20k"), 20000),
                        os.path.join(work, "20k.csv"))
        for mode, _ in MODES:
            (c1, r1, _), (c2, r2, _) = small[mode], large[mode]
            per_op = (r2 - r1) / 18000
            ratio = r2 / r1
            ok = c1 == 0 and c2 == 0 and per_op <= 5500 and ratio <= 6.8
            failed |= not ok
            print(f"{mode}: 2 000 ops {r1 / 1e6:.1f} MB, 20 000 ops {r2 / 1e6:.1f} MB, "
                  f"{per_op:.0f} bytes an operator (at most 5 500), ratio {ratio:.2f} "
                  f"(at most 6.8), exit {c1}/{c2}: {'ok' if ok else 'FAILED'}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", help="a build folder (meson), e.g. _build")
    ap.add_argument("--ops", type=int, default=100000)
    ap.add_argument("--keep", help="write the runs here and keep them (reused when present)")
    ap.add_argument("--check", action="store_true",
                    help="2 000 against 20 000 operators: fail when an operator costs more")
    args = ap.parse_args()
    cli = os.path.join(args.build, "src", "cli", "overflow-inspector-cli")
    make = os.path.join(args.build, "benchmarks", "ovi-bench-make")
    if args.check:
        sys.exit(check(cli, make))
    work = args.keep or tempfile.mkdtemp(prefix="ovi-diff-memory-")
    try:
        sides = [os.path.join(work, side) for side in ("mine", "golden")]
        for side in sides:
            if not os.path.isdir(side):
                subprocess.run([make, "tree", side, "1", str(args.ops), "0"], check=True)
        csv = os.path.join(work, "out.csv")
        print("| mode | operators | peak RSS | wall | exit |")
        print("| --- | ---: | ---: | ---: | ---: |")
        for mode, extra in (("text", []), ("--json", ["--json"]), ("--csv", ["--csv", csv])):
            code, rss, wall = run([cli, "diff"] + extra + sides)
            print(f"| {mode} | {args.ops} | {rss / 1e6:.0f} MB | {wall:.1f} s | {code} |")
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
