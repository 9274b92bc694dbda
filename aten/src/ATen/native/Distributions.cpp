// aten/src/ATen/native/Distributions.cpp - uniform_, normal_, random_, bernoulli_: filling a tensor from a Generator.
// Mirrors PyTorch's aten/src/ATen/native/Distributions.cpp and cpu/DistributionTemplates.h.
// Guide: docs/source/internals/one_call.rst.
//
// Each kernel takes the generator's mutex and draws one number per element, in the order
// TensorIterator visits them (memory order), so a seed fixes every value: with the same
// recipes as PyTorch (core/DistributionsHelper.h), torch.manual_seed(0); torch.rand(3) here
// prints what it prints in PyTorch. rand, randn, randint and the *_like factories
// (TensorFactories.cpp) are an empty tensor plus one of these.
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>
#include <ATen/NativeFunctions.h>
#include <ATen/TensorIterator.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/DistributionsHelper.h>
#include <ATen/native/DistributionTemplates.h>
#include <ATen/native/Resize.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/ExpandUtils.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/avx_mathfun.h>

#include <cmath>
#include <limits>
#include <mutex>
#include <vector>

namespace at::native {
namespace {

// An iterator over self alone that keeps self's shape (PyTorch's borrowing_nullary_op).
TensorIterator nullary_op_keeping_shape(const Tensor& self) {
  return TensorIteratorConfig()
      .set_check_mem_overlap(true)
      .check_all_same_dtype(false)
      .resize_outputs(false)
      .add_output(self)
      .build();
}

CPUGeneratorImpl* cpu_generator(const std::optional<Generator>& gen) {
  return get_generator_or_default<CPUGeneratorImpl>(gen, detail::getDefaultCPUGenerator());
}

// [marker: normal_fill]
// PyTorch's fast path for contiguous tensors of 16 or more elements: first fill with
// uniforms, then turn each block of 16 into normals with Box-Muller (pairs j, j + 8). A
// tail that is not a multiple of 16 redraws the last 16 elements.
//
// double: libm's log, cos and sin, the result scaled by one fused multiply-add.
template <typename acc_t>
void normal_fill_16(acc_t* data, acc_t mean, acc_t std) {
  for (int j = 0; j < 8; j++) {
    const acc_t u1 = 1 - data[j];  // [0, 1) -> (0, 1] for log
    const acc_t u2 = data[j + 8];
    const acc_t radius = std::sqrt(-2 * std::log(u1));
    const acc_t theta = static_cast<acc_t>(2.0 * M_PI * static_cast<double>(u2));
    data[j] = std::fma(radius * std::cos(theta), std, mean);
    data[j + 8] = std::fma(radius * std::sin(theta), std, mean);
  }
}

// float (and half/bfloat16, computed in float): PyTorch's x86 builds use the 8-wide AVX2
// version (normal_fill_16_AVX2) whose log and sincos are cpu/avx_mathfun.h's polynomials.
template <>
void normal_fill_16<float>(float* data, float mean, float std) {
  const float two_pi = static_cast<float>(2.0 * M_PI);
  for (int j = 0; j < 8; j++) {
    const float u1 = 1.0f - data[j];
    const float u2 = data[j + 8];
    const float radius = std::sqrt(-2.0f * avx_mathfun::log256_ps(u1));
    const float theta = two_pi * u2;
    float sin_theta = 0, cos_theta = 0;
    avx_mathfun::sincos256_ps(theta, &sin_theta, &cos_theta);
    data[j] = std::fma(radius * cos_theta, std, mean);
    data[j + 8] = std::fma(radius * sin_theta, std, mean);
  }
}

template <typename scalar_t>
void normal_fill(const Tensor& self, double mean, double std, CPUGeneratorImpl* generator) {
  using acc_t = at::opmath_type<scalar_t>;
  const int64_t size = self.numel();
  const acc_t mean_a = static_cast<acc_t>(mean), std_a = static_cast<acc_t>(std);
  uniform_real_distribution<scalar_t> uniform(0, 1);
  scalar_t* data = self.mutable_data_ptr<scalar_t>();
  if constexpr (std::is_same_v<acc_t, scalar_t>) {
    // float and double: all uniforms into the tensor, then the blocks in place.
    for (int64_t i = 0; i < size; i++) {
      data[i] = uniform(generator);
    }
    for (int64_t i = 0; i < size - 15; i += 16) {
      normal_fill_16<acc_t>(data + i, mean_a, std_a);
    }
    if (size % 16 != 0) {
      acc_t* tail = data + size - 16;
      for (int i = 0; i < 16; i++) {
        tail[i] = uniform(generator);
      }
      normal_fill_16<acc_t>(tail, mean_a, std_a);
    }
  } else {
    // half and bfloat16: each block is drawn and transformed in float (a uniform rounded
    // to 1.0 in half would make log(1 - u) infinite), then rounded into the tensor. Only
    // whole blocks are drawn before the tail, unlike the float path above.
    acc_t buf[16];
    auto fill_block = [&](int64_t offset) {
      for (int j = 0; j < 16; j++) {
        buf[j] = uniform(generator);
      }
      normal_fill_16<acc_t>(buf, mean_a, std_a);
      for (int j = 0; j < 16; j++) {
        data[offset + j] = static_cast<scalar_t>(buf[j]);
      }
    };
    for (int64_t i = 0; i < size - 15; i += 16) {
      fill_block(i);
    }
    if (size % 16 != 0) {
      fill_block(size - 16);
    }
  }
}
// [end marker: normal_fill]

}  // namespace

Tensor& uniform_(Tensor& self, double from, double to, std::optional<Generator> gen) {
  // Complex: each part uniform in [from, to).
  if (templates::fill_complex_as_real(self, [&](Tensor& parts) { parts.uniform_(from, to, gen); })) {
    return self;
  }
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "check_uniform_bounds", [&] {
    TORCH_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but found from=", from, " > to=", to);
    TORCH_CHECK((to - from) <= static_cast<double>(std::numeric_limits<float>::max()) ||
                    (std::is_same_v<scalar_t, double>),
                "uniform_ expects to-from <= std::numeric_limits<", self.dtype(), ">::max(), but found to=", to,
                " and from=", from, " which result in to-from to exceed the limit");
  });
  if (self.numel() == 0) {
    return self;
  }
  CPUGeneratorImpl* generator = cpu_generator(gen);
  auto iter = nullary_op_keeping_shape(self);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "uniform_kernel_cpu", [&] {
    std::lock_guard<std::mutex> lock(generator->mutex_);
    using acc_t = at::opmath_type<scalar_t>;
    // from/to are first rounded to the tensor's dtype, as in PyTorch.
    uniform_real_distribution<scalar_t> uniform(static_cast<acc_t>(static_cast<scalar_t>(from)),
                                                static_cast<acc_t>(static_cast<scalar_t>(to)));
    // A draw that rounds up to `to` in the tensor's dtype (Half, BFloat16) becomes `from`, so
    // the values stay in [from, to), as in PyTorch.
    const scalar_t from_s = static_cast<scalar_t>(from);
    const scalar_t to_s = static_cast<scalar_t>(to);
    cpu_serial_kernel(iter, [&]() -> scalar_t {
      const scalar_t value = static_cast<scalar_t>(uniform(generator));
      return static_cast<acc_t>(value) == static_cast<acc_t>(to_s) ? from_s : value;
    });
  });
  return self;
}

Tensor& normal_(Tensor& self, double mean, double std, std::optional<Generator> gen) {
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  // Complex: the variance is split evenly between the two parts, std / sqrt(2) each.
  if (templates::fill_complex_as_real(
          self, [&](Tensor& parts) { parts.normal_(mean, std / std::sqrt(2.0), gen); })) {
    return self;
  }
  if (self.numel() == 0) {
    return self;
  }
  CPUGeneratorImpl* generator = cpu_generator(gen);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "normal_kernel_cpu", [&] {
    std::lock_guard<std::mutex> lock(generator->mutex_);
    if (self.numel() >= 16 && self.is_contiguous()) {
      normal_fill<scalar_t>(self, mean, std, generator);
    } else {
      auto iter = nullary_op_keeping_shape(self);
      normal_distribution normal(mean, std);
      cpu_serial_kernel(iter, [&]() -> scalar_t { return static_cast<scalar_t>(normal(generator)); });
    }
  });
  return self;
}

// from and to - 1 must be values of the tensor's dtype (PyTorch's check_from_to_in_range,
// aten/src/ATen/native/DistributionTemplates.h): randint(0, 300, dtype=torch.uint8) is an
// error, not numbers wrapped modulo 256. For floating types the bounds are the type's
// finite range (65504 for Half).
static void check_from_to_in_range(int64_t from, int64_t to_inc, ScalarType dtype) {
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, dtype, "check_random_bounds", [&] {
    // The C++ type's name, as PyTorch prints it ("short int", "unsigned char").
    const char* name = caffe2::TypeMeta::fromScalarType(dtype).name();
    long double lo = 0, hi = 1;
    if constexpr (std::is_integral_v<scalar_t> && !std::is_same_v<scalar_t, bool>) {
      lo = static_cast<long double>(std::numeric_limits<scalar_t>::lowest());
      hi = static_cast<long double>(std::numeric_limits<scalar_t>::max());
    } else if constexpr (std::is_same_v<scalar_t, c10::Half>) {
      hi = 65504.0L;
      lo = -hi;
    } else if constexpr (std::is_same_v<scalar_t, c10::BFloat16>) {
      hi = 3.38953138925153547590e38L;
      lo = -hi;
    } else if constexpr (!std::is_same_v<scalar_t, bool>) {
      hi = static_cast<long double>(std::numeric_limits<scalar_t>::max());
      lo = -hi;
    }
    const auto f = static_cast<long double>(from), t = static_cast<long double>(to_inc);
    TORCH_CHECK(f >= lo && f <= hi, "from is out of bounds for ", name);
    TORCH_CHECK(t >= lo && t <= hi, "to - 1 is out of bounds for ", name);
  });
}

// random_(from, to): integers in [from, to) (to=None: up to the dtype's largest exact integer).
Tensor& random_(Tensor& self, int64_t from, std::optional<int64_t> to_opt, std::optional<Generator> gen) {
  int64_t to = 0;
  // int64 with no `to`: the range reaches INT64_MAX itself, which no exclusive int64 bound
  // can express (PyTorch's to_inc): range = INT64_MAX - from + 1.
  bool to_inclusive = false;
  if (to_opt.has_value()) {
    to = *to_opt;
  } else {
    AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "random_from_to_range_calc", [&] {
      if constexpr (std::is_same_v<scalar_t, bool>) {
        to = 2;
      } else if constexpr (std::is_floating_point_v<scalar_t> || std::is_same_v<scalar_t, c10::Half> ||
                           std::is_same_v<scalar_t, c10::BFloat16>) {
        to = (int64_t{1} << uniform_digits<scalar_t>::value) + 1;
      } else if constexpr (std::is_same_v<scalar_t, int64_t>) {
        to = std::numeric_limits<int64_t>::max();
        to_inclusive = true;
      } else {
        to = static_cast<int64_t>(std::numeric_limits<scalar_t>::max()) + 1;
      }
    });
  }
  TORCH_CHECK(from < to, "random_ expects 'from' to be less than 'to', but got from=", from, " >= to=", to);
  if (to_opt.has_value()) {
    check_from_to_in_range(from, to - 1, self.scalar_type());
  }
  if (self.numel() == 0) {
    return self;
  }
  const uint64_t range = static_cast<uint64_t>(to) - static_cast<uint64_t>(from) + (to_inclusive ? 1 : 0);
  auto iter = nullary_op_keeping_shape(self);
  random_from_to_stub(self.device().type(), iter, range, from, gen);
  return self;
}

namespace {

void random_from_to_kernel(TensorIteratorBase& iter, uint64_t range, int64_t base, std::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, iter.dtype(), "random_from_to_kernel_cpu", [&] {
    std::lock_guard<std::mutex> lock(generator->mutex_);
    cpu_serial_kernel(iter, [&]() -> scalar_t {
      // 32 random bits for ranges below 2**28, 64 from there on (PyTorch's threshold: with
      // 32 bits, `bits % range` would favour the low values of a large range too much).
      if (range >= (uint64_t{1} << 28)) {
        return static_cast<scalar_t>(transformation::uniform_int_from_to(generator->random64(), range, base));
      }
      return static_cast<scalar_t>(transformation::uniform_int_from_to(generator->random(), range, base));
    });
  });
}

// One draw per element in memory order: a double uniform for a number p, and for a tensor
// of p a uniform of p's precision (double for float64 p, else float), as PyTorch's
// cpu/DistributionTemplates.h draws them, so a seed gives PyTorch's values.
void bernoulli_scalar_kernel(const TensorBase& self, double p, std::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  auto iter = nullary_op_keeping_shape(Tensor(self));
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "bernoulli_scalar_cpu_", [&] {
    std::lock_guard<std::mutex> lock(generator->mutex_);
    cpu_serial_kernel(iter, [p, generator]() -> scalar_t {
      const uniform_real_distribution<double> uniform(0, 1);
      return static_cast<scalar_t>(uniform(generator) < p);
    });
  });
}

void bernoulli_tensor_kernel(const TensorBase& self, const TensorBase& p, std::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  auto iter = TensorIteratorConfig()
                  .resize_outputs(false)
                  .check_all_same_dtype(false)
                  .add_output(Tensor(self))
                  .add_const_input(Tensor(p))
                  .build();
  AT_DISPATCH_ALL_TYPES_AND3(kBool, kHalf, kBFloat16, self.scalar_type(), "bernoulli_tensor_cpu_self_", [&] {
    using self_t = scalar_t;
    std::lock_guard<std::mutex> lock(generator->mutex_);
    if (p.scalar_type() == kDouble) {
      cpu_serial_kernel(iter, [generator](const double p_in) -> self_t {
        TORCH_CHECK(p_in >= 0 && p_in <= 1);
        const uniform_real_distribution<double> uniform(0, 1);
        return static_cast<self_t>(uniform(generator) < p_in);
      });
    } else {
      AT_DISPATCH_FLOATING_TYPES_AND2(kBFloat16, kHalf, p.scalar_type(), "bernoulli_tensor_cpu_p_", [&] {
        using p_t = scalar_t;
        cpu_serial_kernel(iter, [generator](const p_t p_value) -> self_t {
          const float p_in = static_cast<float>(p_value);
          TORCH_CHECK(p_in >= 0 && p_in <= 1);
          const uniform_real_distribution<float> uniform(0, 1);
          return static_cast<self_t>(uniform(generator) < p_in);
        });
      });
    }
  });
}

}  // namespace

DEFINE_DISPATCH(random_from_to_stub);
DEFINE_DISPATCH(bernoulli_scalar_stub);
DEFINE_DISPATCH(bernoulli_tensor_stub);
REGISTER_DISPATCH(random_from_to_stub, &random_from_to_kernel);
REGISTER_DISPATCH(bernoulli_scalar_stub, &bernoulli_scalar_kernel);
REGISTER_DISPATCH(bernoulli_tensor_stub, &bernoulli_tensor_kernel);

// bernoulli_(p) and bernoulli_(p_tensor) check their arguments here, for every device, and
// leave the drawing to the device's kernel. torch.bernoulli(p) fills a new tensor shaped
// like p, of p's dtype.
Tensor& bernoulli_(Tensor& self, double p, std::optional<Generator> gen) {
  TORCH_CHECK(0 <= p && p <= 1, "bernoulli_ expects p to be in [0, 1], but got p=", p);
  if (self.numel() == 0) {
    return self;
  }
  bernoulli_scalar_stub(self.device().type(), self, p, gen);
  return self;
}

Tensor& bernoulli_(Tensor& self, const Tensor& p, std::optional<Generator> gen) {
  // p broadcasts to self, never the other way (the in-place rule: expand's error otherwise).
  // A CPU p may fill a CUDA self (PyTorch moves it); the CUDA kernel reads it from the device.
  const Tensor p_expanded = p.to(self.device(), p.scalar_type()).expand(self.sizes());
  if (self.numel() == 0) {
    return self;
  }
  bernoulli_tensor_stub(self.device().type(), self, p_expanded, gen);
  return self;
}

Tensor bernoulli(const Tensor& self, std::optional<Generator> gen) {
  Tensor result = at::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Contiguous);
  result.bernoulli_(self, gen);
  return result;
}

Tensor bernoulli(const Tensor& self, double p, std::optional<Generator> gen) {
  Tensor result = at::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Contiguous);
  result.bernoulli_(p, gen);
  return result;
}

// random_.to and random_: the other two overloads, written with random_.from.
Tensor& random_(Tensor& self, int64_t to, std::optional<Generator> gen) {
  return self.random_(/*from=*/0, to, gen);
}

Tensor& random_(Tensor& self, std::optional<Generator> gen) {
  return self.random_(/*from=*/0, std::nullopt, gen);
}

// The largest value randperm writes, n - 1, must fit the result type, and a floating type
// must hold every integer up to n exactly (else two positions get the same value). Checked
// before allocating: randperm(2**31, dtype=torch.int8) fails at once instead of shuffling
// two billion bytes.
static void check_supported_max_int_with_precision(int64_t n, ScalarType type) {
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, type, "randperm_cpu", [&] {
    c10::Scalar(n > 0 ? n - 1 : n).to<scalar_t>();
  });
  switch (type) {
    case ScalarType::Half:
      TORCH_CHECK(n <= (int64_t(1) << 11) + 1, "n cannot be greater than 2049 for Half type.");
      break;
    case ScalarType::Float:
      TORCH_CHECK(n <= (int64_t(1) << 24) + 1, "n cannot be greater than 2^24+1 for Float type.");
      break;
    case ScalarType::Double:
      TORCH_CHECK(n <= (int64_t(1) << 53) + 1, "n cannot be greater than 2^53+1 for Double type.");
      break;
    default:
      break;
  }
}

// torch.randperm(n): a Fisher-Yates shuffle of 0..n-1 whose i-th swap partner is
// i + random() % (n - i), one 32-bit draw per step, as PyTorch's randperm_cpu draws it (so
// a seeded generator gives PyTorch's permutation).
Tensor randperm(int64_t n, std::optional<Generator> gen, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  const ScalarType result_type = dtype.value_or(kLong);
  check_supported_max_int_with_precision(n, result_type);
  Tensor result = at::empty({n}, result_type, layout, device, pin_memory, std::nullopt);
  CPUGeneratorImpl* generator = cpu_generator(gen);
  AT_DISPATCH_ALL_TYPES_AND2(kHalf, kBFloat16, result.scalar_type(), "randperm_cpu", [&] {
    scalar_t* r = result.data_ptr<scalar_t>();
    for (int64_t i = 0; i < n; i++) {
      r[i] = static_cast<scalar_t>(i);
    }
    std::lock_guard<std::mutex> lock(generator->mutex_);
    for (int64_t i = 0; i < n - 1; i++) {
      const int64_t z = static_cast<int64_t>(generator->random() % static_cast<uint64_t>(n - i));
      std::swap(r[i], r[z + i]);
    }
  });
  return result;
}

Tensor randperm(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory) {
  return at::native::randperm(n, std::nullopt, dtype, layout, device, pin_memory);
}

// exponential_(lambd): -log(1 - u) / lambd from one double uniform per element, in memory
// order (PyTorch's CPU kernel; its MKL path is switched off in PyTorch's builds).
Tensor& exponential_(Tensor& self, double lambd, std::optional<Generator> gen) {
  TORCH_CHECK(lambd > 0.0, "exponential_ expects lambda > 0.0, but found lambda=", lambd);
  TORCH_CHECK(c10::isFloatingType(self.scalar_type()),
              "Exponential distribution is a continuous probability distribution. ",
              "dtype must be a floating point but you specified ", self.dtype());
  if (self.numel() == 0) {
    return self;
  }
  CPUGeneratorImpl* generator = cpu_generator(gen);
  auto iter = nullary_op_keeping_shape(self);
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "exponential_cpu", [&] {
    std::lock_guard<std::mutex> lock(generator->mutex_);
    cpu_serial_kernel(iter, [&]() -> scalar_t {
      const uniform_real_distribution<double> uniform(0.0, 1.0);
      return static_cast<scalar_t>(static_cast<double>(-1.0) / lambd * std::log1p(-uniform(generator)));
    });
  });
  return self;
}

// torch.normal with tensor arguments: standard normals drawn into the result (shaped by
// broadcasting mean and std), then scaled and shifted elementwise, as PyTorch does.
static void check_normal_std_tensor(const Tensor& std) {
  TORCH_CHECK(!c10::isComplexType(std.scalar_type()), "normal expects standard deviation to be non-complex");
  TORCH_CHECK(std.numel() == 0 || std.min().ge(0).item().toBool(), "normal expects all elements of std >= 0.0");
}

Tensor& normal_out(const Tensor& mean, double std, std::optional<Generator> gen, Tensor& output) {
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  TORCH_CHECK(!c10::isComplexType(mean.scalar_type()), "normal expects mean to be non-complex");
  at::native::resize_output(output, at::infer_size(mean.sizes(), output.sizes()));
  output.normal_(0, std, gen);
  output.add_(mean);
  return output;
}

Tensor& normal_out(double mean, const Tensor& std, std::optional<Generator> gen, Tensor& output) {
  check_normal_std_tensor(std);
  Tensor mean_tensor = at::full({}, mean, output.options());
  at::native::resize_output(output, at::infer_size(mean_tensor.sizes(), std.sizes()));
  output.normal_(0, 1, gen);
  output.mul_(std).add_(mean_tensor);
  return output;
}

Tensor& normal_out(const Tensor& mean, const Tensor& std, std::optional<Generator> gen, Tensor& output) {
  TORCH_CHECK(!c10::isComplexType(mean.scalar_type()), "normal expects mean to be non-complex");
  check_normal_std_tensor(std);
  at::native::resize_output(output, at::infer_size(mean.sizes(), std.sizes()));
  output.normal_(0, 1, gen);
  output.mul_(std).add_(mean);
  return output;
}

Tensor normal(const Tensor& mean, double std, std::optional<Generator> gen) {
  TORCH_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std ", std);
  Tensor result = at::empty_like(mean, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Contiguous);
  return at::native::normal_out(mean, std, gen, result);
}

Tensor normal(double mean, const Tensor& std, std::optional<Generator> gen) {
  check_normal_std_tensor(std);
  Tensor result = at::empty_like(std, std::nullopt, std::nullopt, std::nullopt, std::nullopt, MemoryFormat::Contiguous);
  return at::native::normal_out(mean, std, gen, result);
}

Tensor normal(const Tensor& mean, const Tensor& std, std::optional<Generator> gen) {
  TORCH_CHECK(!c10::isComplexType(mean.scalar_type()), "normal expects mean to be non-complex");
  check_normal_std_tensor(std);
  Tensor result = at::empty(at::infer_size(mean.sizes(), std.sizes()), mean.options());
  return at::native::normal_out(mean, std, gen, result);
}

Tensor normal(double mean, double std, IntArrayRef size, std::optional<Generator> gen,
              std::optional<ScalarType> dtype, std::optional<Layout> layout, std::optional<Device> device,
              std::optional<bool> pin_memory) {
  Tensor result = at::empty(size, dtype, layout, device, pin_memory, std::nullopt);
  return result.normal_(mean, std, gen);
}

Tensor& normal_out(double mean, double std, IntArrayRef size, std::optional<Generator> gen, Tensor& output) {
  at::native::resize_output(output, size);
  return output.normal_(mean, std, gen);
}

// Sampling with replacement (PyTorch's cpu/MultinomialKernel.cpp): per row, the running sum
// of the probabilities, normalized so the last entry is 1; per sample one double uniform u
// and a binary search for the first entry >= u.
static void multinomial_with_replacement_cpu(Tensor& result, const Tensor& self, int64_t n_sample,
                                             std::optional<Generator> gen) {
  CPUGeneratorImpl* generator = cpu_generator(gen);
  std::lock_guard<std::mutex> lock(generator->mutex_);
  const int64_t n_categories = self.size(-1);
  const int64_t n_dist = self.dim() > 1 ? self.size(-2) : 1;
  AT_DISPATCH_FLOATING_TYPES_AND2(kHalf, kBFloat16, self.scalar_type(), "multinomial", [&] {
    using acc_t = std::conditional_t<std::is_same_v<scalar_t, double>, double, float>;
    std::vector<acc_t> cum_dist(n_categories);
    const scalar_t* self_ptr = self.const_data_ptr<scalar_t>();
    int64_t* result_ptr = result.data_ptr<int64_t>();
    const int64_t self_stride_0 = self.dim() > 1 ? self.stride(-2) : 0;
    const int64_t self_stride_1 = self.stride(-1);
    const int64_t result_stride_0 = result.dim() > 1 ? result.stride(-2) : 0;
    const int64_t result_stride_1 = result.stride(-1);
    for (int64_t i = 0; i < n_dist; i++) {
      acc_t sum = 0;
      for (int64_t j = 0; j < n_categories; j++) {
        const acc_t val = static_cast<acc_t>(self_ptr[i * self_stride_0 + j * self_stride_1]);
        TORCH_CHECK(val >= 0, "invalid multinomial distribution (encountering probability entry < 0)");
        TORCH_CHECK(std::isfinite(val),
                    "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
        sum += val;
        cum_dist[j] = sum;
      }
      TORCH_CHECK(sum > 0, "invalid multinomial distribution (sum of probabilities <= 0)");
      for (int64_t j = 0; j < n_categories; j++) cum_dist[j] /= sum;
      // The last bucket ends at exactly 1, whatever the rounding of the running sum.
      cum_dist[n_categories - 1] = 1;
      for (int64_t j = 0; j < n_sample; j++) {
        const uniform_real_distribution<double> uniform(0, 1);
        const double u = uniform(generator);
        int64_t left = 0, right = n_categories;
        while (right - left > 0) {
          const int64_t mid = left + (right - left) / 2;
          if (cum_dist[mid] < u) {
            left = mid + 1;
          } else {
            right = mid;
          }
        }
        result_ptr[i * result_stride_0 + j * result_stride_1] = left;
      }
    }
  });
}

// [marker: multinomial]
Tensor& multinomial_out(const Tensor& self, int64_t n_sample, bool with_replacement, std::optional<Generator> gen,
                        Tensor& result) {
  TORCH_CHECK(result.device() == self.device(), "multinomial arguments must have the same device");
  TORCH_CHECK(self.dim() > 0 && self.dim() <= 2, "prob_dist must be 1 or 2 dim");
  TORCH_CHECK(c10::isFloatingType(self.scalar_type()),
              "multinomial only supports floating-point dtypes for input, got: ", self.scalar_type());
  TORCH_CHECK(result.scalar_type() == ScalarType::Long, "multinomial expects Long tensor out, got: ",
              result.scalar_type());
  TORCH_CHECK(n_sample > 0, "cannot sample n_sample <= 0 samples");
  const int64_t n_categories = self.size(-1);
  TORCH_CHECK(with_replacement || (n_sample <= n_categories),
              "cannot sample n_sample > prob_dist.size(-1) samples without replacement");
  TORCH_CHECK(n_categories <= (int64_t{1} << 24), "number of categories cannot exceed 2^24");
  if (self.dim() == 1) {
    result.resize_({n_sample});
  } else {
    result.resize_({self.size(0), n_sample});
  }
  if (result.numel() == 0) {
    return result;
  }
  // Without replacement (or a single sample): the exponential race. With q ~ Exp(1) per
  // category, argmax p / q is a draw from p (the Gumbel-max trick with exp applied), and the
  // n largest of p / q are n draws without replacement.
  if (!with_replacement || n_sample == 1) {
    const bool is_valid = (self.max() < std::numeric_limits<double>::infinity()).logical_and(self.min() >= 0).item().toBool();
    TORCH_CHECK(is_valid, "probability tensor contains either `inf`, `nan` or element < 0");
    const bool zero_prob = self.dim() == 1 ? (self.sum() == 0).item().toBool()
                                           : (self.sum(1) == 0).sum().item().toLong() != 0;
    TORCH_CHECK(!zero_prob, "invalid multinomial distribution (sum of probabilities <= 0)");
    Tensor q = at::empty_like(self).exponential_(1, gen);
    at::div_out(q, self, q);
    if (n_sample == 1) {
      at::argmax_out(result, q, /*dim=*/-1, /*keepdim=*/true);
    } else {
      Tensor vals = at::empty(result.sizes(), self.options());
      at::topk_out(vals, result, q, n_sample);
    }
    return result;
  }
  multinomial_with_replacement_cpu(result, self, n_sample, gen);
  return result;
}

Tensor multinomial(const Tensor& self, int64_t n_sample, bool with_replacement, std::optional<Generator> gen) {
  Tensor result = at::empty({0}, self.options().dtype(kLong));
  return at::native::multinomial_out(self, n_sample, with_replacement, gen, result);
}
// [end marker: multinomial]

}  // namespace at::native
