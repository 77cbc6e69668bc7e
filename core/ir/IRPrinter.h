#pragma once
// Stable, readable text for the IR: golden files, the UI's IR view and debugging.
//
// One node per line. A statement prints its expression tree bottom-up: every interior node gets a
// temporary `%N = op operands : type` line (numbered through the whole kernel), leaves are written
// inline, and the statement's own line comes last:
//
//   kernel add_kernel(%x_ptr: ptr<fp32>, %n_elements: i32, BLOCK_SIZE: constexpr = 1024) {
//     let pid: i32 = program_id 0
//     %0 = splat pid : tensor<1024xi32>
//     %1 = arange 0, 1024 : tensor<1024xi32>
//     let offsets: tensor<1024xi32> = add %0, %1
//     ...
//   }
//
// Leaves: parameters `%name`, variables `name` (distinct vars sharing a Python name get `name.1`,
// `name.2` in order of appearance), constants `1024:i32`, `0.5:fp32`, `true`. Mutable variables are
// introduced by `var` instead of `let`. With Options::locations every line ends with
// loc("file":line:col) of its node.
#include <string>

#include "core/ir/Kernel.h"

namespace tilescope::ir {

class IRPrinter {
public:
  struct Options {
    bool locations = false;
  };

  IRPrinter() = default;
  explicit IRPrinter(Options options) : options_(options) {}

  std::string print(const Kernel& kernel) const;
  // A statement (or expression) on its own; variables print by name.
  std::string print(const Stmt& stmt) const;
  std::string print(const Expr& expr) const;

private:
  Options options_;
};

}  // namespace tilescope::ir
