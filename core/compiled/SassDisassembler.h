#pragma once
// SASS (the GPU's own instructions) of a device binary, from the CUDA toolkit's nvdisasm (with line
// information, `-g`) or, without it, cuobjdump -sass (no line information). Neither ships with
// NVRTC, so a machine may have neither: then `available()` is false and `missingReason()` says what
// to install.
#include <optional>
#include <string>

namespace tilescope::compiled {

struct SassListing {
  std::string text;
  std::string tool;           // "nvdisasm" or "cuobjdump"
  bool hasLineInfo = false;   // nvdisasm -gi: `//## File "...", line N` before the instructions of each line
};

class SassDisassembler {
public:
  // Looks for the tools in $TILESCOPE_CUDA_BIN, $CUDA_HOME/bin, $CUDA_PATH/bin, $PATH, the build's CUDA root.
  static const SassDisassembler& instance();

  bool available() const { return !nvdisasm_.empty() || !cuobjdump_.empty(); }
  std::string missingReason() const;
  // The tool disassemble() runs: "nvdisasm", "cuobjdump" or "" when neither is found.
  std::string tool() const { return !nvdisasm_.empty() ? "nvdisasm" : !cuobjdump_.empty() ? "cuobjdump" : ""; }
  // The listing of `cubin`, or nothing with `error` set (the tool failed, or none is installed).
  std::optional<SassListing> disassemble(const std::string& cubin, std::string* error) const;

private:
  SassDisassembler();
  std::string nvdisasm_, cuobjdump_;  // paths; empty when not found
};

}  // namespace tilescope::compiled
