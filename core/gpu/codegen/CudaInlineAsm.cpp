// tl.inline_asm_elementwise in CUDA C++: the arguments staged in shared memory, each thread running
// the asm on groups of `pack` consecutive elements (Triton leaves the grouping unspecified), with
// the operands packed into registers as ir::InlineAsm describes, the results unpacked back through
// shared memory into the element layout.
#include <algorithm>
#include <cctype>

#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"

namespace tilescope::gpu {

namespace {

using ir::DType;

// The raw bits of a register value of dtype t, as ts_u64.
std::string bitsOf(DType t, const std::string& e) {
  switch (t) {
    case DType::FP32: return "((ts_u64)__float_as_uint(" + e + "))";
    case DType::FP64: return "((ts_u64)__double_as_longlong(" + e + "))";
    case DType::FP16:
    case DType::BF16:
    case DType::FP8E4NV:
    case DType::FP8E5: return "((ts_u64)" + toMemory(t, e) + ")";
    case DType::I1: return "((ts_u64)(" + e + " ? 1u : 0u))";
    default: return "((ts_u64)(" + unsignedType(t) + ")(" + e + "))";
  }
}

// A register value of dtype t from its bits (a ts_u64 expression).
std::string fromBits(DType t, const std::string& b) {
  switch (t) {
    case DType::FP32: return "__uint_as_float((ts_u32)(" + b + "))";
    case DType::FP64: return "__longlong_as_double((long long)(" + b + "))";
    case DType::FP16:
    case DType::BF16: return fromMemory(t, "(ts_u16)(" + b + ")");
    case DType::FP8E4NV:
    case DType::FP8E5: return fromMemory(t, "(ts_u8)(" + b + ")");
    case DType::I1: return "(((" + b + ") & 1) != 0)";
    default: return "(" + regType(t) + ")(" + unsignedType(t) + ")(" + b + ")";
  }
}

std::vector<std::string> splitConstraints(const std::string& constraints) {
  std::vector<std::string> out(1);
  for (char c : constraints) {
    if (c == ',') out.emplace_back();
    else if (c != ' ' && c != '\t' && c != '\n') out.back() += c;
  }
  return out;
}

// The C type of an operand with this constraint ("=r", "f", "=&l", ...).
std::string operandType(const std::string& constraint, const lang::SourceRange& r) {
  const size_t at = constraint.find_first_not_of("=&+");
  const char letter = at == std::string::npos ? '?' : constraint[at];
  switch (letter) {
    case 'h': return "ts_u16";
    case 'r': return "ts_u32";
    case 'l': return "ts_u64";
    case 'f': return "float";
    case 'd': return "double";
    default: CudaEmitter::unsupported(r, "inline asm constraint '" + constraint + "' (tilescope passes h, r, l, f and d registers)");
  }
}

std::string operandFromBits(const std::string& type, const std::string& bits) {
  if (type == "float") return "__uint_as_float((ts_u32)(" + bits + "))";
  if (type == "double") return "__longlong_as_double((long long)(" + bits + "))";
  return "(" + type + ")(" + bits + ")";
}

std::string operandBits(const std::string& type, const std::string& name) {
  if (type == "float") return "((ts_u64)__float_as_uint(" + name + "))";
  if (type == "double") return "((ts_u64)__double_as_longlong(" + name + "))";
  return "((ts_u64)" + name + ")";
}

// Triton's asm text ($0, $1, ...) as a C string literal for CUDA's asm() (%0, %1, ...; a literal
// % doubled).
std::string asmLiteral(const std::string& text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '$' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) out += '%';
    else if (c == '%') out += "%%";
    else if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n\"\n      \"";
    else out += c;
  }
  return out + "\"";
}

}  // namespace

std::string CudaEmitter::inlineAsm(const ir::InlineAsm& n) {
  const int64_t numel = n.type.numel();
  const int pack = n.pack;
  std::vector<std::string> values;
  for (const ir::Expr& a : n.args) values.push_back(expr(a));
  std::vector<size_t> offsets;
  size_t bytes = 0;
  auto reserve = [&](DType t) {
    offsets.push_back(bytes);
    bytes += (static_cast<size_t>(numel * regBytes(ir::Type::scalar(t))) + 15) / 16 * 16;
  };
  for (const ir::Expr& a : n.args) reserve(a.type().dtype());
  for (DType t : n.resultDTypes) reserve(t);
  useShared(bytes);
  const std::vector<std::string> constraints = splitConstraints(n.constraints);
  const std::string res = declareTemp(n.type);
  const size_t nargs = n.args.size();
  open("");
  for (size_t k = 0; k < nargs; ++k) stageToShared(values[k], n.args[k].type(), "ts_a" + std::to_string(k), offsets[k]);
  for (size_t r = 0; r < n.resultDTypes.size(); ++r) {
    const std::string T = regType(n.resultDTypes[r]);
    line(T + "* ts_o" + std::to_string(r) + " = (" + T + "*)(ts_smem + " + std::to_string(offsets[nargs + r]) + ");");
  }
  sync();
  open("for (int ts_g = ts_tid; ts_g < " + n2s(numel / pack) + "; ts_g += " + n2s(threads_) + ")");
  line("const int ts_e = ts_g * " + n2s(pack) + ";");
  size_t operand = 0;
  std::string outs, ins;
  // Result registers, declared uninitialised for the asm to write.
  std::vector<std::vector<std::pair<std::string, std::string>>> resultRegs;  // (name, C type) per result
  for (size_t r = 0; r < n.resultDTypes.size(); ++r) {
    resultRegs.emplace_back();
    for (int q = 0; q < ir::InlineAsm::registersFor(n.resultDTypes[r], pack); ++q, ++operand) {
      const std::string name = "ts_r" + std::to_string(r) + "_" + std::to_string(q);
      const std::string type = operandType(constraints.at(operand), n.range);
      line(type + " " + name + ";");
      resultRegs.back().emplace_back(name, type);
      outs += (outs.empty() ? "" : ", ") + std::string("\"") + constraints[operand] + "\"(" + name + ")";
    }
  }
  // Argument registers: elements narrower than 32 bits packed, the first in the low bits.
  for (size_t k = 0; k < nargs; ++k) {
    const DType t = n.args[k].type().dtype();
    const int regs = ir::InlineAsm::registersFor(t, pack);
    const int per = pack / regs;
    const int bits = std::max(8, ir::bitWidth(t));
    for (int q = 0; q < regs; ++q, ++operand) {
      std::string packed;
      for (int e = 0; e < per; ++e) {
        const std::string elem = bitsOf(t, "ts_a" + std::to_string(k) + "[ts_e + " + std::to_string(q * per + e) + "]");
        const std::string masked = bits < 64 ? "(" + elem + " & " + std::to_string((1ull << bits) - 1) + "ull)" : elem;
        packed += (packed.empty() ? "" : " | ") + (e ? "(" + masked + " << " + std::to_string(e * bits) + ")" : masked);
      }
      const std::string name = "ts_in" + std::to_string(k) + "_" + std::to_string(q);
      const std::string type = operandType(constraints.at(operand), n.range);
      line("const " + type + " " + name + " = " + operandFromBits(type, packed) + ";");
      ins += (ins.empty() ? "" : ", ") + std::string("\"") + constraints[operand] + "\"(" + name + ")";
    }
  }
  line(std::string(n.isPure ? "asm(" : "asm volatile(") + asmLiteral(n.asmText) + "\n      : " + outs + "\n      : " + ins + ");");
  // Results unpacked into shared memory.
  for (size_t r = 0; r < n.resultDTypes.size(); ++r) {
    const DType t = n.resultDTypes[r];
    const int regs = static_cast<int>(resultRegs[r].size());
    const int per = pack / regs;
    const int bits = std::max(8, ir::bitWidth(t));
    for (int q = 0; q < regs; ++q)
      for (int e = 0; e < per; ++e) {
        std::string b = operandBits(resultRegs[r][q].second, resultRegs[r][q].first);
        if (e) b = "(" + b + " >> " + std::to_string(e * bits) + ")";
        line("ts_o" + std::to_string(r) + "[ts_e + " + std::to_string(q * per + e) + "] = " + fromBits(t, b) + ";");
      }
  }
  close();
  sync();
  openLoop(numel);
  line(res + "[ts_j] = ts_o" + std::to_string(n.output) + "[ts_i];");
  closeLoop(numel);
  sync();
  close();
  return element(res, n.type);
}

}  // namespace tilescope::gpu
