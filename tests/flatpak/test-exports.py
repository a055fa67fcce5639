#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What installing the Flatpak gives the desktop, read from the
installation as a desktop shell reads it: the exported desktop file and
icons, the AppStream data in the repository, the metainfo, and the
permissions the app was installed with. One line per check: PASS, FAIL or
SKIP, then the name and what was seen.

  test-exports.py --installation DIR --repo DIR --manifest FILE
"""

import argparse
import configparser
import gzip
import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

APP_ID = "io.github.npu_tools.OverflowInspector"


def report(ok, name, detail):
    print("%s %s: %s" % ("PASS" if ok else "FAIL", name, detail))


def desktop_file(installation):
    path = os.path.join(installation, "exports", "share", "applications", APP_ID + ".desktop")
    if not os.path.exists(path):
        report(False, "desktop-file", "%s was not exported" % path)
        return
    out = subprocess.run(["desktop-file-validate", path], capture_output=True, text=True)
    entry = configparser.ConfigParser(interpolation=None, strict=False)
    entry.optionxform = str
    entry.read(path)
    d = entry["Desktop Entry"]
    exec_ = d.get("Exec", "")
    problems = []
    if out.returncode != 0 or out.stdout.strip():
        problems.append("desktop-file-validate: " + (out.stdout + out.stderr).strip())
    # flatpak rewrites Exec so that "Open With" on a folder starts the
    # sandboxed app with the folder forwarded.
    for part in ("flatpak run", "--command=overflow-inspector", "--file-forwarding", APP_ID,
                 "@@u %U @@"):
        if part not in exec_:
            problems.append("Exec lacks %r: %s" % (part, exec_))
    if "inode/directory" not in d.get("MimeType", ""):
        problems.append("MimeType lacks inode/directory: %s" % d.get("MimeType"))
    if d.get("Icon") != APP_ID:
        problems.append("Icon is %s" % d.get("Icon"))
    if d.get("X-Flatpak") != APP_ID:
        problems.append("X-Flatpak is %s" % d.get("X-Flatpak"))
    report(not problems, "desktop-file", "; ".join(problems) or "%s, Exec=%s" % (path, exec_))


def icons(installation):
    base = os.path.join(installation, "exports", "share", "icons", "hicolor")
    problems, seen = [], []
    for size, name in (("scalable", APP_ID + ".svg"), ("symbolic", APP_ID + "-symbolic.svg")):
        path = os.path.join(base, size, "apps", name)
        if not os.path.exists(path):
            problems.append("%s was not exported" % path)
            continue
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            problems.append("%s: %s" % (path, e))
            continue
        if not root.tag.endswith("svg"):
            problems.append("%s is not an SVG image" % path)
        seen.append(os.path.relpath(path, base))
    report(not problems, "icons", "; ".join(problems) or ", ".join(seen))


def metainfo(installation, repo):
    deploy = os.path.join(installation, "app", APP_ID, "current", "active", "files")
    # flatpak-builder before 1.3 moves it to share/appdata/ID.appdata.xml.
    candidates = [os.path.join(deploy, "share", "metainfo", APP_ID + ".metainfo.xml"),
                  os.path.join(deploy, "share", "appdata", APP_ID + ".appdata.xml")]
    path = next((c for c in candidates if os.path.exists(c)), None)
    if path is None:
        report(False, "metainfo", "neither of %s is installed" % candidates)
    else:
        out = subprocess.run(["appstreamcli", "validate", "--no-net", "--explain", path],
                             capture_output=True, text=True)
        report(out.returncode == 0, "metainfo",
               "appstreamcli validate --no-net %s: %s" % (
                   os.path.relpath(path, installation), out.stdout.strip().splitlines()[-1:]))
    # What a software centre lists: the AppStream data flatpak-builder
    # composed and exported into the repository's appstream branch.
    arch = subprocess.run(["flatpak", "--default-arch"], capture_output=True,
                          text=True).stdout.strip()
    tmp = os.path.join(os.path.dirname(repo), "appstream-checkout")
    shutil.rmtree(tmp, ignore_errors=True)
    out = subprocess.run(["ostree", "--repo=" + repo, "checkout", "-U", "appstream/" + arch, tmp],
                         capture_output=True, text=True)
    xml_gz = os.path.join(tmp, "appstream.xml.gz")
    if out.returncode != 0 or not os.path.exists(xml_gz):
        report(False, "appstream-branch", "no appstream/%s branch: %s" % (arch, out.stderr.strip()))
        return
    root = ET.fromstring(gzip.open(xml_gz).read())
    comps = [c for c in root.iter("component") if (c.findtext("id") or "") == APP_ID]
    problems = []
    if not comps:
        problems.append("no component %s in appstream/%s" % (APP_ID, arch))
    else:
        c = comps[0]
        if c.findtext("name") != "Overflow Inspector":
            problems.append("name %r" % c.findtext("name"))
        if not c.findtext("bundle", "").startswith("app/" + APP_ID):
            problems.append("bundle %r" % c.findtext("bundle"))
        if not any(i.text == APP_ID + ".png" or (i.text or "").endswith(".png")
                   for i in c.iter("icon")):
            problems.append("no icon in the composed data")
    report(not problems, "appstream-branch",
           "; ".join(problems) or "component %s with its name, bundle and icon" % APP_ID)
    shutil.rmtree(tmp, ignore_errors=True)


def permissions(manifest):
    out = subprocess.run(["flatpak", "--user", "info", "--show-permissions", APP_ID],
                         capture_output=True, text=True)
    perms = configparser.ConfigParser(interpolation=None, strict=False)
    perms.optionxform = str
    perms.read_string(out.stdout)
    ctx = perms["Context"] if perms.has_section("Context") else {}
    with open(manifest) as f:
        wanted = json.load(f)["finish-args"]
    problems = []
    filesystems = ctx.get("filesystems", "").strip(";").split(";")
    if "host:ro" not in filesystems or len([f for f in filesystems if f]) != 1:
        problems.append("filesystems=%s, not host:ro alone" % ctx.get("filesystems"))
    if ctx.get("shared", "").strip(";") != "ipc":
        problems.append("shared=%s, not ipc alone (no network)" % ctx.get("shared"))
    if perms.has_section("Session Bus Policy") or perms.has_section("System Bus Policy"):
        problems.append("bus names granted: %s" % out.stdout)
    if "--filesystem=host:ro" not in wanted:
        problems.append("the manifest does not ask for host:ro")
    report(out.returncode == 0 and not problems, "permissions",
           "; ".join(problems) or " ".join(l for l in out.stdout.splitlines() if "=" in l))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--installation", required=True)
    p.add_argument("--repo", required=True)
    p.add_argument("--manifest", required=True)
    args = p.parse_args()
    desktop_file(args.installation)
    icons(args.installation)
    metainfo(args.installation, args.repo)
    permissions(args.manifest)


if __name__ == "__main__":
    main()
