// Behaviour of the checker on small programs: constexpr folding, control flow, helper inlining,
// typing of literals, host calls, notebooks, launch binding and checkAllKernels.
#include "CheckerTestUtil.h"
#include "core/ir/IRVerifier.h"

using namespace tilescope;
using namespace tilescope::lang;
using ir::DType;

namespace {

const char* const kImports = "import triton\nimport triton.language as tl\n\n";

ArgSpec P(DType t) { return ArgSpec::pointer(t); }
ArgSpec S(DType t = DType::I32) { return ArgSpec::scalar(t); }
ArgSpec C(int64_t v) { return ArgSpec::constexprValue(ConstValue::integer(v)); }

// Diagnostics point into the program's source files, so the program must outlive the result.
struct Checked {
  decltype(test::programFrom(std::string())) program;
  CheckResult result;
};

Checked check(const std::string& source, std::vector<ArgSpec> args, const std::string& kernel = "k") {
  Checked c{test::programFrom(kImports + source), {}};
  Specialization spec;
  spec.args = std::move(args);
  c.result = checkKernel(*c.program, kernel, spec);
  if (c.result.kernel) {
    EXPECT_EQ(ir::IRVerifier::verify(*c.result.kernel), std::vector<std::string>{});
  }
  return c;
}

// The kernel's dump; fails the test when checking fails.
std::string dump(const std::string& source, std::vector<ArgSpec> args) {
  const Checked c = check(source, std::move(args));
  EXPECT_TRUE(c.result.ok()) << c.result.diagnostics.render();
  return c.result.kernel ? c.result.kernel->dump() : c.result.diagnostics.render();
}

std::string firstError(const std::string& source, std::vector<ArgSpec> args) {
  const Checked c = check(source, std::move(args));
  EXPECT_FALSE(c.result.ok());
  return c.result.diagnostics.empty() ? "" : c.result.diagnostics.items()[0].headline();
}

}  // namespace

TEST(Checker, ConstexprIfChecksOnlyTheTakenBranch) {
  const char* src =
      "@triton.jit\n"
      "def k(x_ptr, BLOCK: tl.constexpr):\n"
      "    if BLOCK > 32:\n"
      "        offs = tl.arange(0, BLOCK)\n"
      "    else:\n"
      "        offs = this_name_does_not_exist\n"
      "    tl.store(x_ptr + offs, 1.0)\n";
  EXPECT_EQ(dump(src, {P(DType::FP32), C(64)}),
            "kernel k(%x_ptr: ptr<fp32> {divisible=16}, BLOCK: constexpr = 64) {\n"
            "  let offs: tensor<64xi32> = arange 0, 64\n"
            "  %0 = splat %x_ptr : tensor<64x!ptr<fp32>>\n"
            "  %1 = add %0, offs : tensor<64x!ptr<fp32>>\n"
            "  %2 = splat 1.0:fp32 : tensor<64xfp32>\n"
            "  store %1, %2\n"
            "}\n");
  EXPECT_EQ(firstError(src, {P(DType::FP32), C(16)}), "k.py:9:16: error: unknown name 'this_name_does_not_exist'");
}

TEST(Checker, StaticRangeUnrollsWithAConstexprLoopVariable) {
  EXPECT_EQ(dump("@triton.jit\n"
                 "def k(x_ptr):\n"
                 "    acc = tl.zeros((4,), dtype=tl.float32)\n"
                 "    for i in tl.static_range(1, 4):\n"
                 "        acc += i\n"
                 "    tl.store(x_ptr + tl.arange(0, 4), acc)\n",
                 {P(DType::FP32)}),
            "kernel k(%x_ptr: ptr<fp32> {divisible=16}) {\n"
            "  let acc: tensor<4xfp32> = splat 0.0:fp32\n"
            "  %0 = splat 1.0:fp32 : tensor<4xfp32>\n"
            "  let acc.1: tensor<4xfp32> = add acc, %0\n"
            "  %1 = splat 2.0:fp32 : tensor<4xfp32>\n"
            "  let acc.2: tensor<4xfp32> = add acc.1, %1\n"
            "  %2 = splat 3.0:fp32 : tensor<4xfp32>\n"
            "  let acc.3: tensor<4xfp32> = add acc.2, %2\n"
            "  %3 = splat %x_ptr : tensor<4x!ptr<fp32>>\n"
            "  %4 = arange 0, 4 : tensor<4xi32>\n"
            "  %5 = add %3, %4 : tensor<4x!ptr<fp32>>\n"
            "  store %5, acc.3\n"
            "}\n");
}

TEST(Checker, RuntimeIfMergesNamesIntoMutableVars) {
  EXPECT_EQ(dump("@triton.jit\n"
                 "def k(x_ptr, n):\n"
                 "    v = 0.0\n"
                 "    w = n\n"
                 "    if n > 0:\n"
                 "        v = 1.5\n"
                 "    else:\n"
                 "        w = n * 2\n"
                 "    tl.store(x_ptr, v + w)\n",
                 {P(DType::FP32), S()}),
            "kernel k(%x_ptr: ptr<fp32> {divisible=16}, %n: i32) {\n"
            "  var v: fp32 = 0.0:fp32\n"
            "  var w: i32 = %n\n"
            "  %0 = gt %n, 0:i32 : i1\n"
            "  if %0 {\n"
            "    assign v = 1.5:fp32\n"
            "  } else {\n"
            "    let w.1: i32 = mul %n, 2:i32\n"
            "    assign w = w.1\n"
            "  }\n"
            "  %1 = cast w : fp32\n"
            "  %2 = add v, %1 : fp32\n"
            "  store %x_ptr, %2\n"
            "}\n");
}

TEST(Checker, RuntimeLoopsCarryValuesAndWhileReevaluatesItsCondition) {
  EXPECT_EQ(dump("@triton.jit\n"
                 "def k(x_ptr, n):\n"
                 "    total = 0\n"
                 "    for i in tl.range(0, n, 2, num_stages=3):\n"
                 "        total += i\n"
                 "    while total > 10:\n"
                 "        total = total // 2\n"
                 "    tl.store(x_ptr, total)\n",
                 {P(DType::I32), S()}),
            "kernel k(%x_ptr: ptr<i32> {divisible=16}, %n: i32) {\n"
            "  var total: i32 = 0:i32\n"
            "  for i: i32 in tl.range(0:i32, %n, 2:i32, num_stages=3) {\n"
            "    let total.1: i32 = add total, i\n"
            "    assign total = total.1\n"
            "  }\n"
            "  var total.2: i32 = total\n"
            "  var cond: i1 = gt total.2, 10:i32\n"
            "  while cond {\n"
            "    let total.3: i32 = div total.2, 2:i32\n"
            "    assign total.2 = total.3\n"
            "    assign cond = gt total.3, 10:i32\n"
            "  }\n"
            "  store %x_ptr, total.2\n"
            "}\n");
}

TEST(Checker, LoopBoundsPromoteToTheWidestIntegerType) {
  const std::string d = dump("@triton.jit\n"
                             "def k(x_ptr, n):\n"
                             "    for i in range(n):\n"
                             "        tl.store(x_ptr + i, 1)\n",
                             {P(DType::I64), S(DType::I64)});
  EXPECT_NE(d.find("  for i: i64 in range(0:i64, %n, 1:i64) {\n    %0 = add %x_ptr, i : ptr<i64>\n    store %0, 1:i64\n"), std::string::npos) << d;
}

TEST(Checker, HelpersInlineWithDefaultsKeywordsAndTupleResults) {
  EXPECT_EQ(dump("@triton.jit\n"
                 "def pair(a, b=2):\n"
                 "    return a + b, a * b\n"
                 "\n"
                 "@triton.jit\n"
                 "def k(x_ptr, n):\n"
                 "    s, p = pair(n, b=3)\n"
                 "    t, u = pair(n)\n"
                 "    tl.store(x_ptr, s + p + t + u)\n",
                 {P(DType::I32), S()}),
            "kernel k(%x_ptr: ptr<i32> {divisible=16}, %n: i32) {\n"
            "  let s: i32 = add %n, 3:i32\n"
            "  let p: i32 = mul %n, 3:i32\n"
            "  let t: i32 = add %n, 2:i32\n"
            "  let u: i32 = mul %n, 2:i32\n"
            "  %0 = add s, p : i32\n"
            "  %1 = add %0, t : i32\n"
            "  %2 = add %1, u : i32\n"
            "  store %x_ptr, %2\n"
            "}\n");
}

TEST(Checker, ConstexprHelperParametersStayConstexpr) {
  // The seeds' get_1d_offset(size=bm, ...) needs `size` constexpr inside tl.arange.
  const std::string d = dump("@triton.jit\n"
                             "def get_1d_offset(size, n_prev_chunks):\n"
                             "    return n_prev_chunks * size + tl.arange(0, size)\n"
                             "\n"
                             "@triton.jit\n"
                             "def k(x_ptr, bm: tl.constexpr):\n"
                             "    offs = get_1d_offset(size=bm, n_prev_chunks=tl.program_id(0))\n"
                             "    tl.store(x_ptr + offs, 0)\n",
                             {P(DType::I32), C(32)});
  EXPECT_NE(d.find("let n_prev_chunks: i32 = program_id 0\n  %0 = mul n_prev_chunks, 32:i32 : i32"), std::string::npos) << d;
  EXPECT_NE(d.find("arange 0, 32"), std::string::npos) << d;
}

TEST(Checker, HelperReturningInBothBranchesMergesTheResult) {
  EXPECT_EQ(dump("@triton.jit\n"
                 "def pick(c, a, b):\n"
                 "    if c:\n"
                 "        return a\n"
                 "    else:\n"
                 "        return b * 2\n"
                 "\n"
                 "@triton.jit\n"
                 "def k(x_ptr, n):\n"
                 "    tl.store(x_ptr, pick(n > 3, n, n + 1))\n",
                 {P(DType::I32), S()}),
            "kernel k(%x_ptr: ptr<i32> {divisible=16}, %n: i32) {\n"
            "  let c: i1 = gt %n, 3:i32\n"
            "  let b: i32 = add %n, 1:i32\n"
            "  var retval: i32 = 0:i32\n"
            "  if c {\n"
            "    assign retval = %n\n"
            "  } else {\n"
            "    assign retval = mul b, 2:i32\n"
            "  }\n"
            "  store %x_ptr, retval\n"
            "}\n");
}

TEST(Checker, HelperErrorsCarryTheCallChain) {
  auto program = test::programFrom(std::string(kImports) +
                                   "@triton.jit\n"                       // 4
                                   "def inner(n):\n"                     // 5
                                   "    return tl.arange(0, n)\n"        // 6
                                   "\n"                                  // 7
                                   "@triton.jit\n"                       // 8
                                   "def outer(n):\n"                     // 9
                                   "    return inner(n) + 1\n"           // 10
                                   "\n"                                  // 11
                                   "@triton.jit\n"                       // 12
                                   "def k(x_ptr, n):\n"                  // 13
                                   "    tl.store(x_ptr, outer(n))\n");   // 14
  Specialization spec;
  spec.args = {P(DType::FP32), S()};
  CheckResult r = checkKernel(*program, "k", spec);
  ASSERT_FALSE(r.ok());
  const Diagnostic& d = r.diagnostics.items()[0];
  EXPECT_EQ(d.headline(),
            "k.py:6:25: error: tl.arange bounds must be constexpr; 'n' is a runtime argument - mark it 'n: tl.constexpr' or "
            "pass a constant");
  ASSERT_EQ(d.notes.size(), 2u);
  EXPECT_EQ(d.notes[0].headline(), "k.py:10:12: note: in helper 'inner' called from here");
  EXPECT_EQ(d.notes[1].headline(), "k.py:14:21: note: in helper 'outer' called from here");
}

TEST(Checker, HelperReturningInOneBranchOnlyIsAnError) {
  EXPECT_EQ(firstError("@triton.jit\n"
                       "def f(n):\n"
                       "    if n > 0:\n"
                       "        return n\n"
                       "    return 0\n"
                       "\n"
                       "@triton.jit\n"
                       "def k(x_ptr, n):\n"
                       "    tl.store(x_ptr, f(n))\n",
                       {P(DType::I32), S()}),
            "k.py:6:5: error: this helper returns in only one branch of a runtime 'if'; return a value in both branches "
            "(or in neither) so that every path returns the same type");
}

TEST(Checker, PythonLiteralsAreWeaklyTyped) {
  const std::string d = dump("@triton.jit\n"
                             "def k(h_ptr, f_ptr):\n"
                             "    x = tl.load(h_ptr + tl.arange(0, 16))\n"
                             "    a = x * 2\n"
                             "    b = x + 2.5\n"
                             "    c = x / 2\n"
                             "    d = tl.arange(0, 16) * 0.5\n"
                             "    tl.store(f_ptr + tl.arange(0, 16), a + b + c + d)\n",
                             {P(DType::FP16), P(DType::FP32)});
  EXPECT_NE(d.find("let a: tensor<16xfp16> = mul x, %"), std::string::npos) << d;
  EXPECT_NE(d.find("let b: tensor<16xfp16> = add x, %"), std::string::npos) << d;
  EXPECT_NE(d.find("let c: tensor<16xfp32> = truediv"), std::string::npos) << d;
  EXPECT_NE(d.find("let d: tensor<16xfp32> = mul"), std::string::npos) << d;
  EXPECT_NE(d.find("%3 = splat 2.0:fp16 : tensor<16xfp16>"), std::string::npos) << d;  // the literal becomes fp16
}

TEST(Checker, HostCallsTakeFStringsAndPrintBecomesAPrintStatement) {
  const std::string src =
      "def print_if(txt, conds):\n"
      "    print(txt)\n"
      "\n"
      "@triton.jit\n"
      "def k(x_ptr, n):\n"
      "    pid = tl.program_id(0)\n"
      "    print_if(f'pid = {pid} | n = {n:>4}!', '')\n"
      "    print('pid', pid, n)\n"
      "    tl.device_print('n', n, hex=True)\n";
  const std::string d = dump(src, {P(DType::FP32), S()});
  EXPECT_NE(d.find("host_call print_if(f\"pid = {pid} | n = {%n:>4}!\", '')"), std::string::npos) << d;
  EXPECT_NE(d.find("  print \"pid\", pid, %n\n"), std::string::npos) << d;
  EXPECT_NE(d.find("  device_print \"n\", %n, hex=True\n"), std::string::npos) << d;
}

TEST(Checker, EarlyReturnInAKernelBranchEndsTheProgram) {
  const std::string d = dump("@triton.jit\n"
                             "def k(x_ptr, n):\n"
                             "    if n < 0:\n"
                             "        return\n"
                             "    tl.store(x_ptr, n)\n",
                             {P(DType::I32), S()});
  EXPECT_NE(d.find("  if %0 {\n    return\n  }\n  store %x_ptr, %n\n"), std::string::npos) << d;
}

TEST(Checker, ConditionalExpressions) {
  const std::string d = dump("@triton.jit\n"
                             "def k(x_ptr, n, FLAG: tl.constexpr):\n"
                             "    a = 1.0 if n > 0 else 2.0\n"
                             "    b = tl.load(x_ptr) if n > 1 else 0.0\n"
                             "    c = 3 if FLAG else undefined_name\n"
                             "    tl.store(x_ptr, a + b + c)\n",
                             {P(DType::FP32), S(), ArgSpec::constexprValue(ConstValue::boolean(true))});
  EXPECT_NE(d.find("let a: fp32 = select %0, 1.0:fp32, 2.0:fp32"), std::string::npos) << d;
  EXPECT_NE(d.find("var ifexp: fp32 = 0.0:fp32"), std::string::npos) << d;
  EXPECT_NE(d.find("    let tmp: fp32 = load %x_ptr\n    assign ifexp = tmp\n"), std::string::npos) << d;
}

TEST(Checker, ConstexprArithmeticFollowsPython) {
  const char* src =
      "@triton.jit\n"
      "def k(x_ptr, B: tl.constexpr):\n"
      "    tl.static_assert(-7 // 2 == -4)\n"
      "    tl.static_assert(-7 % 2 == 1)\n"
      "    tl.static_assert(7 / 2 == 3.5)\n"
      "    tl.static_assert(2 ** 10 == 1024)\n"
      "    tl.static_assert(max(B, 16) == 32 and min(B, 16) == 16)\n"
      "    tl.static_assert(float('-inf') < -1e300)\n"
      "    tl.static_assert(triton.cdiv(10, 3) == 4 and tl.cdiv(10, 3) == 4)\n"
      "    tl.static_assert(triton.next_power_of_2(100) == 128)\n"
      "    tl.static_assert((B, 4)[0] == B and len((1, 2, 3)) == 3)\n"
      "    tl.static_assert(tl.float16 == tl.float16 and x_ptr.dtype.element_ty == tl.float32)\n"
      "    tl.static_assert(x_ptr.dtype.element_ty.is_floating())\n"
      "    s = tl.arange(0, B).shape\n"
      "    tl.static_assert(s[0] == B)\n"
      "    M: tl.constexpr = B * 2\n"
      "    tl.store(x_ptr + tl.arange(0, M), 0.0)\n";
  const Checked c = check(src, {P(DType::FP32), C(32)});
  EXPECT_TRUE(c.result.ok()) << c.result.diagnostics.render();
}

TEST(Checker, TensorMethodsAndShapeOps) {
  const std::string d = dump("@triton.jit\n"
                             "def k(x_ptr, y_ptr):\n"
                             "    a = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])\n"
                             "    t = a.T\n"
                             "    s = t.sum(axis=1, keep_dims=True)\n"
                             "    m = tl.max(a.to(tl.float16), axis=0)\n"
                             "    i = tl.argmax(a, 1)\n"
                             "    r = tl.reshape(a, 256)\n"
                             "    c = tl.cumsum(r, 0)\n"
                             "    w = tl.where(r > 0, r, 0)\n"
                             "    q = tl.maximum(c, w) + tl.sum(s) + tl.sum(m) + tl.sum(i)\n"
                             "    tl.store(y_ptr + tl.arange(0, 256), q)\n",
                             {P(DType::FP32), P(DType::FP32)});
  EXPECT_NE(d.find("let t: tensor<16x16xfp32> = permute a, order=[1, 0]"), std::string::npos) << d;
  EXPECT_NE(d.find("let s: tensor<16x1xfp32> = reduce_sum t, axis=1, keep_dims=True"), std::string::npos) << d;
  // tl.max promotes fp16 to fp32 before reducing, as Triton does.
  EXPECT_NE(d.find("%12 = cast %11 : tensor<16x16xfp32>\n  let m: tensor<16xfp32> = reduce_max %12, axis=0"), std::string::npos) << d;
  EXPECT_NE(d.find("let i: tensor<16xi32> = reduce_argmax a, axis=1"), std::string::npos) << d;
  EXPECT_NE(d.find("let r: tensor<256xfp32> = reshape a"), std::string::npos) << d;
  EXPECT_NE(d.find("let c: tensor<256xfp32> = scan_cumsum r, axis=0"), std::string::npos) << d;
  EXPECT_NE(d.find("let w: tensor<256xfp32> = select"), std::string::npos) << d;
}

// The layer-norm tutorial's shape: each loop defines its own `cols`, which no loop carries.
TEST(Checker, EachLoopMayDefineANameAnEarlierLoopDefinedToo) {
  const std::string d = dump("@triton.jit\n"
                             "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
                             "    acc = tl.zeros((BLOCK,), dtype=tl.float32)\n"
                             "    for off in range(0, n, BLOCK):\n"
                             "        cols = off + tl.arange(0, BLOCK)\n"
                             "        acc += tl.load(x_ptr + cols, mask=cols < n, other=0.)\n"
                             "    for off in range(0, n, BLOCK):\n"
                             "        cols = off + tl.arange(0, BLOCK)\n"
                             "        tl.store(x_ptr + cols, acc, mask=cols < n)\n",
                             {P(DType::FP32), S(), C(64)});
  EXPECT_NE(d.find("let cols: tensor<64xi32>"), std::string::npos) << d;
  EXPECT_EQ(d.find("var cols"), std::string::npos) << d;  // not loop-carried
}

TEST(Checker, DotAtomicsAndHintsTypeCheck) {
  const std::string d = dump("@triton.jit\n"
                             "def k(a_ptr, c_ptr, cnt_ptr):\n"
                             "    offs = tl.arange(0, 32)\n"
                             "    a = tl.load(a_ptr + offs[:, None] * 32 + offs[None, :])\n"
                             "    acc = tl.zeros((32, 32), dtype=tl.float32)\n"
                             "    acc = tl.dot(a, a, acc, input_precision='tf32x3')\n"
                             "    h = tl.dot(a.to(tl.float16), a.to(tl.float16), out_dtype=tl.float16)\n"
                             "    old = tl.atomic_add(cnt_ptr, 1)\n"
                             "    prev = tl.atomic_cas(cnt_ptr, 0, old)\n"
                             "    tl.assume(old >= 0)\n"
                             "    tl.assume(offs < 32)\n"
                             "    p = tl.multiple_of(c_ptr + offs, 16)\n"
                             "    tl.store(p[:, None] + offs[None, :] * 32, acc + h)\n",
                             {P(DType::FP32), P(DType::FP32), P(DType::I32)});
  EXPECT_NE(d.find("let acc.1: tensor<32x32xfp32> = dot a, a, acc=acc, input_precision=tf32x3"), std::string::npos) << d;
  EXPECT_NE(d.find("let h: tensor<32x32xfp16> = dot %"), std::string::npos) << d;
  EXPECT_NE(d.find("let old: i32 = atomic_add %cnt_ptr, 1:i32"), std::string::npos) << d;
  EXPECT_NE(d.find("let prev: i32 = atomic_cas %cnt_ptr, 0:i32, old"), std::string::npos) << d;
  EXPECT_NE(d.find("= multiple_of %"), std::string::npos) << d;
  // tl.assume is a promise to the compiler: checked, then nothing in the IR.
  EXPECT_EQ(d.find("assume"), std::string::npos) << d;
}

TEST(Checker, NotebookCellsShareOneNamespaceAndLaterDefinitionsWin) {
  auto program = std::make_shared<Program>();
  for (const char* cell : {"import triton\nimport triton.language as tl\nGROUP = tl.constexpr(8)\nDTYPE = tl.float16\n",
                           "@triton.jit\ndef helper(x):\n    return x + 1\n",
                           "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, tl.full((), helper(GROUP), DTYPE))\n",
                           "@triton.jit\ndef helper(x):\n    return x * 3\n"}) {
    ParseResult parsed = parseModule(cell, "nb.ipynb");
    ASSERT_TRUE(parsed.ok()) << parsed.diagnostics.render();
    program->addModule(std::shared_ptr<const Module>(std::move(parsed.module)));
  }
  Specialization spec;
  spec.args = {P(DType::FP16)};
  CheckResult r = checkKernel(*program, "k", spec);
  ASSERT_TRUE(r.ok()) << r.diagnostics.render();
  // GROUP is a constexpr 8, helper is the last definition (x * 3): 24, stored as fp16.
  EXPECT_EQ(r.kernel->dump(),
            "kernel k(%x_ptr: ptr<fp16> {divisible=16}) {\n"
            "  store %x_ptr, 24.0:fp16\n"
            "}\n");
  ASSERT_EQ(program->jitFunctions().size(), 3u);
  EXPECT_TRUE(program->jitFunctions()[0].shadowed);
  EXPECT_FALSE(program->jitFunctions()[2].shadowed);
}

TEST(Checker, LaunchArgumentsBindLikeAPythonCall) {
  const char* src = "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr, STEP=2):\n    pass\n";
  auto program = test::programFrom(std::string(kImports) + src);
  auto run = [&](std::vector<ArgSpec> args, std::vector<std::pair<std::string, ArgSpec>> kwargs = {}) {
    Specialization spec;
    spec.args = std::move(args);
    spec.kwargs = std::move(kwargs);
    CheckResult r = checkKernel(*program, "k", spec);
    return r.ok() ? std::string("ok") : r.diagnostics.items()[0].headline();
  };
  EXPECT_EQ(run({P(DType::FP32), S()}, {{"BLOCK", C(16)}}), "ok");
  EXPECT_EQ(run({P(DType::FP32), S(), C(16), C(4), C(5)}), "k.py:5:5: error: k() takes from 3 to 4 positional arguments but 5 were given");
  EXPECT_EQ(run({P(DType::FP32)}), "k.py:5:5: error: k() missing 2 required positional arguments: 'n' and 'BLOCK'");
  EXPECT_EQ(run({P(DType::FP32), S()}, {{"BLOK", C(16)}}),
            "k.py:5:5: error: k() got an unexpected keyword argument 'BLOK'; did you mean 'BLOCK'?");
  EXPECT_EQ(run({P(DType::FP32), S(), S()}),
            "k.py:5:17: error: 'BLOCK' is tl.constexpr, but the launch passes a runtime i32; pass a Python constant for it");
  EXPECT_EQ(run({P(DType::FP32), S(), C(16)}, {{"n", S()}}), "k.py:5:5: error: k() got multiple values for argument 'n'");
  CheckResult missing = checkKernel(*program, "kk", Specialization{});
  EXPECT_EQ(missing.diagnostics.items()[0].message, "no @triton.jit function named 'kk'; did you mean 'k'?");
}

TEST(Checker, ArgSpecFromIntFollowsTritonsSpecialization) {
  EXPECT_EQ(ArgSpec::fromInt(1024).str(), "i32");
  EXPECT_TRUE(ArgSpec::fromInt(1024).divisibleBy16);
  EXPECT_FALSE(ArgSpec::fromInt(1000).divisibleBy16);
  EXPECT_EQ(ArgSpec::fromInt(int64_t{1} << 40).str(), "i64");
  EXPECT_EQ(ArgSpec::pointer(DType::BF16).str(), "*bf16");
  EXPECT_EQ(ArgSpec::constexprValue(ConstValue::integer(8)).str(), "constexpr=8");
}

TEST(Checker, StaticPrintLeavesANote) {
  const Checked c = check("@triton.jit\ndef k(x_ptr, B: tl.constexpr):\n    tl.static_print('B is', B, x_ptr)\n",
                          {P(DType::FP32), C(8)});
  const CheckResult& r = c.result;
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r.diagnostics.items().size(), 1u);
  EXPECT_EQ(r.diagnostics.items()[0].headline(), "k.py:6:5: note: static_print: B is 8 ptr<fp32>");
}

TEST(Checker, CheckAllKernelsUsesOverridesAndExplainsPlaceholders) {
  auto program = test::programFrom(std::string(kImports) +
                                   "@triton.jit\n"
                                   "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
                                   "    offs = tl.arange(0, BLOCK)\n"
                                   "    tl.store(x_ptr + offs, 1.0, mask=offs < n)\n"
                                   "\n"
                                   "@triton.jit\n"
                                   "def bad(out, n, BLOCK: tl.constexpr):\n"
                                   "    x = tl.load(out + tl.arange(0, BLOCK))\n"
                                   "    y = tl.arange(0, 24)\n");
  DiagnosticList ok = checkAllKernels(*program, {{"BLOCK", ConstValue::integer(64)}});
  ASSERT_EQ(ok.errorCount(), 1u);  // only `bad`; `out` is inferred to be a pointer
  EXPECT_EQ(ok.items()[0].headline(),
            "k.py:12:9: error: tl.arange range must be a power of 2 (got 24); round up with triton.next_power_of_2 and "
            "mask the extra lanes");
  EXPECT_TRUE(ok.items()[0].notes.empty());
  DiagnosticList overridden = checkAllKernels(*program, {{"BLOCK", ConstValue::integer(100)}});
  EXPECT_EQ(overridden.errorCount(), 2u);
  DiagnosticList placeholder = checkAllKernels(*program, {});
  ASSERT_EQ(placeholder.errorCount(), 1u);
  ASSERT_EQ(placeholder.items()[0].notes.size(), 1u);
  EXPECT_EQ(placeholder.items()[0].notes[0].message,
            "'bad' was checked with BLOCK = 16 because no value was given; pass -D NAME=VALUE to check another value");
}

TEST(Checker, BranchesInsideLoopsMergeIntoTheCarriedValue) {
  EXPECT_EQ(dump("@triton.jit\n"
                 "def k(x_ptr, n):\n"
                 "    acc = 0.0\n"
                 "    for i in range(n):\n"
                 "        if i % 2 == 0:\n"
                 "            acc += 1.0\n"
                 "        else:\n"
                 "            acc -= 0.5\n"
                 "    tl.store(x_ptr, acc)\n",
                 {P(DType::FP32), S()}),
            "kernel k(%x_ptr: ptr<fp32> {divisible=16}, %n: i32) {\n"
            "  var acc: fp32 = 0.0:fp32\n"
            "  for i: i32 in range(0:i32, %n, 1:i32) {\n"
            "    var acc.1: fp32 = acc\n"
            "    %0 = mod i, 2:i32 : i32\n"
            "    %1 = eq %0, 0:i32 : i1\n"
            "    if %1 {\n"
            "      let acc.2: fp32 = add acc, 1.0:fp32\n"
            "      assign acc.1 = acc.2\n"
            "    } else {\n"
            "      let acc.3: fp32 = sub acc, 0.5:fp32\n"
            "      assign acc.1 = acc.3\n"
            "    }\n"
            "    assign acc = acc.1\n"
            "  }\n"
            "  store %x_ptr, acc\n"
            "}\n");
}

TEST(Checker, DeviceAssertWithMaskAndRandomNumbers) {
  const std::string d = dump("@triton.jit\n"
                             "def k(x_ptr, seed):\n"
                             "    offs = tl.arange(0, 8)\n"
                             "    r = tl.rand(seed, offs)\n"
                             "    a, b, c, e = tl.randint4x(seed, offs)\n"
                             "    tl.device_assert(r < 1.0, 'rand out of range', mask=offs < 4)\n"
                             "    assert r.dtype == tl.float32, 'static'\n"
                             "    tl.store(x_ptr + offs, r + c.to(tl.float32))\n",
                             {P(DType::FP32), S()});
  EXPECT_NE(d.find("let r: tensor<8xfp32> = rand %seed, offs, n_rounds=10"), std::string::npos) << d;
  EXPECT_NE(d.find("let c: tensor<8xu32> = randint4x %seed, offs, n_rounds=10, component=2"), std::string::npos) << d;
  EXPECT_NE(d.find("invert %"), std::string::npos) << d;
  EXPECT_NE(d.find("device_assert %"), std::string::npos) << d;
  EXPECT_NE(d.find(", \"rand out of range\""), std::string::npos) << d;
}
