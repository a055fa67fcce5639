#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-man.sh PAGE...: the pages must format without any warning.
set -u
if command -v groff >/dev/null 2>&1; then
  fmt() { groff -man -z -ww "$1"; }
elif command -v man >/dev/null 2>&1; then
  fmt() { man --warnings -l "$1" >/dev/null; }
else
  echo "neither groff nor man found"
  exit 77
fi
status=0
for page in "$@"; do
  out=$(LC_ALL=C.UTF-8 fmt "$page" 2>&1)
  if [ -n "$out" ]; then
    echo "$page:"; echo "$out"; status=1
  else
    echo "ok $page"
  fi
done
exit $status
