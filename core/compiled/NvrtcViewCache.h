#pragma once
// NVRTC's outputs for the Compiled view (PTX, device binary, ptxas's -v report), cached by the CUDA
// text, target and options: in memory for the process and on disk in the PTX cache's folder
// (GpuCompiler::cacheDirectory()/view), so a view opened again, or in a later session, compiles nothing.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilescope::compiled {

struct NvrtcViewOutput {
  std::string ptx;
  std::string cubin;
  std::string log;  // ptxas's report
};

class NvrtcViewCache {
public:
  static NvrtcViewCache& instance();

  // The cached output for `key`: "memory", "disk" in `hit`; nothing when neither has it.
  std::shared_ptr<const NvrtcViewOutput> find(const std::string& key, std::string* hit);
  void store(const std::string& key, std::shared_ptr<const NvrtcViewOutput> output);
  void clearMemory();
  // The SASS listing of the entry `key` (disassembling takes a process start): the tool's name and text.
  std::optional<std::pair<std::string, std::string>> findSass(const std::string& key);
  void storeSass(const std::string& key, const std::string& tool, const std::string& text);

  static std::string keyOf(const std::string& cuda, const std::string& arch, const std::vector<std::string>& options);

private:
  struct State;
  NvrtcViewCache();
  std::shared_ptr<State> state_;
};

}  // namespace tilescope::compiled
