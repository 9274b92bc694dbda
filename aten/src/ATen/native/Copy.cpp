// aten/src/ATen/native/Copy.cpp - Tensor.copy_(src): write src's values into self, converting
// dtype and broadcasting src to self's shape. Mirrors PyTorch's aten/src/ATen/native/Copy.cpp.
// Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/Copy.h>

#include <ATen/NativeFunctions.h>
#include <ATen/TensorIterator.h>

namespace at::native {

DEFINE_DISPATCH(copy_stub);

// [marker: copy_]
// copy_ is the one operator whose iterator checks neither dtypes nor devices: converting
// between them is its job. Self is never resized (it is the destination, as in-place ops
// are) and src broadcasts to it: a.copy_(b) with a [2, 3] and b [3] copies b into each row.
Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
  TORCH_CHECK(self.defined(), "self is undefined");
  TORCH_CHECK(src.defined(), "src is undefined");
  if (self.is_same(src)) {
    return self;
  }
  if (self.is_meta()) {
    return self;  // meta tensors have shapes but no values
  }
  TORCH_CHECK_NOT_IMPLEMENTED(!src.is_meta(), "Cannot copy out of meta tensor; no data!");
  auto iter = TensorIteratorConfig()
                  .add_output(self)
                  .add_const_input(src)
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .check_all_same_device(false)
                  .build();
  if (iter.numel() == 0) {
    return self;
  }
  // A copy with a CUDA tensor on either side is CUDA's kernel to run (host <-> device
  // transfers included), as in PyTorch.
  const bool involves_cuda = iter.device_type(0) == kCUDA || iter.device_type(1) == kCUDA;
  TORCH_CHECK(involves_cuda || iter.device_type(0) == iter.device_type(1), "copy_: copies between ",
              iter.device(1), " and ", iter.device(0), " are not supported");
  copy_stub(involves_cuda ? kCUDA : iter.device_type(0), iter, non_blocking);
  return self;
}
// [end marker: copy_]

}  // namespace at::native
