#pragma once
// The engine's C++ errors as Python exceptions. A host::PyError keeps its Python type (TypeError, ...;
// CompilationError is _tilescope.CompilationError, re-exported by triton and printed as
// triton.compiler.errors.CompilationError, Triton's name); an error carrying kernel
// diagnostics gets the clang-style text as its message and the diagnostics as values in its
// `diagnostics` attribute (file, line, col, severity, message, snippet), for tracebacks and the
// notebook's error markers. TensorError keeps the Python type torch would raise.
namespace pybind11 {
class module_;
}

namespace tilescope::python {

// Defines _tilescope.CompilationError and registers the translator.
void bindErrors(pybind11::module_& m);

}  // namespace tilescope::python
