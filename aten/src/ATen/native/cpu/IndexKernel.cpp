// aten/src/ATen/native/cpu/IndexKernel.cpp - the CPU loop of masked_fill: a loop written
// directly against TensorIterator's 2-D interface (cpu_kernel is for "out = f(inputs)";
// masked_fill leaves unmasked elements alone). Mirrors PyTorch's aten/src/ATen/native/cpu/IndexKernel.cpp.
// Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/IndexKernel.h>
#include <ATen/native/cpu/Loops.h>

namespace at::native {
namespace {

// [marker: masked_fill_kernel]
void masked_fill_kernel(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND4(kBool, kHalf, kBFloat16, kComplexHalf, iter.dtype(), "masked_fill", [&] {
    const auto value_ = value.to<scalar_t>();
    auto loop = [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
      char* dst = data[0];
      char* mask = data[1];
      for (int64_t j = 0; j < n1; j++) {
        for (int64_t i = 0; i < n0; i++) {
          if (*reinterpret_cast<const bool*>(mask + i * strides[1])) {
            *reinterpret_cast<scalar_t*>(dst + i * strides[0]) = value_;
          }
        }
        dst += strides[2];
        mask += strides[3];
      }
    };
    iter.for_each(loop);
  });
}
// [end marker: masked_fill_kernel]

}  // namespace

REGISTER_DISPATCH(masked_fill_stub, &masked_fill_kernel);

}  // namespace at::native
