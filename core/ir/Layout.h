#pragma once
// Where the elements of a tile value live across a program's threads, as Triton's GPU dialect says
// it: the GPU pipeline's layout passes assign these (assign-layouts to the values of a loop it keeps
// in tensor-core registers, assign-blocked-layouts the blocked layout to every other tile var), and
// the CUDA emitter prints what they say.
#include <cstdint>
#include <string>
#include <vector>

namespace tilescope::ir {

enum class LayoutKind : uint8_t {
  // mma.sync m16n8k16's accumulator: warp w owns rows [16w, 16w + 16); in each 16 x 8 block lane l
  // holds rows l/4 and l/4 + 8, columns 2(l%4) and 2(l%4) + 1.
  Mma,
  // A row vector sliced out of Mma along its columns (dim 1): each thread holds its two rows, the
  // four lanes of a quad the same values. Reductions along rows are quad shuffles; `x[:, None]`
  // broadcasts read registers.
  RowSlice,
  // mma.sync's A operand (16 x 16 fragments of 16-bit floats packed in pairs), the dot's rows as Mma's.
  DotOperandA,
  // A dot's B operand staged in shared memory (padded rows, read by ldmatrix), copied by cp.async
  // one iteration ahead.
  SharedOperand,
  // The blocked layout (CudaCodegen's BlockedLayout): the tile's elements in row-major order (the
  // last dim fastest, `order`), in groups of `vec` consecutive elements; group g is in thread
  // g % threads at slots (g / threads) * vec ... + vec - 1, so a thread holds `slots` =
  // ceil(numel / (threads * vec)) * vec slots, those past the tile's end unused. Invariants: vec is
  // 1, 2, 4 or 8, divides numel and the last dim of every tile of this numel in the kernel (so
  // reshapes and expand_dims move no data), and every tile value of one numel has the same vec (the
  // kernel's `blockedVectorWidths`); threads is num_warps * 32.
  // Also the default every value without an assigned layout has, named so that a conversion can say
  // it is going back there (such a conversion's target leaves vec, threads, slots and order unset).
  Blocked,
};

struct TileLayout {
  LayoutKind kind = LayoutKind::Mma;
  int warpsM = 1;  // warps along the rows, each owning 16 (the Mma layout the others refer to)
  // SharedOperand: the dot reads the tile transposed (tl.trans(k) as B, K's rows are B's columns).
  bool transposed = false;
  // DotOperandA of a value defined before the loop: converted once on entry.
  bool convertedOnEntry = false;
  // The loop's dots run as Hopper's warpgroup MMA (wgmma, sm_90a): each warpgroup of 4 warps owns
  // 64 rows, Mma's registers are wgmma's m64nN accumulator fragments (the same slots: warp w's 16
  // rows, lane l's rows l/4 and l/4 + 8), DotOperandA its A-from-registers fragments (a value
  // converted on entry, q, is staged once in shared memory in the swizzle below instead), and a
  // SharedOperand a stage in the 128-byte swizzle (panels of 64 columns) read through descriptors.
  bool warpgroup = false;
  // SharedOperand: shared-memory stages of the ring (copies run stages - 1 iterations ahead).
  int stages = 2;
  // Blocked: elements per group, threads, slots per thread, dims fastest first ([rank - 1, ..., 0]).
  int vec = 1;
  int threads = 0;
  int slotsPerThread = 0;  // not `slots`: Qt defines that word as a macro
  std::vector<int> order;
  std::string str() const;
};

}  // namespace tilescope::ir
