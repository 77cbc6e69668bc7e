# A grouped matmul whose matrices are reached through tables of their data_ptr() addresses
# (tests/gpu/GpuRunLoadedPointerTest.cpp runs it on the simulator and on the GPU).
import torch
import triton
import triton.language as tl

@triton.jit
def group_mm(a_table, b_table, c_table, sizes, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    g = tl.program_id(0)
    tile = tl.program_id(1)
    M = tl.load(sizes + g * 3)
    N = tl.load(sizes + g * 3 + 1)
    K = tl.load(sizes + g * 3 + 2)
    tiles_n = tl.cdiv(N, BN)
    if tile < tl.cdiv(M, BM) * tiles_n:
        a = tl.load(a_table + g).to(tl.pointer_type(tl.float16))
        b = tl.load(b_table + g).to(tl.pointer_type(tl.float16))
        c = tl.load(c_table + g).to(tl.pointer_type(tl.float32))
        rm = (tile // tiles_n) * BM + tl.arange(0, BM)
        rn = (tile % tiles_n) * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, K, BK):
            x = tl.load(a + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
            y = tl.load(b + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc += tl.dot(x, y)
        tl.store(c + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))

torch.manual_seed(0)
shapes = [(40, 24, 48), (16, 64, 32), (33, 17, 20)]
A = [torch.randn(m, k, device='cuda', dtype=torch.float16) for m, n, k in shapes]
B = [torch.randn(k, n, device='cuda', dtype=torch.float16) for m, n, k in shapes]
C = [torch.empty(m, n, device='cuda', dtype=torch.float32) for m, n, k in shapes]
a_table = torch.tensor([t.data_ptr() for t in A], device='cuda')
b_table = torch.tensor([t.data_ptr() for t in B], device='cuda')
c_table = torch.tensor([t.data_ptr() for t in C], device='cuda')
sizes = torch.tensor([v for s in shapes for v in s], device='cuda', dtype=torch.int32)
group_mm[(len(shapes), 16)](a_table, b_table, c_table, sizes, BM=16, BN=16, BK=16)
ok = all(torch.allclose(c, a.float() @ b.float(), atol=1e-2, rtol=1e-2) for a, b, c in zip(A, B, C))
print('grouped matmul matches torch:', ok)
