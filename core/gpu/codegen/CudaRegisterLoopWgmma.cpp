// A register loop's dots as Hopper's warpgroup MMA (sm_90a), where the assign-layouts pass marked
// the loop's layouts `warpgroup`: warpgroup g (warps 4g..4g+3) computes rows [64g, 64g + 64) as
// m64nNk16 multiplies whose fp32 accumulator registers are exactly the #mma slots of mma.sync's
// layout (register 4i + j of lane l in warp w: row 16w + l/4 + 8 (j/2), column 8i + 2 (l%4) + j%2),
// and whose A operand is taken from registers in mma.sync's A fragment order (q converted on entry,
// p packed from the first dot's registers). B is read from its shared-memory stage, stored in the
// 128-byte swizzle (CudaWarpgroupMma.cpp): k (`tl.trans(k)`, N rows of K) K-major, v (K rows of N)
// MN-major, read transposed. Each dot is issued, committed and waited for before its result is read.
#include "core/gpu/codegen/CudaEmitter.h"

namespace tilescope::gpu {

namespace {

// d += A * B for one 64 x n tile and k = 16, A from four registers per thread; B K-major
// (imm-trans-b 0) or MN-major (1).
std::string registerAWrapper(int64_t n, const std::string& elem, bool bMnMajor, std::string& name) {
  name = "ts_wgmma_ra_m64n" + std::to_string(n) + "_" + elem + (bMnMajor ? "_t" : "");
  const int64_t regs = n / 2;
  std::string outs, list;
  wgmmaAccumulatorOperands(regs, list, outs);
  const std::string a = "{%" + std::to_string(regs) + ", %" + std::to_string(regs + 1) + ", %" + std::to_string(regs + 2) + ", %" +
                        std::to_string(regs + 3) + "}";
  std::string text = "TS_DEV void " + name + "(float (&d)[" + std::to_string(regs) + "], const ts_u32* a, unsigned long long b) {\n";
  text += "  asm volatile(\"wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32." + elem + "." + elem + " {" + list +
          "}, " + a + ", %" + std::to_string(regs + 4) + ", 1, 1, 1, " + (bMnMajor ? "1" : "0") + ";\"\n";
  text += "               : " + outs + "\n               : \"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), \"l\"(b));\n}\n";
  return text;
}

}  // namespace

void CudaEmitter::registerWarpgroupDot(const ir::Dot& n, const std::string& c, const std::string& frags, const std::string& stage,
                                       const std::string& aShared) {
  const int64_t N = n.type.shape()[1], Kd = n.a.type().shape()[1];
  const std::string elem = n.a.type().dtype() == ir::DType::BF16 ? "bf16" : "f16";
  const ir::VarRef* bref = n.b.as<ir::VarRef>();
  if (!bref) bref = n.b.as<ir::Permute>()->value.as<ir::VarRef>();
  const RegisterStage& s = registerStages_.at(bref->var->id);
  std::string name;
  if (aShared.empty()) {
    const std::string text = registerAWrapper(N, elem, !s.transposed, name);
    warpgroupInstructions_.emplace(name, text);
  } else {
    name = warpgroupInstruction(N, elem, s.transposed);  // A K-major in shared memory
  }
  std::string aOperand = frags + "[ts_k]";
  open("");
  line("const unsigned ts_sb = ts_shared_addr(" + stage + ");");
  if (!aShared.empty()) {
    // A: the warpgroup's 64 rows of the tile, panels of 64 columns (rows x 128 bytes) as B's.
    const int64_t rows = n.a.type().shape()[0];
    line("const unsigned ts_sa = ts_shared_addr(" + aShared + ") + (ts_tid >> 7) * 8192;");
    aOperand = "ts_wgmma_desc(ts_sa + (ts_k / 4) * " + n2s(rows * 128) + " + (ts_k % 4) * 32, 16, 1024)";
  }
  // The accumulator and A registers were written by ordinary instructions.
  line("ts_wgmma_fence();");
  line("#pragma unroll");
  open("for (int ts_k = 0; ts_k < " + n2s(Kd / 16) + "; ++ts_k)");
  if (s.transposed) {
    // k's rows are B's N columns, K contiguous: panel ts_k / 4 (rows x 128 bytes), 32 bytes a k-step.
    line(name + "(" + c + ", " + aOperand + ", ts_wgmma_desc(ts_sb + (ts_k / 4) * " +
         n2s(s.rows * 128) + " + (ts_k % 4) * 32, 16, 1024));");
  } else {
    // v's rows are B's K: 16 rows (2 KiB) a k-step; its N panels are rows x 128 bytes apart.
    line(name + "(" + c + ", " + aOperand + ", ts_wgmma_desc(ts_sb + ts_k * 2048, " +
         n2s(s.rows * 128) + ", 1024));");
  }
  close();
  line("ts_wgmma_commit();");
  line("ts_wgmma_wait<0>();");
  // The registers are the multiplies' until the wait: no read of them may move above it.
  line("#pragma unroll");
  line("for (int ts_u = 0; ts_u < " + n2s(N / 2) + "; ++ts_u) ts_hold_register(" + c + "[ts_u]);");
  close();
}

}  // namespace tilescope::gpu
