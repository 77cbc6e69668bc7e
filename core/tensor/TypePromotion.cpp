#include "core/tensor/TypePromotion.h"

#include <array>

#include "core/tensor/TensorError.h"

namespace tilescope::host {

using ir::isFp8;

namespace {

// Row/column order of the promotion table below.
constexpr std::array<DType, 10> kTableOrder = {DType::U8,   DType::I8,   DType::I16,  DType::I32,
                                               DType::I64,  DType::FP16, DType::FP32, DType::FP64,
                                               DType::I1,   DType::BF16};

int tableIndex(DType t) {
  for (size_t i = 0; i < kTableOrder.size(); ++i) {
    if (kTableOrder[i] == t) return static_cast<int>(i);
  }
  throw TensorError("dtype " + std::string(ir::dtypePythonName(t)) + " is not supported by host tensors",
                    TensorError::Kind::TypeError);
}

// c10's promoteTypes table restricted to our dtypes. Notable entries: uint8+int8 -> int16 (no common
// 8-bit type), float16+bfloat16 -> float32, bool is the identity.
constexpr DType u1 = DType::U8, i1 = DType::I8, i2 = DType::I16, i4 = DType::I32, i8 = DType::I64,
                f2 = DType::FP16, f4 = DType::FP32, f8 = DType::FP64, b1 = DType::I1, bf = DType::BF16;
constexpr DType kPromote[10][10] = {
    //        u1  i1  i2  i4  i8  f2  f4  f8  b1  bf
    /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, u1, bf},
    /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, i1, bf},
    /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, i2, bf},
    /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, i4, bf},
    /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, i8, bf},
    /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, f2, f4},
    /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, f4, f4},
    /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8},
    /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, b1, bf},
    /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, bf, bf},
};

// at::native::combine_categories: the higher-priority result keeps its dtype unless the lower-priority
// one is of a higher category.
std::optional<DType> combineCategories(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (isFloatingType(*higher)) return higher;
  if (*higher == DType::I1 || isFloatingType(*lower)) return promoteTypes(*higher, *lower);
  return higher;
}

}  // namespace

bool isTorchDType(DType t) {
  if (isFp8(t)) return true;
  for (DType d : kTableOrder) {
    if (d == t) return true;
  }
  return false;
}

std::string torchDTypeName(DType t) {
  switch (t) {
    case DType::I1: return "torch.bool";
    case DType::I8: return "torch.int8";
    case DType::I16: return "torch.int16";
    case DType::I32: return "torch.int32";
    case DType::I64: return "torch.int64";
    case DType::U8: return "torch.uint8";
    case DType::FP16: return "torch.float16";
    case DType::BF16: return "torch.bfloat16";
    case DType::FP32: return "torch.float32";
    case DType::FP64: return "torch.float64";
    case DType::FP8E4NV: return "torch.float8_e4m3fn";
    case DType::FP8E5: return "torch.float8_e5m2";
    default: return "torch." + std::string(ir::dtypePythonName(t));
  }
}

std::optional<DType> parseTorchDType(std::string_view text) {
  if (text.substr(0, 6) == "torch.") text.remove_prefix(6);
  // torch.int is int32 and torch.long int64; ir::parseDType agrees on those aliases.
  if (text == "int1") return std::nullopt;  // Triton's spelling, not torch's
  // ir::parseDType also takes Triton's fp8 spellings (float8e4nv, fp8e5, ...); torch has only these.
  if (text == "float8_e4m3fn") return DType::FP8E4NV;
  if (text == "float8_e5m2") return DType::FP8E5;
  auto parsed = ir::parseDType(text);
  if (!parsed || !isTorchDType(*parsed) || isFp8(*parsed)) return std::nullopt;
  return parsed;
}

std::string_view scalarTypeName(DType t) {
  switch (t) {
    case DType::I1: return "Bool";
    case DType::I8: return "Char";
    case DType::I16: return "Short";
    case DType::I32: return "Int";
    case DType::I64: return "Long";
    case DType::U8: return "Byte";
    case DType::FP16: return "Half";
    case DType::BF16: return "BFloat16";
    case DType::FP32: return "Float";
    case DType::FP64: return "Double";
    case DType::FP8E4NV: return "Float8_e4m3fn";
    case DType::FP8E5: return "Float8_e5m2";
    default: return ir::dtypePythonName(t);
  }
}

std::string_view typeMetaName(DType t) {
  switch (t) {
    case DType::I1: return "bool";
    case DType::I8: return "signed char";
    case DType::I16: return "short int";
    case DType::I32: return "int";
    case DType::I64: return "long int";
    case DType::U8: return "unsigned char";
    case DType::FP16: return "c10::Half";
    case DType::BF16: return "c10::BFloat16";
    case DType::FP32: return "float";
    case DType::FP64: return "double";
    case DType::FP8E4NV: return "c10::Float8_e4m3fn";
    case DType::FP8E5: return "c10::Float8_e5m2";
    default: return ir::dtypePythonName(t);
  }
}

int64_t elementSize(DType t) { return t == DType::I1 ? 1 : ir::bitWidth(t) / 8; }

bool isFloatingType(DType t) { return ir::isFloat(t); }

bool isIntegralType(DType t, bool includeBool) {
  if (t == DType::I1) return includeBool;
  return ir::isInt(t);
}

DType promoteTypes(DType a, DType b) {
  if (a == b) return a;
  if (isFp8(a) || isFp8(b)) {
    // c10::promoteTypes refuses every mix with an fp8 type (a RuntimeError), in these words.
    throw TensorError("Promotion for Float8 Types is not supported, attempted to promote " +
                          std::string(scalarTypeName(a)) + " and " + std::string(scalarTypeName(b)));
  }
  return kPromote[tableIndex(a)][tableIndex(b)];
}

DType resultType(std::span<const PromotionOperand> operands) {
  std::optional<DType> dimResult, zeroResult, wrappedResult;
  for (const PromotionOperand& op : operands) {
    DType current = op.dtype;
    std::optional<DType>* slot = &dimResult;
    if (op.priority == PromotionOperand::Priority::WrappedNumber) {
      // A Python float is weak: it counts as the default dtype, not float64.
      if (isFloatingType(current)) current = kDefaultFloat;
      slot = &wrappedResult;
    } else if (op.priority == PromotionOperand::Priority::ZeroDim) {
      slot = &zeroResult;
    }
    *slot = *slot ? promoteTypes(**slot, current) : current;
  }
  auto result = combineCategories(combineCategories(dimResult, zeroResult), wrappedResult);
  if (!result) throw TensorError("result_type needs at least one operand");
  return *result;
}

}  // namespace tilescope::host
