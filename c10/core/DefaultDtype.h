// c10/core/DefaultDtype.h - the dtype floating-point factories use when none is given.
// Mirrors PyTorch's c10/core/DefaultDtype.h (torch.get_default_dtype / set_default_dtype).
// Guide: docs/source/internals/tensors.rst.
#pragma once

#include <c10/core/ScalarType.h>
#include <c10/util/typeid.h>

namespace c10 {

// float32 unless changed; only floating types may be the default.
C10_API void set_default_dtype(caffe2::TypeMeta dtype);
C10_API caffe2::TypeMeta get_default_dtype();
C10_API ScalarType get_default_dtype_as_scalartype();
// The complex type matching the default (complex64 for float32).
C10_API caffe2::TypeMeta get_default_complex_dtype();

}  // namespace c10
