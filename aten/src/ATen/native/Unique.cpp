// aten/src/ATen/native/Unique.cpp - _unique2: the distinct values of a tensor, with the
// inverse (where each input element went) and the counts. Mirrors PyTorch's
// aten/src/ATen/native/Unique.cpp. Guide: docs/source/internals/tensor_iterator.rst.
// torch.unique (torch/functional.py) calls it.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace at::native {

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
    // NaN is the one value unequal to itself (for Half and BFloat16 too, which std::isnan and
    // std::is_floating_point do not know); it sorts last.
    auto is_nan = [](scalar_t v) { return v != v; };
    auto less = [&](int64_t a, int64_t b) {
      if (is_nan(x[a])) return false;
      if (is_nan(x[b])) return true;
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
                        !is_nan(v);
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


// The distinct slices along dim (torch.unique(x, dim=0): the distinct rows). The slices are
// flattened to rows of a [size(dim), rest] matrix, their indices sorted by comparing rows
// lexicographically, and equal neighbours merged. The rows come out sorted, as in PyTorch
// (sorted=False sorts too).
std::tuple<Tensor, Tensor, Tensor> unique_dim_cpu(const Tensor& self, int64_t dim, bool sorted, bool return_inverse,
                                                  bool return_counts) {
  (void)sorted;
  (void)return_inverse;
  (void)return_counts;
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.size(dim);
  Tensor rows = self.movedim(dim, 0).contiguous().view({n, -1});
  const int64_t width = rows.size(1);
  std::vector<int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  Tensor inverse, counts;
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, rows.scalar_type(), "unique_dim", [&] {
    const scalar_t* x = rows.const_data_ptr<scalar_t>();
    std::sort(perm.begin(), perm.end(), [&](int64_t a, int64_t b) {
      return std::lexicographical_compare(x + a * width, x + (a + 1) * width, x + b * width, x + (b + 1) * width);
    });
    std::vector<int64_t> keep;  // the first index of each run of equal rows
    std::vector<int64_t> inv(n), count_vec;
    for (int64_t i = 0; i < n; i++) {
      if (i == 0 || !std::equal(x + perm[i] * width, x + (perm[i] + 1) * width, x + perm[i - 1] * width)) {
        keep.push_back(perm[i]);
        count_vec.push_back(0);
      }
      inv[perm[i]] = static_cast<int64_t>(keep.size()) - 1;
      count_vec.back() += 1;
    }
    perm = keep;
    inverse = at::empty({n}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
    std::copy(inv.begin(), inv.end(), inverse.mutable_data_ptr<int64_t>());
    counts = at::empty({static_cast<int64_t>(count_vec.size())}, kLong, std::nullopt, self.device(), std::nullopt,
                       std::nullopt);
    std::copy(count_vec.begin(), count_vec.end(), counts.mutable_data_ptr<int64_t>());
  });
  Tensor index = at::empty({static_cast<int64_t>(perm.size())}, kLong, std::nullopt, self.device(), std::nullopt,
                           std::nullopt);
  std::copy(perm.begin(), perm.end(), index.mutable_data_ptr<int64_t>());
  return {self.index_select(dim, index), inverse, counts};
}

}  // namespace at::native
