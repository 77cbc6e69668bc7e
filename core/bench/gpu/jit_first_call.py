# First call of a freshly edited kernel (code generation + compiler + load + launch) and a second,
# cached call. compare_with_triton.py rewrites the kernel's '+ 0.0,' into a random '+ 0.0 * N,' so no
# cache has seen the text, gives both sides an empty cache directory and turns off CUDA's own cache
# (CUDA_CACHE_DISABLE=1), which NVRTC consults too.
import time
import torch
import triton
import triton.language as tl

@triton.jit
def scale_kernel(x_ptr, out_ptr, n, factor, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor + 0.0, mask=mask)  # salt: '+ 0.0,'


x = torch.rand(1 << 20, device='cuda')
out = torch.empty_like(x)
# Both sides start with the GPU initialised: torch made its context at torch.rand; tilescope keeps
# tensors on the host until a launch needs them, and makes its context at the latest here.
torch.cuda.synchronize()
t0 = time.perf_counter()
scale_kernel[(256,)](x, out, x.numel(), 2.0, BLOCK=4096)
torch.cuda.synchronize()
first = (time.perf_counter() - t0) * 1000
t0 = time.perf_counter()
scale_kernel[(256,)](x, out, x.numel(), 3.0, BLOCK=4096)
torch.cuda.synchronize()
second = (time.perf_counter() - t0) * 1000
print(f"RESULT\tJIT first call of an edited kernel\t{first:.1f}\t{first:.1f}\tms\tok")
print(f"RESULT\tsecond call (cached)\t{second:.3f}\t{second:.3f}\tms\tok")


# The grouped matmul of grouped_matmul.py (128x128x64 tiles, 8 warps, 3 stages): the largest
# generated code of these cases, so the slowest to compile.
@triton.jit
def swizzled_matmul(lhs, rhs, dst, rows, cols, depth, lhs_rs, lhs_cs, rhs_rs, rhs_cs, dst_rs, dst_cs,
                    TM: tl.constexpr, TN: tl.constexpr, TK: tl.constexpr, GROUP: tl.constexpr):
    tile_r, tile_c = tl.swizzle2d(tl.program_id(0), tl.program_id(1), tl.num_programs(0), tl.num_programs(1), GROUP)
    r = tile_r * TM + tl.arange(0, TM)
    c = tile_c * TN + tl.arange(0, TN)
    kk = tl.arange(0, TK)
    lhs_at = lhs + r[:, None] * lhs_rs + kk[None, :] * lhs_cs
    rhs_at = rhs + kk[:, None] * rhs_rs + c[None, :] * rhs_cs
    total = tl.zeros((TM, TN), dtype=tl.float32)
    for step in range(0, depth, TK):
        total += tl.dot(tl.load(lhs_at), tl.load(rhs_at), allow_tf32=False)
        lhs_at += TK * lhs_cs
        rhs_at += TK * rhs_rs
    keep = (r[:, None] < rows) & (c[None, :] < cols)
    tl.store(dst + r[:, None] * dst_rs + c[None, :] * dst_cs, total + 0.0, mask=keep)  # salt: '+ 0.0,'


S = 512
p = torch.randn((S, S), device='cuda', dtype=torch.float16)
q = torch.randn((S, S), device='cuda', dtype=torch.float16)
out = torch.empty((S, S), device='cuda', dtype=torch.float16)
torch.cuda.synchronize()
times = []
for _ in range(2):
    t0 = time.perf_counter()
    swizzled_matmul[(S // 128, S // 128)](p, q, out, S, S, S, p.stride(0), p.stride(1), q.stride(0), q.stride(1),
                                          out.stride(0), out.stride(1), TM=128, TN=128, TK=64, GROUP=8, num_warps=8,
                                          num_stages=3)
    torch.cuda.synchronize()
    times.append((time.perf_counter() - t0) * 1000)
ok = torch.allclose(out.float(), (p.float() @ q.float()), atol=0.1, rtol=0.01)
print(f"RESULT\tJIT first call, grouped matmul\t{times[0]:.1f}\t{times[0]:.1f}\tms\t{'ok' if ok else 'WRONG'}")
print(f"RESULT\tsecond call (cached), grouped matmul\t{times[1]:.3f}\t{times[1]:.3f}\tms\tok")
