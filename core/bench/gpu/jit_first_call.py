# First call of a freshly edited kernel (code generation + compiler + load + launch) and a second,
# cached call. compare_with_triton.py rewrites the kernel's '+ 0.0,' into a random '+ 0.0 * N,' so no
# cache has seen the text, and gives both sides an empty cache directory.
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
