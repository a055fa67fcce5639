#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a file under src/ has translatable strings but is missing from
# po/POTFILES.in, or when POTFILES.in lists a file that does not exist.
set -u
srcdir=$1
cd "$srcdir" || exit 1
listed=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' po/POTFILES.in)
status=0
for f in $listed; do
  if [ ! -f "$f" ]; then
    echo "po/POTFILES.in lists $f, which does not exist"
    status=1
  fi
done
# A call of _ (), N_ (), C_ () or NC_ () on a string (clang-format writes
# "_ (", with the space), a plural, or a translatable property in a .ui.
calls='(^|[^A-Za-z0-9_])(N_|_|C_|NC_) ?\( ?"|g_dngettext ?\(|translatable="yes"'
for f in $(grep -rlE "$calls" src | LC_ALL=C sort); do
  if ! printf '%s\n' "$listed" | grep -qxF "$f"; then
    echo "$f has translatable strings but is missing from po/POTFILES.in"
    status=1
  fi
done
[ $status -eq 0 ] && echo "po/POTFILES.in is complete"
exit $status
