// aten/src/ATen/native/ReduceOps.cpp - sum, mean, prod, amax/amin, max/min, argmax/argmin,
// all/any, var/std (+ _mean), norm, logsumexp, cumsum/cumprod, count_nonzero: result shapes,
// dtypes and checks, then the iterator (ReduceOpsUtils.h) and the stub (cpu/ReduceOpsKernel.cpp).
// Mirrors PyTorch's aten/src/ATen/native/ReduceOps.cpp (+ TensorCompare.cpp for max/min(dim),
// LinearAlgebra.cpp for linalg_vector_norm). Guide: docs/source/internals/tensor_iterator.rst.
#include <ATen/native/ReduceOps.h>

#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/native/ReduceOpsUtils.h>
#include <ATen/native/Resize.h>
#include <ATen/Dispatch.h>
#include <c10/core/WrapDimMinimal.h>

#include <cmath>
#include <limits>

namespace at::native {

DEFINE_DISPATCH(sum_stub);
DEFINE_DISPATCH(prod_stub);
DEFINE_DISPATCH(and_stub);
DEFINE_DISPATCH(or_stub);
DEFINE_DISPATCH(max_values_stub);
DEFINE_DISPATCH(min_values_stub);
DEFINE_DISPATCH(argmax_stub);
DEFINE_DISPATCH(argmin_stub);
DEFINE_DISPATCH(max_stub);
DEFINE_DISPATCH(min_stub);
DEFINE_DISPATCH(std_var_stub);
DEFINE_DISPATCH(norm_stub);
DEFINE_DISPATCH(cumsum_stub);
DEFINE_DISPATCH(cumprod_stub);

namespace {

// Number of elements folded into each output element.
int64_t reduced_numel(const Tensor& self, OptionalIntArrayRef dim) {
  auto mask = make_dim_mask(dim, self.dim());
  int64_t n = 1;
  for (int64_t d = 0; d < self.dim(); d++) {
    if (mask[d]) n *= self.size(d);
  }
  return n;
}

// Run a one-output reduction with identity `ident` (used as is when self is empty).
Tensor& reduce_into(const char* name, Tensor& result, const Tensor& self, OptionalIntArrayRef dim, bool keepdim,
                    ScalarType in_dtype, ScalarType out_dtype, reduce_fn stub_fn, std::optional<Scalar> ident) {
  auto iter = make_reduction(name, result, self, dim, keepdim, in_dtype, out_dtype);
  if (iter.numel() == 0) {
    if (ident.has_value()) result.fill_(*ident);
  } else {
    stub_fn(iter);
  }
  return result;
}

}  // namespace

// ---- sum, mean, prod -----------------------------------------------------------------------

Tensor& sum_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> opt_dtype,
                Tensor& result) {
  // out= decides the dtype unless dtype= is given; otherwise ints and bools sum into int64.
  ScalarType dtype = opt_dtype.has_value() ? *opt_dtype
                     : result.defined()    ? result.scalar_type()
                                           : get_dtype_from_self(self, opt_dtype, true);
  return reduce_into("sum", result, self, dim, keepdim, dtype, dtype,
                     [](TensorIteratorBase& it) { sum_stub(it.device_type(), it); }, Scalar(0));
}

Tensor sum_dim(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  Tensor result;
  return sum_out(self, dim, keepdim, dtype, result);
}

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return at::sum(self, IntArrayRef{}, false, dtype);
}

Tensor& mean_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> opt_dtype,
                 Tensor& result) {
  ScalarType dtype = result.defined() ? result.scalar_type() : (opt_dtype ? *opt_dtype : self.scalar_type());
  TORCH_CHECK(c10::isFloatingType(dtype) || c10::isComplexType(dtype),
              "mean(): could not infer output dtype. ",
              (opt_dtype.has_value() ? "Optional" : "Input"),
              " dtype must be either a floating point or complex dtype. Got: ", dtype);
  // The mean is the sum divided by the count (PyTorch's CPU path does the same).
  at::sum_out(result, self, dim, keepdim, dtype);
  const int64_t n = reduced_numel(self, dim);
  result.div_(static_cast<double>(n));
  return result;
}

Tensor mean_dim(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  ScalarType out_dtype = dtype ? *dtype : self.scalar_type();
  TORCH_CHECK(c10::isFloatingType(out_dtype) || c10::isComplexType(out_dtype),
              "mean(): could not infer output dtype. ", (dtype.has_value() ? "Optional" : "Input"),
              " dtype must be either a floating point or complex dtype. Got: ", out_dtype);
  Tensor result = at::empty({0}, out_dtype, std::nullopt, self.device(), std::nullopt, std::nullopt);
  return mean_out(self, dim, keepdim, dtype, result);
}

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return at::mean(self, IntArrayRef{}, false, dtype);
}

Tensor& prod_out(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> opt_dtype, Tensor& result) {
  ScalarType dtype = opt_dtype.has_value() ? *opt_dtype
                     : result.defined()    ? result.scalar_type()
                                           : get_dtype_from_self(self, opt_dtype, true);
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  return reduce_into("prod", result, self, IntArrayRef{d}, keepdim, dtype, dtype,
                     [](TensorIteratorBase& it) { prod_stub(it.device_type(), it); }, Scalar(1));
}

Tensor prod_dim(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  Tensor result;
  return prod_out(self, dim, keepdim, dtype, result);
}

Tensor prod(const Tensor& self, std::optional<ScalarType> opt_dtype) {
  Tensor result;
  ScalarType dtype = get_dtype_from_self(self, opt_dtype, true);
  return reduce_into("prod", result, self, IntArrayRef{}, false, dtype, dtype,
                     [](TensorIteratorBase& it) { prod_stub(it.device_type(), it); }, Scalar(1));
}

// ---- amax, amin, max, min -------------------------------------------------------------------

Tensor& amax_out(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& result) {
  TORCH_CHECK(self.scalar_type() == result.scalar_type(), "Expected the dtype for input and out to match, but got ",
              self.scalar_type(), " for input's dtype and ", result.scalar_type(), " for out's dtype.");
  if (self.numel() == 0) {
    zero_numel_check_dims(self, dim, "amax");
  }
  return reduce_into("amax", result, self, dim, keepdim, self.scalar_type(), self.scalar_type(),
                     [](TensorIteratorBase& it) { max_values_stub(it.device_type(), it); }, std::nullopt);
}

Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  Tensor result = at::empty({0}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  return amax_out(self, dim, keepdim, result);
}

Tensor& amin_out(const Tensor& self, IntArrayRef dim, bool keepdim, Tensor& result) {
  TORCH_CHECK(self.scalar_type() == result.scalar_type(), "Expected the dtype for input and out to match, but got ",
              self.scalar_type(), " for input's dtype and ", result.scalar_type(), " for out's dtype.");
  if (self.numel() == 0) {
    zero_numel_check_dims(self, dim, "amin");
  }
  return reduce_into("amin", result, self, dim, keepdim, self.scalar_type(), self.scalar_type(),
                     [](TensorIteratorBase& it) { min_values_stub(it.device_type(), it); }, std::nullopt);
}

Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  Tensor result = at::empty({0}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  return amin_out(self, dim, keepdim, result);
}

Tensor max(const Tensor& self) {
  TORCH_CHECK(self.numel() > 0, "max(): Expected reduction dim to be specified for input.numel() == 0. ",
              "Specify the reduction dim with the 'dim' argument.");
  TORCH_CHECK_NOT_IMPLEMENTED(!c10::isComplexType(self.scalar_type()), "\"max_all\" not implemented for '",
                              c10::toString(self.scalar_type()), "'");
  return at::amax(self, IntArrayRef{}, false);
}

Tensor min(const Tensor& self) {
  TORCH_CHECK(self.numel() > 0, "min(): Expected reduction dim to be specified for input.numel() == 0. ",
              "Specify the reduction dim with the 'dim' argument.");
  TORCH_CHECK_NOT_IMPLEMENTED(!c10::isComplexType(self.scalar_type()), "\"min_all\" not implemented for '",
                              c10::toString(self.scalar_type()), "'");
  return at::amin(self, IntArrayRef{}, false);
}

static void minmax_dim_out(const char* name, const Tensor& self, int64_t dim, bool keepdim, Tensor& values,
                           Tensor& indices, bool is_max) {
  TORCH_CHECK(!c10::isComplexType(self.scalar_type()), name, "(): does not support complex input");
  dim = c10::maybe_wrap_dim(dim, self.dim());
  zero_numel_check_dims(self, dim, name);
  TORCH_CHECK(self.scalar_type() == values.scalar_type(), "expected scalar_type ", self.scalar_type(),
              " but found ", values.scalar_type());
  TORCH_CHECK(indices.scalar_type() == kLong, "expected scalar_type Long but found ", indices.scalar_type());
  auto iter = make_reduction(name, values, indices, self, IntArrayRef{dim}, keepdim, self.scalar_type(), kLong);
  if (iter.numel() == 0) return;
  if (is_max) {
    max_stub(iter.device_type(), iter);
  } else {
    min_stub(iter.device_type(), iter);
  }
}

std::tuple<Tensor&, Tensor&> max_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& max, Tensor& max_values) {
  minmax_dim_out("max", self, dim, keepdim, max, max_values, true);
  return std::tuple<Tensor&, Tensor&>(max, max_values);
}

std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor values = at::empty({0}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  Tensor indices = at::empty({0}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
  minmax_dim_out("max", self, dim, keepdim, values, indices, true);
  return {values, indices};
}

std::tuple<Tensor&, Tensor&> min_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& min, Tensor& min_indices) {
  minmax_dim_out("min", self, dim, keepdim, min, min_indices, false);
  return std::tuple<Tensor&, Tensor&>(min, min_indices);
}

std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor values = at::empty({0}, self.scalar_type(), std::nullopt, self.device(), std::nullopt, std::nullopt);
  Tensor indices = at::empty({0}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
  minmax_dim_out("min", self, dim, keepdim, values, indices, false);
  return {values, indices};
}

// ---- argmax, argmin -------------------------------------------------------------------------

static Tensor& argminmax_out(const char* name, const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                             Tensor& result, bool is_max) {
  TORCH_CHECK(!c10::isComplexType(self.scalar_type()), name, "(): does not support complex input");
  TORCH_CHECK(self.scalar_type() != kBool, name, "(): does not support bool input");
  Tensor input;
  std::vector<int64_t> dims;
  if (dim.has_value()) {
    const int64_t d = c10::maybe_wrap_dim(*dim, self.dim());
    if (self.numel() == 0) zero_numel_check_dims(self, d, name);
    input = self;
    dims = {d};
  } else {
    TORCH_CHECK_INDEX(self.numel() != 0, name, "(): Expected reduction dim to be specified for input.numel() == 0.");
    // Over all elements: the index is into the flattened tensor.
    input = self.contiguous().view({-1});
    dims = {0};
    if (keepdim) {
      // The result keeps self's rank, all ones.
      std::vector<int64_t> ones(self.dim(), 1);
      Tensor flat = at::empty({0}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
      argminmax_out(name, self, std::nullopt, false, flat, is_max);
      resize_output(result, ones);
      result.copy_(flat.view(ones));
      return result;
    }
  }
  auto iter = make_reduction(name, result, input, dims, keepdim, input.scalar_type(), kLong);
  if (iter.numel() != 0) {
    if (is_max) {
      argmax_stub(iter.device_type(), iter);
    } else {
      argmin_stub(iter.device_type(), iter);
    }
  }
  return result;
}

Tensor& argmax_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& result) {
  return argminmax_out("argmax", self, dim, keepdim, result, true);
}
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  Tensor result = at::empty({0}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
  return argminmax_out("argmax", self, dim, keepdim, result, true);
}
Tensor& argmin_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& result) {
  return argminmax_out("argmin", self, dim, keepdim, result, false);
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  Tensor result = at::empty({0}, kLong, std::nullopt, self.device(), std::nullopt, std::nullopt);
  return argminmax_out("argmin", self, dim, keepdim, result, false);
}

// ---- all, any -------------------------------------------------------------------------------

// uint8 in, uint8 out (a legacy rule PyTorch keeps); any other dtype reduces as bool.
static Tensor& all_any_out(const char* name, const Tensor& self, OptionalIntArrayRef dim, bool keepdim, Tensor& result,
                           bool is_all) {
  const ScalarType out_dtype = result.defined() ? result.scalar_type() : (self.scalar_type() == kByte ? kByte : kBool);
  const ScalarType in_dtype = self.scalar_type() == kByte ? kByte : kBool;
  Tensor res = result;
  if (res.defined() && res.scalar_type() != in_dtype) {
    res = Tensor();
  }
  reduce_into(name, res, self, dim, keepdim, in_dtype, in_dtype,
              is_all ? reduce_fn([](TensorIteratorBase& it) { and_stub(it.device_type(), it); })
                     : reduce_fn([](TensorIteratorBase& it) { or_stub(it.device_type(), it); }),
              Scalar(is_all));
  if (!result.defined()) {
    result = res;
  } else if (!res.is_same(result)) {
    resize_output(result, res.sizes());
    result.copy_(res);
  }
  (void)out_dtype;
  return result;
}

Tensor all(const Tensor& self) {
  Tensor r;
  return all_any_out("all", self, std::nullopt, false, r, true);
}
Tensor all_dim(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor r;
  return all_any_out("all", self, IntArrayRef{dim}, keepdim, r, true);
}
Tensor all_dims(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  Tensor r;
  if (dim.has_value() && dim->empty()) return self.to(self.scalar_type() == kByte ? kByte : kBool);
  return all_any_out("all", self, dim, keepdim, r, true);
}
Tensor& all_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  return all_any_out("all", self, IntArrayRef{dim}, keepdim, out, true);
}
Tensor any(const Tensor& self) {
  Tensor r;
  return all_any_out("any", self, std::nullopt, false, r, false);
}
Tensor any_dim(const Tensor& self, int64_t dim, bool keepdim) {
  Tensor r;
  return all_any_out("any", self, IntArrayRef{dim}, keepdim, r, false);
}
Tensor any_dims(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  Tensor r;
  if (dim.has_value() && dim->empty()) return self.to(self.scalar_type() == kByte ? kByte : kBool);
  return all_any_out("any", self, dim, keepdim, r, false);
}
Tensor& any_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  return all_any_out("any", self, IntArrayRef{dim}, keepdim, out, false);
}

// ---- var, std and their _mean forms ---------------------------------------------------------

static void std_var_out(const char* fname, Tensor& result, Tensor* mean, const Tensor& self, OptionalIntArrayRef dim,
                        std::optional<Scalar> correction_opt, bool keepdim, bool take_sqrt) {
  TORCH_CHECK(c10::isFloatingType(self.scalar_type()) || c10::isComplexType(self.scalar_type()),
              "std and var only support floating point and complex dtypes");
  const double correction = correction_opt.has_value() ? correction_opt->toDouble() : 1.0;
  const ScalarType dtype = self.scalar_type();
  // The variance of complex values is real: the mean of |z - mean|^2 (var of the real parts
  // plus var of the imaginary parts); var_mean's mean stays complex.
  const ScalarType var_dtype = toRealValueType(dtype);
  // Each output averages over numel(input) / numel(output) elements; a correction that
  // large leaves no degrees of freedom (the result is inf or nan).
  auto warn_if_no_degrees_of_freedom = [&](const Tensor& out) {
    const int64_t reduction_factor = self.numel() / std::max<int64_t>(out.numel(), 1);
    if (static_cast<double>(reduction_factor) - correction <= 0) {
      TORCH_WARN(fname, "(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                 "factor (input numel divided by output numel).");
    }
  };
  if (mean == nullptr) {
    auto iter = make_reduction(fname, result, self, dim, keepdim, dtype, var_dtype);
    warn_if_no_degrees_of_freedom(result);
    if (iter.numel() == 0) {
      result.fill_(std::numeric_limits<double>::quiet_NaN());
    } else {
      std_var_stub(iter.device_type(), iter, correction, take_sqrt);
    }
  } else {
    auto iter = make_reduction(fname, result, *mean, self, dim, keepdim, var_dtype, dtype);
    warn_if_no_degrees_of_freedom(result);
    if (iter.numel() == 0) {
      result.fill_(std::numeric_limits<double>::quiet_NaN());
      mean->fill_(std::numeric_limits<double>::quiet_NaN());
    } else {
      std_var_stub(iter.device_type(), iter, correction, take_sqrt);
    }
  }
}

Tensor var_correction(const Tensor& self, OptionalIntArrayRef dim, std::optional<Scalar> correction,
                      bool keepdim) {
  Tensor result;
  std_var_out("var", result, nullptr, self, dim, correction, keepdim, false);
  return result;
}
Tensor& var_out(const Tensor& self, OptionalIntArrayRef dim, std::optional<Scalar> correction, bool keepdim,
                Tensor& out) {
  std_var_out("var", out, nullptr, self, dim, correction, keepdim, false);
  return out;
}
Tensor std_correction(const Tensor& self, OptionalIntArrayRef dim, std::optional<Scalar> correction,
                      bool keepdim) {
  Tensor result;
  std_var_out("std", result, nullptr, self, dim, correction, keepdim, true);
  return result;
}
Tensor& std_out(const Tensor& self, OptionalIntArrayRef dim, std::optional<Scalar> correction, bool keepdim,
                Tensor& out) {
  std_var_out("std", out, nullptr, self, dim, correction, keepdim, true);
  return out;
}
std::tuple<Tensor, Tensor> var_mean_correction(const Tensor& self, OptionalIntArrayRef dim,
                                               std::optional<Scalar> correction, bool keepdim) {
  Tensor result, mean;
  std_var_out("var_mean", result, &mean, self, dim, correction, keepdim, false);
  return {result, mean};
}
std::tuple<Tensor, Tensor> std_mean_correction(const Tensor& self, OptionalIntArrayRef dim,
                                               std::optional<Scalar> correction, bool keepdim) {
  Tensor result, mean;
  std_var_out("std_mean", result, &mean, self, dim, correction, keepdim, true);
  return {result, mean};
}

static std::optional<Scalar> correction_of(bool unbiased) {
  return Scalar(unbiased ? 1 : 0);
}

Tensor var(const Tensor& self, bool unbiased) {
  return at::var(self, std::nullopt, correction_of(unbiased), false);
}
Tensor var_dim(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return at::var(self, dim, correction_of(unbiased), keepdim);
}
Tensor std(const Tensor& self, bool unbiased) {
  return at::std(self, std::nullopt, correction_of(unbiased), false);
}
Tensor std_dim(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return at::std(self, dim, correction_of(unbiased), keepdim);
}
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased) {
  return at::var_mean(self, std::nullopt, correction_of(unbiased), false);
}
std::tuple<Tensor, Tensor> var_mean_dim(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return at::var_mean(self, dim, correction_of(unbiased), keepdim);
}
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased) {
  return at::std_mean(self, std::nullopt, correction_of(unbiased), false);
}
std::tuple<Tensor, Tensor> std_mean_dim(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return at::std_mean(self, dim, correction_of(unbiased), keepdim);
}

// ---- norms ----------------------------------------------------------------------------------

Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, OptionalIntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> opt_dtype) {
  TORCH_CHECK(c10::isFloatingType(self.scalar_type()) || c10::isComplexType(self.scalar_type()),
              "linalg.vector_norm: Expected a floating point or complex tensor as input. Got ", self.scalar_type());
  const double p = ord.toDouble();
  if (self.numel() == 0) {
    TORCH_CHECK(p >= 0 && !std::isinf(p),
                "linalg.vector_norm cannot compute the ", ord.toDouble(), " norm on an empty tensor because the "
                "operation does not have an identity");
  }
  const ScalarType self_dtype = self.scalar_type();
  if (opt_dtype.has_value()) {
    const ScalarType dtype = *opt_dtype;
    // The dtype a norm is computed in may widen the input, never narrow it or change its kind.
    TORCH_CHECK(c10::isFloatingType(dtype) || c10::isComplexType(dtype),
                "linalg.vector_norm: dtype should be floating point or complex, but got ", dtype);
    TORCH_CHECK(c10::isComplexType(self_dtype) == c10::isComplexType(dtype), "linalg.vector_norm: dtype should be ",
                c10::isComplexType(self_dtype) ? "complex" : "real", " for ", c10::isComplexType(self_dtype) ? "complex" : "real",
                " inputs, but got ", dtype);
    TORCH_CHECK(promoteTypes(self_dtype, dtype) == dtype, "linalg.vector_norm: the dtype of the input (", self_dtype,
                ") should be convertible without narrowing to the specified dtype (", dtype, ")");
  }
  // The norm of complex values is the norm of their absolute values, a real tensor.
  if (c10::isComplexType(self.scalar_type())) {
    return at::linalg_vector_norm(at::abs(self), ord, dim, keepdim,
                                  opt_dtype.has_value() ? std::optional<ScalarType>(toRealValueType(*opt_dtype))
                                                        : std::nullopt);
  }
  const ScalarType dtype = opt_dtype.value_or(self.scalar_type());
  Tensor result;
  auto iter = make_reduction("vector_norm", result, self, dim, keepdim, dtype, dtype);
  if (iter.numel() == 0) {
    result.zero_();
  } else {
    norm_stub(iter.device_type(), iter, p);
  }
  return result;
}

Tensor norm(const Tensor& self, const Scalar& p) {
  return at::linalg_vector_norm(self, p, std::nullopt, false, std::nullopt);
}
Tensor norm_dim(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim) {
  return at::linalg_vector_norm(self, p.value_or(2), dim, keepdim, std::nullopt);
}
Tensor norm_dim_dtype(const Tensor& self, std::optional<Scalar> p, IntArrayRef dim, bool keepdim,
                      ScalarType dtype) {
  return at::linalg_vector_norm(self, p.value_or(2), dim, keepdim, dtype);
}
Tensor norm_dtype(const Tensor& self, std::optional<Scalar> p, ScalarType dtype) {
  return at::linalg_vector_norm(self, p.value_or(2), std::nullopt, false, dtype);
}

// ---- logsumexp ------------------------------------------------------------------------------

// log(sum(exp(x))) = max + log(sum(exp(x - max))): exp never overflows. An infinite max is
// replaced by 0 so that inf - inf does not make a NaN.
Tensor& logsumexp_out(const Tensor& self, IntArrayRef dims, bool keepdim, Tensor& result) {
  const Tensor input = c10::isIntegralType(self.scalar_type(), true) ? self.to(c10::get_default_dtype_as_scalartype())
                                                                      : self;
  if (input.numel() != 0) {
    Tensor maxes = at::amax(input, dims, true);
    maxes.masked_fill_(at::isinf(maxes), Scalar(0));
    at::sum_out(result, at::exp(at::sub(input, maxes)), dims, keepdim, std::nullopt);
    result.log_();
    result.add_(maxes.view(result.sizes()));
  } else {
    at::sum_out(result, at::exp(input), dims, keepdim, std::nullopt);
    result.log_();
  }
  return result;
}

Tensor logsumexp(const Tensor& self, IntArrayRef dims, bool keepdim) {
  // PyTorch reduces an empty dim list over every dimension for the maximum (kept as size 1)
  // but not for the sum, and the two then do not broadcast into the 0-d result: its error.
  if (dims.empty() && !keepdim && self.dim() > 0 && self.numel() > 0) {
    std::vector<int64_t> ones(self.dim(), 1);
    TORCH_CHECK(false, "output with shape [] doesn't match the broadcast shape ", IntArrayRef(ones));
  }
  const ScalarType dtype =
      c10::isIntegralType(self.scalar_type(), true) ? c10::get_default_dtype_as_scalartype() : self.scalar_type();
  Tensor result = at::empty({0}, dtype, std::nullopt, self.device(), std::nullopt, std::nullopt);
  return logsumexp_out(self, dims, keepdim, result);
}

// ---- cumsum, cumprod ------------------------------------------------------------------------

static Tensor& cum_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& result, bool is_sum) {
  dim = c10::maybe_wrap_dim(dim, self.dim());
  const ScalarType out_dtype = dtype.has_value()    ? *dtype
                               : result.defined()   ? result.scalar_type()
                                                    : get_dtype_from_self(self, std::nullopt, true);
  if (!result.defined()) {
    result = at::empty(self.sizes(), out_dtype, std::nullopt, self.device(), std::nullopt, std::nullopt);
  } else {
    TORCH_CHECK(result.scalar_type() == out_dtype, "Expected out tensor to have dtype ", out_dtype, ", but got ",
                result.scalar_type(), " instead");
    resize_output(result, self.sizes());
  }
  const Tensor input = self.scalar_type() == out_dtype ? self : self.to(out_dtype);
  if (is_sum) {
    cumsum_stub(self.device().type(), result, input, dim);
  } else {
    cumprod_stub(self.device().type(), result, input, dim);
  }
  return result;
}

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  Tensor r;
  return cum_out(self, dim, dtype, r, true);
}
Tensor& cumsum_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out) {
  return cum_out(self, dim, dtype, out, true);
}
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  Tensor r;
  return cum_out(self, dim, dtype, r, false);
}
Tensor& cumprod_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, Tensor& out) {
  return cum_out(self, dim, dtype, out, false);
}

// ---- count_nonzero --------------------------------------------------------------------------

Tensor count_nonzero_dims(const Tensor& self, IntArrayRef dims) {
  return at::sum(self.ne(Scalar(0)), dims, false, kLong);
}

Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim) {
  if (dim.has_value()) {
    return at::count_nonzero(self, IntArrayRef{*dim});
  }
  return at::count_nonzero(self, IntArrayRef{});
}

}  // namespace at::native

// ---- diff, trace ----
namespace at::native {

namespace {
void diff_check_compatible_shape(const Tensor& self, const std::optional<Tensor>& other, int64_t dim) {
  if (!other.has_value()) {
    return;
  }
  const int64_t wrapped_dim = c10::maybe_wrap_dim(dim, self.dim(), false);
  TORCH_CHECK(other->dim() == self.dim(), "diff expects prepend or append to be the same dimension as input");
  for (int64_t i = 0; i < other->dim(); ++i) {
    if (i == wrapped_dim) {
      continue;
    }
    TORCH_CHECK(other->size(i) == self.size(i),
                "diff expects the shape of tensor to prepend or append to match that of input except along the "
                "differencing dimension; input.size(",
                i, ") = ", self.size(i), ", but got tensor.size(", i, ") = ", other->size(i));
  }
}

// n rounds of x[1:] - x[:-1] along dim (logical_xor for bool); n beyond the length gives an
// empty result.
Tensor diff_helper(const Tensor& self, int64_t n, int64_t dim) {
  if (n == 0) {
    return self.clone();
  }
  int64_t out_len = self.size(dim) - 1;
  Tensor result = self;
  const bool is_bool = self.scalar_type() == kBool;
  n = std::min(n, self.size(dim));
  for (int64_t i = 0; i < n; ++i) {
    auto later = result.narrow(dim, 1, out_len), earlier = result.narrow(dim, 0, out_len);
    result = is_bool ? at::logical_xor(later, earlier) : at::sub(later, earlier);
    out_len -= 1;
  }
  return result;
}
}  // namespace

Tensor diff(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
            const std::optional<Tensor>& append) {
  TORCH_CHECK(self.dim() >= 1, "diff expects input to be at least one-dimensional");
  TORCH_CHECK(n >= 0, "order must be non-negative but got ", n);
  diff_check_compatible_shape(self, prepend, dim);
  diff_check_compatible_shape(self, append, dim);
  if ((!prepend.has_value() && !append.has_value()) || n == 0) {
    return diff_helper(self, n, dim);
  }
  std::vector<Tensor> parts;
  if (prepend.has_value()) {
    parts.push_back(*prepend);
  }
  parts.push_back(self);
  if (append.has_value()) {
    parts.push_back(*append);
  }
  return diff_helper(at::cat(parts, dim), n, dim);
}

Tensor& diff(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
             const std::optional<Tensor>& append, Tensor& out) {
  auto result = at::native::diff(self, n, dim, prepend, append);
  at::native::resize_output(out, result.sizes());
  return out.copy_(result);
}

// trace: the sum of the main diagonal (integer inputs sum to int64, as sum does).
Tensor trace_cpu(const Tensor& self) {
  TORCH_CHECK_NOT_IMPLEMENTED(self.scalar_type() != kBool && self.scalar_type() != kComplexHalf,
                              "\"trace\" not implemented for '", c10::toString(self.scalar_type()), "'");
  TORCH_CHECK(self.dim() == 2, "trace: expected a matrix, but got tensor with dim ", self.dim());
  return self.diagonal().sum();
}

Tensor trace_cuda(const Tensor& self) {
  return at::native::trace_cpu(self);
}

// ---- nansum, aminmax, cummax/cummin ---------------------------------------------------------

// nansum: the sum with every NaN read as 0 - the same additions in the same order as sum
// (for float and double, PyTorch's cascade, cpu/SumKernel.cpp). Integers have no NaN.
Tensor& nansum_out(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> opt_dtype,
                   Tensor& result) {
  TORCH_CHECK(!c10::isComplexType(self.scalar_type()), "nansum on CPU does not support complex inputs");
  if (c10::isIntegralType(self.scalar_type(), /*includeBool=*/true)) {
    return at::sum_out(result, self, dim, keepdim, opt_dtype);
  }
  const ScalarType dtype = opt_dtype.has_value() ? *opt_dtype
                           : result.defined()    ? result.scalar_type()
                                                 : self.scalar_type();
  const Tensor zeroed = self.masked_fill(self.isnan(), 0);
  return at::sum_out(result, zeroed, dim, keepdim, dtype);
}

Tensor nansum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  Tensor result;
  if (c10::isIntegralType(self.scalar_type(), /*includeBool=*/true)) {
    return at::sum(self, dim, keepdim, dtype);
  }
  result = at::empty({0}, self.options().dtype(dtype.value_or(self.scalar_type())));
  return at::native::nansum_out(self, dim, keepdim, dtype, result);
}

// aminmax: amin and amax in one call, over one dim or (dim=None) everything.
std::tuple<Tensor&, Tensor&> aminmax_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, Tensor& min,
                                         Tensor& max) {
  TORCH_CHECK(min.scalar_type() == self.scalar_type(), "Expected out tensor to have dtype ", self.scalar_type(),
              ", but got ", min.scalar_type(), " instead");
  TORCH_CHECK(max.scalar_type() == self.scalar_type(), "Expected out tensor to have dtype ", self.scalar_type(),
              ", but got ", max.scalar_type(), " instead");
  std::vector<int64_t> dims;
  if (dim.has_value()) {
    const int64_t d = c10::maybe_wrap_dim(*dim, self.dim());
    TORCH_CHECK(self.dim() == 0 || self.size(d) != 0,
                "aminmax(): Expected reduction dim ", d, " to have non-zero size.");
    if (self.dim() > 0) dims.push_back(d);
  } else {
    TORCH_CHECK(self.numel() > 0,
                "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity.");
  }
  Tensor lo = at::amin(self, dims, keepdim);
  Tensor hi = at::amax(self, dims, keepdim);
  if (!dim.has_value() && keepdim) {
    // dim=None, keepdim=True: one element, with self.dim() dims of size 1.
    std::vector<int64_t> ones(self.dim(), 1);
    lo = lo.reshape(ones);
    hi = hi.reshape(ones);
  }
  at::native::resize_output(min, lo.sizes());
  at::native::resize_output(max, hi.sizes());
  min.copy_(lo);
  max.copy_(hi);
  return {min, max};
}

std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  Tensor min = at::empty({0}, self.options());
  Tensor max = at::empty({0}, self.options());
  at::native::aminmax_out(self, dim, keepdim, min, max);
  return {min, max};
}

// cummax/cummin along dim: the running extreme and the index where it was last reached
// (>= for cummax, <= for cummin, so ties move the index forward); once a NaN appears it is
// the running value, and each later NaN moves the index. Computed on the CPU, then moved to
// self's device, so it serves every device.
template <bool is_max>
static void cummaxmin_impl(const Tensor& self, Tensor& values, Tensor& indices, int64_t dim) {
  TORCH_CHECK(values.scalar_type() == self.scalar_type(), "expected scalar_type ", self.scalar_type(),
              " but found ", values.scalar_type());
  TORCH_CHECK(indices.scalar_type() == kLong, "expected scalar_type Long but found ", indices.scalar_type());
  dim = c10::maybe_wrap_dim(dim, self.dim());
  at::native::resize_output(values, self.sizes());
  at::native::resize_output(indices, self.sizes());
  if (self.numel() == 0) {
    return;
  }
  if (self.dim() == 0) {
    values.copy_(self);
    indices.fill_(0);
    return;
  }
  const Tensor src = at::empty(self.sizes(), self.options().device(kCPU)).copy_(self).movedim(dim, -1).contiguous();
  Tensor vals = at::empty_like(src);
  Tensor idx = at::empty(src.sizes(), src.options().dtype(kLong));
  const int64_t n = src.size(-1);
  const int64_t rows = src.numel() / n;
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, src.scalar_type(), "cummax_cummin_helper_cpu", [&] {
    const scalar_t* in = src.const_data_ptr<scalar_t>();
    scalar_t* vo = vals.data_ptr<scalar_t>();
    int64_t* io = idx.data_ptr<int64_t>();
    auto isnan_ = [](scalar_t x) {
      if constexpr (std::is_integral_v<scalar_t>) {
        return false;
      } else {
        return std::isnan(static_cast<double>(x));
      }
    };
    for (int64_t r = 0; r < rows; r++) {
      const scalar_t* x = in + r * n;
      scalar_t out = x[0];
      int64_t best = 0;
      for (int64_t i = 0; i < n; i++) {
        const scalar_t v = x[i];
        const bool better = is_max ? (v >= out) : (v <= out);
        if (isnan_(v) || (!isnan_(out) && better)) {
          out = v;
          best = i;
        }
        vo[r * n + i] = out;
        io[r * n + i] = best;
      }
    }
  });
  values.copy_(vals.movedim(-1, dim));
  indices.copy_(idx.movedim(-1, dim));
}

std::tuple<Tensor&, Tensor&> cummax_out(const Tensor& self, int64_t dim, Tensor& values, Tensor& indices) {
  cummaxmin_impl<true>(self, values, indices, dim);
  return {values, indices};
}

std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) {
  Tensor values = at::empty(self.sizes(), self.options());
  Tensor indices = at::empty(self.sizes(), self.options().dtype(kLong));
  at::native::cummax_out(self, dim, values, indices);
  return {values, indices};
}

std::tuple<Tensor&, Tensor&> cummin_out(const Tensor& self, int64_t dim, Tensor& values, Tensor& indices) {
  cummaxmin_impl<false>(self, values, indices, dim);
  return {values, indices};
}

std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) {
  Tensor values = at::empty(self.sizes(), self.options());
  Tensor indices = at::empty(self.sizes(), self.options().dtype(kLong));
  at::native::cummin_out(self, dim, values, indices);
  return {values, indices};
}

}  // namespace at::native
