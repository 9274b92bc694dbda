// aten/src/ATen/native/cpu/CopyKernel.cpp - the CPU loop of copy_: same dtype moves bytes,
// different dtypes convert element by element. Mirrors PyTorch's aten/src/ATen/native/cpu/CopyKernel.cpp.
// Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Dispatch.h>
#include <ATen/native/Copy.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/TypeCast.h>

namespace at::native {
namespace {

void copy_kernel(TensorIterator& iter, bool /*non_blocking*/) {
  const ScalarType dtype = iter.dtype(0);
  if (dtype == iter.dtype(1)) {
    // One dtype: an identity lambda; contiguous runs become a vectorised (memcpy-like) loop.
    AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, dtype, "copy_", [&] {
      cpu_kernel_vec(iter, [](scalar_t a) -> scalar_t { return a; });
    });
    return;
  }
  // Two dtypes: one switch picks the destination type, a second the source type; each of
  // the 14 x 14 pairs is its own compiled loop.
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, dtype, "copy_", [&] {
    using dest_t = scalar_t;
    AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, iter.dtype(1), "copy_", [&] {
      cpu_kernel_vec(iter, [](scalar_t a) -> dest_t { return c10::convert<dest_t>(a); });
    });
  });
}

}  // namespace

REGISTER_DISPATCH(copy_stub, &copy_kernel);

}  // namespace at::native
