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
#include <ATen/core/DistributionsHelper.h>
#include <ATen/native/DistributionTemplates.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cpu/Loops.h>

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
template <typename scalar_t>
void normal_fill_16(scalar_t* data, double mean, double std) {
  using acc_t = at::opmath_type<scalar_t>;
  for (int j = 0; j < 8; j++) {
    const acc_t u1 = 1 - static_cast<acc_t>(data[j]);  // [0, 1) -> (0, 1] for log
    const acc_t u2 = static_cast<acc_t>(data[j + 8]);
    const acc_t radius = std::sqrt(-2 * std::log(u1));
    const acc_t theta = static_cast<acc_t>(2.0 * M_PI * static_cast<double>(u2));
    data[j] = static_cast<scalar_t>(radius * std::cos(theta) * static_cast<acc_t>(std) + static_cast<acc_t>(mean));
    data[j + 8] =
        static_cast<scalar_t>(radius * std::sin(theta) * static_cast<acc_t>(std) + static_cast<acc_t>(mean));
  }
}

template <typename scalar_t>
void normal_fill(const Tensor& self, double mean, double std, CPUGeneratorImpl* generator) {
  // The uniforms are kept in opmath_t (float for half/bfloat16: a uniform rounded up to 1.0
  // would make log(1 - u) infinite); for float and double this is the tensor itself.
  using acc_t = at::opmath_type<scalar_t>;
  const int64_t size = self.numel();
  std::vector<acc_t> buffer;
  acc_t* data = nullptr;
  if constexpr (std::is_same_v<acc_t, scalar_t>) {
    data = self.mutable_data_ptr<scalar_t>();
  } else {
    buffer.resize(size);
    data = buffer.data();
  }
  uniform_real_distribution<scalar_t> uniform(0, 1);
  for (int64_t i = 0; i < size; i++) {
    data[i] = uniform(generator);
  }
  for (int64_t i = 0; i < size - 15; i += 16) {
    normal_fill_16<acc_t>(data + i, mean, std);
  }
  if (size % 16 != 0) {
    acc_t* tail = data + size - 16;
    for (int i = 0; i < 16; i++) {
      tail[i] = uniform(generator);
    }
    normal_fill_16<acc_t>(tail, mean, std);
  }
  if constexpr (!std::is_same_v<acc_t, scalar_t>) {
    scalar_t* out = self.mutable_data_ptr<scalar_t>();
    for (int64_t i = 0; i < size; i++) out[i] = static_cast<scalar_t>(data[i]);
  }
}
// [end marker: normal_fill]

}  // namespace

// [marker: uniform_]
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
// [end marker: uniform_]

// [marker: normal_]
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
// [end marker: normal_]

// [marker: check_from_to_in_range]
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
// [end marker: check_from_to_in_range]

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

// [marker: random_from_to_kernel_cpu]
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
// [end marker: random_from_to_kernel_cpu]

// [marker: bernoulli_kernel_cpu]
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
// [end marker: bernoulli_kernel_cpu]

}  // namespace

DEFINE_DISPATCH(random_from_to_stub);
DEFINE_DISPATCH(bernoulli_scalar_stub);
DEFINE_DISPATCH(bernoulli_tensor_stub);
REGISTER_DISPATCH(random_from_to_stub, &random_from_to_kernel);
REGISTER_DISPATCH(bernoulli_scalar_stub, &bernoulli_scalar_kernel);
REGISTER_DISPATCH(bernoulli_tensor_stub, &bernoulli_tensor_kernel);

// [marker: bernoulli_]
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
// [end marker: bernoulli_]

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

// [marker: randperm]
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
// [end marker: randperm]

}  // namespace at::native

