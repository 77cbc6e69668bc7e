# The buggy copy kernels of the Triton practitioners' guide ("Example 1: Copying a tensor"), as one
# script: run it with `tilescope-cli run examples/copy_debugging.py`. Each kernel prints what every
# program sees (print_if with an empty condition matches every program), like TRITON_INTERPRET=1.
import os
os.environ['TRITON_INTERPRET'] = '1'

import torch
import triton
import triton.language as tl
from triton_util import cdiv, print_if, check_tensors_gpu_ready


def copy(x, bs, kernel_fn):
    z = torch.zeros_like(x)
    check_tensors_gpu_ready(x, z)
    n = x.numel()
    n_blocks = cdiv(n, bs)
    grid = (n_blocks,)
    kernel_fn[grid](x, z, n, bs)
    return z


x = torch.tensor([1, 2, 3, 4, 5, 6])


# Bug 1: the offsets do not depend on the program id, so every program copies x[0:2].
@triton.jit
def copy_k(x_ptr, z_ptr, n, bs: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, bs)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask)
    tl.store(z_ptr + offs, x, mask)
    print_if(f'pid = {pid} | offs = {offs}, mask = {mask}, x = {x}', '')


z = copy(x, bs=2, kernel_fn=copy_k)
print(z)


# Bug 2: shifting by pid * n instead of pid * bs.
@triton.jit
def copy_k(x_ptr, z_ptr, n, bs: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * n + tl.arange(0, bs)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask)
    tl.store(z_ptr + offs, x, mask)
    print_if(f'pid = {pid} | offs = {offs}, mask = {mask}, x = {x}', '')


z = copy(x, bs=2, kernel_fn=copy_k)
print(z)


# Fixed.
@triton.jit
def copy_k(x_ptr, z_ptr, n, bs: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * bs + tl.arange(0, bs)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask)
    tl.store(z_ptr + offs, x, mask)
    print_if(f'pid = {pid} | offs = {offs}, mask = {mask}, x = {x}', '')


z = copy(x, bs=2, kernel_fn=copy_k)
print((x, z))
assert torch.equal(x, z)
