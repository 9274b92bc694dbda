// aten/src/ATen/native/RangeUtils.h - how many values torch.arange(start, end, step) holds, and
// the checks on its arguments, shared by the CPU and CUDA kernels. Mirrors PyTorch's
// aten/src/ATen/native/RangeUtils.h. Guide: docs/source/internals/one_call.rst.
#pragma once

#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <c10/macros/Export.h>

#include <cstdint>

namespace at::native {

// ceil((end - start) / step) for a tensor of `dtype`: exact for int64 (in 128 bits), in double
// otherwise. Raises PyTorch's errors for a zero step, a non-finite bound, bounds the step
// walks away from, and a length that does not fit an int64.
TORCH_API int64_t compute_arange_size(const c10::Scalar& start, const c10::Scalar& end, const c10::Scalar& step,
                                      c10::ScalarType dtype);

}  // namespace at::native
