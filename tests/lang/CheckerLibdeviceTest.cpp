// The checker on libdevice's own math (libdevice.acos, libdevice.pow, ...): fp32/fp64 operands as in
// Triton's libdevice, promotion of mixed operands, and clear errors for other dtypes and for the
// libdevice functions tilescope does not have; and Triton 3.6's tl.add / tl.sub / tl.mul.
#include "CheckerTestUtil.h"

using namespace tilescope;
using namespace tilescope::lang;
using ir::DType;

namespace {

CheckResult checkMath(const std::string& body, DType t, std::shared_ptr<Program>& program) {
  program = test::programFrom("import triton\nimport triton.language as tl\nfrom triton.language.extra import libdevice\n\n"
                              "@triton.jit\ndef k(x_ptr, out_ptr):\n    offs = tl.arange(0, 16)\n    x = tl.load(x_ptr + offs)\n" +
                              body);
  Specialization spec;
  spec.args = {ArgSpec::pointer(t), ArgSpec::pointer(t)};
  return checkKernel(*program, "k", spec);
}

}  // namespace

TEST(CheckerLibdevice, UnaryAndBinaryFunctionsOnFp32) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkMath("    y = libdevice.acos(x) + libdevice.log1p(x)\n"
                                  "    tl.store(out_ptr + offs, libdevice.pow(y, 2) + libdevice.atan2(x, y))\n",
                                  DType::FP32, program);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const std::string ir = r.kernel->dump();
  for (const char* fn : {"= acos x : tensor<16xfp32>", "= log1p x", "= pow y, %6 : tensor<16xfp32>", "= atan2 x, y"})
    EXPECT_NE(ir.find(fn), std::string::npos) << fn << "\n" << ir;
}

TEST(CheckerLibdevice, ReachedThroughTheCudaModuleToo) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkMath("    tl.store(out_ptr + offs, tl.extra.cuda.libdevice.cbrt(x))\n", DType::FP64, program);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  EXPECT_NE(r.kernel->dump().find("cbrt x"), std::string::npos) << r.kernel->dump();
}

TEST(CheckerLibdevice, Fp16IsAnErrorSayingWhatToConvertTo) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkMath("    tl.store(out_ptr + offs, libdevice.tan(x))\n", DType::FP16, program);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.diagnostics.items()[0].headline(),
            "k.py:9:44: error: libdevice.tan expects fp32 or fp64 (got fp16); convert first, e.g. x.to(tl.float32)");
}

TEST(CheckerLibdevice, TheyAreNotTlNames) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkMath("    tl.store(out_ptr + offs, tl.acos(x))\n", DType::FP32, program);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.diagnostics.items()[0].headline().find("unknown name 'tl.acos'"), std::string::npos)
      << r.diagnostics.items()[0].headline();
}

TEST(CheckerLibdevice, AFunctionTilescopeLacksIsNamedWithTheOnesItHas) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkMath("    tl.store(out_ptr + offs, libdevice.erfinv(x))\n", DType::FP32, program);
  ASSERT_FALSE(r.ok());
  const std::string head = r.diagnostics.items()[0].headline();
  EXPECT_NE(head.find("libdevice.erfinv is not supported by tilescope yet"), std::string::npos) << head;
  EXPECT_NE(head.find("acosh"), std::string::npos) << head;
}

TEST(CheckerLibdevice, TlAddSubMulAreTheOperators) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkMath("    y = tl.add(x, 1, sanitize_overflow=False)\n    z = tl.mul(tl.sub(y, x), 3)\n"
                                  "    tl.static_assert(tl.TRITON_MAX_TENSOR_NUMEL == 1048576)\n    tl.store(out_ptr + offs, z)\n",
                                  DType::FP32, program);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const std::string ir = r.kernel->dump();
  for (const char* op : {"let y: tensor<16xfp32> = add x, %2", "%3 = sub y, x", "let z: tensor<16xfp32> = mul %3, %4"})
    EXPECT_NE(ir.find(op), std::string::npos) << op << "\n" << ir;
}
