#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-flatpak.sh MANIFEST: parse the manifest offline; unknown keys fail.
set -u
command -v flatpak-builder >/dev/null 2>&1 || { echo "flatpak-builder not found"; exit 77; }
G_DEBUG=fatal-warnings flatpak-builder --show-manifest "$1" >/dev/null
