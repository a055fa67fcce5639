#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds a stand-in for the GNOME runtime from Debian 12 packages, since
# Flathub cannot be reached here: org.gnome.Platform and org.gnome.Sdk on
# branch 43-debian12 (Debian 12 carries the GNOME 43 stack), committed into
# a local OSTree repository. The manifest's modules are built and run
# against it; it is not the runtime the manifest names for Flathub.
#
#   build-runtime.sh           build it, or reuse the cached one; prints the repository
#   build-runtime.sh --check   exit 0 when the cached runtime for these package lists exists
#
# The cache lives outside the repository, in ${OVI_FLATPAK_CACHE:-/var/cache/overflow-inspector-flatpak}:
#   roots-KEY1/{platform,sdk}/{usr,etc}   the Debian trees, KEY1 = hash of the package lists
#   runtime-KEY2/repo                     the OSTree repository, KEY2 = KEY1 + this script's commands
# so a fresh clone reuses them, and a change to a list or to the layout
# below builds anew (the debootstrap step only when a list changed).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cache=${OVI_FLATPAK_CACHE:-/var/cache/overflow-inspector-flatpak}
mirror=${OVI_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
branch=43-debian12
arch=$(flatpak --default-arch 2>/dev/null || uname -m)

# packages FILE: the names in a list, without comments and blank lines.
packages () {
  sed -e 's/#.*//' -e 's/[[:space:]]//g' "$1" | grep -v '^$'
}

key1=$( { echo "$suite"; echo platform; packages "$here/platform.packages" | sort
          echo sdk; packages "$here/sdk.packages" | sort; } | sha256sum | cut -c1-16)
# Comment lines do not count: a reworded comment does not rebuild the runtime.
key2=$( { echo "$key1"; grep -v '^[[:space:]]*#' "$0"; } | sha256sum | cut -c1-16)
roots=$cache/roots-$key1
runtime=$cache/runtime-$key2

if [ "${1:-}" = --check ]; then
  [ -f "$runtime/done" ]
  exit
fi

if [ -f "$runtime/done" ]; then
  echo "$runtime/repo"
  exit 0
fi

log () { echo "build-runtime: $*" >&2; }

# in_root ROOT CMD...: runs CMD chrooted in ROOT, with /dev, /proc and /sys
# mounted in a mount namespace of its own, so nothing stays mounted if it
# is interrupted.
in_root () {
  local root=$1
  shift
  unshare --mount --fork -- sh -ec '
    r=$1; shift
    mount --rbind /dev "$r/dev"; mount --make-rslave "$r/dev"
    mount -t proc proc "$r/proc"
    mount -t sysfs sysfs "$r/sys"
    exec chroot "$r" "$@"' sh "$root" \
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"
}

# The Debian trees: debootstrap, then the Platform's packages, a copy of
# /usr and /etc, then the Sdk's on top, another copy.
build_roots () {
  local tmp=$roots.tmp chroot=$roots.tmp/chroot
  rm -rf "$tmp"
  mkdir -p "$tmp"
  log "debootstrap $suite into $chroot"
  unshare --mount --fork -- debootstrap --variant=minbase --merged-usr "$suite" "$chroot" "$mirror" \
    >"$tmp/debootstrap.log" 2>&1 || { tail -n 30 "$tmp/debootstrap.log" >&2; return 1; }
  # Security and point-release updates, as a Flathub runtime has them.
  cat >"$chroot/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${mirror%/debian}/debian-security $suite-security main
EOF
  cp /etc/resolv.conf "$chroot/etc/resolv.conf"
  # Nothing installed here may start a service.
  printf '#!/bin/sh\nexit 101\n' >"$chroot/usr/sbin/policy-rc.d"
  chmod 755 "$chroot/usr/sbin/policy-rc.d"

  local kind
  for kind in platform sdk; do
    log "installing the $kind packages"
    in_root "$chroot" apt-get update -qq
    # shellcheck disable=SC2046
    in_root "$chroot" apt-get install -y -qq --no-install-recommends \
      $(packages "$here/$kind.packages") >"$tmp/$kind-apt.log" 2>&1 ||
      { tail -n 30 "$tmp/$kind-apt.log" >&2; return 1; }
    in_root "$chroot" apt-get dist-upgrade -y -qq >>"$tmp/$kind-apt.log" 2>&1
    in_root "$chroot" apt-get clean
    in_root "$chroot" dpkg-query -W -f '${Package} ${Version}\n' >"$tmp/$kind.versions"
    mkdir -p "$tmp/$kind"
    cp -a "$chroot/usr" "$chroot/etc" "$tmp/$kind/"
    rm -f "$tmp/$kind/usr/sbin/policy-rc.d"
  done
  rm -rf "$chroot"
  mv "$tmp" "$roots"
}

# layout FILES KIND: turns a copy of Debian's /usr (with its /etc in
# FILES/etc) into what flatpak mounts as /usr.
layout () {
  local files=$1 kind=$2

  # /usr is merged in Debian 12: the sandbox's /lib64, /lib, /bin and
  # /sbin are symlinks flatpak makes into /usr. The dynamic loader must be
  # reachable through them.
  [ -e "$files/lib64/ld-linux-x86-64.so.2" ] || [ "$arch" != x86_64 ] ||
    { log "no $files/lib64/ld-linux-x86-64.so.2: not a merged /usr"; return 1; }

  # Files that flatpak writes for each sandbox (users, host names, time
  # zone), and Debian's own loader cache, which would be stale.
  rm -rf "$files/etc/passwd" "$files/etc/passwd-" "$files/etc/group" "$files/etc/group-" \
    "$files/etc/shadow" "$files/etc/shadow-" "$files/etc/gshadow" "$files/etc/gshadow-" \
    "$files/etc/hostname" "$files/etc/hosts" "$files/etc/resolv.conf" "$files/etc/machine-id" \
    "$files/etc/localtime" "$files/etc/timezone" "$files/etc/ld.so.cache" "$files/etc/mtab"

  # The loader cache: flatpak runs the runtime's /usr/bin/ldconfig (Debian
  # has it in /usr/sbin) on our ld.so.conf, so that /app/lib comes first,
  # then what flatpak adds for extensions, then Debian's multiarch folders.
  ln -sf ../sbin/ldconfig "$files/bin/ldconfig"
  cat >"$files/etc/ld.so.conf" <<'EOF'
include /run/flatpak/ld.so.conf.d/app-*.conf
include /app/etc/ld.so.conf
/app/lib
include /run/flatpak/ld.so.conf.d/runtime-*.conf
include /etc/ld.so.conf.d/*.conf
EOF

  # Fonts: the host's fonts, which flatpak mounts under /run/host and
  # lists in /run/host/font-dirs.xml, and an index of the runtime's own
  # fonts kept in /usr (the sandbox's /var/cache belongs to each app).
  # fontconfig trusts an index when the folder's time matches the one it
  # recorded; OSTree checks files out with time 0, so the folders get time
  # 0 before they are indexed.
  mkdir -p "$files/lib/fontconfig/cache"
  cat >"$files/etc/fonts/conf.d/08-ovi-stand-in-runtime.conf" <<'EOF'
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- Stand-in runtime: the host's fonts as flatpak lists them, and the
     runtime's own font index in /usr. -->
<fontconfig>
  <include ignore_missing="yes">/run/host/font-dirs.xml</include>
  <cachedir>/usr/lib/fontconfig/cache</cachedir>
</fontconfig>
EOF
  find "$files/share/fonts" -depth -exec touch -h -d @0 {} +
  run_in_tree "$files" --bind "$files/lib/fontconfig/cache" /var/cache/fontconfig fc-cache -s -f

  # Icon theme caches, written again in the tree as it will be mounted
  # (gtk-update-icon-cache writes none for a theme without icons, such as
  # the runtime's empty hicolor).
  local theme
  for theme in "$files"/share/icons/*/; do
    [ -f "$theme/index.theme" ] || continue
    run_in_tree "$files" gtk-update-icon-cache -q -f "/usr/share/icons/$(basename "$theme")"
  done

  # What GTK reads at run time and Debian's triggers wrote when the
  # packages were installed: check they are there, since a missing one
  # shows only as a window without icons or a crash on a GSettings key.
  local need
  for need in share/glib-2.0/schemas/gschemas.compiled share/mime/mime.cache \
    share/icons/Adwaita/icon-theme.cache; do
    [ -s "$files/$need" ] || { log "$kind: missing $need"; return 1; }
  done
  grep -q svg "$files"/lib/*/gdk-pixbuf-2.0/2.10.0/loaders.cache ||
    { log "$kind: the gdk-pixbuf loader cache lists no SVG loader"; return 1; }

  # Documentation, and translations other than the application's: the
  # real runtime ships translations as a separate Locale extension.
  rm -rf "$files/share/doc" "$files/share/man" "$files/share/info" "$files/share/lintian" \
    "$files/share/bug"
  local langs
  langs=$(sed -e 's/#.*//' "$here/../../po/LINGUAS" | tr -s ' \n' '|' | sed 's/^|//;s/|$//')
  find "$files/share/locale" -mindepth 1 -maxdepth 1 -type d |
    grep -Ev "/(${langs:-none})\$" | xargs -r rm -rf

}

# run_in_tree FILES BWRAP-ARGS... CMD...: runs CMD with FILES as /usr, as
# flatpak would see it, to generate caches inside the tree.
run_in_tree () {
  local files=$1
  shift
  bwrap --bind "$files" /usr --ro-bind "$files/etc" /etc \
    --symlink usr/lib /lib --symlink usr/lib64 /lib64 --symlink usr/bin /bin --symlink usr/sbin /sbin \
    --proc /proc --dev /dev --tmpfs /tmp --tmpfs /var --unshare-all --die-with-parent \
    --setenv PATH /usr/bin:/usr/sbin "$@"
}

metadata () {
  local name=$1
  printf '[Runtime]\nname=%s\nruntime=%s/%s/%s\nsdk=org.gnome.Sdk/%s/%s\n' \
    "$name" "$name" "$arch" "$branch" "$arch" "$branch"
  if [ "$name" = org.gnome.Sdk ]; then
    # flatpak-builder sets no PKG_CONFIG_PATH; Debian's pkgconf searches
    # only /usr, the real Sdk's also /app.
    printf '\n[Environment]\nPKG_CONFIG_PATH=/app/lib/pkgconfig:/app/share/pkgconfig\n'
  fi
}

build_runtime () {
  local tmp=$runtime.tmp kind name files
  rm -rf "$tmp"
  mkdir -p "$tmp"
  ostree --repo="$tmp/repo" init --mode=archive-z2
  for kind in platform sdk; do
    case $kind in platform) name=org.gnome.Platform ;; sdk) name=org.gnome.Sdk ;; esac
    log "laying out $name//$branch"
    files=$tmp/$kind/files
    mkdir -p "$files"
    cp -a "$roots/$kind/usr/." "$files/"
    cp -a "$roots/$kind/etc" "$files/etc"
    layout "$files" "$kind"
    metadata "$name" >"$tmp/$kind/metadata"
    cp "$roots/$kind.versions" "$tmp/$kind.versions"
    log "committing $name//$branch"
    ostree --repo="$tmp/repo" commit -b "runtime/$name/$arch/$branch" \
      --tree=dir="$tmp/$kind" --owner-uid=0 --owner-gid=0 --canonical-permissions --no-xattrs \
      --subject="$name $branch from Debian $suite packages ($kind.packages)" \
      --add-metadata-string "xa.metadata=$(cat "$tmp/$kind/metadata")
" >/dev/null
    rm -rf "${tmp:?}/$kind"
  done
  flatpak build-update-repo "$tmp/repo" >/dev/null
  mv "$tmp" "$runtime"
  touch "$runtime/done"
}

mkdir -p "$cache"
exec 9>"$cache/lock"
flock 9
if [ ! -d "$roots" ]; then
  build_roots
fi
if [ ! -f "$runtime/done" ]; then
  build_runtime
fi
# Older keys' trees and repositories are left behind by a change to a list
# or to this script: keep only the current ones.
for old in "$cache"/roots-* "$cache"/runtime-*; do
  case $old in "$roots" | "$runtime") ;; *) rm -rf "$old" ;; esac
done
log "runtime repository: $(du -sh "$runtime/repo" | cut -f1)"
echo "$runtime/repo"
