#!/usr/bin/env python3
"""Writes the public names of Triton's kernel language, one per line, for the parity test.

Usage: python3 scripts/triton-names.py [OUT]   (default: docs/triton-names.txt)

Run it with a Python that has PyPI's triton installed (no GPU needed to import it), e.g.
    python3 -m venv /tmp/venv-triton && /tmp/venv-triton/bin/pip install --no-deps 'triton==3.6.*'
    /tmp/venv-triton/bin/python scripts/triton-names.py
The file records which Triton it came from on its first line. tests/lang/KernelLanguageParityTest
reads it and checks that docs/KERNEL_LANGUAGE.md lists every name with its status, and that the
status agrees with what tilescope's builtin registry implements. Only names are written: facts
about Triton's API, no text of it.
"""
import os
import sys

import triton
import triton.language as tl
import triton.language.extra.libdevice as libdevice
import triton.language.math as tlmath


def public(module):
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
        # Without __all__, what the module merely imported (typing.List, functools.wraps, its
        # own submodules) is not its API: keep what Triton itself defines.
        names = [n for n in names if getattr(getattr(module, n), "__module__", "").startswith("triton")
                 and type(getattr(module, n)).__name__ != "TypeVar"]
    return sorted(set(names))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs", "triton-names.txt")
    lines = [f"# triton {triton.__version__}: public names of triton.language, triton.language.math and "
             "triton.language.extra.libdevice (scripts/triton-names.py)"]
    for prefix, module in (("tl", tl), ("tl.math", tlmath), ("libdevice", libdevice)):
        lines += [f"{prefix}.{n}" for n in public(module)]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{out}: {len(lines) - 1} names from triton {triton.__version__}")


if __name__ == "__main__":
    main()
