// aten/src/ATen/ATen.h - everything a C++ user of ATen needs: at::Tensor and the at:: functions.
// Mirrors PyTorch's aten/src/ATen/ATen.h. Guide: docs/source/internals/one_call.rst.
#pragma once

#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/Tensor.h>
#include <ATen/TensorOperators.h>
#include <c10/core/Scalar.h>
#include <c10/core/TensorOptions.h>
