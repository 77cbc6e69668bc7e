#pragma once
// Which torch host code imports on embedded CPython: the built-in torch (tilescope's tensor library,
// the default) or installed PyTorch. Chosen by `--torch builtin|system` (tilescope-cli run and
// worker), the GUI's preference (passed to the worker), or a notebook's metadata
// {"tilescope": {"torch": "system"}}; the Python side is resources/python/tilescope/torch_choice.py.
#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tilescope::python {

enum class TorchChoice { Builtin, System };

std::optional<TorchChoice> parseTorchChoice(const std::string& text);
const char* torchChoiceName(TorchChoice choice);

// Removes `--torch X` from a command's arguments and applies it; false (with `error` set) when X is
// not builtin or system or is missing. `given` says whether the option was there.
bool takeTorchOption(std::vector<std::string>& args, bool& given, std::string& error);

// metadata.tilescope.torch of a notebook, when it names a choice.
std::optional<TorchChoice> notebookTorchChoice(const nlohmann::json& metadata);

// The choice for the process's interpreter: takes effect at the first `import torch` (the
// interpreter may already run). Throws std::runtime_error when torch was already imported as the
// other one.
void selectTorch(TorchChoice choice);
TorchChoice selectedTorch();
// Installs the choice in a freshly started interpreter (EmbeddedInterpreter's start).
void applySelectedTorch();

}  // namespace tilescope::python
