#include "core/ir/DType.h"

#include <array>
#include <limits>

namespace tilescope::ir {

namespace {

struct DTypeInfo {
  std::string_view name;
  std::string_view pythonName;
  int bits;
  DTypeKind kind;
  bool isSigned;
  int mantissa;
};

// Indexed by DType.
constexpr std::array<DTypeInfo, kDTypeCount> kInfo = {{
    {"i1", "int1", 1, DTypeKind::Bool, false, 0},
    {"i8", "int8", 8, DTypeKind::Integral, true, 0},
    {"i16", "int16", 16, DTypeKind::Integral, true, 0},
    {"i32", "int32", 32, DTypeKind::Integral, true, 0},
    {"i64", "int64", 64, DTypeKind::Integral, true, 0},
    {"u8", "uint8", 8, DTypeKind::Integral, false, 0},
    {"u16", "uint16", 16, DTypeKind::Integral, false, 0},
    {"u32", "uint32", 32, DTypeKind::Integral, false, 0},
    {"u64", "uint64", 64, DTypeKind::Integral, false, 0},
    {"fp8e4nv", "float8e4nv", 8, DTypeKind::Floating, true, 3},
    {"fp8e5", "float8e5", 8, DTypeKind::Floating, true, 2},
    {"fp16", "float16", 16, DTypeKind::Floating, true, 10},
    {"bf16", "bfloat16", 16, DTypeKind::Floating, true, 7},
    {"fp32", "float32", 32, DTypeKind::Floating, true, 23},
    {"fp64", "float64", 64, DTypeKind::Floating, true, 52},
}};

const DTypeInfo& info(DType t) { return kInfo[static_cast<size_t>(t)]; }

std::string_view stripPrefix(std::string_view s) {
  for (std::string_view prefix : {"triton.language.", "tl.", "torch.", "language."}) {
    if (s.substr(0, prefix.size()) == prefix) return s.substr(prefix.size());
  }
  return s;
}

}  // namespace

std::string_view dtypeName(DType t) { return info(t).name; }
std::string_view dtypePythonName(DType t) { return info(t).pythonName; }
int bitWidth(DType t) { return info(t).bits; }
DTypeKind kind(DType t) { return info(t).kind; }
bool isBool(DType t) { return t == DType::I1; }
bool isFloat(DType t) { return info(t).kind == DTypeKind::Floating; }
bool isFp8(DType t) { return t == DType::FP8E4NV || t == DType::FP8E5; }
bool isInt(DType t) { return info(t).kind != DTypeKind::Floating; }
bool isSignedInt(DType t) { return isInt(t) && info(t).isSigned; }
bool isUnsignedInt(DType t) { return isInt(t) && !info(t).isSigned; }
int mantissaWidth(DType t) { return info(t).mantissa; }

std::optional<DType> intDType(int bits, bool isSigned) {
  switch (bits) {
    case 1: return DType::I1;
    case 8: return isSigned ? DType::I8 : DType::U8;
    case 16: return isSigned ? DType::I16 : DType::U16;
    case 32: return isSigned ? DType::I32 : DType::U32;
    case 64: return isSigned ? DType::I64 : DType::U64;
    default: return std::nullopt;
  }
}

int64_t intMin(DType t) {
  if (!isSignedInt(t)) return 0;
  const int bits = bitWidth(t);
  return bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
}

uint64_t intMaxU(DType t) {
  const int bits = bitWidth(t);
  if (isSignedInt(t)) return (uint64_t{1} << (bits - 1)) - 1;
  return bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
}

std::optional<DType> parseDType(std::string_view text) {
  const std::string_view s = stripPrefix(text);
  for (size_t i = 0; i < kInfo.size(); ++i) {
    if (s == kInfo[i].name || s == kInfo[i].pythonName) return static_cast<DType>(i);
  }
  struct Alias {
    std::string_view name;
    DType type;
  };
  static constexpr Alias kAliases[] = {
      {"bool", DType::I1},          {"float", DType::FP32},          {"double", DType::FP64},
      {"half", DType::FP16},        {"int", DType::I32},             {"long", DType::I64},
      {"short", DType::I16},        {"char", DType::I8},             {"float8_e4m3fn", DType::FP8E4NV},
      {"float8_e5m2", DType::FP8E5}, {"float8e4", DType::FP8E4NV},   {"fp8e4", DType::FP8E4NV},
      {"float8e5m2", DType::FP8E5},
  };
  for (const Alias& a : kAliases) {
    if (s == a.name) return a.type;
  }
  return std::nullopt;
}

std::optional<SignatureType> parseSignatureType(std::string_view text) {
  bool pointer = false;
  if (!text.empty() && text.front() == '*') {
    pointer = true;
    text.remove_prefix(1);
  }
  auto dtype = parseDType(text);
  if (!dtype) return std::nullopt;
  return SignatureType{*dtype, pointer};
}

}  // namespace tilescope::ir
