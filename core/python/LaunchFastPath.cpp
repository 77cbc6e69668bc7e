#include "core/python/LaunchFastPath.h"

#include <cstdlib>
#include <unordered_map>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/AddressBook.h"
#include "core/python/DeviceMemory.h"
#include "core/python/ExecutionBackend.h"
#include "core/python/PyError.h"
#include "core/python/EngineSession.h"
#include "core/python/PointerArguments.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {


PyObject* interned(const char* name) {
  PyObject* s = PyUnicode_InternFromString(name);  // kept for the process's life
  if (!s) throw py::error_already_set();
  return s;
}

// How objects of a type are read as CUDA tensors of another library: whether they are torch-like
// (data_ptr(), untyped_storage(), is_cuda and dtype: installed PyTorch's tensors), and the C getters
// behind is_cuda and dtype when the type's attribute lookup is CPython's generic one and they are
// getset descriptors (exactly what that lookup would call: a data descriptor found on the type wins
// over the instance), so a launch calls them directly. Found once per type, and again when the type
// (or a base) changed since (CPython gives it a new version tag then).
struct TorchLikeAccess {
  bool like = false;
  PyGetSetDef* isCuda = nullptr;
  PyGetSetDef* dtype = nullptr;
  unsigned int versionTag = 0;  // the type's tp_version_tag when the getters were found (0: none valid)
};

PyGetSetDef* getsetOf(PyTypeObject* type, PyObject* name) {
  if (type->tp_getattro != PyObject_GenericGetAttr) return nullptr;
  PyObject* d = _PyType_Lookup(type, name);  // borrowed
  if (!d || !Py_IS_TYPE(d, &PyGetSetDescr_Type)) return nullptr;
  PyGetSetDef* def = reinterpret_cast<PyGetSetDescrObject*>(d)->d_getset;
  return def && def->get ? def : nullptr;
}

const TorchLikeAccess& torchLikeAccess(py::handle h) {
  static PyObject* const isCudaName = interned("is_cuda");
  static PyObject* const dtypeName = interned("dtype");
  static std::unordered_map<PyTypeObject*, TorchLikeAccess> types;
  static PyTypeObject* lastType = nullptr;
  static TorchLikeAccess* last = nullptr;
  PyTypeObject* type = Py_TYPE(h.ptr());
  TorchLikeAccess* access = nullptr;
  if (type == lastType) {
    access = last;
  } else if (auto it = types.find(type); it != types.end()) {
    access = &it->second;  // unordered_map nodes do not move
  } else {
    TorchLikeAccess found;
    found.like = !builtinTensorOf(h) && py::hasattr(h, "data_ptr") && py::hasattr(h, "untyped_storage") &&
                 py::hasattr(h, "is_cuda") && py::hasattr(h, "dtype");
    Py_INCREF(reinterpret_cast<PyObject*>(type));  // the key stays valid
    access = &types.emplace(type, found).first->second;
  }
  lastType = type;
  last = access;
  if (access->like && (access->versionTag == 0 || access->versionTag != type->tp_version_tag)) {
    access->isCuda = getsetOf(type, isCudaName);
    access->dtype = getsetOf(type, dtypeName);
    access->versionTag = type->tp_version_tag;  // _PyType_Lookup assigned it; 0 when the type has none
    if (access->versionTag == 0) access->isCuda = access->dtype = nullptr;
  }
  return *access;
}

// obj.name through the getter found above, or the generic lookup; a new reference or null (error set).
PyObject* attribute(py::handle h, PyGetSetDef* getset, PyObject* name) {
  return getset ? getset->get(h.ptr(), getset->closure) : PyObject_GetAttr(h.ptr(), name);
}

// A torch dtype object's engine dtype, by object (dtypes are singletons), once each.
bool dtypeOf(py::handle tensor, PyObject* dtype, host::DType& out) {
  static std::unordered_map<PyObject*, int> dtypes;  // -1: not a dtype kernels take
  static PyObject* lastDtype = nullptr;
  static int lastCode = -1;
  int code = -1;
  if (dtype == lastDtype) {
    code = lastCode;
  } else if (auto it = dtypes.find(dtype); it != dtypes.end()) {
    code = it->second;
  } else {
    try {
      code = static_cast<int>(pointerDTypeOf(tensor, "?"));
    } catch (const py::error_already_set&) {
      code = -1;
    } catch (const std::exception&) {
      code = -1;
    }
    Py_INCREF(dtype);  // the key stays valid
    dtypes.emplace(dtype, code);
  }
  lastDtype = dtype;
  lastCode = code;
  if (code < 0) return false;
  out = static_cast<host::DType>(code);
  return true;
}

// data_ptr() of a torch-like tensor; false (and no Python error set) when it fails.
bool dataPtrOf(py::handle h, uint64_t& out) {
  static PyObject* const name = interned("data_ptr");
  PyObject* r = PyObject_CallMethodNoArgs(h.ptr(), name);
  if (!r) {
    PyErr_Clear();
    return false;
  }
  out = PyLong_AsUnsignedLongLong(r);
  Py_DECREF(r);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  return true;
}

[[noreturn]] void raiseGpu(const gpu::GpuError& e) {
  if (const auto* failure = dynamic_cast<const gpu::GpuKernelFailure*>(&e)) {
    host::PyError err("RuntimeError", e.what());
    err.setDiagnostics(failure->diagnostic());
    throw err;
  }
  throw host::PyError("RuntimeError", e.what());
}

}  // namespace

const host::Tensor* builtinTensorOf(py::handle h) {
  static py::detail::type_info* const info = py::detail::get_type_info(typeid(host::Tensor));
  if (!info) return nullptr;
  if (Py_TYPE(h.ptr()) != info->type) {
    // A subclass, or (mostly) not a tensor: CPython's own check, not pybind11's type lookup.
    if (!PyObject_TypeCheck(h.ptr(), info->type)) return nullptr;
    return &h.cast<const host::Tensor&>();
  }
  auto* instance = reinterpret_cast<py::detail::instance*>(h.ptr());
  return static_cast<const host::Tensor*>(instance->get_value_and_holder(info).value_ptr());
}

bool foreignCudaTensorKey(py::handle h, std::string& key, uint64_t& pointer) {
  const TorchLikeAccess& access = torchLikeAccess(h);
  if (!access.like) return false;
  static PyObject* const isCudaName = interned("is_cuda");
  static PyObject* const dtypeName = interned("dtype");
  PyObject* isCuda = attribute(h, access.isCuda, isCudaName);
  if (!isCuda) {
    PyErr_Clear();
    return false;
  }
  const bool cuda = isCuda == Py_True;
  Py_DECREF(isCuda);
  if (!cuda) return false;
  PyObject* dtype = attribute(h, access.dtype, dtypeName);
  if (!dtype) {
    PyErr_Clear();
    return false;
  }
  host::DType d{};
  const bool known = dtypeOf(h, dtype, d);
  Py_DECREF(dtype);
  if (!known || !dataPtrOf(h, pointer)) return false;
  key += 'P';
  key += static_cast<char>('A' + static_cast<int>(d));
  key += pointer % 16 == 0 ? 'a' : 'u';
  return true;
}

bool launchOnGpuLean(PythonKernel& kernel, PythonKernel::FastLaunch& entry, PyObject* const* args, const int64_t grid[3],
                     const uint64_t* foreignPointers) {
  EngineSession* session = EngineSession::active();
  if (!session || entry.leanRefused) return false;
  host::LaunchContext& context = session->launchContext();
  const host::LaunchSettings& settings = context.launchSettings();
  if (settings.backend == host::Backend::Simulator || !settings.traceDir.empty() || !settings.pidFilter.empty() ||
      !settings.programTimingPath.empty() || context.wantsProgramTiming() || kernel.hasHostFunctions())
    return false;
  if (!host::resolvesToGpu(settings.backend)) return false;
  gpu::GpuRuntime& runtime = gpu::GpuRuntime::instance();
  const host::PreparedLaunch& prepared = entry.prepared;
  if (!entry.gpu) {
    // TILESCOPE_GPU_CROSSCHECK: the general path checks launches against the simulator (read once per
    // specialization, not at every launch: getenv walks the whole environment).
    if (std::getenv("TILESCOPE_GPU_CROSSCHECK") ||
        context.extension<host::AddressBook>().makesPointersFromIntegers(prepared.kernel) ||
        entry.runtimeParams.size() > kMaxKeyedParams) {
      entry.leanRefused = true;  // cross-checked, or it reaches tensors the arguments do not name: the general path
      return false;
    }
    entry.gpu = runtime.launchHandle(prepared.kernel);
    if (!entry.gpu) return false;  // its optimized build was not launched yet
  }
  const gpu::GpuLaunchHandle& handle = *entry.gpu;
  const size_t count = entry.runtimeParams.size();
  if (handle.paramTypes.size() != count) return false;

  unsigned char slots[kMaxKeyedParams][8];
  void* params[kMaxKeyedParams + 1];
  host::Storage* written[kMaxKeyedParams];
  size_t writtenCount = 0;
  try {
    for (size_t j = 0; j < count; ++j) {
      py::handle a = args[entry.runtimeParams[j]];
      gpu::GpuArg g;
      if (PyBool_Check(a.ptr())) {
        g = gpu::GpuArg::integer(a.ptr() == Py_True ? 1 : 0);
      } else if (PyLong_Check(a.ptr())) {
        g = gpu::GpuArg::integer(PyLong_AsLongLong(a.ptr()));  // the key made sure it fits
      } else if (PyFloat_Check(a.ptr())) {
        g = gpu::GpuArg::real(PyFloat_AS_DOUBLE(a.ptr()));
      } else if (const host::Tensor* tensor = builtinTensorOf(a)) {
        const host::Tensor& t = *tensor;
        host::Storage& storage = *t.storage();
        const uint64_t base = host::DeviceMemory::addressFor(storage, handle.what);  // uploads only what changed
        g = gpu::GpuArg::pointer(base + static_cast<uint64_t>(t.storageOffset() * t.elementSize()));
        written[writtenCount++] = &storage;
      } else {
        const uint64_t pointer = foreignPointers[entry.runtimeParams[j]];  // data_ptr(), read by the key
        if (!pointer) return false;
        g = gpu::GpuArg::pointer(pointer);
      }
      gpu::GpuRuntime::packArgument(handle.paramTypes[j], g, slots[j], lang::SourceRange{});
      params[j] = slots[j];
    }
    // An empty grid launches nothing (as in Triton); its arguments were read all the same, so a loop
    // of empty launches times this path's host work without the driver's (launch_overhead.py).
    if (grid[0] * grid[1] * grid[2] == 0) return true;
    if (!runtime.launchAgain(handle, grid, params)) {
      entry.gpu.reset();  // the context died since: the general path loads the kernel again
      return false;
    }
  } catch (const gpu::GpuError& e) {
    raiseGpu(e);
  }
  for (size_t i = 0; i < writtenCount; ++i) {
    host::DeviceMemory::markDeviceNewer(*written[i]);
    if (!written[i]->fullyInitialised()) written[i]->markAllWritten();  // the GPU does not track which bytes it wrote
  }
  if (context.wantsLaunchRecords())
    context.reportLaunch({kernel.name(), {grid[0], grid[1], grid[2]}, "gpu", 0, {}, {}});
  return true;
}

void synchronizeLaunches(const std::string& where) {
  if (!gpu::GpuRuntime::launchesPending()) return;
  try {
    gpu::GpuRuntime::instance().synchronize(where);
  } catch (const gpu::GpuError& e) {
    raiseGpu(e);
  }
}

}  // namespace tilescope::python
