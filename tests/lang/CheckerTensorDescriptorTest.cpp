// tl.make_tensor_descriptor in the checker: a descriptor's accesses become masked loads and stores
// of its box (every dim bounds-checked), and Triton 3.6's compile-time rules on descriptors are
// errors at the call's file:line:col that say what to change.
#include <gtest/gtest.h>

#include "core/ir/IRPrinter.h"
#include "core/kernel/LaunchSites.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::lang {
namespace {

using ir::DType;

constexpr const char* kHeader = R"(import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
)";

// The result's diagnostics and IR point into the program's source: both live as long as this does.
struct Checked {
  std::shared_ptr<Program> program;
  CheckResult result;
};

Checked checkBody(const std::string& body, DType elem = DType::FP32) {
  auto program = test::programFrom(std::string(kHeader) + body);
  Specialization spec;
  spec.args = {ArgSpec::pointer(elem), ArgSpec::pointer(elem), ArgSpec::scalar(DType::I32), ArgSpec::scalar(DType::I32),
               ArgSpec::constexprValue(ConstValue::integer(16)), ArgSpec::constexprValue(ConstValue::integer(16))};
  CheckResult result = checkKernel(*program, "k", spec);
  return {std::move(program), std::move(result)};
}

std::string firstError(const std::string& body, DType elem = DType::FP32) {
  const Checked c = checkBody(body, elem);
  const CheckResult& r = c.result;
  EXPECT_FALSE(r.ok()) << body;
  return r.ok() ? std::string() : r.diagnostics.items().front().headline();
}

TEST(CheckerTensorDescriptor, LoadAndStoreBecomeMaskedAccessesOfTheBox) {
  const Checked c = checkBody(
      "    d = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])\n"
      "    o = tl.make_tensor_descriptor(y_ptr, [M, N], [N, 1], [BM, BN])\n"
      "    t = d.load([tl.program_id(0) * BM, 0])\n"
      "    o.store([tl.program_id(0) * BM, 0], t * 2)\n"
      "    tl.store_tensor_descriptor(o, [0, BN], tl.load_tensor_descriptor(d, [0, BN]))\n");
  const CheckResult& r = c.result;
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const std::string ir = ir::IRPrinter().print(*r.kernel);
  // Two loads and two stores of 16x16 tiles, each with a mask (the box's bounds).
  size_t loads = 0, stores = 0;
  for (size_t p = ir.find("fp32> = load %"); p != std::string::npos; p = ir.find("fp32> = load %", p + 1)) ++loads;
  for (size_t p = ir.find("  store %"); p != std::string::npos; p = ir.find("  store %", p + 1)) ++stores;
  EXPECT_EQ(loads, 2u) << ir;
  EXPECT_EQ(stores, 2u) << ir;
  EXPECT_NE(ir.find("let t: tensor<16x16xfp32> = load %32, mask=%45, other=%46"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("= load %32\n"), std::string::npos) << "every access is masked";
  // The base's alignment and the row stride are checked at run time (device assertions).
  EXPECT_NE(ir.find("base must be 16-byte aligned"), std::string::npos) << ir;
  EXPECT_NE(ir.find("strides[0] * 4 bytes must be a multiple of 16"), std::string::npos) << ir;
}

TEST(CheckerTensorDescriptor, AttributesAndAtomicAdd) {
  const Checked c = checkBody(
      "    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])\n"
      "    tl.static_assert(d.block_shape[1] == BN)\n"
      "    tl.static_assert(d.dtype == tl.float32)\n"
      "    d.atomic_add([0, 0], tl.full((BM, BN), 1.0, tl.float32))\n");
  const CheckResult& r = c.result;
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  EXPECT_NE(ir::IRPrinter().print(*r.kernel).find("atomic"), std::string::npos);
}

TEST(CheckerTensorDescriptor, TritonsRulesAreErrorsAtTheCall) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"    d = tl.make_tensor_descriptor(x_ptr, [M, N], [BN, 2], [BM, BN])\n",
       "k.py:6:50: error: tl.make_tensor_descriptor strides[-1] must be 1 (the last dimension contiguous), but it is 2; "
       "transpose the tensor or describe it with its contiguous dimension last"},
      {"    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, 24])\n",
       "k.py:6:58: error: tl.make_tensor_descriptor block_shape [16x24] must have power-of-two dimensions, like every Triton block"},
      {"    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, 2])\n",
       "k.py:6:58: error: tl.make_tensor_descriptor block_shape needs at least 16 bytes in the last dimension (TMA's minimum), "
       "but 2 * 4 = 8 bytes; make block_shape[-1] at least 4"},
      {"    d = tl.make_tensor_descriptor(x_ptr, [M, N], [6, 1], [BM, BN])\n",
       "k.py:6:50: error: tl.make_tensor_descriptor strides[0] * 4 bytes must be a multiple of 16 (TMA's row alignment); pad the rows of the tensor to a "
       "multiple of 4 elements"},
      {"    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN], padding_option='nan')\n",
       "k.py:6:68: error: tl.make_tensor_descriptor padding_option 'nan' needs floating-point elements, not i32"},
      {"    d = tl.make_tensor_descriptor(x_ptr, [M], [N, 1], [BM, BN])\n",
       "k.py:6:42: error: tl.make_tensor_descriptor shape has 1 entry but the descriptor has 2 dimensions; give one per dimension"},
      {"    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])\n    d.store([0, 0], tl.zeros((BM,), tl.int32))\n",
       "k.py:7:21: error: tensor_descriptor.store value has shape [16] but the descriptor's block_shape is [16x16]; store a whole block"},
      {"    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])\n    t = d.laod([0, 0])\n",
       "k.py:7:11: error: a tensor descriptor has no attribute 'laod'; did you mean 'load'?"},
      {"    t = tl.load_tensor_descriptor(x_ptr, [0, 0])\n",
       "k.py:6:35: error: tl.load_tensor_descriptor needs a tensor descriptor made by tl.make_tensor_descriptor, not a scalar of type ptr<i32>"},
  };
  for (const auto& [body, expected] : cases) {
    EXPECT_EQ(firstError(body, DType::I32), expected) << body;
  }
}

TEST(CheckerTensorDescriptor, AtomicDTypesFollowTriton) {
  const std::string err = firstError(
      "    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])\n"
      "    d.atomic_max([0, 0], tl.zeros((BM, BN), tl.float32))\n");
  EXPECT_EQ(err, "k.py:7:5: error: tensor descriptor atomic_max supports u32, i32, u64, i64 elements, not fp32");
}

TEST(CheckerTensorDescriptor, CheckWithoutLaunchesTakesTheBaseForAPointer) {
  // `tilescope-cli check`: a parameter used only as a descriptor's base is inferred to be a pointer.
  auto program = test::programFrom(std::string(kHeader) +
                                   "    d = tl.make_tensor_descriptor(x_ptr, [M, N], [N, 1], [BM, BN])\n"
                                   "    d.store([0, 0], d.load([0, BN]))\n");
  const DiagnosticList d = checkAllKernels(*program, {});
  EXPECT_FALSE(d.hasErrors()) << d.render();
}

}  // namespace
}  // namespace tilescope::lang
