// Kernel-language features reached from host code on embedded CPython: warmup and compiled kernels, spin
// locks, libdevice, join/split/interleave, block pointers, flip/sort/topk/cat, reductions and scans
// with combine functions, gather and histogram, each against torch.
#include <gtest/gtest.h>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/gpu/runtime/Nvrtc.h"
#include "tests/python/PythonTestUtil.h"

using tilescope::testing::PythonRun;
using tilescope::testing::kAddKernel;
using tilescope::testing::kPrelude;

namespace {

// The interpreter tests' names for the same things.
PythonRun runPy(const std::string& code) { return tilescope::testing::runScript(code); }
std::string pyError(const std::string& code) { return tilescope::testing::scriptError(code); }

}  // namespace


// Triton's fused-softmax tutorial sizes its persistent grid from a warmed-up kernel's registers and
// shared memory, then launches the compiled kernel with every parameter positionally.
TEST(EmbeddedKernelFeatures, WarmupReportsResourcesAndTheCompiledKernelLaunches) {
  if (!tilescope::gpu::Nvrtc::instance().available()) GTEST_SKIP() << "NVRTC not found: " << tilescope::gpu::Nvrtc::instance().unavailableReason();
  const PythonRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        mask = col_offsets < n_cols
        row = tl.load(row_start_ptr + col_offsets, mask=mask, other=-float('inf'))
        num = tl.exp(row - tl.max(row, axis=0))
        tl.store(output_ptr + row_idx * output_row_stride + col_offsets, num / tl.sum(num, axis=0), mask=mask)

x = torch.randn(37, 300)
y = torch.empty_like(x)
kernel = softmax_kernel.warmup(y, x, x.stride(0), y.stride(0), 37, 300, BLOCK_SIZE=512, num_stages=2, num_warps=8, grid=(1, ))
kernel._init_handles()
print(0 < kernel.n_regs <= 255, kernel.n_spills, kernel.metadata.shared > 0, kernel.metadata.num_warps, kernel.metadata.num_stages, kernel.name)
occupancy = min(65536 // (kernel.n_regs * 32 * 8), 232448 // kernel.metadata.shared)
kernel[(min(5 * occupancy, 37), 1, 1)](y, x, x.stride(0), y.stride(0), 37, 300, 512, 2)
print(torch.allclose(y, torch.softmax(x, axis=1), atol=1e-6))
cuda, ptx = kernel.asm['cuda'], kernel.asm['ptx']
print(sorted(kernel.asm.keys()), 'void __launch_bounds__(256) ts_softmax_kernel(' in cuda, '.entry ts_softmax_kernel(' in ptx)
)");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << "\n" << r.traceback;
  EXPECT_EQ(r.out, "True 0 True 8 2 softmax_kernel\nTrue\n['cuda', 'ptx'] True True\n");
  EXPECT_EQ(pyError(std::string(kPrelude) + kAddKernel + "x = torch.ones(4)\nadd_kernel.warmup(x, x, x, 4, BLOCK_SIZE=4)"),
            "TypeError: JITFunction.warmup() missing 1 required keyword-only argument: 'grid'");
}

// The race check knows Triton's spin-lock idiom (layer-norm backward's partial sums): stores made
// while holding the same lock are ordered by it; the same stores without the lock, or after it is
// released, are still races.
TEST(EmbeddedKernelFeatures, StoresUnderOneSpinLockAreNotRaces) {
  const std::string kernel = R"(
@triton.jit
def accumulate(Acc, Lock, LOCKED: tl.constexpr, RELEASE_FIRST: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, 8)
    if LOCKED:
        while tl.atomic_cas(Lock, 0, 1) == 1:
            pass
        if RELEASE_FIRST:
            tl.atomic_xchg(Lock, 0)
    acc = tl.load(Acc + offs)
    tl.store(Acc + offs, acc + pid + 1)
    if LOCKED and not RELEASE_FIRST:
        tl.debug_barrier()
        tl.atomic_xchg(Lock, 0)

def run(locked, release_first):
    acc = torch.zeros(8, dtype=torch.int32)
    lock = torch.zeros(1, dtype=torch.int32)
    accumulate[(6,)](acc, lock, LOCKED=locked, RELEASE_FIRST=release_first)
    return acc.tolist() == [21] * 8
)";
  const std::string race = "were written by more than one program";
  PythonRun r = runPy(std::string(kPrelude) + kernel + "print(run(True, False))");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << "\n" << r.traceback;
  EXPECT_EQ(r.out, "True\n");
  EXPECT_EQ(r.err.find(race), std::string::npos) << r.err;
  for (const char* unprotected : {"run(False, False)", "run(True, True)"}) {
    r = runPy(std::string(kPrelude) + kernel + unprotected);
    ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << "\n" << r.traceback;
    EXPECT_NE(r.err.find(race), std::string::npos) << unprotected << "\n" << r.err;
  }
}

// CUDA's libdevice as kernels reach it: tl.extra.cuda.libdevice, and the imports of both spellings.
TEST(EmbeddedKernelFeatures, LibdeviceFunctionsAreTheMatchingTlBuiltins) {
  const PythonRun r = runPy(std::string(kPrelude) + R"(
from triton.language.extra import libdevice
from triton.language.extra.cuda import libdevice as cuda_libdevice

@triton.jit
def k(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.extra.cuda.libdevice.tanh(x) + libdevice.fabs(x) + cuda_libdevice.fmax(x, 0.25) + libdevice.sqrt(libdevice.fabs(x))
    tl.store(Y + offs, y)

x = torch.linspace(-1, 1, 8)
y = torch.empty(8)
k[(1,)](x, y, N=8)
ref = torch.tanh(x) + x.abs() + torch.maximum(x, torch.tensor(0.25)) + x.abs().sqrt()
print(torch.allclose(y, ref, atol=1e-6), x[0].item(), x[7].item(), abs(x[3].item() - (-1 + 3 * 2 / 7)) < 1e-7, x.dtype)
)");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << "\n" << r.traceback;
  // linspace ends exactly on its bounds.
  EXPECT_EQ(r.out, "True -1.0 1.0 True torch.float32\n");
}

// tl.join / tl.split / tl.interleave, bit for bit (-0.0 and NaN survive a split), for floats, bools
// and scalars.
TEST(EmbeddedKernelFeatures, JoinSplitAndInterleave) {
  const PythonRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def k(X, Y, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    a, b = tl.split(tl.reshape(x, (N // 2, 2)))
    tl.store(Y + offs, tl.reshape(tl.join(b, a), (N,)))
    tl.store(Z + offs, tl.interleave(a * 10, b))

@triton.jit
def flags(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    p, q = tl.split(tl.reshape(tl.load(X + offs) > 0, (N // 2, 2)))
    tl.store(Y + tl.arange(0, N // 2), (p & ~q).to(tl.int8))

@triton.jit
def scalars(X, Y):
    a, b = tl.split(tl.join(tl.load(X), tl.load(X + 1)))
    tl.store(Y, b)
    tl.store(Y + 1, a)

x = torch.tensor([0.0, -0.0, 1.5, float('nan'), -2.0, 3.0, 4.0, 5.0])
y = torch.empty(8)
z = torch.empty(8)
k[(1,)](x, y, z, N=8)
print(y.tolist(), z.tolist())
f = torch.empty(4, dtype=torch.int8)
flags[(1,)](torch.tensor([1, 0, 1, 1, 0, 1, 0, 0], dtype=torch.int32), f, N=8)
s = torch.empty(2, dtype=torch.int16)
scalars[(1,)](torch.tensor([7, 9], dtype=torch.int16), s)
print(f.tolist(), s.tolist())
)");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << "\n" << r.traceback;
  EXPECT_EQ(r.out, "[-0.0, 0.0, nan, 1.5, 3.0, -2.0, 5.0, 4.0] [0.0, -0.0, 15.0, nan, -20.0, 3.0, 40.0, 5.0]\n[1, 0, 0, 0] [9, 7]\n");
}

// Block pointers (tl.make_block_ptr / tl.advance) as Triton's block-pointer matmul uses them: the
// K loop carries them, boundary_check masks the ragged edges (K = 72 is not a multiple of BK),
// padding_option fills what lies outside, and a block pointer can go into a helper.
TEST(EmbeddedKernelFeatures, BlockPointersLoadAdvanceAndStoreWithBoundaryChecks) {
  PythonRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def load_block(bp):
    return tl.load(bp, boundary_check=(0, 1), padding_option="zero")

@triton.jit
def bp_matmul(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak), offsets=(pid_m * BM, 0),
                             block_shape=(BM, BK), order=(1, 0))
    b_bp = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn), offsets=(0, pid_n * BN),
                             block_shape=(BK, BN), order=(0, 1))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.dot(load_block(a_bp), load_block(b_bp), input_precision="ieee")
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn), offsets=(pid_m * BM, pid_n * BN),
                             block_shape=(BM, BN), order=(1, 0))
    tl.store(c_bp, acc, boundary_check=(0, 1))

@triton.jit
def padded(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    x_bp = tl.make_block_ptr(x_ptr, (n,), (1,), (tl.program_id(0) * BLOCK,), (BLOCK,), (0,))
    x = tl.load(x_bp, boundary_check=(0,), padding_option="nan")
    tl.store(y_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), x)

torch.manual_seed(0)
M, N, K = 50, 40, 72
a = torch.randn((M, K))
b = torch.randn((N, K)).t()  # column-major B: strides (1, K)
c = torch.full((M, N), 5.0)
bp_matmul[(triton.cdiv(M, 32), triton.cdiv(N, 32))](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                                     c.stride(0), c.stride(1), BM=32, BN=32, BK=16)
print((c.double() - a.double() @ b.double()).abs().max().item() < 1e-4)

x = torch.arange(100, dtype=torch.float32)
y = torch.zeros(128)
padded[(2,)](x, y, 100, BLOCK=64)
print(torch.equal(y[:100], x), torch.isnan(y[100:]).all().item())
)");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << r.err;
  EXPECT_EQ(r.out, "True\nTrue True\n");
}

// tl.flip, tl.sort (bitonic, ascending and descending, with ties) and tl.cat, against torch's.
TEST(EmbeddedKernelFeatures, FlipSortAndCatMatchTorch) {
  PythonRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def reorder(x_ptr, flip_ptr, flip0_ptr, sort_ptr, sortd_ptr, cat_ptr, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(flip_ptr + offs, tl.flip(x, 1))
    tl.store(flip0_ptr + offs, tl.flip(x, dim=0))
    tl.store(sort_ptr + offs, tl.sort(x))
    tl.store(sortd_ptr + offs, tl.sort(x, descending=True))
    c = tl.cat(x, x * 2, can_reorder=True)
    tl.store(cat_ptr + tl.arange(0, 2 * R)[:, None] * C + tl.arange(0, C)[None, :], c)

torch.manual_seed(0)
for dtype in [torch.float32, torch.int32, torch.float16]:
    R, C = 4, 16
    x = (torch.randn(R, C) * 10).to(dtype)
    x[0, :4] = x[0, 4:8]
    outs = [torch.empty(R, C, dtype=dtype) for _ in range(4)]
    cat = torch.empty(2 * R, C, dtype=dtype)
    reorder[(1,)](x, *outs, cat, R=R, C=C)
    print(torch.equal(outs[0], x.flip(1)), torch.equal(outs[1], x.flip(0)),
          torch.equal(outs[2], torch.sort(x, dim=1).values), torch.equal(outs[3], torch.sort(x, dim=1, descending=True).values),
          torch.equal(cat, torch.cat([x, x * 2], 0)))
)");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True True True\nTrue True True True True\nTrue True True True True\n");
}

// tl.topk: the k largest along the last dim, largest first (torch.topk's values); k = n is the
// descending sort; -0.0 keeps its sign.
TEST(EmbeddedKernelFeatures, TopkMatchesTorch) {
  PythonRun r = runPy(std::string(kPrelude) + R"(
@triton.jit
def top(x_ptr, t4_ptr, t1_ptr, t16_ptr, R: tl.constexpr, C: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])
    tl.store(t4_ptr + tl.arange(0, R)[:, None] * 4 + tl.arange(0, 4)[None, :], tl.topk(x, 4))
    tl.store(t1_ptr + tl.arange(0, R)[:, None] + tl.arange(0, 1)[None, :], tl.topk(x, 1, dim=1))
    tl.store(t16_ptr + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :], tl.topk(x, C))

torch.manual_seed(4)
for dtype in [torch.float32, torch.int32, torch.float16]:
    R, C = 4, 16
    x = (torch.randn(R, C) * 10).to(dtype)
    x[1, :3] = x[1, 5]  # ties
    t4 = torch.empty(R, 4, dtype=dtype); t1 = torch.empty(R, 1, dtype=dtype); t16 = torch.empty(R, C, dtype=dtype)
    top[(1,)](x, t4, t1, t16, R=R, C=C)
    print(torch.equal(t4, torch.topk(x, 4, dim=1).values), torch.equal(t1, x.max(dim=1, keepdim=True).values),
          torch.equal(t16, torch.sort(x, dim=1, descending=True).values))
z = -torch.zeros(1, 16)
z[0, 0] = -1.0
t4 = torch.empty(1, 4); t1 = torch.empty(1, 1); t16 = torch.empty(1, 16)
top[(1,)](z, t4, t1, t16, R=1, C=16)
print((1.0 / t4 == float('-inf')).all().item(), (t4 == 0).all().item())
)");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True\nTrue True True\nTrue True True\nTrue True\n");
}

// tl.reduce and tl.associative_scan with user combine functions that are one operation (a + b,
// tl.maximum, a * b): results as torch's, in the input's dtype (int8 wraps).
TEST(EmbeddedKernelFeatures, ReduceAndScanWithCombineFunctions) {
  PythonRun r = runPy(std::string(kPrelude) + R"(

@triton.jit
def add(a, b):
    return a + b


@triton.jit
def mul(x, y):
    "product"
    return y * x


@triton.jit
def bigger(a, b):
    return tl.maximum(a, b)


@triton.jit
def k(x_ptr, i_ptr, s_ptr, m_ptr, c_ptr, p_ptr, x8_ptr, s8_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(x_ptr + offs)
    tl.store(s_ptr, tl.reduce(x, 0, add))
    tl.store(m_ptr, tl.reduce(x, axis=0, combine_fn=bigger))
    tl.store(c_ptr + offs, tl.associative_scan(x, 0, add))
    tl.store(p_ptr + offs, tl.associative_scan(x, 0, mul, reverse=True))
    x8 = tl.load(x8_ptr + offs)
    tl.store(s8_ptr, tl.reduce(x8, 0, add))


x = torch.rand(16) + 0.5
x8 = torch.arange(16, dtype=torch.int8) * 20
s = torch.empty(1); m = torch.empty(1); c = torch.empty(16); p = torch.empty(16); s8 = torch.empty(1, dtype=torch.int8)
k[(1,)](x, None, s, m, c, p, x8, s8, N=16)
print(torch.allclose(s, x.sum()), m.item() == x.max().item(), torch.allclose(c, x.cumsum(0)),
      torch.allclose(p, x.flip(0).cumprod(0).flip(0)), s8.dtype, s8.item() == ((x8.int().sum().item() + 128) % 256) - 128)
)");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True True torch.int8 True\n");
}

// tl.gather along either axis (bit for bit: -0.0 survives) and tl.histogram with and without a mask.
TEST(EmbeddedKernelFeatures, GatherAndHistogramMatchTorch) {
  PythonRun r = runPy(std::string(kPrelude) + R"(

@triton.jit
def k(src_ptr, idx_ptr, out_ptr, out2_ptr, h_ptr, hm_ptr, R: tl.constexpr, C: tl.constexpr, B: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    src = tl.load(src_ptr + offs)
    idx = tl.load(idx_ptr + offs)
    tl.store(out_ptr + offs, tl.gather(src, idx % C, 1))
    tl.store(out2_ptr + offs, tl.gather(src, idx % R, axis=0))
    tl.store(h_ptr + tl.arange(0, B), tl.histogram(idx, B))
    tl.store(hm_ptr + tl.arange(0, B), tl.histogram(idx, B, mask=idx < 5))


R, C, B = 8, 16, 16
src = torch.randn(R, C)
src[0, 0] = -0.0
idx = torch.randint(0, 20, (R, C), dtype=torch.int32)
out = torch.empty(R, C); out2 = torch.empty(R, C)
h = torch.empty(B, dtype=torch.int32); hm = torch.empty(B, dtype=torch.int32)
k[(1,)](src, idx, out, out2, h, hm, R=R, C=C, B=B)
ref_h = torch.tensor([(idx == b).sum().item() for b in range(B)], dtype=torch.int32)
ref_hm = torch.tensor([(idx == b).sum().item() if b < 5 else 0 for b in range(B)], dtype=torch.int32)
print(torch.equal(out, torch.gather(src, 1, (idx % C).long())), torch.equal(out2, torch.gather(src, 0, (idx % R).long())),
      torch.equal(h, ref_h), torch.equal(hm, ref_hm))
)");
  ASSERT_TRUE(r.ok()) << r.outcome.errorName << ": " << r.outcome.errorValue << r.err;
  EXPECT_EQ(r.out, "True True True True\n");
}
