#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Derives the manifest built against the stand-in runtime from the real one,
with two things substituted and nothing else:

- runtime-version: the stand-in runtime's branch;
- the protobuf-c module's archive: Debian's orig tarball of protobuf-c,
  given by path. When its upstream version is the manifest's, the manifest's
  sha256 is kept, so flatpak-builder checks Debian's tarball against it;
  otherwise the sha256 Debian's .dsc gives for it, and the output says the
  manifest's could not be checked.

Prints each substitution, then checks that undoing them gives the manifest
back. The derived file is written beside the manifest (its "dir" source is
relative to it).

  derive-manifest.py MANIFEST OUTPUT BRANCH ORIG_TARBALL DEBIAN_VERSION DEBIAN_SHA256
"""

import copy
import json
import re
import sys


def protobuf_c_module(manifest):
    for module in manifest["modules"]:
        if isinstance(module, dict) and module.get("name") == "protobuf-c":
            return module
    raise SystemExit("the manifest has no protobuf-c module")


def main():
    manifest_path, output, branch, orig, deb_version, deb_sha256 = sys.argv[1:7]
    with open(manifest_path) as f:
        manifest = json.load(f)
    derived = copy.deepcopy(manifest)

    # 1. The runtime branch.
    old_branch = manifest["runtime-version"]
    derived["runtime-version"] = branch
    print("substituted runtime-version: %s -> %s" % (json.dumps(old_branch), json.dumps(branch)))

    # 2. The protobuf-c source.
    module = protobuf_c_module(derived)
    archives = [i for i, s in enumerate(module["sources"]) if s.get("type") == "archive"]
    if len(archives) != 1:
        raise SystemExit("the protobuf-c module has %d archive sources, not 1" % len(archives))
    index = archives[0]
    old_source = module["sources"][index]
    m = re.search(r"protobuf-c-([0-9][0-9.]*[0-9])\.tar", old_source.get("url", ""))
    if m is None:
        raise SystemExit("cannot read protobuf-c's version from %s" % old_source.get("url"))
    manifest_version = m.group(1)
    upstream_version = deb_version.split(":")[-1].split("-")[0]
    new_source = {"type": "archive", "path": orig}
    if upstream_version == manifest_version:
        new_source["sha256"] = old_source["sha256"]
        note = ("same version (%s): flatpak-builder checks Debian's tarball against the "
                "manifest's sha256" % manifest_version)
    else:
        new_source["sha256"] = deb_sha256
        note = ("versions differ (manifest %s, Debian %s): the manifest's sha256 cannot be "
                "checked here; Debian's .dsc sha256 is used" % (manifest_version, upstream_version))
    module["sources"][index] = new_source
    print("substituted protobuf-c source: %s -> %s" % (json.dumps(old_source, sort_keys=True),
                                                       json.dumps(new_source, sort_keys=True)))
    print("protobuf-c: " + note)

    # Nothing else may differ: undo both and compare.
    undone = copy.deepcopy(derived)
    undone["runtime-version"] = old_branch
    protobuf_c_module(undone)["sources"][index] = old_source
    if undone != manifest:
        raise SystemExit("the derived manifest differs from the manifest in more than the two substitutions")
    print("nothing else differs from %s" % manifest_path)

    with open(output, "w") as f:
        json.dump(derived, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
