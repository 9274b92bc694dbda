// aten/src/ATen/native/Loss.h - what the CPU and CUDA losses share: the reduction of an
// elementwise loss, and the argument checks of binary_cross_entropy and nll_loss.
// Mirrors the helpers of PyTorch's aten/src/ATen/native/Loss.cpp and LossNLL.cpp (their meta
// functions). Guide: docs/source/internals/cuda_training.rst.
#pragma once

#include <ATen/core/Reduction.h>
#include <ATen/Functions.h>
#include <ATen/OpMathType.h>
#include <ATen/TensorIterator.h>
#include <ATen/core/Tensor.h>
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace at::native {

// A new tensor of `sizes` with like's dtype and device (the outputs and total_weight).
inline Tensor empty_for(IntArrayRef sizes, const Tensor& like) {
  return at::empty(sizes, like.scalar_type(), std::nullopt, like.device());
}

// 'none' keeps the elementwise loss, 'mean' averages it, 'sum' adds it up.
inline Tensor apply_loss_reduction(const Tensor& unreduced, int64_t reduction) {
  if (reduction == at::Reduction::Mean) {
    return unreduced.mean();
  }
  if (reduction == at::Reduction::Sum) {
    return unreduced.sum();
  }
  return unreduced;
}

// binary_cross_entropy runs one TensorIterator over input and target: same dtype, same size.
inline void binary_cross_entropy_check(const Tensor& input, const Tensor& target) {
  TORCH_CHECK(input.scalar_type() == target.scalar_type(), "Found dtype ", target.scalar_type(), " but expected ",
              input.scalar_type());
  TORCH_CHECK(input.sizes() == target.sizes(), "The size of tensor a (", input.numel(),
              ") must match the size of tensor b (", target.numel(), ")");
}

// The optional weight of nll_loss, contiguous, or an undefined tensor for none.
inline Tensor nll_loss_weight(const std::optional<Tensor>& weight) {
  return weight.has_value() && weight->defined() ? weight->contiguous() : Tensor();
}

// binary_cross_entropy's arithmetic, the same on both devices (C10_HOST_DEVICE), in opmath_t:
// -(y log x + (1 - y) log(1 - x)), each log clamped at -100 so that x = 0 or 1 gives a finite
// loss; and its derivative (x - y) / (x (1 - x)), the denominator kept above 1e-12 (PyTorch's
// EPSILON) so that x = 0 or 1 gives a large but finite gradient.
template <typename scalar_t, typename opmath_t = at::opmath_type<scalar_t>>
C10_HOST_DEVICE inline scalar_t binary_cross_entropy_value(scalar_t input, scalar_t target) {
  const opmath_t x = input, y = target;
  const opmath_t log_x = std::max(std::log(x), opmath_t(-100));
  const opmath_t log_1m_x = std::max(std::log1p(-x), opmath_t(-100));
  return static_cast<scalar_t>((y - 1) * log_1m_x - y * log_x);
}

template <typename scalar_t, typename opmath_t = at::opmath_type<scalar_t>>
C10_HOST_DEVICE inline scalar_t binary_cross_entropy_grad(scalar_t grad, scalar_t input, scalar_t target) {
  const opmath_t x = input;
  return static_cast<scalar_t>(static_cast<opmath_t>(grad) * (x - static_cast<opmath_t>(target)) /
                               std::max((opmath_t(1) - x) * x, opmath_t(1e-12)));
}

// The iterator of binary_cross_entropy_backward: grad_input from (grad, input, target), grad
// (a scalar for 'mean' and 'sum') broadcast to the input's shape.
inline TensorIterator binary_cross_entropy_backward_iter(const Tensor& grad_input, const Tensor& grad,
                                                         const Tensor& input, const Tensor& target) {
  return TensorIteratorConfig()
      .add_output(grad_input)
      .add_const_input(grad)
      .add_const_input(input)
      .add_const_input(target)
      .build();
}

// What binary_cross_entropy's kernels leave to ordinary tensor ops: the weight, then the
// reduction of the loss (forward) or the 1 / numel of 'mean' (backward).
inline Tensor binary_cross_entropy_weight_and_reduce(Tensor loss, const std::optional<Tensor>& weight,
                                                     int64_t reduction, bool backward) {
  if (weight.has_value() && weight->defined()) {
    loss.mul_(*weight);
  }
  if (!backward) {
    return apply_loss_reduction(loss, reduction);
  }
  if (reduction == at::Reduction::Mean) {
    loss.div_(loss.numel());
  }
  return loss;
}

// nll_loss takes class indices as int64 (or uint8).
inline void nll_loss_target_check(const Tensor& target) {
  TORCH_CHECK(target.scalar_type() == kLong || target.scalar_type() == kByte,
              "expected target dtype to be Long or Byte, but got ", target.scalar_type());
}

inline void nll_loss_weight_dtype_check(const Tensor& self, const Tensor& weight) {
  TORCH_CHECK(!weight.defined() || weight.scalar_type() == self.scalar_type(), "expected scalar type ",
              self.scalar_type(), " but found ", weight.scalar_type());
}

// nll_loss_forward: input (C) or (N, C), target () or (N).
inline void nll_loss_forward_check(const Tensor& self, const Tensor& target, const Tensor& weight) {
  TORCH_CHECK(self.dim() > 0 && self.dim() <= 2, "input tensor should be 1D or 2D");
  TORCH_CHECK(target.dim() <= 1, "0D or 1D target tensor expected, multi-target not supported");
  const bool no_batch_dim = self.dim() == 1 && target.dim() == 0;
  TORCH_CHECK(no_batch_dim || self.size(0) == target.size(0), "size mismatch (got input: ", self.sizes(),
              ", target: ", target.sizes(), ")");
  const int64_t n_classes = self.size(-1);
  TORCH_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == n_classes),
              "weight tensor should be defined either for all ", n_classes, " classes or no classes",
              " but got weight tensor of shape: ", weight.sizes());
  nll_loss_target_check(target);
  nll_loss_weight_dtype_check(self, weight);
}

// nll_loss2d_forward: input (N, C, H, W), target (N, H, W).
inline void nll_loss2d_forward_check(const Tensor& input, const Tensor& target, const Tensor& weight) {
  TORCH_CHECK(target.dim() == 3, "only batches of spatial targets supported (3D tensors)",
              " but got targets of dimension: ", target.dim());
  TORCH_CHECK(input.dim() == 4, "only batches of spatial inputs supported (4D tensors), ",
              "but got input of dimension: ", input.dim());
  TORCH_CHECK(!weight.defined() || weight.numel() == input.size(1),
              "weight tensor should be defined either for all or no classes");
  TORCH_CHECK(input.size(0) == target.size(0) && input.size(2) == target.size(1) && input.size(3) == target.size(2),
              "size mismatch (got input: ", input.sizes(), " , target: ", target.sizes());
  nll_loss_target_check(target);
  nll_loss_weight_dtype_check(input, weight);
}

// How the nll_loss kernels see their input: batch_size samples of n_classes, `positions` per
// sample (1 for (C) and (N, C); H * W for nll_loss2d's (N, C, H, W), whose classes are H * W
// apart), and the shape of the output ('none' keeps one loss per position; a (C) input, or a
// reduction, gives a scalar).
struct NllLossShape {
  int64_t batch_size;
  int64_t n_classes;
  int64_t positions;
  std::vector<int64_t> output_sizes;
};

inline NllLossShape nll_loss_shape(const Tensor& self, const Tensor& target, int64_t reduction) {
  const bool keep = reduction == at::Reduction::None;
  if (self.dim() == 4) {
    return {self.size(0), self.size(1), self.size(2) * self.size(3),
            keep ? target.sizes().vec() : std::vector<int64_t>{}};
  }
  const int64_t batch_size = self.dim() == 1 ? 1 : self.size(0);
  return {batch_size, self.size(-1), 1,
          keep && self.dim() == 2 ? std::vector<int64_t>{batch_size} : std::vector<int64_t>{}};
}

// What PyTorch's meta functions (TORCH_META_FUNC(nll_loss_forward), nll_loss2d's checks) do for
// both devices and both directions: check the arguments and work out the shapes. `spatial`
// picks nll_loss2d's checks.
struct NllLossMeta {
  Tensor weight;  // contiguous, or undefined
  NllLossShape shape;
};

inline NllLossMeta nll_loss_meta(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight_opt,
                                 int64_t reduction, bool spatial) {
  Tensor weight = nll_loss_weight(weight_opt);
  if (spatial) {
    nll_loss2d_forward_check(self, target, weight);
  } else {
    nll_loss_forward_check(self, target, weight);
  }
  return {weight, nll_loss_shape(self, target, reduction)};
}

// Where the target class t of position i (counting positions over the whole batch) lies in a
// contiguous input. C10_HOST_DEVICE: cuda/Loss.cu's kernels call it too.
C10_HOST_DEVICE inline int64_t nll_offset(int64_t i, int64_t t, int64_t n_classes, int64_t positions) {
  const int64_t b = i / positions, p = i % positions;
  return (b * n_classes + t) * positions + p;
}

// Run f(target_t{}) for the target's index type: int64, or uint8.
template <typename F>
void dispatch_target(const Tensor& target, F&& f) {
  if (target.scalar_type() == kByte) {
    f(uint8_t{});
  } else {
    f(int64_t{});
  }
}

}  // namespace at::native
