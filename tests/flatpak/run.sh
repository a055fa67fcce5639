#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Flatpak from flatpak/io.github.npu_tools.OverflowInspector.json
# with flatpak-builder against a stand-in runtime made from Debian 12
# packages (build-runtime.sh: Flathub cannot be reached here), installs it,
# and runs it in its sandbox under Xvfb with a private session bus and the
# portals. Ends with "N passed, N failed, N skipped".
#
#   OVI_FLATPAK_CACHE   the runtime cache (default /var/cache/overflow-inspector-flatpak)
#   OVI_FLATPAK_KEEP=1  keep the build and test folders (_build-flatpak/)
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
here=$top/tests/flatpak
app_id=io.github.npu_tools.OverflowInspector
manifest=flatpak/$app_id.json
branch=43-debian12
cache=${OVI_FLATPAK_CACHE:-/var/cache/overflow-inspector-flatpak}
export OVI_FLATPAK_CACHE=$cache
# The stand-in runtime has C.UTF-8 only; a host locale would only warn.
unset LC_ALL LANGUAGE
export LANG=C.UTF-8
work=$top/_build-flatpak
passed=0 failed=0 skipped=0
started=$(date +%s)

summary () {
  echo "flatpak: $(( $(date +%s) - started )) s in all"
  echo "$passed passed, $failed failed, $skipped skipped"
}
pass () { echo "PASS $1"; passed=$((passed + 1)); }
fail () { echo "FAIL $1"; failed=$((failed + 1)); }
skip () { echo "SKIP $1"; skipped=$((skipped + 1)); }
# step NAME CMD...: a step the rest depends on; its output goes to a log.
step () {
  local name=$1 log=$work/log/$1.log t0
  shift
  t0=$(date +%s)
  if "$@" >"$log" 2>&1; then
    pass "$name ($(( $(date +%s) - t0 )) s)"
  else
    tail -n 40 "$log"
    fail "$name (log: $log)"
    summary
    exit 1
  fi
}

# What a fresh Debian 12 machine lacks, besides tests/install-deps.sh's.
install_deps () {
  local packages=(flatpak flatpak-builder ostree bubblewrap debootstrap fuse3 xdg-dbus-proxy elfutils
    xdg-desktop-portal xdg-desktop-portal-gtk xvfb xauth dbus at-spi2-core
    python3-gi gir1.2-atspi-2.0 gir1.2-gtk-4.0 libglib2.0-bin imagemagick x11-utils xdotool
    desktop-file-utils appstream tesseract-ocr tesseract-ocr-eng dpkg-dev)
  local missing=() p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# Debian's source of a package (protobuf-c, igraph), through a sources
# list of our own (the machine's apt setup is left alone): prints the orig
# tarball, its version and its sha256 as Debian's .dsc gives it.
debian_source () {
  local name=$1 d=$cache/sources
  mkdir -p "$d/lists/partial"
  printf 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s bookworm main\n' \
    "${OVI_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$d/src.list"
  local apt=(apt-get -o "Dir::Etc::SourceList=$d/src.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$d/lists")
  if ! ls "$d/${name}"_*.dsc >/dev/null 2>&1; then
    { "${apt[@]}" update -qq && (cd "$d" && "${apt[@]}" source --download-only "$name"); } \
      >"$work/log/apt-source-$name.log" 2>&1 || { cat "$work/log/apt-source-$name.log" >&2; return 1; }
  fi
  local dsc orig version sha
  dsc=$(ls "$d/${name}"_*.dsc | tail -n 1)
  version=$(sed -n 's/^Version: //p' "$dsc")
  orig=$(ls "$d/${name}"_*.orig.tar.* | tail -n 1)
  sha=$(awk -v f="$(basename "$orig")" '/^Checksums-Sha256:/ {s=1; next} /^[^ ]/ {s=0} s && $3 == f {print $1}' "$dsc")
  [ -n "$sha" ] && [ "$(sha256sum "$orig" | cut -d' ' -f1)" = "$sha" ] || { echo "$orig does not match $dsc" >&2; return 1; }
  echo "$orig $version $sha"
}

rm -rf "$work"
mkdir -p "$work/log"
# The dump folders the tests open must be visible through the manifest's
# --filesystem=host:ro, which leaves out /tmp, /var, /root, /run and /usr by
# design: under the clone when it is elsewhere, otherwise in /srv.
case $top/ in
  /tmp/* | /var/* | /root/* | /run/* | /usr/* | /etc/*) data=/srv/overflow-inspector-flatpak-test ;;
  *) data=$work/data ;;
esac
rm -rf "$data"
mkdir -p "$data"

install_all () { bash tests/install-deps.sh && install_deps; }
step install-deps install_all

runtime_t0=$(date +%s)
if bash "$here/build-runtime.sh" --check; then runtime_state=reused; else runtime_state=built; fi
step "stand-in-runtime-$runtime_state" nice bash "$here/build-runtime.sh"
repo=$(tail -n 1 "$work/log/stand-in-runtime-$runtime_state.log")
echo "stand-in runtime $runtime_state in $(( $(date +%s) - runtime_t0 )) s: $repo, $(du -sh "$repo" | cut -f1)"

# One flatpak installation of our own, kept with the runtime so that a
# cached run does not install it again; the machine's are left alone.
export FLATPAK_USER_DIR=${repo%/repo}/installation
install_runtime () {
  flatpak --user remote-add --if-not-exists --no-gpg-verify ovi-stand-in "$repo" &&
    flatpak --user install -y --noninteractive --or-update ovi-stand-in \
      "org.gnome.Platform//$branch" "org.gnome.Sdk//$branch" &&
    flatpak --user info "org.gnome.Platform//$branch"
}
step install-runtime install_runtime
echo "installed runtime: $(du -sh "$FLATPAK_USER_DIR/runtime/org.gnome.Platform" | cut -f1) Platform," \
  "$(du -sh "$FLATPAK_USER_DIR/runtime/org.gnome.Sdk" | cut -f1) Sdk"

derive () {
  local source
  local igraph
  source=$(debian_source protobuf-c) || return 1
  # igraph: Debian's repack, not upstream's tarball (derive-manifest.py says
  # what that changes); the libraries it leaves out come from the Sdk.
  igraph=$(debian_source igraph) || return 1
  # shellcheck disable=SC2086
  /usr/bin/python3 "$here/derive-manifest.py" "$manifest" "flatpak/$app_id.stand-in.json" "$branch" \
    $source $igraph
}
step derive-manifest derive
cat "$work/log/derive-manifest.log"

build_app () {
  nice flatpak-builder --user --disable-download --disable-updates --force-clean \
    --state-dir="$work/state" --repo="$work/repo" "$work/build-dir" "flatpak/$app_id.stand-in.json"
}
step flatpak-builder build_app

install_app () {
  flatpak --user remote-delete --force ovi-local-app 2>/dev/null
  # The AppStream branch a software centre reads, as a remote publishes it.
  flatpak build-update-repo "$work/repo" &&
    flatpak --user remote-add --no-gpg-verify ovi-local-app "$work/repo" &&
    flatpak --user install -y --noninteractive --reinstall ovi-local-app "$app_id" &&
    flatpak --user info --show-permissions "$app_id"
}
step install-app install_app

# What the installation exports to the desktop, and what the app declares.
/usr/bin/python3 "$here/test-exports.py" --installation "$FLATPAK_USER_DIR" --repo "$work/repo" \
  --manifest "$manifest" >"$work/log/exports.log" 2>&1
cat "$work/log/exports.log"

# The sandboxed application and command-line tool.
/usr/bin/python3 "$here/test-sandbox.py" --data "$data" --work "$work" --example "$top/data/example-dump" \
  2>&1 | tee "$work/log/sandbox.log"
for kind in PASS FAIL SKIP; do
  n=$(grep -c "^$kind " "$work/log/exports.log" "$work/log/sandbox.log" | awk -F: '{s+=$2} END {print s+0}')
  case $kind in PASS) passed=$((passed + n)) ;; FAIL) failed=$((failed + n)) ;; SKIP) skipped=$((skipped + n)) ;; esac
done
grep -q "^DONE" "$work/log/sandbox.log" || fail "test-sandbox.py ended before its last check"

rm -f "flatpak/$app_id.stand-in.json"
[ "${OVI_FLATPAK_KEEP:-0}" = 1 ] || rm -rf "$work/build-dir" "$work/state" "$data"
summary
[ "$failed" -eq 0 ]
