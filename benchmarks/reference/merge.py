# SPDX-License-Identifier: GPL-3.0-or-later
"""Merge report files the way a user would without the inspector: load
each with Python's json module, write them as one document."""
import json
import sys

roots = []
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    if report.get("format") == "overflow-inspector-cluster":
        roots.extend(report["roots"])
    else:
        roots.append(report)
json.dump({"format": "overflow-inspector-cluster", "roots": roots}, sys.stdout, indent=2)
