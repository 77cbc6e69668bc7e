#pragma once
// The process's one CPython interpreter (Debian's libpython, embedded). Started on first use and never
// finalized: CPython cannot be restarted reliably, and extension modules (NumPy) cannot be imported
// again after a finalize. Its standard library comes from the prefix tilescope was built against,
// whatever PYTHONHOME says, and resources/python (our triton, torch and tilescope packages, backed by
// the native module _tilescope) comes first on sys.path. The thread that starts it keeps the GIL: host
// code runs on the worker's main thread only.
#include <stdexcept>
#include <string>

namespace tilescope::python {

// The installation lacks something the interpreter needs (its standard library, resources/python):
// neither the user's fault nor a bug, and the message says what to install or set.
class PythonStartError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class EmbeddedInterpreter {
public:
  // Starts the interpreter if it is not running. Throws PythonStartError saying what is missing
  // when it cannot start (no standard library, no resources/python).
  static void ensureStarted();
  static bool started();
  // The folder of our Python packages (resources/python).
  static const std::string& packageDir();
};

}  // namespace tilescope::python
