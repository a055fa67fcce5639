#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peak memory of `overflow-inspector-cli diff` for many small operators.

    benchmarks/bench-diff-memory.py BUILD [--ops N] [--keep DIR]

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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", help="a build folder (meson), e.g. _build")
    ap.add_argument("--ops", type=int, default=100000)
    ap.add_argument("--keep", help="write the runs here and keep them (reused when present)")
    args = ap.parse_args()
    cli = os.path.join(args.build, "src", "cli", "overflow-inspector-cli")
    make = os.path.join(args.build, "benchmarks", "ovi-bench-make")
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
