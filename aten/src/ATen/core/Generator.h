// aten/src/ATen/core/Generator.h - at::Generator: a counted handle on a GeneratorImpl.
// Mirrors PyTorch's aten/src/ATen/core/Generator.h. Guide: docs/source/internals/one_call.rst.
//
// Operators take `std::optional<at::Generator>` (schema type `Generator?`); kernels turn it
// into the concrete engine with get_generator_or_default<CPUGeneratorImpl>(gen, default).
#pragma once

#include <c10/core/GeneratorImpl.h>
#include <c10/util/Exception.h>

#include <optional>
#include <utility>

namespace at {

class Generator {
 public:
  Generator() = default;
  explicit Generator(c10::intrusive_ptr<c10::GeneratorImpl> impl) : impl_(std::move(impl)) {
    TORCH_CHECK(impl_.get(), "GeneratorImpl with nullptr is not supported");
  }

  bool defined() const { return static_cast<bool>(impl_); }
  c10::GeneratorImpl* unsafeGetGeneratorImpl() const { return impl_.get(); }
  const c10::intrusive_ptr<c10::GeneratorImpl>& getIntrusivePtr() const { return impl_; }
  bool operator==(const Generator& rhs) const { return impl_.get() == rhs.impl_.get(); }

  void set_current_seed(uint64_t seed) { impl_->set_current_seed(seed); }
  uint64_t current_seed() const { return impl_->current_seed(); }
  uint64_t seed() { return impl_->seed(); }
  std::mutex& mutex() { return impl_->mutex_; }
  c10::Device device() const { return impl_->device(); }

  // The concrete engine (CPUGeneratorImpl) behind the handle.
  template <typename T>
  T* get() const {
    return static_cast<T*>(impl_.get());
  }

 private:
  c10::intrusive_ptr<c10::GeneratorImpl> impl_;
};

template <class Impl, class... Args>
Generator make_generator(Args&&... args) {
  return Generator(c10::make_intrusive<Impl>(std::forward<Args>(args)...));
}

// The generator a kernel draws from: the one passed in, else the device's default.
template <typename T>
T* get_generator_or_default(const std::optional<Generator>& gen, const Generator& default_gen) {
  return gen.has_value() && gen->defined() ? gen->get<T>() : default_gen.get<T>();
}

}  // namespace at
