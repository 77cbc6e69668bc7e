#pragma once
// Python-style tracebacks: the frames an exception passed through and their text form
//   Traceback (most recent call last):
//     File "x.py", line 12, in add
//       return a + b
//   TypeError: unsupported operand type(s) for +: 'int' and 'str'
#include <string>
#include <vector>

#include "core/lang/SourceFile.h"

namespace tilescope::host {

struct TracebackEntry {
  std::string file;
  int line = 0;    // 1-based, 0 = unknown
  int column = 0;  // 1-based, 0 = unknown
  std::string function;    // "<module>", "add", "<lambda>"
  std::string sourceLine;  // stripped of indentation

  static TracebackEntry at(const lang::SourceRange& range, std::string function);
};

class Traceback {
public:
  // The whole text, with a trailing newline. `detail` (e.g. a clang-style kernel diagnostic) goes
  // between the frames and the final "Type: message" line when not empty.
  static std::string render(const std::vector<TracebackEntry>& frames, const std::string& type,
                            const std::string& message, const std::string& detail = {});
  // Only the last line: "TypeError: message" (or just "TypeError" for an empty message).
  static std::string lastLine(const std::string& type, const std::string& message);
};

}  // namespace tilescope::host
