// Tensor descriptors (tl.make_tensor_descriptor) in the simulator: a box that reaches past the
// tensor's shape is padded on load (zero, or NaN with padding_option="nan") and clipped on store,
// never an error; a descriptor TMA could not use (misaligned base, rows not a multiple of 16 bytes)
// is a device assertion at the make_tensor_descriptor call saying what to fix.
#include <gtest/gtest.h>

#include <cmath>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::sim {
namespace {

using ir::DType;

constexpr const char* kSource = R"(import triton
import triton.language as tl

@triton.jit
def copy2d(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    dst = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    dst.store([om, on], src.load([om, on]) + 1)

@triton.jit
def box_sum(x_ptr, out_ptr, M, N, OM, ON, BM: tl.constexpr, BN: tl.constexpr, PAD: tl.constexpr):
    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN], padding_option=PAD)
    tl.store(out_ptr, tl.sum(tl.sum(d.load([OM, ON]), axis=1), axis=0))

@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [N, 1], [BK, BN])
    c_desc = tl.make_tensor_descriptor(c_ptr, [M, N], [N, 1], [BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a_desc.load([om, k * BK]), b_desc.load([k * BK, on]), input_precision="ieee")
    c_desc.store([om, on], acc)

@triton.jit
def shifted(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(x_ptr + 1, [M, N], [N, 1], [BM, BN])
    tl.store_tensor_descriptor(src, [0, 0], tl.zeros((BM, BN), tl.float32))
)";

lang::ArgSpec i32() { return lang::ArgSpec::scalar(DType::I32); }
lang::ArgSpec fp32Ptr() { return lang::ArgSpec::pointer(DType::FP32); }
lang::ArgSpec constant(lang::ConstValue v) { return lang::ArgSpec::constexprValue(std::move(v)); }
lang::ArgSpec constInt(int64_t v) { return constant(lang::ConstValue::integer(v)); }

std::shared_ptr<const ir::Kernel> kernel(const std::string& name, std::vector<lang::ArgSpec> args) {
  auto program = lang::test::programFrom(kSource, "desc.py");
  lang::Specialization spec;
  spec.args = std::move(args);
  lang::CheckResult r = lang::checkKernel(*program, name, spec);
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r.kernel;
}

std::vector<double> iota(size_t n, double mod = 1e9) {
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::fmod(static_cast<double>(i), mod);
  return v;
}

TEST(SimulatorTensorDescriptor, CopyWithPartialLastBoxesPadsAndClips) {
  // 5x12 in boxes of 4x8: the last box of each dim sticks out of the tensor.
  Memory mem;
  const int x = mem.createFromDoubles("x", DType::FP32, {5, 12}, iota(60));
  const int y = mem.create("y", DType::FP32, {5, 12}, TensorInit::Uninitialized);
  Simulator sim(mem);
  auto k = kernel("copy2d", {fp32Ptr(), fp32Ptr(), i32(), i32(), constInt(4), constInt(8)});
  ASSERT_TRUE(k);
  auto r = sim.launch(*k, Grid{2, 2}, {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::integer(5), LaunchArg::integer(12)});
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  std::vector<double> expected = iota(60);
  for (double& e : expected) e += 1;
  EXPECT_EQ(mem.readDoubles(y), expected);
}

double boxSum(const std::string& padding) {
  Memory mem;
  const int x = mem.createFromDoubles("x", DType::FP32, {5, 12}, iota(60));
  const int out = mem.create("out", DType::FP32, {1});
  Simulator sim(mem);
  auto k = kernel("box_sum", {fp32Ptr(), fp32Ptr(), i32(), i32(), i32(), i32(), constInt(4), constInt(8),
                              constant(lang::ConstValue::string(padding))});
  if (!k) return -1;
  // The box at (4, 8) holds x[4, 8:12] and 3 + 4 padded rows/columns outside the tensor.
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(x), LaunchArg::tensor(out), LaunchArg::integer(5), LaunchArg::integer(12),
                                   LaunchArg::integer(4), LaunchArg::integer(8)});
  EXPECT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  return mem.readDoubles(out)[0];
}

TEST(SimulatorTensorDescriptor, OutOfBoundsElementsOfABoxReadAsThePadding) {
  EXPECT_EQ(boxSum("zero"), 56 + 57 + 58 + 59);
  EXPECT_TRUE(std::isnan(boxSum("nan")));
}

TEST(SimulatorTensorDescriptor, MatmulThroughDescriptorsWithPartialBoxes) {
  const int64_t M = 20, N = 24, K = 28;
  Memory mem;
  const std::vector<double> a = iota(M * K, 7), b = iota(K * N, 5);
  const int ta = mem.createFromDoubles("a", DType::FP32, {M, K}, a);
  const int tb = mem.createFromDoubles("b", DType::FP32, {K, N}, b);
  const int tc = mem.create("c", DType::FP32, {M, N}, TensorInit::Uninitialized);
  Simulator sim(mem);
  auto k = kernel("matmul", {fp32Ptr(), fp32Ptr(), fp32Ptr(), i32(), i32(), i32(), constInt(16), constInt(16), constInt(16)});
  ASSERT_TRUE(k);
  auto r = sim.launch(*k, Grid{2, 2},
                      {LaunchArg::tensor(ta), LaunchArg::tensor(tb), LaunchArg::tensor(tc), LaunchArg::integer(M),
                       LaunchArg::integer(N), LaunchArg::integer(K)});
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  std::vector<double> expected(M * N, 0.0);
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j)
      for (int64_t kk = 0; kk < K; ++kk) expected[i * N + j] += a[i * K + kk] * b[kk * N + j];
  EXPECT_EQ(mem.readDoubles(tc), expected);  // small integers: exact in fp32
}

TEST(SimulatorTensorDescriptor, AMisalignedBaseIsReportedAtTheCall) {
  Memory mem;
  const int x = mem.createFromDoubles("x", DType::FP32, {4, 8}, iota(32));
  const int y = mem.create("y", DType::FP32, {4, 8});
  Simulator sim(mem);
  auto k = kernel("shifted", {fp32Ptr(), fp32Ptr(), i32(), i32(), constInt(4), constInt(4)});
  ASSERT_TRUE(k);
  auto r = sim.launch(*k, Grid{1}, {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::integer(4), LaunchArg::integer(8)});
  ASSERT_EQ(r.status, LaunchStatus::Error);
  EXPECT_EQ(r.diagnostics.items().front().headline(),
            "desc.py:31:11: error: device assertion failed in kernel 'shifted', program pid (0, 0, 0): tl.make_tensor_descriptor: "
            "base must be 16-byte aligned (TMA needs it); pass a tensor (or an offset into one) whose address is a multiple of 16");
}

TEST(SimulatorTensorDescriptor, RowsThatAreNotAMultipleOf16BytesAreReportedAtTheCall) {
  Memory mem;
  const int x = mem.createFromDoubles("x", DType::FP32, {5, 6}, iota(30));
  const int y = mem.create("y", DType::FP32, {5, 6});
  Simulator sim(mem);
  auto k = kernel("copy2d", {fp32Ptr(), fp32Ptr(), i32(), i32(), constInt(4), constInt(8)});
  ASSERT_TRUE(k);
  auto r = sim.launch(*k, Grid{2, 1}, {LaunchArg::tensor(x), LaunchArg::tensor(y), LaunchArg::integer(5), LaunchArg::integer(6)});
  ASSERT_EQ(r.status, LaunchStatus::Error);
  EXPECT_EQ(r.diagnostics.items().front().headline(),
            "desc.py:6:11: error: device assertion failed in kernel 'copy2d', program pid (0, 0, 0): tl.make_tensor_descriptor: "
            "strides[0] * 4 bytes must be a multiple of 16 (TMA's row alignment); pad the rows of the tensor to a multiple of 4 elements");
}

}  // namespace
}  // namespace tilescope::sim
