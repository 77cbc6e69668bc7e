#include "core/python/TorchChoice.h"

#include <Python.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/python/EmbeddedInterpreter.h"

namespace tilescope::python {

namespace {

TorchChoice selected = TorchChoice::Builtin;

// tilescope.torch_choice.select(name) in the running interpreter; the Python error's text otherwise.
void applyInPython(TorchChoice choice) {
  PyObject* module = PyImport_ImportModule("tilescope.torch_choice");
  PyObject* result = module ? PyObject_CallMethod(module, "select", "s", torchChoiceName(choice)) : nullptr;
  Py_XDECREF(module);
  if (result) {
    Py_DECREF(result);
    return;
  }
  PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
  PyErr_Fetch(&type, &value, &trace);
  std::string message = "cannot choose the torch";
  if (PyObject* text = value ? PyObject_Str(value) : nullptr) {
    if (const char* utf8 = PyUnicode_AsUTF8(text)) message = utf8;
    Py_DECREF(text);
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(trace);
  PyErr_Clear();
  throw std::runtime_error(message);
}

}  // namespace

std::optional<TorchChoice> parseTorchChoice(const std::string& text) {
  if (text == "builtin") return TorchChoice::Builtin;
  if (text == "system") return TorchChoice::System;
  return std::nullopt;
}

const char* torchChoiceName(TorchChoice choice) { return choice == TorchChoice::System ? "system" : "builtin"; }

bool takeTorchOption(std::vector<std::string>& args, bool& given, std::string& error) {
  given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--torch") continue;
    if (i + 1 >= args.size() || !parseTorchChoice(args[i + 1])) {
      error = "--torch takes 'builtin' (tilescope's torch, the default) or 'system' (installed PyTorch)" +
              (i + 1 < args.size() ? ", not '" + args[i + 1] + "'" : std::string());
      return false;
    }
    selectTorch(*parseTorchChoice(args[i + 1]));
    given = true;
    args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
    --i;
  }
  return true;
}

std::optional<TorchChoice> notebookTorchChoice(const nlohmann::json& metadata) {
  const auto tilescope = metadata.find("tilescope");
  if (tilescope == metadata.end() || !tilescope->is_object()) return std::nullopt;
  const auto torch = tilescope->find("torch");
  if (torch == tilescope->end() || !torch->is_string()) return std::nullopt;
  return parseTorchChoice(torch->get<std::string>());
}

void selectTorch(TorchChoice choice) {
  if (EmbeddedInterpreter::started()) applyInPython(choice);
  selected = choice;
}

TorchChoice selectedTorch() { return selected; }

void applySelectedTorch() { applyInPython(selected); }

}  // namespace tilescope::python
