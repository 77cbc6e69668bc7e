// Hopper warpgroup MMA (PTX wgmma.mma_async, sm_90a) for a pipelined resident dot (CudaEmitter::
// WarpgroupMma). The operands stay in the cp.async ring, laid out in wgmma's 128-byte swizzle: A (M x K,
// K contiguous, "K-major") and B (K x N, N contiguous, "MN-major", read transposed; or, for
// `a @ b.T` of a loaded N x K tile, N x K "K-major" like A) in panels of 64
// columns, each panel `rows` rows of 128 bytes, the 16-byte chunk c of row r stored at chunk c ^ (r % 8)
// so that eight rows of one chunk column fall on different banks; an operand whose rows are 64 (32)
// bytes, BLOCK_K = 32 (16), is in the 64-byte (32-byte) swizzle instead, the stream's swizzleBytes
// (chunk c of row r at c ^ ((r / 2) % 4), or c ^ ((r / 4) % 2)). The tensor cores read them through
// 64-bit shared-memory descriptors; the accumulators are registers in wgmma's fragment layout.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"

namespace tilescope::gpu {

std::string CudaEmitter::warpgroupInstruction(int64_t n, const std::string& elem, bool bKMajor) {
  const std::string name = "ts_wgmma_m64n" + n2s(n) + "_" + elem + (bKMajor ? "_kb" : "");
  if (warpgroupInstructions_.count(name)) return name;
  // d += A * B for one 64 x n tile and k = 16: A K-major, B MN-major (imm-trans-b = 1) or K-major
  // (imm-trans-b = 0: B given as N rows of K, `a @ b.T`), scale-d on.
  const int64_t regs = n / 2;
  std::string outs, list;
  wgmmaAccumulatorOperands(regs, list, outs);
  std::string text = "TS_DEV void " + name + "(float (&d)[" + n2s(regs) + "], unsigned long long a, unsigned long long b) {\n";
  text += "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %" + n2s(regs + 2) + ", 0;\\n\"\n";
  text += "               \"wgmma.mma_async.sync.aligned.m64n" + n2s(n) + "k16.f32." + elem + "." + elem + " {" + list + "}, %" +
          n2s(regs) + ", %" + n2s(regs + 1) + ", p, 1, 1, 0, " + (bKMajor ? "0" : "1") + ";\\n}\\n\"\n";
  text += "               : " + outs + "\n               : \"l\"(a), \"l\"(b), \"r\"(1));\n}\n";
  warpgroupInstructions_[name] = text;
  return name;
}

std::string CudaEmitter::warpgroupDescriptor(int64_t swizzleBytes) {
  if (swizzleBytes == 128) return "ts_wgmma_desc";  // the prelude's
  // The descriptor's swizzle mode (bits 62-63): 1 128B, 2 64B, 3 32B. Added to kernels that use it.
  const std::string name = "ts_wgmma_desc_" + n2s(swizzleBytes) + "b";
  if (warpgroupInstructions_.count(name)) return name;
  const std::string mode = swizzleBytes == 64 ? "2" : "3";
  warpgroupInstructions_[name] =
      "// A shared-memory matrix descriptor with the " + n2s(swizzleBytes) + "-byte swizzle (mode " + mode + ").\n"
      "TS_DEV unsigned long long " + name + "(unsigned addr, unsigned leading, unsigned stride) {\n"
      "  return (unsigned long long)((addr & 0x3FFFFu) >> 4) | ((unsigned long long)(leading >> 4) << 16) |\n"
      "         ((unsigned long long)(stride >> 4) << 32) | (" + mode + "ull << 62);\n}\n";
  return name;
}

void CudaEmitter::declareWarpgroupAccumulator(const WarpgroupMma& g, const std::string& name) {
  line("float " + name + "[" + n2s(g.tiles) + "][" + n2s(g.n / 2) + "];");
}

void CudaEmitter::moveWarpgroupAccumulator(const TensorCoreLayout& l, const WarpgroupMma& g, const std::string& acc,
                                           bool toShared) {
  if (g.transposed) {
    moveTransposedAccumulator(l, g, acc, toShared);
    return;
  }
  // wgmma's m64nN fp32 fragment: register 4i + j of thread t (warp w = t / 32 of its warpgroup, lane
  // t % 32) holds row 16w + lane / 4 + 8 (j / 2), column 8i + 2 (lane % 4) + j % 2 of the 64-row tile.
  open("");
  line("const int ts_wt = ts_tid & 127, ts_wg = ts_tid >> 7;");
  line("float* ts_c = (float*)(ts_smem + " + std::to_string(l.offC) + ");");
  line("#pragma unroll");
  open("for (int ts_t = 0; ts_t < " + n2s(g.tiles) + "; ++ts_t)");
  // Registers 2i and 2i + 1 are neighbours in a row: one 8-byte shared access per pair (ldc is even).
  line("#pragma unroll");
  open("for (int ts_r = 0; ts_r < " + n2s(g.n / 2) + "; ts_r += 2)");
  line("const int ts_row = ts_wg * " + n2s(g.rowsPerGroup) +
       " + ts_t * 64 + (ts_wt >> 5) * 16 + ((ts_wt & 31) >> 2) + 8 * ((ts_r & 3) >> 1);");
  line("const int ts_col = 8 * (ts_r >> 2) + 2 * (ts_wt & 3);");
  line("float2& ts_p = *(float2*)&ts_c[ts_row * " + n2s(l.ldc) + " + ts_col];");
  line(toShared ? "ts_p = make_float2(" + acc + "[ts_t][ts_r], " + acc + "[ts_t][ts_r + 1]);"
                : acc + "[ts_t][ts_r] = ts_p.x; " + acc + "[ts_t][ts_r + 1] = ts_p.y;");
  close();
  close();
  close();
  sync();
}

void CudaEmitter::warpgroupStep(const ResidentAccumulator& r) {
  const Pipeline& p = *pipeline_;
  const WarpgroupMma& g = *p.wgmma;
  if (g.transposed) {
    tf32WarpgroupStep(r);
    return;
  }
  const TensorCoreLayout& l = r.layout;
  // The stage is complete; cp.async and element-wise writes become visible to the tensor cores'
  // (async proxy) reads through the fence, to every warpgroup through the barrier.
  if (p.tma) {
    // The stage's boxes landed (the tensor engine writes in the async proxy wgmma reads in).
    tmaWait();
  } else {
    line("ts_cp_wait<" + n2s(p.stages - 2) + ">();");
    line("ts_fence_async_shared();");
    sync();
  }
  open("");
  line("const unsigned ts_sa = ts_shared_addr(" + p.ring + " + " + p.slot + " * " + std::to_string(p.stageBytes) + ");");
  line("const int ts_wg = ts_tid >> 7;");
  line("ts_wgmma_fence();");
  line("#pragma unroll");
  open("for (int ts_k = 0; ts_k < " + n2s(l.k / 16) + "; ++ts_k)");
  line("#pragma unroll");
  open("for (int ts_t = 0; ts_t < " + n2s(g.tiles) + "; ++ts_t)");
  // A: panel ts_k / 4, rows from the warpgroup's tile, 32 bytes per k-step inside the 128-byte row;
  // B: 16 rows (2 KiB) per k-step; its N panels are k * 128 bytes apart (the leading byte offset).
  // With the 64-byte (32-byte) swizzle of BLOCK_K = 32 (16): rows of 64 (32) bytes, 2 (1) k-steps
  // a panel, 8-row groups 512 (256) bytes apart (the stride byte offset).
  const int64_t swA = p.a.swizzleBytes, swB = p.b.swizzleBytes;
  const std::string descA = warpgroupDescriptor(swA) + "(ts_a, 16, " + n2s(8 * swA) + ")";
  line("const unsigned ts_a = ts_sa + (ts_k / " + n2s(swA / 32) + ") * " + n2s(l.m * swA) + " + (ts_wg * " + n2s(g.rowsPerGroup) +
       " + ts_t * 64) * " + n2s(swA) + " + (ts_k % " + n2s(swA / 32) + ") * 32;");
  if (p.bTransposed) {
    // B K-major, N rows of swizzled rows per panel, like A: panel ts_k / 4, 32 bytes per k-step.
    line("const unsigned ts_b = ts_sa + " + std::to_string(p.b.offset) + " + (ts_k / " + n2s(swB / 32) + ") * " + n2s(l.n * swB) +
         " + (ts_k % " + n2s(swB / 32) + ") * 32;");
    line(warpgroupInstruction(g.n, g.elem, true) + "(" + r.frags + "[ts_t], " + descA + ", " + warpgroupDescriptor(swB) +
         "(ts_b, 16, " + n2s(8 * swB) + "));");
  } else {
    line("const unsigned ts_b = ts_sa + " + std::to_string(p.b.offset) + " + ts_k * " + n2s(16 * swB) + ";");
    line(warpgroupInstruction(g.n, g.elem) + "(" + r.frags + "[ts_t], " + descA + ", " + warpgroupDescriptor(swB) + "(ts_b, " +
         n2s(l.k * swB) + ", " + n2s(8 * swB) + "));");
  }
  close();
  close();
  line("ts_wgmma_commit();");
  close();
  // This iteration's multiplies stay in flight behind the previous iteration's (the tensor cores
  // never wait for the barriers): once this warpgroup's previous ones are done and every
  // warpgroup has said so at the barrier, the slot they read takes the copies of a later iteration.
  line("ts_wgmma_wait<1>();");
  holdWarpgroupAccumulator(g, r.frags);
  sync();
  stageNextIteration();
  advanceSlot();
}

void CudaEmitter::holdWarpgroupAccumulator(const WarpgroupMma& g, const std::string& frags) {
  // The registers are the multiplies' until their wait: the compiler must not move reads or
  // writes of them across it.
  line("#pragma unroll");
  line("for (int ts_u = 0; ts_u < " + n2s(g.tiles * g.n / 2) + "; ++ts_u) ts_hold_register((&" + frags + "[0][0])[ts_u]);");
}

void wgmmaAccumulatorOperands(int64_t regs, std::string& list, std::string& outs) {
  for (int64_t i = 0; i < regs; ++i) {
    list += (i ? ", %" : "%") + n2s(i);
    outs += std::string(i ? ", " : "") + "\"+f\"(d[" + n2s(i) + "])";
  }
}

}  // namespace tilescope::gpu
