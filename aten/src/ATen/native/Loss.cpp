// aten/src/ATen/native/Loss.cpp - mse_loss, smooth_l1_loss, huber_loss and binary_cross_entropy,
// forward and backward, and binary_cross_entropy_with_logits.
// Mirrors PyTorch's aten/src/ATen/native/Loss.cpp. Guide: docs/source/internals/cuda_training.rst.
//
// mse_loss is device generic: a TensorIterator and a stub (mse_stub, mse_backward_stub) whose
// CPU kernels are in cpu/ and CUDA kernels in cuda/, then an ordinary mean or sum. The CPU
// binary_cross_entropy is here; its CUDA twin is cuda/Loss.cu.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorIterator.h>
#include <ATen/TensorOperators.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/Loss.h>
#include <ATen/native/PointwiseOps.h>
#include <ATen/native/cpu/Loops.h>

#include <algorithm>
#include <cmath>

namespace at::native {

DEFINE_DISPATCH(mse_stub);
DEFINE_DISPATCH(mse_backward_stub);

// z = |x - y|; smooth L1 is 0.5 z^2 / beta below beta and z - 0.5 beta above it, huber
// 0.5 z^2 below delta and delta (z - 0.5 delta) above: the same products in the same order
// as PyTorch's CPU kernels (cpu/BinaryOpsKernel.cpp), so the digits agree.
Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, int64_t reduction, double beta) {
  TORCH_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta.");
  if (beta == 0.0) {
    return at::l1_loss(input, target, reduction);
  }
  auto z = (input - target).abs();
  auto loss = at::where(z < beta, z * 0.5 * z / beta, z - 0.5 * beta);
  return apply_loss_reduction(loss, reduction);
}

// Both gradients are piecewise in x = input - target: -outer below -bound, +outer above
// bound, x / inner_div in between (times the incoming gradient and the mean's 1/N).
static Tensor piecewise_loss_backward(const Tensor& grad_output, const Tensor& input, const Tensor& target,
                                      int64_t reduction, double bound, double outer, double inner_div) {
  const double norm = reduction == at::Reduction::Mean ? 1.0 / static_cast<double>(input.numel()) : 1.0;
  auto x = input - target;
  auto g = grad_output * norm;
  return at::where(x <= -bound, -g * outer, at::where(x >= bound, g * outer, x * g / inner_div));
}

Tensor smooth_l1_loss_backward(const Tensor& grad_output, const Tensor& input, const Tensor& target,
                               int64_t reduction, double beta) {
  return piecewise_loss_backward(grad_output, input, target, reduction, beta, 1.0, beta);
}

Tensor huber_loss(const Tensor& input, const Tensor& target, int64_t reduction, double delta) {
  TORCH_CHECK(delta > 0, "huber_loss does not support non-positive values for delta.");
  auto z = (input - target).abs();
  auto loss = at::where(z < delta, z * 0.5 * z, (z - 0.5 * delta) * delta);
  return apply_loss_reduction(loss, reduction);
}

Tensor huber_loss_backward(const Tensor& grad_output, const Tensor& input, const Tensor& target,
                           int64_t reduction, double delta) {
  return piecewise_loss_backward(grad_output, input, target, reduction, delta, delta, 1.0);
}

Tensor mse_loss(const Tensor& input, const Tensor& target, int64_t reduction) {
  // binary_op broadcasts target against input (F.mse_loss has warned if their sizes differ)
  // and promotes the two to one dtype.
  auto iter = TensorIterator::binary_op(Tensor(), input, target);
  mse_stub(iter.device_type(), iter);
  return apply_loss_reduction(iter.output(), reduction);
}

// d/dx (x - y)^2 = 2 (x - y); 'mean' divides by the number of elements.
Tensor mse_loss_backward(const Tensor& grad_output, const Tensor& input, const Tensor& target, int64_t reduction) {
  Tensor grad_input = at::zeros_like(input);
  const double norm = reduction == at::Reduction::Mean ? 2. / static_cast<double>(input.numel()) : 2.;
  auto iter = TensorIteratorConfig()
                  .add_output(grad_input)
                  .add_const_input(input)
                  .add_const_input(target)
                  .add_const_input(grad_output)
                  .promote_inputs_to_common_dtype(true)
                  .build();
  mse_backward_stub(iter.device_type(), iter, norm);
  return grad_input;
}

// The formulas are Loss.h's, shared with cuda/Loss.cu; here each element's range is checked
// as it is read (the check raises from inside the loop, and parallel_for passes it on).
Tensor binary_cross_entropy_cpu(const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight_opt,
                                int64_t reduction) {
  binary_cross_entropy_check(input, target);
  Tensor loss = at::empty_like(input);
  auto iter = TensorIteratorConfig().add_output(loss).add_const_input(input).add_const_input(target).build();
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, loss.scalar_type(), "binary_cross_entropy", [&] {
    cpu_kernel(iter, [](scalar_t input_val, scalar_t target_val) -> scalar_t {
      // "not in [0, 1]" rather than "< 0 or > 1": NaN is refused too.
      TORCH_CHECK(input_val >= 0 && input_val <= 1, "all elements of input should be between 0 and 1");
      TORCH_CHECK(target_val >= 0 && target_val <= 1, "all elements of target should be between 0 and 1");
      return binary_cross_entropy_value(input_val, target_val);
    });
  });
  return binary_cross_entropy_weight_and_reduce(loss, weight_opt, reduction, /*backward=*/false);
}

Tensor binary_cross_entropy_backward_cpu(const Tensor& grad, const Tensor& input, const Tensor& target,
                                         const std::optional<Tensor>& weight_opt, int64_t reduction) {
  Tensor grad_input = at::empty_like(input);
  auto iter = binary_cross_entropy_backward_iter(grad_input, grad, input, target);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, grad_input.scalar_type(), "binary_cross_entropy_backward", [&] {
    cpu_kernel(iter, [](scalar_t grad_val, scalar_t input_val, scalar_t target_val) -> scalar_t {
      return binary_cross_entropy_grad(grad_val, input_val, target_val);
    });
  });
  return binary_cross_entropy_weight_and_reduce(grad_input, weight_opt, reduction, /*backward=*/true);
}

// binary_cross_entropy(sigmoid(x), y) computed from the logits x, without overflow:
// (1 - y) x - (1 + (p - 1) y) log sigmoid(x), with log sigmoid(x) = min(x, 0) - log1p(exp(-|x|))
// and p the pos_weight (1 without one). Ordinary tensor ops, so one function serves every
// device; its derivative is its own (derivatives.yaml), not the chain of those ops.
Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                        const std::optional<Tensor>& weight_opt,
                                        const std::optional<Tensor>& pos_weight_opt, int64_t reduction) {
  Tensor log_sigmoid_input = at::clamp_max(input, 0) - at::log1p(at::exp(-at::abs(input)));
  if (pos_weight_opt.has_value() && pos_weight_opt->defined()) {
    // pos_weight broadcasts against target, so this product is a new tensor.
    log_sigmoid_input = log_sigmoid_input * ((*pos_weight_opt - 1) * target + 1);
  }
  Tensor loss = (1 - target) * input - log_sigmoid_input;
  if (weight_opt.has_value() && weight_opt->defined()) {
    loss = loss * *weight_opt;
  }
  return apply_loss_reduction(loss, reduction);
}

// l1_loss and kl_div: compositions of pointwise ops, so autograd differentiates them.
Tensor l1_loss(const Tensor& input, const Tensor& target, int64_t reduction) {
  return apply_loss_reduction((input - target).abs(), reduction);
}

// kl_div: target * (log target - input), 0 where target is 0 (PyTorch's xlogy(target,
// target) - target * input); with log_target, exp(target) * (target - input).
Tensor kl_div(const Tensor& input, const Tensor& target, int64_t reduction, bool log_target) {
  TORCH_CHECK(!c10::isComplexType(input.scalar_type()) && !c10::isComplexType(target.scalar_type()), "kl_div: Complex inputs not supported.");
  TORCH_CHECK(!c10::isIntegralType(input.scalar_type(), /*includeBool=*/true) &&
                  !c10::isIntegralType(target.scalar_type(), /*includeBool=*/true),
              "kl_div: Integral inputs not supported.");
  Tensor output;
  if (log_target) {
    output = at::exp(target) * (target - input);
  } else {
    const Tensor xlogx = at::where(target == 0, at::zeros_like(target), target * at::log(target));
    output = xlogx - target * input;
  }
  return apply_loss_reduction(output, reduction);
}

}  // namespace at::native
