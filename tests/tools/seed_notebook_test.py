#!/usr/bin/env python3
"""Tests of scripts/seed-notebook.py (issue 25): how it cuts markdown into cells, on a made-up tutorial
of ours, and - reading the practitioners' guide from the seeds folder at run time - that the notebook
it makes runs to its end on the simulator with every cell that should run having run (its outputs
there, no error, every benchmark sweep's table printed). Not timed: core/bench/seed_guide_sim.py times it.

usage: seed_notebook_test.py [--cli tilescope-cli] [--seeds DIR]
Exit 0: passed; 1: failed; 2: the run part skipped (no seeds or no CLI), after the cutting tests passed."""
import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(ROOT, "scripts", "seed-notebook.py")
GUIDE = "triton-practitioners-guide.md"

# A tutorial of ours with every case the tool must tell apart: a heading, a fenced python block, a
# bare fence holding code, a fenced output of another language, and a later part whose code lost its
# fences (a decorated def, a value shown mid-run, a list item and a rule that parse as Python, a
# heading right after code, a download and a picture read with torchvision).
MADE_UP = """# Squares

Some words about squares.

```python
def square(v):
    return v * v
```

```
square(3)
```

```shell
9
```

# Later part
Now without fences:
@decorate
def cube(v):
    return v * square(v)
values = [cube(i) for i in range(3)]
values
total = sum(values)
total
- item
___
Prose again (this line is no Python).

# A heading after a blank line
import torchvision.io as tio
from urllib.request import urlretrieve
urlretrieve('http://example.invalid/p.png', 'p.png')
picture = tio.read_image('p.png')
picture[0]
"""


def make(markdown_path, out, *flags):
    run = subprocess.run([sys.executable, TOOL, markdown_path, out, *flags], capture_output=True, text=True)
    if run.returncode != 0:
        raise AssertionError(f"seed-notebook.py failed: {run.stdout}{run.stderr}")
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def sources(nb):
    return [(c["cell_type"], "".join(c["source"])) for c in nb["cells"][1:]]  # past our intro cell


def check(condition, what, failures):
    if not condition:
        failures.append(what)


def cutting_tests(tmp):
    failures = []
    path = os.path.join(tmp, "made_up.md")
    with open(path, "w", encoding="utf-8") as f:
        f.write(MADE_UP)
    nb = make(path, os.path.join(tmp, "made_up.ipynb"))
    cells = sources(nb)
    code = [s for kind, s in cells if kind == "code"]
    markdown = "\n".join(s for kind, s in cells if kind == "markdown")
    expected_code = [
        "def square(v):\n    return v * v",
        "square(3)",
        "@decorate\ndef cube(v):\n    return v * square(v)\nvalues = [cube(i) for i in range(3)]\nvalues",
        "total = sum(values)\ntotal",
        "import torchvision.io as tio\nfrom urllib.request import urlretrieve\n"
        "urlretrieve('http://example.invalid/p.png', 'p.png')\npicture = tio.read_image('p.png')\npicture[0]",
    ]
    check(code == expected_code, f"code cells {code!r}, expected {expected_code!r}", failures)
    for prose in ("# Squares", "```shell\n9\n```", "Now without fences:", "- item\n___",
                  "Prose again", "# A heading after a blank line"):
        check(prose in markdown, f"{prose!r} is not in the markdown cells:\n{markdown}", failures)
    check([kind for kind, _ in cells][:2] == ["markdown", "code"], "cells out of order", failures)
    check(nb["metadata"].get("tilescope") == {"out_of_bounds": "warn"}, "no out_of_bounds warn metadata", failures)
    check(all(c.get("outputs") == [] and c.get("execution_count") is None for c in nb["cells"] if c["cell_type"] == "code"),
          "code cells must start without outputs", failures)

    offline = sources(make(path, os.path.join(tmp, "made_up_offline.ipynb"), "--offline", "--image", "/pictures/a.png"))
    last = [s for kind, s in offline if kind == "code"][-1]
    expected_last = ("# offline: import torchvision.io as tio\n"
                     "# offline: from urllib.request import urlretrieve\n"
                     "# offline: urlretrieve('http://example.invalid/p.png', 'p.png')\n"
                     "# offline: picture = tio.read_image('p.png')\n"
                     "import tilescope\npicture = tilescope.load_image('/pictures/a.png')\npicture[0]")
    check(last == expected_last, f"offline cell {last!r}, expected {expected_last!r}", failures)
    for message in failures:
        print(f"FAIL cutting: {message}")
    return not failures


def last_statement_shows_value(source):
    """True when the cell ends in an expression that is not a call (its value must be shown)."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    return bool(body) and isinstance(body[-1], ast.Expr) and not isinstance(body[-1].value, ast.Call)


def prints_at_top_level(source):
    """True when the cell itself (not a function it defines) calls print() or a benchmark's run()."""
    try:
        body = ast.parse(source).body
    except SyntaxError:
        return False
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(stmt):
            func = node.func if isinstance(node, ast.Call) else None
            if (isinstance(func, ast.Name) and func.id == "print") or (isinstance(func, ast.Attribute) and func.attr == "run"):
                return True
    return False


def guide_run_tests(cli, seeds, tmp):
    seed = os.path.join(seeds, GUIDE)
    if not os.path.isfile(seed):
        print("seed_notebook_test.py: Skipped")
        print(f"SKIP the guide's run: the seed is not in {seeds} (shared/seeds)")
        return None
    if not cli or not os.access(cli, os.X_OK):
        print("seed_notebook_test.py: Skipped")
        print(f"SKIP the guide's run: no tilescope-cli at {cli!r}")
        return None
    cli = os.path.abspath(cli)
    notebook = os.path.join(tmp, "guide.ipynb")
    executed = os.path.join(tmp, "guide_out.ipynb")
    nb = make(seed, notebook, "--offline")
    run = subprocess.run([cli, "run", "--backend", "sim", "--timeout", "900", notebook, "--out", executed],
                         capture_output=True, text=True, cwd=tmp)
    failures = []
    check(run.returncode == 0, f"tilescope-cli run exited {run.returncode}:\n{run.stdout[-3000:]}{run.stderr[-3000:]}", failures)
    if not os.path.isfile(executed):
        print("\n".join(f"FAIL guide: {m}" for m in failures))
        return False
    with open(executed, encoding="utf-8") as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    check(len(cells) == sum(1 for c in nb["cells"] if c["cell_type"] == "code"), "code cells lost in the run", failures)
    sweeps = 0
    for number, c in enumerate(cells, 1):
        source = "".join(c["source"])
        kinds = [o["output_type"] for o in c["outputs"]]
        text = "".join(o.get("text", "") for o in c["outputs"] if o["output_type"] == "stream")
        where = f"code cell {number} ({source.strip().splitlines()[0][:60]!r})"
        check(isinstance(c["execution_count"], int), f"{where} did not run", failures)
        check("error" not in kinds, f"{where} failed: {[o.get('evalue') for o in c['outputs'] if o['output_type'] == 'error']}",
              failures)
        if last_statement_shows_value(source):
            check("execute_result" in kinds, f"{where} shows no value", failures)
        if prints_at_top_level(source):
            check(bool(c["outputs"]), f"{where} printed nothing", failures)
        if "benchmark.run(" in source:
            sweeps += 1
            rows = [l for l in text.splitlines() if l.strip() and l.strip()[0].isdigit()]
            check(len(rows) >= 3, f"{where}: its table has {len(rows)} rows:\n{text}", failures)
            check("simulated" in text, f"{where}: the table does not say its figures are simulated", failures)
        if "allclose" in source:
            check("Triton and Torch match" in text, f"{where}: the check did not match: {text!r}", failures)
    check(sweeps == 4, f"{sweeps} benchmark sweeps ran, the guide has 4", failures)
    # The guide's unmasked 3x4 matmuls warn (metadata out_of_bounds = warn) instead of stopping.
    check("warning: out-of-bounds load" in run.stderr + run.stdout, "no out-of-bounds warning was shown", failures)
    for message in failures:
        print(f"FAIL guide: {message}")
    print(f"the guide: {len(cells)} code cells ran, {sweeps} sweeps")
    return not failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli")
    parser.add_argument("--seeds", default=os.path.join(ROOT, "..", "shared", "seeds"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tilescope-seed-nb-") as tmp:
        cut = cutting_tests(tmp)
        ran = guide_run_tests(args.cli, args.seeds, tmp)
    if not cut or ran is False:
        return 1
    if ran is None:
        return 2
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
