#pragma once
// A launch grid of 1 to 3 dimensions and the mapping between program ids and their linear
// index (pid_0 varies fastest, like CUDA's blockIdx.x). Programs run, print and are traced in
// linear order.
#include <array>
#include <cstdint>
#include <string>

namespace tilescope::sim {

struct Grid {
  int64_t x = 1;
  int64_t y = 1;
  int64_t z = 1;

  int64_t count() const { return x * y * z; }
  std::array<int64_t, 3> pidOf(int64_t linear) const { return {linear % x, (linear / x) % y, linear / (x * y)}; }
  int64_t linearOf(const std::array<int64_t, 3>& pid) const { return pid[0] + x * (pid[1] + y * pid[2]); }
  std::array<int64_t, 3> dims() const { return {x, y, z}; }
};

// "(1, 0, 0)" - how messages and print lines name a program.
inline std::string pidString(const std::array<int64_t, 3>& pid) {
  return "(" + std::to_string(pid[0]) + ", " + std::to_string(pid[1]) + ", " + std::to_string(pid[2]) + ")";
}

}  // namespace tilescope::sim
