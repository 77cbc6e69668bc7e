#include "core/python/HostCallBindings.h"

#include <memory>

#include "core/python/Containers.h"
#include "core/python/Function.h"
#include "core/python/KernelHostCalls.h"
#include "core/python/PyError.h"
#include "core/kernel/Builtins.h"
#include "core/python/EngineSession.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

// A tile handed to a host function; its methods are KernelHostCalls' TileArray's.
struct HostTile {
  host::Value value;
  host::TileArray& tile() const { return *value.as<host::TileArray>(); }
};

host::LaunchContext& context() {
  EngineSession* session = EngineSession::active();
  if (!session) throw host::PyError("RuntimeError", "a kernel's tile is used after its launch ended");
  return session->launchContext();
}

py::object objectOf(const host::Value& v) {
  if (v.isNone()) return py::none();
  if (v.isBool()) return py::bool_(v.asBool());
  if (v.isInt()) return py::int_(v.asInt());
  if (v.isFloat()) return py::float_(v.asFloat());
  if (v.is<host::TileArray>()) return py::cast(HostTile{v});
  if (const auto* t = v.as<host::TupleObject>()) {
    py::tuple out(t->items.size());
    for (size_t i = 0; i < t->items.size(); ++i) out[i] = objectOf(t->items[i]);
    return out;
  }
  return py::str(context().str(v));  // strings (rendered f-strings, dtype names)
}

py::object numberOf(const HostTile& t) {
  std::optional<host::Value> n = t.tile().number(context());
  if (!n) throw py::value_error("only an array of one element converts to a Python scalar");
  return objectOf(*n);
}

// Python objects keep a reference to the function; released with the GIL whenever the last Value goes.
std::shared_ptr<py::object> keep(py::handle fn) {
  return std::shared_ptr<py::object>(new py::object(py::reinterpret_borrow<py::object>(fn)), [](py::object* o) {
    if (Py_IsInitialized()) {
      py::gil_scoped_acquire gil;
      delete o;
    }
  });
}

}  // namespace

bool isHostFunction(py::handle h) {
  if (!PyFunction_Check(h.ptr())) return false;
  // A def of triton.language and friends is the checker's builtin of that name; any other def (the
  // notebook's own, triton_util's) runs on the host.
  const py::object module = h.attr("__module__");
  const py::object name = h.attr("__name__");
  if (!PyUnicode_Check(module.ptr()) || !PyUnicode_Check(name.ptr())) return true;
  const std::optional<lang::Value> member = lang::moduleMember(module.cast<std::string>(), name.cast<std::string>());
  return !member || member->kind == lang::Value::Kind::HostFunction;
}

host::Value hostFunctionOf(py::handle fn, const std::string& name) {
  std::shared_ptr<py::object> held = keep(fn);
  return host::makeBuiltin(name, [held](host::LaunchContext&, host::CallArgs& args) -> host::Value {
    py::tuple positional(args.positional.size());
    for (size_t i = 0; i < args.positional.size(); ++i) positional[i] = objectOf(args.positional[i]);
    py::dict keywords;
    for (const auto& [k, v] : args.keywords) keywords[py::str(k)] = objectOf(v);
    try {
      (*held)(*positional, **keywords);
    } catch (py::error_already_set& e) {
      // Stops the launch with the function's error type and message (KernelHostCalls keeps it).
      throw host::PyError(py::str(e.type().attr("__name__")).cast<std::string>(), py::str(e.value()).cast<std::string>());
    }
    return host::Value();
  });
}

void bindHostCalls(py::module_& m) {
  py::class_<HostTile>(m, "HostTile")
      .def("__str__", [](const HostTile& t) { return t.tile().str(context()); })
      .def("__repr__", [](const HostTile& t) { return t.tile().repr(context()); })
      .def("__bool__", [](const HostTile& t) { return t.tile().truthy(context()); })
      .def("__len__", [](const HostTile& t) { return *t.tile().length(context()); })
      .def("__getitem__", [](const HostTile& t, int64_t i) { return objectOf(*t.tile().getItem(context(), host::Value::integer(i))); })
      .def("__int__", [](const HostTile& t) { return py::int_(numberOf(t)); })
      .def("__index__", [](const HostTile& t) { return py::int_(numberOf(t)); })
      .def("__float__", [](const HostTile& t) { return py::float_(numberOf(t)); })
      .def("__format__", [](const HostTile& t, const std::string& spec) {
        if (spec.empty()) return py::str(t.tile().str(context()));
        return py::str(py::module_::import("builtins").attr("format")(numberOf(t), spec));
      })
      .def("__eq__", [](const HostTile& t, py::object other) { return numberOf(t).equal(other); })
      .def("__lt__", [](const HostTile& t, py::object other) { return numberOf(t) < other; })
      .def("__le__", [](const HostTile& t, py::object other) { return numberOf(t) <= other; })
      .def("__gt__", [](const HostTile& t, py::object other) { return numberOf(t) > other; })
      .def("__ge__", [](const HostTile& t, py::object other) { return numberOf(t) >= other; })
      .def_property_readonly("shape", [](const HostTile& t) { return objectOf(*t.tile().getAttr(context(), "shape")); })
      .def_property_readonly("dtype", [](const HostTile& t) { return objectOf(*t.tile().getAttr(context(), "dtype")); })
      .def("item", [](const HostTile& t) { return numberOf(t); })
      .def("tolist", [](const HostTile& t) {
        py::list out;
        const int64_t n = *t.tile().length(context());
        for (int64_t i = 0; i < n; ++i) out.append(objectOf(*t.tile().getItem(context(), host::Value::integer(i))));
        return out;
      });
}

}  // namespace tilescope::python
