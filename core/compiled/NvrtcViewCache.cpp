#include "core/compiled/NvrtcViewCache.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <system_error>
#include <unistd.h>

#include "core/gpu/runtime/GpuCompiler.h"
#include "core/gpu/runtime/Nvrtc.h"

namespace tilescope::compiled {
namespace fs = std::filesystem;

struct NvrtcViewCache::State {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const NvrtcViewOutput>> memory;
  std::map<std::string, std::pair<std::string, std::string>> sass;  // key -> tool, listing
};

namespace {

std::string folder() {
  const std::string dir = gpu::GpuCompiler::cacheDirectory();
  return dir.empty() ? dir : (fs::path(dir) / "view").string();
}

std::optional<std::string> readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Written beside the target and renamed over it, so a reader never sees half a file.
void writeFile(const fs::path& p, const std::string& data) {
  const fs::path tmp = p.string() + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return;
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out) return;
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) fs::remove(tmp, ec);
}

}  // namespace

NvrtcViewCache& NvrtcViewCache::instance() {
  static NvrtcViewCache cache;
  return cache;
}

NvrtcViewCache::NvrtcViewCache() : state_(std::make_shared<State>()) {}

std::string NvrtcViewCache::keyOf(const std::string& cuda, const std::string& arch, const std::vector<std::string>& options) {
  std::string all = cuda + "\n--arch " + arch + "\n--nvrtc " + gpu::Nvrtc::instance().version();
  for (const std::string& o : options) all += "\n" + o;
  return gpu::GpuCompiler::hashText(all);
}

std::shared_ptr<const NvrtcViewOutput> NvrtcViewCache::find(const std::string& key, std::string* hit) {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (auto it = state_->memory.find(key); it != state_->memory.end()) {
      if (hit) *hit = "memory";
      return it->second;
    }
  }
  const std::string dir = folder();
  if (dir.empty()) return nullptr;
  auto ptx = readFile(fs::path(dir) / (key + ".ptx"));
  auto cubin = readFile(fs::path(dir) / (key + ".cubin"));
  auto log = readFile(fs::path(dir) / (key + ".log"));
  if (!ptx || !cubin || !log || ptx->empty()) return nullptr;
  auto out = std::make_shared<NvrtcViewOutput>(NvrtcViewOutput{std::move(*ptx), std::move(*cubin), std::move(*log)});
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->memory[key] = out;
  }
  if (hit) *hit = "disk";
  return out;
}

void NvrtcViewCache::store(const std::string& key, std::shared_ptr<const NvrtcViewOutput> output) {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->memory[key] = output;
  }
  const std::string dir = folder();
  if (dir.empty()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return;  // a cache that cannot be written only costs time
  // The log last: find() needs all three, so a reader never takes a partly written entry.
  writeFile(fs::path(dir) / (key + ".ptx"), output->ptx);
  writeFile(fs::path(dir) / (key + ".cubin"), output->cubin);
  writeFile(fs::path(dir) / (key + ".log"), output->log);
}

void NvrtcViewCache::clearMemory() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->memory.clear();
  state_->sass.clear();
}

std::optional<std::pair<std::string, std::string>> NvrtcViewCache::findSass(const std::string& key) {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (auto it = state_->sass.find(key); it != state_->sass.end()) return it->second;
  }
  const std::string dir = folder();
  if (dir.empty()) return std::nullopt;
  for (const char* tool : {"nvdisasm", "cuobjdump"}) {
    if (auto text = readFile(fs::path(dir) / (key + "." + tool + ".sass"))) {
      std::lock_guard<std::mutex> lock(state_->mutex);
      state_->sass[key] = {tool, *text};
      return std::make_pair(std::string(tool), std::move(*text));
    }
  }
  return std::nullopt;
}

void NvrtcViewCache::storeSass(const std::string& key, const std::string& tool, const std::string& text) {
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->sass[key] = {tool, text};
  }
  const std::string dir = folder();
  if (dir.empty()) return;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!ec) writeFile(fs::path(dir) / (key + "." + tool + ".sass"), text);
}

}  // namespace tilescope::compiled
