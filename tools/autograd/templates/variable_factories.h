#pragma once
// ${generated_comment}
// torch::'s factory functions: at::'s, taking one TensorOptions, and honouring its
// requires_grad (torch::zeros({2, 3}, torch::requires_grad()) is a leaf that requires grad).
// Template: tools/autograd/templates/variable_factories.h; generator: tools/codegen/gen.py
// (variable_factory). Mirrors PyTorch's generated torch/csrc/autograd/generated/variable_factories.h.
// Guide: docs/source/internals/cpp_extensions.rst.

#include <ATen/Functions.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <c10/core/TensorOptions.h>

namespace torch {

${function_definitions}

}  // namespace torch
