// aten/src/ATen/native/Distance.cpp - dist (the p-norm of a - b) and cosine_similarity.
// Mirrors PyTorch's aten/src/ATen/native/Distance.cpp. Guide: docs/source/internals/programs/native_ops.rst.
#include <ATen/ExpandUtils.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorOperators.h>
#include <c10/core/GradMode.h>

namespace at::native {

Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p) {
  const auto diff = self - other;
  TORCH_CHECK(isFloatingType(diff.scalar_type()) || isComplexType(diff.scalar_type()),
              "norm(): input dtype should be either floating point or complex. Got ", diff.scalar_type(), " instead.");
  return at::norm(diff, p);
}

// cos(x1, x2) = sum(x1 / |x1| * x2 / |x2|) over dim, each norm clamped below at eps. Dividing
// each vector by its own norm first keeps the result in [-1, 1] (the product of the norms
// can overflow where each norm does not). The clamp is done without recording a history:
// the gradient flows through the norms as if unclamped, as in PyTorch.
Tensor cosine_similarity(const Tensor& x1_, const Tensor& x2_, int64_t dim, double eps) {
  const auto common_dtype = at::result_type(x1_, x2_);
  TORCH_CHECK(isFloatingType(common_dtype),
              "expected common dtype to be floating point, yet common dtype is ", common_dtype);
  // Integer inputs are accepted (linalg_vector_norm is not): convert them first.
  const auto x1_t = isIntegralType(x1_.scalar_type(), /*includeBool=*/true) ? x1_.to(common_dtype) : x1_;
  const auto x2_t = isIntegralType(x2_.scalar_type(), /*includeBool=*/true) ? x2_.to(common_dtype) : x2_;
  const auto shape = at::infer_size(x1_t.sizes(), x2_t.sizes());
  const auto x1 = x1_t.expand(shape), x2 = x2_t.expand(shape);
  auto x1_norm = at::linalg_vector_norm(x1, 2, IntArrayRef{dim}, /*keepdim=*/true, std::nullopt).clone();
  auto x2_norm = at::linalg_vector_norm(x2, 2, IntArrayRef{dim}, /*keepdim=*/true, std::nullopt).clone();
  {
    c10::NoGradGuard no_grad;
    x1_norm.clamp_min_(eps);
    x2_norm.clamp_min_(eps);
  }
  return ((x1 / x1_norm) * (x2 / x2_norm)).sum(IntArrayRef{dim});
}

}  // namespace at::native
