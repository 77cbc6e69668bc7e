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


# The seed's grouped matmul (the practitioners' guide's kernel, 128x128x64 blocks, 8 warps, 3 stages):
# the largest generated code of the seeds, so the slowest to compile.
@triton.jit
def grouped_matmul_k(a_ptr, b_ptr, c_ptr, m, n, k, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     bm: tl.constexpr, bn: tl.constexpr, bk: tl.constexpr, group_sz: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    num_pid_m, num_pid_n = tl.num_programs(0), tl.num_programs(1)
    pid_m, pid_n = tl.swizzle2d(pid_m, pid_n, num_pid_m, num_pid_n, group_sz)
    rm = pid_m * bm + tl.arange(0, bm)
    rn = pid_n * bn + tl.arange(0, bn)
    rk = tl.arange(0, bk)
    offs_a = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    offs_b = b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((bm, bn), dtype=tl.float32)
    for _ in range(0, k, bk):
        a = tl.load(offs_a)
        b = tl.load(offs_b)
        acc += tl.dot(a, b, allow_tf32=False)
        offs_a += bk * stride_ak
        offs_b += bk * stride_bk
    c = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    mask = (rm[:, None] < m) & (rn[None, :] < n)
    tl.store(c, acc + 0.0, mask=mask)  # salt: '+ 0.0,'


S = 512
a = torch.randn((S, S), device='cuda', dtype=torch.float16)
b = torch.randn((S, S), device='cuda', dtype=torch.float16)
c = torch.empty((S, S), device='cuda', dtype=torch.float16)
torch.cuda.synchronize()
times = []
for _ in range(2):
    t0 = time.perf_counter()
    grouped_matmul_k[(S // 128, S // 128)](a, b, c, S, S, S, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                           c.stride(0), c.stride(1), bm=128, bn=128, bk=64, group_sz=8, num_warps=8,
                                           num_stages=3)
    torch.cuda.synchronize()
    times.append((time.perf_counter() - t0) * 1000)
ok = torch.allclose(c.float(), (a.float() @ b.float()), atol=0.1, rtol=0.01)
print(f"RESULT\tJIT first call, seed grouped matmul\t{times[0]:.1f}\t{times[0]:.1f}\tms\t{'ok' if ok else 'WRONG'}")
print(f"RESULT\tsecond call (cached), seed grouped matmul\t{times[1]:.3f}\t{times[1]:.3f}\tms\tok")
