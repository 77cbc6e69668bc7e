#pragma once
// How IR dtypes and values are spelled in generated CUDA C++: register types (what a thread holds),
// memory types (what a global/shared element is), conversions between them, literals.
//   i1 -> bool in registers, one byte (ts_u8) in memory; fp16/bf16 -> float in registers holding
//   an exactly representable value (each op rounds back), 16 raw bits (ts_u16) in memory; fp8 alike,
//   one byte (ts_u8) in memory (CudaFp8.h).
#include <cstdint>
#include <string>

#include "core/ir/Type.h"

namespace tilescope::gpu {

// "bool", "ts_i32", "float", "double", ...; pointers: "<memory type>*".
std::string regType(const ir::Type& t);
std::string regType(ir::DType t);
std::string memType(ir::DType t);
// The unsigned type of the same width: "ts_u16" for i16 (shift amounts, unsigned compares).
std::string unsignedType(ir::DType t);
// The unsigned type wrapping arithmetic is done in: ts_u32 up to 32 bits (C promotes narrower
// unsigned types to *signed* int, where 0xFFFF * 0xFFFF would overflow), else ts_u64.
std::string arithmeticType(ir::DType t);
// Bytes of one register value (pointers 8; fp16 registers are floats: 4).
int regBytes(const ir::Type& t);

// Memory element -> register value, and back.
std::string fromMemory(ir::DType t, const std::string& e);
std::string toMemory(ir::DType t, const std::string& e);
// Rounds a float/double result back to the dtype: identity for fp32/fp64.
std::string roundTo(ir::DType t, const std::string& e);

std::string intLiteral(ir::DType t, int64_t v);
std::string floatLiteral(ir::DType t, double v);
// The memory bits of the float constant v of dtype t, as a constant expression: "((ts_u16)0x3c00)"
// for fp16 1.0 (no conversion left for run time); other dtypes as toMemory of the literal.
std::string memoryLiteral(ir::DType t, double v);
// printf conversion for a register value of t.
std::string printfFormat(const ir::Type& t, bool hex);
std::string printfArg(const ir::Type& t, const std::string& e);

}  // namespace tilescope::gpu
