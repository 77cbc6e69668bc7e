#!/usr/bin/env python3
"""Triton's own compilation of the suite's attention kernel (core/bench/gpu/attention.py): runs the
case under Python + Triton, then compiles each of its three launches again and writes Triton's PTX
(and SASS where Triton gives it) to OUTDIR, printing a census of the instructions that say which path
Triton took (wgmma, mma.sync, cp.async, TMA, mbarrier, ex2) and its registers and shared memory.
Usage: triton-attention-ptx.py OUTDIR   (on a GPU machine with torch and Triton)."""
import os
import re
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
out = sys.argv[1]
sys.path.insert(0, os.path.join(here, "..", "core", "bench", "gpu"))
import attention  # noqa: E402 (runs the case: its RESULT lines are Triton's figures)
kernel = attention.attention_forward
PATTERNS = ["wgmma.mma_async", "wgmma.wait_group", "mma.sync", "ldmatrix", "stmatrix", "cp.async.ca", "cp.async.cg",
            "cp.async.bulk.tensor", "mbarrier.try_wait", "mbarrier.arrive", "ex2.approx", "bar.sync", "shfl.sync",
            "setmaxnreg", "fence.proxy.async"]
for label, dtype, causal in [("fp16", torch.float16, False), ("bf16", torch.bfloat16, False), ("fp16_causal", torch.float16, True)]:
    q, k, v = [torch.randn((4, 16, 4096, 64), device="cuda", dtype=dtype) for _ in range(3)]
    o = torch.empty_like(q)
    compiled = kernel[(4096 // 128, 64)](q, k, v, o, 4096, 0.125, q.stride(1), q.stride(2), BM=128, BN=64, DIM=64,
                                         CAUSAL=causal, num_warps=8, num_stages=3)
    ptx = compiled.asm["ptx"]
    with open(os.path.join(out, f"triton_attention_{label}.ptx"), "w") as f:
        f.write(ptx)
    if "sass" in compiled.asm:
        with open(os.path.join(out, f"triton_attention_{label}.sass"), "w") as f:
            f.write(compiled.asm["sass"])
    census = ", ".join(f"{p} {len(re.findall(re.escape(p), ptx))}" for p in PATTERNS)
    print(f"TRITON {label}: regs {compiled.n_regs} spills {compiled.n_spills} shared {compiled.metadata.shared} | {census}")
