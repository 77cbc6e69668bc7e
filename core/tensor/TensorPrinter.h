#pragma once
// str(tensor) / repr(tensor) exactly as torch prints with its default print options (precision 4,
// threshold 1000, edgeitems 3, linewidth 80, automatic scientific mode): column alignment, integer-
// valued floats as "1.", scientific notation when the magnitudes call for it, "..." summaries, line
// wrapping, and the dtype=/device=/size= suffixes. requires_grad is never shown (tilescope has no
// autograd).
#include <cstdint>
#include <optional>
#include <string>

#include "core/tensor/Tensor.h"

namespace tilescope::host {

// torch.set_printoptions.
struct PrintOptions {
  int precision = 4;
  int64_t threshold = 1000;
  int64_t edgeitems = 3;
  int64_t linewidth = 80;
  std::optional<bool> sciMode;  // nullopt: chosen per tensor like torch
};

std::string toString(const Tensor& t, const PrintOptions& options = {});

}  // namespace tilescope::host
