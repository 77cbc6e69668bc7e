# Softmax and normalisation variants beside the one-row-in-registers kernels of softmax.py and
# layer_norm.py: an online softmax over 32768-wide rows that streams each row twice in 4096-wide
# chunks (running max and rescaled sum, then the normalised exponentials), an fp16 softmax of
# 8192x4096 rows, an RMS norm with a weight of 4096x8192 fp16 rows, and a layer norm whose rows
# (2048x32768 fp32) are too wide for registers: mean and variance in one chunked pass, normalised
# output in a second. Checked against torch. Plain Triton host code that prints RESULT lines;
# core/bench/compare_with_triton.py runs it under Python + Triton and under tilescope's GPU backend.
# TILESCOPE_BENCH_SMALL=1 shrinks the sizes.
import os
import torch
import triton
import triton.language as tl

SMALL = os.environ.get('TILESCOPE_BENCH_SMALL') == '1'


@triton.jit
def online_softmax(src, dst, width, pitch, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    base = src + row * pitch
    run_max = tl.full((CHUNK,), -float('inf'), tl.float32)
    run_sum = tl.zeros((CHUNK,), dtype=tl.float32)
    for start in range(0, width, CHUNK):
        c = start + tl.arange(0, CHUNK)
        x = tl.load(base + c, mask=c < width, other=-float('inf'))
        new_max = tl.maximum(run_max, x)
        run_sum = run_sum * tl.exp(run_max - new_max) + tl.exp(x - new_max)
        run_max = new_max
    row_max = tl.max(run_max, axis=0)
    row_sum = tl.sum(run_sum * tl.exp(run_max - row_max), axis=0)
    for start in range(0, width, CHUNK):
        c = start + tl.arange(0, CHUNK)
        x = tl.load(base + c, mask=c < width, other=-float('inf'))
        tl.store(dst + row * pitch + c, tl.exp(x - row_max) / row_sum, mask=c < width)


@triton.jit
def half_softmax(src, dst, width, pitch, LANES: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, LANES)
    x = tl.load(src + row * pitch + c, mask=c < width, other=-float('inf')).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(dst + row * pitch + c, (e / tl.sum(e, axis=0)).to(tl.float16), mask=c < width)


@triton.jit
def rms_norm(src, dst, weight, width, pitch, eps, LANES: tl.constexpr):
    row = tl.program_id(0)
    c = tl.arange(0, LANES)
    x = tl.load(src + row * pitch + c, mask=c < width, other=0.0).to(tl.float32)
    inv = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / width + eps)
    w = tl.load(weight + c, mask=c < width, other=0.0).to(tl.float32)
    tl.store(dst + row * pitch + c, (x * inv * w).to(tl.float16), mask=c < width)


@triton.jit
def wide_layer_norm(src, dst, weight, bias, width, pitch, eps, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    base = src + row * pitch
    acc = tl.zeros((CHUNK,), dtype=tl.float32)
    acc2 = tl.zeros((CHUNK,), dtype=tl.float32)
    for start in range(0, width, CHUNK):
        c = start + tl.arange(0, CHUNK)
        x = tl.load(base + c, mask=c < width, other=0.0)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, axis=0) / width
    var = tl.sum(acc2, axis=0) / width - mean * mean
    inv = 1.0 / tl.sqrt(var + eps)
    for start in range(0, width, CHUNK):
        c = start + tl.arange(0, CHUNK)
        x = tl.load(base + c, mask=c < width, other=0.0)
        w = tl.load(weight + c, mask=c < width, other=0.0)
        b = tl.load(bias + c, mask=c < width, other=0.0)
        tl.store(dst + row * pitch + c, (x - mean) * inv * w + b, mask=c < width)


def report(label, call, correct, moved):
    ms = triton.testing.do_bench(call, quantiles=[0.5])
    print(f"RESULT\t{label}\t{ms:.4f}\t{moved / ms * 1e-6:.1f}\tGB/s\t{'ok' if correct else 'WRONG'}")


R, C = (4, 1000) if SMALL else (4096, 32768)
x = torch.randn((R, C), device='cuda', dtype=torch.float32)
y = torch.empty_like(x)
online = lambda: online_softmax[(R,)](x, y, C, x.stride(0), CHUNK=4096 if not SMALL else 256, num_warps=8)
online()
report(f"softmax online (two passes) {R}x{C} fp32", online, torch.allclose(y, torch.softmax(x, dim=1), atol=1e-6, rtol=1e-4),
       3 * R * C * 4)

R, C = (8, 300) if SMALL else (8192, 4096)
h = torch.randn((R, C), device='cuda', dtype=torch.float16)
hy = torch.empty_like(h)
half = lambda: half_softmax[(R,)](h, hy, C, h.stride(0), LANES=triton.next_power_of_2(C), num_warps=8)
half()
report(f"softmax {R}x{C} fp16", half, torch.allclose(hy.float(), torch.softmax(h.float(), dim=1), atol=1e-3, rtol=1e-2),
       2 * R * C * 2)

R, C = (8, 300) if SMALL else (4096, 8192)
h = torch.randn((R, C), device='cuda', dtype=torch.float16)
hw = torch.randn((C,), device='cuda', dtype=torch.float16)
hy = torch.empty_like(h)
rms = lambda: rms_norm[(R,)](h, hy, hw, C, h.stride(0), 1e-6, LANES=triton.next_power_of_2(C), num_warps=8)
rms()
hf = h.float()
want = hf * torch.rsqrt((hf * hf).mean(dim=1, keepdim=True) + 1e-6) * hw.float()[None, :]
report(f"rms norm {R}x{C} fp16", rms, torch.allclose(hy.float(), want, atol=2e-2, rtol=1e-2), 2 * R * C * 2)

R, C = (4, 1000) if SMALL else (2048, 32768)
x = torch.randn((R, C), device='cuda', dtype=torch.float32)
w = torch.randn((C,), device='cuda', dtype=torch.float32)
b = torch.randn((C,), device='cuda', dtype=torch.float32)
y = torch.empty_like(x)
wide = lambda: wide_layer_norm[(R,)](x, y, w, b, C, x.stride(0), 1e-5, CHUNK=2048 if not SMALL else 256, num_warps=8)
wide()
want = torch.nn.functional.layer_norm(x, (C,), w, b, 1e-5)
report(f"layer norm, chunked wide rows {R}x{C} fp32", wide, torch.allclose(y, want, atol=1e-3, rtol=1e-3), 3 * R * C * 4)
