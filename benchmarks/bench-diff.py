#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`overflow-inspector-cli diff` against the vendor's `msaccucmp compare`,
side by side in one run, on the same two runs.

    benchmarks/bench-diff.py [--build DIR] [--msaccucmp DIR] [--runs N]
                             [--shape small|large] [--ops N] [--big COUNT] [--tmp DIR]
                             [--before DIR] [--no-vendor]

The two runs are written by the project's writer (tests/diff/ovi-make-diff-runs
bench), in two shapes (both unless --shape says one):
- small: N operators each (default 1000), float16 and float32 tensors of
  1 024 to 8 192 elements, one operator with a float32 output of COUNT
  elements (default 5 000 000, so about 52 MB a run);
- large: N operators each (default 1000), every input and output float32 of
  COUNT elements (default 25 000, so about 200 MB a run).
Both have a difference injected from the middle operator on. The sides
alternate (ours, the floor, then the vendor's), each run into a fresh output
folder, and the table gives the median wall times, their ratio, and each
side's peak resident memory (/usr/bin/time) against the largest tensor pair
(the COUNT-element output on both sides, as stored). The floor is `cat` of
both runs' files to /dev/null: reading the same bytes from the page cache.

The vendor's msaccucmp is the folder tests/diff/setup-msaccucmp.sh made:
--msaccucmp, else $OVI_MSACCUCMP, else ref/msaccucmp beside the checkout.
Where our CLI has no `diff` command yet, the vendor's side is measured alone.

--before DIR is a build of earlier code: its `diff --csv` is timed on the
same runs, alternating with ours (which goes first swaps each run), and the
table gives both medians and their ratio: "no slower" measured side by side.
--no-vendor leaves msaccucmp out.
"""
import argparse
import csv
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(here)
parser = argparse.ArgumentParser()
parser.add_argument("--build", default=os.path.join(top, "_build-bench"))
parser.add_argument("--msaccucmp", default=os.environ.get("OVI_MSACCUCMP")
                    or os.path.join(os.path.dirname(top), "ref", "msaccucmp"))
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--shape", choices=("small", "large"), action="append")
parser.add_argument("--ops", type=int, default=1000)
parser.add_argument("--big", type=int, default=None,
                    help="COUNT (default 5 000 000 for small, 25 000 for large)")
parser.add_argument("--tmp", default=None, help="where to write the runs (default: a temporary folder)")
parser.add_argument("--before", default=None, help="a build of earlier code, timed against this one")
parser.add_argument("--no-vendor", action="store_true", help="leave msaccucmp out")
args = parser.parse_args()

python = "/usr/bin/python3"
cli = os.path.join(args.build, "src", "cli", "overflow-inspector-cli")
make = os.path.join(args.build, "tests", "diff", "ovi-make-diff-runs")
before_cli = os.path.join(args.before, "src", "cli", "overflow-inspector-cli") if args.before else None
for path in [cli, make] + ([] if args.no_vendor else [os.path.join(args.msaccucmp, "msaccucmp.py")]) + \
        ([before_cli] if before_cli else []):
    if not os.path.exists(path):
        sys.exit("bench-diff: %s not found (build the project; set up msaccucmp with "
                 "tests/diff/setup-msaccucmp.sh)" % path)


def timed(cmd, cwd=None):
    """Wall time, peak RSS (bytes) and CPU time (user + system, children
    included) of one command, which must succeed
    (the vendor exits 0, 1 or 2 when it compared, our diff 0 or 5)."""
    with tempfile.NamedTemporaryFile("r") as rss:
        start = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", rss.name] + cmd, cwd=cwd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - start
        if p.returncode not in (0, 1, 5):
            sys.exit("bench-diff: %s exited %d:\n%s" % (cmd, p.returncode, p.stderr[-2000:]))
        kib, user, system = rss.read().split()[-3:]
        return wall, int(kib) * 1024, float(user) + float(system)


def rows(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    return [(row[2], row[8]) for row in r[1:]]


def has_diff():
    p = subprocess.run([cli, "diff", "--help"], capture_output=True, text=True)
    return p.returncode == 0


def shape_case(tmp, shape):
    """One shape: the runs written, then ours (and --before's), the floor
    and the vendor's alternating. Returns 0 when the rows agree."""
    big = args.big or (25000 if shape == "large" else 5000000)
    my, golden = os.path.join(tmp, shape, "my"), os.path.join(tmp, shape, "golden")
    subprocess.run([make, "bench", my, golden, str(args.ops), str(big)] +
                   (["large"] if shape == "large" else []), check=True)
    files = [os.path.join(d, f) for d in (my, golden) for f in sorted(os.listdir(d))]
    size = sum(os.path.getsize(f) for f in files)
    pair = 2 * 4 * big
    ours_ready = has_diff()
    ours, vendor, before, floor = [], [], [], []
    cat = ["sh", "-c", 'cat "$@" > /dev/null', "cat"] + files
    for i in range(args.runs):
        sides = [(cli, "ours", ours)] if ours_ready else []
        if before_cli:
            sides.append((before_cli, "before", before))
        for side_cli, name, times in (sides if i % 2 == 0 else sides[::-1]):
            out = os.path.join(tmp, "%s-%s-%d.csv" % (shape, name, i))
            subprocess.run(["sync"])
            times.append(timed([side_cli, "diff", "--csv", out, my, golden]) + (out,))
        subprocess.run(["sync"])
        floor.append(timed(cat))
        if args.no_vendor:
            continue
        out = os.path.join(tmp, "%s-vendor-%d" % (shape, i))
        os.mkdir(out)
        subprocess.run(["sync"])
        v = timed([python, "msaccucmp.py", "compare", "-m", my, "-g", golden, "-out", out],
                  cwd=args.msaccucmp)
        vendor.append(v + (glob.glob(os.path.join(out, "result_*.csv"))[0],))

    print("%s: two runs of %d operators, %.1f MB in all; largest tensor pair %.1f MB "
          "(float32 x %d, both sides)" % (shape, args.ops, size / 1e6, pair / 1e6, big))
    f_wall = statistics.median(w for w, _, _ in floor)
    print("  floor, cat of both runs > /dev/null: median %.3f s (runs: %s), CPU %.2f s"
          % (f_wall, ", ".join("%.3f" % w for w, _, _ in floor), statistics.median(c for _, _, c in floor)))
    if before:
        b_wall, a_wall = (statistics.median(w for w, _, _, _ in t) for t in (before, ours))
        b_cpu, a_cpu = (statistics.median(c for _, _, c, _ in t) for t in (before, ours))
        for name, t in (("before", before), ("after", ours)):
            print("  %-7s diff: median %.3f s (runs: %s), CPU %.2f s, peak RSS %.1f MB, %.2fx the floor"
                  % (name, statistics.median(w for w, _, _, _ in t),
                     ", ".join("%.3f" % w for w, _, _, _ in t),
                     statistics.median(c for _, _, c, _ in t), max(r for _, r, _, _ in t) / 1e6,
                     statistics.median(w for w, _, _, _ in t) / f_wall))
        print("  after / before: %.3f wall time, %.3f CPU time" % (a_wall / b_wall, a_cpu / b_cpu))
        if sorted(rows(ours[0][3])) != sorted(rows(before[0][3])):
            print("bench-diff: the two builds' CSVs do not have the same rows")
            return 1
    if ours_ready:
        o_wall = statistics.median(w for w, _, _, _ in ours)
        o_rss = max(r for _, r, _, _ in ours)
        o_cpu = statistics.median(c for _, _, c, _ in ours)
        print("  inspector diff:     median %.3f s (runs: %s), CPU %.2f s, peak RSS %.1f MB"
              % (o_wall, ", ".join("%.3f" % w for w, _, _, _ in ours), o_cpu, o_rss / 1e6))
        print("  ratio inspector / floor: %.2fx wall time (target <= 1.5x: %s)"
              % (o_wall / f_wall, "met" if o_wall <= 1.5 * f_wall else "missed"))
        print("  inspector peak RSS / largest tensor pair: %.2f (target < 2: %s)"
              % (o_rss / pair, "met" if o_rss < 2 * pair else "missed"))
    if args.no_vendor:
        return 0
    v_wall = statistics.median(w for w, _, _, _ in vendor)
    v_rss = max(r for _, r, _, _ in vendor)
    v_cpu = statistics.median(c for _, _, c, _ in vendor)
    print("  msaccucmp compare:  median %.2f s (runs: %s), CPU %.2f s, peak RSS %.1f MB"
          % (v_wall, ", ".join("%.2f" % w for w, _, _, _ in vendor), v_cpu, v_rss / 1e6))
    if not ours_ready:
        print("  overflow-inspector-cli diff: not measured (this CLI has no diff command)")
        return 0
    ratio = v_wall / o_wall
    print("  ratio msaccucmp / inspector: %.1fx wall time (target >= 20x: %s), %.1fx CPU time"
          % (ratio, "met" if ratio >= 20 else "missed", v_cpu / o_cpu))
    # the same rows as the vendor's, or the timing compares different work
    if sorted(rows(ours[0][3])) != sorted(rows(vendor[0][3])):
        print("bench-diff: our CSV does not have the vendor's rows")
        return 1
    print("  rows: the same %d as the vendor's" % len(rows(ours[0][3])))
    return 0


def main():
    load = os.getloadavg()
    status = 0
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        for shape in args.shape or ("small", "large"):
            status |= shape_case(tmp, shape)
    print("load average (1, 5, 15 min) before: %.1f %.1f %.1f, after: %.1f %.1f %.1f, on %d cores"
          % (load + os.getloadavg() + (os.cpu_count(),)))
    return status


if __name__ == "__main__":
    sys.exit(main())
