// ${generated_comment}
// The kernels of dispatch key ${dispatch_key}: a wrapper per operator (device check), and
// their registration with the dispatcher.
// Template: aten/src/ATen/templates/RegisterDispatchKey.cpp. Guide: docs/source/internals/generated_code.rst.
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/core/op_registration/adaption.h>
#include <torch/library.h>

namespace at {
namespace {

${wrapper_definitions}

}  // namespace

TORCH_LIBRARY_IMPL(aten, ${dispatch_key}, m) {
  ${registrations}
}

}  // namespace at
