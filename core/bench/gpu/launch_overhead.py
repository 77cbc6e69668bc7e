#!/usr/bin/env python3
"""Per-launch host time of a cached kernel launched from Python: tilescope (embedded CPython,
`tilescope-cli run --python embedded --backend gpu`) beside Triton, in one run on one GPU machine.

The kernel is the vector add of Triton's first tutorial on 1,024 elements, launched N times in a
Python loop after a warm-up; the time per launch is the loop's wall time over N, the device synchronised
once at the end (so it is the host's cost whenever the GPU keeps up, which a 1,024-element add does).
Issue 22 asks tilescope's to be at most half of Triton's.

A second pair of figures launches the same loop on an empty grid (0,) after the warm-up: both Triton
and tilescope read and key every argument and then launch nothing, so it is the host work without
the driver's cuLaunchKernel (and without the GPU: a loop that outruns the GPU waits for it).

usage: launch_overhead.py [--cli build/app/cli/tilescope-cli] [--launches 5000] [--python python3]
                          [--backend gpu|sim] [--torch builtin|system]
Triton runs under --python (it needs installed PyTorch and Triton); when it cannot, its row says why.
"""
import argparse
import os
import subprocess
import sys
import tempfile

PROGRAM = r'''
import time
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


device = "cuda" if (not hasattr(torch, "cuda") or torch.cuda.is_available()) else "cpu"
x = torch.rand(1024, device=device)
y = torch.rand(1024, device=device)
out = torch.empty_like(x)
grid = (1,)
for _ in range(100):
    add_kernel[grid](x, y, out, 1024, BLOCK_SIZE=1024)
torch.cuda.synchronize()
best = None
grid = TIMED_GRID
for _ in range(3):
    start = time.perf_counter()
    for _ in range(LAUNCHES):
        add_kernel[grid](x, y, out, 1024, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    per_launch = (time.perf_counter() - start) / LAUNCHES * 1e6
    best = per_launch if best is None else min(best, per_launch)
assert torch.allclose(out, x + y)
print(f"PER_LAUNCH_US {best:.2f}")
'''


def measure(command, program, env=None):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "launches.py")
        with open(path, "w") as f:
            f.write(program)
        run = subprocess.run(command + [path], capture_output=True, text=True, env=env, timeout=600)
    for line in run.stdout.splitlines():
        if line.startswith("PER_LAUNCH_US "):
            return float(line.split()[1]), None
    tail = (run.stderr or run.stdout).strip().splitlines()
    return None, tail[-1] if tail else f"exit code {run.returncode}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default="build/app/cli/tilescope-cli")
    parser.add_argument("--launches", type=int, default=5000)
    parser.add_argument("--python", default=sys.executable, help="the Python that has Triton and PyTorch")
    parser.add_argument("--backend", default="gpu", choices=["gpu", "sim"])
    parser.add_argument("--torch", default="builtin", choices=["builtin", "system"])
    args = parser.parse_args()
    ours_command = [args.cli, "run", "--python", "embedded", "--backend", args.backend, "--torch", args.torch]
    status = 0
    for timed_grid, title in (("(1,)", "host time per launch"),
                              ("(0,)", "on an empty grid (host work without the driver's launch)")):
        program = PROGRAM.replace("LAUNCHES", str(args.launches)).replace("TIMED_GRID", timed_grid)
        ours, ours_error = measure(ours_command, program)
        theirs, theirs_error = (None, "not run on the simulator") if args.backend == "sim" else measure([args.python], program)
        print(f"cached 1,024-element vector add, {args.launches} launches from a Python loop, {title}:")
        print(f"  tilescope ({args.backend}, {args.torch} torch): " + (f"{ours:.2f} us" if ours is not None else f"failed: {ours_error}"))
        print("  Triton: " + (f"{theirs:.2f} us" if theirs is not None else f"not measured: {theirs_error}"))
        if ours is not None and theirs is not None and timed_grid == "(1,)":
            ratio = ours / theirs
            print(f"  tilescope / Triton: {ratio:.2f} (the goal is at most 0.50): {'met' if ratio <= 0.5 else 'NOT met'}")
        status = status or (0 if ours is not None else 1)
    return status


if __name__ == "__main__":
    sys.exit(main())
