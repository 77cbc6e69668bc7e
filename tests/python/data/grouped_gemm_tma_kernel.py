# Runs the TMA kernel of Triton's grouped-GEMM tutorial (08-grouped-gemm.py in
# $TILESCOPE_TUTORIALS_DIR, its text read unmodified: the autotuned @triton.jit function and its
# configs) on a few problems and checks each product against torch.matmul, as the tutorial's host
# code launches it (FP8=False, float16 matrices) and with FP8=True on float8_e4m3fn matrices, which
# the tutorial's kernel supports but its host code never launches.
import importlib.util
import os
import sys
import tempfile

import torch
import triton

tutorial = os.path.join(os.environ["TILESCOPE_TUTORIALS_DIR"], "08-grouped-gemm.py")
text = open(tutorial).read()
start = text.index("tma_configs = [")
end = text.index("def group_gemm_tma_fn")
module_path = os.path.join(tempfile.mkdtemp(), "tutorial_tma_kernel.py")
with open(module_path, "w") as f:
    f.write("import triton\nimport triton.language as tl\n\n" + text[start:end])
spec = importlib.util.spec_from_file_location("tutorial_tma_kernel", module_path)
module = importlib.util.module_from_spec(spec)
sys.modules["tutorial_tma_kernel"] = module
spec.loader.exec_module(module)

torch.manual_seed(0)
sizes = [(128, 128, 128), (192, 64, 96), (64, 256, 64)]  # M, N, K: partial boxes on purpose
allocations = []


def alloc_fn(size, alignment, stream):
    allocations.append(size)
    return torch.empty(size, device="cuda", dtype=torch.int8)


triton.set_allocator(alloc_fn)
table = lambda values, dtype: torch.tensor(values, device="cuda", dtype=dtype)
grid = lambda meta: (meta["NUM_SM"], )


def run_group(dtype):
    group_a = [torch.rand((m, k), device="cuda", dtype=torch.float16).to(dtype) for m, n, k in sizes]
    group_b_t = [torch.rand((n, k), device="cuda", dtype=torch.float16).to(dtype) for m, n, k in sizes]
    group_c = [torch.empty((m, n), device="cuda", dtype=dtype) for m, n, k in sizes]
    a_ptrs = table([a.data_ptr() for a in group_a], torch.int64)
    b_ptrs = table([b.data_ptr() for b in group_b_t], torch.int64)
    c_ptrs = table([c.data_ptr() for c in group_c], torch.int64)
    g_sizes = table([v for s in sizes for v in s], torch.int32)
    g_lds = table([v for a, b, c in zip(group_a, group_b_t, group_c) for v in (a.stride(0), b.stride(0), c.stride(0))],
                  torch.int32)
    module.grouped_matmul_tma_kernel[grid](a_ptrs, b_ptrs, c_ptrs, g_sizes, g_lds, len(sizes),
                                           FP8=torch.float8_e4m3fn == dtype, NUM_SM=4)
    return group_a, group_b_t, group_c


group_a, group_b_t, group_c = run_group(torch.float16)
for (m, n, k), a, b_t, c in zip(sizes, group_a, group_b_t, group_c):
    expected = torch.matmul(a, b_t.T)
    assert torch.allclose(expected, c, atol=1e-2, rtol=0), (m, n, k, (expected.float() - c.float()).abs().max().item())
# fp8: the fp32 accumulator rounded once to e4m3fn (3 mantissa bits: within 2^-4 of the exact sum).
group_a, group_b_t, group_c = run_group(torch.float8_e4m3fn)
for (m, n, k), a, b_t, c in zip(sizes, group_a, group_b_t, group_c):
    assert c.dtype == torch.float8_e4m3fn
    expected = torch.matmul(a.float(), b_t.float().T)
    got = c.float()
    assert torch.allclose(expected, got, atol=0, rtol=2.0**-4), (m, n, k, (expected - got).abs().max().item())
    assert not torch.equal(expected, got), "the e4m3fn output must be rounded"
print("tutorial TMA kernel matches torch on", len(sizes), "problems, float16 and float8_e4m3fn")
