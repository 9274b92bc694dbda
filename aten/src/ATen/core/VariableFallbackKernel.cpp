// aten/src/ATen/core/VariableFallbackKernel.cpp - what operators without their own kernel do at
// the keys every tensor carries above its backend key.
// Mirrors PyTorch's aten/src/ATen/core/VariableFallbackKernel.cpp. Guide: docs/source/internals/dispatch.rst.
//
// Every CPU tensor carries AutogradCPU and ADInplaceOrView, so every call would stop there.
// Falling through makes the dispatcher skip those keys for operators that register nothing
// at them: ADInplaceOrView has kernels only for in-place and view operators (generated
// ADInplaceOrViewType.cpp), and every aten operator with tensor inputs has an Autograd
// kernel (generated VariableType.cpp, or its CompositeImplicitAutograd kernel, which
// covers the autograd keys too); operators defined elsewhere without one fall through.
#include <torch/library.h>

// [marker: fallthroughs]
TORCH_LIBRARY_IMPL(_, ADInplaceOrView, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(_, AutogradOther, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(_, AutogradCPU, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(_, AutogradCUDA, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(_, AutogradMeta, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

// BackendSelect only has kernels for factory functions (generated RegisterBackendSelect.cpp);
// for everything else the backend is already known from the tensor arguments.
TORCH_LIBRARY_IMPL(_, BackendSelect, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

// Autocast is off unless a torch.autocast region includes its key; operators it does not
// handle pass through it.
TORCH_LIBRARY_IMPL(_, AutocastCPU, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}

TORCH_LIBRARY_IMPL(_, AutocastCUDA, m) {
  m.fallback(torch::CppFunction::makeFallthrough());
}
// [end marker: fallthroughs]
