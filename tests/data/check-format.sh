#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a C file of the project differs from what .clang-format makes
# of it. Run `clang-format -i FILE` to fix one.
set -euo pipefail
cd "$1"
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find src tests benchmarks -name '*.[ch]')
clang-format --dry-run --Werror "${files[@]}"
echo "${#files[@]} files formatted as .clang-format says"
