#!/usr/bin/env python3
"""The folder tree shows the architecture: every include under plugin/ points down the layers of plugin/layers.txt.

Usage: check_layers.py SOURCE_DIR

Each C++ file under plugin/ belongs to the longest layer of plugin/layers.txt that holds it (policies/gang_now/x.hpp to
policies/gang_now, run/x.cpp to run); a file in no layer is an error. Each #include of a file of plugin/ ("..." or
<...>) from another layer must name one of the layers its own may include, directly or through others (layers.txt
lists them); an include that does not is reported as FILE:LINE, unless its (file, include) pair is on ALLOWED_FOR_NOW
below. Folders that include each other round a loop are reported too, allowed pairs included. An entry of
ALLOWED_FOR_NOW that no longer occurs, or that the layers allow anyway, is an error: the list only shrinks.
README.md must quote the rules of layers.txt, line for line (spaces aside).
Exit status 0 when all holds, 1 otherwise (one line per fault on stdout), 2 when layers.txt itself is malformed.
"""

import os
import re
import sys

# Includes against the layers that stay for now: each (file, include) pair, paths under plugin/, and why it is there.
ALLOWED_FOR_NOW = {
}

SOURCE_SUFFIXES = (".hpp", ".cpp", ".h", ".cc", ".hh", ".ipp", ".tpp")
INCLUDE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)')


class LayersFileError(Exception):
    pass


def read_layers(path):
    """{layer: [layers it names]}, in the file's order; LayersFileError on a malformed file."""
    uses = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            name, sep, rest = text.partition(":")
            name = name.strip()
            where = f"{path}:{number}"
            if not sep or not name:
                raise LayersFileError(f"{where}: expected 'LAYER: USES...', got {text!r}")
            if name in uses:
                raise LayersFileError(f"{where}: layer {name!r} is listed twice")
            for used in rest.split():
                if used not in uses:
                    raise LayersFileError(f"{where}: {name!r} uses {used!r}, which is not a layer listed above it")
            uses[name] = rest.split()
    if not uses:
        raise LayersFileError(f"{path}: no layers")
    return uses


def rule_lines(path):
    """The rules of layers.txt as text, spaces collapsed (what README.md must quote)."""
    with open(path, encoding="utf-8") as f:
        return [" ".join(line.split()) for line in f if line.strip() and not line.lstrip().startswith("#")]


def reachable(uses):
    """{layer: every layer it may include}: what it names, and what those may include."""
    below = {}
    for name, direct in uses.items():  # each names only layers listed earlier, already complete
        below[name] = set(direct).union(*(below[d] for d in direct))
    return below


def layer_of(rel_path, layers):
    best = None
    for name in layers:
        if rel_path.startswith(name + "/") and (best is None or len(name) > len(best)):
            best = name
    return best


def find_cycle(graph):
    """One loop of the folder graph {a: {b: where}} as a list of layers [a, b, ..., a], or None."""
    state = {}
    stack = []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == "open":
                loop = stack[stack.index(nxt):]
                first = loop.index(min(loop))  # told from its lowest name, whichever node the search began at
                loop = loop[first:] + loop[:first]
                return loop + [loop[0]]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def check(source_dir, allowed_for_now):
    """The faults found, one line each."""
    plugin = os.path.join(source_dir, "plugin")
    layers_file = os.path.join(plugin, "layers.txt")
    uses = read_layers(layers_file)
    below = reachable(uses)
    faults = []

    for name in uses:
        if not os.path.isdir(os.path.join(plugin, name)):
            faults.append(f"plugin/layers.txt: layer {name!r} is no folder of plugin/")

    sources = []
    for root, dirs, files in os.walk(plugin):
        dirs.sort()
        for file in sorted(files):
            if file.endswith(SOURCE_SUFFIXES):
                sources.append(os.path.relpath(os.path.join(root, file), plugin).replace(os.sep, "/"))

    seen_allowed = set()
    graph = {}  # layer -> {layer it includes: first "file:line"}
    for rel in sources:
        layer = layer_of(rel, uses)
        if layer is None:
            faults.append(f"plugin/{rel}:1: in no layer of plugin/layers.txt (list its folder there)")
            continue
        with open(os.path.join(plugin, rel), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            quoted, angled = m.group(1), m.group(2)
            target = None
            if quoted is not None:  # as the compiler looks: beside the including file first, then plugin/
                beside = os.path.normpath(os.path.join(os.path.dirname(rel), quoted)).replace(os.sep, "/")
                for candidate in (beside, os.path.normpath(quoted).replace(os.sep, "/")):
                    # A header CMake generates from CANDIDATE.in (core/version.hpp) is a file of plugin/ too.
                    if any(os.path.isfile(os.path.join(plugin, candidate + suffix)) for suffix in ("", ".in")):
                        target = candidate
                        break
                if target is None:
                    faults.append(f"plugin/{rel}:{number}: #include \"{quoted}\" is no file of plugin/ "
                                  "(system and library headers go in <>)")
                    continue
            else:
                candidate = os.path.normpath(angled).replace(os.sep, "/")
                if not candidate.startswith("../") and os.path.isfile(os.path.join(plugin, candidate)):
                    target = candidate
                else:
                    continue  # a system or library header
            to = layer_of(target, uses)
            if to is None or to == layer:
                continue  # a file in no layer is reported as such
            graph.setdefault(layer, {}).setdefault(to, f"plugin/{rel}:{number}")
            pair = (rel, target)
            if to in below[layer]:
                if pair in allowed_for_now:
                    faults.append(f"plugin/{rel}:{number}: includes {target}, which the layers allow: remove this "
                                  "pair from ALLOWED_FOR_NOW")
                    seen_allowed.add(pair)
                continue
            if pair in allowed_for_now:
                seen_allowed.add(pair)
                continue
            if layer in below[to]:
                why = f"{to} is above {layer}"
            else:
                why = f"{layer} may include only " + (", ".join(sorted(below[layer])) or "its own folder")
            faults.append(f"plugin/{rel}:{number}: includes {target}: {layer} -> {to} goes against plugin/layers.txt "
                          f"({why})")

    for pair in sorted(set(allowed_for_now) - seen_allowed):
        faults.append(f"ALLOWED_FOR_NOW: plugin/{pair[0]} no longer includes {pair[1]}: remove the entry")

    cycle = find_cycle(graph)
    if cycle:
        steps = ", ".join(f"{a} -> {b} at {graph[a][b]}" for a, b in zip(cycle, cycle[1:]))
        faults.append(f"folders include each other in a loop: {' -> '.join(cycle)} ({steps})")

    readme = os.path.join(source_dir, "README.md")
    with open(readme, encoding="utf-8") as f:
        text = [" ".join(line.split()) for line in f]
    rules = rule_lines(layers_file)
    starts = [i for i, line in enumerate(text) if line == rules[0]]
    if not any(text[i:i + len(rules)] == rules for i in starts):
        faults.append("README.md: does not quote the rules of plugin/layers.txt line for line (section Layout)")
    return faults


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        faults = check(argv[1], ALLOWED_FOR_NOW)
    except LayersFileError as e:
        print(e)
        return 2
    for fault in faults:
        print(fault)
    print(f"{len(faults)} fault(s); {len(ALLOWED_FOR_NOW)} include(s) allowed for now")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
