// aten/src/ATen/native/LossNLL.cpp - the negative log-likelihood loss: nll_loss_nd (what
// F.nll_loss and F.cross_entropy call), which sends (C) and (N, C) inputs to nll_loss_forward
// and everything with spatial dims to nll_loss2d_forward; the CPU kernels of both.
// Mirrors PyTorch's aten/src/ATen/native/LossNLL.cpp and LossNLL2d.cpp. Guide:
// docs/source/internals/cuda_training.rst. The CUDA kernels are cuda/Loss.cu and cuda/NLLLoss2d.cu.
//
// Each forward returns (output, total_weight): total_weight is the sum of weight[target] over
// the targets that are not ignore_index, the divisor of 'mean', saved for the backward.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorOperators.h>
#include <limits>
#include <ATen/OpMathType.h>
#include <ATen/native/Loss.h>

#include <tuple>

namespace at::native {

// [marker: nll_loss_nd]
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                   int64_t ignore_index) {
  TORCH_CHECK_VALUE(self.dim() >= 1, "Expected 1 or more dimensions (got ", self.dim(), ")");
  TORCH_CHECK_VALUE(self.dim() == 1 || self.size(0) == target.size(0), "Expected input batch_size (", self.size(0),
                    ") to match target batch_size (", target.size(0), ").");
  if (self.dim() <= 2) {
    return at::nll_loss(self, target, weight, reduction, ignore_index);
  }
  if (self.dim() == 4) {
    return at::nll_loss2d(self, target, weight, reduction, ignore_index);
  }
  // (N, C, d1, ..., dk) for k = 1 or k > 2: viewed as (N, C, 1, d1 * ... * dk) for nll_loss2d.
  const int64_t n = self.size(0);
  const int64_t c = self.size(1);
  std::vector<int64_t> out_size(self.sizes().begin() + 2, self.sizes().end());
  out_size.insert(out_size.begin(), n);
  TORCH_CHECK(target.sizes().slice(1) == self.sizes().slice(2), "Expected target size ", IntArrayRef(out_size),
              ", got ", target.sizes());
  Tensor input = self.contiguous();
  Tensor target_ = target.contiguous();
  // An empty batch cannot be viewed with -1: give it explicit zero sizes.
  input = input.numel() > 0 ? input.view({n, c, 1, -1}) : input.view({n, c, 0, 0});
  target_ = target_.numel() > 0 ? target_.view({n, 1, -1}) : target_.view({n, 0, 0});
  Tensor out = at::nll_loss2d(input, target_, weight, reduction, ignore_index);
  return reduction == at::Reduction::None ? out.view(out_size) : out;
}
// [end marker: nll_loss_nd]

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                int64_t ignore_index) {
  return std::get<0>(at::nll_loss_forward(self, target, weight, reduction, ignore_index));
}

Tensor nll_loss2d(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                  int64_t ignore_index) {
  return std::get<0>(at::nll_loss2d_forward(self, target, weight, reduction, ignore_index));
}

namespace {

// One pass over every position of the batch (N rows of C log-probabilities, or N * H * W
// positions for 2d): position i contributes -weight[t] * input[i][t] for its target t.
template <typename scalar_t, typename target_t>
void nll_loss_forward_frame(Tensor& output, Tensor& total_weight, const Tensor& input, const Tensor& target,
                            const Tensor& weight, int64_t reduction, int64_t ignore_index, const NllLossShape& shape) {
  const int64_t n_classes = shape.n_classes, positions = shape.positions;
  using acc_t = at::opmath_type<scalar_t>;
  const scalar_t* in = input.const_data_ptr<scalar_t>();
  const target_t* tgt = target.const_data_ptr<target_t>();
  const scalar_t* w = weight.defined() ? weight.const_data_ptr<scalar_t>() : nullptr;
  auto class_of = [&](int64_t i) -> int64_t {  // i counts (sample, position) pairs
    const int64_t t = static_cast<int64_t>(tgt[i]);
    TORCH_CHECK_INDEX(t == ignore_index || (t >= 0 && t < n_classes), "Target ", t, " is out of bounds.");
    return t;
  };
  auto element = [&](int64_t i, int64_t t) -> const scalar_t& { return in[nll_offset(i, t, n_classes, positions)]; };
  const int64_t count = shape.batch_size * positions;
  if (reduction == at::Reduction::None && output.dim() > 0) {
    scalar_t* out = output.mutable_data_ptr<scalar_t>();
    for (int64_t i = 0; i < count; i++) {
      const int64_t t = class_of(i);
      out[i] = t == ignore_index ? scalar_t(0) : static_cast<scalar_t>(-element(i, t) * (w ? w[t] : scalar_t(1)));
    }
    total_weight.zero_();
    return;
  }
  acc_t total_weight_val = 0, output_val = 0;
  for (int64_t i = 0; i < count; i++) {
    const int64_t t = class_of(i);
    if (t == ignore_index) {
      continue;
    }
    const acc_t wt = w ? static_cast<acc_t>(w[t]) : acc_t(1);
    total_weight_val += wt;
    output_val -= static_cast<acc_t>(element(i, t)) * wt;
  }
  // 'mean' of no counted target is 0 / 0 = NaN, as in PyTorch.
  if (reduction == at::Reduction::Mean) {
    output_val /= total_weight_val;
  }
  output.fill_(output_val);
  total_weight.fill_(total_weight_val);
}

// grad_input is zero except at each counted target: -weight[t] * grad (divided by the total
// weight for 'mean'; one grad per position for 'none').
template <typename scalar_t, typename target_t>
void nll_loss_backward_frame(Tensor& grad_input, const Tensor& grad_output, const Tensor& target, const Tensor& weight,
                             int64_t reduction, int64_t ignore_index, const Tensor& total_weight,
                             const NllLossShape& shape) {
  const int64_t n_classes = shape.n_classes, positions = shape.positions;
  scalar_t* gin = grad_input.mutable_data_ptr<scalar_t>();
  const target_t* tgt = target.const_data_ptr<target_t>();
  const scalar_t* w = weight.defined() ? weight.const_data_ptr<scalar_t>() : nullptr;
  const int64_t count = shape.batch_size * positions;
  const bool per_element = reduction == at::Reduction::None && grad_output.dim() > 0;
  Tensor grad_out = grad_output.contiguous();
  const scalar_t* gout = grad_out.const_data_ptr<scalar_t>();
  scalar_t grad = 0;
  if (!per_element) {
    const scalar_t total = total_weight.const_data_ptr<scalar_t>()[0];
    grad = reduction == at::Reduction::Mean ? static_cast<scalar_t>(-(gout[0] / total))
                                            : static_cast<scalar_t>(-gout[0]);
  }
  for (int64_t i = 0; i < count; i++) {
    const int64_t t = static_cast<int64_t>(tgt[i]);
    if (t == ignore_index) {
      continue;
    }
    TORCH_CHECK_INDEX(t >= 0 && t < n_classes, "Target ", t, " is out of bounds.");
    const scalar_t g = per_element ? static_cast<scalar_t>(-gout[i]) : grad;
    gin[nll_offset(i, t, n_classes, positions)] = w ? static_cast<scalar_t>(w[t] * g) : g;
  }
}

}  // namespace

std::tuple<Tensor, Tensor> nll_loss_forward_cpu(const Tensor& self, const Tensor& target,
                                                const std::optional<Tensor>& weight_opt, int64_t reduction,
                                                int64_t ignore_index) {
  const auto m = nll_loss_meta(self, target, weight_opt, reduction, /*spatial=*/false);
  Tensor output = empty_for(m.shape.output_sizes, self), total_weight = empty_for({}, self);
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, self.scalar_type(), "nll_loss_out_frame", [&] {
    dispatch_target(target, [&](auto t) {
      nll_loss_forward_frame<scalar_t, decltype(t)>(output, total_weight, self.contiguous(), target.contiguous(),
                                                    m.weight, reduction, ignore_index, m.shape);
    });
  });
  return {output, total_weight};
}

Tensor nll_loss_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                             const std::optional<Tensor>& weight_opt, int64_t reduction, int64_t ignore_index,
                             const Tensor& total_weight) {
  const auto m = nll_loss_meta(self, target, weight_opt, reduction, /*spatial=*/false);
  Tensor grad_input = empty_for(self.sizes(), self).zero_();
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, self.scalar_type(), "nll_loss_backward_out_frame", [&] {
    dispatch_target(target, [&](auto t) {
      nll_loss_backward_frame<scalar_t, decltype(t)>(grad_input, grad_output, target.contiguous(), m.weight,
                                                     reduction, ignore_index, total_weight, m.shape);
    });
  });
  return grad_input;
}

std::tuple<Tensor, Tensor> nll_loss2d_forward_cpu(const Tensor& self, const Tensor& target,
                                                  const std::optional<Tensor>& weight_opt, int64_t reduction,
                                                  int64_t ignore_index) {
  const auto m = nll_loss_meta(self, target, weight_opt, reduction, /*spatial=*/true);
  Tensor output = empty_for(m.shape.output_sizes, self), total_weight = empty_for({}, self);
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, self.scalar_type(), "nll_loss2d_forward_out_frame", [&] {
    dispatch_target(target, [&](auto t) {
      nll_loss_forward_frame<scalar_t, decltype(t)>(output, total_weight, self.contiguous(), target.contiguous(),
                                                    m.weight, reduction, ignore_index, m.shape);
    });
  });
  return {output, total_weight};
}

Tensor nll_loss2d_backward_cpu(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                               const std::optional<Tensor>& weight_opt, int64_t reduction, int64_t ignore_index,
                               const Tensor& total_weight) {
  const auto m = nll_loss_meta(self, target, weight_opt, reduction, /*spatial=*/true);
  Tensor grad_input = empty_for(self.sizes(), self).zero_();
  AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, self.scalar_type(), "nll_loss2d_backward_out_frame", [&] {
    dispatch_target(target, [&](auto t) {
      nll_loss_backward_frame<scalar_t, decltype(t)>(grad_input, grad_output, target.contiguous(), m.weight,
                                                     reduction, ignore_index, total_weight, m.shape);
    });
  });
  return grad_input;
}

// cross_entropy_loss: log_softmax over the class dim, then nll_loss_nd for class indices;
// for class probabilities (target shaped like the input) -sum(target * log_softmax). With
// label smoothing the target mixes with the uniform distribution over the C classes.
static Tensor cross_entropy_loss_prob_target(const Tensor& self, const Tensor& target_, const Tensor& weight,
                                             int64_t reduction, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t n_classes = self.size(class_dim);
  TORCH_CHECK(!weight.defined() || (weight.dim() == 1 && weight.numel() == n_classes),
              "cross_entropy: weight tensor should be defined either for all ", n_classes,
              " classes or no classes but got weight tensor of shape: ", weight.sizes());
  const Tensor input = at::log_softmax(self, class_dim, self.scalar_type());
  Tensor target = target_;
  if (label_smoothing > 0.0) {
    TORCH_CHECK(label_smoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    target = target_ * (1 - label_smoothing) + (label_smoothing / static_cast<double>(n_classes));
  }
  Tensor prod = input * target;
  if (weight.defined()) {
    std::vector<int64_t> shape(input.dim(), 1);
    if (input.dim() > 1) {
      shape[class_dim] = weight.size(0);
      prod = prod * weight.view(shape);
    } else {
      prod = prod * weight;
    }
  }
  switch (reduction) {
    case at::Reduction::Mean:
      if (input.numel() == 0) {
        return -prod.sum().fill_(std::numeric_limits<double>::quiet_NaN());
      }
      return -prod.sum() / static_cast<double>(input.numel() / n_classes);
    case at::Reduction::Sum:
      return -prod.sum();
    case at::Reduction::None:
      return -prod.sum(class_dim);
    default:
      TORCH_CHECK(false, "Invalid reduction type encountered in cross_entropy: ", reduction);
  }
}

static Tensor cross_entropy_loss_label_smoothing(const Tensor& self, const Tensor& target, const Tensor& weight,
                                                 int64_t reduction, int64_t ignore_index, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor input = at::log_softmax(self, class_dim, self.scalar_type());
  const Tensor nllloss = at::nll_loss_nd(input, target, weight, reduction, ignore_index);
  const int64_t n_classes = input.size(class_dim);
  const Tensor ignore_mask = target == ignore_index;
  Tensor smooth_loss;
  if (weight.defined()) {
    std::vector<int64_t> shape(input.dim(), 1);
    shape[class_dim] = weight.size(0);
    smooth_loss = -(input * weight.view(shape)).sum(class_dim);
  } else {
    smooth_loss = -input.sum(class_dim);
  }
  smooth_loss = smooth_loss.masked_fill(ignore_mask, 0.0);
  Tensor ret;
  switch (reduction) {
    case at::Reduction::Mean:
      if (weight.defined()) {
        // Normalized by the weights of the targets kept, as nll_loss_nd's mean is.
        ret = smooth_loss.sum() / weight.gather(0, target.masked_select(ignore_mask.logical_not()).flatten()).sum();
      } else {
        ret = smooth_loss.sum() / ignore_mask.logical_not().sum();
      }
      break;
    case at::Reduction::Sum:
      ret = smooth_loss.sum();
      break;
    case at::Reduction::None:
      ret = smooth_loss;
      break;
    default:
      TORCH_CHECK(false, "Invalid reduction type encountered in cross_entropy: ", reduction);
  }
  return (1 - label_smoothing) * nllloss + ret * (label_smoothing / static_cast<double>(n_classes));
}

Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                          int64_t reduction, int64_t ignore_index, double label_smoothing) {
  const Tensor weight_ = weight.has_value() ? *weight : Tensor();
  if (self.sizes() == target.sizes()) {
    TORCH_CHECK(c10::isFloatingType(target.scalar_type()),
                "Expected floating point type for target with class probabilities, got ", target.scalar_type());
    TORCH_CHECK(ignore_index < 0, "ignore_index is not supported for floating point target");
    return cross_entropy_loss_prob_target(self, target, weight_, reduction, label_smoothing);
  }
  if (label_smoothing > 0.0) {
    TORCH_CHECK(label_smoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    return cross_entropy_loss_label_smoothing(self, target, weight_, reduction, ignore_index, label_smoothing);
  }
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  return at::nll_loss_nd(at::log_softmax(self, class_dim, self.scalar_type()), target, weight, reduction,
                         ignore_index);
}

}  // namespace at::native
