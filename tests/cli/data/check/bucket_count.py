# Counting keys per bucket: integer keys divided with // give the bucket, launched on int64 keys.
import torch
import triton
import triton.language as tl


@triton.jit
def bucket_count_kernel(keys_ptr, counts_ptr, n, BUCKET_WIDTH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    keys = tl.load(keys_ptr + offs, mask=mask, other=0)
    bucket = keys // BUCKET_WIDTH
    tl.atomic_add(counts_ptr + bucket, 1, mask=mask)


n = 1000
keys = torch.randint(0, 256, (n,), device="cuda")
counts = torch.zeros(16, dtype=torch.int32, device="cuda")
grid = (triton.cdiv(n, 128),)
bucket_count_kernel[grid](keys, counts, n, BUCKET_WIDTH=16, BLOCK=128)
