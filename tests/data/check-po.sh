#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-po.sh SRCDIR complete|current
#   complete: every message of each po/LANG.po is translated and not fuzzy.
#   current:  the same after merging with a template extracted now from the
#             files in po/POTFILES.in, so new source strings need translating.
set -u
srcdir=$1
mode=${2:-complete}
for tool in msgfmt msgmerge xgettext; do
  command -v $tool >/dev/null 2>&1 || { echo "$tool not found"; exit 77; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$srcdir" || exit 1
if [ "$mode" = current ]; then
  # Same keywords as i18n.gettext(preset: 'glib').
  xgettext --directory="$srcdir" --files-from=po/POTFILES.in \
    --from-code=UTF-8 --add-comments \
    --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
    --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 \
    --keyword=g_dpgettext2:2c,3 \
    --output="$tmp/template.pot" || exit 1
fi
status=0
for lang in $(sed -e 's/#.*//' po/LINGUAS); do
  po=po/$lang.po
  if [ "$mode" = current ]; then
    msgmerge --quiet --no-fuzzy-matching --output-file="$tmp/$lang.po" \
      "$po" "$tmp/template.pot" || exit 1
    po=$tmp/$lang.po
  fi
  stats=$(LC_ALL=C msgfmt --check --statistics --output-file=/dev/null "$po" 2>&1) || {
    echo "$lang: $stats"; status=1; continue; }
  echo "$lang ($mode): $stats"
  case $stats in
    *fuzzy*|*untranslated*)
      status=1
      LC_ALL=C msgattrib --only-fuzzy --no-obsolete "$po" 2>/dev/null | grep '^msgid ' | head -n 20
      LC_ALL=C msgattrib --untranslated --no-obsolete "$po" 2>/dev/null | grep '^msgid ' | head -n 20
      ;;
  esac
done
exit $status
