// c10/core/TensorOptions.h - the "what kind of tensor" arguments of factories, bundled.
// Mirrors PyTorch's c10/core/TensorOptions.h. Guide: docs/source/internals/dispatch.rst.
//
// at::empty({2, 3}, at::TensorOptions().dtype(at::kDouble).device(at::kCUDA)): each field is
// optional, and an unset field takes its default (default dtype, CPU, no grad) when used.
#pragma once

#include <c10/core/DefaultDtype.h>
#include <c10/core/Device.h>
#include <c10/core/DispatchKey.h>
#include <c10/core/Layout.h>
#include <c10/core/ScalarType.h>
#include <c10/util/typeid.h>

#include <optional>

namespace c10 {

struct C10_API TensorOptions {
  TensorOptions() = default;
  /* implicit */ TensorOptions(ScalarType dtype) { set_dtype(dtype); }
  /* implicit */ TensorOptions(Device device) { set_device(device); }
  /* implicit */ TensorOptions(DeviceType device_type) { set_device(Device(device_type)); }
  /* implicit */ TensorOptions(Layout layout) { layout_ = layout; }

  C10_NODISCARD TensorOptions dtype(std::optional<ScalarType> dtype) const {
    TensorOptions r = *this;
    r.dtype_ = dtype;
    return r;
  }
  C10_NODISCARD TensorOptions device(std::optional<Device> device) const {
    TensorOptions r = *this;
    r.device_ = device;
    return r;
  }
  template <typename T>
  C10_NODISCARD TensorOptions dtype() const {
    return dtype(CppTypeToScalarType<T>::value);
  }
  C10_NODISCARD TensorOptions requires_grad(std::optional<bool> requires_grad) const {
    TensorOptions r = *this;
    r.requires_grad_ = requires_grad;
    return r;
  }
  // Only Strided tensors exist here; the field is kept so that code written against
  // PyTorch (torch::TensorOptions().layout(torch::kStrided)) compiles and asks for it.
  C10_NODISCARD TensorOptions layout(std::optional<Layout> layout) const {
    TensorOptions r = *this;
    r.layout_ = layout;
    return r;
  }
  C10_NODISCARD TensorOptions pinned_memory(std::optional<bool> pinned_memory) const {
    TensorOptions r = *this;
    r.pinned_memory_ = pinned_memory;
    return r;
  }

  ScalarType dtype() const {
    return dtype_.value_or(get_default_dtype_as_scalartype());
  }
  Device device() const { return device_.value_or(Device(DeviceType::CPU)); }
  bool requires_grad() const { return requires_grad_.value_or(false); }
  Layout layout() const { return layout_.value_or(kStrided); }
  bool pinned_memory() const { return pinned_memory_.value_or(false); }
  bool has_dtype() const { return dtype_.has_value(); }
  bool has_device() const { return device_.has_value(); }
  bool has_requires_grad() const { return requires_grad_.has_value(); }
  std::optional<ScalarType> dtype_opt() const { return dtype_; }
  std::optional<Device> device_opt() const { return device_; }
  std::optional<Layout> layout_opt() const { return layout_; }
  std::optional<bool> pinned_memory_opt() const { return pinned_memory_; }
  std::optional<bool> requires_grad_opt() const { return requires_grad_; }

 private:
  void set_dtype(ScalarType dtype) { dtype_ = dtype; }
  void set_device(Device device) { device_ = device; }

  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
  std::optional<bool> requires_grad_;
  std::optional<Layout> layout_;
  std::optional<bool> pinned_memory_;
};

// The free functions that start a TensorOptions, as extension code writes them:
// torch::zeros({2, 3}, torch::dtype(torch::kFloat64).requires_grad(true)).
inline TensorOptions dtype(ScalarType dtype) { return TensorOptions().dtype(dtype); }
template <typename T>
inline TensorOptions dtype() {
  return TensorOptions().dtype<T>();
}
inline TensorOptions device(Device device) { return TensorOptions().device(device); }
inline TensorOptions device_index(DeviceIndex index) { return TensorOptions().device(Device(DeviceType::CUDA, index)); }
inline TensorOptions layout(Layout layout) { return TensorOptions().layout(layout); }
inline TensorOptions requires_grad(bool requires_grad = true) { return TensorOptions().requires_grad(requires_grad); }

// The runtime dispatch key of a dense tensor on this device (CPU, CUDA, Meta).
C10_API DispatchKey computeDispatchKey(std::optional<ScalarType> dtype, std::optional<Device> device);

}  // namespace c10

namespace at {
using c10::device;
using c10::device_index;
using c10::dtype;
using c10::layout;
using c10::requires_grad;
using c10::TensorOptions;
}
