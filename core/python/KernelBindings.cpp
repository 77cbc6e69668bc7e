// _tilescope's kernel part: _tilescope.Kernel, the engine side of a @triton.jit function
// (PythonKernel), which resources/python/triton wraps as JITFunction. Python binds the launch's
// arguments (inspect.Signature, exactly Python's rules) and evaluates the grid; this file keys the
// launch by its arguments' kinds: a key launched before on the GPU takes the lean path
// (LaunchFastPath), one launched before elsewhere skips binding and checking (FastLaunch), and the
// rest is converted to values for the general launch path (KernelLauncher).
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <charconv>

#include "core/python/Containers.h"
#include "core/python/TensorObject.h"
#include "core/python/HostCallBindings.h"
#include "core/python/LaunchFastPath.h"
#include "core/python/PointerArguments.h"
#include "core/python/PythonKernel.h"
#include "core/python/PythonValues.h"
#include "core/python/TilescopeModule.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

struct LaunchValues {
  host::Value grid;
  host::ValueList args;
  std::vector<std::pair<std::string, host::Value>> options;
  std::vector<BorrowedMemory> borrowed;  // pointer arguments of other libraries (PointerArguments.h)
};

host::Value argumentOf(py::handle h, const std::string& name, std::vector<BorrowedMemory>& borrowed) {
  if (isForeignPointer(h)) return host::Value(std::make_shared<host::TensorObject>(borrowTensor(h, name, borrowed)));
  return launchArgumentOf(h, name);
}

// Runs `launch`, then copies what it wrote in borrowed memory back to the memory's owner (also when
// the launch failed part way: what it wrote is what the GPU would have left).
template <class F>
void withBorrowed(LaunchValues& v, F&& launch) {
  try {
    launch();
  } catch (...) {
    syncBorrowed(v.borrowed);
    throw;
  }
  syncBorrowed(v.borrowed);
}

// A list's items as an array (borrowed; valid while the list is not changed).
PyObject* const* listItems(const py::list& list) { return reinterpret_cast<PyListObject*>(list.ptr())->ob_item; }

LaunchValues launchValues(const PythonKernel& k, py::handle grid, PyObject* const* args, size_t count,
                          const py::dict& options) {
  const std::vector<std::string> names = k.parameterNames();
  LaunchValues out;
  host::ValueList dims;
  for (py::handle d : grid) dims.push_back(launchArgumentOf(d, "grid"));
  out.grid = host::makeTuple(std::move(dims));
  for (size_t i = 0; i < count; ++i)
    out.args.push_back(argumentOf(args[i], i < names.size() ? names[i] : "?", out.borrowed));
  for (auto [name, value] : options) {
    const std::string n = name.cast<std::string>();
    out.options.emplace_back(n, argumentOf(value, n, out.borrowed));
  }
  return out;
}

LaunchValues launchValues(const PythonKernel& k, const py::tuple& grid, const py::list& args, const py::dict& options) {
  return launchValues(k, grid, listItems(args), args.size(), options);
}

// The fast path's key of a launch whose every parameter is passed in order and no launch option is
// given: per argument its kind and what KernelLauncher specializes on (a tensor's dtype and 16-byte
// alignment, an int's width, divisibility by 16 and whether it is 1, a constexpr's value). False for
// anything else (other libraries' CPU tensors, odd values): those take the general path, which also
// raises the errors. Another library's CUDA tensor (installed PyTorch's) keys as its dtype and
// alignment and sets `foreign`: only the lean GPU path reuses such an entry.
bool fastKey(const PythonKernel& k, PyObject* const* args, size_t count, std::string& key, bool& foreign,
             uint64_t* foreignPointers) {
  key.clear();
  foreign = false;
  if (count > kMaxKeyedParams) return false;
  char digits[24];
  for (size_t i = 0; i < count; ++i) {
    py::handle h = args[i];
    const bool constexprParam = k.isConstexprParam(i);
    if (PyBool_Check(h.ptr())) {
      key += constexprParam ? (h.ptr() == Py_True ? "cT" : "cF") : "b";
    } else if (PyLong_Check(h.ptr())) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
      if (overflow) return false;
      if (constexprParam) {
        key += "ci";
        key.append(digits, static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, v).ptr - digits));
      } else if (v == 1) {
        key += '1';
      } else {
        key += v >= -2147483648LL && v <= 2147483647LL ? 'i' : 'l';
        if (v % 16 == 0) key += '6';
      }
    } else if (const host::Tensor* tensor = builtinTensorOf(h)) {
      if (constexprParam) return false;
      const host::Tensor& t = *tensor;
      key += 'T';
      key += static_cast<char>('A' + static_cast<int>(t.dtype()));
      key += (t.storageOffset() * t.elementSize()) % 16 == 0 ? 'a' : 'u';
    } else if (PyFloat_Check(h.ptr())) {
      key += constexprParam ? "cf" + py::repr(h).cast<std::string>() : std::string("f");
    } else if (h.is_none()) {
      key += "cN";
    } else if (PyUnicode_Check(h.ptr())) {
      key += "cs" + py::repr(h).cast<std::string>();
    } else if (py::isinstance<TorchDType>(h)) {
      key += "cd" + std::to_string(static_cast<int>(h.cast<TorchDType>().dtype));
    } else if (!constexprParam && foreignCudaTensorKey(h, key, foreignPointers[i])) {
      foreign = true;
    } else {
      return false;
    }
    key += '|';
  }
  return true;
}

// A grid of 1 to 3 non-negative ints, padded with 1s; false for anything else (the general path
// raises the right error).
bool fastGrid(PyObject* grid, int64_t out[3]) {
  if (!PyTuple_Check(grid)) return false;
  const Py_ssize_t n = PyTuple_GET_SIZE(grid);
  if (n < 1 || n > 3) return false;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject* d = PyTuple_GET_ITEM(grid, i);
    if (!PyLong_Check(d) || PyBool_Check(d)) return false;
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(d, &overflow);
    if (overflow || v < 0) return false;
    out[i] = v;
  }
  return true;
}

// A value of a compiled kernel's attribute as Python: numbers, strings, dicts; a namespace (metadata)
// as a dict of its attributes.
py::object plainObjectOf(const host::Value& v) {
  if (v.isNone()) return py::none();
  if (v.isBool()) return py::bool_(v.asBool());
  if (v.isInt()) return py::int_(v.asInt());
  if (v.isFloat()) return py::float_(v.asFloat());
  if (const auto* s = v.as<host::StrObject>()) return py::str(s->value);
  py::dict out;
  if (const auto* d = v.as<host::DictObject>()) {
    for (const auto& [k, item] : d->entries()) out[plainObjectOf(k)] = plainObjectOf(item);
    return out;
  }
  if (const auto* ns = v.as<host::NamespaceObject>()) {
    for (const auto& [k, item] : ns->attrs) out[py::str(k)] = plainObjectOf(item);
    return out;
  }
  throw py::type_error("a compiled kernel's attribute of an unexpected kind");
}

// What kernel.warmup() returns, on the engine's side: CompiledKernelObject.
struct CompiledHandle {
  std::shared_ptr<PythonKernel> kernel;
  host::Value compiled;
};

}  // namespace

void launchKernel(PythonKernel& k, PyObject* grid, PyObject* const* args, size_t count, const py::dict& options) {
  // One buffer for every launch's key: no allocation once it has grown to the longest key. A launch
  // made while keying (Python that data_ptr() runs) uses its own.
  static std::string sharedKey;
  static int keying = 0;
  std::string ownKey;
  std::string& key = keying ? ownKey : sharedKey;
  bool foreign = false;
  uint64_t foreignPointers[kMaxKeyedParams] = {};
  ++keying;
  struct Keyed {
    ~Keyed() { --keying; }
  } keyed;
  const bool fast =
      options.empty() && count == k.parameterCount() && fastKey(k, args, count, key, foreign, foreignPointers);
  int64_t dims[3] = {1, 1, 1};
  if (fast && fastGrid(grid, dims)) {
    if (std::shared_ptr<PythonKernel::FastLaunch> cached = k.fastLaunch(key); cached && !cached->inUse) {
      if (launchOnGpuLean(k, *cached, args, dims, foreignPointers)) return;
      if (!cached->foreign) {
        // A specialization launched before: only the runtime arguments and the grid change.
        host::PreparedLaunch& p = cached->prepared;
        for (size_t j = 0; j < cached->runtimeParams.size(); ++j) {
          const size_t param = cached->runtimeParams[j];
          p.runtimeArgs[j] = launchArgumentOf(args[param], p.runtimeNames[j]);
        }
        p.grid.assign(dims, dims + 3);
        cached->inUse = true;
        struct Release {
          PythonKernel::FastLaunch& entry;
          ~Release() { entry.inUse = false; }
        } release{*cached};
        k.runPrepared(p);
        return;
      }
    }
  }
  LaunchValues v = launchValues(k, grid, args, count, options);
  withBorrowed(v, [&] {
    host::PreparedLaunch prepared = k.launch(v.grid, std::move(v.args), std::move(v.options));
    const bool allOnDevice =
        std::all_of(v.borrowed.begin(), v.borrowed.end(), [](const BorrowedMemory& b) { return b.onDevice; });
    if (fast && allOnDevice) k.remember(key, std::move(prepared), !v.borrowed.empty());
  });
}

void bindKernels(py::module_& m) {
  bindBoundLaunch(m);
  m.def("synchronize", &synchronizeLaunches, py::arg("where") = "torch.cuda.synchronize()",
        "Waits for the GPU launches queued so far and raises the first failure among them (RuntimeError "
        "naming the kernel's line and the program); nothing when none are pending or on the simulator.");

  py::class_<CompiledHandle>(m, "CompiledKernelHandle")
      .def("attribute", [](const CompiledHandle& h, const std::string& name) {
        return plainObjectOf(PythonKernel::compiledAttribute(h.compiled, name));
      })
      .def("launch", [](const CompiledHandle& h, const py::tuple& grid, const py::list& args) {
        LaunchValues v = launchValues(*h.kernel, grid, args, py::dict());
        withBorrowed(v, [&] { h.kernel->launchCompiled(h.compiled, v.grid, std::move(v.args)); });
      });

  py::class_<PythonKernel, std::shared_ptr<PythonKernel>>(m, "Kernel")
      .def(py::init<const std::string&, const std::string&, const std::string&, int, const std::vector<std::string>&,
                    const std::vector<std::string>&>(),
           py::arg("name"), py::arg("source"), py::arg("file"), py::arg("first_line"),
           py::arg("do_not_specialize") = std::vector<std::string>{},
           py::arg("do_not_specialize_on_alignment") = std::vector<std::string>{})
      .def_property_readonly("name", &PythonKernel::name)
      .def_property_readonly("parameters", &PythonKernel::parameterNames)
      .def_property_readonly("has_globals", &PythonKernel::hasGlobals)
      .def_property_readonly("fast_specializations", &PythonKernel::fastSpecializations)
      .def_property_readonly("cached_specializations", &PythonKernel::cachedSpecializations)
      .def("prefetch_redefined", &PythonKernel::prefetchRedefined, py::arg("resolve_globals"))
      .def("set_globals",
           [](PythonKernel& k, const py::dict& globals, const std::vector<std::shared_ptr<PythonKernel>>& helpers) {
             std::vector<std::pair<std::string, lang::Value>> values;
             std::vector<std::pair<std::string, host::Value>> hostFunctions;
             for (auto [name, value] : globals) {
               const std::string n = name.cast<std::string>();
               if (isHostFunction(value)) {
                 values.emplace_back(n, lang::Value::ofHostFunction(n));
                 hostFunctions.emplace_back(n, hostFunctionOf(value, n));
               } else {
                 values.emplace_back(n, kernelGlobalOf(value, n));
               }
             }
             k.setGlobals(values, helpers);
             k.setHostFunctions(std::move(hostFunctions));
           })
      .def("launch",
           [](PythonKernel& k, const py::tuple& grid, const py::list& args, const py::dict& options) {
             launchKernel(k, grid.ptr(), listItems(args), args.size(), options);
           })
      .def("warmup",
           [](const std::shared_ptr<PythonKernel>& k, const py::tuple& grid, const py::list& args, const py::dict& options) {
             LaunchValues v = launchValues(*k, grid, args, options);
             return CompiledHandle{k, k->warmup(v.grid, std::move(v.args), std::move(v.options))};
           })
      .def("check", [](PythonKernel& k, const py::tuple& grid, const py::list& args, const py::dict& options) {
        LaunchValues v = launchValues(k, grid, args, options);
        k.check(v.grid, std::move(v.args), std::move(v.options));
      });
}

}  // namespace tilescope::python
