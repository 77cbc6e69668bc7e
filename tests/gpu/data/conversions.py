# Float to signed-int conversions of 8, 16 and 32 bits from fp32, fp16 and bf16 (truncation toward
# zero, saturation at the target's range, NaN to 0), with out-of-range values, infinities and NaNs.
# Run with TILESCOPE_GPU_CROSSCHECK: every tensor must match the simulator.
import torch
import triton
import triton.language as tl

@triton.jit
def to_ints(x_ptr, o8_ptr, o16_ptr, o32_ptr, n, B: tl.constexpr):
    offs = tl.program_id(0) * B + tl.arange(0, B)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(o8_ptr + offs, x.to(tl.int8), mask=m)
    tl.store(o16_ptr + offs, x.to(tl.float16).to(tl.int16), mask=m)
    tl.store(o32_ptr + offs, x.to(tl.int32), mask=m)
    tl.store(o32_ptr + n + offs, x.to(tl.bfloat16).to(tl.int32), mask=m)
    tl.store(o8_ptr + n + offs, tl.clamp(x * 0.5, -128.0, 127.0).to(tl.int8), mask=m)

n = 1000
x = torch.randn(n) * 300.0
for i, v in enumerate([float('nan'), float('inf'), -float('inf'), 3e9, -3e9, 127.9, -128.9, 128.0, -129.0,
                       32767.5, -32768.5, 70000.0, 2147483520.0, -2147483648.0, -0.7, 0.99]):
    x[i] = v
o8 = torch.zeros(2 * n, dtype=torch.int8)
o16 = torch.zeros(n, dtype=torch.int16)
o32 = torch.zeros(2 * n, dtype=torch.int32)
to_ints[(triton.cdiv(n, 256),)](x, o8, o16, o32, n, B=256)
assert o8[1].item() == 127 and o8[2].item() == -128 and o8[0].item() == 0 and o8[14].item() == 0
assert o32[3].item() == 2147483647 and o32[12].item() == 2147483520 and o32[13].item() == -2147483648
print('conversions ok')
