#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-i18n.sh SRCDIR
# xgettext over po/POTFILES.in and msgfmt --check over each po/LANG.po, with
# warnings as errors. Also fails on a C string with a % that xgettext did not
# take as a format: "%s at %" G_GINT64_FORMAT " %s" reaches the catalog cut
# short ("%s at %"), so its translation can never match.
set -u
srcdir=$1
for tool in msgfmt xgettext; do
  command -v $tool >/dev/null 2>&1 || { echo "$tool not found"; exit 77; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$srcdir" || exit 1
status=0

# Same keywords as i18n.gettext(preset: 'glib').
LC_ALL=C xgettext --directory="$srcdir" --files-from=po/POTFILES.in \
  --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 \
  --keyword=g_dpgettext2:2c,3 \
  --output="$tmp/template.pot" 2>"$tmp/xgettext.err" || status=1
if [ -s "$tmp/xgettext.err" ]; then
  cat "$tmp/xgettext.err"
  status=1
fi

# An entry from a .c file whose msgid holds a % but is neither c-format nor
# marked no-c-format is a format xgettext could not read whole.
awk '
  function check() {
    if (id ~ /%/ && from_c && flags !~ /c-format/)
      { print "not an extractable format string (" where "): \"" id "\""; bad = 1 }
    id = ""; flags = ""; where = ""; from_c = 0; field = ""
  }
  /^#:/ { if (field != "") check(); where = $2; if ($0 ~ /\.c:/) from_c = 1; next }
  /^#,/ { flags = flags $0; next }
  /^msgid / { field = "msgid"; s = $0; sub(/^msgid "/, "", s); sub(/"$/, "", s); id = s; next }
  /^msgid_plural / { field = "plural"; next }
  /^"/ { if (field == "msgid") { s = $0; sub(/^"/, "", s); sub(/"$/, "", s); id = id s }; next }
  /^msgstr/ { field = "msgstr"; next }
  /^$/ { check() }
  END { check(); exit bad }
' "$tmp/template.pot" || status=1

for lang in $(sed -e 's/#.*//' po/LINGUAS); do
  LC_ALL=C msgfmt --check --output-file=/dev/null "po/$lang.po" 2>"$tmp/msgfmt.err" || status=1
  if [ -s "$tmp/msgfmt.err" ]; then
    cat "$tmp/msgfmt.err"
    status=1
  fi
done
[ $status -eq 0 ] && echo "xgettext and msgfmt --check: no warnings"
exit $status
