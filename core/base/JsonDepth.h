#pragma once
// A guard against JSON nested so deeply that copying, comparing or writing it (nlohmann's recursive
// operations) would overflow the stack: every reader of outside JSON (notebooks, worker messages)
// asks this first and refuses such text with a clear message instead of crashing.
#include <cstddef>
#include <string_view>

namespace tilescope::util {

// Far above anything a notebook or a message needs (Python's json stops near 1000), far below what
// overflows a thread's stack.
inline constexpr std::size_t kMaxJsonDepth = 512;

// True when text has arrays/objects nested more than maxDepth levels. A SAX pass that builds
// nothing and stops at the first level too deep; broken JSON is left to the real parse to report.
bool jsonNestsDeeperThan(std::string_view text, std::size_t maxDepth = kMaxJsonDepth);

}  // namespace tilescope::util
