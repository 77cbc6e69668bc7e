// tl.trans of a 2-D fp16/bf16 tile in groups of 8 (16 bytes a group): staged as 16-bit elements,
// not as floats, in 16-byte chunks swizzled per group of 8 rows, so both the writes and the reads
// of shared memory are free of bank conflicts.
//
// The float staging of permute() (CudaTileOps.cpp) read each output group's 8 source rows one
// column apart: with 64-wide rows of floats every thread of a warp that reads the same k-th row of
// its group hits one of 4 banks (8-way conflicts), and the 16-byte row swizzle that fixed the fp32
// transpose does not fit 8-element groups (measured 0.69 -> 0.59 of Triton). Here row r keeps its
// 16-byte chunk q at chunk q ^ ((r / 8) % (cols / 8)): a thread's group of 8 source elements is one
// 16-byte store, and a warp reading element k of its groups, 8 rows apart, reads (cols / 8)
// different chunks of 16 banks.
#include "core/gpu/codegen/CudaEmitter.h"
#include "core/gpu/codegen/CudaTypes.h"

namespace tilescope::gpu {

bool CudaEmitter::canTranspose16(const ir::Permute& n) const {
  const ir::Type& src = n.value.type();
  if (src.rank() != 2 || n.order != std::vector<int>{1, 0}) return false;
  if (src.dtype() != ir::DType::FP16 && src.dtype() != ir::DType::BF16) return false;
  const int64_t rows = src.shape()[0], cols = src.shape()[1];
  // Whole 16-byte groups in each source and output row, at least two chunks a row to swizzle.
  return layout(src.numel()).vec == 8 && cols >= 16 && rows >= 8 && cols % 8 == 0 && rows % 8 == 0 &&
         (cols & (cols - 1)) == 0 && !guarded(src.numel());
}

std::string CudaEmitter::transpose16(const ir::Permute& n) {
  const ir::Type& src = n.value.type();
  const ir::Type& dst = n.type;
  const int64_t rows = src.shape()[0], cols = src.shape()[1];
  const ir::DType dt = src.dtype();
  // Packed 16-bit loads are stored as they are; other values are converted back to their bits.
  std::string words;
  if (const auto* ref = n.value.as<ir::VarRef>())
    if (auto it = packedLoads_.find(ref->var->id); it != packedLoads_.end()) words = it->second;
  const std::string v = words.empty() ? expr(n.value) : "";
  useShared(static_cast<size_t>(src.numel() * 2));
  // Element indices are then known non-negative: their divisions and remainders by the tile's
  // powers of two (here and in the masks and pointers of the loads and stores around) become shifts.
  assumeThreadRange_ = true;
  // The result stays in 16-bit registers: a store of it (the transpose kernel's) converts nothing.
  const std::string out = "t" + std::to_string(tempCounter_++);
  line("ts_u16 " + out + "[" + n2s(slots(dst.numel())) + "];");
  const std::string C = n2s(cols), R = n2s(rows), swz = n2s(cols / 8 - 1);
  open("");
  line("ts_u16* ts_s = (ts_u16*)ts_smem;");
  openGroups(src.numel());
  line("const int ts_r = ts_i0 / " + C + ";");
  line("const int ts_c = (((ts_i0 % " + C + ") >> 3) ^ ((ts_r >> 3) & " + swz + ")) << 3;");
  if (!words.empty()) {
    line("*(uint4*)(ts_s + ts_r * " + C + " + ts_c) = make_uint4(" + words + "[ts_g * 4], " + words + "[ts_g * 4 + 1], " +
         words + "[ts_g * 4 + 2], " + words + "[ts_g * 4 + 3]);");
  } else {
    line("ts_u16 ts_h[8];");
    line("#pragma unroll");
    open("for (int ts_k = 0; ts_k < 8; ++ts_k)");
    line("const int ts_j = ts_g * 8 + ts_k, ts_i = ts_i0 + ts_k;");
    line("ts_h[ts_k] = " + toMemory(dt, v) + ";");
    close();
    line("*(uint4*)(ts_s + ts_r * " + C + " + ts_c) = make_uint4(ts_pack2(ts_h[0], ts_h[1]), ts_pack2(ts_h[2], ts_h[3]), "
         "ts_pack2(ts_h[4], ts_h[5]), ts_pack2(ts_h[6], ts_h[7]));");
  }
  closeGroups(src.numel());
  sync();
  // Output element (c, r) is source element (r, c).
  openLoop(dst.numel());
  line("const int ts_c = ts_i / " + R + ", ts_r = ts_i % " + R + ";");
  line(out + "[ts_j] = ts_s[ts_r * " + C + " + ((((ts_c >> 3) ^ ((ts_r >> 3) & " + swz + ")) << 3) | (ts_c & 7))];");
  closeLoop(dst.numel());
  sync();
  close();
  return fromMemory(dt, out + "[ts_j]");
}

}  // namespace tilescope::gpu
