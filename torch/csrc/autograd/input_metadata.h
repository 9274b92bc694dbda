// torch/csrc/autograd/input_metadata.h - what a node expects of the gradient arriving at an input.
// Mirrors PyTorch's torch/csrc/autograd/input_metadata.h. Guide: docs/source/internals/autograd.rst.
//
// A node records the shape, dtype and device of each forward output it will receive a
// gradient for. The engine checks every gradient against it: a gradient of a broadcast
// shape is summed back down (at::sum_to), one of another dtype is cast, anything else is an
// error naming the node.
#pragma once

#include <ATen/ExpandUtils.h>
#include <ATen/core/Tensor.h>

#include <sstream>
#include <vector>

namespace torch::autograd {

struct InputMetadata {
  InputMetadata() = default;
  explicit InputMetadata(const at::Tensor& t)
      : dtype_(t.scalar_type()), device_(t.device()), shape_(t.sizes().vec()), is_defined_(true) {}

  at::ScalarType dtype() const { return dtype_; }
  at::Device device() const { return device_; }
  at::IntArrayRef shape() const { return shape_; }
  bool is_defined() const { return is_defined_; }

  bool is_same_shape(const at::Tensor& grad) const { return grad.sizes() == at::IntArrayRef(shape_); }
  bool is_expandable_to_shape(const at::Tensor& grad) const { return at::is_expandable_to(shape_, grad.sizes()); }
  // The gradient of a broadcast result, summed to this input's shape.
  at::Tensor reduce_grad(const at::Tensor& grad) const { return at::sum_to(grad, shape_); }

  std::string incompatible_shape_error_message(size_t index, const at::Tensor& grad) const {
    std::stringstream ss;
    ss << "invalid gradient at index " << index << " - got " << grad.sizes() << " but expected shape compatible with "
       << at::IntArrayRef(shape_);
    return ss.str();
  }

 private:
  at::ScalarType dtype_ = at::ScalarType::Float;
  at::Device device_ = at::Device(at::DeviceType::CPU);
  std::vector<int64_t> shape_;
  bool is_defined_ = false;
};

}  // namespace torch::autograd
