#pragma once
// ${generated_comment}
// The backward node of every operator in derivatives.yaml: what it saves, and apply().
// Template: tools/autograd/templates/Functions.h. Guide: docs/source/internals/autograd.rst.

#include <ATen/ATen.h>
#include <ATen/TensorGeometry.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/saved_variable.h>

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace torch::autograd::generated {

using at::IntArrayRef;
using at::Scalar;
using at::Tensor;
using at::TensorGeometry;

${autograd_function_declarations}

}  // namespace torch::autograd::generated
