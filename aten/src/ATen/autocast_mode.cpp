// aten/src/ATen/autocast_mode.cpp - the AutocastCPU kernels: inside torch.autocast("cpu") they cast
// the inputs of matrix products to the region's dtype (bfloat16 by default), and
// those of precision-sensitive ops (losses, prod, trace) up to float32, then call the op again
// below the Autocast key.
// Mirrors PyTorch's aten/src/ATen/autocast_mode.cpp (the lower_precision_fp and fp32 policies of
// its CPU list, for the ops this tree has). PyTorch's list also has conv1d/conv2d; this tree's
// convolution (im2col) has no bfloat16 kernel yet, so they are left out and run in float32.
// Guide: docs/source/internals/programs/amp_backends.rst.
#include <ATen/autocast_mode.h>

#include <ATen/Functions.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <c10/util/Exception.h>
#include <torch/library.h>

#include <optional>

namespace at::autocast {
namespace {

thread_local c10::ScalarType autocast_cpu_dtype = c10::ScalarType::BFloat16;
thread_local c10::ScalarType autocast_cuda_dtype = c10::ScalarType::Half;

c10::DispatchKey autocast_key(c10::DeviceType device_type) {
  switch (device_type) {
    case c10::DeviceType::CPU:
      return c10::DispatchKey::AutocastCPU;
    case c10::DeviceType::CUDA:
      return c10::DispatchKey::AutocastCUDA;
    default:
      TORCH_CHECK(false, "unsupported scalarType");
  }
}

}  // namespace

bool is_autocast_available(c10::DeviceType device_type) {
  return device_type == c10::DeviceType::CPU || device_type == c10::DeviceType::CUDA;
}

bool is_autocast_enabled(c10::DeviceType device_type) {
  return !c10::impl::tls_local_dispatch_key_set().excluded_.has(autocast_key(device_type));
}

void set_autocast_enabled(c10::DeviceType device_type, bool enabled) {
  auto& tls = c10::impl::tls_local_dispatch_key_set();
  const auto key = autocast_key(device_type);
  tls.excluded_ = enabled ? tls.excluded_.remove(key) : tls.excluded_.add(key);
}

c10::ScalarType get_autocast_dtype(c10::DeviceType device_type) {
  autocast_key(device_type);  // the same error for a device type without autocast
  return device_type == c10::DeviceType::CPU ? autocast_cpu_dtype : autocast_cuda_dtype;
}

void set_autocast_dtype(c10::DeviceType device_type, c10::ScalarType dtype) {
  autocast_key(device_type);
  (device_type == c10::DeviceType::CPU ? autocast_cpu_dtype : autocast_cuda_dtype) = dtype;
}

namespace {

// [marker: autocast_cast]
// A CPU floating-point tensor other than float64 is cast; integers, float64 and tensors on
// other devices are left alone (PyTorch's is_eligible). PyTorch also caches the cast copy of a
// leaf that requires grad (a weight) for the region; here each call casts again.
Tensor cast(c10::ScalarType to_type, const Tensor& arg) {
  if (arg.defined() && arg.device().type() == c10::DeviceType::CPU && c10::isFloatingType(arg.scalar_type()) &&
      arg.scalar_type() != c10::ScalarType::Double && arg.scalar_type() != to_type) {
    return arg.to(to_type);
  }
  return arg;
}

std::optional<Tensor> cast(c10::ScalarType to_type, const std::optional<Tensor>& arg) {
  if (!arg.has_value()) return arg;
  return cast(to_type, *arg);
}

// Each kernel casts, then calls the op again with AutocastCPU excluded, so it reaches autograd
// and the CPU kernel (and ops it calls inside are not cast again).
#define AUTOCAST_GUARD c10::impl::ExcludeDispatchKeyGuard no_autocast(c10::DispatchKey::AutocastCPU)

c10::ScalarType lower() {
  return autocast_cpu_dtype;
}
constexpr c10::ScalarType fp32 = c10::ScalarType::Float;

// ---- lower_precision_fp: run in the region's dtype ----
Tensor mm(const Tensor& self, const Tensor& mat2) {
  AUTOCAST_GUARD;
  return at::mm(cast(lower(), self), cast(lower(), mat2));
}
// [end marker: autocast_cast]

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  AUTOCAST_GUARD;
  return at::bmm(cast(lower(), self), cast(lower(), mat2));
}

Tensor matmul(const Tensor& self, const Tensor& other) {
  AUTOCAST_GUARD;
  return at::matmul(cast(lower(), self), cast(lower(), other));
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  AUTOCAST_GUARD;
  return at::addmm(cast(lower(), self), cast(lower(), mat1), cast(lower(), mat2), beta, alpha);
}

Tensor baddbmm(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
               const Scalar& alpha) {
  AUTOCAST_GUARD;
  return at::baddbmm(cast(lower(), self), cast(lower(), batch1), cast(lower(), batch2), beta, alpha);
}

// ---- fp32: precision-sensitive ops run in float32 ----
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction) {
  AUTOCAST_GUARD;
  return at::mse_loss(cast(fp32, self), cast(fp32, target), reduction);
}

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight, int64_t reduction,
                int64_t ignore_index) {
  AUTOCAST_GUARD;
  return at::nll_loss(cast(fp32, self), cast(fp32, target), cast(fp32, weight), reduction, ignore_index);
}

Tensor binary_cross_entropy(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                            int64_t reduction) {
  AUTOCAST_GUARD;
  return at::binary_cross_entropy(cast(fp32, self), cast(fp32, target), cast(fp32, weight), reduction);
}

Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight,
                                        const std::optional<Tensor>& pos_weight, int64_t reduction) {
  AUTOCAST_GUARD;
  return at::binary_cross_entropy_with_logits(cast(fp32, self), cast(fp32, target), cast(fp32, weight),
                                              cast(fp32, pos_weight), reduction);
}

Tensor prod(const Tensor& self, std::optional<c10::ScalarType> dtype) {
  AUTOCAST_GUARD;
  return at::prod(cast(fp32, self), dtype);
}

Tensor trace(const Tensor& self) {
  AUTOCAST_GUARD;
  return at::trace(cast(fp32, self));
}

#undef AUTOCAST_GUARD

}  // namespace

TORCH_LIBRARY_IMPL(aten, AutocastCPU, m) {
  m.impl("mm", torch::CppFunction::makeUnboxedOnly(&mm));
  m.impl("bmm", torch::CppFunction::makeUnboxedOnly(&bmm));
  m.impl("matmul", torch::CppFunction::makeUnboxedOnly(&matmul));
  m.impl("addmm", torch::CppFunction::makeUnboxedOnly(&addmm));
  m.impl("baddbmm", torch::CppFunction::makeUnboxedOnly(&baddbmm));
  m.impl("mse_loss", torch::CppFunction::makeUnboxedOnly(&mse_loss));
  m.impl("nll_loss", torch::CppFunction::makeUnboxedOnly(&nll_loss));
  m.impl("binary_cross_entropy", torch::CppFunction::makeUnboxedOnly(&binary_cross_entropy));
  m.impl("binary_cross_entropy_with_logits", torch::CppFunction::makeUnboxedOnly(&binary_cross_entropy_with_logits));
  m.impl("prod", torch::CppFunction::makeUnboxedOnly(&prod));
  m.impl("trace", torch::CppFunction::makeUnboxedOnly(&trace));
}

}  // namespace at::autocast
