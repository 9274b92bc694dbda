// ${generated_comment}
// Factories (at::empty, at::zeros ...) take no tensor, so no tensor names the backend. Their
// BackendSelect kernels compute the key from the dtype/device arguments and redispatch.
// Template: aten/src/ATen/templates/RegisterBackendSelect.cpp. Guide: docs/source/internals/generated_code.rst.
#include <ATen/Operators.h>
#include <ATen/core/Tensor.h>
#include <torch/library.h>

namespace at {
namespace {

${backend_select_method_definitions}

}  // namespace

TORCH_LIBRARY_IMPL(aten, BackendSelect, m) {
  ${backend_select_function_registrations}
}

}  // namespace at
