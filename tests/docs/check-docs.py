#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The documentation still tells the truth where a machine can check it:
every relative link of README.md, docs/*.md and tests/README.md leads to a
file that exists (and a #fragment to a heading of it), and every
`overflow-inspector-cli ...` line of a ```sh block runs with the built
tool against the repository's example data and exits with the status the
line documents: 0, or the N of a trailing "# exit status N" comment.

The commands of one document run in order in a temporary folder that
holds a link `data` to the repository's `data/`, so paths read as in the
docs, a command can read what an earlier one wrote, and anything written
stays there.

  check-docs.py --source DIR --cli PATH [--no-commands]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

LINK = re.compile(r"!?\[(?:[^\]]|\][^(])*?\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*```(\S*)\s*$")
STATUS = re.compile(r"#\s*exit status (\d+)")
CLI = "overflow-inspector-cli"


def documents(source):
    paths = [os.path.join(source, "README.md"), os.path.join(source, "tests", "README.md")]
    docs = os.path.join(source, "docs")
    paths += sorted(os.path.join(docs, n) for n in os.listdir(docs) if n.endswith(".md"))
    return paths


def slug(heading):
    """A heading's anchor as GitHub makes it: lower case, punctuation
    dropped, each space a hyphen."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def outside_code(lines):
    """(line number, line) of the lines outside fenced blocks."""
    fenced = False
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def anchors(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    return {slug(line.lstrip("#")) for _, line in outside_code(lines) if line.startswith("#")}


def check_links(source, path):
    failures = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    where = os.path.relpath(path, source)
    for number, line in outside_code(lines):
        # Inline code is not a link: `[a](b)` shown as text.
        for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # https:, mailto: ...
            file_part, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            if not os.path.exists(resolved):
                failures.append("%s:%d: %s: no such file" % (where, number, target))
            elif fragment and resolved.endswith(".md") and fragment not in anchors(resolved):
                failures.append("%s:%d: %s: no heading with that anchor" % (where, number, target))
    return failures


def commands(path):
    """(line number, command, expected status) of each CLI line of a sh block;
    a line ending in a backslash goes on with the next."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    language = None
    pending = None
    for number, line in enumerate(lines, 1):
        fence = FENCE.match(line)
        if fence:
            language = None if language is not None else fence.group(1)
            continue
        if language not in ("sh", "bash", "console"):
            continue
        if pending:
            start, text = pending
            text += " " + line.strip()
        else:
            start, text = number, line.strip()
        if text.endswith("\\"):
            pending = (start, text[:-1].rstrip())
            continue
        pending = None
        if text.startswith(CLI + " "):
            status = STATUS.search(text)
            yield start, text, int(status.group(1)) if status else 0


def run_commands(source, cli, path):
    failures = []
    where = os.path.relpath(path, source)
    env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(cli)) + os.pathsep
               + os.environ.get("PATH", ""), LC_ALL="C.UTF-8", LANGUAGE="")
    with tempfile.TemporaryDirectory() as work:
        os.symlink(os.path.join(source, "data"), os.path.join(work, "data"))
        for number, command, expected in commands(path):
            try:
                done = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      timeout=120)
            except subprocess.TimeoutExpired:
                failures.append("%s:%d: %s: still running after 120 s" % (where, number, command))
                continue
            print("%s:%d: exit status %d: %s" % (where, number, done.returncode, command))
            if done.returncode != expected:
                failures.append("%s:%d: %s: exit status %d, the docs say %d\n%s"
                                % (where, number, command, done.returncode, expected,
                                   done.stderr.decode(errors="replace")[-2000:]))
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--cli")
    parser.add_argument("--no-commands", action="store_true")
    args = parser.parse_args()
    source = os.path.abspath(args.source)
    failures = []
    n_commands = 0
    for path in documents(source):
        failures += check_links(source, path)
        if not args.no_commands:
            n_commands += sum(1 for _ in commands(path))
            failures += run_commands(source, args.cli, path)
    for failure in failures:
        print("FAIL", failure)
    print("%d documents, %d commands, %d failures"
          % (len(documents(source)), n_commands, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
