// _tilescope's tensor part: the C++ tensor library (core/tensor/Tensor*.h) as the Python type
// _tilescope.Tensor, torch's dtypes as _tilescope.dtype, and the factories and functions that
// resources/python/torch wraps with torch's argument conventions. Operations and their errors are the
// library's own (torch's semantics and wording); this file only converts values.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <map>
#include <cstdint>

#include "core/tensor/TensorCompare.h"
#include "core/tensor/TensorError.h"
#include "core/tensor/TensorFactory.h"
#include "core/tensor/TensorIndexing.h"
#include "core/tensor/TensorLinalg.h"
#include "core/tensor/TensorNN.h"
#include "core/tensor/TensorOps.h"
#include "core/tensor/TensorPrinter.h"
#include "core/tensor/TensorReduce.h"
#include "core/tensor/TensorReorder.h"
#include "core/tensor/TorchRandom.h"
#include "core/python/AddressBook.h"
#include "core/python/GpuMatmul.h"
#include "core/python/EngineSession.h"
#include "core/python/PythonValues.h"
#include "core/python/TilescopeModule.h"

namespace py = pybind11;

namespace tilescope::python {

using host::Tensor;

namespace {

std::optional<host::TensorOrScalar> operand(py::handle h) {
  if (py::isinstance<Tensor>(h)) return host::TensorOrScalar(h.cast<const Tensor&>());
  if (std::optional<host::Scalar> s = scalarOf(h)) return host::TensorOrScalar(*s);
  return std::nullopt;
}

py::object notImplemented() { return py::reinterpret_borrow<py::object>(Py_NotImplemented); }

// `self OP other` (or `other OP self` when reflected); NotImplemented for operands torch rejects too,
// so Python raises its own TypeError naming both types.
auto binaryMethod(host::BinaryOp op, bool reflected) {
  return [op, reflected](const Tensor& self, py::object other) -> py::object {
    std::optional<host::TensorOrScalar> o = operand(other);
    if (!o) return notImplemented();
    return py::cast(reflected ? host::binary(op, *o, self) : host::binary(op, self, *o));
  };
}

auto inplaceMethod(host::BinaryOp op) {
  return [op](Tensor& self, py::object other) -> py::object {
    std::optional<host::TensorOrScalar> o = operand(other);
    if (!o) return notImplemented();
    host::binaryInPlace(op, self, *o);
    return py::cast(self);
  };
}

host::Slice sliceOf(py::handle h) {
  auto part = [&](const char* name) -> std::optional<int64_t> {
    py::object v = h.attr(name);
    if (v.is_none()) return std::nullopt;
    return integerOf(v, "slice indices");
  };
  return host::Slice{part("start"), part("stop"), part("step")};
}

host::TensorIndex indexOf(py::handle h) {
  if (h.is_none()) return host::NewAxis{};
  if (h.ptr() == Py_Ellipsis) return host::EllipsisIndex{};
  if (PyBool_Check(h.ptr())) return h.cast<bool>();
  if (PyLong_Check(h.ptr())) return integerOf(h, "an index");
  if (PySlice_Check(h.ptr())) return sliceOf(h);
  if (py::isinstance<Tensor>(h)) return h.cast<Tensor>();
  if (PyList_Check(h.ptr())) return host::tensor(nestedOf(h));
  throw py::type_error("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got " +
                       std::string(Py_TYPE(h.ptr())->tp_name) + ")");
}

std::vector<host::TensorIndex> indicesOf(py::handle h) {
  std::vector<host::TensorIndex> out;
  if (PyTuple_Check(h.ptr())) {
    for (py::handle item : h) out.push_back(indexOf(item));
  } else {
    out.push_back(indexOf(h));
  }
  return out;
}

host::TensorOptions optionsOf(std::optional<TorchDType> dtype, const std::optional<std::string>& device) {
  host::TensorOptions o;
  if (dtype) o.dtype = dtype->dtype;
  if (device) o.device = host::Device::parse(*device);
  return o;
}

py::tuple tupleOf(const std::vector<int64_t>& v) {
  py::tuple t(v.size());
  for (size_t i = 0; i < v.size(); ++i) t[i] = py::int_(v[i]);
  return t;
}

void bindDType(py::module_& m) {
  py::class_<TorchDType>(m, "dtype")
      .def(py::init([](const std::string& name) {
        std::optional<host::DType> t = host::parseTorchDType(name);
        if (!t) throw py::value_error("unknown dtype '" + name + "'");
        return TorchDType{*t};
      }))
      .def("__repr__", [](const TorchDType& d) { return host::torchDTypeName(d.dtype); })
      .def("__eq__", [](const TorchDType& a, py::object b) {
        return py::isinstance<TorchDType>(b) && b.cast<const TorchDType&>().dtype == a.dtype;
      })
      .def("__hash__", [](const TorchDType& d) { return static_cast<int64_t>(d.dtype); })
      .def_property_readonly("is_floating_point", [](const TorchDType& d) { return host::isFloatingType(d.dtype); })
      .def_property_readonly("itemsize", [](const TorchDType& d) { return host::elementSize(d.dtype); });
}

void bindTensorClass(py::module_& m) {
  using host::BinaryOp;
  py::class_<Tensor> t(m, "Tensor");
  t.def("_shape", [](const Tensor& x) { return tupleOf(x.shape()); })
      .def("_stride", [](const Tensor& x) { return tupleOf(x.strides()); })
      .def("_device", [](const Tensor& x) { return x.device().str(); })
      .def_property_readonly("dtype", [](const Tensor& x) { return TorchDType{x.dtype()}; })
      .def_property_readonly("is_cuda", &Tensor::isCuda)
      .def_property_readonly("ndim", &Tensor::dim)
      .def("numel", &Tensor::numel)
      .def("dim", &Tensor::dim)
      .def("element_size", &Tensor::elementSize)
      .def("storage_offset", &Tensor::storageOffset)
      .def("is_contiguous", &Tensor::isContiguous)
      .def("is_floating_point", &Tensor::isFloatingPoint)
      // The address of element 0 as kernels understand it on the session's backend (a simulated
      // address on the simulator, the device copy's on the GPU; AddressBook), which a kernel
      // may load from memory and cast to a pointer (the grouped-GEMM tutorial); the host address only
      // when no session runs code.
      .def("data_ptr", [](const Tensor& x) -> int64_t {
        if (EngineSession* session = EngineSession::active()) return host::AddressBook::dataPtr(session->launchContext(), x);
        return static_cast<int64_t>(reinterpret_cast<uintptr_t>(x.rawData()));
      })
      .def("item", [](const Tensor& x) { return objectOf(x.item()); })
      .def("tolist", [](const Tensor& x) { return objectOf(x.tolist()); })
      .def("__repr__", [](const Tensor& x) { return host::toString(x); })
      .def("__format__", [](const Tensor& x, const std::string& spec) -> py::object {
        // torch: a 0-dim tensor formats its item(); others take only an empty spec.
        if (x.dim() == 0) {
          PyObject* text = PyObject_Format(objectOf(x.item()).ptr(), py::str(spec).ptr());
          if (!text) throw py::error_already_set();
          return py::reinterpret_steal<py::object>(text);
        }
        if (spec.empty()) return py::str(host::toString(x));
        throw py::type_error("unsupported format string passed to Tensor.__format__");
      })
      // Hashed by identity, like torch's tensors (defining __eq__ would otherwise drop __hash__).
      .def("__hash__", [](const py::object& self) { return reinterpret_cast<intptr_t>(self.ptr()); })
      .def("__len__", [](const Tensor& x) {
        if (x.dim() == 0) throw py::type_error("len() of a 0-d tensor");
        return x.shape()[0];
      })
      .def("__bool__", [](const Tensor& x) {
        if (x.numel() != 1)
          throw host::TensorError(std::string("Boolean value of Tensor with ") +
                                  (x.numel() == 0 ? "no values" : "more than one value") + " is ambiguous");
        return x.item().toBool();
      })
      .def("__float__", [](const Tensor& x) { return x.item().toDouble(); })
      .def("__int__", [](const Tensor& x) { return x.item().toInt(); })
      .def("__index__", [](const Tensor& x) {
        if (x.numel() != 1 || x.isFloatingPoint())
          throw py::type_error("only integer tensors of a single element can be converted to an index");
        return x.item().toInt();
      })
      .def("__getitem__", [](const Tensor& x, py::object index) { return host::getItem(x, indicesOf(index)); })
      .def("__setitem__", [](const Tensor& x, py::object index, py::object value) {
        std::optional<host::TensorOrScalar> v = operand(value);
        if (!v) throw py::type_error("can't assign a " + std::string(Py_TYPE(value.ptr())->tp_name) + " to a Tensor");
        host::setItem(x, indicesOf(index), *v);
      })
      .def("__add__", binaryMethod(BinaryOp::Add, false))
      .def("__radd__", binaryMethod(BinaryOp::Add, true))
      .def("__sub__", binaryMethod(BinaryOp::Sub, false))
      .def("__rsub__", binaryMethod(BinaryOp::Sub, true))
      .def("__mul__", binaryMethod(BinaryOp::Mul, false))
      .def("__rmul__", binaryMethod(BinaryOp::Mul, true))
      .def("__truediv__", binaryMethod(BinaryOp::Div, false))
      .def("__rtruediv__", binaryMethod(BinaryOp::Div, true))
      .def("__floordiv__", binaryMethod(BinaryOp::FloorDiv, false))
      .def("__rfloordiv__", binaryMethod(BinaryOp::FloorDiv, true))
      .def("__mod__", binaryMethod(BinaryOp::Mod, false))
      .def("__rmod__", binaryMethod(BinaryOp::Mod, true))
      .def("__pow__", binaryMethod(BinaryOp::Pow, false))
      .def("__rpow__", binaryMethod(BinaryOp::Pow, true))
      .def("__and__", binaryMethod(BinaryOp::BitAnd, false))
      .def("__or__", binaryMethod(BinaryOp::BitOr, false))
      .def("__xor__", binaryMethod(BinaryOp::BitXor, false))
      .def("__eq__", binaryMethod(BinaryOp::Eq, false))
      .def("__ne__", binaryMethod(BinaryOp::Ne, false))
      .def("__lt__", binaryMethod(BinaryOp::Lt, false))
      .def("__le__", binaryMethod(BinaryOp::Le, false))
      .def("__gt__", binaryMethod(BinaryOp::Gt, false))
      .def("__ge__", binaryMethod(BinaryOp::Ge, false))
      .def("__iadd__", inplaceMethod(BinaryOp::Add))
      .def("__isub__", inplaceMethod(BinaryOp::Sub))
      .def("__imul__", inplaceMethod(BinaryOp::Mul))
      .def("__itruediv__", inplaceMethod(BinaryOp::Div))
      .def("__neg__", [](const Tensor& x) { return host::neg(x); })
      .def("__abs__", [](const Tensor& x) { return host::abs(x); })
      .def("__invert__", [](const Tensor& x) { return host::bitwiseNot(x); })
      .def("abs", [](const Tensor& x) { return host::abs(x); })
      .def("sum", [](const Tensor& x) { return host::sum(x); })
      .def("mean", [](const Tensor& x) { return host::mean(x); })
      .def("max", [](const Tensor& x) { return host::max(x); })
      .def("min", [](const Tensor& x) { return host::min(x); })
      .def("contiguous", &Tensor::contiguous)
      .def("clone", &Tensor::clone)
      .def("flatten", &Tensor::flatten)
      .def("_view", [](const Tensor& x, const std::vector<int64_t>& shape) { return x.view(shape); })
      .def("_reshape", [](const Tensor& x, const std::vector<int64_t>& shape) { return x.reshape(shape); })
      .def("_expand", [](const Tensor& x, const std::vector<int64_t>& shape) { return x.expand(shape); })
      .def("_permute", [](const Tensor& x, const std::vector<int64_t>& dims) { return x.permute(dims); })
      .def("transpose", &Tensor::transpose)
      .def("t", &Tensor::t)
      .def_property_readonly("T", &Tensor::T)
      .def("unsqueeze", &Tensor::unsqueeze)
      .def("squeeze", [](const Tensor& x, std::optional<int64_t> dim) { return dim ? x.squeeze(*dim) : x.squeeze(); },
           py::arg("dim") = py::none())
      .def("_to_dtype", [](const Tensor& x, const TorchDType& d) { return x.to(d.dtype); })
      .def("_to_device", [](const Tensor& x, const std::string& device) { return x.to(host::Device::parse(device)); })
      .def("cpu", &Tensor::cpu)
      .def("cuda", [](const Tensor& x) { return x.cuda(); })
      .def("float", &Tensor::toFloat)
      .def("half", &Tensor::toHalf)
      .def("double", &Tensor::toDouble)
      .def("int", &Tensor::toInt)
      .def("long", &Tensor::toLong)
      .def("bool", &Tensor::toBool)
      .def("copy_", [](Tensor& x, const Tensor& src) { return x.copy_(src); })
      .def("fill_", [](Tensor& x, py::object v) { return x.fill_(requireScalar(v, "fill_")); })
      .def("zero_", [](Tensor& x) { return x.fill_(host::Scalar(int64_t{0})); });
}

py::tuple valuesIndices(const host::ValuesIndices& vi) { return py::make_tuple(vi.values, vi.indices); }

// The rest of the torch functions of the built-in torch: one
// line each onto the tensor library; resources/python/torch gives them torch's signatures.
void bindMoreFunctions(py::module_& m) {
  using host::UnaryOp;
  static const std::map<std::string, UnaryOp> unaryOps = {
      {"exp2", UnaryOp::Exp2},       {"log2", UnaryOp::Log2},   {"rsqrt", UnaryOp::Rsqrt}, {"sin", UnaryOp::Sin},
      {"cos", UnaryOp::Cos},         {"tanh", UnaryOp::Tanh},   {"sigmoid", UnaryOp::Sigmoid},
      {"reciprocal", UnaryOp::Reciprocal}, {"floor", UnaryOp::Floor}, {"ceil", UnaryOp::Ceil},
      {"round", UnaryOp::Round},     {"trunc", UnaryOp::Trunc}, {"logical_not", UnaryOp::LogicalNot}};
  m.def("unary", [](const std::string& name, const Tensor& x) { return host::unary(unaryOps.at(name), x); });
  m.def("where", [](const Tensor& condition, py::object x, py::object y) {
    std::optional<host::TensorOrScalar> a = operand(x), b = operand(y);
    if (!a || !b) throw py::type_error("where(): x and y must be tensors or numbers");
    return host::where(condition, *a, *b);
  });
  m.def("masked_fill", [](const Tensor& x, const Tensor& mask, py::object value) {
    return host::maskedFill(x, mask, requireScalar(value, "masked_fill"));
  });
  m.def("triangle", [](const Tensor& x, int64_t diagonal, bool upper) { return host::triangle(x, diagonal, upper); });
  m.def("clamp", [](const Tensor& x, py::object lo, py::object hi) {
    return host::clamp(x, lo.is_none() ? std::nullopt : std::optional<host::Scalar>(requireScalar(lo, "clamp")),
                       hi.is_none() ? std::nullopt : std::optional<host::Scalar>(requireScalar(hi, "clamp")));
  });
  m.def("argmin", [](const Tensor& x, std::optional<int64_t> dim, bool keepdim) { return host::argmin(x, dim, keepdim); });
  m.def("all", [](const Tensor& x, std::optional<int64_t> dim, bool keepdim) { return dim ? host::all(x, *dim, keepdim) : host::all(x); });
  m.def("any", [](const Tensor& x, std::optional<int64_t> dim, bool keepdim) { return dim ? host::any(x, *dim, keepdim) : host::any(x); });
  m.def("cumprod", [](const Tensor& x, int64_t dim) { return host::cumprod(x, dim); });
  m.def("flip", [](const Tensor& x, const std::vector<int64_t>& dims) { return host::flip(x, dims); });
  m.def("sort", [](const Tensor& x, int64_t dim, bool descending) { return valuesIndices(host::sort(x, dim, descending)); });
  m.def("topk", [](const Tensor& x, int64_t k, int64_t dim, bool largest) { return valuesIndices(host::topk(x, k, dim, largest)); });
  m.def("gather", [](const Tensor& x, int64_t dim, const Tensor& index) { return host::gather(x, dim, index); });
}

void bindFunctions(py::module_& m) {
  using Dt = std::optional<TorchDType>;
  using Dev = std::optional<std::string>;
  m.def("tensor", [](py::object data, Dt dtype, Dev device) { return host::tensor(nestedOf(data), optionsOf(dtype, device)); });
  m.def("empty", [](const std::vector<int64_t>& s, Dt dtype, Dev device) { return host::empty(s, optionsOf(dtype, device)); });
  m.def("zeros", [](const std::vector<int64_t>& s, Dt dtype, Dev device) { return host::zeros(s, optionsOf(dtype, device)); });
  m.def("ones", [](const std::vector<int64_t>& s, Dt dtype, Dev device) { return host::ones(s, optionsOf(dtype, device)); });
  m.def("full", [](const std::vector<int64_t>& s, py::object v, Dt dtype, Dev device) {
    return host::full(s, requireScalar(v, "full"), optionsOf(dtype, device));
  });
  m.def("rand", [](const std::vector<int64_t>& s, Dt dtype, Dev device) { return host::rand(s, optionsOf(dtype, device)); });
  m.def("randn", [](const std::vector<int64_t>& s, Dt dtype, Dev device) { return host::randn(s, optionsOf(dtype, device)); });
  m.def("arange", [](py::object start, py::object end, py::object step, Dt dtype, Dev device) {
    return host::arange(requireScalar(start, "arange"), requireScalar(end, "arange"), requireScalar(step, "arange"),
                        optionsOf(dtype, device));
  });
  m.def("empty_like", [](const Tensor& x, Dt dtype, Dev device) { return host::emptyLike(x, optionsOf(dtype, device)); });
  m.def("zeros_like", [](const Tensor& x, Dt dtype, Dev device) { return host::zerosLike(x, optionsOf(dtype, device)); });
  m.def("ones_like", [](const Tensor& x, Dt dtype, Dev device) { return host::onesLike(x, optionsOf(dtype, device)); });
  m.def("manual_seed", [](int64_t seed) { host::manualSeed(seed); });
  m.def("randint", [](int64_t low, int64_t high, const std::vector<int64_t>& s, Dt dtype, Dev device) {
    return host::randint(low, high, s, optionsOf(dtype, device));
  });
  m.def("allclose", [](const Tensor& a, const Tensor& b, double rtol, double atol, bool equalNan) {
    return host::allclose(a, b, rtol, atol, equalNan);
  });
  m.def("isclose", [](const Tensor& a, const Tensor& b, double rtol, double atol, bool equalNan) {
    return host::isclose(a, b, rtol, atol, equalNan);
  });
  m.def("equal", [](const Tensor& a, const Tensor& b) { return host::equal(a, b); });
  m.def("maximum", [](const Tensor& a, const Tensor& b) { return host::maximum(a, b); });
  m.def("minimum", [](const Tensor& a, const Tensor& b) { return host::minimum(a, b); });
  m.def("exp", [](const Tensor& x) { return host::exp(x); });
  m.def("log", [](const Tensor& x) { return host::log(x); });
  m.def("sqrt", [](const Tensor& x) { return host::sqrt(x); });
  // Reductions along dims, NN functions and linear algebra (the tutorials' references).
  m.def("max_dim", [](const Tensor& x, int64_t dim, bool keepdim) {
    host::ValuesIndices r = host::max(x, dim, keepdim);
    return py::make_tuple(r.values, r.indices);
  });
  m.def("min_dim", [](const Tensor& x, int64_t dim, bool keepdim) {
    host::ValuesIndices r = host::min(x, dim, keepdim);
    return py::make_tuple(r.values, r.indices);
  });
  m.def("sum_dims", [](const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, Dt dtype) {
    return host::sum(x, dims, keepdim, dtype ? std::optional<host::DType>(dtype->dtype) : std::nullopt);
  });
  m.def("mean_dims", [](const Tensor& x, const std::vector<int64_t>& dims, bool keepdim, Dt dtype) {
    return host::mean(x, dims, keepdim, dtype ? std::optional<host::DType>(dtype->dtype) : std::nullopt);
  });
  m.def("argmax", [](const Tensor& x, std::optional<int64_t> dim, bool keepdim) { return host::argmax(x, dim, keepdim); });
  m.def("softmax", [](const Tensor& x, int64_t dim, Dt dtype) {
    return host::softmax(x, dim, dtype ? std::optional<host::DType>(dtype->dtype) : std::nullopt);
  });
  m.def("log_softmax", [](const Tensor& x, int64_t dim, Dt dtype) {
    return host::logSoftmax(x, dim, dtype ? std::optional<host::DType>(dtype->dtype) : std::nullopt);
  });
  // On the GPU backend, CUDA tensors multiply through cuBLAS (gpuMatmul), as in PyTorch.
  m.def("matmul", [](const Tensor& a, const Tensor& b) {
    if (EngineSession* session = EngineSession::active())
      if (std::optional<Tensor> onGpu = host::gpuMatmul(session->launchContext(), a, b)) return std::move(*onGpu);
    return host::matmul(a, b);
  });
  m.def("layer_norm", [](const Tensor& x, const std::vector<int64_t>& shape, std::optional<Tensor> weight,
                         std::optional<Tensor> bias, double eps) { return host::layerNorm(x, shape, weight, bias, eps); });
  m.def("rand_like", [](const Tensor& x, Dt dtype, Dev device) { return host::randLike(x, optionsOf(dtype, device)); });
  m.def("randn_like", [](const Tensor& x, Dt dtype, Dev device) { return host::randnLike(x, optionsOf(dtype, device)); });
  m.def("empty_strided", [](const std::vector<int64_t>& size, const std::vector<int64_t>& stride, Dt dtype, Dev device) {
    // Storage for the furthest element the strides reach, viewed with those strides.
    int64_t extent = 1;
    for (size_t i = 0; i < size.size(); ++i) {
      if (size[i] == 0) { extent = 0; break; }
      extent += (size[i] - 1) * (i < stride.size() ? stride[i] : 0);
    }
    Tensor flat = host::empty({extent}, optionsOf(dtype, device));
    return Tensor(flat.storage(), flat.dtype(), size, stride, 0, flat.device());
  });
  // Joins and scans (images, references), then the rest of the functions host code uses.
  m.def("stack", [](const std::vector<Tensor>& tensors, int64_t dim) { return host::stack(tensors, dim); });
  m.def("cat", [](const std::vector<Tensor>& tensors, int64_t dim) { return host::cat(tensors, dim); });
  m.def("cumsum", [](const Tensor& x, int64_t dim) { return host::cumsum(x, dim); });
  bindMoreFunctions(m);
  // torch.testing.assert_close: the message of its AssertionError, or None when close.
  m.def("torch_assert_close_message", [](const Tensor& actual, const Tensor& expected, std::optional<double> rtol,
                                         std::optional<double> atol, bool equalNan, bool checkDevice, bool checkDtype) {
    host::AssertCloseOptions o;
    o.rtol = rtol;
    o.atol = atol;
    o.equalNan = equalNan;
    o.checkDevice = checkDevice;
    o.checkDtype = checkDtype;
    return host::assertCloseMessage(actual, expected, o);
  });
}

}  // namespace

void bindTensors(py::module_& m) {
  bindDType(m);
  bindTensorClass(m);
  bindFunctions(m);
}

}  // namespace tilescope::python
