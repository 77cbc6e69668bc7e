#pragma once
// The methods of Python's str (split, join, replace, format, ...) and the code-point helpers behind
// len() and indexing of UTF-8 text.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/host/Value.h"

namespace tilescope::host {

class StrObject;

// s.name as a bound builtin, or nullopt when str has no such method.
std::optional<Value> stringMethod(Interpreter& in, std::shared_ptr<StrObject> self, const std::string& name);
// "text %s" % args (printf-style formatting: %s %r %d %i %f %e %g %x %%, with flags and width).
Value percentFormat(Interpreter& in, const std::string& fmt, const Value& args);
// str.format(*args, **kwargs): {} {0} {name} {x.attr} {x[0]} with !r/!s conversions and specs.
std::string strFormat(Interpreter& in, const std::string& fmt, const CallArgs& args);

int64_t utf8Length(const std::string& s);
// Python slicing in code points (start/stop already clamped by slice.indices).
std::string utf8Slice(const std::string& s, int64_t start, int64_t stop, int64_t step);
std::vector<std::string> utf8Chars(const std::string& s);

}  // namespace tilescope::host
