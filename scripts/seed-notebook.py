#!/usr/bin/env python3
"""Builds a notebook from a seed tutorial (a markdown file such as ../shared/seeds/*.md) at run time:
prose becomes markdown cells and code becomes code cells, in the file's order. The project keeps no copy
of the seeds (scripts/seed-overlap.py), so benchmarks and tests make the notebook when they need it.

Code is found three ways:
- ```python blocks, and bare ``` blocks whose text compiles as Python, are code cells;
- fenced blocks of other languages (the seeds' ```shell outputs) stay in the markdown, as shown;
- outside fences (a seed's later part lost its fences in an export), maximal runs of consecutive lines
  that compile together as Python (`ast`; `codeop` tells an unfinished statement from prose) are code.
  A run of comments alone (a markdown heading also starts with "# ") or of bare names (a markdown rule
  "___" is a name) stays prose. A run is split into cells after each top-level bare expression that is
  not a call (`x`, `a@b`, `img[:2]`): in the middle of a cell such a line shows nothing, so it marked
  where a notebook cell ended and showed its value.

--offline makes the notebook run without the network, torchvision or matplotlib (as in CI and on the
simulator-only machines). Each changed line stays in its cell as a comment starting "# offline:",
with the replacement below it:
- imports of torchvision, matplotlib and urllib.request are commented out, and so is every top-level
  statement that uses a name they bound (the download, the resize, the plotting calls); a function whose
  body uses such a name is still defined, but calls to it are commented out too;
- an assignment of read_image(...) (the downloaded photo) reads IMAGE instead with tilescope.load_image
  (default: examples/images/hills.png, a picture drawn for the examples: 3 x 90 x 140 uint8), so the
  kernels that follow run on a real picture at its own size;
- a commented-out call that would display a tensor shows that tensor's shape instead.

The notebook's metadata asks for {"tilescope": {"out_of_bounds": "warn"}} (--out-of-bounds stop leaves
it out): a seed's unmasked loads past a small input then warn and read 0 instead of stopping the run,
as on the guide's 3x4 matmuls.

usage: seed-notebook.py SEED.md OUT.ipynb [--offline] [--image PNG] [--out-of-bounds warn|stop]
Exit 0: written; 1: the seed cannot be read (or has no code); 2: bad arguments."""
import argparse
import ast
import codeop
import json
import os
import re
import sys
import warnings

FENCE = re.compile(r"^\s*```\s*([A-Za-z0-9_+-]*)\s*$")
RULE = re.compile(r"^\s*(?:_{3,}|-{3,}|\*{3,})\s*$")
LIST_ITEM = re.compile(r"^\s*[-*+] \S")
# Modules the offline notebook cannot use: no network, no torchvision, no matplotlib.
OFFLINE_MODULES = ("torchvision", "matplotlib", "urllib.request")
OFFLINE = "# offline: "
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_IMAGE = os.path.join(os.path.dirname(HERE), "examples", "images", "hills.png")


def parses(source):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences in prose are not our business
            ast.parse(source)
        return True
    except (SyntaxError, ValueError):
        return False


def unfinished(source):
    """True when source is the start of a statement that more lines could finish (an open bracket,
    a def's header), False when no continuation can make it Python."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return codeop.compile_command(source, "<seed>", "exec") is None
    except (SyntaxError, ValueError, OverflowError):
        return False


def prose_like(stmt):
    """A bare name (a markdown rule "___") or a negated one (a list item "- word") parses as Python."""
    value = stmt.value if isinstance(stmt, ast.Expr) else None
    if isinstance(value, ast.UnaryOp):
        value = value.operand
    return isinstance(value, ast.Name)


def has_code(source):
    """A run of comments, bare names or list items is prose (headings, rules, lists), not code."""
    return any(not prose_like(s) for s in ast.parse(source).body)


def code_end(lines):
    """Where a run's code ends: the lines right under its last real statement (a value shown, a
    comment) belong to it; after a blank line or at a rule or list item, comments and bare names are
    the prose that follows (a heading, a rule), not part of the cell."""
    body = ast.parse("".join(l + "\n" for l in lines)).body
    last = max(s.end_lineno for s in body if not prose_like(s))
    stop = last
    while stop < len(lines) and lines[stop].strip() and not markdown_line(lines[stop]):
        stop += 1  # lines attached to the code (a value shown, a comment) stay with it
    return stop


def longest_run(lines, start, end):
    """The end of the longest run lines[start:stop] that parses as Python with code in it, or None."""
    best = None
    text = ""
    for stop in range(start + 1, end + 1):
        text += lines[stop - 1] + "\n"
        if parses(text):
            if lines[stop - 1].strip():
                best = stop
        elif not unfinished(text):
            break
    if best is not None and has_code("".join(l + "\n" for l in lines[start:best])):
        return best
    return None


def split_after_shown_values(lines):
    """Cells of a run: a cut after each top-level non-call expression statement that is not the last."""
    tree = ast.parse("".join(l + "\n" for l in lines))
    cuts = []
    for stmt in tree.body[:-1]:
        if isinstance(stmt, ast.Expr) and not isinstance(stmt.value, (ast.Call, ast.Constant, ast.Await)):
            cuts.append(stmt.end_lineno)
    cells, begin = [], 0
    for cut in cuts:
        cells.append(lines[begin:cut])
        begin = cut
    cells.append(lines[begin:])
    return [c for c in (strip_blank(c) for c in cells) if c]


def strip_blank(lines):
    lines = list(lines)
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


class Cells:
    def __init__(self):
        self.cells = []
        self.prose = []

    def text(self, line):
        self.prose.append(line)

    def flush(self):
        prose = strip_blank(self.prose)
        self.prose = []
        if prose:
            self.cells.append(("markdown", prose))

    def code(self, lines):
        self.flush()
        lines = strip_blank(lines)
        if lines:
            self.cells.append(("code", lines))


def markdown_line(line):
    """A rule or a list item: markdown, though "___" and "- word" parse as Python."""
    return bool(RULE.match(line) or LIST_ITEM.match(line))


def unfenced(lines, cells):
    """Prose and fence-less code: the longest Python runs become code cells. A "#" line after a blank
    line is a markdown heading even when code follows it (a comment that belongs to code sits right
    under the prose before it)."""
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = line.lstrip().startswith("#") and (i == 0 or not lines[i - 1].strip())
        if not line.strip() or markdown_line(line) or heading:
            cells.text(line)
            i += 1
            continue
        stop = longest_run(lines, i, len(lines))
        if stop is None:
            cells.text(line)
            i += 1
            continue
        stop = i + code_end(lines[i:stop])
        for cell in split_after_shown_values(lines[i:stop]):
            cells.code(cell)
        i = stop


def split_seed(text):
    """[(kind, lines)] of the seed in order, kind "markdown" or "code"."""
    lines = text.splitlines()
    cells = Cells()
    i = 0
    outside = []
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            outside.append(lines[i])
            i += 1
            continue
        unfenced(outside, cells)
        outside = []
        language = fence.group(1).lower()
        j = i + 1
        while j < len(lines) and not FENCE.match(lines[j]):
            j += 1
        body = lines[i + 1:j]
        source = "".join(l + "\n" for l in body)
        if language in ("python", "py", "python3") or (language == "" and any(l.strip() for l in body) and parses(source)):
            cells.code(body)
        else:
            for l in lines[i:min(j + 1, len(lines))]:
                cells.text(l)
        i = j + 1
    unfenced(outside, cells)
    cells.flush()
    return cells.cells


class Offline:
    """Rewrites code cells so they run without the network, torchvision or matplotlib."""

    def __init__(self, image):
        self.image = image
        self.unavailable = set()  # names bound by the modules left out, and functions that use them
        self.changes = []  # numbers of the code cells changed, listed in the notebook's first cell

    @staticmethod
    def offline_module(name):
        return any(name == m or name.startswith(m + ".") for m in OFFLINE_MODULES)

    @staticmethod
    def used_names(node):
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}

    @staticmethod
    def reads_image(stmt):
        call = stmt.value if isinstance(stmt, ast.Assign) else None
        if not isinstance(call, ast.Call):
            return False
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name == "read_image"

    def rewrite(self, number, lines):
        source = "".join(l + "\n" for l in lines)
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return lines
        out = list(lines)
        replacements = []
        for stmt in tree.body:
            replacement = self.replace(stmt, lines)
            if replacement is not None:
                replacements.append((stmt.lineno, stmt.end_lineno, replacement))
        for first, last, new in reversed(replacements):  # the last first: earlier line numbers stay valid
            out[first - 1:last] = [OFFLINE + l for l in lines[first - 1:last]] + new
        if replacements:
            self.changes.append(number)
        return out

    def replace(self, stmt, lines):
        """The lines that replace stmt (maybe none), or None to keep it."""
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in stmt.names] if isinstance(stmt, ast.Import) else [stmt.module or ""]
            if any(self.offline_module(m) for m in modules):
                for alias in stmt.names:
                    self.unavailable.add((alias.asname or alias.name).split(".")[0])
                return []
            return None
        used = self.used_names(stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if used & self.unavailable:
                self.unavailable.add(stmt.name)  # defined, but calling it would fail
            return None
        if not used & self.unavailable:
            return None
        if self.reads_image(stmt):
            target = ast.get_source_segment("".join(l + "\n" for l in lines), stmt.targets[0])
            return ["import tilescope", f"{target} = tilescope.load_image({self.image!r})"]
        shown = self.shown_tensor(stmt)
        return [f"{shown}.shape"] if shown else []

    def shown_tensor(self, stmt):
        """For a display call f(x, ...) of a function left out: the name x, whose shape is shown."""
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
            return None
        call = stmt.value
        if not (isinstance(call.func, ast.Name) and call.func.id in self.unavailable):
            return None
        if call.args and isinstance(call.args[0], ast.Name) and call.args[0].id not in self.unavailable:
            return call.args[0].id
        return None


def notebook(seed_path, kinds_and_lines, offline, out_of_bounds):
    name = os.path.basename(seed_path)
    intro = [f"# {name}, as a notebook", "",
             f"Made from `{name}` by `scripts/seed-notebook.py` (tilescope); the text and code are the "
             "seed's, cut into cells: prose as markdown, code as code cells, in order."]
    if out_of_bounds == "warn":
        intro += ["", "Unmasked loads past a small input warn and read 0 (notebook metadata "
                  "`tilescope.out_of_bounds = warn`) instead of stopping the run."]
    cells = []
    for kind, lines in kinds_and_lines:
        cells.append([kind, lines])
    if offline is not None:
        code_number = 0
        for cell in cells:
            if cell[0] == "code":
                code_number += 1
                cell[1] = offline.rewrite(code_number, cell[1])
        if offline.changes:
            listed = ", ".join(str(n) for n in offline.changes)
            intro += ["", "Offline (`--offline`): lines that need the network, torchvision or matplotlib are "
                      f"commented out (`{OFFLINE.strip()}`) in code cells {listed}; a downloaded picture is "
                      f"replaced by `{os.path.basename(offline.image)}` (tilescope.load_image), and a display "
                      "call left out shows its tensor's shape."]
    metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                "language_info": {"name": "python"}}
    if out_of_bounds == "warn":
        metadata["tilescope"] = {"out_of_bounds": "warn"}
    out = [{"cell_type": "markdown", "id": "seed-intro", "metadata": {}, "source": join(intro)}]
    for number, (kind, lines) in enumerate(cells, 1):
        cell = {"cell_type": kind, "id": f"seed-{number}", "metadata": {}, "source": join(lines)}
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        out.append(cell)
    return {"cells": out, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}


def join(lines):
    """nbformat's list of lines, each but the last ending in a newline."""
    return [l + "\n" for l in lines[:-1]] + lines[-1:]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed")
    parser.add_argument("out")
    parser.add_argument("--offline", action="store_true", help="run without the network, torchvision, matplotlib")
    parser.add_argument("--image", default=DEFAULT_IMAGE, help="PNG read in place of a downloaded picture")
    parser.add_argument("--out-of-bounds", choices=("warn", "stop"), default="warn")
    args = parser.parse_args(argv)
    try:
        with open(args.seed, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        print(f"seed-notebook.py: cannot read the seed {args.seed}: {e.strerror}", file=sys.stderr)
        return 1
    cells = split_seed(text)
    if not any(kind == "code" for kind, _ in cells):
        print(f"seed-notebook.py: {args.seed} has no code (is it a seed tutorial?)", file=sys.stderr)
        return 1
    offline = Offline(os.path.abspath(args.image)) if args.offline else None
    nb = notebook(args.seed, cells, offline, args.out_of_bounds)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(nb, f, ensure_ascii=False, indent=1)
        f.write("\n")
    code = sum(1 for c in nb["cells"] if c["cell_type"] == "code")
    print(f"{args.out}: {len(nb['cells'])} cells, {code} of them code")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
