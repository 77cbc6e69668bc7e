#!/usr/bin/env python3
"""Per-launch host time of a cached kernel launched from Python: tilescope (embedded CPython,
`tilescope-cli run --python embedded --backend gpu`) beside Triton, in one run on one GPU machine.

The kernel is the vector add of Triton's first tutorial on 1,024 elements, launched N times in a
Python loop after a warm-up; the time per launch is the loop's wall time over N, the device synchronised
once at the end (so it is the host's cost whenever the GPU keeps up; the third figure below checks).
Issue 22 asks tilescope's to be at most half of Triton's.

Each process also times the same loop on an empty grid (0,), alternating with the real one: both
Triton and tilescope read and key every argument and then launch nothing, so it is the host work
without the driver's cuLaunchKernel (and without the GPU: a loop that outruns the GPU waits for it).

A third figure times 300 launches right after a synchronisation without waiting for them: the
driver's queue never fills, so it is the host's cost of a launch even when the loop waits for the GPU.
Where torch has CUDA events (installed PyTorch, so Triton and `--torch system`), the GPU's own time
per launch is printed too: when it is close to the wall time, the GPU (or the driver's queue), not the
host, sets the pace.

Host timings on a shared machine drift by tens of percent from one process to the next (Triton's
figure moved from 12 to 18 us between two runs of one call), so the contenders run interleaved:
--rounds rounds, each starting every contender once (in a rotating order), each process timing
--repeats loops of each grid. The figures are medians over all loops, and the ratio is the median of
the per-round ratios (each tilescope process against the Triton process of its round) beside the
ratio of the medians.

usage: launch_overhead.py [--cli build/app/cli/tilescope-cli] [--launches 5000] [--python python3]
                          [--backend gpu|sim] [--torch builtin [system]] [--rounds 5] [--repeats 5]
Triton runs under --python (it needs installed PyTorch and Triton); when it cannot, its row says why.
"""
import argparse
import os
import statistics
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
for grid in ((1,), (0,)):
    for _ in range(100):
        add_kernel[grid](x, y, out, 1024, BLOCK_SIZE=1024)
torch.cuda.synchronize()


# The GPU's own time over the loop where torch has CUDA events (installed PyTorch): close to the wall
# time when the GPU, not the host, sets the pace.
try:
    events = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
except Exception:
    events = None


def loop(grid):
    start = time.perf_counter()
    if events:
        events[0].record()
    for _ in range(LAUNCHES):
        add_kernel[grid](x, y, out, 1024, BLOCK_SIZE=1024)
    if events:
        events[1].record()
    torch.cuda.synchronize()
    wall = (time.perf_counter() - start) / LAUNCHES * 1e6
    if events and grid[0]:
        print(f"GPU_US {events[0].elapsed_time(events[1]) * 1e3 / LAUNCHES:.3f}")
    return wall


def issue(grid, count=300):
    # Launches right after a synchronisation, timed without waiting for them: the driver's queue
    # never fills, so this is the host's own cost of a launch even where the loop above waits for
    # the GPU.
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(count):
        add_kernel[grid](x, y, out, 1024, BLOCK_SIZE=1024)
    took = (time.perf_counter() - start) / count * 1e6
    torch.cuda.synchronize()
    return took


for _ in range(REPEATS):
    print(f"LAUNCH_US {loop((1,)):.3f}", flush=True)
    print(f"EMPTY_US {loop((0,)):.3f}", flush=True)
    print(f"ISSUE_US {issue((1,)):.3f}", flush=True)
assert torch.allclose(out, x + y)
print("CHECKED")
'''


def measure(command, program, env=None):
    """({'LAUNCH_US': [...], 'EMPTY_US': [...], 'GPU_US': [...]}, None) or (None, why)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "launches.py")
        with open(path, "w") as f:
            f.write(program)
        try:
            run = subprocess.run(command + [path], capture_output=True, text=True, env=env, timeout=600)
        except subprocess.TimeoutExpired:
            return None, "timed out"
    samples = {"LAUNCH_US": [], "EMPTY_US": [], "GPU_US": [], "ISSUE_US": []}
    checked = False
    for line in run.stdout.splitlines():
        name, _, value = line.partition(" ")
        if name in samples:
            samples[name].append(float(value))
        checked = checked or line == "CHECKED"
    if checked and run.returncode == 0:
        return samples, None
    tail = (run.stderr or run.stdout).strip().splitlines()
    return None, tail[-1] if tail else f"exit code {run.returncode}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default="build/app/cli/tilescope-cli")
    parser.add_argument("--launches", type=int, default=5000)
    parser.add_argument("--python", default=sys.executable, help="the Python that has Triton and PyTorch")
    parser.add_argument("--backend", default="gpu", choices=["gpu", "sim"])
    parser.add_argument("--torch", nargs="+", default=["builtin"], choices=["builtin", "system"])
    parser.add_argument("--rounds", type=int, default=5, help="processes of each contender, interleaved")
    parser.add_argument("--repeats", type=int, default=5, help="timed loops of each grid in one process")
    args = parser.parse_args()
    program = PROGRAM.replace("LAUNCHES", str(args.launches)).replace("REPEATS", str(args.repeats))
    contenders = [(f"tilescope ({args.backend}, {t} torch)",
                   [args.cli, "run", "--python", "embedded", "--backend", args.backend, "--torch", t])
                  for t in args.torch]
    if args.backend == "gpu":
        contenders.append(("Triton", [args.python]))
    names = [name for name, _ in contenders]
    per_round = {name: [] for name in names}  # one entry per round: the process's samples, or None
    errors = {}
    for r in range(args.rounds):
        for k in range(len(contenders)):
            name, command = contenders[(k + r) % len(contenders)]
            samples, error = measure(command, program)
            per_round[name].append(samples)
            if error:
                errors.setdefault(name, error)
    status = 0
    print(f"cached 1,024-element vector add, {args.launches} launches from a Python loop; "
          f"{args.rounds} interleaved rounds x {args.repeats} loops; medians (min-max of the processes' medians):")
    medians = {}
    for name in names:
        ok = [s for s in per_round[name] if s]
        if not ok:
            print(f"  {name}: not measured: {errors.get(name, 'not run on the simulator')}")
            status = status or (0 if name == "Triton" else 1)
            continue
        row = []
        for key, title in (("LAUNCH_US", "per launch"), ("EMPTY_US", "empty grid"), ("ISSUE_US", "300 after a sync")):
            pooled = [v for s in ok for v in s[key]]
            process = [statistics.median(s[key]) for s in ok]
            medians[(name, key)] = statistics.median(pooled)
            row.append(f"{title} {statistics.median(pooled):.2f} us ({min(process):.2f}-{max(process):.2f})")
        gpu = [v for s in ok for v in s["GPU_US"]]
        if gpu:
            row.append(f"GPU time {statistics.median(gpu):.2f} us")
        failed = len(per_round[name]) - len(ok)
        print(f"  {name}: " + ", ".join(row) + (f"; {failed} processes failed: {errors[name]}" if failed else ""))
    if ("Triton", "LAUNCH_US") in medians:
        for name in names[:-1]:
            if (name, "LAUNCH_US") not in medians:
                continue
            paired = [statistics.median(o["LAUNCH_US"]) / statistics.median(t["LAUNCH_US"])
                      for o, t in zip(per_round[name], per_round["Triton"]) if o and t]
            ratio = medians[(name, "LAUNCH_US")] / medians[("Triton", "LAUNCH_US")]
            verdict = "met" if statistics.median(paired) <= 0.5 else "NOT met"
            print(f"  {name} / Triton: {statistics.median(paired):.2f} (median of the rounds' ratios, "
                  f"{min(paired):.2f}-{max(paired):.2f}; ratio of the medians {ratio:.2f}); "
                  f"the goal is at most 0.50: {verdict}")
    return status


if __name__ == "__main__":
    sys.exit(main())
