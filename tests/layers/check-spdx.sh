#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-spdx.sh SRCDIR: every source file (C, Python, shell, meson, .ui,
# CSS) names its licence in its first two lines.
set -u
cd "$1" || exit 1
missing=0
for f in $(git ls-files '*.c' '*.h' '*.py' '*.sh' '*.ui' '*.css' 'meson.build' '*/meson.build' \
           meson_options.txt .ci/run 2>/dev/null); do
  case "$f" in tests/fuzz/corpus/*|data/example*|*/generated/*) continue ;; esac
  if ! head -n 2 "$f" | grep -q 'SPDX-License-Identifier: GPL-3.0-or-later'; then
    echo "$f: no SPDX-License-Identifier line"
    missing=$((missing + 1))
  fi
done
[ -f COPYING ] || { echo "COPYING is missing"; missing=$((missing + 1)); }
[ "$missing" -eq 0 ] && echo "every source file names its licence"
[ "$missing" -eq 0 ]
