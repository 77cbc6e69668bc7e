# A grouped matmul through tensor descriptors made on the device from tables of data_ptr() addresses,
# as Triton's TMA grouped GEMM does (tests/gpu/GpuRunTensorDescriptorTest.cpp runs it on the
# simulator and on the GPU). Matrix sides that are not multiples of the blocks give partial boxes.
import torch
import triton
import triton.language as tl

@triton.jit
def grouped_mm_desc(a_table, b_table, c_table, sizes, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    g = tl.program_id(0)
    tile = tl.program_id(1)
    M = tl.load(sizes + g * 3)
    N = tl.load(sizes + g * 3 + 1)
    K = tl.load(sizes + g * 3 + 2)
    tiles_n = tl.cdiv(N, BN)
    if tile < tl.cdiv(M, BM) * tiles_n:
        a_ptr = tl.load(a_table + g).to(tl.pointer_type(tl.float16))
        b_ptr = tl.load(b_table + g).to(tl.pointer_type(tl.float16))
        c_ptr = tl.load(c_table + g).to(tl.pointer_type(tl.float32))
        a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BK, BN])
        c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
        om = (tile // tiles_n) * BM
        on = (tile % tiles_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            acc += tl.dot(a_desc.load([om, k * BK]), b_desc.load([k * BK, on]))
        c_desc.store([om, on], acc)

def alloc_fn(size, alignment, stream):
    return torch.empty(size, device='cuda', dtype=torch.int8)

triton.set_allocator(alloc_fn)
torch.manual_seed(0)
shapes = [(40, 24, 48), (16, 64, 32), (33, 16, 24)]
A = [torch.randn(m, k, device='cuda', dtype=torch.float16) for m, n, k in shapes]
B = [torch.randn(k, n, device='cuda', dtype=torch.float16) for m, n, k in shapes]
C = [torch.empty(m, n, device='cuda', dtype=torch.float32) for m, n, k in shapes]
a_table = torch.tensor([t.data_ptr() for t in A], device='cuda')
b_table = torch.tensor([t.data_ptr() for t in B], device='cuda')
c_table = torch.tensor([t.data_ptr() for t in C], device='cuda')
sizes = torch.tensor([v for s in shapes for v in s], device='cuda', dtype=torch.int32)
grouped_mm_desc[(len(shapes), 16)](a_table, b_table, c_table, sizes, BM=16, BN=16, BK=16)
ok = all(torch.allclose(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2) for a, b, c in zip(A, B, C))
print('descriptor grouped matmul matches torch:', ok)

# B given transposed (N x K, K contiguous) and multiplied as a @ b.T, with 64-wide blocks: on a
# Hopper GPU the K loop runs on wgmma reading B K-major from the cp.async ring; K = 136 and 72 cut
# the last box inside a 16-byte chunk's row (the mask `k < K` is checked at both ends of a chunk).
@triton.jit
def grouped_mm_desc_bt(a_table, bt_table, c_table, sizes, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    g = tl.program_id(0)
    tile = tl.program_id(1)
    M = tl.load(sizes + g * 3)
    N = tl.load(sizes + g * 3 + 1)
    K = tl.load(sizes + g * 3 + 2)
    tiles_n = tl.cdiv(N, BN)
    if tile < tl.cdiv(M, BM) * tiles_n:
        a_desc = tl.make_tensor_descriptor(tl.load(a_table + g).to(tl.pointer_type(tl.float16)), shape=[M, K],
                                           strides=[K, 1], block_shape=[BM, BK])
        bt_desc = tl.make_tensor_descriptor(tl.load(bt_table + g).to(tl.pointer_type(tl.float16)), shape=[N, K],
                                            strides=[K, 1], block_shape=[BN, BK])
        c_desc = tl.make_tensor_descriptor(tl.load(c_table + g).to(tl.pointer_type(tl.float32)), shape=[M, N],
                                           strides=[N, 1], block_shape=[BM, BN])
        om = (tile // tiles_n) * BM
        on = (tile % tiles_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            acc += tl.dot(a_desc.load([om, k * BK]), bt_desc.load([on, k * BK]).T)
        c_desc.store([om, on], acc)

shapes = [(130, 72, 136), (64, 128, 64), (33, 200, 72)]
A = [torch.randn(m, k, device='cuda', dtype=torch.float16) for m, n, k in shapes]
BT = [torch.randn(n, k, device='cuda', dtype=torch.float16) for m, n, k in shapes]
C = [torch.full((m, n), float('nan'), device='cuda', dtype=torch.float32) for m, n, k in shapes]
a_table = torch.tensor([t.data_ptr() for t in A], device='cuda')
bt_table = torch.tensor([t.data_ptr() for t in BT], device='cuda')
c_table = torch.tensor([t.data_ptr() for t in C], device='cuda')
sizes = torch.tensor([v for s in shapes for v in s], device='cuda', dtype=torch.int32)
grouped_mm_desc_bt[(len(shapes), 16)](a_table, bt_table, c_table, sizes, BM=64, BN=64, BK=64, num_warps=4, num_stages=3)
ok = all(torch.allclose(c, a.float() @ bt.float().t(), atol=1e-2, rtol=1e-2) for a, bt, c in zip(A, BT, C))
print('descriptor grouped matmul with b.T matches torch:', ok)
