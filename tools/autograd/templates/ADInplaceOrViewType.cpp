// ${generated_comment}
// The ADInplaceOrView-key kernels: for an operator that writes in place (or into out=), bump
// the version counter of what it wrote; for a view operator, record the view's base. Every
// other operator falls through this key (aten/src/ATen/core/VariableFallbackKernel.cpp).
// Template: tools/autograd/templates/ADInplaceOrViewType.cpp. Guide: docs/source/internals/autograd.rst.
#include <ATen/Functions.h>
#include <ATen/Operators.h>
#include <torch/csrc/autograd/VariableTypeUtils.h>
#include <torch/library.h>

namespace torch::ADInplaceOrView {
namespace {

${inplace_or_view_method_definitions}

}  // namespace
}  // namespace torch::ADInplaceOrView

namespace {

TORCH_LIBRARY_IMPL(aten, ADInplaceOrView, m) {
  ${inplace_or_view_wrapper_registrations}
}

}  // namespace
