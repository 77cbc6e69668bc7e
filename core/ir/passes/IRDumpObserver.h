#pragma once
// A PipelineObserver that keeps the IR text (IRPrinter) after one named pass, or after every pass.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/passes/PipelineObserver.h"

namespace tilescope::ir::passes {

class IRDumpObserver : public PipelineObserver {
public:
  // `only`: the pass whose result is kept; nullopt keeps every pass's.
  explicit IRDumpObserver(std::optional<std::string> only = std::nullopt) : only_(std::move(only)) {}

  void afterPass(std::string_view passName, const Kernel& kernel) override;

  // (pass name, IR text) in pipeline order.
  const std::vector<std::pair<std::string, std::string>>& dumps() const { return dumps_; }
  // The text after `passName`, or nullopt when that pass did not run.
  std::optional<std::string> dumpAfter(std::string_view passName) const;

private:
  std::optional<std::string> only_;
  std::vector<std::pair<std::string, std::string>> dumps_;
};

}  // namespace tilescope::ir::passes
