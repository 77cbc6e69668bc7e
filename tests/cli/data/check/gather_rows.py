# Gathering rows of a table by an int32 index tensor, then scaling them: the launch says which
# pointer holds indices (idx, int32) and which holds data (src, fp32).
import torch
import triton
import triton.language as tl


@triton.jit
def gather_rows_kernel(src_ptr, idx_ptr, out_ptr, row_len, scale, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    row = tl.load(idx_ptr + i)
    cols = tl.arange(0, BLOCK)
    mask = cols < row_len
    vals = tl.load(src_ptr + row * row_len + cols, mask=mask)
    tl.store(out_ptr + i * row_len + cols, tl.exp(vals) * scale, mask=mask)


def gather_rows(src, idx, scale):
    out = torch.empty((idx.numel(), src.shape[1]), device=src.device, dtype=src.dtype)
    gather_rows_kernel[(idx.numel(),)](src, idx, out, src.shape[1], scale, BLOCK=triton.next_power_of_2(src.shape[1]))
    return out


table = torch.randn(64, 32, device="cuda")
index = torch.randint(0, 64, (16,), device="cuda").to(torch.int32)
rows = gather_rows(table, index, 0.5)
