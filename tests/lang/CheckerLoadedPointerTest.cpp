// The checker on integers made pointers (`x.to(tl.pointer_type(t))`, `tl.cast`), as Triton's grouped
// GEMM does with a table of addresses: the result is a pointer of that element type, integer
// arithmetic before the cast stays integer arithmetic, and what cannot become a pointer is an error
// at its line.
#include "CheckerTestUtil.h"

using namespace tilescope;
using namespace tilescope::lang;
using ir::DType;

namespace {

CheckResult checkTable(const std::string& body, std::shared_ptr<Program>& program) {
  program = test::programFrom("import triton\nimport triton.language as tl\n\n@triton.jit\n"
                              "def k(table_ptr, out_ptr, N: tl.constexpr):\n    g = tl.program_id(0)\n" + body);
  Specialization spec;
  spec.args = {ArgSpec::pointer(DType::I64), ArgSpec::pointer(DType::FP16), ArgSpec::constexprValue(ConstValue::integer(16))};
  return checkKernel(*program, "k", spec);
}

}  // namespace

TEST(CheckerLoadedPointer, LoadedAddressCastToAPointerType) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkTable("    a = tl.load(table_ptr + g).to(tl.pointer_type(tl.float16))\n"
                                   "    b = tl.cast(tl.load(table_ptr + g + 1) + 2 * N, tl.pointer_type(tl.float16))\n"
                                   "    tl.store(out_ptr + tl.arange(0, N), tl.load(a + tl.arange(0, N)) + tl.load(b + tl.arange(0, N)))\n",
                                   program);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const std::string ir = r.kernel->dump();
  EXPECT_NE(ir.find("let a: ptr<fp16> = cast tmp"), std::string::npos) << ir;
  // 2 * N bytes are added to the int64 before it becomes a pointer: integer addition.
  EXPECT_NE(ir.find("add tmp.1, 32:i64 : i64"), std::string::npos) << ir;
  EXPECT_NE(ir.find("let tmp.2: tensor<16xfp16> = load"), std::string::npos) << ir;
}

TEST(CheckerLoadedPointer, PointersBackToInt64AndBetweenElementTypes) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkTable("    addr = out_ptr.to(tl.int64)\n"
                                   "    p = (addr + 2).to(tl.pointer_type(tl.int8)).to(tl.pointer_type(tl.float16))\n"
                                   "    tl.store(p, 1.0)\n",
                                   program);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  const std::string ir = r.kernel->dump();
  EXPECT_NE(ir.find("let addr: i64 = cast %out_ptr"), std::string::npos) << ir;
  EXPECT_NE(ir.find(": ptr<i8>"), std::string::npos) << ir;
}

TEST(CheckerLoadedPointer, AFloatCannotBecomeAPointer) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkTable("    x = tl.load(out_ptr + g)\n    p = x.to(tl.pointer_type(tl.float16))\n", program);
  ASSERT_FALSE(r.ok());
  const std::string head = r.diagnostics.items()[0].headline();
  EXPECT_NE(head.find("k.py:8:9: error: only integers can be converted to pointers, not fp16"), std::string::npos) << head;
}

TEST(CheckerLoadedPointer, APointerBecomesOnlyInt64OrBool) {
  std::shared_ptr<Program> program;
  const CheckResult r = checkTable("    x = out_ptr.to(tl.int32)\n", program);
  ASSERT_FALSE(r.ok());
  const std::string head = r.diagnostics.items()[0].headline();
  EXPECT_NE(head.find("k.py:7:9: error: a pointer can only be converted to i64 (or i1), not i32"), std::string::npos) << head;
}
