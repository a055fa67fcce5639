#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`overflow-inspector-cli diff --csv` against the vendor's `msaccucmp compare`.

    test-msaccucmp.py MAKE_RUNS CLI

MAKE_RUNS is tests/diff/ovi-make-diff-runs (the project's writer), CLI is
overflow-inspector-cli. The reference is the folder setup-msaccucmp.sh made:
$OVI_MSACCUCMP, else `ref/msaccucmp` beside the source checkout. Without it
the test is skipped (exit 77): CI has no copy of the vendor's code.

Both tools compare the same two runs (tests/diff/ovi-make-diff-runs cases).
The test asserts the same CSV header, the same rows, and, in every metric
cell, the same value to the vendor's printed 6 decimals (3 for
StandardDeviation) wherever the vendor prints a finite number. Where it does
not, or where our definitions differ on purpose, the cell must be listed in
DOCUMENTED below with its reason, and our value must be the one this
script's own float64 model of the vendor's formulas gives (over the
positions finite on both sides, in the logical layout). A difference that is
not listed fails the test, and so does a listed one that no longer occurs.
"""

import csv
import glob
import math
import os
import struct
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:  # where there is no numpy there is no msaccucmp: skipped
    np = None

SKIP = 77
EPS = sys.float_info.epsilon  # the vendor's np.finfo(float).eps
EPS32 = 2.0 ** -23  # np.finfo(np.float32).eps
METRICS = [
    "CosineSimilarity",
    "MaxAbsoluteError",
    "AccumulatedRelativeError",
    "RelativeEuclideanDistance",
    "KullbackLeiblerDivergence",
    "StandardDeviation",
    "MeanAbsoluteError",
    "RootMeanSquareError",
    "MaxRelativeError",
    "MeanRelativeError",
]
HEADER = [
    "Index", "OpType", "NPUDump", "DataType", "Address", "GroundTruth",
    "DataType", "Address", "TensorIndex", "Shape",
] + METRICS + ["CompareFailReason"]

# Operators run more than once: the vendor compares the last execution only
# (its file list sorted by timestamp, the last one taken) and numbers the
# operator once; we compare every execution in run order. The vendor's rows
# are our last execution's, and our Index counts every execution.
REPEATED = {
    "matmul1_twice": "run twice; the first execution differs at one element "
                     "and the vendor, comparing only the last, calls the "
                     "operator identical",
}

# Cells where our value differs from the vendor's on purpose:
# (operator, tensor or "*", metric or "*") -> reason. Our value there must
# equal the float64 model's.
DOCUMENTED = {
    ("relu1_inf_same", "output:0", "*"):
        "Inf at the same places on both sides: the vendor gets inf - inf = nan "
        "in every metric; we compare the non-finite positions by position "
        "(they match) and compute the metrics over the finite ones",
    ("relu2_inf_my", "output:0", "*"):
        "Inf on my side only: the vendor prints inf or nan; we count the "
        "mismatched position and compute the metrics over the positions "
        "finite on both sides",
    ("exp1_nan_same", "output:0", "*"):
        "NaN at the same place on both sides: the vendor prints nan for every "
        "metric that sums or maxes over it (the relative errors skip a NaN "
        "golden and agree); we compute over the finite positions",
    ("square1_huge", "output:0", "CosineSimilarity"):
        "values near 1e20: the vendor's float32 norm overflows to inf and it "
        "prints cosine 0.000000 for identical tensors; we compute in float64",
    ("trans1_nc1hwc0", "output:0", "*"):
        "NC1HWC0 on both sides: the vendor compares the stored tensor with its "
        "48 padding zeros (128 elements); we compare the 80 logical elements, "
        "so the means, KL and StandardDeviation are over 80, not 128",
    ("bias1_close", "output:0", "AccumulatedRelativeError"):
        "float32 against float64: the vendor sums |x/y - 1| in float32 and "
        "prints 0.000084, float64 gives 0.000085 (the 6th decimal)",
    ("fill1_const", "output:0", "AccumulatedRelativeError"):
        "float32 against float64: 3.5/3 - 1 is 0.16666663 in float32, and 128 "
        "of them sum to 21.333324; in float64 the sum is 21.333333",
    ("sum2_scalar_sign", "output:0", "CosineSimilarity"):
        "a one-element tensor, -3 against 1.5: the vendor prints cosine "
        "1.000000 for every one-element tensor; we give the cosine of the "
        "two one-element vectors, -1.000000 (issue 36, case 8)",
    ("trans1_nc1hwc0", "output:0", "Shape"):
        "we print the logical NCHW shape, the vendor the stored NC1HWC0 shape",
}

# Rows the vendor does not write, by operator or (operator, tensor), with
# the reason. We write them, with a reason in CompareFailReason where the
# tensor is not comparable.
VENDOR_DROPS = {
    "mul1_bf16": "bfloat16 needs the pip package ml_dtypes, which Debian does "
                 "not package; without it the vendor logs an error and drops "
                 "the whole operator",
    ("reshape1_mismatch", "output:0"): "shapes (8, 16) and (16, 8): the vendor "
                 "drops the output row and says why only in its log; we write "
                 "a not-comparable row with the reason",
}

def find_reference():
    ref = os.environ.get("OVI_MSACCUCMP")
    if not ref:
        here = os.path.dirname(os.path.abspath(__file__))
        ref = os.path.normpath(os.path.join(here, "..", "..", "..", "ref", "msaccucmp"))
    if not os.path.isfile(os.path.join(ref, "msaccucmp.py")):
        return None, ref
    return ref, ref


# -- reading the runs -------------------------------------------------------


def read_dump(path, pb2):
    """The tensors of one op dump (new layout) as float64 arrays."""
    with open(path, "rb") as f:
        blob = f.read()
    (length,) = struct.unpack_from("<Q", blob, 0)
    header = pb2.DumpData()
    header.ParseFromString(blob[8:8 + length])
    offset = 8 + length
    tensors = {}
    for kind, items in (("input", header.input), ("output", header.output)):
        for i, t in enumerate(items):
            raw = blob[offset:offset + t.size]
            offset += t.size
            tensors["%s:%d" % (kind, i)] = (decode(raw, t.data_type), t)
    return tensors


def decode(raw, dtype):
    if dtype == 1:
        return np.frombuffer(raw, "<f4").astype(np.float64)
    if dtype == 2:
        return np.frombuffer(raw, "<f2").astype(np.float64)
    if dtype == 27:
        bits = np.frombuffer(raw, "<u2").astype(np.uint32) << 16
        return bits.view(np.float32).astype(np.float64)
    if dtype == 3:
        return np.frombuffer(raw, "i1").astype(np.float64)
    if dtype == 7:
        return np.frombuffer(raw, "<i4").astype(np.float64)
    raise AssertionError("dtype %d not in the fixtures" % dtype)


def logical(values, t):
    """NC1HWC0 (format 3) to NCHW with the padding dropped; others as stored."""
    if t.format != 3:
        return values, list(t.shape.dim)
    n, c, h, w = list(t.original_shape.dim)
    dev = values.reshape(list(t.shape.dim))
    nchw = dev.transpose(0, 1, 4, 2, 3).reshape(n, -1, h, w)[:, :c]
    return nchw.reshape(-1), [n, c, h, w]


# -- the float64 model of the vendor's formulas ------------------------------


def model(x, y, shape):
    """The ten metrics over the positions finite on both sides, in float64,
    with the vendor's edge cases (see /work/ref/NOTES.md)."""
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    out = {}
    if len(x) == 0:
        return {m: math.nan for m in METRICS}
    with np.errstate(all="ignore"):
        nx, ny = math.sqrt(np.dot(x, x)), math.sqrt(np.dot(y, y))
        # (the vendor's cosine of a one-element tensor is 1 whatever the
        # signs; ours is the sign of the product: DOCUMENTED)
        if nx <= EPS and ny < EPS:
            cos = 1.0
        elif math.sqrt(nx) <= EPS or math.sqrt(ny) <= EPS:
            cos = math.nan
        else:
            cos = max(min(float(np.dot(x, y)) / (nx * ny), 1.0), -1.0)
        out["CosineSimilarity"] = cos
        d = np.abs(x - y)
        out["MaxAbsoluteError"] = float(d.max())
        r = np.where(np.abs(y) > EPS, np.abs(x / y - 1), 0.0)
        out["AccumulatedRelativeError"] = float(r.sum())
        out["MaxRelativeError"] = float(r.max())
        out["MeanRelativeError"] = float(r.mean())
        s = float(np.dot(y, y))
        out["RelativeEuclideanDistance"] = 0.0 if math.sqrt(s) <= EPS else math.sqrt(float(np.dot(d, d)) / s)
        out["KullbackLeiblerDivergence"] = kl(x, y)
        out["MeanAbsoluteError"] = float(d.mean())
        out["RootMeanSquareError"] = math.sqrt(float(np.mean(d * d)))
        stats = []
        for v in (x, y):
            mean, std = float(np.mean(v)), float(np.std(v))
            stats += [0.0 if abs(mean) < 0.001 else mean, 0.0 if abs(std) < 0.001 else std]
        out["StandardDeviation"] = "(%.3f;%.3f),(%.3f;%.3f)" % tuple(stats)
    return out


def kl(x, y):
    def normalised(v):
        lo, hi = v.min(), v.max()
        if hi != lo:
            v = (v - lo) / (hi - lo)
        return np.maximum(v, EPS32)

    p, q = normalised(x), normalised(y)
    p, q = p / p.sum(), q / q.sum()
    value = float((p * np.log(p / q)).sum())
    return 0.0 if abs(value) < EPS else value


# -- comparing cells ---------------------------------------------------------


def number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def same(a, b, column):
    """Equal as printed: 6 decimals, or the StandardDeviation string."""
    if column == "StandardDeviation":
        return a == b
    fa, fb = number(a) if isinstance(a, str) else a, number(b) if isinstance(b, str) else b
    if fa is None or fb is None:
        return a == b
    if math.isnan(fa) or math.isnan(fb):
        return math.isnan(fa) and math.isnan(fb)
    if math.isinf(fa) or math.isinf(fb):
        return fa == fb
    return "%.6f" % fa == "%.6f" % fb


def finite(cell, column):
    if column == "StandardDeviation":
        return "nan" not in cell and "inf" not in cell
    f = number(cell)
    return f is not None and math.isfinite(f)


def documented(op, tensor, column):
    for key in ((op, tensor, column), (op, tensor, "*"), (op, "*", column), (op, "*", "*")):
        if key in DOCUMENTED:
            return key
    return None


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    make_runs, cli = sys.argv[1], sys.argv[2]
    ref, where = find_reference()
    if ref is None:
        print("SKIP: no msaccucmp in %s (set OVI_MSACCUCMP, see tests/diff/setup-msaccucmp.sh)" % where)
        return SKIP
    if np is None:
        print("FAIL: msaccucmp is set up in %s, but this python has no numpy" % ref)
        return 1
    sys.path.insert(0, ref)
    import dump_data_pb2  # noqa: E402, generated by setup-msaccucmp.sh

    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        my, golden = os.path.join(tmp, "my"), os.path.join(tmp, "golden")
        subprocess.run([make_runs, "cases", my, golden], check=True)

        vendor_out = os.path.join(tmp, "vendor")
        os.mkdir(vendor_out)
        python = os.environ.get("OVI_PYTHON", "/usr/bin/python3")
        v = subprocess.run([python, os.path.join(ref, "msaccucmp.py"), "compare", "-m", my, "-g", golden,
                            "-out", vendor_out], cwd=ref, capture_output=True, text=True, timeout=300)
        results = glob.glob(os.path.join(vendor_out, "result_*.csv"))
        if len(results) != 1:
            print(v.stdout[-4000:], v.stderr[-4000:])
            print("FAIL: msaccucmp wrote %d result files" % len(results))
            return 1
        v_header, v_rows = read_csv(results[0])
        if v_header != HEADER:
            failures.append("the vendor's header is not the documented one: %s" % v_header)

        ours_csv = os.path.join(tmp, "ours.csv")
        o = subprocess.run([cli, "diff", "--csv", ours_csv, my, golden], capture_output=True, text=True,
                           timeout=300)
        # the runs diverge (add1_inject): the documented exit status is 5
        if o.returncode != 5 or not os.path.exists(ours_csv):
            print(o.stdout[-4000:], o.stderr[-4000:])
            print("FAIL: overflow-inspector-cli diff exited %d and wrote %s" %
                  (o.returncode, "a CSV" if os.path.exists(ours_csv) else "no CSV"))
            return 1
        o_header, o_rows = read_csv(ours_csv)
        with open(ours_csv, "rb") as f:
            if not f.readline().endswith(b"\r\n"):
                failures.append("our CSV's lines do not end in \\r\\n as the vendor's (Python's csv) do")
        if o_header[:len(HEADER)] != HEADER:
            failures.append("our header differs from the vendor's:\n  ours   %s\n  vendor %s" % (o_header, HEADER))
        elif len(o_header) > len(HEADER):
            print("note: our CSV adds columns after the vendor's: %s" % o_header[len(HEADER):])

        # the tensors, for the model: each operator's executions in run order
        files = {}
        for side, folder in (("my", my), ("golden", golden)):
            for name in sorted(os.listdir(folder), key=lambda n: int(n.split(".")[-1])):
                files.setdefault((side, name.split(".")[1]), []).append(
                    read_dump(os.path.join(folder, name), dump_data_pb2))

        col = {name: i for i, name in reversed(list(enumerate(HEADER)))}
        def key(row):
            # an operator on the golden side only has NPUDump "*"
            name = row[col["NPUDump"]] if row[col["NPUDump"]] != "*" else row[col["GroundTruth"]]
            return name, row[col["TensorIndex"]]

        v_by_key = {key(r): r for r in v_rows}
        v_ops = {key(r)[0] for r in v_rows}
        if len(v_by_key) != len(v_rows):
            failures.append("the vendor wrote two rows for one tensor")
        # ours: every execution of a repeated operator; the vendor's row is
        # the last one, and the earlier ones shift the Index of what follows
        o_by_key, earlier = {}, []
        for r in o_rows:
            k = key(r)
            if k in o_by_key:
                if k[0] not in REPEATED:
                    failures.append("row %s: ours twice, and %s is not a repeated operator" % (k, k[0]))
                earlier.append(o_by_key[k])
            o_by_key[k] = r
        earlier_index = sorted({int(r[col["Index"]]) for r in earlier})
        for op in REPEATED:
            if not any(key(r)[0] == op for r in earlier):
                failures.append("%s: we were expected to compare each execution, and did not" % op)

        def vendor_index(row):
            index = int(row[col["Index"]])
            return str(index - sum(1 for e in earlier_index if e < index))

        used = set()
        agreed, differ = 0, []
        seen = {}
        for orow in earlier:
            op, tensor_id = key(orow)
            n = seen[(op, tensor_id)] = seen.get((op, tensor_id), -1) + 1
            tensor = tensor_id.split(":", 1)[1]
            mx, mt = files[("my", op)][n][tensor]
            gx, gt = files[("golden", op)][n][tensor]
            expected = model(mx, gx, list(mt.shape.dim))
            for m in METRICS:
                if not same(orow[col[m]], expected[m], m):
                    failures.append("row %s (execution %d), %s: ours %s, expected %s"
                                    % ((op, tensor_id), n + 1, m, orow[col[m]], expected[m]))
            differ.append("%s execution %d %s: ours only (%s), cosine %s"
                          % (op, n + 1, tensor, REPEATED[op], orow[col["CosineSimilarity"]]))
        for k, orow in o_by_key.items():
            if k in v_by_key:
                continue
            tensor = k[1].split(":", 1)[-1]
            if k[0] in VENDOR_DROPS and k[0] not in v_ops:
                used.add(("drop", k[0]))
            elif (k[0], tensor) in VENDOR_DROPS:
                used.add(("drop", (k[0], tensor)))
                if not orow[col["CompareFailReason"]] or any(number(orow[col[m]]) is not None
                                                            and not math.isnan(number(orow[col[m]]))
                                                            for m in METRICS):
                    failures.append("row %s: not comparable, yet ours has numbers or no reason: %s" % (k, orow))
            else:
                failures.append("row %s: ours only" % (k,))
        for k, vrow in v_by_key.items():
            op, tensor_id = k
            orow = o_by_key.get(k)
            if orow is None:
                failures.append("row %s: the vendor's only" % (k,))
                continue
            for i, name in enumerate(HEADER[:col["Shape"]]):
                theirs = vendor_index(orow) if name == "Index" else orow[i]
                if name != "Address" and vrow[i] != theirs:
                    failures.append("row %s, %s: ours %r, vendor %r" % (k, name, theirs, vrow[i]))
            if "*" in (vrow[col["GroundTruth"]], vrow[col["NPUDump"]]):
                # an operator on one side only: a row of NaN, as the vendor writes it
                for m in METRICS:
                    if orow[col[m]] != "NaN":
                        failures.append("row %s, %s: ours %r for an operator on one side only, vendor NaN"
                                        % (k, m, orow[col[m]]))
                continue
            tensor = tensor_id.split(":", 1)[1]
            mx, mt = files[("my", op)][-1][tensor]
            gx, gt = files[("golden", op)][-1][tensor]
            lx, shape = logical(mx, mt)
            ly, _ = logical(gx, gt)
            expected = model(lx, ly, shape)

            if vrow[col["Shape"]] != orow[col["Shape"]]:
                dk = documented(op, tensor, "Shape")
                if dk is None:
                    failures.append("row %s, Shape: ours %r, vendor %r" % (k, orow[col["Shape"]], vrow[col["Shape"]]))
                else:
                    used.add(dk)
            for m in METRICS:
                vc, oc = vrow[col[m]], orow[col[m]]
                dk = documented(op, tensor, m)
                # 1. our model of the vendor's formulas against the vendor:
                # they differ exactly where DOCUMENTED says.
                if same(expected[m], vc, m):
                    if dk is not None and dk[2] == m:
                        failures.append("%s: the vendor no longer differs (%s)" % (dk, vc))
                    # 2. ours as the vendor's, finite or not (an all-zero side)
                    if same(oc, vc, m):
                        agreed += 1
                    else:
                        failures.append("row %s, %s: ours %s, vendor %s" % (k, m, oc, vc))
                    continue
                if dk is None:
                    failures.append("row %s, %s: vendor %s, float64 model %s: an undocumented difference"
                                    % (k, m, vc, expected[m]))
                    continue
                used.add(dk)
                # 2. where documented, ours as the model
                if same(oc, expected[m], m):
                    differ.append("%s %s %s: vendor %s, ours %s" % (op, tensor, m, vc, oc))
                else:
                    failures.append("row %s, %s: ours %s, expected %s (%s)" % (k, m, oc, expected[m], DOCUMENTED[dk]))

        for dk in DOCUMENTED:
            if dk not in used:
                failures.append("documented difference %s did not occur" % (dk,))
        for drop in VENDOR_DROPS:
            if ("drop", drop) not in used:
                failures.append("the vendor was expected to drop %s and we to write it: not so" % (drop,))

        print("%d metric cells agree with msaccucmp; %d differ as documented:" % (agreed, len(differ)))
        for line in differ:
            print("  " + line)
    if failures:
        print("FAIL:")
        for line in failures:
            print("  " + line)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
