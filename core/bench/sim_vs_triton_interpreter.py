#!/usr/bin/env python3
"""Our simulator beside Triton's interpreter, in one run on one machine (issue 25: at least 150x).

Usage: sim_vs_triton_interpreter.py --cli build/app/cli/tilescope-cli [--python python3] [--n 4194304]
                                    [--threads N] [--json OUT]

The same host code (a vector add of n fp32 elements, BLOCK 1024, launched from host code and timed
with triton.testing.do_bench, its output allocated by each call as users write it) runs twice:
under `tilescope-cli run --python embedded --backend sim` (ours) and under Python with
TRITON_INTERPRET=1 (Triton's interpreter on the CPU; needs torch and triton). Each side prints its
do_bench figure; the script prints both and their ratio. --threads sets TILESCOPE_SIM_THREADS for our
side (default: every CPU).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

CASE = r'''
import os
import torch
import triton
import triton.language as tl

# Ours: host tensors (device='cuda' is accepted and stays on the simulator). Triton's interpreter:
# CPU tensors, its own setting (CUDA tensors would add copies to and from the GPU per launch).
DEVICE = os.environ.get("CASE_DEVICE", "cuda")


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


def add(x, y):
    out = torch.empty_like(x)
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out


n = int(os.environ["CASE_N"])
x = torch.rand(n, device=DEVICE)
y = torch.rand(n, device=DEVICE)
assert torch.allclose(add(x, y), x + y)
try:
    ms = triton.testing.do_bench(lambda: add(x, y), warmup=int(os.environ["CASE_WARMUP"]), rep=int(os.environ["CASE_REP"]),
                                 return_mode="median")
except Exception as e:  # a Triton whose do_bench needs a GPU driver in interpreter mode: the host clock
    import statistics
    import time
    print("do_bench failed (" + str(e) + "); timing with time.perf_counter")
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        add(x, y)
        times.append((time.perf_counter() - t0) * 1000)
    ms = statistics.median(times)
print("RESULT", ms)
'''


def run(cmd, env, timeout):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    for line in p.stdout.splitlines():
        if line.startswith("RESULT "):
            return float(line.split()[1])
    sys.stderr.write(f"--- {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}\n")
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True, help="tilescope-cli")
    ap.add_argument("--python", default=sys.executable, help="a Python with torch and triton (Triton's side)")
    ap.add_argument("--n", type=int, default=4194304)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--triton-device", default="cpu", choices=["cpu", "cuda"],
                    help="where Triton's side keeps its tensors (cuda: as the tutorials do, copies per launch)")
    ap.add_argument("--json")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "vector_add.py")
        with open(path, "w") as f:
            f.write(CASE)
        base = dict(os.environ, CASE_N=str(args.n), TRITON_CACHE_DIR=os.path.join(tmp, "triton"))
        ours_env = dict(base, CASE_WARMUP="25", CASE_REP="100")
        if args.threads > 0:
            ours_env["TILESCOPE_SIM_THREADS"] = str(args.threads)
        ours = run([args.cli, "run", "--python", "embedded", "--backend", "sim", path], ours_env, 600)
        # Triton's interpreter takes seconds per call: a short warm-up, a few repetitions.
        theirs_env = dict(base, TRITON_INTERPRET="1", CASE_WARMUP="1", CASE_REP="1", CASE_DEVICE=args.triton_device)
        theirs = run([args.python, path], theirs_env, 1800)
    cpus = os.cpu_count()
    print(f"vector add, {args.n} fp32 elements, BLOCK 1024, launched from host code ({cpus} CPUs)")
    print(f"  tilescope simulator:  {ours:10.2f} ms" if ours is not None else "  tilescope simulator:  failed")
    print(f"  Triton interpreter:   {theirs:10.2f} ms" if theirs is not None else "  Triton interpreter:   failed")
    ratio = theirs / ours if ours and theirs else None
    if ratio is not None:
        print(f"  ratio: {ratio:.1f}x (target: at least 150x) {'met' if ratio >= 150 else 'NOT met'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"n": args.n, "cpus": cpus, "tilescope_ms": ours, "triton_interpreter_ms": theirs, "ratio": ratio}, f)
    return 0 if ratio is not None else 1


if __name__ == "__main__":
    sys.exit(main())
