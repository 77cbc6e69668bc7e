# The same gather launched with a float tensor as the index: the launch would fail, so check does.
import torch
import triton
import triton.language as tl


@triton.jit
def gather_kernel(src_ptr, idx_ptr, out_ptr, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    row = tl.load(idx_ptr + i)
    cols = tl.arange(0, BLOCK)
    tl.store(out_ptr + i * BLOCK + cols, tl.load(src_ptr + row * BLOCK + cols))


src = torch.randn(8, 16)
idx = torch.rand(4) * 8
out = torch.empty(4, 16)
gather_kernel[(4,)](src, idx, out, BLOCK=16)
