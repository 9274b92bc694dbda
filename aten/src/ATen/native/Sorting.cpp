// aten/src/ATen/native/Sorting.cpp - sort, argsort, topk and kthvalue along one dim.
// Mirrors PyTorch's aten/src/ATen/native/Sorting.cpp (+ cpu/SortingKernel.cpp, TopKImpl.h).
// Guide: docs/source/internals/tensor_iterator.rst.
//
// Each row along dim is sorted on its own (rows spread over threads), through a permutation
// of indices so values and indices come out together. NaN sorts as the largest value (last
// ascending, first descending), as in PyTorch; the sort is stable, so equal values keep
// their order.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/OpMathType.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/Resize.h>
#include <ATen/native/SortingUtils.h>
#include <ATen/Parallel.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace at::native {

namespace {

template <typename T>
inline bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else if constexpr (std::is_same_v<T, c10::Half> || std::is_same_v<T, c10::BFloat16>) {
    return v != v;  // compared as floats: NaN is the one value unequal to itself
  } else {
    return false;
  }
}

// a < b with NaN greater than everything.
template <typename T>
inline bool less_nan_last(T a, T b) {
  return !is_nan(a) && (is_nan(b) || a < b);
}

// [marker: sort_rows]
// Sort (k = n) or select the top k of every row along dim; returns (values, indices).
std::tuple<Tensor, Tensor> sort_rows(const Tensor& self, int64_t dim, bool descending, int64_t k) {
  Tensor input = self.dim() == 0 ? self.view({1}) : self.movedim(dim, -1).contiguous();
  const int64_t n = input.size(-1);
  std::vector<int64_t> out_shape = input.sizes().vec();
  out_shape.back() = k;
  Tensor values = at::empty(out_shape, input.scalar_type(), std::nullopt, input.device(), std::nullopt, std::nullopt);
  Tensor indices = at::empty(out_shape, kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
  const int64_t rows = n == 0 ? 0 : input.numel() / n;
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, input.scalar_type(), "sort", [&] {
    const scalar_t* in = input.data_ptr<scalar_t>();
    scalar_t* vout = values.data_ptr<scalar_t>();
    int64_t* iout = indices.data_ptr<int64_t>();
    at::parallel_for(0, rows, std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(n, 1)),
                     [&](int64_t begin, int64_t end) {
      std::vector<int64_t> perm(n);
      for (int64_t r = begin; r < end; r++) {
        const scalar_t* x = in + r * n;
        std::iota(perm.begin(), perm.end(), 0);
        auto cmp = [&](int64_t a, int64_t b) {
          return descending ? less_nan_last(x[b], x[a]) : less_nan_last(x[a], x[b]);
        };
        if (k == n) {
          std::stable_sort(perm.begin(), perm.end(), cmp);
        } else {
          std::partial_sort(perm.begin(), perm.begin() + k, perm.end(), [&](int64_t a, int64_t b) {
            return cmp(a, b) || (!cmp(b, a) && a < b);
          });
        }
        for (int64_t i = 0; i < k; i++) {
          vout[r * k + i] = x[perm[i]];
          iout[r * k + i] = perm[i];
        }
      }
    });
  });
  if (self.dim() == 0) {
    return {values.view(IntArrayRef{}), indices.view(IntArrayRef{})};
  }
  return {values.movedim(-1, dim).contiguous(), indices.movedim(-1, dim).contiguous()};
}
// [end marker: sort_rows]

}  // namespace

std::tuple<Tensor, Tensor> sort_stable(const Tensor& self, std::optional<bool> stable, int64_t dim, bool descending) {
  (void)stable;  // the CPU sort is always stable
  // Complex numbers have no order (PyTorch's message, leading space included).
  TORCH_CHECK(!c10::isComplexType(self.scalar_type()), " Sort does not support complex dtypes on CPU");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.dim() == 0 ? 1 : self.size(dim);
  return sort_rows(self, dim, descending, n);
}

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return at::sort(self, false, dim, descending);
}

std::tuple<Tensor&, Tensor&> sort_out(const Tensor& self, int64_t dim, bool descending, Tensor& values,
                                      Tensor& indices) {
  auto [v, i] = at::sort(self, false, dim, descending);
  at::native::resize_output(values, v.sizes());
  at::native::resize_output(indices, i.sizes());
  values.copy_(v);
  indices.copy_(i);
  return std::tuple<Tensor&, Tensor&>(values, indices);
}

// torch.topk(x, k, out=(values, indices)).
std::tuple<Tensor&, Tensor&> topk_out(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted,
                                      Tensor& values, Tensor& indices) {
  auto [v, i] = at::topk(self, k, dim, largest, sorted);
  at::native::resize_output(values, v.sizes());
  at::native::resize_output(indices, i.sizes());
  values.copy_(v);
  indices.copy_(i);
  return std::tuple<Tensor&, Tensor&>(values, indices);
}

Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(at::sort(self, false, dim, descending));
}

Tensor argsort_stable(const Tensor& self, bool stable, int64_t dim, bool descending) {
  return std::get<1>(at::sort(self, stable, dim, descending));
}

// [marker: topk]
// The top k of each row, as PyTorch's TopKImpl.h picks them: (value, index) pairs, a
// partial_sort when k is small against the row (k * 64 <= n), otherwise nth_element, which
// leaves the first k in no particular order; sorted=True then sorts them (nth_element
// already put the k-th in place, so only the first k - 1 are sorted). With sorted=False the
// order is whatever std::nth_element leaves, exactly as in PyTorch on the same C++ library.
// NaN counts as the largest value.
std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  dim = topk_check(self, k, dim);
  if (self.dim() == 0) {
    k = 1;  // a 0-d result holds the one element, even for k = 0, as in PyTorch
  }
  const int64_t n = self.dim() == 0 ? 1 : self.size(dim);
  TORCH_CHECK(self.scalar_type() != kBool, "topk does not support bool dtypes on CPU");
  TORCH_CHECK(!c10::isComplexType(self.scalar_type()), " topk does not support complex dtypes on CPU");
  Tensor input = self.dim() == 0 ? self.view({1}) : self.movedim(dim, -1).contiguous();
  std::vector<int64_t> out_shape = input.sizes().vec();
  out_shape.back() = k;
  Tensor values = at::empty(out_shape, input.scalar_type(), std::nullopt, input.device(), std::nullopt, std::nullopt);
  Tensor indices = at::empty(out_shape, kLong, std::nullopt, input.device(), std::nullopt, std::nullopt);
  const int64_t rows = n == 0 ? 0 : input.numel() / n;
  if (k > 0 && !input.is_meta()) {
    AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, input.scalar_type(), "topk_cpu", [&] {
      using acc_t = at::opmath_type<scalar_t>;
      using elem_t = std::pair<acc_t, int64_t>;
      const scalar_t* in = input.const_data_ptr<scalar_t>();
      scalar_t* vout = values.mutable_data_ptr<scalar_t>();
      int64_t* iout = indices.mutable_data_ptr<int64_t>();
      auto greater = [](const elem_t& x, const elem_t& y) {
        return (is_nan(x.first) && !is_nan(y.first)) || x.first > y.first;
      };
      auto less = [](const elem_t& x, const elem_t& y) {
        return (!is_nan(x.first) && is_nan(y.first)) || x.first < y.first;
      };
      at::parallel_for(0, rows, std::max<int64_t>(1, at::internal::GRAIN_SIZE / std::max<int64_t>(n, 1)),
                       [&](int64_t begin, int64_t end) {
        std::vector<elem_t> queue(n);
        for (int64_t r = begin; r < end; r++) {
          for (int64_t j = 0; j < n; j++) {
            queue[j] = {static_cast<acc_t>(in[r * n + j]), j};
          }
          auto select = [&](auto cmp) {
            if (k * 64 <= n) {
              std::partial_sort(queue.begin(), queue.begin() + k, queue.end(), cmp);
            } else {
              std::nth_element(queue.begin(), queue.begin() + k - 1, queue.end(), cmp);
              if (sorted) {
                std::sort(queue.begin(), queue.begin() + k - 1, cmp);
              }
            }
          };
          if (largest) {
            select(greater);
          } else {
            select(less);
          }
          for (int64_t j = 0; j < k; j++) {
            vout[r * k + j] = static_cast<scalar_t>(queue[j].first);
            iout[r * k + j] = queue[j].second;
          }
        }
      });
    });
  }
  if (self.dim() == 0) {
    return {values.view(IntArrayRef{}), indices.view(IntArrayRef{})};
  }
  return {values.movedim(-1, dim).contiguous(), indices.movedim(-1, dim).contiguous()};
}
// [end marker: topk]

// [marker: kthvalue_cpu]
// The k-th smallest element of each row along dim, and where it is. std::nth_element moves it
// to position k - 1 of a permutation of the row's indices in linear average time, without
// sorting the rest. NaN counts as the largest value. Equal values are told apart by their
// index, so the element returned is the one a stable sort would put at position k - 1: the
// same on every run and on every device (cuda/Sorting.cu picks the same one).
std::tuple<Tensor, Tensor> kthvalue_cpu(const Tensor& self, int64_t k, int64_t dim_, bool keepdim) {
  const int64_t dim = kthvalue_check(self, k, dim_);
  const std::vector<int64_t> out_shape = reduced_shape(self, dim, keepdim);
  Tensor input = self.dim() == 0 ? self.view({1}) : self.movedim(dim, -1).contiguous();
  const int64_t n = input.size(-1);
  const int64_t rows = input.numel() / n;  // n >= 1: kthvalue_check refused an empty dim
  Tensor values = at::empty({rows}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  Tensor indices = at::empty({rows}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "kthvalue_cpu", [&] {
    const scalar_t* in = input.const_data_ptr<scalar_t>();
    scalar_t* vout = values.mutable_data_ptr<scalar_t>();
    int64_t* iout = indices.mutable_data_ptr<int64_t>();
    at::parallel_for(0, rows, std::max<int64_t>(1, at::internal::GRAIN_SIZE / n), [&](int64_t begin, int64_t end) {
      std::vector<int64_t> perm(n);
      for (int64_t r = begin; r < end; r++) {
        const scalar_t* x = in + r * n;
        std::iota(perm.begin(), perm.end(), 0);
        std::nth_element(perm.begin(), perm.begin() + (k - 1), perm.end(), [&](int64_t a, int64_t b) {
          return less_nan_last(x[a], x[b]) || (!less_nan_last(x[b], x[a]) && a < b);
        });
        vout[r] = x[perm[k - 1]];
        iout[r] = perm[k - 1];
      }
    });
  });
  return {values.view(out_shape), indices.view(out_shape)};
}
// [end marker: kthvalue_cpu]

}  // namespace at::native
