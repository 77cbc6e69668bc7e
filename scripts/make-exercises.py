#!/usr/bin/env python3
"""Writes examples/exercises.ipynb (kernels left empty for the class) and examples/solutions.ipynb
(the same notebook with every kernel written) from the one list of puzzles below, so the two never
drift apart. Each puzzle: a title, the task in markdown, the setup code (inputs and a reference
written in plain Python on the host), the kernel's signature with its empty body, the solved body,
and the tilescope.check call. Run it after editing a puzzle; the examples test runs both notebooks
(the solutions must all print "Results match", the exercises "not solved yet")."""
import json
import os
import sys

INTRO = """# Kernel puzzles

Thirteen small kernels to write, from a one-line fill to a matrix product. Each puzzle says what the
kernel must compute, gives a **reference** written in plain Python on the host (slow but easy to
read: it is the definition of the right answer), and ends with a call to `tilescope.check`. That call
runs your kernel and the reference on copies of the same inputs and prints one of:

- **Results match**: solved;
- **not solved yet**: the kernel's body is still empty;
- the first elements that differ, or the invalid access a program made, with a link that opens the
  kernel inspector on that launch (in the GUI: click it, then look at the grid, the tiles or the
  coverage of the program at fault).

A wrong answer never stops the notebook, so Run all always gets to the end. Write each kernel in place
of its `pass`, run the cell, and look at the launch in the inspector whenever the answer surprises you.
The solutions are in `solutions.ipynb`; try first.

Useful pieces: `tl.program_id(axis)`, `tl.arange(0, N)` (N a power of two), `tl.load(ptr + offsets,
mask=..., other=...)`, `tl.store(ptr + offsets, values, mask=...)`, `tl.where`, `tl.sum`, `tl.max`,
`tl.exp`, `tl.dot`, `tl.atomic_add`, and `x[:, None]` / `x[None, :]` to broadcast a block to two
dimensions."""

SETUP = """import torch
import triton
import triton.language as tl
import tilescope


def plain(t):
    \"\"\"A tensor as nested Python lists, for references written in plain Python.\"\"\"
    return t.tolist()


def fill_from(out, values):
    \"\"\"Writes a flat list of numbers into `out` (the reference's result).\"\"\"
    out.copy_(torch.tensor(values, dtype=out.dtype).reshape(*out.shape))"""

# (title, task markdown, setup code, kernel head, empty body, solved body, check call)
PUZZLES = [
    ("Sevens", """Fill all 16 elements of `out` with the number 7. One program, one block of 16 lanes.""",
     """out = torch.zeros(16, dtype=torch.int32)


def sevens_ref(out):
    fill_from(out, [7] * 16)""",
     "def sevens_k(out_ptr, N: tl.constexpr):",
     None,
     """    lanes = tl.arange(0, N)
    tl.store(out_ptr + lanes, tl.full((N,), 7, tl.int32))""",
     "tilescope.check(sevens_k, sevens_ref, out, grid=(1,), N=16, title=\"1. Sevens\")"),

    ("Triple", """`y = 3 * x` for 32 floats, with 4 programs of 8 lanes each: program `p` handles elements
`8p` to `8p + 7`.""",
     """x = torch.arange(32, dtype=torch.float32)
y = torch.zeros(32)


def triple_ref(x, y):
    fill_from(y, [3 * v for v in plain(x)])""",
     "def triple_k(x_ptr, y_ptr, BLOCK: tl.constexpr):",
     None,
     """    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offsets, 3 * tl.load(x_ptr + offsets))""",
     "tilescope.check(triple_k, triple_ref, x, y, grid=(4,), BLOCK=8, title=\"2. Triple\")"),

    ("Ragged sum", """`out = a + b` for `n = 21` elements in blocks of 8. The grid has 3 programs, so the last one has
lanes past the end: keep them from loading or storing (a mask).""",
     """n = 21
a = torch.arange(n, dtype=torch.float32)
b = torch.full((n,), 0.5)
out = torch.zeros(n)


def ragged_ref(a, b, out, n):
    fill_from(out, [p + q for p, q in zip(plain(a), plain(b))])""",
     "def ragged_add_k(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):",
     None,
     """    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    total = tl.load(a_ptr + offsets, mask=inside) + tl.load(b_ptr + offsets, mask=inside)
    tl.store(out_ptr + offsets, total, mask=inside)""",
     "tilescope.check(ragged_add_k, ragged_ref, a, b, out, n, grid=(triton.cdiv(n, 8),), BLOCK=8, title=\"3. Ragged sum\")"),

    ("Mirror", """`out[i] = x[n - 1 - i]` for `n = 19`: the elements in reverse order. Programs own blocks of the
*output*; each works out where its elements come from.""",
     """n = 19
x = torch.arange(100, 100 + n, dtype=torch.int32)
out = torch.zeros(n, dtype=torch.int32)


def mirror_ref(x, out, n):
    fill_from(out, plain(x)[::-1])""",
     "def mirror_k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):",
     None,
     """    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + (n - 1 - offsets), mask=inside), mask=inside)""",
     "tilescope.check(mirror_k, mirror_ref, x, out, n, grid=(triton.cdiv(n, 8),), BLOCK=8, title=\"4. Mirror\")"),

    ("Keep the positives", """`out[i] = x[i]` where `x[i] > 0`, and `0` elsewhere, for 40 floats in blocks of 16. Hint:
`tl.where(condition, a, b)` picks lane by lane.""",
     """n = 40
x = torch.arange(n, dtype=torch.float32) * 0.5 - 7.0
out = torch.full((n,), -1.0)


def positives_ref(x, out, n):
    fill_from(out, [v if v > 0 else 0.0 for v in plain(x)])""",
     "def positives_k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):",
     None,
     """    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    v = tl.load(x_ptr + offsets, mask=inside)
    tl.store(out_ptr + offsets, tl.where(v > 0, v, 0.0), mask=inside)""",
     "tilescope.check(positives_k, positives_ref, x, out, n, grid=(triton.cdiv(n, 16),), BLOCK=16, title=\"5. Keep the positives\")"),

    ("Addition table", """`table[i, j] = rows[i] + cols[j]` for 6 row values and 10 column values: a 6 x 10 table
(row-major) from one program of 8 x 16 lanes. Load both vectors once and let broadcasting
(`r[:, None] + c[None, :]`) build the tile.""",
     """rows = torch.arange(6, dtype=torch.int32) * 100
cols = torch.arange(10, dtype=torch.int32)
table = torch.zeros((6, 10), dtype=torch.int32)


def table_ref(rows, cols, table, m, n):
    fill_from(table, [r + c for r in plain(rows) for c in plain(cols)])""",
     "def table_k(rows_ptr, cols_ptr, table_ptr, m, n, BM: tl.constexpr, BN: tl.constexpr):",
     None,
     """    i = tl.arange(0, BM)
    j = tl.arange(0, BN)
    r = tl.load(rows_ptr + i, mask=i < m)
    c = tl.load(cols_ptr + j, mask=j < n)
    inside = (i[:, None] < m) & (j[None, :] < n)
    tl.store(table_ptr + i[:, None] * n + j[None, :], r[:, None] + c[None, :], mask=inside)""",
     "tilescope.check(table_k, table_ref, rows, cols, table, 6, 10, grid=(1,), BM=8, BN=16, title=\"6. Addition table\")"),

    ("Smoothing", """`out[i] = x[i - 1] + 2 x[i] + x[i + 1]`, where elements outside `x` count as 0, for `n = 30`
in blocks of 8. Each program loads three shifted views of its block; the masks decide which
neighbours exist (`other=0.0` fills the ones that do not).""",
     """n = 30
x = torch.tensor([float((7 * i) % 11) for i in range(n)])
out = torch.zeros(n)


def smooth_ref(x, out, n):
    v = [0.0] + plain(x) + [0.0]
    fill_from(out, [v[i] + 2 * v[i + 1] + v[i + 2] for i in range(n)])""",
     "def smooth_k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):",
     None,
     """    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    left = tl.load(x_ptr + offsets - 1, mask=(offsets >= 1) & (offsets - 1 < n), other=0.0)
    centre = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    right = tl.load(x_ptr + offsets + 1, mask=offsets + 1 < n, other=0.0)
    tl.store(out_ptr + offsets, left + 2 * centre + right, mask=offsets < n)""",
     "tilescope.check(smooth_k, smooth_ref, x, out, n, grid=(triton.cdiv(n, 8),), BLOCK=8, title=\"7. Smoothing\")"),

    ("Transpose", """`out = x.T` for a 13 x 10 matrix `x` (so `out` is 10 x 13), with a 2-D grid of 4 x 4 tiles:
program `(i, j)` reads tile `(i, j)` of `x` and writes it, turned over, to tile `(j, i)` of `out`.
Both matrices are row-major.""",
     """M, N = 13, 10
x = torch.arange(M * N, dtype=torch.float32).reshape(M, N)
out = torch.zeros((N, M))


def transpose_ref(x, out, M, N):
    v = plain(x)
    fill_from(out, [v[i][j] for j in range(N) for i in range(M)])""",
     "def transpose_k(x_ptr, out_ptr, M, N, TILE: tl.constexpr):",
     None,
     """    rows = tl.program_id(0) * TILE + tl.arange(0, TILE)
    cols = tl.program_id(1) * TILE + tl.arange(0, TILE)
    inside = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows[:, None] * N + cols[None, :], mask=inside)
    tl.store(out_ptr + cols[None, :] * M + rows[:, None], tile, mask=inside)""",
     "tilescope.check(transpose_k, transpose_ref, x, out, M, N, grid=(triton.cdiv(M, 4), triton.cdiv(N, 4)), TILE=4,\n                title=\"8. Transpose\")"),

    ("Row totals", """`out[i]` is the sum of row `i` of a 5 x 12 matrix: one program per row, a block of 16 lanes
covering the row, and `tl.sum` to add them up.""",
     """R, C = 5, 12
x = torch.tensor([float(i * C + j) for i in range(R) for j in range(C)]).reshape(R, C)
out = torch.zeros(R)


def totals_ref(x, out, C):
    fill_from(out, [sum(row) for row in plain(x)])""",
     "def totals_k(x_ptr, out_ptr, C, BLOCK: tl.constexpr):",
     None,
     """    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    values = tl.load(x_ptr + row * C + cols, mask=cols < C, other=0.0)
    tl.store(out_ptr + row, tl.sum(values, axis=0))""",
     "tilescope.check(totals_k, totals_ref, x, out, C, grid=(R,), BLOCK=16, title=\"9. Row totals\")"),

    ("Matrix times vector", """`y = A v` for a 6 x 50 matrix: one program per row of `A`, but now the row is longer than
the block (16 lanes), so walk along it in a loop and keep a running total.""",
     """R, C = 6, 50
A = torch.tensor([float((i + 2 * j) % 7 - 3) for i in range(R) for j in range(C)]).reshape(R, C)
v = torch.tensor([float(j % 5) for j in range(C)])
y = torch.zeros(R)


def matvec_ref(A, v, y, C):
    vec = plain(v)
    fill_from(y, [sum(a * b for a, b in zip(row, vec)) for row in plain(A)])""",
     "def matvec_k(A_ptr, v_ptr, y_ptr, C, BLOCK: tl.constexpr):",
     None,
     """    row = tl.program_id(0)
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, C, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inside = cols < C
        a = tl.load(A_ptr + row * C + cols, mask=inside, other=0.0)
        b = tl.load(v_ptr + cols, mask=inside, other=0.0)
        total += a * b
    tl.store(y_ptr + row, tl.sum(total, axis=0))""",
     "tilescope.check(matvec_k, matvec_ref, A, v, y, C, grid=(R,), BLOCK=16, title=\"10. Matrix times vector\")"),

    ("Row softmax", """Each row of a 4 x 10 matrix becomes `exp(x - max) / sum(exp(x - max))`: subtracting the row's
largest value first keeps `exp` from overflowing. One program per row; lanes past the row's end
must not win the maximum (load them as `-inf`).""",
     """import math

R, C = 4, 10
x = torch.tensor([float((3 * i + j) % 9) * 0.7 for i in range(R) for j in range(C)]).reshape(R, C)
out = torch.zeros((R, C))


def softmax_ref(x, out, C):
    result = []
    for row in plain(x):
        top = max(row)
        e = [math.exp(v - top) for v in row]
        result += [v / sum(e) for v in e]
    fill_from(out, result)""",
     "def softmax_k(x_ptr, out_ptr, C, BLOCK: tl.constexpr):",
     None,
     """    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < C
    v = tl.load(x_ptr + row * C + cols, mask=inside, other=-float('inf'))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out_ptr + row * C + cols, e / tl.sum(e, axis=0), mask=inside)""",
     "tilescope.check(softmax_k, softmax_ref, x, out, C, grid=(R,), BLOCK=16, title=\"11. Row softmax\")"),

    ("Histogram", """Count how many of 100 small integers (0 to 7) fall in each of 8 bins. Programs of 32 lanes each
take a slice of the input; several programs add to the same bin, so plain stores would lose
counts: use `tl.atomic_add`.""",
     """n = 100
values = torch.tensor([(i * i + 3 * i) % 8 for i in range(n)], dtype=torch.int32)
bins = torch.zeros(8, dtype=torch.int32)


def histogram_ref(values, bins, n):
    counts = [0] * 8
    for v in plain(values):
        counts[v] += 1
    fill_from(bins, counts)""",
     "def histogram_k(values_ptr, bins_ptr, n, BLOCK: tl.constexpr):",
     None,
     """    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    v = tl.load(values_ptr + offsets, mask=inside, other=0)
    tl.atomic_add(bins_ptr + v, tl.full((BLOCK,), 1, tl.int32), mask=inside)""",
     "tilescope.check(histogram_k, histogram_ref, values, bins, n, grid=(triton.cdiv(n, 32),), BLOCK=32, title=\"12. Histogram\")"),

    ("Matrix product", """`C = A B` for A of 24 x 40 and B of 40 x 20 (fp32, row-major), one 16 x 16 tile of `C` per
program on a 2-D grid. Walk along the shared dimension 16 at a time: load a tile of `A` and a tile
of `B` (masked, zeros outside) and accumulate `tl.dot(a, b)`.""",
     """M, K, N = 24, 40, 20
A = torch.tensor([float((i + j) % 5 - 2) for i in range(M) for j in range(K)]).reshape(M, K)
B = torch.tensor([float((2 * i + j) % 3 - 1) for i in range(K) for j in range(N)]).reshape(K, N)
C = torch.zeros((M, N))


def matmul_ref(A, B, C, M, N, K):
    a, b = plain(A), plain(B)
    fill_from(C, [sum(a[i][k] * b[k][j] for k in range(K)) for i in range(M) for j in range(N)])""",
     "def matmul_k(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK: tl.constexpr):",
     None,
     """    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    for start in range(0, K, BLOCK):
        ks = start + tl.arange(0, BLOCK)
        a = tl.load(a_ptr + rows[:, None] * K + ks[None, :], mask=(rows[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + cols[None, :], mask=(ks[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc, mask=(rows[:, None] < M) & (cols[None, :] < N))""",
     "tilescope.check(matmul_k, matmul_ref, A, B, C, M, N, K, grid=(triton.cdiv(M, 16), triton.cdiv(N, 16)), BLOCK=16,\n                title=\"13. Matrix product\", atol=1e-3)"),
]


def lines(text):
    parts = text.split("\n")
    return [p + "\n" for p in parts[:-1]] + [parts[-1]]


def cell(kind, text, index):
    c = {"cell_type": kind, "id": f"{kind[:2]}{index:03d}", "metadata": {}, "source": lines(text)}
    if kind == "code":
        c.update({"execution_count": None, "outputs": []})
    return c


def notebook(solved):
    title = "# Kernel puzzles: solutions" if solved else None
    intro = INTRO if not solved else INTRO.replace("# Kernel puzzles", "# Kernel puzzles: solutions", 1).replace(
        "Write each kernel in place\nof its `pass`", "This notebook holds a solution in place\nof each `pass`")
    cells = [cell("markdown", intro, 0), cell("code", SETUP, 1)]
    for n, (name, task, setup, head, _empty, body, call) in enumerate(PUZZLES, start=1):
        cells.append(cell("markdown", f"## {n}. {name}\n\n{task}", 10 * n))
        cells.append(cell("code", setup, 10 * n + 1))
        kernel_body = body if solved else "    # your code here\n    pass"
        cells.append(cell("code", f"@triton.jit\n{head}\n{kernel_body}\n\n\n{call}", 10 * n + 2))
    del title
    return {"cells": cells,
            "metadata": {"kernelspec": {"display_name": "tilescope", "language": "python", "name": "tilescope"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples")
    for name, solved in (("exercises.ipynb", False), ("solutions.ipynb", True)):
        path = os.path.join(sys.argv[1] if len(sys.argv) > 1 else root, name)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(notebook(solved), f, indent=1, ensure_ascii=False, sort_keys=True)
            f.write("\n")
        print(f"wrote {os.path.normpath(path)} ({len(PUZZLES)} puzzles)")


if __name__ == "__main__":
    main()
