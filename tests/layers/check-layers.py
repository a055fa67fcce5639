#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Core's layers, checked and drawn.

src/core is in layer folders, each a static library that may use only the
layers below it (src/core/README.md); their order is the order in which
src/core/meson.build enters them. This reads every #include "..." of core's
sources and fails when a file includes a header of a higher layer, when
headers include each other in a cycle, when modules (a .c with its .h and
-private.h) use each other in a cycle that src/core/README.md does not
name under "Parent and child", or when core names GTK or frames.

  check-layers.py SRC_CORE            check, print the layer graph
  check-layers.py SRC_CORE --files    also every file's includes
  check-layers.py SRC_CORE --dot      the file graph for Graphviz
  check-layers.py SRC_CORE --build BUILD_DIR
      also check, in BUILD_DIR/compile_commands.json, that the build gives
      each core file no include folder of a higher layer (so that an
      upward include does not even compile)
"""

import json
import os
import re
import shlex
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# What the user interface decides, which core must not: GTK itself, its
# frame clock's priorities, and pacing by frames.
UI_WORDS = re.compile(r'#\s*include\s*<gtk/|#\s*include\s*<gdk/|\bGDK_PRIORITY\w*|\bGTK_\w+|'
                      r'\bgtk_\w+|\bgdk_\w+|\bframes?\b', re.I)


def layer_order(core):
    text = open(os.path.join(core, "meson.build")).read()
    return re.findall(r"^subdir\('(\w+)'\)", text, re.M)


def sources(core, layers):
    """{file name: (layer, path)} of every .c and .h of the layers."""
    found = {}
    for layer in layers:
        for name in sorted(os.listdir(os.path.join(core, layer))):
            if name.endswith((".c", ".h")):
                found[name] = (layer, os.path.join(core, layer, name))
    return found


def generated_layer(name, layers):
    """The layer of a header made at build time: ovi-LAYER-enums.h, the
    protobuf code of format."""
    m = re.match(r"ovi-(\w+)-enums\.h$", name)
    if m and m.group(1) in layers:
        return m.group(1)
    if name.startswith("dump_data.pb-c"):
        return "format"
    return None


def check_include_paths(core, build, layers, rank):
    """The -I folders the build gives each core file, by layer."""
    problems = []
    core_real = os.path.realpath(core)
    commands = json.load(open(os.path.join(build, "compile_commands.json")))
    checked = 0
    for entry in commands:
        source = os.path.realpath(os.path.join(entry["directory"], entry["file"]))
        rel = os.path.relpath(source, core_real)
        if rel.startswith("..") or "/" not in rel:
            continue
        layer = rel.split("/")[0]
        if layer not in rank:
            continue
        checked += 1
        for arg in shlex.split(entry["command"]):
            if not arg.startswith("-I"):
                continue
            folder = os.path.realpath(os.path.join(entry["directory"], arg[2:]))
            for other in layers:
                # The layer's folder in the source tree or in the build tree.
                if rank[other] > rank[layer] and (
                        folder == os.path.join(core_real, other) or
                        folder.endswith(os.sep + os.path.join("src", "core", other))):
                    problems.append("%s is compiled with the include folder of the higher layer "
                                    "%s (%s)" % (rel, other, arg))
    if checked == 0:
        problems.append("no core file in %s/compile_commands.json" % build)
    return problems


def module(name):
    """The module a file belongs to: ovi-thing for ovi-thing.c, ovi-thing.h
    and ovi-thing-private.h."""
    return re.sub(r"(-private)?\.[ch]$", "", name)


def named_cycles(core):
    """The module groups src/core/README.md allows to use each other: each
    bullet of its "Parent and child" section names one group, as
    `ovi-...` words."""
    text = open(os.path.join(core, "README.md"), encoding="utf-8").read()
    m = re.search(r"^## Parent and child\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not m:
        return []
    groups = []
    for bullet in re.split(r"^- ", m.group(1), flags=re.M)[1:]:
        names = set(re.findall(r"`(ovi-[\w-]+)`", bullet))
        if names:
            groups.append(names)
    return groups


def module_cycles(includes):
    """The groups of two or more modules that use each other, each sorted."""
    graph = {}
    for name, headers in includes.items():
        for header in headers:
            if module(header) != module(name):
                graph.setdefault(module(name), set()).add(module(header))

    def reach(start):
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reachable = {m: reach(m) for m in graph}
    cycles = []
    for m in sorted(graph):
        group = sorted(o for o in reachable[m] if m in reachable.get(o, ()))
        if len(group) > 1 and group not in cycles:
            cycles.append(group)
    return cycles


def main():
    args = [a for i, a in enumerate(sys.argv[1:], 1)
            if not a.startswith("--") and sys.argv[i - 1] != "--build"]
    if len(args) != 1:
        print(__doc__)
        return 2
    core = args[0]
    layers = layer_order(core)
    rank = {layer: i for i, layer in enumerate(layers)}
    files = sources(core, layers)
    problems = []
    edges = {}  # (from layer, to layer) -> count
    includes = {}  # file -> [included files of core]

    for name, (layer, path) in files.items():
        text = open(path, encoding="utf-8").read()
        includes[name] = []
        for header in INCLUDE.findall(text):
            if header == "config.h":
                continue
            target = files[header][0] if header in files else generated_layer(header, layers)
            if target is None:
                problems.append("%s/%s includes %s, which no layer has" % (layer, name, header))
                continue
            includes[name].append(header)
            edges[(layer, target)] = edges.get((layer, target), 0) + 1
            if rank[target] > rank[layer]:
                problems.append("%s/%s includes %s of the higher layer %s"
                                % (layer, name, header, target))
        for m in UI_WORDS.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            problems.append("%s/%s:%d names %r: core knows nothing of GTK or frames"
                            % (layer, name, line, m.group(0)))

    if "--build" in sys.argv:
        build = sys.argv[sys.argv.index("--build") + 1]
        problems += check_include_paths(core, build, layers, rank)

    # Cycles among headers (a .c file is included by no one).
    state = {}

    def visit(name, stack):
        state[name] = "open"
        for header in includes.get(name, []):
            if state.get(header) == "open":
                cycle = stack[stack.index(header):] + [header]
                problems.append("include cycle: " + " -> ".join(cycle))
            elif header not in state:
                visit(header, stack + [header])
        state[name] = "done"

    for name in sorted(files):
        if name.endswith(".h") and name not in state:
            visit(name, [name])

    # Cycles among modules: only the parent/child pairs the README names.
    allowed = named_cycles(core)
    cycles = module_cycles(includes)
    for cycle in cycles:
        if not any(set(cycle) <= group for group in allowed):
            problems.append("modules use each other in a cycle that src/core/README.md does not "
                            "name under \"Parent and child\": " + " <-> ".join(cycle))

    if "--dot" in sys.argv:
        print("digraph core {")
        for layer in layers:
            print('  subgraph "cluster_%s" { label="%s";' % (layer, layer))
            for name, (l, _) in files.items():
                if l == layer:
                    print('    "%s";' % name)
            print("  }")
        for name, targets in sorted(includes.items()):
            for t in targets:
                print('  "%s" -> "%s";' % (name, t))
        print("}")
        return 1 if problems else 0

    print("Layers, bottom first, and what each includes of the others:")
    for layer in layers:
        below = ["%s (%d)" % (t, n) for (f, t), n in sorted(edges.items(), key=lambda e: rank[e[0][1]])
                 if f == layer and t != layer]
        n_files = sum(1 for l, _ in files.values() if l == layer)
        print("  %-9s %2d files  -> %s" % (layer, n_files, ", ".join(below) or "GLib only"))
    if "--files" in sys.argv:
        for name in sorted(includes, key=lambda n: (rank[files[n][0]], n)):
            print("  %s/%s: %s" % (files[name][0], name, " ".join(includes[name])))
    for cycle in cycles:
        if any(set(cycle) <= group for group in allowed):
            print("  parent and child: " + " <-> ".join(cycle))
    for p in problems:
        print("FAIL " + p)
    print("%d files, %d problems" % (len(files), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
