# Row softmax, the kernel of the triton-from-zero seed (one program per row). Runs unchanged under
# Python + Triton and under `tilescope-cli run --backend gpu`.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(input_ptr, output_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    input_ptrs = row_start_ptr + col_offsets
    mask = col_offsets < n_cols
    row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
    row_max = tl.max(row, axis=0)
    row_minus_max = row - row_max
    numerator = tl.exp(row_minus_max)
    denominator = tl.sum(numerator, axis=0)
    softmax_output = numerator / denominator
    output_row_start_ptr = output_ptr + row_idx * output_row_stride
    output_ptrs = output_row_start_ptr + col_offsets
    tl.store(output_ptrs, softmax_output, mask=mask)


def softmax(x, num_warps):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = torch.empty_like(x)
    softmax_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y


M, N = 4096, 8192
x = torch.randn(M, N, device='cuda', dtype=torch.float32)
for warps in [8, 16]:
    ok = torch.allclose(softmax(x, warps), torch.softmax(x, dim=1), atol=1e-6, rtol=1e-4)
    ms = triton.testing.do_bench(lambda: softmax(x, warps), quantiles=[0.5])
    gbps = 2 * M * N * 4 / ms * 1e-6
    print(f"RESULT\tsoftmax {M}x{N} fp32, {warps} warps\t{ms:.4f}\t{gbps:.1f}\tGB/s\t{'ok' if ok else 'WRONG'}")
