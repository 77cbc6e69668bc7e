#pragma once
// Every kernel of both seed tutorials with the specializations the tutorials launch (the list of
// tests/lang/CheckerSeedTest.cpp), checked into IR for the GPU tests.
#include <string>
#include <vector>

#include "tests/lang/CheckerTestUtil.h"

namespace tilescope::gpu::test {

using lang::ArgSpec;
using ir::DType;

struct GpuSeedCase {
  const char* file;
  const char* kernel;
  int version;  // which definition of that name (copy_k is defined three times)
  std::vector<ArgSpec> args;
  std::vector<std::pair<std::string, ArgSpec>> kwargs;
  const char* name;
  int numWarps = 4;
};

inline std::vector<GpuSeedCase> gpuSeedCases() {
  auto P = [](DType t) { return ArgSpec::pointer(t); };
  auto S = [](DType t = DType::I32) { return ArgSpec::scalar(t); };
  auto C = [](int64_t v) { return ArgSpec::constexprValue(lang::ConstValue::integer(v)); };
  auto repeat = [](int n, const ArgSpec& a) { return std::vector<ArgSpec>(static_cast<size_t>(n), a); };
  auto cat = [](std::initializer_list<std::vector<ArgSpec>> parts) {
    std::vector<ArgSpec> out;
    for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
  };
  auto matmul = [&](DType in, DType out) { return cat({{P(in), P(in), P(out)}, repeat(9, S())}); };
  const char* zero = "triton-from-zero.md";
  const char* guide = "triton-practitioners-guide.md";
  return {
      {zero, "concept_kernel", 0, {P(DType::FP32), P(DType::FP32), S()}, {{"BLOCK_SIZE", C(128)}}, "concept_kernel"},
      {zero, "add_kernel", 0, cat({repeat(3, P(DType::FP32)), {S()}}), {{"BLOCK_SIZE", C(1024)}}, "add_kernel"},
      {zero, "softmax_kernel", 0, {P(DType::FP32), P(DType::FP32), S(), S(), S()}, {{"BLOCK_SIZE", C(1024)}}, "softmax_kernel"},
      {zero, "matmul_kernel", 0, matmul(DType::FP16, DType::FP16),
       {{"BLOCK_SIZE_M", C(64)}, {"BLOCK_SIZE_N", C(64)}, {"BLOCK_SIZE_K", C(32)}}, "matmul_kernel_fp16"},
      {zero, "matmul_kernel_autotune", 0, matmul(DType::FP16, DType::FP16),
       {{"BLOCK_SIZE_M", C(128)}, {"BLOCK_SIZE_N", C(256)}, {"BLOCK_SIZE_K", C(64)}}, "matmul_kernel_autotune", 8},
      {zero, "simple_kernel", 0, {P(DType::FP32)}, {{"BLOCK_SIZE", C(1024)}}, "simple_kernel"},
      {zero, "fused_attention_kernel", 0, cat({repeat(4, P(DType::FP16)), repeat(16, S()), repeat(3, S())}),
       {{"BLOCK_M", C(64)}, {"BLOCK_N", C(64)}, {"BLOCK_K", C(64)}}, "fused_attention_kernel"},
      {zero, "layernorm_kernel", 0, cat({repeat(6, P(DType::FP32)), {S(), S(), S(DType::FP32)}}), {{"BLOCK_SIZE", C(1024)}},
       "layernorm_kernel"},
      {zero, "layernorm_kernel", 0, cat({repeat(4, P(DType::FP16)), repeat(2, P(DType::FP32)), {S(), S(), S(DType::FP32)}}),
       {{"BLOCK_SIZE", C(512)}}, "layernorm_kernel_fp16"},
      {zero, "debug_kernel", 0, {P(DType::FP32)}, {{"BLOCK_SIZE", C(1024)}}, "debug_kernel"},
      {guide, "copy_k", 0, {P(DType::I64), P(DType::I64), S(), C(2)}, {}, "copy_k_v1"},
      {guide, "copy_k", 1, {P(DType::I64), P(DType::I64), S(), C(2)}, {}, "copy_k_v2"},
      {guide, "copy_k", 2, {P(DType::I64), P(DType::I64), S(), C(2)}, {}, "copy_k_v3"},
      {guide, "rgb2grey_k", 0, {P(DType::U8), P(DType::U8), S(), S()}, {{"bs0", C(32)}, {"bs1", C(32)}}, "rgb2grey_k"},
      {guide, "naive_matmul_k", 0, matmul(DType::FP32, DType::FP16), {{"bm", C(16)}, {"bn", C(16)}, {"bk", C(16)}},
       "naive_matmul_k_fp32_16"},
      {guide, "naive_matmul_k", 0, matmul(DType::FP16, DType::FP16), {{"bm", C(64)}, {"bn", C(64)}, {"bk", C(64)}},
       "naive_matmul_k_fp16_64"},
      {guide, "swizzle_k", 0, {P(DType::I64), P(DType::I64)}, {{"group_sz", C(3)}}, "swizzle_k"},
      {guide, "grouped_matmul_k", 0, matmul(DType::FP32, DType::FP16),
       {{"bm", C(16)}, {"bn", C(16)}, {"bk", C(16)}, {"group_sz", C(4)}}, "grouped_matmul_k_fp32_16"},
      {guide, "grouped_matmul_k", 0, matmul(DType::FP16, DType::FP16),
       {{"bm", C(64)}, {"bn", C(64)}, {"bk", C(64)}, {"group_sz", C(32)}}, "grouped_matmul_k_fp16_64"},
      {guide, "grouped_autotuned_matmul_k", 0, matmul(DType::FP32, DType::FP16),
       {{"bm", C(128)}, {"bn", C(256)}, {"bk", C(64)}, {"group_sz", C(8)}}, "grouped_autotuned_matmul_k", 8},
  };
}

// The checked kernel of a case; fails the test (and returns null) when it does not check.
inline ir::KernelPtr checkSeedCase(const GpuSeedCase& c) {
  auto program = lang::test::seedProgram(c.file);
  const lang::JitFunctionInfo* fn = nullptr;
  int seen = 0;
  for (const lang::JitFunctionInfo& j : program->jitFunctions())
    if (j.name == c.kernel && seen++ == c.version) fn = &j;
  EXPECT_NE(fn, nullptr) << c.kernel;
  if (!fn) return nullptr;
  lang::Specialization spec;
  spec.args = c.args;
  spec.kwargs = c.kwargs;
  spec.options.numWarps = c.numWarps;
  lang::CheckResult r = lang::checkKernel(*program, *fn, spec);
  EXPECT_TRUE(r.ok()) << r.diagnostics.render();
  return r.kernel;
}

}  // namespace tilescope::gpu::test
