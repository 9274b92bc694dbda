// torch/csrc/autograd/functions/basic_ops.cpp - Error nodes raise when the engine reaches them.
// Mirrors PyTorch's torch/csrc/autograd/functions/basic_ops.cpp. Guide: docs/source/internals/autograd.rst.
#include <torch/csrc/autograd/functions/basic_ops.h>

namespace torch::autograd {

variable_list Error::apply(variable_list&& inputs) {
  TORCH_CHECK(false, msg);
}

}  // namespace torch::autograd
