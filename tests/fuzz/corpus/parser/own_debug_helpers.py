import os
os.environ['TRITON_INTERPRET'] = '1'

import torch
import triton
import triton.language as tl
from triton_util import cdiv, breakpoint_if, print_if, check_tensors_gpu_ready, test_pid_conds


@triton.jit
def shifted_copy(src, dst, n, shift, W: tl.constexpr):
    pid = tl.program_id(0)
    idx = pid * W + tl.arange(0, W)
    ok = (idx + shift < n) & (idx >= 0)
    print_if(f'pid {pid}: idx={idx} ok={ok}', '=0')
    breakpoint_if('>1')
    tl.store(dst + idx, tl.load(src + idx + shift, mask=ok), mask=ok)


a = torch.arange(10, device='cuda')
b = torch.zeros_like(a)
check_tensors_gpu_ready(a, b)
shifted_copy[(cdiv(10, 4),)](a, b, 10, 1, W=4)
print(test_pid_conds('>0,=1', 1, 1), b.tolist())
