#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A training run as the live benchmark sees it: RATE op dump files a second
for SECONDS seconds into DIR, one iteration folder a second, each closed
with one overflow file. Every file is a copy of a template written by the
project's writer (ovi-bench-make), under its own name.

  live_writer.py OP_TEMPLATE OVERFLOW_TEMPLATE DIR RATE SECONDS
"""

import os
import sys
import time


def main():
    op_path, overflow_path, root, rate, seconds = sys.argv[1:6]
    rate, seconds = int(rate), int(seconds)
    op = open(op_path, "rb").read()
    overflow = open(overflow_path, "rb").read()
    start = time.monotonic()
    ts = 1764900000000000
    for second in range(seconds):
        folder = os.path.join(root, "20261205120000", "0", "bench_model", str(second + 1))
        os.makedirs(folder)
        for i in range(rate):
            # Paced in tenths of a second, as a run writes steadily.
            due = start + second + i / rate
            delay = due - time.monotonic()
            if delay > 0 and i % (rate // 10 or 1) == 0:
                time.sleep(delay)
            ts += 10
            name = "Add.bench_scope_add_%d.%d.3.%d" % (i, 10 + i, ts)
            with open(os.path.join(folder, name), "wb") as f:
                f.write(op)
        ts += 10
        with open(os.path.join(folder, "Opdebug.Node_OpDebug.10.3.%d" % ts), "wb") as f:
            f.write(overflow)
    print("wrote %d files in %.1f s" % (seconds * (rate + 1), time.monotonic() - start))


if __name__ == "__main__":
    main()
