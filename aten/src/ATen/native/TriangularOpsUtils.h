// aten/src/ATen/native/TriangularOpsUtils.h - the argument check tril and triu share between the
// CPU (TriangularOps.cpp) and CUDA (cuda/TriangularOps.cu), so both refuse the same inputs with
// the same message. Mirrors PyTorch's aten/src/ATen/native/TriangularOpsUtils.h and the check in
// TORCH_META_FUNC(tril) / TORCH_META_FUNC(triu) of TriangularOps.cpp.
// Guide: docs/source/internals/tensors.rst.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/Exception.h>

namespace at::native {

// name is "tril" or "triu". The last two dims are the matrix; a 1-d tensor has no diagonal.
inline void check_triu_tril_input(const Tensor& self, const char* name) {
  TORCH_CHECK(self.dim() >= 2, name, ": input tensor must have at least 2 dimensions");
}

}  // namespace at::native
