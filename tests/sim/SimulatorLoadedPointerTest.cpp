// Integers turned into pointers (`addr.to(tl.pointer_type(t))`) in the simulator: an address inside
// a tensor's simulated window is that tensor; a device address of the GPU backend is translated
// through LaunchOptions::addressWindows; any other address is an out-of-bounds error naming it.
#include <gtest/gtest.h>

#include "core/sim/Simulator.h"
#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::sim {
namespace {

using ir::DType;

// copy(addr, out_ptr, N): out[i] = ((float*)addr)[i] for i < N, with addr an int64 argument.
std::shared_ptr<const ir::Kernel> copyFromAddress() {
  auto program = lang::test::programFrom(R"(import triton
import triton.language as tl

@triton.jit
def copy(addr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    src = addr.to(tl.pointer_type(tl.float32))
    tl.store(out_ptr + offs, tl.load(src + offs))
)",
                                         "copy.py");
  lang::Specialization spec;
  spec.args = {lang::ArgSpec::scalar(DType::I64), lang::ArgSpec::pointer(DType::FP32),
               lang::ArgSpec::constexprValue(lang::ConstValue::integer(4))};
  lang::CheckResult r = lang::checkKernel(*program, "copy", spec);
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r.kernel;
}

TEST(SimulatorLoadedPointer, ASimulatedAddressIsItsTensor) {
  Memory mem;
  const int src = mem.createFromDoubles("src", DType::FP32, {6}, std::vector<double>{1, 2, 3, 4, 5, 6});
  const int out = mem.create("out", DType::FP32, {4});
  Simulator sim(mem);
  auto r = sim.launch(*copyFromAddress(), Grid{1},
                      {LaunchArg::integer(DeviceAddress::make(src, 2 * 4)), LaunchArg::tensor(out)});
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  EXPECT_EQ(mem.readDoubles(out), (std::vector<double>{3, 4, 5, 6}));
}

TEST(SimulatorLoadedPointer, DeviceAddressesAreTranslatedThroughTheirWindow) {
  Memory mem;
  const int src = mem.createFromDoubles("src", DType::FP32, {6}, std::vector<double>{1, 2, 3, 4, 5, 6});
  const int out = mem.create("out", DType::FP32, {4});
  const int64_t device = 0x7f0000001000;
  LaunchOptions o;
  o.addressWindows = {{static_cast<uint64_t>(device), 6 * 4, DeviceAddress::make(src, 0)}};
  Simulator sim(mem);
  auto r = sim.launch(*copyFromAddress(), Grid{1}, {LaunchArg::integer(device + 4), LaunchArg::tensor(out)}, o);
  ASSERT_EQ(r.status, LaunchStatus::Ok) << r.diagnostics.render();
  EXPECT_EQ(mem.readDoubles(out), (std::vector<double>{2, 3, 4, 5}));
}

TEST(SimulatorLoadedPointer, AnAddressInNoTensorIsOutOfBoundsNamingIt) {
  Memory mem;
  mem.createFromDoubles("src", DType::FP32, {6}, std::vector<double>{1, 2, 3, 4, 5, 6});
  const int out = mem.create("out", DType::FP32, {4});
  Simulator sim(mem);
  // Without a window the device address is no simulated tensor's.
  auto r = sim.launch(*copyFromAddress(), Grid{1}, {LaunchArg::integer(0x7f0000001004), LaunchArg::tensor(out)});
  ASSERT_EQ(r.status, LaunchStatus::Error);
  const std::string head = r.diagnostics.items().front().headline();
  EXPECT_NE(head.find("copy.py:8:30: error: out-of-bounds load in kernel 'copy', program pid (0, 0, 0)"), std::string::npos) << head;
  EXPECT_NE(head.find("the pointer does not point into any live tensor (lane 0 at address 0x7f0000001004, in no tensor, "
                      "lane 1 at address 0x7f0000001008, in no tensor"),
            std::string::npos)
      << head;
  EXPECT_NE(r.diagnostics.render().find("addresses of live tensors (tensor.data_ptr())"), std::string::npos);
}

}  // namespace
}  // namespace tilescope::sim
