// aten/src/ATen/native/TensorAdvancedIndexing.cpp - masked_fill (so far).
// Mirrors PyTorch's aten/src/ATen/native/TensorAdvancedIndexing.cpp. Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/IndexKernel.h>

#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorIterator.h>

namespace at::native {

DEFINE_DISPATCH(masked_fill_stub);

// [marker: masked_fill_]
// self[mask] = value. The iterator's output is self (never resized) and its input the bool
// mask, broadcast to self's shape; the kernel writes only where the mask is true.
Tensor& masked_fill__cpu(Tensor& self, const Tensor& mask, const Scalar& value) {
  TORCH_CHECK(mask.scalar_type() == ScalarType::Bool, "masked_fill_ only supports boolean masks, but got mask with dtype ",
              mask.dtype());
  auto iter = TensorIteratorConfig()
                  .set_check_mem_overlap(false)
                  .check_all_same_dtype(false)
                  .resize_outputs(false)
                  .add_output(self)
                  .add_const_input(mask)
                  .build();
  masked_fill_stub(iter.device_type(), iter, value);
  return self;
}
// [end marker: masked_fill_]

Tensor& masked_fill__cpu(Tensor& self, const Tensor& mask, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  return masked_fill__cpu(self, mask, value.item());
}

// Out of place: a copy of self in the broadcast shape of self and mask, then filled.
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& source) {
  auto shape = infer_size(self.sizes(), mask.sizes());
  Tensor result = at::empty(shape, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  result.copy_(self);
  result.masked_fill_(mask, source);
  return result;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& source) {
  auto shape = infer_size(self.sizes(), mask.sizes());
  Tensor result = at::empty(shape, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  result.copy_(self);
  result.masked_fill_(mask, source);
  return result;
}

}  // namespace at::native
