# SPDX-License-Identifier: GPL-3.0-or-later
"""Statistics and a 256-bin histogram of a dump file's output 0."""
import json
import sys

from common import as_array, read_dump, stats

msg, offset = read_dump(sys.argv[1])
json.dump(stats(as_array(sys.argv[1], msg, offset), int(sys.argv[2])), sys.stdout)
