#!/usr/bin/env python3
"""Lists passages of tracked files that repeat the seed tutorials word for word.

The project holds only what we write (issue 29): this finds runs of WINDOW or more consecutive
significant lines (whitespace-normalised, blank and punctuation-only lines skipped) that also occur
consecutively in a seed file, single long lines (prose, docstrings) copied from a seed, and runs of
TOKENS consecutive tokens found in a seed (this catches code pasted into C++ string literals, where
lines are joined with \\n and split across quotes). Notebooks are checked on their decoded cells.

Usage: scripts/seed-overlap.py [--seeds DIR] [--window N] [--long N] [--tokens N] [--allow PATH ...]
Exits 1 when something is found outside the allowed paths, 0 otherwise, 2 without the seeds or git.
"""
import argparse
import json
import os
import re
import subprocess
import sys

PUNCT_ONLY = re.compile(r"^[\W_]*$")
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+(?:\.\d*)?|[^\s\w\"]")


def tokens(text):
    """(offset, token) pairs; C-string escapes and double quotes do not count, so code pasted into
    string literals tokenizes like the code itself."""
    text = text.replace("\\n", " ").replace("\\'", "'")
    return [(m.start(), m.group()) for m in TOKEN.finditer(text)]


def normalise(line):
    return " ".join(line.split())


def significant(lines):
    """(line number, normalised text) for the lines worth comparing."""
    out = []
    for number, raw in enumerate(lines, 1):
        text = normalise(raw)
        if text and not PUNCT_ONLY.match(text) and not text.startswith("```"):
            out.append((number, text))
    return out


def file_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    if "\0" in text:
        return None
    if path.endswith(".ipynb"):
        try:
            cells = json.loads(text).get("cells", [])
        except ValueError:
            return text.splitlines()
        lines = []
        for cell in cells:
            source = cell.get("source", "") if isinstance(cell, dict) else ""
            if isinstance(source, list):
                source = "".join(part for part in source if isinstance(part, str))
            # Deliberately broken notebooks (the fuzz corpus) may hold anything here.
            lines.extend(source.splitlines() if isinstance(source, str) else [])
            lines.append("")
        return lines
    return text.splitlines()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default=os.path.join(root, "..", "shared", "seeds"))
    parser.add_argument("--window", type=int, default=6, help="consecutive lines that count as a copy")
    parser.add_argument("--long", type=int, default=70, help="length of a single line that counts as a copy")
    parser.add_argument("--tokens", type=int, default=60, help="consecutive tokens that count as a copy")
    parser.add_argument("--allow", nargs="*", default=[], help="path prefixes to report but not fail on")
    args = parser.parse_args()

    seeds = sorted(os.path.join(args.seeds, name) for name in os.listdir(args.seeds)
                   if name.endswith(".md")) if os.path.isdir(args.seeds) else []
    if not seeds:
        # GoogleTest's wording: scripts/test-summary.py lists the reason, and CI fails on it.
        print("seed-overlap.py: Skipped")
        print(f"seed tutorials not found in {args.seeds}")
        return 2

    windows = set()
    long_lines = set()
    token_windows = set()
    for seed in seeds:
        seed_tokens = [t for _, t in tokens("\n".join(file_lines(seed)))]
        for i in range(len(seed_tokens) - args.tokens + 1):
            token_windows.add(hash(tuple(seed_tokens[i:i + args.tokens])))
        texts = [text for _, text in significant(file_lines(seed))]
        for i in range(len(texts) - args.window + 1):
            windows.add(tuple(texts[i:i + args.window]))
        long_lines.update(text for text in texts if len(text) >= args.long)

    listing = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True)
    if listing.returncode != 0:
        print(f"not a git checkout ({root}): the tracked files are unknown", file=sys.stderr)
        return 2
    tracked = listing.stdout.splitlines()
    failures = 0
    for rel in tracked:
        lines = file_lines(os.path.join(root, rel))
        if lines is None:
            continue
        sig = significant(lines)
        copied = [False] * len(sig)
        for i in range(len(sig) - args.window + 1):
            if tuple(text for _, text in sig[i:i + args.window]) in windows:
                for j in range(i, i + args.window):
                    copied[j] = True
        for j, (_, text) in enumerate(sig):
            if text in long_lines:
                copied[j] = True
        runs = []
        j = 0
        while j < len(sig):
            if copied[j]:
                k = j
                while k + 1 < len(sig) and copied[k + 1]:
                    k += 1
                runs.append((sig[j][0], sig[k][0], f"{k - j + 1} line(s)"))
                j = k + 1
            else:
                j += 1
        text = "\n".join(lines)
        toks = tokens(text)
        hit = [False] * len(toks)
        for i in range(len(toks) - args.tokens + 1):
            if hash(tuple(t for _, t in toks[i:i + args.tokens])) in token_windows:
                for j in range(i, i + args.tokens):
                    hit[j] = True
        j = 0
        while j < len(toks):
            if hit[j]:
                k = j
                while k + 1 < len(toks) and hit[k + 1]:
                    k += 1
                first = text.count("\n", 0, toks[j][0]) + 1
                last = text.count("\n", 0, toks[k][0]) + 1
                runs.append((first, last, f"{k - j + 1} token(s)"))
                j = k + 1
            else:
                j += 1
        if not runs:
            continue
        allowed = any(rel.startswith(prefix) for prefix in args.allow)
        failures += 0 if allowed else 1
        tag = " (allowed)" if allowed else ""
        for first, last, count in runs:
            print(f"{rel}:{first}-{last}: {count} as in the seeds{tag}")
    print(f"{failures} file(s) with seed text", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
