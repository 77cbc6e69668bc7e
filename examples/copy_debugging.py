# Finding indexing bugs in a copy kernel, as a plain script: `tilescope-cli run examples/copy_debugging.py`.
# Each kernel prints the offsets of every program (each line starts with the program's pid). Add
# `--pid-filter 'pid_0 == 1'` to hear from one program only, without changing the code.
import torch
import triton
import triton.language as tl


def run_copy(kernel, src, BLOCK=4):
    dst = torch.zeros_like(src)
    n = src.numel()
    kernel[(triton.cdiv(n, BLOCK),)](src, dst, n, BLOCK=BLOCK)
    return dst


src = torch.arange(10, 20)


# Bug: the offsets ignore the program id, so all three programs copy the first block.
@triton.jit
def copy_same_block_k(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    print("same block: offsets", offsets)
    tl.store(dst_ptr + offsets, tl.load(src_ptr + offsets, mask=mask), mask=mask)


print(run_copy(copy_same_block_k, src))


# Bug: the program id is not scaled by the block size, so the blocks overlap and the tail is lost.
@triton.jit
def copy_overlapping_k(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid + tl.arange(0, BLOCK)
    mask = offsets < n
    print("overlapping: offsets", offsets)
    tl.store(dst_ptr + offsets, tl.load(src_ptr + offsets, mask=mask), mask=mask)


print(run_copy(copy_overlapping_k, src))


# Fixed: program pid starts at pid * BLOCK, and the mask stops the last one at the end.
@triton.jit
def copy_k(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    print("fixed: offsets", offsets)
    print("fixed: mask", mask)
    tl.store(dst_ptr + offsets, tl.load(src_ptr + offsets, mask=mask), mask=mask)


dst = run_copy(copy_k, src)
print(dst)
assert torch.equal(dst, src)
