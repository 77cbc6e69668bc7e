#include "core/compiled/SassDisassembler.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace tilescope::compiled {
namespace {

namespace fs = std::filesystem;

std::string findTool(const std::string& name) {
  std::vector<std::string> folders;
  for (const char* var : {"TILESCOPE_CUDA_BIN"})
    if (const char* v = std::getenv(var); v && *v) folders.emplace_back(v);
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && *v) folders.push_back(std::string(v) + "/bin");
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    size_t start = 0;
    while (start <= p.size()) {
      size_t colon = p.find(':', start);
      if (colon == std::string::npos) colon = p.size();
      if (colon > start) folders.push_back(p.substr(start, colon - start));
      start = colon + 1;
    }
  }
#ifdef TILESCOPE_CUDA_DEFAULT_ROOT
  folders.push_back(std::string(TILESCOPE_CUDA_DEFAULT_ROOT) + "/bin");
#endif
  folders.emplace_back("/usr/local/cuda/bin");
  for (const std::string& f : folders) {
    const fs::path candidate = fs::path(f) / name;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

std::string shellQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a command, returning its standard output and error and its exit status.
int runCapturing(const std::string& command, std::string& output) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  char buffer[65536];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  return ::pclose(pipe);
}

// nvdisasm pads each instruction to a wide column ("        /*0040*/                   IMAD ..."):
// one space of indent and two after the address keep it readable in a narrow pane, line for line.
std::string compacted(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    const size_t b = line.find_first_not_of(" \t");
    if (b != std::string::npos && line.compare(b, 2, "/*") == 0) {
      const size_t close = line.find("*/", b);
      const size_t rest = close == std::string::npos ? std::string::npos : line.find_first_not_of(' ', close + 2);
      if (rest != std::string::npos) line = "  " + line.substr(b, close + 2 - b) + "  " + line.substr(rest);
    }
    out += line;
    out += '\n';
    pos = nl + 1;
  }
  return out;
}

}  // namespace

const SassDisassembler& SassDisassembler::instance() {
  static const SassDisassembler d;
  return d;
}

SassDisassembler::SassDisassembler() : nvdisasm_(findTool("nvdisasm")), cuobjdump_(findTool("cuobjdump")) {}

std::string SassDisassembler::missingReason() const {
  return "no SASS: neither nvdisasm nor cuobjdump was found (they come with the CUDA toolkit, e.g. Debian's "
         "nvidia-cuda-toolkit; set CUDA_HOME or TILESCOPE_CUDA_BIN to its folder)";
}

std::optional<SassListing> SassDisassembler::disassemble(const std::string& cubin, std::string* error) const {
  if (!available()) {
    if (error) *error = missingReason();
    return std::nullopt;
  }
  if (cubin.empty()) {
    if (error) *error = "no device binary to disassemble";
    return std::nullopt;
  }
  std::string pattern = (fs::temp_directory_path() / "tilescope-sass-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) {
    if (error) *error = "cannot make a temporary folder for the device binary";
    return std::nullopt;
  }
  const fs::path folder = pattern;
  const fs::path file = folder / "kernel.cubin";
  {
    std::ofstream out(file, std::ios::binary);
    out.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
  }
  SassListing listing;
  std::string output;
  int status;
  if (!nvdisasm_.empty()) {
    listing.tool = "nvdisasm";
    listing.hasLineInfo = true;
    status = runCapturing(shellQuoted(nvdisasm_) + " -gi -c " + shellQuoted(file.string()), output);
  } else {
    listing.tool = "cuobjdump";
    status = runCapturing(shellQuoted(cuobjdump_) + " -sass " + shellQuoted(file.string()), output);
  }
  std::error_code ec;
  fs::remove_all(folder, ec);
  if (status != 0) {
    if (error) *error = listing.tool + " failed: " + output.substr(0, 2000);
    return std::nullopt;
  }
  listing.text = compacted(output);
  return listing;
}

}  // namespace tilescope::compiled
