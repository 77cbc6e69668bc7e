# Layer-norm forward, the kernel of the triton-from-zero seed (one program per row, the whole row in
# one block). Runs unchanged under Python + Triton and under `tilescope-cli run --backend gpu`.
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xmean = x - mean
    var = tl.sum(xmean * xmean, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    x_hat = xmean * rstd
    w = tl.load(W + cols, mask=mask, other=1.0)
    b = tl.load(B + cols, mask=mask, other=0.0)
    y = x_hat * w + b
    tl.store(Y + cols, y, mask=mask)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)


def layer_norm(x, w, b, eps, num_warps):
    M, N = x.shape
    y = torch.empty_like(x)
    mean = torch.empty((M,), dtype=torch.float32, device=x.device)
    rstd = torch.empty((M,), dtype=torch.float32, device=x.device)
    BLOCK_SIZE = triton.next_power_of_2(N)
    layernorm_kernel[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y


M, N = 4096, 8192
for dtype in [torch.float32, torch.float16]:
    x = torch.randn(M, N, device='cuda', dtype=dtype)
    w = torch.rand(N, device='cuda', dtype=dtype)
    b = torch.rand(N, device='cuda', dtype=dtype)
    ref = torch.nn.functional.layer_norm(x.float(), (N,), w.float(), b.float(), 1e-5)
    ok = torch.allclose(layer_norm(x, w, b, 1e-5, 8).float(), ref, atol=2e-2, rtol=0)
    ms = triton.testing.do_bench(lambda: layer_norm(x, w, b, 1e-5, 8), quantiles=[0.5])
    size = 2 if dtype == torch.float16 else 4
    gbps = 2 * M * N * size / ms * 1e-6
    name = 'fp16' if dtype == torch.float16 else 'fp32'
    print(f"RESULT\tlayer-norm forward {M}x{N} {name}\t{ms:.4f}\t{gbps:.1f}\tGB/s\t{'ok' if ok else 'WRONG'}")
