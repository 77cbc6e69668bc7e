#pragma once
// The program orders of a tiled matmul and what they cost in loads:
//  * swizzle2d: Triton's tl.swizzle2d(i, j, size_i, size_j, size_g) - the program at row-major
//    position (i, j) works on the tile it returns, so groups of size_g tile rows are walked column
//    by column;
//  * processing order: for every output tile, the position (i * size_j + j) of the program that
//    handles it - row-major numbering for the identity, "grouped ordering" for swizzle2d;
//  * distinct blocks: how many different A and B blocks the first W programs load when each output
//    tile (m, n) reads A's row of K blocks m and B's column of K blocks n (the tutorials' figure: on
//    a 9x9 block grid, 9 programs load 90 blocks row-major and 54 grouped with group size 3).
#include <cstdint>
#include <utility>
#include <vector>

namespace tilescope::viz {

// Triton's tl.swizzle2d, for non-negative sizes and 0 <= i < sizeI, 0 <= j < sizeJ.
std::pair<int64_t, int64_t> swizzle2d(int64_t i, int64_t j, int64_t sizeI, int64_t sizeJ, int64_t sizeG);

// order[m][n]: the row-major position of the program that processes output tile (m, n).
// groupSize <= 0 means no remapping (row-major order).
std::vector<std::vector<int64_t>> processingOrder(int64_t rows, int64_t cols, int64_t groupSize);

// The tile processed at each position, in order: the inverse of processingOrder.
std::vector<std::pair<int64_t, int64_t>> tilesInOrder(const std::vector<std::vector<int64_t>>& order);

struct BlockLoads {
  int64_t aBlocks = 0;
  int64_t bBlocks = 0;
  int64_t total() const { return aBlocks + bBlocks; }
};

// Distinct A and B blocks loaded by the programs at positions 0 .. programs-1 of `order`, each
// tile reading kBlocks blocks of A (its row) and of B (its column).
BlockLoads distinctBlocksLoaded(const std::vector<std::vector<int64_t>>& order, int64_t programs, int64_t kBlocks);

}  // namespace tilescope::viz
