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
#include <ATen/TensorOperators.h>
#include <ATen/native/Resize.h>
#include <ATen/native/SortingUtils.h>
#include <ATen/Parallel.h>
#include <c10/core/WrapDimMinimal.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
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

}  // namespace at::native

// ---- msort ----
namespace at::native {

// msort(x): x sorted along its first dimension (the values of sort(x, dim=0)).
Tensor msort(const Tensor& self) {
  return std::get<0>(at::sort(self, 0, false));
}

Tensor& msort(const Tensor& self, Tensor& out) {
  auto result = at::native::msort(self);
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

// ---- median, nanmedian ----------------------------------------------------------------------

// The lower median: the element of rank (n - 1) / 2, found with std::nth_element over the
// indices (NaN ranks above every number), as PyTorch's CPU kernel does, so among equal values
// the same index comes out. median returns NaN (and the first NaN's index) if a slice has one;
// nanmedian ignores NaNs (NaN only for an all-NaN slice).
template <typename scalar_t>
static bool median_isnan(scalar_t x) {
  if constexpr (std::is_integral_v<scalar_t>) {
    return false;
  } else {
    return std::isnan(static_cast<double>(x));
  }
}

static Tensor median_impl(const Tensor& self, bool ignore_nan) {
  const int64_t size = self.numel();
  if (size <= 0) {
    return at::full({}, std::numeric_limits<float>::quiet_NaN()).to(self.options());
  }
  Tensor in = self.contiguous().clone();
  Tensor out = at::empty({}, self.options());
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, in.scalar_type(), "median_cpu", [&] {
    scalar_t* op = out.data_ptr<scalar_t>();
    scalar_t* first = in.data_ptr<scalar_t>();
    scalar_t* last = first + size;
    if (!ignore_nan && std::any_of(first, last, median_isnan<scalar_t>)) {
      *op = static_cast<scalar_t>(std::numeric_limits<double>::quiet_NaN());
      return;
    }
    const int64_t num_nan = std::count_if(first, last, median_isnan<scalar_t>);
    scalar_t* median = first + (size - num_nan - 1) / 2;
    std::nth_element(first, median, last, [](scalar_t a, scalar_t b) {
      return a < b || (median_isnan(b) && !median_isnan(a));
    });
    *op = *median;
  });
  return out;
}

// Resizes values and indices to the shape of a reduction of self over dim (kept as 1 or
// dropped). A 0-d self is its own answer, at index 0: then it fills both and returns true.
static bool resize_values_indices_for_dim(Tensor& values, Tensor& indices, const Tensor& self, int64_t dim,
                                          bool keepdim) {
  std::vector<int64_t> out_shape = self.sizes().vec();
  if (self.dim() > 0) {
    if (keepdim) {
      out_shape[dim] = 1;
    } else {
      out_shape.erase(out_shape.begin() + dim);
    }
  }
  at::native::resize_output(values, out_shape);
  at::native::resize_output(indices, out_shape);
  if (self.dim() == 0) {
    values.copy_(self);
    indices.fill_(0);
    return true;
  }
  return false;
}

static std::tuple<Tensor&, Tensor&> median_with_indices_impl(Tensor& values, Tensor& indices, const Tensor& self,
                                                             int64_t dim, bool keepdim, bool ignore_nan) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t size = self.dim() > 0 ? self.size(dim) : 1;
  TORCH_CHECK(self.dim() == 0 || size > 0, "median() cannot compute median for a dimension of size 0 ",
              "because the operation does not have an identity");
  TORCH_CHECK(indices.scalar_type() == kLong, "median(): expected indices to be of type Long but got ",
              indices.scalar_type());
  if (resize_values_indices_for_dim(values, indices, self, dim, keepdim)) {
    return {values, indices};
  }
  const Tensor src = self.movedim(dim, -1).contiguous();
  const int64_t rows = size == 0 ? 0 : src.numel() / size;
  Tensor vals = at::empty({rows}, self.options());
  Tensor idx = at::empty({rows}, self.options().dtype(kLong));
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, src.scalar_type(), "median_out", [&] {
    const scalar_t* in = src.const_data_ptr<scalar_t>();
    scalar_t* vo = vals.data_ptr<scalar_t>();
    int64_t* io = idx.data_ptr<int64_t>();
    std::vector<int64_t> order(size);
    for (int64_t r = 0; r < rows; r++) {
      const scalar_t* val = in + r * size;
      if (!ignore_nan) {
        const scalar_t* nan = std::find_if(val, val + size, median_isnan<scalar_t>);
        if (nan != val + size) {
          vo[r] = *nan;
          io[r] = nan - val;
          continue;
        }
      }
      std::iota(order.begin(), order.end(), int64_t{0});
      const int64_t num_nan = std::count_if(val, val + size, median_isnan<scalar_t>);
      const int64_t md = (size - num_nan - 1) / 2;
      auto nth = order.begin() + (md < 0 ? 0 : md);
      std::nth_element(order.begin(), nth, order.end(), [&](int64_t a, int64_t b) {
        return val[a] < val[b] || (median_isnan(val[b]) && !median_isnan(val[a]));
      });
      vo[r] = val[*nth];
      io[r] = *nth;
    }
  });
  values.copy_(vals.reshape(values.sizes()));
  indices.copy_(idx.reshape(indices.sizes()));
  return {values, indices};
}

Tensor median_cpu(const Tensor& self) {
  return median_impl(self, /*ignore_nan=*/false);
}

Tensor nanmedian_cpu(const Tensor& self) {
  return median_impl(self, /*ignore_nan=*/true);
}

std::tuple<Tensor&, Tensor&> median_out_cpu(const Tensor& self, int64_t dim, bool keepdim, Tensor& values,
                                            Tensor& indices) {
  return median_with_indices_impl(values, indices, self, dim, keepdim, /*ignore_nan=*/false);
}

std::tuple<Tensor&, Tensor&> nanmedian_out_cpu(const Tensor& self, int64_t dim, bool keepdim, Tensor& values,
                                               Tensor& indices) {
  return median_with_indices_impl(values, indices, self, dim, keepdim, /*ignore_nan=*/true);
}

std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor values = at::empty({0}, self.options());
  Tensor indices = at::empty({0}, self.options().dtype(kLong));
  at::median_out(values, indices, self, dim, keepdim);
  return {values, indices};
}

std::tuple<Tensor, Tensor> nanmedian(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor values = at::empty({0}, self.options());
  Tensor indices = at::empty({0}, self.options().dtype(kLong));
  at::nanmedian_out(values, indices, self, dim, keepdim);
  return {values, indices};
}

// ---- quantile, nanquantile ------------------------------------------------------------------

// quantile: sort (flattened, or along dim moved last), turn q into fractional ranks
// q * (n - 1) (for nanquantile: n = the number of non-NaN values), pick the values at
// floor and ceil of the rank and lerp between them - all with differentiable ops, so autograd
// sees through it. A slice with a NaN gives NaN for quantile (its rank is set to the last
// position, where sort put the NaN).
namespace {
enum class QuantileMode { LINEAR, LOWER, HIGHER, MIDPOINT, NEAREST };

QuantileMode get_quantile_interpolation_mode(c10::string_view interpolation) {
  if (interpolation == "linear") return QuantileMode::LINEAR;
  if (interpolation == "lower") return QuantileMode::LOWER;
  if (interpolation == "higher") return QuantileMode::HIGHER;
  if (interpolation == "midpoint") return QuantileMode::MIDPOINT;
  if (interpolation == "nearest") return QuantileMode::NEAREST;
  TORCH_CHECK(false, "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, but got ",
              std::string(interpolation.data(), interpolation.size()));
}

void quantile_checks(const Tensor& self, const Tensor& q) {
  TORCH_CHECK(self.numel() > 0, "quantile() input tensor must be non-empty");
  TORCH_CHECK(q.dim() <= 1, "quantile() q must be a scalar or 1D tensor");
  TORCH_CHECK(self.scalar_type() == kFloat || self.scalar_type() == kDouble,
              "quantile() input tensor must be either float or double dtype");
  TORCH_CHECK(self.scalar_type() == q.scalar_type(), "quantile() q tensor must be same dtype as the input tensor");
  TORCH_CHECK(self.device() == q.device(), "quantile() q tensor must be on the same device as the input tensor");
}

std::vector<int64_t> quantile_output_shape(std::optional<int64_t> original_dim, const Tensor& self, const Tensor& q,
                                           bool keepdim, int64_t wrapped_dim) {
  std::vector<int64_t> out_shape;
  if (original_dim && self.dim() > 0) {
    out_shape = self.sizes().vec();
    if (keepdim) {
      out_shape[wrapped_dim] = 1;
    } else {
      out_shape.erase(out_shape.begin() + wrapped_dim);
    }
  } else if (keepdim) {
    out_shape = std::vector<int64_t>(self.dim(), 1);
  }
  if (q.dim() > 0) {
    out_shape.insert(out_shape.begin(), q.numel());
  }
  return out_shape;
}

Tensor quantile_compute(const Tensor& self, const Tensor& q, std::optional<int64_t> orig_dim, bool keepdim,
                        QuantileMode interpolation, bool ignore_nan, bool wrapped_scalar_q) {
  const int64_t dim = c10::maybe_wrap_dim(orig_dim.value_or(0), self.dim());
  std::vector<int64_t> out_shape = quantile_output_shape(orig_dim, self, q, keepdim, dim);
  if (self.device().is_cpu() && !wrapped_scalar_q) {
    TORCH_CHECK(q.lt(0).logical_or(q.gt(1)).sum().item().toLong() == 0, "quantile() q values must be in the range [0, 1]");
  }
  Tensor sorted;
  if (!orig_dim.has_value()) {
    sorted = std::get<0>(self.flatten().sort());
  } else {
    sorted = std::get<0>(self.unsqueeze(-1).transpose(dim, -1).sort());
  }
  // (*, n): the kept dims (out_shape without q's dim) and the sorted values.
  if (q.dim() == 0) {
    out_shape.insert(out_shape.begin(), q.numel());
  }
  std::vector<int64_t> in_shape(out_shape.size());
  std::copy(out_shape.begin() + 1, out_shape.end(), in_shape.begin());
  in_shape[in_shape.size() - 1] = sorted.size(-1);
  sorted = sorted.reshape(in_shape);
  TORCH_CHECK(sorted.size(-1) <= (int64_t{1} << 24), "quantile() input tensor is too large");

  Tensor ranks;
  if (ignore_nan) {
    ranks = q * (sorted.isnan().logical_not().sum(-1, true) - 1);
    ranks = ranks.masked_fill(ranks < 0, 0);
  } else {
    const int64_t last_index = sorted.size(-1) - 1;
    std::vector<Tensor> tl = at::broadcast_tensors({q * last_index, sorted.isnan().any(-1, true)});
    ranks = tl[0].masked_fill(tl[1], last_index);
  }
  if (interpolation == QuantileMode::LOWER) {
    ranks = ranks.floor();
  } else if (interpolation == QuantileMode::HIGHER) {
    ranks = ranks.ceil();
  } else if (interpolation == QuantileMode::NEAREST) {
    ranks = ranks.round();
  }
  const Tensor ranks_below = ranks.to(kLong);
  Tensor values_below = sorted.gather(-1, ranks_below);
  if (interpolation == QuantileMode::LINEAR || interpolation == QuantileMode::MIDPOINT) {
    const Tensor weights =
        interpolation == QuantileMode::MIDPOINT ? at::full_like(ranks, 0.5) : ranks - ranks_below;
    const Tensor ranks_above = ranks.ceil().to(kLong);
    const Tensor values_above = sorted.gather(-1, ranks_above);
    values_below = values_below.lerp(values_above, weights);
  }
  if (q.dim() == 0) {
    values_below = values_below.squeeze(-1);
  } else {
    values_below = values_below.unsqueeze(0).transpose(0, -1).squeeze(-1);
  }
  return values_below;
}

Tensor quantile_impl(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                     c10::string_view interpolation, bool ignore_nan, bool wrapped_scalar_q) {
  quantile_checks(self, q);
  const QuantileMode mode = get_quantile_interpolation_mode(interpolation);
  return quantile_compute(self, q, dim, keepdim, mode, ignore_nan, wrapped_scalar_q);
}

Tensor& quantile_out_impl(Tensor& out, const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                          c10::string_view interpolation, bool ignore_nan, bool wrapped_scalar_q) {
  TORCH_CHECK(self.scalar_type() == out.scalar_type(), "quantile() out tensor must be same dtype as the input tensor");
  TORCH_CHECK(self.device() == out.device(), "quantile() out tensor must be on the same device as the input tensor");
  const Tensor result = quantile_impl(self, q, dim, keepdim, interpolation, ignore_nan, wrapped_scalar_q);
  at::native::resize_output(out, result.sizes());
  out.copy_(result);
  return out;
}

Tensor scalar_q(const Tensor& self, double q) {
  TORCH_CHECK(q >= 0 && q <= 1, "quantile() q must be in the range [0, 1] but got ", q);
  return at::empty({}, self.options()).fill_(q);
}
}  // namespace

Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                c10::string_view interpolation) {
  return quantile_impl(self, q, dim, keepdim, interpolation, /*ignore_nan=*/false, /*wrapped_scalar_q=*/false);
}

Tensor quantile(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                c10::string_view interpolation) {
  return quantile_impl(self, scalar_q(self, q), dim, keepdim, interpolation, false, true);
}

Tensor& quantile_out(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                     c10::string_view interpolation, Tensor& out) {
  return quantile_out_impl(out, self, q, dim, keepdim, interpolation, false, false);
}

Tensor& quantile_out(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                     c10::string_view interpolation, Tensor& out) {
  return quantile_out_impl(out, self, scalar_q(self, q), dim, keepdim, interpolation, false, true);
}

Tensor nanquantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                   c10::string_view interpolation) {
  return quantile_impl(self, q, dim, keepdim, interpolation, /*ignore_nan=*/true, false);
}

Tensor nanquantile(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                   c10::string_view interpolation) {
  return quantile_impl(self, scalar_q(self, q), dim, keepdim, interpolation, true, true);
}

Tensor& nanquantile_out(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                        c10::string_view interpolation, Tensor& out) {
  return quantile_out_impl(out, self, q, dim, keepdim, interpolation, true, false);
}

Tensor& nanquantile_out(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                        c10::string_view interpolation, Tensor& out) {
  return quantile_out_impl(out, self, scalar_q(self, q), dim, keepdim, interpolation, true, true);
}

// mode along dim: the most frequent value of each slice (the smallest among equally
// frequent ones) and an index where it occurs. As PyTorch's CPU kernel: sort (value,
// position) pairs by value with std::sort, walk the runs, keep the first longest run, and
// report the position stored last in that run - so the index matches PyTorch's.
std::tuple<Tensor&, Tensor&> mode_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& values,
                                      Tensor& indices) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(self.dim() == 0 || self.size(dim) > 0, "mode(): Expected reduction dim ", dim,
              " to have non-zero size.");
  TORCH_CHECK(values.scalar_type() == self.scalar_type(), "mode(): expected values to be of type ",
              self.scalar_type(), " but got ", values.scalar_type());
  TORCH_CHECK(indices.scalar_type() == kLong, "mode(): expected indices to be of type Long but got ",
              indices.scalar_type());
  if (resize_values_indices_for_dim(values, indices, self, dim, keepdim)) {
    return {values, indices};
  }
  const Tensor src = self.movedim(dim, -1).contiguous();
  const int64_t size = src.size(-1);
  const int64_t rows = src.numel() / size;
  Tensor vals = at::empty({rows}, self.options());
  Tensor idx = at::empty({rows}, self.options().dtype(kLong));
  AT_DISPATCH_ALL_TYPES_AND3(kHalf, kBFloat16, kBool, src.scalar_type(), "mode_cpu", [&] {
    const scalar_t* in = src.const_data_ptr<scalar_t>();
    scalar_t* vo = vals.data_ptr<scalar_t>();
    int64_t* io = idx.data_ptr<int64_t>();
    std::vector<std::pair<scalar_t, int64_t>> elements(size);
    for (int64_t r = 0; r < rows; r++) {
      for (int64_t i = 0; i < size; i++) elements[i] = {in[r * size + i], i};
      std::sort(elements.begin(), elements.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      scalar_t mode = 0;
      int64_t modei = 0, temp_freq = 0, max_freq = 0;
      for (int64_t i = 0; i < size; i++) {
        temp_freq++;
        if (i == size - 1 || elements[i].first != elements[i + 1].first) {
          if (temp_freq > max_freq) {
            mode = elements[i].first;
            modei = elements[i].second;
            max_freq = temp_freq;
          }
          temp_freq = 0;
        }
      }
      vo[r] = mode;
      io[r] = modei;
    }
  });
  values.copy_(vals.reshape(values.sizes()));
  indices.copy_(idx.reshape(indices.sizes()));
  return {values, indices};
}

std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor values = at::empty({0}, self.options());
  Tensor indices = at::empty({0}, self.options().dtype(kLong));
  at::native::mode_out(self, dim, keepdim, values, indices);
  return {values, indices};
}

}  // namespace at::native
