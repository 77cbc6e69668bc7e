#!/usr/bin/env python3
"""Checks scripts/test-summary.py on a small ctest JUnit file: skips counted and grouped by reason,
and CI (CI=true) failing only on skips that hide untested code. Run by ctest (TestSummary.*)."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "test-summary.py")


def case(name, status, reason=None):
    out = f"[ RUN      ] {name}\n"
    skipped = ""
    if reason is not None:
        out += f"/src/x.cpp:12: Skipped\n{reason}\n[  SKIPPED ] {name} (0 ms)\n"
        skipped = '<skipped message="SKIP_REGULAR_EXPRESSION_MATCHED"/>'
    return f'<testcase name="{name}" classname="{name}" time="0" status="{status}">{skipped}<system-out>{out}</system-out></testcase>'


def junit(*cases):
    return '<?xml version="1.0" encoding="UTF-8"?><testsuite name="x">' + "".join(cases) + "</testsuite>"


class TestSummary(unittest.TestCase):
    def run_summary(self, xml, ci):
        with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
            f.write(xml)
        env = dict(os.environ)
        env.pop("CI", None)
        if ci:
            env["CI"] = "true"
        try:
            p = subprocess.run([sys.executable, SCRIPT, f.name], env=env, capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        return p.returncode, p.stdout

    def test_counts_and_groups_skip_reasons(self):
        xml = junit(case("A.Runs", "run"),
                    case("Gpu.One", "notrun", "no CUDA device: libcuda.so.1 not loaded"),
                    case("Gpu.Two", "notrun", "no CUDA device: libcuda.so.1 not loaded"),
                    case("Seed.One", "notrun", "seed tutorials not found in /nowhere"))
        rc, out = self.run_summary(xml, ci=False)
        self.assertEqual(rc, 0, out)
        self.assertIn("1 of 4 tests ran, 3 skipped", out)
        self.assertIn("    2 skipped: no CUDA device: libcuda.so.1 not loaded\n        Gpu.One, Gpu.Two", out)
        self.assertIn("    1 skipped: seed tutorials not found in /nowhere", out)
        self.assertIn("1 tests skipped because the seed tutorials are missing", out)

    def test_ci_fails_on_missing_seeds_and_rewritten_goldens_only(self):
        gpu_only = junit(case("A.Runs", "run"), case("Gpu.One", "notrun", "no CUDA device: none"))
        self.assertEqual(self.run_summary(gpu_only, ci=True)[0], 0)
        seeds = junit(case("A.Runs", "run"), case("Seed.One", "notrun", "seed tutorials not found in /nowhere"))
        rc, out = self.run_summary(seeds, ci=True)
        self.assertEqual(rc, 1, out)
        self.assertIn("CI: these skips hide untested code", out)
        golden = junit(case("G.One", "notrun", "TILESCOPE_UPDATE_GOLDEN=1 rewrote golden file /t/golden/ir/a.txt (nothing compared)"))
        rc, out = self.run_summary(golden, ci=True)
        self.assertEqual(rc, 1, out)
        self.assertIn("golden files were rewritten", out)

    def test_unreadable_results_fail(self):
        self.assertEqual(self.run_summary("not xml", ci=False)[0], 1)


if __name__ == "__main__":
    unittest.main()
