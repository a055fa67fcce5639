#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the CLI's .npy and .txt outputs against numpy itself.

For every dtype sample written by ovi-make-samples: numpy.load reads the .npy
with the dtype and shape the vendor tools give (bfloat16, float8 and hifloat8 as
float32, complex32 as complex64, int4 as int8), the values equal what the dump's bytes decode to, and
the .txt is byte-identical to numpy.savetxt(path, array.flatten()).
"""
import io
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("python3-numpy is not installed", file=sys.stderr)
    sys.exit(77)

cli, make_samples = sys.argv[1], sys.argv[2]
failures = 0


def fail(message):
    global failures
    failures += 1
    print("FAIL:", message)


with tempfile.TemporaryDirectory() as tmp:
    dumps = os.path.join(tmp, "dumps")
    subprocess.run([make_samples, dumps], check=True)
    for to in ("npy", "txt"):
        out = os.path.join(tmp, "out-" + to)
        subprocess.run([cli, "convert", "--to", to, "--output", out, dumps], check=True)

    names = sorted(n for n in os.listdir(dumps) if n.startswith("Sample."))
    assert len(names) == 21, names
    for name in names:
        with open(os.path.join(dumps, "expected", name + ".json")) as f:
            expected = json.load(f)
        want = [float(v) if isinstance(v, str) else v for v in expected["values"]]
        for kind in ("input", "output"):
            npy = os.path.join(tmp, "out-npy", f"{name}.{kind}.0.npy")
            txt = os.path.join(tmp, "out-txt", f"{name}.{kind}.0.txt")
            array = np.load(npy)
            if str(array.dtype) != expected["dtype"]:
                fail(f"{npy}: dtype {array.dtype}, expected {expected['dtype']}")
            if array.shape != (len(want),):
                fail(f"{npy}: shape {array.shape}, expected {(len(want),)}")
            got = [abs(complex(x)) if np.iscomplexobj(array) else float(x) for x in array.flatten()]
            for i, (g, w) in enumerate(zip(got, want)):
                same = (math.isnan(g) and math.isnan(w)) or g == w
                if not same:
                    fail(f"{npy}[{i}]: {g!r}, expected {w!r}")
                    break
            buffer = io.BytesIO()
            np.savetxt(buffer, array.flatten())
            with open(txt, "rb") as f:
                ours = f.read()
            if ours != buffer.getvalue():
                theirs = buffer.getvalue().splitlines()
                mine = ours.splitlines()
                diff = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), None)
                fail(f"{txt}: differs from numpy.savetxt at line {diff}: "
                     f"{mine[diff] if diff is not None else len(mine)!r} vs "
                     f"{theirs[diff] if diff is not None else len(theirs)!r}")

print(f"{len(names)} dtypes checked, {failures} failures")
sys.exit(1 if failures else 0)
