# SPDX-License-Identifier: GPL-3.0-or-later
"""numpy.save of a dump file's output 0."""
import sys

import numpy as np

from common import as_array, read_dump

msg, offset = read_dump(sys.argv[1])
np.save(sys.argv[2], as_array(sys.argv[1], msg, offset).reshape(tuple(msg.output[0].shape.dim)))
