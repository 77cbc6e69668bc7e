#pragma once
// Where the elements of a tile value live across a program's threads, as Triton's GPU dialect says
// it: the GPU pipeline's layout pass assigns these to the values of a loop it keeps in tensor-core
// registers, and the CUDA emitter prints what they say. A value with no assigned layout is in the
// default blocked layout (element i of a tile at slot j of thread t by CudaCodegen's BlockedLayout).
#include <cstdint>
#include <string>

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
  // The default: the blocked layout every value without an assigned layout has (CudaCodegen's
  // BlockedLayout). Named so that a conversion can say it is going back there.
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
  std::string str() const;
};

}  // namespace tilescope::ir
