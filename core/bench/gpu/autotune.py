# Autotuning by timing: a memory-bound scale of 2^24 fp32 with two configs, one of tiny blocks. Each
# config is timed here with do_bench, then the autotuned kernel's pick is timed: 'ok' when the
# autotuner kept a config within 5% of the fastest do_bench found. Which config is faster is a
# measurement of this GPU, so it lives here, not in tests/gpu/GpuRunTest.cpp (which checks that the
# autotuner keeps the smallest of the medians it prints).
import torch
import triton
import triton.language as tl

CONFIGS = [(32, 1), (2048, 4)]  # (BLOCK, num_warps)


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


@triton.autotune(configs=[triton.Config({'BLOCK': b}, num_warps=w) for b, w in CONFIGS], key=['n'])
@triton.jit
def scale_tuned(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


n = 1 << 24
x = torch.rand(n, device='cuda', dtype=torch.float32)
out = torch.empty_like(x)
by_config = {}
for block, warps in CONFIGS:
    ms = triton.testing.do_bench(lambda: scale_kernel[(triton.cdiv(n, block),)](x, out, n, BLOCK=block, num_warps=warps),
                                 quantiles=[0.5])
    by_config[block] = ms
    gbps = 2 * n * 4 / ms * 1e-6
    ok = torch.equal(out, x * 2)
    print(f"RESULT\tautotune config BLOCK {block}, {warps} warps\t{ms:.4f}\t{gbps:.1f}\tGB/s\t{'ok' if ok else 'WRONG'}")

grid = lambda meta: (triton.cdiv(n, meta['BLOCK']),)
scale_tuned[grid](x, out, n)
picked = scale_tuned.best_config.kwargs['BLOCK']
ms = triton.testing.do_bench(lambda: scale_tuned[grid](x, out, n), quantiles=[0.5])
gbps = 2 * n * 4 / ms * 1e-6
fastest = min(by_config.values())
verdict = 'ok' if by_config[picked] <= fastest * 1.05 else 'SLOWER'
if not torch.equal(out, x * 2):
    verdict = 'WRONG'
print(f"RESULT\tautotune pick\t{ms:.4f}\t{gbps:.1f}\tGB/s\t{verdict} (BLOCK {picked})")
