#include "core/compiled/ResourceComparison.h"

#include <set>

#include "core/compiled/LineInfo.h"

namespace tilescope::compiled {
namespace {

const ResourceFigures* figuresFrom(const CompiledView& v, const std::string& from) {
  for (const ResourceFigures& r : v.resources)
    if (r.from == from) return &r;
  return nullptr;
}

std::string bytes(int n) { return n < 0 ? "-" : std::to_string(n) + " B"; }

}  // namespace

std::vector<ComparisonRow> compareViews(const CompiledView& left, const CompiledView& right) {
  std::vector<ComparisonRow> rows;
  auto specOf = [](const CompiledView& v) {
    return v.kernel + "[" + v.signature + "] num_warps=" + std::to_string(v.numWarps) +
           " num_stages=" + std::to_string(v.numStages) + " " + v.arch;
  };
  rows.push_back({"specialization", specOf(left), specOf(right)});
  rows.push_back({"threads per program", std::to_string(left.threads), std::to_string(right.threads)});
  for (const char* from : {"ptxas", "driver"}) {
    const ResourceFigures* a = figuresFrom(left, from);
    const ResourceFigures* b = figuresFrom(right, from);
    if (!a && !b) continue;
    const std::string tag = std::string(" (") + from + ")";
    auto field = [&](const std::string& name, auto get) {
      rows.push_back({name + tag, a ? get(*a) : "-", b ? get(*b) : "-"});
    };
    field("registers per thread", [](const ResourceFigures& r) { return std::to_string(r.registers); });
    if (std::string(from) == "ptxas") {
      field("spill stores", [](const ResourceFigures& r) { return bytes(r.spillStoreBytes); });
      field("spill loads", [](const ResourceFigures& r) { return bytes(r.spillLoadBytes); });
    }
    field("local memory per thread", [](const ResourceFigures& r) { return bytes(r.localBytes); });
    field("static shared memory", [](const ResourceFigures& r) { return bytes(r.staticSharedBytes); });
    field("dynamic shared memory", [](const ResourceFigures& r) { return bytes(r.dynamicSharedBytes); });
    field("occupancy", [](const ResourceFigures& r) { return r.occupancy.str(); });
  }
  std::set<std::string> ops;
  for (const auto& [op, n] : left.tensorCoreInstructions) ops.insert(op);
  for (const auto& [op, n] : right.tensorCoreInstructions) ops.insert(op);
  auto count = [](const CompiledView& v, const std::string& op) {
    const auto it = v.tensorCoreInstructions.find(op);
    return std::to_string(it == v.tensorCoreInstructions.end() ? 0 : it->second);
  };
  for (const std::string& op : ops) rows.push_back({op, count(left, op), count(right, op)});
  rows.push_back({"CUDA lines", std::to_string(splitLines(left.cuda).size()), std::to_string(splitLines(right.cuda).size())});
  rows.push_back({"PTX lines", left.ptx.empty() ? "-" : std::to_string(splitLines(left.ptx).size()),
                  right.ptx.empty() ? "-" : std::to_string(splitLines(right.ptx).size())});
  return rows;
}

}  // namespace tilescope::compiled
