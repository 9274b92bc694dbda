// torch/csrc/utils/tensor_numpy.cpp - torch.from_numpy / Tensor.numpy() with numpy's C API.
// Mirrors PyTorch's torch/csrc/utils/tensor_numpy.cpp. Guide: docs/source/internals/python_bindings.rst.
//
// from_numpy: the tensor's DataPtr points into the array's buffer, and its context
// (c10::InefficientStdFunctionContext) holds a reference to the array, dropped (under the
// GIL) when the StorageImpl dies. numpy strides are bytes, torch strides are elements.
// numpy(): the ndarray points into the tensor's storage and its base object is the tensor.
#include <torch/csrc/utils/tensor_numpy.h>

#include <torch/csrc/autograd/python_variable.h>

#include <c10/core/Allocator.h>
#include <c10/util/Exception.h>

#include <pybind11/pybind11.h>

#ifdef USE_NUMPY
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#endif

#include <vector>

namespace py = pybind11;

namespace torch::utils {

#ifndef USE_NUMPY
void initNumpy() {}
bool is_numpy_available() { return false; }
bool is_numpy_array(PyObject*) { return false; }
at::ScalarType numpy_array_scalar_type(PyObject*) { TORCH_CHECK(false, "Numpy is not available"); }
at::Tensor tensor_from_numpy(PyObject*, bool) { TORCH_CHECK(false, "Numpy is not available"); }
PyObject* tensor_to_numpy(const at::Tensor&, bool) { TORCH_CHECK(false, "Numpy is not available"); }
#else

namespace {
bool numpy_ready = false;

at::ScalarType numpy_dtype_to_aten(int dtype) {
  switch (dtype) {
    case NPY_DOUBLE: return at::ScalarType::Double;
    case NPY_FLOAT: return at::ScalarType::Float;
    case NPY_HALF: return at::ScalarType::Half;
    case NPY_COMPLEX64: return at::ScalarType::ComplexFloat;
    case NPY_COMPLEX128: return at::ScalarType::ComplexDouble;
    case NPY_INT16: return at::ScalarType::Short;
    case NPY_INT8: return at::ScalarType::Char;
    case NPY_UINT8: return at::ScalarType::Byte;
    case NPY_BOOL: return at::ScalarType::Bool;
    default:
      break;
  }
  // int32 and int64 are spelled several ways (NPY_INT, NPY_LONG, NPY_LONGLONG)
  if (dtype == NPY_INT || dtype == NPY_INT32) return at::ScalarType::Int;
  if (dtype == NPY_LONGLONG || dtype == NPY_INT64) return at::ScalarType::Long;
  py::object pytype = py::reinterpret_steal<py::object>(
      reinterpret_cast<PyObject*>(PyArray_TypeObjectFromType(dtype)));
  TORCH_CHECK_TYPE(false, "can't convert np.ndarray of type ",
                   pytype ? reinterpret_cast<PyTypeObject*>(pytype.ptr())->tp_name : "unknown",
                   ". The only supported types are: float64, float32, float16, complex64, complex128, int64, "
                   "int32, int16, int8, uint64, uint32, uint16, uint8, and bool.");
}

int aten_to_numpy_dtype(at::ScalarType st) {
  switch (st) {
    case at::ScalarType::Double: return NPY_DOUBLE;
    case at::ScalarType::Float: return NPY_FLOAT;
    case at::ScalarType::Half: return NPY_HALF;
    case at::ScalarType::ComplexFloat: return NPY_COMPLEX64;
    case at::ScalarType::ComplexDouble: return NPY_COMPLEX128;
    case at::ScalarType::Long: return NPY_INT64;
    case at::ScalarType::Int: return NPY_INT32;
    case at::ScalarType::Short: return NPY_INT16;
    case at::ScalarType::Char: return NPY_INT8;
    case at::ScalarType::Byte: return NPY_UINT8;
    case at::ScalarType::Bool: return NPY_BOOL;
    default:
      TORCH_CHECK_TYPE(false, "Got unsupported ScalarType ", c10::toString(st));
  }
}

void warn_numpy_not_writeable() {
  static bool warned = false;
  if (warned) return;
  warned = true;
  PyErr_WarnEx(PyExc_UserWarning,
               "The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
               "means writing to this tensor will result in undefined behavior. You may want to copy the array to "
               "protect its data or make it writable before converting it to a tensor. This type of warning will "
               "be suppressed for the rest of this program.",
               1);
}
}  // namespace

// numpy is imported on first use, not by `import torch`: a process that never touches
// numpy never loads it (nor the threads of its BLAS).
void initNumpy() {}

namespace {
bool numpy_tried = false;
bool ensure_numpy() {
  if (!numpy_tried) {
    numpy_tried = true;
    if (_import_array() < 0) {
      PyErr_Clear();
    } else {
      numpy_ready = true;
    }
  }
  return numpy_ready;
}
}  // namespace

bool is_numpy_available() {
  return ensure_numpy();
}

bool is_numpy_array(PyObject* obj) {
  if (!numpy_ready) {
    // an ndarray can only exist once numpy has been imported
    PyObject* modules = PyImport_GetModuleDict();
    if (PyDict_GetItemString(modules, "numpy") == nullptr) return false;
    ensure_numpy();
  }
  return numpy_ready && PyArray_Check(obj);
}

at::ScalarType numpy_array_scalar_type(PyObject* array) {
  return numpy_dtype_to_aten(PyArray_TYPE(reinterpret_cast<PyArrayObject*>(array)));
}

// [marker: tensor_from_numpy]
at::Tensor tensor_from_numpy(PyObject* obj, bool warn_if_not_writeable) {
  TORCH_CHECK(is_numpy_available(), "Numpy is not available");
  TORCH_CHECK_TYPE(PyArray_Check(obj), "expected np.ndarray (got ", Py_TYPE(obj)->tp_name, ")");
  auto* array = reinterpret_cast<PyArrayObject*>(obj);
  if (!PyArray_ISWRITEABLE(array) && warn_if_not_writeable) warn_numpy_not_writeable();

  const int ndim = PyArray_NDIM(array);
  std::vector<int64_t> sizes(PyArray_DIMS(array), PyArray_DIMS(array) + ndim);
  std::vector<int64_t> strides(PyArray_STRIDES(array), PyArray_STRIDES(array) + ndim);
  // NumPy strides use bytes. Torch strides use element counts.
  const auto element_size_in_bytes = PyArray_ITEMSIZE(array);
  for (auto& stride : strides) {
    TORCH_CHECK_VALUE(stride % element_size_in_bytes == 0,
                      "given numpy array strides not a multiple of the element byte size. "
                      "Copy the numpy array to reallocate the memory.");
    stride /= element_size_in_bytes;
  }
  for (int i = 0; i < ndim; ++i) {
    TORCH_CHECK_VALUE(strides[i] >= 0,
                      "At least one stride in the given numpy array is negative, and tensors with negative strides "
                      "are not currently supported. (You can probably work around this by making a copy of your "
                      "array  with array.copy().) ");
  }
  const auto scalar_type = numpy_dtype_to_aten(PyArray_TYPE(array));
  TORCH_CHECK_VALUE(PyArray_ISNBO(PyArray_DESCR(array)->byteorder),
                    "given numpy array has byte order different from the native byte order. "
                    "Conversion between byte orders is currently not supported.");

  void* data_ptr = PyArray_DATA(array);
  size_t nbytes = 0;
  bool empty = false;
  for (auto s : sizes) empty |= s == 0;
  if (!empty) {
    int64_t last = 0;
    for (int i = 0; i < ndim; ++i) last += (sizes[i] - 1) * strides[i];
    nbytes = static_cast<size_t>(last + 1) * element_size_in_bytes;
  }
  // The storage keeps the array alive: its DataPtr's deleter drops our reference.
  Py_INCREF(obj);
  c10::DataPtr ptr = c10::InefficientStdFunctionContext::makeDataPtr(
      data_ptr,
      [obj](void*) {
        py::gil_scoped_acquire gil;
        Py_DECREF(obj);
      },
      c10::Device(c10::DeviceType::CPU));
  c10::Storage storage(c10::Storage::use_byte_size_t(), nbytes, std::move(ptr), /*allocator=*/nullptr,
                       /*resizable=*/false);
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(storage), c10::DispatchKeySet(c10::DispatchKey::CPU),
                                                   c10::scalarTypeToTypeMeta(scalar_type));
  impl->set_sizes_and_strides(sizes, strides);
  return at::Tensor(std::move(impl));
}
// [end marker: tensor_from_numpy]

PyObject* tensor_to_numpy(const at::Tensor& tensor, bool force) {
  TORCH_CHECK(is_numpy_available(), "Numpy is not available");
  TORCH_CHECK_TYPE(tensor.device().type() == c10::DeviceType::CPU, "can't convert ", tensor.device().str(),
                   " device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.");
  const int dtype = aten_to_numpy_dtype(tensor.scalar_type());
  std::vector<npy_intp> sizes(tensor.sizes().begin(), tensor.sizes().end());
  std::vector<npy_intp> strides(tensor.strides().begin(), tensor.strides().end());
  // NumPy strides use bytes. Torch strides use element counts.
  for (auto& stride : strides) stride *= tensor.element_size();
  void* data = tensor.has_storage() && tensor.storage().data() != nullptr ? tensor.data_ptr() : nullptr;
  PyObject* array = PyArray_New(&PyArray_Type, static_cast<int>(tensor.dim()), sizes.data(), dtype, strides.data(),
                                data, 0, NPY_ARRAY_ALIGNED | NPY_ARRAY_WRITEABLE, nullptr);
  if (!array) return nullptr;
  // The array's base is a Python tensor on the same storage, so the memory lives as long as
  // the array. As in PyTorch (which passes tensor.detach()), it is a new tensor object, not
  // the caller's: t.numpy().base is not t.
  PyObject* py_tensor = THPVariable_Wrap(tensor.alias());
  if (!py_tensor || PyArray_SetBaseObject(reinterpret_cast<PyArrayObject*>(array), py_tensor) == -1) {
    Py_DECREF(array);
    return nullptr;
  }
  // The storage must not move while numpy points into it.
  tensor.storage().unsafeGetStorageImpl()->set_resizable(false);
  return array;
}

#endif

}  // namespace torch::utils
