# SPDX-License-Identifier: GPL-3.0-or-later
"""Index a dump tree and report every overflow record as JSON (the vendor
way: walk, parse every header with protobuf, decode the Opdebug payloads,
find the op dump file by task and stream id, numpy statistics)."""
import json
import os
import re
import struct
import sys

from common import as_array, read_dump, stats

NAME = re.compile(r"^([^.]+)\.([^.]+)\.(\d+)\.(\d+)\.(\d+)((?:\.\d+)*)$")
root = sys.argv[1]
records = []
for dirpath, dirnames, filenames in os.walk(root):
    dirnames.sort()
    ops, overflows = {}, []
    for name in sorted(filenames):
        m = NAME.match(name)
        if not m:
            continue
        path = os.path.join(dirpath, name)
        msg, offset = read_dump(path)
        task, stream, ts = int(m.group(3)), int(m.group(4)), int(m.group(5))
        if m.group(1).lower() == "opdebug" and m.group(2).lower() == "node_opdebug":
            overflows.append((ts, path, msg, offset))
        else:
            key = (task, stream)
            if key not in ops or ts < ops[key][0]:
                ops[key] = (ts, path, msg, offset)
    for ts, path, msg, offset in sorted(overflows):
        with open(path, "rb") as f:
            f.seek(offset)
            payload = f.read(2048)
        fields = struct.unpack_from("<6Q", payload, 256)
        status = struct.unpack_from("<Q", payload, 1040)[0]
        op = ops.get((fields[2], fields[1]))
        record = {"file": os.path.relpath(path, root), "model_id": fields[0],
                  "stream_id": fields[1], "task_id": fields[2], "status": status,
                  "status_hex": hex(status), "op": None}
        if op:
            _, op_path, op_msg, op_offset = op
            record["op"] = {"file": os.path.relpath(op_path, root), "op_name": op_msg.op_name,
                            "tensors": [stats(as_array(op_path, op_msg, op_offset, "input"), 0),
                                        stats(as_array(op_path, op_msg, op_offset, "output"), 0)]}
        records.append(record)
json.dump({"root": root, "records": records}, sys.stdout)
