// torch/csrc/utils/device_lazy_init.cpp - the one place C++ asks Python to start CUDA.
// Mirrors PyTorch's torch/csrc/utils/device_lazy_init.cpp.
// Guide: docs/source/internals/cuda_simulated_device.rst.
#include <torch/csrc/utils/device_lazy_init.h>

#include <pybind11/pybind11.h>

#include <atomic>

namespace torch::utils {

namespace {
// Set only after torch.cuda._lazy_init() returned without raising: a failed start leaves
// it unset, so the next call raises the same error again, as PyTorch does.
std::atomic<bool> cuda_initialized{false};
}  // namespace

void device_lazy_init(c10::DeviceType device_type) {
  if (device_type != c10::DeviceType::CUDA || cuda_initialized.load(std::memory_order_acquire)) {
    return;
  }
  pybind11::gil_scoped_acquire gil;
  // Python's own flag and lock make this safe to race; the call also returns at once
  // while _lazy_init is running on this thread (its queued calls create CUDA tensors).
  pybind11::module_ cuda = pybind11::module_::import("torch.cuda");
  cuda.attr("_lazy_init")();
  if (cuda.attr("is_initialized")().cast<bool>()) {
    cuda_initialized.store(true, std::memory_order_release);
  }
}

}  // namespace torch::utils
