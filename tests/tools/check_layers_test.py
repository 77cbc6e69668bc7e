#!/usr/bin/env python3
"""Checks scripts/check-layers.py on small made-up trees: a tree that follows its core/layers.txt
passes; upward and sideways includes, includes of tests/ from outside tests/, files in no layer and
cyclic tables fail, naming the file and line. Run by ctest (Layers.CheckerCatchesBackEdges)."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "check-layers.py")

TABLE = """# folder  uses
base
syntax    base
ir        base
kernel    syntax ir
gpu/codegen ir
gpu/runtime gpu/codegen
bench     kernel
"""


class CheckLayers(unittest.TestCase):
    def tree(self, files, table=TABLE):
        root = tempfile.mkdtemp()
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", root]))
        files = dict(files)
        files["core/layers.txt"] = table
        for rel, text in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return root

    def check(self, root):
        p = subprocess.run([sys.executable, SCRIPT, "--root", root], capture_output=True, text=True)
        return p.returncode, p.stdout

    def test_downward_includes_pass(self):
        root = self.tree({
            "core/base/Source.h": "#pragma once\n",
            "core/ir/Expr.h": '#include "core/base/Source.h"\n',
            "core/kernel/Checker.cpp": '#include "core/ir/Expr.h"\n#include "core/base/Source.h"\n',
            "core/gpu/runtime/Rt.cpp": '#include "core/gpu/codegen/Gen.h"\n#include "core/ir/Expr.h"\n',
            "core/gpu/codegen/Gen.h": '#include "core/ir/Expr.h"\n',
            "tests/kernel/CheckerTest.cpp": '#include "core/kernel/Checker.h"\n#include "tests/Util.h"\n',
            "ui/Window.cpp": '#include "core/kernel/Checker.h"\n',
        })
        self.assertEqual(self.check(root), (0, "layers: every include follows core/layers.txt\n"))

    def test_upward_include_fails_with_its_line(self):
        root = self.tree({
            "core/base/Source.h": "#pragma once\n",
            "core/ir/Expr.cpp": '#include <vector>\n\n#include "core/kernel/Checker.h"\n',
        })
        rc, out = self.check(root)
        self.assertEqual(rc, 1)
        self.assertIn("core/ir/Expr.cpp:3: core/ir includes core/kernel/Checker.h", out)

    def test_sideways_include_fails(self):
        # syntax and ir are both above base, neither above the other.
        root = self.tree({"core/syntax/Ast.h": '#  include "core/ir/Expr.h"\n'})
        rc, out = self.check(root)
        self.assertEqual(rc, 1)
        self.assertIn("core/syntax/Ast.h:1: core/syntax includes core/ir/Expr.h", out)

    def test_nested_layers_are_told_apart(self):
        root = self.tree({"core/gpu/codegen/Gen.cpp": '#include "core/gpu/runtime/Rt.h"\n'})
        rc, out = self.check(root)
        self.assertEqual(rc, 1)
        self.assertIn("core/gpu/codegen includes core/gpu/runtime/Rt.h", out)

    def test_tests_included_from_outside_tests_fails(self):
        root = self.tree({"core/bench/bench_x.cpp": '#include "tests/sim/SampleKernels.h"\n'})
        rc, out = self.check(root)
        self.assertEqual(rc, 1)
        self.assertIn("core/bench/bench_x.cpp:1: includes tests/sim/SampleKernels.h; only tests/ may include tests/", out)

    def test_file_in_no_layer_fails(self):
        root = self.tree({"core/python/Vm.cpp": "int x;\n", "core/base/A.cpp": '#include "core/lang/Old.h"\n'})
        rc, out = self.check(root)
        self.assertEqual(rc, 1)
        self.assertIn("core/python/Vm.cpp: in no layer", out)
        self.assertIn("core/base/A.cpp:1: includes core/lang/Old.h, which is in no layer", out)

    def test_cycle_and_unknown_layer_in_table_fail(self):
        rc, out = self.check(self.tree({}, table="base ir\nir base\n"))
        self.assertEqual(rc, 1)
        self.assertIn("cycle", out)
        rc, out = self.check(self.tree({}, table="base\nir base sim\n"))
        self.assertEqual(rc, 1)
        self.assertIn("ir uses sim, which has no line of its own", out)


if __name__ == "__main__":
    unittest.main()
