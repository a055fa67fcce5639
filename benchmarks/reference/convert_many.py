# SPDX-License-Identifier: GPL-3.0-or-later
"""Convert every op dump file of a folder to .npy, one file at a time, the
way the vendor converter does its per-file work: parse the header with the
protobuf module, then numpy.save each input and output as
{file}.{input|output}.{i}.npy below the output folder, in the same
relative folders."""
import os
import sys

import numpy as np

from common import read_dump

DTYPES = {1: np.float32, 2: np.float16, 3: np.int8, 4: np.uint8, 5: np.int16, 6: np.uint16,
          7: np.int32, 8: np.int64, 9: np.uint32, 10: np.uint64, 12: np.float64}

root, out = sys.argv[1], sys.argv[2]
for dirpath, dirnames, filenames in os.walk(root):
    dirnames.sort()
    target = os.path.join(out, os.path.relpath(dirpath, root))
    os.makedirs(target, exist_ok=True)
    for name in sorted(filenames):
        path = os.path.join(dirpath, name)
        msg, offset = read_dump(path)
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
        start = 0
        for kind, tensors in (("input", msg.input), ("output", msg.output)):
            for i, t in enumerate(tensors):
                a = np.frombuffer(data, dtype=DTYPES[t.data_type], count=t.size // np.dtype(DTYPES[t.data_type]).itemsize,
                                  offset=start)
                np.save(os.path.join(target, f"{name}.{kind}.{i}.npy"), a.reshape(tuple(t.shape.dim)))
                start += t.size
