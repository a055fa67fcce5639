#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# check-install.sh MESON BUILDDIR SRCDIR PREFIX BINDIR DATADIR MANDIR LOCALEDIR APP_ID
#                  example|no-example (whether meson saw data/example-dump)
# Installs into a private DESTDIR (building what is out of date first, as
# meson test only builds what the tests need) and checks the installed tree.
set -u
meson=$1 builddir=$2 srcdir=$3 prefix=$4 bindir=$5 datadir=$6 mandir=$7
localedir=$8 app_id=$9 configured=${10}
abs() { case $1 in /*) echo "$1" ;; *) echo "$prefix/$1" ;; esac; }
if [ -d "$srcdir/data/example-dump" ] && [ "$configured" != example ]; then
  echo "data/example-dump appeared after meson configured $builddir:"
  echo "run meson setup --reconfigure $builddir"
  exit 1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
$meson install -C "$builddir" --quiet --destdir "$tmp/root" \
  >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "meson install failed"; exit 1; }
root=$tmp/root
bin=$root$(abs "$bindir")
share=$root$(abs "$datadir")
man=$root$(abs "$mandir")
locale=$root$(abs "$localedir")
expect="$bin/overflow-inspector-cli
$share/applications/$app_id.desktop
$share/metainfo/$app_id.metainfo.xml
$share/glib-2.0/schemas/$app_id.gschema.xml
$share/icons/hicolor/scalable/apps/$app_id.svg
$share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg
$locale/zh_CN/LC_MESSAGES/overflow-inspector.mo
$man/man1/overflow-inspector.1
$man/man1/overflow-inspector-cli.1"
if [ -e "$builddir/src/app/overflow-inspector" ]; then
  expect="$expect
$bin/overflow-inspector"
fi
if [ -d "$srcdir/data/example-dump" ]; then
  expect="$expect
$share/overflow-inspector/example-dump"
fi
status=0
echo "$expect" | while IFS= read -r f; do
  if [ -e "$f" ]; then
    echo "ok ${f#$root}"
  else
    echo "MISSING ${f#$root}"
    echo fail >>"$tmp/failed"
  fi
done
[ -e "$tmp/failed" ] && status=1
if [ -d "$srcdir/data/example-dump" ]; then
  n_src=$(find "$srcdir/data/example-dump" -type f | wc -l)
  n_dst=$(find "$share/overflow-inspector/example-dump" -type f | wc -l)
  if [ "$n_src" -ne "$n_dst" ]; then
    echo "example-dump: $n_src files in the source, $n_dst installed"
    status=1
  fi
fi
exit $status
