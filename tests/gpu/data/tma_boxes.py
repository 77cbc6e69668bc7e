# Tensor-descriptor boxes in pipelined K loops as the tensor memory accelerator copies them on
# Hopper (tests/gpu/GpuRunTmaTest.cpp runs this on the simulator and on the GPU): 128 x 128 x 64
# tiles over 8 warps, sides that are not multiples of the blocks (partial and out-of-bounds boxes,
# zero-filled), B given N x K (`a @ b.T`) and K x N (`a @ b`), and padding_option="nan".
import torch
import triton
import triton.language as tl


@triton.jit
def mm_bt(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PAD: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK], padding_option=PAD)
    b = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a.load([om, k * BK]), b.load([on, k * BK]).T)
    c.store([om, on], acc)


@triton.jit
def mm(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
    c = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a.load([om, k * BK]), b.load([k * BK, on]))
    c.store([om, on], acc)


def close(c, ref):
    return bool(torch.allclose(c, ref, atol=5e-2, rtol=1e-2))


torch.manual_seed(1)
M, N, K = 200, 136, 200
for dtype in (torch.float16, torch.bfloat16):
    a = torch.randn(M, K, device='cuda', dtype=dtype)
    bt = torch.randn(N, K, device='cuda', dtype=dtype)
    b = torch.randn(K, N, device='cuda', dtype=dtype)
    grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
    c = torch.full((M, N), float('nan'), device='cuda')
    mm_bt[grid](a, bt, c, M, N, K, BM=128, BN=128, BK=64, PAD='zero', num_warps=8, num_stages=3)
    print(str(dtype), 'a @ b.T:', close(c, a.float() @ bt.float().t()))
    c = torch.full((M, N), float('nan'), device='cuda')
    mm[grid](a, b, c, M, N, K, BM=128, BN=128, BK=64, num_warps=8, num_stages=3)
    print(str(dtype), 'a @ b:', close(c, a.float() @ b.float()))

# NaN padding: the last K box of A reads NaN past K = 200, so every result is NaN; with K = 192
# (a multiple of 64) no box crosses K and nothing is NaN.
a = torch.randn(M, K, device='cuda', dtype=torch.float16)
bt = torch.randn(N, K, device='cuda', dtype=torch.float16)
c = torch.zeros((M, N), device='cuda')
mm_bt[(2, 2)](a, bt, c, M, N, K, BM=128, BN=128, BK=64, PAD='nan', num_warps=8, num_stages=3)
print('nan padding past K:', bool(torch.isnan(c).all()))
a2 = a[:, :192].contiguous()
bt2 = bt[:, :192].contiguous()
mm_bt[(2, 2)](a2, bt2, c, M, N, 192, BM=128, BN=128, BK=64, PAD='nan', num_warps=8, num_stages=3)
print('nan padding inside K:', bool(torch.isnan(c).any()), close(c, a2.float() @ bt2.float().t()))
