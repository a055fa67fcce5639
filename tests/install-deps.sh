#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages needed to build, run and test Overflow
# Inspector. Idempotent: installs only what is missing.
set -euo pipefail

packages=(
  meson ninja-build pkgconf gcc clang clang-format libclang-rt-14-dev
  libglib2.0-dev libglib2.0-dev-bin libjson-glib-dev
  libgtk-4-dev libgtk-4-bin libadwaita-1-dev
  protobuf-c-compiler libprotobuf-c-dev
  gettext desktop-file-utils appstream libxml2-utils flatpak-builder groff-base man-db
  xvfb xauth dbus imagemagick x11-utils xdotool fonts-wqy-microhei
  at-spi2-core python3-gi gir1.2-atspi-2.0
  python3 python3-numpy python3-protobuf protobuf-compiler
  libigraph-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "Installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
