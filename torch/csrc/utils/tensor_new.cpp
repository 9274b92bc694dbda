// torch/csrc/utils/tensor_new.cpp - torch.tensor(data): infer the dtype and sizes, then store.
// Mirrors PyTorch's torch/csrc/utils/tensor_new.cpp (internal_new_from_data, compute_sizes,
// infer_scalar_type, recursive_store). Guide: docs/source/internals/python_bindings.rst.
//
// torch.tensor([[1, 2], [3, 4.5]]): infer_scalar_type walks every element (ints and a float
// promote to the default dtype), compute_sizes follows the first element down ([2, 2]),
// at::empty allocates, and recursive_store writes each Python number into place, checking
// that every row has the length of the first ("expected sequence of length 2 at dim 1 (got 3)").
#include <torch/csrc/utils/tensor_new.h>

#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/Size.h>
#include <torch/csrc/autograd/python_variable.h>
#include <torch/csrc/utils/tensor_list.h>
#include <torch/csrc/utils/tensor_numpy.h>

#include <c10/core/DefaultDtype.h>
#include <c10/util/overflows.h>

#include <pybind11/pybind11.h>

#include <cstring>

namespace py = pybind11;

namespace torch::utils {
namespace {

at::ScalarType default_complex_dtype() {
  return c10::get_default_dtype_as_scalartype() == at::ScalarType::Double ? at::ScalarType::ComplexDouble
                                                                          : at::ScalarType::ComplexFloat;
}

bool is_numpy_scalar(PyObject* obj) {
  return PyDict_GetItemString(PyImport_GetModuleDict(), "numpy") != nullptr && !PyFloat_CheckExact(obj) &&
         !PyLong_CheckExact(obj) && PyObject_HasAttrString(obj, "dtype") && !THPVariable_Check(obj) &&
         !is_numpy_array(obj) && PyObject_HasAttrString(obj, "item");
}

std::vector<int64_t> compute_sizes(PyObject* seq, at::ScalarType scalar_type) {
  std::vector<int64_t> sizes;
  py::object handle = py::reinterpret_borrow<py::object>(seq);
  while (true) {
    if (THPVariable_Check(handle.ptr())) {
      for (auto s : THPVariable_Unpack(handle.ptr()).sizes()) sizes.push_back(s);
      return sizes;
    }
    if (is_numpy_array(handle.ptr())) {
      py::tuple shape = handle.attr("shape");
      for (auto s : shape) sizes.push_back(s.cast<int64_t>());
      return sizes;
    }
    if (!PySequence_Check(handle.ptr()) || PyUnicode_Check(handle.ptr())) break;
    auto length = PySequence_Length(handle.ptr());
    if (length < 0) throw py::error_already_set();
    sizes.push_back(length);
    TORCH_CHECK_VALUE(sizes.size() <= 32, "too many dimensions '", Py_TYPE(seq)->tp_name, "'");
    if (length == 0) break;
    handle = py::reinterpret_steal<py::object>(PySequence_GetItem(handle.ptr(), 0));
    if (!handle) throw py::error_already_set();
  }
  return sizes;
}

template <typename T>
void store_value(void* data, PyObject* obj) {
  if constexpr (std::is_same_v<T, bool>) {
    int truth = PyObject_IsTrue(obj);
    if (truth < 0) throw py::error_already_set();
    *static_cast<bool*>(data) = truth;
  } else if constexpr (std::is_same_v<T, c10::complex<float>> || std::is_same_v<T, c10::complex<double>>) {
    Py_complex z = PyComplex_AsCComplex(obj);
    if (PyErr_Occurred()) throw py::error_already_set();
    *static_cast<T*>(data) = T(z.real, z.imag);
  } else if constexpr (std::is_same_v<T, c10::complex<c10::Half>>) {
    Py_complex z = PyComplex_AsCComplex(obj);
    if (PyErr_Occurred()) throw py::error_already_set();
    *static_cast<T*>(data) = T(c10::complex<double>(z.real, z.imag));
  } else if constexpr (std::is_integral_v<T>) {
    // Checked (PyTorch's unpackIntegral): torch.tensor([300], dtype=torch.uint8) is an error,
    // not 44; -1 is 255 (two's complement), as a Scalar would be.
    constexpr const char* dtype_name = std::is_same_v<T, uint8_t> ? "uint8"
                                       : std::is_same_v<T, int8_t>  ? "int8"
                                       : std::is_same_v<T, int16_t> ? "int16"
                                       : std::is_same_v<T, int32_t> ? "int32"
                                                                    : "int64";
    if (PyFloat_Check(obj)) {
      *static_cast<T*>(data) = c10::checked_convert<T, double>(PyFloat_AS_DOUBLE(obj), dtype_name);
      return;
    }
    int overflow = 0;
    long long value = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
    TORCH_CHECK_VALUE(overflow == 0, "Overflow when unpacking long long");
    *static_cast<T*>(data) = c10::checked_convert<T, int64_t>(static_cast<int64_t>(value), dtype_name);
  } else {
    double value = PyFloat_AsDouble(obj);
    if (value == -1 && PyErr_Occurred()) throw py::error_already_set();
    *static_cast<T*>(data) = static_cast<T>(value);
  }
}

void store_scalar(void* data, at::ScalarType scalar_type, PyObject* obj) {
  if (THPVariable_Check(obj)) {
    obj = scalarToPython(tensor_item(THPVariable_Unpack(obj)));
    py::object holder = py::reinterpret_steal<py::object>(obj);
    store_scalar(data, scalar_type, holder.ptr());
    return;
  }
  if (is_numpy_scalar(obj)) {
    py::object item = py::reinterpret_borrow<py::object>(obj).attr("item")();
    store_scalar(data, scalar_type, item.ptr());
    return;
  }
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(at::ScalarType::Bool, at::ScalarType::Half, at::ScalarType::BFloat16,
                                         at::ScalarType::ComplexHalf, scalar_type, "tensor",
                                         [&] { store_value<scalar_t>(data, obj); });
}

void recursive_store(char* data, at::IntArrayRef sizes, at::IntArrayRef strides, int64_t dim,
                     at::ScalarType scalarType, size_t elementSize, PyObject* obj) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (dim == ndim) {
    store_scalar(data, scalarType, obj);
    return;
  }
  py::object owned;
  if (THPVariable_Check(obj) || is_numpy_array(obj)) {
    // a tensor or an array inside the data: its elements, as nested lists
    owned = py::reinterpret_borrow<py::object>(obj).attr("tolist")();
    obj = owned.ptr();
  }
  const auto n = sizes[dim];
  py::object seq = py::reinterpret_steal<py::object>(PySequence_Fast(obj, "not a sequence"));
  if (!seq) {
    // a number where a sequence should be: "'int' object is not iterable" in PyTorch's words
    PyErr_Clear();
    TORCH_CHECK_TYPE(false, "'", Py_TYPE(obj)->tp_name, "' object is not iterable");
  }
  const auto seq_size = PySequence_Fast_GET_SIZE(seq.ptr());
  TORCH_CHECK_VALUE(seq_size == n, "expected sequence of length ", n, " at dim ", dim, " (got ", seq_size, ")");
  PyObject** items = PySequence_Fast_ITEMS(seq.ptr());
  for (int64_t i = 0; i < n; ++i) {
    recursive_store(data, sizes, strides, dim + 1, scalarType, elementSize, items[i]);
    data += strides[dim] * static_cast<int64_t>(elementSize);
  }
}

at::Tensor internal_new_from_data(std::optional<at::Device> device_opt, std::optional<at::ScalarType> dtype_opt,
                                  PyObject* data, bool copy_variables, bool copy_numpy, bool type_inference) {
  TORCH_CHECK_TYPE(!PyUnicode_Check(data), "new(): invalid data type '", Py_TYPE(data)->tp_name, "'");
  const at::Device device = device_opt.value_or(at::Device(at::DeviceType::CPU));

  if (THPVariable_Check(data)) {
    const auto& var = THPVariable_Unpack(data);
    const auto st = dtype_opt.value_or(var.scalar_type());
    if (!copy_variables && st == var.scalar_type() && device == var.device()) return var;
  }
  if (is_numpy_array(data) && !copy_numpy) {
    at::Tensor shared = tensor_from_numpy(data, /*warn_if_not_writeable=*/true);
    if (dtype_opt.value_or(shared.scalar_type()) == shared.scalar_type() && device.is_cpu()) return shared;
  }

  const auto scalar_type = dtype_opt.has_value() ? *dtype_opt
                           : type_inference     ? infer_scalar_type(data)
                                                : c10::get_default_dtype_as_scalartype();
  auto sizes = compute_sizes(data, scalar_type);
  if (device.is_meta()) {
    return at::empty(sizes, scalar_type, std::nullopt, device);
  }
  if (!device.is_cpu()) {
    // Another device: the values are laid out on the CPU, then copied over (PyTorch does the
    // same: tensor.to(device) at the end of internal_new_from_data).
    at::Tensor on_cpu = internal_new_from_data(at::Device(at::kCPU), dtype_opt, data, copy_variables, copy_numpy,
                                               type_inference);
    return on_cpu.to(device, on_cpu.scalar_type());
  }
  at::Tensor tensor = at::empty(sizes, scalar_type);
  if (tensor.numel() > 0) {
    if (is_numpy_array(data) &&
        numpy_array_scalar_type(data) == scalar_type) {
      // The same dtype: copy the bytes of a C-contiguous copy of the array.
      py::object contiguous = py::module_::import("numpy").attr("ascontiguousarray")(py::handle(data));
      at::Tensor src = tensor_from_numpy(contiguous.ptr(), false);
      std::memcpy(tensor.data_ptr(), src.data_ptr(), tensor.nbytes());
    } else {
      recursive_store(static_cast<char*>(tensor.data_ptr()), tensor.sizes(), tensor.strides(), 0, scalar_type,
                      tensor.element_size(), data);
    }
  }
  return tensor;
}

}  // namespace

// [marker: infer_scalar_type]
at::ScalarType infer_scalar_type(PyObject* obj) {
  if (is_numpy_scalar(obj)) {
    // before the Python types: np.float64 is a float subclass but keeps its dtype
    py::object arr = py::module_::import("numpy").attr("asarray")(py::handle(obj));
    return numpy_array_scalar_type(arr.ptr());
  }
  if (PyBool_Check(obj)) return at::ScalarType::Bool;  // before int: bool is an int in Python
  if (PyLong_Check(obj)) return at::ScalarType::Long;
  if (PyFloat_Check(obj)) return c10::get_default_dtype_as_scalartype();
  if (PyComplex_Check(obj)) return default_complex_dtype();
  if (THPVariable_Check(obj)) return THPVariable_Unpack(obj).scalar_type();
  if (is_numpy_array(obj)) return numpy_array_scalar_type(obj);
  TORCH_CHECK_TYPE(!PyUnicode_Check(obj), "new(): invalid data type '", Py_TYPE(obj)->tp_name, "'");
  if (PySequence_Check(obj)) {
    std::optional<at::ScalarType> scalarType;
    auto length = PySequence_Length(obj);
    if (length < 0) throw py::error_already_set();
    // match NumPy semantics, except use default tensor type instead of double.
    if (length == 0) return c10::get_default_dtype_as_scalartype();
    for (Py_ssize_t i = 0; i < length; ++i) {
      py::object handle = py::reinterpret_steal<py::object>(PySequence_GetItem(obj, i));
      if (!handle) throw py::error_already_set();
      auto item_scalarType = infer_scalar_type(handle.ptr());
      scalarType = scalarType ? c10::promoteTypes(*scalarType, item_scalarType) : item_scalarType;
      if (scalarType == at::ScalarType::ComplexDouble) {
        // this won't change (unless we hit undefined, but that will fail later).
        return *scalarType;
      }
    }
    return *scalarType;
  }
  TORCH_CHECK_TYPE(false, "Could not infer dtype of ", Py_TYPE(obj)->tp_name);
}
// [end marker: infer_scalar_type]

at::Tensor tensor_ctor(PythonArgs& r) {
  PyObject* data = r.pyobject(0);
  // torch.tensor(t) copies t's values and drops its graph; PyTorch nudges toward the spelling
  // that says so.
  if (THPVariable_Check(data)) {
    if (PyErr_WarnEx(PyExc_UserWarning,
                     "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                     "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                     1) != 0) {
      throw py::error_already_set();
    }
  }
  at::Tensor new_tensor = internal_new_from_data(r.deviceOptional(2), r.scalartypeOptional(1), data,
                                                 /*copy_variables=*/true, /*copy_numpy=*/true,
                                                 /*type_inference=*/r.isNone(1));
  return new_tensor;
}

at::Tensor as_tensor(PythonArgs& r) {
  return internal_new_from_data(r.deviceOptional(2), r.scalartypeOptional(1), r.pyobject(0),
                                /*copy_variables=*/false, /*copy_numpy=*/false, /*type_inference=*/r.isNone(1));
}

// [marker: legacy_tensor_ctor]
// torch.Tensor(...) and torch.FloatTensor(...): PyTorch's legacy_tensor_generic_ctor_new.
// The signatures are tried in order; a lone list or tuple binds to `size` by the rules of
// the argument parser, but is data unless it is a torch.Size: torch.Tensor([1, 2]) is the
// values [1., 2.], torch.Tensor(2, 3) and torch.Tensor(torch.Size([2, 3])) are shapes.
at::Tensor legacy_tensor_ctor(PyObject* args, PyObject* kwargs, std::optional<at::ScalarType> dtype) {
  static PythonArgParser parser({
      "new(*, Device? device=None)",
      "new(Tensor other)",
      "new(IntArrayRef size, *, Device? device=None)",
      "new(PyObject* data, *, Device? device=None)",
  });
  ParsedArgs<2> parsed_args;
  auto r = parser.parse(nullptr, args, kwargs, parsed_args);
  const auto scalar_type = dtype.value_or(c10::get_default_dtype_as_scalartype());
  if (r.idx == 0) return at::empty({0}, scalar_type, std::nullopt, r.deviceOptional(0));
  if (r.idx == 1) {
    // torch.Tensor(t) is an alias of t, whatever its dtype; a legacy type name
    // (torch.FloatTensor(t)) requires t to be of that type.
    const at::Tensor other = r.tensor(0);
    TORCH_CHECK_TYPE(!dtype.has_value() || (other.scalar_type() == scalar_type && other.device().is_cpu()), "expected ",
                     c10::toString(scalar_type), " (got ", c10::toString(other.scalar_type()), ")");
    return other.alias();
  }
  PyObject* arg = r.pyobject(0);
  if (r.idx == 2 && (THPSize_Check(arg) || !PySequence_Check(arg) || PyTuple_GET_SIZE(args) != 1 ||
                     arg != PyTuple_GET_ITEM(args, 0))) {
    return at::empty(r.intlist(0), scalar_type, std::nullopt, r.deviceOptional(1));
  }
  if (!PySequence_Check(arg)) {
    TORCH_CHECK_TYPE(false, "new(): data must be a sequence (got ", Py_TYPE(arg)->tp_name, ")");
  }
  return internal_new_from_data(r.deviceOptional(1), scalar_type, arg, /*copy_variables=*/false,
                                /*copy_numpy=*/false, /*type_inference=*/false);
}
// [end marker: legacy_tensor_ctor]

}  // namespace torch::utils
