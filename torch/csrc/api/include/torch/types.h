// torch/csrc/api/include/torch/types.h - the torch:: namespace of the C++ API: ATen's types and
// functions under torch::, and the factories that honour requires_grad.
// Mirrors PyTorch's torch/csrc/api/include/torch/types.h. Guide: docs/source/internals/cpp_extensions.rst.
//
// torch::Tensor is at::Tensor, torch::sigmoid is at::sigmoid: the C++ frontend adds no tensor
// type of its own. What it adds are the factories (torch::zeros, torch::randn, ...) of the
// generated variable_factories.h, which take one TensorOptions and make a leaf that requires
// grad when it says so. Being declared in torch:: itself, they hide at::'s scattered
// factories for a qualified call torch::zeros(...).
#pragma once

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <torch/csrc/autograd/generated/variable_factories.h>

#include <optional>

namespace torch {

using namespace at;  // NOLINT: the C++ API is ATen's, re-exported

// The dtype constants PyTorch's C++ API spells like Python's.
constexpr auto kUInt8 = at::kByte;
constexpr auto kInt8 = at::kChar;
constexpr auto kInt16 = at::kShort;
constexpr auto kInt32 = at::kInt;
constexpr auto kInt64 = at::kLong;
constexpr auto kFloat16 = at::kHalf;
constexpr auto kFloat32 = at::kFloat;
constexpr auto kFloat64 = at::kDouble;

using Dtype = at::ScalarType;
using std::nullopt;
using std::optional;

}  // namespace torch
