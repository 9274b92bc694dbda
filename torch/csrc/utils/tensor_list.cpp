// torch/csrc/utils/tensor_list.cpp - Tensor.item() and Tensor.tolist() with AT_DISPATCH.
// Mirrors PyTorch's torch/csrc/utils/tensor_list.cpp and aten/src/ATen/native/Scalar.cpp
// (_local_scalar_dense). Guide: docs/source/internals/python_bindings.rst.
//
// Both read elements straight from memory: storage data + (offset + sum index*stride) *
// itemsize, with the C++ type picked once per call by AT_DISPATCH on the dtype.
#include <torch/csrc/utils/tensor_list.h>

#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <torch/csrc/utils/python_arg_parser.h>

#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace torch::utils {
namespace {

void check_readable(const at::Tensor& tensor, const char* what) {
  TORCH_CHECK_NOT_IMPLEMENTED(!tensor.is_meta(), "Tensor.", what, "() is not supported for tensors on the meta device (no data)");
}

// The element at `data` as a Scalar of the tensor's kind.
at::Scalar load_scalar(const void* data, at::ScalarType st) {
  if (st == at::ScalarType::ComplexHalf) {  // a Python complex, as PyTorch's item() gives
    const auto z = *static_cast<const c10::complex<c10::Half>*>(data);
    return at::Scalar(c10::complex<double>(static_cast<float>(z.real()), static_cast<float>(z.imag())));
  }
  return AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(at::ScalarType::Bool, at::ScalarType::Half, at::ScalarType::BFloat16,
                                                st, "_local_scalar_dense", [&] {
                                                  return at::Scalar(*static_cast<const scalar_t*>(data));
                                                });
}

PyObject* recursive_to_list(const char* data, at::IntArrayRef sizes, at::IntArrayRef strides, int64_t dim,
                            at::ScalarType st, size_t elementSize) {
  const int64_t ndim = static_cast<int64_t>(sizes.size());
  if (dim == ndim) return scalarToPython(load_scalar(data, st));
  const auto n = sizes[dim];
  py::list list(n);
  for (int64_t i = 0; i < n; ++i) {
    PyObject* obj = recursive_to_list(data, sizes, strides, dim + 1, st, elementSize);
    if (!obj) throw py::error_already_set();
    PyList_SET_ITEM(list.ptr(), i, obj);
    data += strides[dim] * static_cast<int64_t>(elementSize);
  }
  return list.release().ptr();
}

}  // namespace

at::Scalar tensor_item(const at::Tensor& tensor) {
  TORCH_CHECK(tensor.numel() == 1, "a Tensor with ", tensor.numel(), " elements cannot be converted to Scalar");
  check_readable(tensor, "item");
  if (!tensor.is_cpu()) {
    // Another device's memory: its _local_scalar_dense kernel copies the element over (for
    // CUDA, after the kernels queued before it have run).
    return at::_local_scalar_dense(tensor);
  }
  return load_scalar(tensor.const_data_ptr(), tensor.scalar_type());
}

PyObject* tensor_to_list(const at::Tensor& tensor_in) {
  check_readable(tensor_in, "tolist");
  // Another device's tensor is copied to the CPU first, as PyTorch does.
  const at::Tensor tensor = tensor_in.is_cpu() ? tensor_in : tensor_in.to(at::Device(at::kCPU), tensor_in.scalar_type());
  return recursive_to_list(static_cast<const char*>(tensor.const_data_ptr()), tensor.sizes(), tensor.strides(), 0,
                           tensor.scalar_type(), tensor.itemsize());
}

}  // namespace torch::utils
