# SPDX-License-Identifier: GPL-3.0-or-later
"""numpy.savetxt of a dump file's output 0, flattened."""
import sys

import numpy as np

from common import as_array, read_dump

msg, offset = read_dump(sys.argv[1])
np.savetxt(sys.argv[2], as_array(sys.argv[1], msg, offset).flatten())
