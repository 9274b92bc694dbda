// aten/src/ATen/native/Unique.cpp - _unique2: the distinct values of a tensor, with the
// inverse (where each input element went) and the counts. Mirrors PyTorch's
// aten/src/ATen/native/Unique.cpp. Guide: docs/source/internals/tensor_iterator.rst.
// torch.unique (torch/functional.py) calls it.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace at::native {

// [marker: unique]
// Sort the flattened input (stably, through a permutation), then walk it: a new value starts
// a new output element. The output is sorted whatever `sorted` says (PyTorch's CPU result for
// sorted=False is in an unspecified order).
std::tuple<Tensor, Tensor, Tensor> _unique2_cpu(const Tensor& self, bool sorted, bool return_inverse,
                                                bool return_counts) {
  (void)sorted;
  Tensor input = self.contiguous();
  const int64_t n = input.numel();
  Tensor output, inverse, counts;
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, input.scalar_type(), "unique", [&] {
    const scalar_t* x = input.data_ptr<scalar_t>();
    std::vector<int64_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    auto less = [&](int64_t a, int64_t b) {
      if constexpr (std::is_floating_point_v<scalar_t>) {
        if (std::isnan(x[a])) return false;
        if (std::isnan(x[b])) return true;
      }
      return x[a] < x[b];
    };
    std::stable_sort(perm.begin(), perm.end(), less);
    std::vector<scalar_t> values;
    std::vector<int64_t> count_vec;
    std::vector<int64_t> inv(n);
    for (int64_t i = 0; i < n; i++) {
      const scalar_t v = x[perm[i]];
      // NaNs are all distinct, as in PyTorch.
      const bool same = !values.empty() && !less(perm[i - 1], perm[i]) && !less(perm[i], perm[i - 1]) &&
                        !(std::is_floating_point_v<scalar_t> && v != v);
      if (!same) {
        values.push_back(v);
        count_vec.push_back(0);
      }
      count_vec.back()++;
      inv[perm[i]] = static_cast<int64_t>(values.size()) - 1;
    }
    const int64_t m = static_cast<int64_t>(values.size());
    output = at::empty({m}, input.scalar_type(), std::nullopt, input.device(), std::nullopt, std::nullopt);
    std::copy(values.begin(), values.end(), output.data_ptr<scalar_t>());
    if (return_inverse) {
      inverse = at::empty(self.sizes(), kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
      std::copy(inv.begin(), inv.end(), inverse.data_ptr<int64_t>());
    } else {
      inverse = at::empty({0}, kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
    }
    if (return_counts) {
      counts = at::empty({m}, kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
      std::copy(count_vec.begin(), count_vec.end(), counts.data_ptr<int64_t>());
    } else {
      counts = at::empty({0}, kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
    }
  });
  return {output, inverse, counts};
}
// [end marker: unique]

}  // namespace at::native
