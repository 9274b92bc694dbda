// aten/src/ATen/Tensor.h - the include for at::Tensor. Mirrors PyTorch's aten/src/ATen/Tensor.h.
// Guide: docs/source/internals/tensors.rst.
#pragma once

#include <ATen/core/Tensor.h>
