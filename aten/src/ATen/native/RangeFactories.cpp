// aten/src/ATen/native/RangeFactories.cpp - arange and linspace: evenly spaced values.
// Mirrors PyTorch's aten/src/ATen/native/RangeFactories.cpp. Guide: docs/source/internals/one_call.rst.
//
// torch.arange(start, end, step) holds ceil((end - start) / step) values start + i * step,
// computed in double (int64 for integer dtypes) and rounded to the dtype. With no dtype,
// the result is int64 when start, end and step are all integers, the default dtype otherwise.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/OpMathType.h>
#include <ATen/native/RangeUtils.h>
#include <ATen/native/Resize.h>

#include <cmath>
#include <limits>
#include <type_traits>

namespace at::native {
namespace {

// double for floating dtypes (float included, as PyTorch's acc_type on CPU), int64 for integers.
template <typename scalar_t>
using range_acc_t = std::conditional_t<std::is_integral_v<scalar_t>, int64_t, double>;

}  // namespace

int64_t compute_arange_size(const Scalar& start, const Scalar& end, const Scalar& step, ScalarType dtype) {
  int64_t size = 0;
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, dtype, "arange_size", [&] {
    using accscalar_t = range_acc_t<scalar_t>;
    const auto xstart = start.to<accscalar_t>();
    const auto xend = end.to<accscalar_t>();
    const auto xstep = step.to<accscalar_t>();

    double size_d;
    if constexpr (std::is_same_v<scalar_t, int64_t>) {
      // In 128 bits: end - start of two int64s does not fit in 64 (arange(0, -2**63, -1)
      // would divide INT64_MIN by -1, which traps; PyTorch 2.13 dies there with SIGFPE).
      const int64_t sgn = (xstep > 0) - (xstep < 0);
      const __int128 span = static_cast<__int128>(xend) - xstart + xstep - sgn;
      size_d = xstep == 0 ? 0 : static_cast<double>(span / xstep);
    } else {
      size_d = std::ceil((end.toDouble() - start.toDouble()) / step.toDouble());
    }
    TORCH_CHECK(xstep > 0 || xstep < 0, "step must be nonzero");
    TORCH_CHECK(std::isfinite(static_cast<double>(xstart)) && std::isfinite(static_cast<double>(xend)),
                "unsupported range: ", xstart, " -> ", xend);
    TORCH_CHECK(((xstep > 0) && (xend >= xstart)) || ((xstep < 0) && (xend <= xstart)),
                "upper bound and lower bound inconsistent with step sign");
    // 2**63 itself does not fit (the double of INT64_MAX rounds up to it).
    TORCH_CHECK(size_d >= 0 && size_d < static_cast<double>(std::numeric_limits<int64_t>::max()),
                "invalid size, possible overflow?");
    size = static_cast<int64_t>(size_d);
  });
  return size;
}

Tensor& arange_out(const Scalar& start, const Scalar& end, const Scalar& step, Tensor& result) {
  const int64_t size = compute_arange_size(start, end, step, result.scalar_type());
  if (result.numel() != size) {
    result.resize_({size});
  }
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, result.scalar_type(), "arange_cpu", [&] {
    using accscalar_t = range_acc_t<scalar_t>;
    const auto xstart = start.to<accscalar_t>();
    const auto xstep = step.to<accscalar_t>();
    scalar_t* data = result.mutable_data_ptr<scalar_t>();
    const int64_t stride = result.stride(0);
    for (int64_t i = 0; i < size; i++) {
      data[i * stride] = static_cast<scalar_t>(xstart + static_cast<accscalar_t>(i) * xstep);
    }
  });
  return result;
}

// torch.arange(end, out=t): arange.out, the one-argument form of arange.start_out.
Tensor& arange_out(const Scalar& end, Tensor& result) {
  return at::arange_out(result, /*start=*/0, end, /*step=*/1);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<ScalarType> dtype,
              std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  if (!dtype.has_value()) {
    const bool all_integral = start.isIntegral(/*includeBool=*/true) && end.isIntegral(true) && step.isIntegral(true);
    dtype = all_integral ? kLong : c10::get_default_dtype_as_scalartype();
  }
  Tensor result = at::empty({0}, dtype, layout, device, pin_memory, std::nullopt);
  return at::arange_out(result, start, end, step);
}

Tensor arange(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype, std::optional<Layout> layout,
              std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::native::arange(start, end, /*step=*/1, dtype, layout, device, pin_memory);
}

Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Layout> layout,
              std::optional<Device> device, std::optional<bool> pin_memory) {
  return at::native::arange(/*start=*/0, end, /*step=*/1, dtype, layout, device, pin_memory);
}

// The first half counts up from start, the second half down from end, so both ends are
// exact (PyTorch's linspace kernel).
Tensor& linspace_out(const Scalar& start, const Scalar& end, int64_t steps, Tensor& result) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  if (result.numel() != steps) {
    result.resize_({steps});
  }
  if (steps == 0) {
    return result;
  }
  if (steps == 1) {
    return result.fill_(start);
  }
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, result.scalar_type(), "linspace_cpu", [&] {
    using acc_t = at::opmath_type<scalar_t>;
    using step_t = std::conditional_t<std::is_integral_v<scalar_t>, double, acc_t>;
    const acc_t xstart = static_cast<acc_t>(start.to<scalar_t>());
    const acc_t xend = static_cast<acc_t>(end.to<scalar_t>());
    const step_t step = (static_cast<step_t>(xend) - static_cast<step_t>(xstart)) / static_cast<step_t>(steps - 1);
    const int64_t halfway = steps / 2;
    scalar_t* data = result.mutable_data_ptr<scalar_t>();
    const int64_t stride = result.stride(0);
    for (int64_t i = 0; i < steps; i++) {
      data[i * stride] = i < halfway ? static_cast<scalar_t>(xstart + step * static_cast<step_t>(i))
                                     : static_cast<scalar_t>(xend - step * static_cast<step_t>(steps - i - 1));
    }
  });
  return result;
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor result = at::empty({steps}, dtype.value_or(c10::get_default_dtype_as_scalartype()), layout, device,
                            pin_memory, std::nullopt);
  return at::linspace_out(result, start, end, steps);
}

}  // namespace at::native

// ---- logspace ----
namespace at::native {

namespace {
// base^(start + i step), the second half counted back from end (as linspace does) so that the
// last element is base^end exactly. Integer dtypes compute in float, others in double, as
// PyTorch's CPU kernel does.
template <typename scalar_t, typename compute_t>
void fill_logspace(scalar_t* data, scalar_t start, scalar_t end, int64_t steps, compute_t base) {
  const compute_t step = static_cast<compute_t>(end - start) / static_cast<compute_t>(steps - 1);
  const int64_t halfway = steps / 2;
  for (int64_t i = 0; i < steps; ++i) {
    if (i < halfway) {
      data[i] = static_cast<scalar_t>(std::pow(base, static_cast<compute_t>(start) + step * i));
    } else {
      data[i] = static_cast<scalar_t>(std::pow(base, static_cast<compute_t>(end) - step * (steps - i - 1)));
    }
  }
}
}  // namespace

Tensor& logspace_out(const Scalar& start, const Scalar& end, int64_t steps, double base, Tensor& result) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  at::native::resize_output(result, {steps});
  if (result.is_meta() || steps == 0) {
    return result;
  }
  Tensor r = result.is_contiguous() ? result : result.contiguous();
  if (steps == 1) {
    r.fill_(std::pow(base, start.to<double>()));
  } else if (isIntegralType(r.scalar_type(), /*includeBool=*/false)) {
    AT_DISPATCH_INTEGRAL_TYPES(r.scalar_type(), "logspace_cpu", [&] {
      fill_logspace<scalar_t, float>(r.mutable_data_ptr<scalar_t>(), start.to<scalar_t>(), end.to<scalar_t>(), steps,
                                     static_cast<float>(base));
    });
  } else {
    AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, r.scalar_type(), "logspace_cpu", [&] {
      fill_logspace<scalar_t, double>(r.mutable_data_ptr<scalar_t>(), start.to<scalar_t>(), end.to<scalar_t>(), steps,
                                      base);
    });
  }
  if (!result.is_same(r)) {
    result.copy_(r);
  }
  return result;
}

// The values are computed on the host and copied to the device.
Tensor& logspace_cuda_out(const Scalar& start, const Scalar& end, int64_t steps, double base, Tensor& result) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor host = at::empty({steps}, result.scalar_type(), std::nullopt, kCPU, std::nullopt, std::nullopt);
  at::native::logspace_out(start, end, steps, base, host);
  at::native::resize_output(result, {steps});
  return result.copy_(host);
}

Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  Tensor result = at::empty({steps}, dtype.value_or(c10::get_default_dtype_as_scalartype()), layout, device,
                            pin_memory, std::nullopt);
  return at::logspace_out(result, start, end, steps, base);
}

}  // namespace at::native
