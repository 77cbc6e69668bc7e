#include "core/python/BenchmarkRunner.h"

#include <cstdio>

namespace tilescope::host {

std::vector<std::string> BenchmarkRunner::formatFloatColumn(const std::vector<double>& values) {
  std::vector<std::string> out;
  for (double v : values) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6f", v);
    out.emplace_back(buf);
  }
  // pandas trims trailing zeros common to the whole column, keeping one decimal.
  while (true) {
    bool all = !out.empty();
    for (const std::string& s : out) {
      const size_t dot = s.find('.');
      if (dot == std::string::npos || s.back() != '0' || s.size() - dot <= 2) all = false;
    }
    if (!all) break;
    for (std::string& s : out) s.pop_back();
  }
  return out;
}


}  // namespace tilescope::host
