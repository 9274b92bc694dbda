// ${generated_comment}
// The Autograd-key kernel of every operator (registered for Autograd, i.e. AutogradCPU,
// AutogradCUDA ...). Each one: does any differentiable input require grad (and is grad
// mode on)? Then make the node, connect it to the inputs' gradient edges and save what its
// formulas need; run the operator below autograd; give the outputs their history.
// Template: tools/autograd/templates/VariableType.cpp. Guide: docs/source/internals/autograd.rst.
#include <ATen/Functions.h>
#include <ATen/Operators.h>
#include <torch/csrc/autograd/FunctionsManual.h>
#include <torch/csrc/autograd/VariableTypeUtils.h>
#include <torch/csrc/autograd/generated/Functions.h>
#include <torch/library.h>

using namespace torch::autograd;
using namespace torch::autograd::generated;

namespace torch::autograd::VariableType {
namespace {

${type_derived_method_definitions}

}  // namespace
}  // namespace torch::autograd::VariableType

namespace {

TORCH_LIBRARY_IMPL(aten, Autograd, m) {
  ${wrapper_registrations}
}

}  // namespace
