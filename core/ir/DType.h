#pragma once
// Element types of the tile IR, named and ordered as Triton names them (tl.int32 prints "int32" in
// Triton's own IR but "i32" in kernel signatures; we print the signature spelling everywhere).
#include <cstdint>
#include <optional>
#include <string_view>

namespace tilescope::ir {

enum class DType : uint8_t {
  I1,  // bool; stored as one byte in memory, like Triton
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  FP8E4NV,  // e4m3, bias 7, no infinities (NVIDIA "fn" variant)
  FP8E5,    // e5m2, bias 15
  FP16,
  BF16,
  FP32,
  FP64,
};

inline constexpr int kDTypeCount = 15;

// Triton's kind hierarchy used by type promotion: bool < integral < floating.
enum class DTypeKind : uint8_t { Bool = 0, Integral = 1, Floating = 2 };

// "i1", "i8", ..., "u64", "fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64".
std::string_view dtypeName(DType t);
// Triton's Python spelling without the module: "int1", "int32", "uint8", "float16", "bfloat16", ...
std::string_view dtypePythonName(DType t);

int bitWidth(DType t);
DTypeKind kind(DType t);
bool isBool(DType t);
bool isFloat(DType t);
bool isFp8(DType t);
// Integers including i1.
bool isInt(DType t);
// Triton counts int1 as unsigned (dtype.UINT_TYPES contains 'int1'); so do we.
bool isSignedInt(DType t);
bool isUnsignedInt(DType t);
// Explicit mantissa bits (fp32: 23); 0 for integers. Used by true-division's "wider mantissa wins".
int mantissaWidth(DType t);

// Integer type with the given width and signedness (width 1 -> i1); nullopt for other widths.
std::optional<DType> intDType(int bits, bool isSigned);

// Value range of an integer dtype (for i1: 0..1). Unsigned 64-bit max does not fit int64; use
// intMaxU for that one.
int64_t intMin(DType t);
uint64_t intMaxU(DType t);

// Accepts every spelling a user or a launcher may hand us:
//   "fp32" "i32" "u8" "i1" "bf16" "fp8e4nv" "fp8e5"          (signature spellings)
//   "float32" "int32" "uint8" "int1" "bfloat16" "float8e4nv"  (tl.* names, also with a "tl.",
//   "triton.language." or "torch." prefix)
//   torch aliases "float" "double" "half" "bool" "int" "long" "short" "float8_e4m3fn" "float8_e5m2"
// Returns nullopt for anything else.
std::optional<DType> parseDType(std::string_view text);

// A kernel signature entry such as "*fp32" (pointer to fp32) or "i32" (scalar).
struct SignatureType {
  DType dtype;
  bool isPointer = false;
};
std::optional<SignatureType> parseSignatureType(std::string_view text);

}  // namespace tilescope::ir
