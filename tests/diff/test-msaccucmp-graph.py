#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The graph JSON our fixture writes, read by the vendor's `msaccucmp compare -f`.

    test-msaccucmp-graph.py MAKE_GRAPH_ITERATION CLI

MAKE_GRAPH_ITERATION is tests/fixtures/ovi-make-graph-iteration, CLI is
overflow-inspector-cli. The reference is the folder setup-msaccucmp.sh made
($OVI_MSACCUCMP, else `ref/msaccucmp` beside the checkout); without it the
test is skipped (exit 77), as on CI.

The iteration is written with its addresses cleared and the ATC fusion-rule
graph JSON beside it (the case tests/core/test-graph.c's /graph/graph-json
checks). msaccucmp compares it with a second copy, the JSON given as the
fusion rule of both sides (-f and -cf: dump against dump needs both). The
vendor must accept the JSON: no [ERROR] in its log, a result CSV with one
index per op of the JSON, typed as the JSON types it; and it must read the
same edges from it as we do: for every input of a dumped operator it
compares, the producer it names ("Left(C:input:j) <======> Right(P:output:k)")
is the producer of `overflow-inspector-cli graph --graph JSON` for that
input, looking through Cast and TransData as the vendor does (it compares
them with the golden tensor before them). Its exit status is 0, or 2 (MSACCUCMP_NO_DUMP_FILE_ERROR): the JSON's
Data and Const ops have no dump file, as in every real graph.
"""

import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77
SPECIAL_OPS = ("Cast", "TransData")
ITERATION = os.path.join("20260101000000", "0", "11", "0")
EDGE = re.compile(r"\[INFO\] \[[^\]]+\] Left\((.+):input:(\d+)\) <======> Right\((.+):output:(\d+)\)")


def find_reference():
    ref = os.environ.get("OVI_MSACCUCMP")
    if not ref:
        here = os.path.dirname(os.path.abspath(__file__))
        ref = os.path.normpath(os.path.join(here, "..", "..", "..", "ref", "msaccucmp"))
    return (ref if os.path.isfile(os.path.join(ref, "msaccucmp.py")) else None), ref


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    make_iteration, cli = sys.argv[1], sys.argv[2]
    ref, where = find_reference()
    if ref is None:
        print("SKIP: no msaccucmp in %s (set OVI_MSACCUCMP, see tests/diff/setup-msaccucmp.sh)" % where)
        return SKIP
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        mine_root, golden_root = os.path.join(tmp, "mine"), os.path.join(tmp, "golden")
        subprocess.run([make_iteration, "--no-addresses", "--json", mine_root], check=True)
        subprocess.run([make_iteration, "--no-addresses", golden_root], check=True)
        mine = os.path.join(mine_root, ITERATION)
        golden = os.path.join(golden_root, ITERATION)
        graph_json = os.path.join(mine, "graph.json")

        # Ours: the edges as `graph` reads them from the JSON.
        o = subprocess.run([cli, "graph", "--graph", graph_json, mine_root], capture_output=True,
                           text=True, check=True)
        ours = json.loads(o.stdout)
        names = {n["id"]: n["name"] for n in ours["nodes"]}
        dumped = {n["name"] for n in ours["nodes"] if n["kind"] == "operator"}
        our_edges = {(names[e["consumer"]], e["input"]): (names[e["producer"]], e["output"])
                     for e in ours["edges"]}
        if not our_edges or any(e["source"] != "graph" for e in ours["edges"]):
            failures.append("our graph has no edges from the JSON")

        # The vendor's.
        out = os.path.join(tmp, "vendor")
        os.mkdir(out)
        python = os.environ.get("OVI_PYTHON", "/usr/bin/python3")
        v = subprocess.run([python, os.path.join(ref, "msaccucmp.py"), "compare", "-m", mine, "-g", golden,
                            "-f", graph_json, "-cf", graph_json, "-out", out],
                           cwd=ref, capture_output=True, text=True, timeout=300)
        log = v.stdout + v.stderr
        if v.returncode not in (0, 2):
            failures.append("msaccucmp exited %d" % v.returncode)
        errors = [line for line in log.splitlines() if "[ERROR]" in line]
        if errors:
            failures.append("msaccucmp logged errors: %s" % errors[:5])
        results = glob.glob(os.path.join(out, "result_*.csv"))
        if len(results) != 1:
            failures.append("msaccucmp wrote %d result files" % len(results))
        else:
            with open(results[0], newline="") as f:
                rows = list(csv.DictReader(f))
            with open(graph_json) as f:
                json_ops = {op["name"]: op["type"] for g in json.load(f)["graph"] for op in g["op"]}
            vendor_ops = {r["NPUDump"]: r["OpType"] for r in rows}
            if vendor_ops != json_ops:
                failures.append("the vendor's ops %s are not the JSON's %s" % (vendor_ops, json_ops))
            if len({r["Index"] for r in rows}) != len(json_ops):
                failures.append("the vendor numbered %d ops, the JSON has %d" %
                                (len({r["Index"] for r in rows}), len(json_ops)))

        vendor_edges = {}
        for m in EDGE.finditer(log):
            vendor_edges[(m.group(1), int(m.group(2)))] = (m.group(3), int(m.group(4)))
        types = {n["name"]: n["op_type"] for n in ours["nodes"]}

        def through_special(producer):
            # The vendor looks through Cast and TransData to the op before
            # (their input k for their output k: compare_fusion_op.py,
            # ConstManager.SPECIAL_OPS_TYPE): the golden framework has none.
            seen = set()
            while types.get(producer[0]) in SPECIAL_OPS and producer not in seen:
                seen.add(producer)
                producer = our_edges.get(producer, producer)
            return producer

        wanted = {k: through_special(p) for k, p in our_edges.items() if k[0] in dumped}
        if not vendor_edges:
            failures.append("the vendor's log names no input edge")
        for key, producer in sorted(wanted.items()):
            if vendor_edges.get(key) != producer:
                failures.append("%s:input:%d: ours from %s, the vendor's from %s" %
                                (key[0], key[1], producer, vendor_edges.get(key)))
        for key in sorted(set(vendor_edges) - set(wanted)):
            failures.append("%s:input:%d: the vendor's edge from %s is not ours" %
                            (key[0], key[1], vendor_edges[key]))
        if failures:
            print(log[-4000:])
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ok: msaccucmp read the graph JSON: %d ops, %d input edges the same as ours"
              % (len(json_ops), len(wanted)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
