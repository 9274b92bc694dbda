// aten/src/ATen/native/Cross.cpp - the cross product of 3-vectors along a dimension: linalg_cross
// (torch.linalg.cross) and its older form cross (torch.cross, dim optional).
// Mirrors PyTorch's aten/src/ATen/native/Cross.cpp. Guide: docs/source/internals/programs/native_ops.rst.
//
// The kernel is written with operators on the three components (a1 b2 - a2 b1, ...), so the
// one body serves CPU and CUDA tensors; PyTorch loops over the batch in cpu/CrossKernel.cpp.
#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorOperators.h>
#include <ATen/native/Resize.h>
#include <c10/core/WrapDimMinimal.h>

namespace at::native {

Tensor linalg_cross(const Tensor& input, const Tensor& other, int64_t dim) {
  TORCH_CHECK(input.dim() == other.dim(), "linalg.cross: inputs must have the same number of dimensions.");
  const int64_t d = c10::maybe_wrap_dim(dim, input.dim());
  TORCH_CHECK(input.size(d) == 3 && other.size(d) == 3, "linalg.cross: inputs dimension ", dim,
              " must have length 3. Got ", input.size(d), " and ", other.size(d));
  TORCH_CHECK(input.scalar_type() == other.scalar_type(), "expected scalar type ", input.scalar_type(),
              " but found ", other.scalar_type());
  // The other dimensions broadcast.
  const auto shape = at::infer_size(input.sizes(), other.sizes());
  const auto a = input.expand(shape), b = other.expand(shape);
  const auto a0 = a.select(d, 0), a1 = a.select(d, 1), a2 = a.select(d, 2);
  const auto b0 = b.select(d, 0), b1 = b.select(d, 1), b2 = b.select(d, 2);
  return at::stack({a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0}, d);
}

Tensor& linalg_cross_out(const Tensor& input, const Tensor& other, int64_t dim, Tensor& out) {
  auto result = at::native::linalg_cross(input, other, dim);
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

namespace {
// torch.cross without dim takes the first dimension of size 3 (linalg.cross takes -1).
int64_t default_cross_dim(std::optional<int64_t> dimension, IntArrayRef sizes) {
  if (dimension.has_value()) {
    return *dimension;
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == 3) {
      return static_cast<int64_t>(i);
    }
  }
  TORCH_CHECK(false, "no dimension of size 3 in input");
}
}  // namespace

Tensor cross(const Tensor& input, const Tensor& other, std::optional<int64_t> dimension) {
  if (!dimension.has_value()) {
    TORCH_WARN_ONCE("Using torch.cross without specifying the dim arg is deprecated.\n",
                    "Please either pass the dim explicitly or simply use torch.linalg.cross.\n",
                    "The default value of dim will change to agree with that of linalg.cross in a future release.");
  }
  return at::linalg_cross(input, other, default_cross_dim(dimension, input.sizes()));
}

Tensor& cross(const Tensor& input, const Tensor& other, std::optional<int64_t> dimension, Tensor& out) {
  return at::linalg_cross_out(out, input, other, default_cross_dim(dimension, input.sizes()));
}

}  // namespace at::native
