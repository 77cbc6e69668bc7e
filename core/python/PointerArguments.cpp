#include "core/python/PointerArguments.h"

#include <cstdio>
#include <optional>

#include "core/gpu/runtime/GpuRuntime.h"
#include "core/python/DeviceMemory.h"
#include "core/python/PythonValues.h"
#include "core/tensor/TypePromotion.h"

namespace py = pybind11;

namespace tilescope::python {

namespace {

// The DLPack ABI (dlpack.h, version 0.x, what __dlpack__() returns in a "dltensor" capsule).
struct DLDevice {
  int32_t deviceType;
  int32_t deviceId;
};
struct DLDataType {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byteOffset;
};
struct DLManagedTensor {
  DLTensor tensor;
  void* managerCtx;
  void (*deleter)(DLManagedTensor*);
};
constexpr int32_t kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13;

// Where the pointer points, and how far the memory reaches from `base`.
struct Memory {
  uint64_t base = 0;     // first byte the argument may reach
  uint64_t pointer = 0;  // what the kernel gets
  uint64_t nbytes = 0;   // bytes from base
  bool onDevice = false;
  host::DType dtype = host::DType::FP32;
  py::object keepAlive;
};

[[noreturn]] void fail(const std::string& param, const std::string& why) {
  throw py::type_error("kernel parameter '" + param + "': " + why);
}

std::optional<host::DType> dtypeFromName(std::string name) {
  if (name.rfind("torch.", 0) == 0) name = name.substr(6);
  if (name == "float8_e4m3fn") return host::DType::FP8E4NV;
  if (name == "float8_e5m2") return host::DType::FP8E5;
  return host::parseTorchDType(name);
}

// NumPy's and the CUDA array interface's typestr: '<f4', '|u1', '<i8', ...
std::optional<host::DType> dtypeFromTypestr(const std::string& t) {
  if (t.size() < 3) return std::nullopt;
  const char kind = t[1];
  const int bytes = std::atoi(t.c_str() + 2);
  using D = host::DType;
  if (kind == 'f') return bytes == 2 ? D::FP16 : bytes == 4 ? D::FP32 : bytes == 8 ? std::optional<D>(D::FP64) : std::nullopt;
  if (kind == 'i') return bytes == 1 ? D::I8 : bytes == 2 ? D::I16 : bytes == 4 ? D::I32 : bytes == 8 ? std::optional<D>(D::I64) : std::nullopt;
  if (kind == 'u') return bytes == 1 ? D::U8 : bytes == 2 ? D::U16 : bytes == 4 ? D::U32 : bytes == 8 ? std::optional<D>(D::U64) : std::nullopt;
  if (kind == 'b' && bytes == 1) return D::I1;
  return std::nullopt;
}

std::optional<host::DType> dtypeFromDLPack(const DLDataType& t) {
  using D = host::DType;
  if (t.lanes != 1) return std::nullopt;
  switch (t.code) {
    case 0: return t.bits == 8 ? D::I8 : t.bits == 16 ? D::I16 : t.bits == 32 ? D::I32 : t.bits == 64 ? std::optional<D>(D::I64) : std::nullopt;
    case 1: return t.bits == 8 ? D::U8 : t.bits == 16 ? D::U16 : t.bits == 32 ? D::U32 : t.bits == 64 ? std::optional<D>(D::U64) : std::nullopt;
    case 2: return t.bits == 16 ? D::FP16 : t.bits == 32 ? D::FP32 : t.bits == 64 ? std::optional<D>(D::FP64) : std::nullopt;
    case 4: return t.bits == 16 ? std::optional<D>(D::BF16) : std::nullopt;
    case 6: return t.bits == 8 ? std::optional<D>(D::I1) : std::nullopt;
    default: return std::nullopt;
  }
}

// The dtype attribute of a data_ptr() object: a torch dtype (ours or installed PyTorch's), a
// triton.language dtype, or a NumPy dtype.
host::DType dtypeAttribute(py::handle h, const std::string& param) {
  if (!py::hasattr(h, "dtype")) fail(param, "an object with data_ptr() needs a dtype attribute, as Triton reads it");
  const py::object d = h.attr("dtype");
  if (py::isinstance<TorchDType>(d)) return d.cast<TorchDType>().dtype;
  if (py::hasattr(d, "_tilescope_dtype")) {
    if (auto t = ir::parseDType(d.attr("_tilescope_dtype").cast<std::string>())) return *t;
  }
  if (py::hasattr(d, "str") && PyUnicode_Check(d.attr("str").ptr())) {
    if (auto t = dtypeFromTypestr(d.attr("str").cast<std::string>())) return *t;
  }
  if (auto t = dtypeFromName(py::str(d).cast<std::string>())) return *t;
  fail(param, "its dtype " + py::str(d).cast<std::string>() + " is not one kernels take");
}

// Bytes an array of this shape and these strides (in bytes; empty: contiguous) reaches.
uint64_t extentOf(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, size_t itemsize,
                  const std::string& param) {
  uint64_t elements = 1;
  for (int64_t s : shape) {
    if (s == 0) return 0;
    elements *= static_cast<uint64_t>(s);
  }
  if (strides.empty()) return elements * itemsize;
  uint64_t last = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (strides[i] < 0) fail(param, "negative strides are not supported");
    last += static_cast<uint64_t>(shape[i] - 1) * static_cast<uint64_t>(strides[i]);
  }
  return last + itemsize;
}

std::vector<int64_t> intsOf(py::handle seq) {
  std::vector<int64_t> out;
  for (py::handle item : seq) out.push_back(item.cast<int64_t>());
  return out;
}

Memory fromArrayInterface(py::handle h, const char* attribute, bool onDevice, const std::string& param) {
  const py::dict iface = h.attr(attribute).cast<py::dict>();
  Memory m;
  m.onDevice = onDevice;
  const std::string typestr = iface["typestr"].cast<std::string>();
  auto dt = dtypeFromTypestr(typestr);
  if (!dt) fail(param, "its element type '" + typestr + "' is not one kernels take");
  m.dtype = *dt;
  m.pointer = m.base = py::tuple(iface["data"])[0].cast<uint64_t>();
  const std::vector<int64_t> shape = intsOf(iface["shape"]);
  std::vector<int64_t> strides;
  if (iface.contains("strides") && !iface["strides"].is_none()) strides = intsOf(iface["strides"]);
  m.nbytes = extentOf(shape, strides, host::elementSize(m.dtype), param);
  return m;
}

Memory fromDLPack(py::handle h, const std::string& param) {
  py::object capsule = h.attr("__dlpack__")();
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!managed) {
    PyErr_Clear();
    fail(param, "__dlpack__() did not return a 'dltensor' capsule");
  }
  const DLTensor& t = managed->tensor;
  Memory m;
  const int32_t type = t.device.deviceType;
  if (type != kDLCPU && type != kDLCUDA && type != kDLCUDAHost && type != kDLCUDAManaged)
    fail(param, "its DLPack memory is neither CPU nor CUDA memory");
  m.onDevice = type == kDLCUDA || type == kDLCUDAManaged;
  auto dt = dtypeFromDLPack(t.dtype);
  if (!dt) fail(param, "its DLPack element type is not one kernels take");
  m.dtype = *dt;
  const size_t itemsize = host::elementSize(m.dtype);
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim), strides;
  if (t.strides)
    for (int32_t i = 0; i < t.ndim; ++i) strides.push_back(t.strides[i] * static_cast<int64_t>(itemsize));
  m.pointer = m.base = reinterpret_cast<uint64_t>(t.data) + t.byteOffset;
  m.nbytes = extentOf(shape, strides, itemsize, param);
  m.keepAlive = std::move(capsule);  // its destructor hands the tensor back to its producer
  return m;
}

bool deviceIsCuda(py::handle h) {
  if (!py::hasattr(h, "device")) return true;  // Triton's data_ptr() is a device address
  py::object d = h.attr("device");
  if (py::hasattr(d, "type")) d = d.attr("type");
  return py::str(d).cast<std::string>().rfind("cuda", 0) == 0;
}

// An object with data_ptr(): an installed PyTorch's tensor (its storage gives the extent), or any
// object with dtype and nbytes (or numel() and element_size()).
Memory fromDataPtr(py::handle h, const std::string& param) {
  Memory m;
  m.dtype = dtypeAttribute(h, param);
  m.onDevice = deviceIsCuda(h);
  m.pointer = h.attr("data_ptr")().cast<uint64_t>();
  if (py::hasattr(h, "untyped_storage")) {
    const py::object storage = h.attr("untyped_storage")();
    m.base = storage.attr("data_ptr")().cast<uint64_t>();
    m.nbytes = storage.attr("nbytes")().cast<uint64_t>();
    return m;
  }
  m.base = m.pointer;
  if (py::hasattr(h, "nbytes")) {
    py::object n = h.attr("nbytes");
    m.nbytes = (PyCallable_Check(n.ptr()) ? n() : n).cast<uint64_t>();
  } else if (py::hasattr(h, "numel") && py::hasattr(h, "element_size")) {
    m.nbytes = h.attr("numel")().cast<uint64_t>() * h.attr("element_size")().cast<uint64_t>();
  } else {
    fail(param, "tilescope needs the extent of the memory behind data_ptr() (for its bounds checks): give the "
                "object nbytes, or numel() and element_size()");
  }
  return m;
}

}  // namespace

host::DType pointerDTypeOf(py::handle h, const std::string& param) { return dtypeAttribute(h, param); }

bool isForeignPointer(py::handle h) {
  if (py::isinstance<host::Tensor>(h) || h.is_none() || PyLong_Check(h.ptr()) || PyFloat_Check(h.ptr()) ||
      PyUnicode_Check(h.ptr()) || PyBool_Check(h.ptr()))
    return false;
  return py::hasattr(h, "data_ptr") || py::hasattr(h, "__cuda_array_interface__") ||
         py::hasattr(h, "__array_interface__") || py::hasattr(h, "__dlpack__");
}

host::Tensor borrowTensor(py::handle h, const std::string& param, std::vector<BorrowedMemory>& borrowed) {
  Memory m;
  if (py::hasattr(h, "data_ptr") && py::hasattr(h, "untyped_storage")) m = fromDataPtr(h, param);
  else if (py::hasattr(h, "__cuda_array_interface__")) m = fromArrayInterface(h, "__cuda_array_interface__", true, param);
  else if (py::hasattr(h, "__array_interface__")) m = fromArrayInterface(h, "__array_interface__", false, param);
  else if (py::hasattr(h, "__dlpack__")) m = fromDLPack(h, param);
  else m = fromDataPtr(h, param);
  const size_t itemsize = host::elementSize(m.dtype);
  if (m.pointer < m.base || (m.pointer - m.base) % itemsize != 0 || m.nbytes % itemsize != 0)
    fail(param, "its pointer is not aligned to its " + std::to_string(itemsize) + "-byte elements");
  std::shared_ptr<host::Storage> storage;
  if (m.onDevice) {
    // The host side is a copy made only when the simulator reads it (Storage::data() fetches it).
    host::DeviceMemory::install();
    storage = host::Storage::create(m.nbytes, true);
    host::Storage::DeviceMirror& mirror = storage->deviceMirror();
    mirror.address = m.base;
    mirror.generation = gpu::GpuRuntime::instance().generation();
    mirror.newer = host::Storage::DeviceMirror::Side::Device;
    mirror.borrowed = true;
  } else {
    storage = host::Storage::borrow(reinterpret_cast<std::byte*>(m.base), m.nbytes);
  }
  const int64_t offset = static_cast<int64_t>((m.pointer - m.base) / itemsize);
  const int64_t elements = static_cast<int64_t>(m.nbytes / itemsize) - offset;
  host::Device device = m.onDevice ? host::Device(host::Device::Type::CUDA, 0) : host::Device();
  borrowed.push_back(BorrowedMemory{storage, m.onDevice, std::move(m.keepAlive)});
  return host::Tensor(storage, m.dtype, {std::max<int64_t>(elements, 0)}, {1}, offset, device);
}

void syncBorrowed(std::vector<BorrowedMemory>& borrowed) noexcept {
  for (BorrowedMemory& b : borrowed) {
    try {
      if (b.onDevice) {
        // The simulator wrote the host copy: back to the owner's device memory.
        if (b.storage->deviceMirror().newer == host::Storage::DeviceMirror::Side::Host)
          host::DeviceMemory::addressFor(*b.storage, "copying a kernel's results back to a CUDA tensor");
      } else {
        // A GPU launch wrote the device copy: back into the owner's host memory.
        static_cast<const host::Storage&>(*b.storage).data();
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tilescope: %s\n", e.what());
    }
  }
}

}  // namespace tilescope::python
