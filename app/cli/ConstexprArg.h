#pragma once
// Parses constexpr values written on the command line (`-D BLOCK=1024`, signature entries):
// ints, floats, True/False/None, dtype names (fp16, tl.float16), anything else as a string.
#include <string>

#include "core/kernel/ConstValue.h"

namespace tilescope::cli {

lang::ConstValue parseConstexprArg(const std::string& text);

}  // namespace tilescope::cli
