#include "core/gpu/codegen/CudaTypes.h"

#include <cstdio>
#include <cstring>

#include "core/base/Diagnostic.h"
#include "core/gpu/codegen/CudaFp8.h"
#include "core/ir/Numerics.h"

namespace tilescope::gpu {

using ir::DType;

std::string regType(DType t) {
  switch (t) {
    case DType::I1: return "bool";
    case DType::I8: return "ts_i8";
    case DType::I16: return "ts_i16";
    case DType::I32: return "ts_i32";
    case DType::I64: return "ts_i64";
    case DType::U8: return "ts_u8";
    case DType::U16: return "ts_u16";
    case DType::U32: return "ts_u32";
    case DType::U64: return "ts_u64";
    case DType::FP8E4NV:
    case DType::FP8E5:
    case DType::FP16:
    case DType::BF16:
    case DType::FP32: return "float";
    case DType::FP64: return "double";
  }
  return "int";
}

std::string memType(DType t) {
  switch (t) {
    case DType::I1:
    case DType::FP8E4NV:
    case DType::FP8E5: return "ts_u8";
    case DType::FP16:
    case DType::BF16: return "ts_u16";
    default: return regType(t);
  }
}

std::string regType(const ir::Type& t) { return t.isPointer() ? memType(t.dtype()) + "*" : regType(t.dtype()); }

std::string unsignedType(DType t) {
  switch (ir::bitWidth(t)) {
    case 8: return "ts_u8";
    case 16: return "ts_u16";
    case 64: return "ts_u64";
    default: return "ts_u32";
  }
}

std::string arithmeticType(DType t) { return ir::bitWidth(t) > 32 ? "ts_u64" : "ts_u32"; }

int regBytes(const ir::Type& t) {
  if (t.isPointer()) return 8;
  switch (t.dtype()) {
    case DType::I1:
    case DType::I8:
    case DType::U8: return 1;
    case DType::I16:
    case DType::U16: return 2;
    case DType::I64:
    case DType::U64:
    case DType::FP64: return 8;
    default: return 4;
  }
}

std::string fromMemory(DType t, const std::string& e) {
  switch (t) {
    case DType::I1: return "((" + e + ") != 0)";
    case DType::FP16: return "ts_h2f(" + e + ")";
    case DType::BF16: return "ts_b2f(" + e + ")";
    case DType::FP8E4NV:
    case DType::FP8E5: return fp8FromMemory(t, e);
    default: return e;
  }
}

std::string toMemory(DType t, const std::string& e) {
  switch (t) {
    case DType::I1: return "(ts_u8)(" + e + ")";
    case DType::FP16: return "ts_f2h(" + e + ")";
    case DType::BF16: return "ts_f2b(" + e + ")";
    case DType::FP8E4NV:
    case DType::FP8E5: return fp8ToMemory(t, e);
    default: return e;
  }
}

std::string roundTo(DType t, const std::string& e) {
  switch (t) {
    case DType::FP16: return "ts_rh(" + e + ")";
    case DType::BF16: return "ts_rb(" + e + ")";
    case DType::FP8E4NV:
    case DType::FP8E5: return fp8Round(t, e);
    default: return e;
  }
}

std::string intLiteral(DType t, int64_t v) {
  if (t == DType::I1) return (v & 1) ? "true" : "false";
  char buf[64];
  std::snprintf(buf, sizeof buf, "((%s)0x%llxull)", regType(t).c_str(), static_cast<unsigned long long>(v));
  return buf;
}

std::string floatLiteral(DType t, double v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  char buf[96];
  std::snprintf(buf, sizeof buf, "__longlong_as_double(0x%016llxll)", static_cast<unsigned long long>(bits));
  const std::string d = buf;
  switch (t) {
    case DType::FP64: return d;
    case DType::FP16:
    case DType::BF16:
      // Rounded once from the double here (cvt.rn.f16.f64 at run time would be an inline-PTX chain
      // per element that NVVM cannot fold), written as the exact fp32 bits of the rounded value.
    case DType::FP8E4NV:
    case DType::FP8E5: return floatLiteral(DType::FP32, sim::roundToDType(t, v));  // exact in fp32
    default: {
      // fp32: rounded once from the double here, written as exact bits.
      const float f = static_cast<float>(v);
      uint32_t fb = 0;
      std::memcpy(&fb, &f, sizeof fb);
      std::snprintf(buf, sizeof buf, "__int_as_float(0x%08x)", fb);
      return buf;
    }
  }
}

std::string memoryLiteral(DType t, double v) {
  char buf[64];
  switch (t) {
    case DType::FP16:
    case DType::BF16:
      std::snprintf(buf, sizeof buf, "((ts_u16)0x%04llx)", static_cast<unsigned long long>(sim::floatToBits(t, v)));
      return buf;
    default: return toMemory(t, floatLiteral(t, v));
  }
}

std::string printfFormat(const ir::Type& t, bool hex) {
  if (t.isPointer()) return "%p";
  switch (t.dtype()) {
    case DType::I1:
    case DType::I8:
    case DType::I16:
    case DType::I32: return hex ? "0x%x" : "%d";
    case DType::U8:
    case DType::U16:
    case DType::U32: return hex ? "0x%x" : "%u";
    case DType::I64: return hex ? "0x%llx" : "%lld";
    case DType::U64: return hex ? "0x%llx" : "%llu";
    default: return "%f";
  }
}

std::string printfArg(const ir::Type& t, const std::string& e) {
  if (t.isPointer()) return "(const void*)(" + e + ")";
  switch (t.dtype()) {
    case DType::I1:
    case DType::I8:
    case DType::I16:
    case DType::I32: return "(int)(" + e + ")";
    case DType::U8:
    case DType::U16:
    case DType::U32: return "(unsigned)(" + e + ")";
    case DType::I64: return "(long long)(" + e + ")";
    case DType::U64: return "(unsigned long long)(" + e + ")";
    default: return "(double)(" + e + ")";
  }
}

}  // namespace tilescope::gpu
