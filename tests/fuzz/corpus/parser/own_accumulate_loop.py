import triton
import triton.language as tl


@triton.jit
def dot_tiles(p, q, r, M, N, K, spm, spk, sqk, sqn, srm, srn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    i = tl.program_id(0)
    j = tl.program_id(1)
    rows = i * BM + tl.arange(0, BM)
    cols = j * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, tl.cdiv(K, BK)):
        kk = k0 * BK + ks
        lhs = tl.load(p + rows[:, None] * spm + kk[None, :] * spk,
                      mask=(rows[:, None] < M) & (kk[None, :] < K), other=0.0)
        rhs = tl.load(q + kk[:, None] * sqk + cols[None, :] * sqn,
                      mask=(kk[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(lhs, rhs, acc)
    out_mask = (rows[:, None] < M) & (cols[None, :] < N)
    tl.store(r + rows[:, None] * srm + cols[None, :] * srn, acc.to(r.dtype.element_ty), mask=out_mask)
