#!/usr/bin/env python3
"""check_layers.py on small hand-made trees, each fault written out by hand: an include that goes up, one to a layer
beside, a loop, the allowed-for-now list (used, stale, needless), a file in no layer, <...> includes, sub-folder layers,
includes beside the file, README.md's quotation and malformed layers files.

Usage: test_check_layers.py (unittest's options accepted)
"""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_layers  # noqa: E402

LAYERS = """# lowest first
low:
side:          low
mid:           low
mid/inner:     mid
high:          mid/inner
"""
README = "# Project\n\n```\n  low:\n  side:  low\n  mid: low\n  mid/inner: mid\n  high:   mid/inner\n```\n"


class Tree:
    """A source tree: plugin/layers.txt, README.md and the files given (path under plugin/ -> text)."""

    def __init__(self, files, layers=LAYERS, readme=README):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.write("plugin/layers.txt", layers)
        self.write("README.md", readme)
        for path, text in files.items():
            self.write("plugin/" + path, text)

    def write(self, path, text):
        full = os.path.join(self.dir, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def faults(self, allowed=None):
        return check_layers.check(self.dir, allowed or {})


# A tree that keeps every rule: each layer includes only below itself.
CLEAN = {
    "low/a.hpp": "#pragma once\n#include <vector>\n",
    "low/a.cpp": '#include "low/a.hpp"\n',
    "side/s.hpp": '#pragma once\n#include "low/a.hpp"\n',
    "mid/m.hpp": '#pragma once\n#include "low/a.hpp"\n',
    "mid/inner/i.hpp": '#pragma once\n#include "mid/m.hpp"\n',
    "high/h.cpp": '#include "mid/inner/i.hpp"\n#include "low/a.hpp"\n#include "high/h.hpp"\n',
    "high/h.hpp": "#pragma once\n",
}


class CheckLayers(unittest.TestCase):
    def tree(self, files, **texts):
        tree = Tree(files, **texts)
        self.addCleanup(tree.tmp.cleanup)
        return tree

    def test_a_tree_that_keeps_the_rules_has_no_fault(self):
        self.assertEqual(self.tree(CLEAN).faults(), [])

    def test_an_include_up_is_named_by_file_and_line(self):
        files = dict(CLEAN, **{"low/b.hpp": '#pragma once\n#include "low/a.hpp"\n#include "high/h.hpp"\n'})
        self.assertEqual(self.tree(files).faults(), [
            "plugin/low/b.hpp:3: includes high/h.hpp: low -> high goes against plugin/layers.txt (high is above low)",
            # high/h.cpp:2 includes low/a.hpp: the two folders now include each other.
            "folders include each other in a loop: high -> low -> high (high -> low at plugin/high/h.cpp:2, low -> "
            "high at plugin/low/b.hpp:3)",
        ])

    def test_an_include_to_a_layer_beside_names_what_is_allowed(self):
        files = dict(CLEAN, **{"side/t.cpp": '#include "mid/m.hpp"\n'})
        self.assertEqual(self.tree(files).faults(), [
            "plugin/side/t.cpp:1: includes mid/m.hpp: side -> mid goes against plugin/layers.txt (side may include "
            "only low)",
        ])

    def test_a_sub_folder_layer_is_apart_from_its_parent(self):
        # mid/m.hpp (layer mid) may not include mid/inner/ (layer mid/inner, above it).
        files = dict(CLEAN, **{"mid/n.cpp": '#include "mid/inner/i.hpp"\n'})
        self.assertEqual(self.tree(files).faults(), [
            "plugin/mid/n.cpp:1: includes mid/inner/i.hpp: mid -> mid/inner goes against plugin/layers.txt "
            "(mid/inner is above mid)",
            "folders include each other in a loop: mid -> mid/inner -> mid (mid -> mid/inner at plugin/mid/n.cpp:1, "
            "mid/inner -> mid at plugin/mid/inner/i.hpp:2)",
        ])

    def test_angle_brackets_and_includes_beside_the_file_are_read_like_the_compiler(self):
        files = dict(CLEAN, **{
            "low/c.cpp": "#include <high/h.hpp>\n#include <map>\n",  # a file of plugin/; a system header
            "low/d.cpp": '#  include "../high/h.hpp"\n',            # beside the file, then up
        })
        self.assertEqual(self.tree(files).faults(), [
            "plugin/low/c.cpp:1: includes high/h.hpp: low -> high goes against plugin/layers.txt (high is above low)",
            "plugin/low/d.cpp:1: includes high/h.hpp: low -> high goes against plugin/layers.txt (high is above low)",
            "folders include each other in a loop: high -> low -> high (high -> low at plugin/high/h.cpp:2, low -> "
            "high at plugin/low/c.cpp:1)",
        ])

    def test_a_quoted_include_of_no_file_of_plugin_is_a_fault(self):
        files = dict(CLEAN, **{"low/e.cpp": '#include "nowhere/x.hpp"\n'})
        self.assertEqual(self.tree(files).faults(), [
            'plugin/low/e.cpp:1: #include "nowhere/x.hpp" is no file of plugin/ (system and library headers go in <>)',
        ])

    def test_a_file_in_no_layer_is_a_fault(self):
        files = dict(CLEAN, **{"stray/x.cpp": '#include "low/a.hpp"\n'})
        self.assertEqual(self.tree(files).faults(), ["plugin/stray/x.cpp:1: in no layer of plugin/layers.txt (list its "
                                                "folder there)"])

    def test_a_layer_without_its_folder_is_a_fault(self):
        files = {k: v for k, v in CLEAN.items() if not k.startswith("side/")}
        self.assertEqual(self.tree(files).faults(), ["plugin/layers.txt: layer 'side' is no folder of plugin/"])

    def test_an_allowed_pair_passes_and_the_list_only_shrinks(self):
        files = dict(CLEAN, **{"side/t.cpp": '#include "mid/m.hpp"\n'})
        tree = self.tree(files)
        self.assertEqual(tree.faults({("side/t.cpp", "mid/m.hpp"): "why"}), [])
        # An entry whose include is gone, and one the layers allow anyway, are both faults.
        self.assertEqual(tree.faults({("side/t.cpp", "mid/m.hpp"): "why", ("low/a.cpp", "high/h.hpp"): "gone",
                                      ("high/h.cpp", "low/a.hpp"): "needless"}), [
            "plugin/high/h.cpp:2: includes low/a.hpp, which the layers allow: remove this pair from ALLOWED_FOR_NOW",
            "ALLOWED_FOR_NOW: plugin/low/a.cpp no longer includes high/h.hpp: remove the entry",
        ])

    def test_a_loop_between_folders_is_a_fault_even_when_its_pair_is_allowed(self):
        # high -> mid/inner -> mid -> low is allowed; low/b.hpp -> mid/m.hpp closes a loop low -> mid -> low.
        files = dict(CLEAN, **{"low/b.hpp": '#pragma once\n#include "mid/m.hpp"\n'})
        self.assertEqual(self.tree(files).faults({("low/b.hpp", "mid/m.hpp"): "why"}), [
            "folders include each other in a loop: low -> mid -> low (low -> mid at plugin/low/b.hpp:2, mid -> low at "
            "plugin/mid/m.hpp:2)",
        ])

    def test_readme_must_quote_the_rules(self):
        readme = README.replace("  mid: low\n", "  mid: low side\n")
        self.assertEqual(self.tree(CLEAN, readme=readme).faults(), [
            "README.md: does not quote the rules of plugin/layers.txt line for line (section Layout)",
        ])

    def test_a_malformed_layers_file_is_refused_with_its_line(self):
        cases = {
            "low:\nmid: high\nhigh: low\n": "layers.txt:2: 'mid' uses 'high', which is not a layer listed above it",
            "low:\nlow:\n": "layers.txt:2: layer 'low' is listed twice",
            "low:\njust words\n": "layers.txt:2: expected 'LAYER: USES...', got 'just words'",
        }
        for layers, message in cases.items():
            with self.assertRaises(check_layers.LayersFileError) as raised:
                self.tree(CLEAN, layers=layers).faults()
            self.assertTrue(str(raised.exception).endswith(message), str(raised.exception))


if __name__ == "__main__":
    unittest.main()
