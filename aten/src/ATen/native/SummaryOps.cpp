// aten/src/ATen/native/SummaryOps.cpp - bincount: how often each non-negative integer occurs
// (optionally the sum of weights per value). Mirrors PyTorch's
// aten/src/ATen/native/SummaryOps.cpp. Guide: docs/source/internals/programs/random_streams.rst.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

#include <algorithm>

namespace at::native {

// One bin per value 0..max(input) (at least minlength bins). Counts are int64; with weights
// the bins hold float sums for float weights and double sums for any other weight dtype.
template <typename input_t, typename weights_t>
static Tensor bincount_cpu_template(const Tensor& self, const Tensor& weights, int64_t minlength) {
  TORCH_CHECK(minlength >= 0, "minlength should be >= 0");
  if (self.dim() == 1 && self.numel() == 0) {
    return at::zeros({minlength}, kLong);
  }
  TORCH_CHECK(self.dim() == 1 && self.min().item().toLong() >= 0,
              "bincount only supports 1-d non-negative integral inputs.");
  const bool has_weights = weights.defined();
  TORCH_CHECK(!(has_weights && (weights.dim() != 1 || weights.size(0) != self.size(0))),
              "weights should be 1-d and have the same length as input");
  const int64_t n = self.size(0);
  const int64_t nbins = std::max<int64_t>(self.max().item().toLong() + 1, minlength);
  const input_t* in = self.const_data_ptr<input_t>();
  if (has_weights) {
    Tensor output = at::zeros({nbins}, weights.options());
    weights_t* out = output.data_ptr<weights_t>();
    const weights_t* w = weights.const_data_ptr<weights_t>();
    for (int64_t i = 0; i < n; i++) out[in[i]] += w[i];
    return output;
  }
  Tensor output = at::zeros({nbins}, kLong);
  int64_t* out = output.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; i++) out[in[i]] += 1;
  return output;
}

Tensor _bincount_cpu(const Tensor& self, const std::optional<Tensor>& weights_opt, int64_t minlength) {
  const Tensor weights = weights_opt.has_value() ? *weights_opt : Tensor();
  return AT_DISPATCH_INTEGRAL_TYPES(self.scalar_type(), "bincount_cpu", [&] {
    if (!weights.defined() || weights.scalar_type() == kFloat) {
      return bincount_cpu_template<scalar_t, float>(self.contiguous(),
                                                    weights.defined() ? weights.contiguous() : weights, minlength);
    }
    return bincount_cpu_template<scalar_t, double>(self.contiguous(), weights.contiguous().to(kDouble), minlength);
  });
}

}  // namespace at::native
