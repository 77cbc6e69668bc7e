#include "core/gpu/runtime/ProgramTiming.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace tilescope::gpu {

uint64_t LaunchTiming::spanNs() const {
  uint64_t end = 0;
  for (const ProgramTime& p : programs) end = std::max(end, p.endNs);
  return end;
}

int64_t LaunchTiming::smCount() const {
  std::set<int64_t> sms;
  for (const ProgramTime& p : programs) sms.insert(p.sm);
  return static_cast<int64_t>(sms.size());
}

std::string programTimingLine(const std::string& kernel, int64_t launch, const int64_t grid[3], const std::vector<uint64_t>& words) {
  const int64_t gx = std::max<int64_t>(grid[0], 1), gy = std::max<int64_t>(grid[1], 1);
  uint64_t origin = UINT64_MAX;
  for (size_t p = 0; p < words.size() / 3; ++p) origin = std::min(origin, words[3 * p]);
  nlohmann::json programs = nlohmann::json::array();
  for (size_t p = 0; p < words.size() / 3; ++p) {
    const int64_t i = static_cast<int64_t>(p);
    programs.push_back({i % gx, (i / gx) % gy, i / (gx * gy), words[3 * p + 2], words[3 * p] - origin, words[3 * p + 1] - origin});
  }
  const nlohmann::json line = {
      {"kernel", kernel}, {"launch", launch}, {"grid", {grid[0], grid[1], grid[2]}}, {"programs", std::move(programs)}};
  return line.dump();
}

std::vector<LaunchTiming> readProgramTiming(std::istream& in, const std::string& fileName) {
  std::vector<LaunchTiming> launches;
  std::string text;
  int lineNo = 0;
  while (std::getline(in, text)) {
    ++lineNo;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto fail = [&](const std::string& why) {
      return std::runtime_error(fileName + ":" + std::to_string(lineNo) + ": " + why +
                                " (expected a line written by 'tilescope-cli run --backend gpu --program-timing')");
    };
    nlohmann::json line;
    try {
      line = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
      throw fail(std::string("not JSON: ") + e.what());
    }
    if (!line.is_object() || !line.contains("kernel") || !line["kernel"].is_string() || !line.contains("programs") ||
        !line["programs"].is_array())
      throw fail("not a launch record with \"kernel\" and \"programs\"");
    LaunchTiming launch;
    launch.kernel = line["kernel"].get<std::string>();
    launch.launch = line.value("launch", static_cast<int64_t>(launches.size() + 1));
    if (const auto grid = line.find("grid"); grid != line.end()) {
      if (!grid->is_array() || grid->size() != 3) throw fail("\"grid\" must hold 3 numbers");
      for (size_t d = 0; d < 3; ++d) {
        if (!(*grid)[d].is_number_integer()) throw fail("\"grid\" must hold 3 numbers");
        launch.grid[d] = (*grid)[d].get<int64_t>();
      }
    }
    size_t index = 0;
    for (const nlohmann::json& p : line["programs"]) {
      ++index;
      if (!p.is_array() || p.size() != 6 || !std::all_of(p.begin(), p.end(), [](const nlohmann::json& v) { return v.is_number_integer(); }))
        throw fail("program " + std::to_string(index) + " is not [x, y, z, sm, start_ns, end_ns]");
      ProgramTime t;
      for (size_t d = 0; d < 3; ++d) t.pid[d] = p[d].get<int64_t>();
      t.sm = p[3].get<int64_t>();
      t.startNs = p[4].get<uint64_t>();
      t.endNs = p[5].get<uint64_t>();
      if (t.endNs < t.startNs) throw fail("program " + std::to_string(index) + " ends before it starts");
      launch.programs.push_back(t);
    }
    launches.push_back(std::move(launch));
  }
  return launches;
}

std::vector<LaunchTiming> readProgramTimingFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the program timing file");
  return readProgramTiming(in, path);
}

}  // namespace tilescope::gpu
