#pragma once
// fp8 in generated CUDA C++: e4m3fn ("fp8e4nv") and e5m2 ("fp8e5") values live in float registers
// holding an exactly representable value, like fp16; one byte in memory. The helpers (all named
// ts_f8*) are a prelude of their own, added only to kernels that use them. Their semantics are the
// simulator's (core/ir/Numerics.h): conversions to fp8 round once, to nearest even or toward zero,
// and saturate like cvt.rn.satfinite (beyond the largest finite value, infinities included, give
// +-max finite); NaN gives 0x7F.
#include <string>
#include <string_view>

#include "core/ir/DType.h"

namespace tilescope::gpu {

std::string_view cudaFp8Prelude();
// Whether generated code calls any helper of cudaFp8Prelude().
bool usesFp8Helpers(std::string_view code);

// Memory byte -> register float, and register float (or double) -> memory byte (round to nearest even).
std::string fp8FromMemory(ir::DType t, const std::string& e);
std::string fp8ToMemory(ir::DType t, const std::string& e);
// A float or double rounded to the fp8 dtype, as a float: to nearest even, or toward zero (rtz).
std::string fp8Round(ir::DType t, const std::string& e, bool rtz = false);
// A conversion (.to(), or a bitcast of the same width) whose source or target is fp8, applied to the
// register value x of the source.
std::string fp8Cast(ir::DType from, ir::DType to, bool bitcast, bool rtz, const std::string& x);

}  // namespace tilescope::gpu
