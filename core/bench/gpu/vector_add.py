# Vector add, as in Triton's first tutorial. Runs unchanged under Python + Triton and under
# `tilescope-cli run --backend gpu`; core/bench/compare_with_triton.py runs both and compares.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x, y):
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']),)
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


for log2 in [24, 27]:
    size = 2 ** log2
    x = torch.rand(size, device='cuda', dtype=torch.float32)
    y = torch.rand(size, device='cuda', dtype=torch.float32)
    ok = torch.equal(add(x, y), x + y)
    ms = triton.testing.do_bench(lambda: add(x, y), quantiles=[0.5])
    gbps = 3 * size * 4 / ms * 1e-6
    print(f"RESULT\tvector add 2^{log2} fp32\t{ms:.4f}\t{gbps:.1f}\tGB/s\t{'ok' if ok else 'WRONG'}")
    del x, y
