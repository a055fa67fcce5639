#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Derives the manifest built against the stand-in runtime from the real one,
with these things substituted and nothing else:

- runtime-version: the stand-in runtime's branch;
- the protobuf-c module's archive: Debian's orig tarball of protobuf-c,
  given by path. When its upstream version is the manifest's, the manifest's
  sha256 is kept, so flatpak-builder checks Debian's tarball against it;
  otherwise the sha256 Debian's .dsc gives for it, and the output says the
  manifest's could not be checked;
- the igraph module's archive: Debian's orig tarball of igraph, a repack
  ("+ds") that leaves out igraph's vendored BLAS, LAPACK, ARPACK, GMP and
  plfit (Debian's copyright file: Files-Excluded). Its content is not the
  upstream tarball's, so the manifest's sha256 can never be checked here:
  the .dsc's is used. The module's IGRAPH_USE_INTERNAL_* switches for those
  five are turned OFF, and the stand-in Sdk carries Debian's copies
  (sdk.packages, platform.packages).

Prints each substitution, then checks that undoing them gives the manifest
back. The derived file is written beside the manifest (its "dir" source is
relative to it).

  derive-manifest.py MANIFEST OUTPUT BRANCH \\
      PROTOBUF_C_ORIG DEBIAN_VERSION DEBIAN_SHA256 \\
      IGRAPH_ORIG DEBIAN_VERSION DEBIAN_SHA256
"""

import copy
import json
import re
import sys

# The vendored folders Debian's igraph repack keeps.
IGRAPH_VENDOR_KEPT = ("cs", "pcg")
# What Debian's igraph repack leaves out, and the switches that would ask
# for the vendored copies.
IGRAPH_EXTERNAL = ("BLAS", "LAPACK", "ARPACK", "GMP", "PLFIT")


def module_named(manifest, name):
    for module in manifest["modules"]:
        if isinstance(module, dict) and module.get("name") == name:
            return module
    raise SystemExit("the manifest has no %s module" % name)


def substitute_archive(derived, name, orig, deb_version, deb_sha256, keep_sha_when_same=True):
    """Replaces module NAME's one archive by ORIG; returns what to undo."""
    module = module_named(derived, name)
    archives = [i for i, s in enumerate(module["sources"]) if s.get("type") == "archive"]
    if len(archives) != 1:
        raise SystemExit("the %s module has %d archive sources, not 1" % (name, len(archives)))
    index = archives[0]
    old_source = module["sources"][index]
    m = re.search(re.escape(name) + r"-([0-9][0-9.]*[0-9])\.tar", old_source.get("url", ""))
    if m is None:
        raise SystemExit("cannot read %s's version from %s" % (name, old_source.get("url")))
    manifest_version = m.group(1)
    upstream_version = deb_version.split(":")[-1].split("-")[0]
    new_source = {"type": "archive", "path": orig}
    if keep_sha_when_same and upstream_version == manifest_version:
        new_source["sha256"] = old_source["sha256"]
        note = ("same version (%s): flatpak-builder checks Debian's tarball against the "
                "manifest's sha256" % manifest_version)
    else:
        new_source["sha256"] = deb_sha256
        note = ("manifest %s, Debian %s: the manifest's sha256 cannot be checked here; "
                "Debian's .dsc sha256 is used" % (manifest_version, upstream_version))
    module["sources"][index] = new_source
    print("substituted %s source: %s -> %s" % (name, json.dumps(old_source, sort_keys=True),
                                               json.dumps(new_source, sort_keys=True)))
    print("%s: %s" % (name, note))
    return index, old_source


def main():
    (manifest_path, output, branch, pb_orig, pb_version, pb_sha256,
     ig_orig, ig_version, ig_sha256) = sys.argv[1:10]
    with open(manifest_path) as f:
        manifest = json.load(f)
    derived = copy.deepcopy(manifest)

    # 1. The runtime branch.
    old_branch = manifest["runtime-version"]
    derived["runtime-version"] = branch
    print("substituted runtime-version: %s -> %s" % (json.dumps(old_branch), json.dumps(branch)))

    # 2. The protobuf-c source.
    pb_index, pb_old = substitute_archive(derived, "protobuf-c", pb_orig, pb_version, pb_sha256)

    # 3. The igraph source (a repack: never upstream's bytes) and the
    # libraries it then takes from the Sdk.
    ig_index, ig_old = substitute_archive(derived, "igraph", ig_orig, ig_version, ig_sha256,
                                          keep_sha_when_same=False)
    igraph = module_named(derived, "igraph")
    old_opts = list(igraph["config-opts"])
    for lib in IGRAPH_EXTERNAL:
        option = "-DIGRAPH_USE_INTERNAL_%s=ON" % lib
        if option not in igraph["config-opts"]:
            raise SystemExit("the igraph module does not set %s" % option)
        igraph["config-opts"][igraph["config-opts"].index(option)] = option[:-2] + "OFF"
    print("substituted igraph config-opts: IGRAPH_USE_INTERNAL_{%s}=ON -> OFF (Debian's repack "
          "has no vendored copies; the stand-in Sdk has Debian's)" % ",".join(IGRAPH_EXTERNAL))
    # The repack keeps the CMake files that add and link the folders it
    # left out; Debian's own build comments those lines out
    # (debian/patches/debianization.patch), and so does this.
    kept = "".join("add_subdirectory(%s)\\n" % d for d in IGRAPH_VENDOR_KEPT)
    igraph["sources"].append({"type": "shell",
                              "commands": ["printf '%s' > vendor/CMakeLists.txt" % kept,
                                           "sed -i '/TARGET_OBJECTS:[a-z0-9]*_vendored/d' "
                                           "src/CMakeLists.txt"]})
    print("added to the igraph sources: vendor/CMakeLists.txt adds only %s (what the repack "
          "keeps), src/CMakeLists.txt links no vendored objects, as Debian's patch does"
          % ", ".join(IGRAPH_VENDOR_KEPT))

    # Nothing else may differ: undo them all and compare.
    undone = copy.deepcopy(derived)
    undone["runtime-version"] = old_branch
    module_named(undone, "protobuf-c")["sources"][pb_index] = pb_old
    module_named(undone, "igraph")["sources"][ig_index] = ig_old
    module_named(undone, "igraph")["sources"].pop()
    module_named(undone, "igraph")["config-opts"] = old_opts
    if undone != manifest:
        raise SystemExit("the derived manifest differs from the manifest in more than the "
                         "substitutions")
    print("nothing else differs from %s" % manifest_path)

    with open(output, "w") as f:
        json.dump(derived, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
