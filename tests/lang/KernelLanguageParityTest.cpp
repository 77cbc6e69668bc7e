// The parity table of docs/KERNEL_LANGUAGE.md against Triton's own list of public names
// (docs/triton-names.txt, written by scripts/triton-names.py from PyPI's triton): every name has a
// row, and a row's "supported" marks agree with what the builtin registry resolves, so the table
// cannot silently go stale when a name is implemented or dropped. No triton is needed here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/kernel/BuiltinRegistry.h"
#include "core/kernel/Builtins.h"

namespace tilescope::lang {
namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string trim(std::string s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '`')) s.erase(s.begin());
  while (!s.empty() && (s.back() == ' ' || s.back() == '`' || s.back() == '\r')) s.pop_back();
  return s;
}

// The module a listed name lives in, as the checker names it, and the attribute.
std::pair<std::string, std::string> splitName(const std::string& name) {
  for (const auto& [prefix, module] : std::vector<std::pair<std::string, std::string>>{
           {"libdevice.", "triton.language.extra.libdevice"}, {"tl.math.", "triton.language.math"}, {"tl.", "triton.language"}})
    if (name.rfind(prefix, 0) == 0) return {module, name.substr(prefix.size())};
  return {"", name};
}

// What the checker makes of `module.attr`: nothing, a value (dtype, module, constant), or a builtin
// that is implemented unless it is registered only to report that it is not.
bool implemented(const std::string& name) {
  const auto [module, attr] = splitName(name);
  if (module.empty()) return false;
  const std::optional<Value> v = moduleMember(module, attr);
  if (!v) return false;
  if (v->kind != Value::Kind::Builtin) return true;
  const BuiltinEntry* entry = BuiltinRegistry::instance().find(v->name);
  return entry && entry->implemented;
}

std::vector<std::string> tritonNames() {
  std::vector<std::string> names;
  std::istringstream in(readFile(std::string(TILESCOPE_SOURCE_DIR) + "/docs/triton-names.txt"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') names.push_back(trim(line));
  return names;
}

struct Row {
  bool simulator = false;
  bool gpu = false;
  std::string note;
  int line = 0;
};

// Rows of the parity table: | `name` | sim | GPU | note |, with yes/no marks.
std::map<std::string, Row> parityRows(std::vector<std::string>& problems) {
  const std::string doc = readFile(std::string(TILESCOPE_SOURCE_DIR) + "/docs/KERNEL_LANGUAGE.md");
  std::map<std::string, Row> rows;
  std::istringstream in(doc);
  bool inTable = false;
  int lineNo = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineNo;
    if (line.rfind("## Parity with Triton", 0) == 0) {
      inTable = true;
      continue;
    }
    if (inTable && line.rfind("## ", 0) == 0) break;
    if (!inTable || line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::string cell;
    bool inCode = false;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '`') inCode = !inCode;
      if (line[i] == '|' && !inCode) {
        cells.push_back(trim(cell));
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    if (cells.size() != 4) {
      problems.push_back("KERNEL_LANGUAGE.md:" + std::to_string(lineNo) + ": a parity row needs 4 cells");
      continue;
    }
    auto mark = [&](const std::string& m) {
      if (m != "yes" && m != "no") problems.push_back("KERNEL_LANGUAGE.md:" + std::to_string(lineNo) + ": mark '" + m + "' is neither yes nor no");
      return m == "yes";
    };
    Row r{mark(cells[1]), mark(cells[2]), cells[3], lineNo};
    if (!rows.emplace(cells[0], r).second) problems.push_back("KERNEL_LANGUAGE.md:" + std::to_string(lineNo) + ": " + cells[0] + " is listed twice");
  }
  return rows;
}

TEST(KernelLanguageParity, NamesFileHoldsTritonsLanguage) {
  const std::vector<std::string> names = tritonNames();
  const std::set<std::string> set(names.begin(), names.end());
  // A sanity floor: the file is Triton's list, not an empty or truncated one.
  EXPECT_GT(names.size(), 300u);
  for (const char* n : {"tl.load", "tl.dot", "tl.make_tensor_descriptor", "tl.math.exp", "libdevice.tanh", "libdevice.pow"})
    EXPECT_TRUE(set.count(n)) << n;
}

TEST(KernelLanguageParity, EveryTritonNameHasARowThatMatchesTheRegistry) {
  std::vector<std::string> problems;
  const std::map<std::string, Row> rows = parityRows(problems);
  const std::vector<std::string> names = tritonNames();
  for (const std::string& name : names) {
    const bool have = implemented(name);
    auto it = rows.find(name);
    if (it == rows.end()) {
      problems.push_back(name + ": no row in the parity table (the registry " + (have ? "implements" : "does not implement") + " it)");
      continue;
    }
    const Row& r = it->second;
    const std::string where = "KERNEL_LANGUAGE.md:" + std::to_string(r.line) + ": " + name;
    if ((r.simulator || r.gpu) && !have) problems.push_back(where + " is marked supported, but the builtin registry does not implement it");
    if (!r.simulator && !r.gpu && have) problems.push_back(where + " is marked unsupported, but the builtin registry implements it");
    if ((!r.simulator || !r.gpu) && r.note.empty()) problems.push_back(where + " lacks the reason it is not supported everywhere");
  }
  const std::set<std::string> known(names.begin(), names.end());
  for (const auto& [name, r] : rows)
    if (!known.count(name)) problems.push_back("KERNEL_LANGUAGE.md:" + std::to_string(r.line) + ": " + name + " is not a Triton name");
  std::string all;
  for (const std::string& p : problems) all += p + "\n";
  EXPECT_TRUE(problems.empty()) << problems.size() << " problems:\n" << all;
}

}  // namespace
}  // namespace tilescope::lang
