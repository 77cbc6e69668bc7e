// Host cost of finding a launch's build by its CUDA C++: GpuCompiler::compileForLaunch generates the
// code and hashes it into the cache key. Every launch paid it until GpuRuntime remembered each kernel
// object's optimized build; a kernel's first launches (and those on its quick build) still do. In
// do_bench the GPU works on the L2 flush meanwhile, and a launch whose host part outlasts the flush
// leaves the GPU idle inside the timed window. docs/PERFORMANCE.md records the figures.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "core/testing/SeedPrograms.h"
#include "core/gpu/codegen/CudaCodegen.h"
#include "core/gpu/runtime/GpuCompiler.h"
#include "core/kernel/Checker.h"

namespace {

using namespace tilescope;

lang::ArgSpec P(ir::DType t) { return lang::ArgSpec::pointer(t, true); }
lang::ArgSpec S(ir::DType t, bool divisibleBy16) { return lang::ArgSpec::scalar(t, divisibleBy16); }
lang::ArgSpec C(int64_t v) { return lang::ArgSpec::constexprValue(lang::ConstValue::integer(v)); }

// The seed kernel `name` specialized as the comparison benchmark launches it (sm_90a).
ir::KernelPtr seedKernel(benchmark::State& state, const char* seed, const char* name, const lang::Specialization& spec) {
  const std::string markdown = bench::readSeed(seed);
  auto program = markdown.empty() ? nullptr : bench::parseSeed(seed, markdown);
  if (!program) {
    state.SkipWithError((std::string("seed tutorial not found or not parsed: ") + seed).c_str());
    return nullptr;
  }
  for (const lang::JitFunctionInfo& fn : program->jitFunctions()) {
    if (fn.name != name) continue;
    lang::CheckResult r = lang::checkKernel(*program, fn, spec);
    if (!r.ok()) state.SkipWithError(r.diagnostics.render().c_str());
    return r.kernel;
  }
  state.SkipWithError((std::string("no kernel ") + name).c_str());
  return nullptr;
}

void generateAndHash(benchmark::State& state, const ir::Kernel& kernel) {
  const gpu::CudaCodegenOptions options = gpu::GpuCompiler::optionsFor("sm_90a");
  size_t bytes = 0;
  for (auto _ : state) {
    const gpu::CudaKernelSource cuda = gpu::CudaCodegen::generate(kernel, options);
    benchmark::DoNotOptimize(gpu::GpuCompiler::hashText(cuda.source));
    bytes = cuda.source.size();
  }
  state.counters["cuda_bytes"] = static_cast<double>(bytes);
}

void BM_LaunchCodegen_LayerNormFp16(benchmark::State& state) {
  lang::Specialization spec;
  const ir::DType h = ir::DType::FP16, f = ir::DType::FP32;
  spec.args = {P(h), P(h), P(h), P(h), P(f), P(f), S(ir::DType::I32, true), S(ir::DType::I32, true), S(f, false)};
  spec.kwargs = {{"BLOCK_SIZE", C(8192)}};
  spec.options.numWarps = 8;
  if (ir::KernelPtr k = seedKernel(state, "triton-from-zero.md", "layernorm_kernel", spec)) generateAndHash(state, *k);
}

void BM_LaunchCodegen_SeedGroupedMatmul(benchmark::State& state) {
  lang::Specialization spec;
  const lang::ArgSpec i32x16 = S(ir::DType::I32, true);
  const ir::DType h = ir::DType::FP16;
  spec.args = {P(h), P(h), P(h), i32x16, i32x16, i32x16, i32x16, C(1), i32x16, C(1), i32x16, C(1)};
  spec.kwargs = {{"bm", C(128)}, {"bn", C(128)}, {"bk", C(64)}, {"group_sz", C(8)}};
  spec.options.numWarps = 8;
  spec.options.numStages = 3;
  if (ir::KernelPtr k = seedKernel(state, "triton-practitioners-guide.md", "grouped_matmul_k", spec)) generateAndHash(state, *k);
}

}  // namespace

BENCHMARK(BM_LaunchCodegen_LayerNormFp16)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LaunchCodegen_SeedGroupedMatmul)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
