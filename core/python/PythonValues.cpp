#include "core/python/PythonValues.h"

#include "core/python/Containers.h"
#include "core/tensor/Tensor.h"
#include "core/python/TensorObject.h"
#include "core/python/TritonValues.h"
#include "core/kernel/Builtins.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

std::string typeName(py::handle h) { return Py_TYPE(h.ptr())->tp_name; }

// triton.language's dtype objects (resources/python/triton/language) carry the IR name.
std::optional<host::DType> tritonDTypeOf(py::handle h) {
  if (!py::hasattr(h, "_tilescope_dtype")) return std::nullopt;
  return ir::parseDType(h.attr("_tilescope_dtype").cast<std::string>());
}

std::optional<lang::ConstValue> constOf(py::handle h) {
  if (h.is_none()) return lang::ConstValue::none();
  if (PyBool_Check(h.ptr())) return lang::ConstValue::boolean(h.cast<bool>());
  if (PyLong_Check(h.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    if (overflow) return std::nullopt;
    return lang::ConstValue::integer(v);
  }
  if (PyFloat_Check(h.ptr())) return lang::ConstValue::floating(h.cast<double>());
  if (PyUnicode_Check(h.ptr())) return lang::ConstValue::string(h.cast<std::string>());
  if (py::isinstance<TorchDType>(h)) return lang::ConstValue::dtype(h.cast<TorchDType>().dtype);
  if (std::optional<host::DType> t = tritonDTypeOf(h)) return lang::ConstValue::dtype(*t);
  return std::nullopt;
}

// The dotted name of a module object, or "".
std::string moduleName(py::handle h) {
  if (!PyModule_Check(h.ptr())) return "";
  return py::str(h.attr("__name__")).cast<std::string>();
}

}  // namespace

std::optional<host::Scalar> scalarOf(py::handle h) {
  if (PyBool_Check(h.ptr())) return host::Scalar(h.cast<bool>());
  if (PyLong_Check(h.ptr())) return host::Scalar(integerOf(h, "a number"));
  if (PyFloat_Check(h.ptr())) return host::Scalar(h.cast<double>());
  return std::nullopt;
}

host::Scalar requireScalar(py::handle h, const char* what) {
  if (std::optional<host::Scalar> s = scalarOf(h)) return *s;
  throw py::type_error(std::string(what) + "(): expected a number (bool, int or float), got " + typeName(h));
}

int64_t integerOf(py::handle h, const char* what) {
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(h.ptr()));
  if (!index) {
    PyErr_Clear();
    throw py::type_error(std::string(what) + " must be an int, not " + typeName(h));
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow) {
    PyErr_SetString(PyExc_OverflowError, (std::string(what) + " does not fit in 64 bits").c_str());
    throw py::error_already_set();
  }
  return v;
}

host::NestedValue nestedOf(py::handle h) {
  if (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) {
    std::vector<host::NestedValue> items;
    for (py::handle item : h) items.push_back(nestedOf(item));
    return host::NestedValue{std::move(items)};
  }
  if (py::isinstance<host::Tensor>(h)) return h.cast<const host::Tensor&>().tolist();
  return host::NestedValue{requireScalar(h, "tensor")};
}

py::object objectOf(const host::Scalar& s) {
  if (s.isBool()) return py::bool_(s.toBool());
  if (s.isInt()) return py::int_(s.toInt());
  return py::float_(s.toDouble());
}

py::object objectOf(const host::NestedValue& v) {
  if (!v.isList()) return objectOf(v.scalar());
  py::list out;
  for (const host::NestedValue& item : v.list()) out.append(objectOf(item));
  return out;
}

host::Value launchArgumentOf(py::handle h, const std::string& param) {
  if (py::isinstance<host::Tensor>(h)) return host::Value(std::make_shared<host::TensorObject>(h.cast<host::Tensor>()));
  if (h.is_none()) return host::Value::none();
  if (PyBool_Check(h.ptr())) return host::Value::boolean(h.cast<bool>());
  if (PyLong_Check(h.ptr())) return host::Value::integer(integerOf(h, ("argument '" + param + "'").c_str()));
  if (PyFloat_Check(h.ptr())) return host::Value::real(h.cast<double>());
  if (PyUnicode_Check(h.ptr())) return host::makeStr(h.cast<std::string>());
  if (py::isinstance<TorchDType>(h)) return host::Value(std::make_shared<host::DTypeObject>(h.cast<TorchDType>().dtype));
  if (std::optional<host::DType> t = tritonDTypeOf(h)) return host::Value(std::make_shared<host::TlDTypeObject>(*t));
  throw py::type_error("kernel parameter '" + param + "' got a " + typeName(h) +
                       "; kernels take tensors, ints, floats, bools and constexprs");
}

lang::Value kernelGlobalOf(py::handle h, const std::string& name) {
  if (std::optional<lang::ConstValue> c = constOf(h)) return lang::Value::ofConst(*c);
  // tl.constexpr(16) at module level.
  if (py::hasattr(h, "_tilescope_constexpr")) {
    if (std::optional<lang::ConstValue> c = constOf(h.attr("value"))) return lang::Value::ofConst(*c);
  }
  const std::string module = moduleName(h);
  if (!module.empty() && lang::isKnownModule(module)) return lang::moduleValue(module);
  // A function or object of a known module imported by name (`from triton.language import arange`).
  if (py::hasattr(h, "__module__") && py::hasattr(h, "__name__")) {
    const py::object owner = h.attr("__module__");
    if (PyUnicode_Check(owner.ptr()) && PyUnicode_Check(h.attr("__name__").ptr())) {
      if (std::optional<lang::Value> member = lang::moduleMember(owner.cast<std::string>(), h.attr("__name__").cast<std::string>()))
        return *member;
    }
  }
  if (PyCallable_Check(h.ptr())) {
    return lang::Value::undefined("'" + name +
                                  "' is a Python callable but not a plain function (def); a kernel can call plain Python "
                                  "functions on the host: wrap it in a def");
  }
  return lang::Value::undefined("'" + name +
                                "' is a Python value computed when the program runs, not a constexpr; pass it to the "
                                "kernel as an argument");
}

}  // namespace tilescope::python
