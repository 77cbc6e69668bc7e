#pragma once
// torch's dtype rules for the dtypes a host tensor can have (float16, bfloat16, float32, float64, int8,
// int16, int32, int64, uint8, bool, and the storage-only float8_e4m3fn and float8_e5m2), expressed
// with ir::DType.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/ir/DType.h"

namespace tilescope::host {

using ir::DType;

// The default floating dtype (torch.get_default_dtype()).
inline constexpr DType kDefaultFloat = DType::FP32;

// True for the dtypes host tensors support (no uint16/32/64 here; fp8 only stores and converts).
bool isTorchDType(DType t);
// "torch.float32", "torch.int64", "torch.bool", ...
std::string torchDTypeName(DType t);
// Parses "float32", "torch.float", "half", "long", ... ; nullopt for names torch would reject here.
std::optional<DType> parseTorchDType(std::string_view text);
// ATen's ScalarType name used in error messages: "Float", "Half", "BFloat16", "Long", "Bool", ...
std::string_view scalarTypeName(DType t);
// The C++ type name ATen prints for a TypeMeta: "float", "c10::Half", "long int", ...
std::string_view typeMetaName(DType t);
// Bytes per element (bool is one byte).
int64_t elementSize(DType t);

bool isFloatingType(DType t);
bool isIntegralType(DType t, bool includeBool);

// c10::promoteTypes: the lattice torch uses for two tensors of equal standing. A mix with an fp8
// type is an error, as in torch.
DType promoteTypes(DType a, DType b);

// One operand of torch.result_type: its dtype and how much say it has. Dimensioned tensors win over
// zero-dim tensors, which win over Python numbers ("wrapped numbers"); a lower-priority operand only
// matters when it is of a higher category (bool < integral < floating).
struct PromotionOperand {
  enum class Priority { Dimensioned, ZeroDim, WrappedNumber };
  DType dtype;
  Priority priority;
};
DType resultType(std::span<const PromotionOperand> operands);

}  // namespace tilescope::host
