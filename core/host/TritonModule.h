#pragma once
// The `triton` module of host code: jit, autotune, heuristics, Config, cdiv, next_power_of_2,
// triton.language (the values host code touches: constexpr, dtypes) and triton.testing (do_bench,
// perf_report, Benchmark, assert_close).
namespace tilescope::host {

class Interpreter;

void installTritonModule(Interpreter& in);

}  // namespace tilescope::host
