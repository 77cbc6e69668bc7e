# The practitioners-guide seed's grouped matmul (fp16 in, fp32 accumulate) at 4096^3 with 128x128x64
# blocks, 8 warps, 3 stages, beside torch.matmul (cuBLAS). Runs unchanged under Python + Triton and
# under `tilescope-cli run --backend gpu`.
import torch
import triton
import triton.language as tl


@triton.jit
def get_1d_offset(size, n_prev_chunks):
    return n_prev_chunks * size + tl.arange(0, size)


@triton.jit
def get_2d_offset(offs_0, offs_1, stride_0, stride_1=1):
    return tl.expand_dims(offs_0, 1) * stride_0 + tl.expand_dims(offs_1, 0) * stride_1


@triton.jit
def get_2d_mask(offs_0, offs_1, max_0, max_1):
    return (tl.expand_dims(offs_0, 1) < max_0) & (tl.expand_dims(offs_1, 0) < max_1)


@triton.jit
def grouped_matmul_k(a_ptr, b_ptr, c_ptr, m, n, k, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     bm: tl.constexpr, bn: tl.constexpr, bk: tl.constexpr, group_sz: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    num_pid_m, num_pid_n = tl.num_programs(0), tl.num_programs(1)
    pid_m, pid_n = tl.swizzle2d(pid_m, pid_n, num_pid_m, num_pid_n, group_sz)
    rm = get_1d_offset(size=bm, n_prev_chunks=pid_m)
    rn = get_1d_offset(size=bn, n_prev_chunks=pid_n)
    rk = get_1d_offset(size=bk, n_prev_chunks=0)
    offs_a = a_ptr + get_2d_offset(rm, rk, stride_am, stride_ak)
    offs_b = b_ptr + get_2d_offset(rk, rn, stride_bk, stride_bn)
    acc = tl.zeros((bm, bn), dtype=tl.float32)
    for _ in range(0, k, bk):
        a = tl.load(offs_a)
        b = tl.load(offs_b)
        acc += tl.dot(a, b, allow_tf32=False)
        offs_a += bk * stride_ak
        offs_b += bk * stride_bk
    c = c_ptr + get_2d_offset(rm, rn, stride_cm, stride_cn)
    mask = get_2d_mask(rm, rn, m, n)
    tl.store(c, acc, mask=mask)


def grouped_matmul(a, b):
    m, k = a.shape
    _, n = b.shape
    c = torch.empty((m, n), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(m, 128), triton.cdiv(n, 128))
    grouped_matmul_k[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                           bm=128, bn=128, bk=64, group_sz=8, num_warps=8, num_stages=3)
    return c


S = 4096
a = torch.randn((S, S), device='cuda', dtype=torch.float16)
b = torch.randn((S, S), device='cuda', dtype=torch.float16)
ref = torch.matmul(a, b)
ok = torch.allclose(grouped_matmul(a, b), ref, atol=0.25, rtol=1e-2)
for provider in ['seed grouped matmul', 'torch.matmul (cuBLAS)']:
    if provider == 'torch.matmul (cuBLAS)':
        ms = triton.testing.do_bench(lambda: torch.matmul(a, b), quantiles=[0.5])
    else:
        ms = triton.testing.do_bench(lambda: grouped_matmul(a, b), quantiles=[0.5])
    tflops = 2 * S * S * S / ms * 1e-9
    print(f"RESULT\t{provider} fp16 {S}^3\t{ms:.4f}\t{tflops:.1f}\tTFLOP/s\t{'ok' if ok else 'WRONG'}")
