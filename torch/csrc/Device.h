// torch/csrc/Device.h - torch.device, the Python face of c10::Device.
// Mirrors PyTorch's torch/csrc/Device.h. Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/core/Device.h>
#include <torch/csrc/Export.h>

#include <pybind11/pybind11.h>

namespace torch {

struct THPDevice {
  c10::Device device;
};

void initDeviceBindings(pybind11::module_& m);
// A torch.device, or a string like "cuda:1", or an int (an accelerator index) -> Device.
TORCH_PYTHON_API c10::Device toDevice(pybind11::handle obj);

}  // namespace torch
