#!/usr/bin/env python3
"""Our GPU backend beside Triton, in one run on one GPU, for the same kernels and launch configs.

Usage: compare_with_triton.py --cli build/app/cli/tilescope-cli [--only NAME] [--json OUT]

Each case in core/bench/gpu/*.py is plain Triton host code that prints `RESULT` lines. The script runs
every case twice: under Python with Triton (the reference) and under `tilescope-cli run --backend gpu`
(ours), and prints one table. Both sides time with triton.testing.do_bench (median, CUDA events, L2
flushed between repetitions). Needs a CUDA GPU, torch and triton; the product itself never uses them.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ["vector_add", "softmax", "layer_norm", "grouped_matmul", "block_pointer_matmul", "jit_first_call", "autotune"]
# The targets: our figure over Triton's, at least.
TARGETS = {"vector add": 0.9, "softmax": 0.9, "layer-norm": 0.9, "seed grouped matmul": 0.5}


def run(cmd, env, timeout=900):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    rows = {}
    for line in p.stdout.splitlines():
        if line.startswith("RESULT\t"):
            _, name, ms, value, unit, check = line.split("\t")
            rows[name] = {"ms": float(ms), "value": float(value), "unit": unit, "check": check}
    if p.returncode != 0:
        sys.stderr.write(f"--- {' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}\n")
    return rows


def case_file(name, tmp):
    path = os.path.join(HERE, "gpu", name + ".py")
    if name != "jit_first_call":
        return path
    # A kernel text no cache has seen: salt it.
    text = open(path).read().replace("+ 0.0,", f"+ 0.0 * {random.randint(1, 10**9)},")
    salted = os.path.join(tmp, "jit_first_call.py")
    with open(salted, "w") as f:
        f.write(text)
    return salted


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--only", action="append")
    ap.add_argument("--json")
    args = ap.parse_args()
    results = []
    for name in args.only or CASES:
        with tempfile.TemporaryDirectory() as tmp:
            path = case_file(name, tmp)
            env = dict(os.environ, TRITON_CACHE_DIR=os.path.join(tmp, "triton"), TILESCOPE_CACHE_DIR=os.path.join(tmp, "ts"))
            if name == "jit_first_call":
                # NVRTC and the driver keep their own cache of compiled code (~/.nv/ComputeCache), keyed
                # by the generated CUDA C++, where the salt's `0.0 * N` has folded away: turn it off.
                env["CUDA_CACHE_DISABLE"] = "1"
            theirs = run([sys.executable, path], env)
            ours = run([args.cli, "run", "--backend", "gpu", path], env)
        for row in sorted(set(theirs) | set(ours), key=lambda r: list(theirs).index(r) if r in theirs else 99):
            t, o = theirs.get(row), ours.get(row)
            results.append({"case": row, "triton": t, "tilescope": o})

    print(f"{'case':44} {'Triton':>12} {'tilescope':>12} {'ratio':>7}  unit      target  check")
    for r in results:
        t, o = r["triton"], r["tilescope"]
        unit = (t or o)["unit"]
        tv = f"{t['value']:.1f}" if t else "-"
        ov = f"{o['value']:.1f}" if o else "failed"
        ratio = ""
        if t and o and t["value"] > 0:
            ratio = f"{(o['value'] / t['value'] if unit != 'ms' else t['value'] / o['value']):.2f}"
        target = next((f">={v:.0%}" for k, v in TARGETS.items() if r["case"].startswith(k)), "")
        check = f"{t['check'] if t else '-'}/{o['check'] if o else '-'}"
        print(f"{r['case']:44} {tv:>12} {ov:>12} {ratio:>7}  {unit:8}  {target:6}  {check}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
