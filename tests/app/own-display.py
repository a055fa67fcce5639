#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs one UI test on an Xvfb of its own.

Each test then has its own screen, keyboard focus and clipboard, so meson
can run the UI tests side by side, like the rest, instead of one at a time.
Xvfb picks a free display itself (-displayfd): no race between two tests
starting together. Usage: own-display.py TEST [ARG...]
"""
import os
import signal
import subprocess
import sys

read_end, write_end = os.pipe()
xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0", "2000x1200x24",
                         "-noreset", "-nolisten", "tcp"],
                        pass_fds=(write_end,), stderr=subprocess.DEVNULL)
os.close(write_end)
number = b""
while not number.endswith(b"\n"):
    chunk = os.read(read_end, 16)
    if not chunk:
        sys.exit("own-display.py: Xvfb ended before it gave its display number")
    number += chunk
os.close(read_end)

env = dict(os.environ, DISPLAY=":" + number.decode().strip())
env.pop("WAYLAND_DISPLAY", None)
try:
    code = subprocess.call(sys.argv[1:], env=env)
finally:
    xvfb.send_signal(signal.SIGTERM)
    xvfb.wait()
# A test killed by a signal fails as the shell reports it.
sys.exit(code if code >= 0 else 128 - code)
