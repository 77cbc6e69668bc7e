#include "core/python/EmbeddedInterpreter.h"

#include <Python.h>

#include <filesystem>
#include <cstdlib>
#include <optional>
#include <vector>

#include "core/python/TilescopeModule.h"
#include "core/python/TorchChoice.h"
#include "core/python/TorchStream.h"

namespace tilescope::python {

namespace {

namespace fs = std::filesystem;

// Path of a file under resources/host/ (TILESCOPE_RESOURCE_DIR, next to the executable, or in the
// source tree this binary was built from); nullopt when none exists.
std::optional<std::string> findHostResource(const std::string& name) {
  std::vector<fs::path> roots;
  if (const char* dir = std::getenv("TILESCOPE_RESOURCE_DIR")) roots.emplace_back(dir);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path bin = exe.parent_path();
    for (const char* rel : {"../resources", "../../resources", "../share/tilescope", "../../share/tilescope", "resources"})
      roots.push_back(bin / rel);
  }
  // The source tree this binary was built from.
  roots.emplace_back(TILESCOPE_SOURCE_RESOURCE_DIR);
  for (const fs::path& root : roots) {
    const fs::path candidate = root / "host" / name;
    if (fs::is_regular_file(candidate, ec)) return fs::weakly_canonical(candidate, ec).string();
  }
  return std::nullopt;
}

std::string findPackageDir() {
  // The same places as resources/host (TILESCOPE_RESOURCE_DIR, beside the executable, the installed
  // share/tilescope, the source tree): one lookup rule for every resource.
  const std::optional<std::string> init = findHostResource("../python/triton/__init__.py");
  if (!init) {
    throw PythonStartError(
        "tilescope's Python packages (resources/python) were not found; set TILESCOPE_RESOURCE_DIR to the "
        "resources folder");
  }
  return std::filesystem::path(*init).parent_path().parent_path().string();
}

void check(PyStatus status, PyConfig& config, const char* what) {
  if (!PyStatus_Exception(status)) return;
  PyConfig_Clear(&config);
  throw PythonStartError(std::string("cannot start the embedded Python (") + what + "): " +
                            (status.err_msg ? status.err_msg : "unknown error") + "; is Debian's python3 (" +
                            TILESCOPE_PYTHON_HOME "/lib/python3.*) installed?");
}

}  // namespace

const std::string& EmbeddedInterpreter::packageDir() {
  static const std::string dir = findPackageDir();
  return dir;
}

void EmbeddedInterpreter::ensureStarted() {
  if (Py_IsInitialized()) return;
  const std::string packages = packageDir();
  if (PyImport_AppendInittab("_tilescope", &initTilescopeModule) != 0)
    throw PythonStartError("cannot register the _tilescope module with the embedded Python");

  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.install_signal_handlers = 0;  // the worker owns SIGINT (docs/PROTOCOL.md)
  config.parse_argv = 0;
  config.buffered_stdio = 0;
  check(PyConfig_SetBytesString(&config, &config.home, TILESCOPE_PYTHON_HOME), config, "home");
  check(PyConfig_SetBytesString(&config, &config.program_name, TILESCOPE_PYTHON_EXECUTABLE), config, "program name");
  check(Py_InitializeFromConfig(&config), config, "initialize");
  PyConfig_Clear(&config);

  PyObject* path = PySys_GetObject("path");  // borrowed
  PyObject* dir = PyUnicode_FromString(packages.c_str());
  if (!path || !dir || PyList_Insert(path, 0, dir) != 0) {
    Py_XDECREF(dir);
    PyErr_Clear();
    throw PythonStartError("cannot put " + packages + " on the embedded Python's sys.path");
  }
  Py_DECREF(dir);
  try {
    applySelectedTorch();
  } catch (const std::runtime_error& e) {
    throw PythonStartError(e.what());
  }
  installTorchStreamSource();
}

bool EmbeddedInterpreter::started() { return Py_IsInitialized() != 0; }

}  // namespace tilescope::python
