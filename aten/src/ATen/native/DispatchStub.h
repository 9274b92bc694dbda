// aten/src/ATen/native/DispatchStub.h - a per-device function pointer, so that the operator
// (BinaryOps.cpp: checks, TensorIterator) is written once and the loop (cpu/BinaryOpsKernel.cpp,
// cuda/BinaryOpsKernel.cu) once per device.
// Mirrors PyTorch's aten/src/ATen/native/DispatchStub.h. Guide: docs/source/internals/one_call.rst.
//
//   BinaryOps.h:                DECLARE_DISPATCH(structured_binary_fn_alpha, add_stub);
//   BinaryOps.cpp:              DEFINE_DISPATCH(add_stub);
//                               add_stub(iter.device_type(), iter, alpha);   // calls the kernel
//   cpu/BinaryOpsKernel.cpp:    REGISTER_DISPATCH(add_stub, &add_kernel);
//
// This is a second, smaller dispatch below the dispatcher: the dispatcher picked the CPU
// kernel of add (at::native::add), and the stub picks the CPU loop.
//
// [marker: cpu_capability]
// The CPU loop is compiled more than once. Every cpu/*.cpp (but BlasKernel.cpp and
// SumKernel.cpp, see aten/CMakeLists.txt) is built as it is, for any x86-64
// (CPU_CAPABILITY=DEFAULT), and again, from a copy in the build tree (aten/src/ATen/native/cpu/<file>.cpp.AVX2.cpp), with
// -mavx2 -mfma (CPU_CAPABILITY=AVX2): eight floats per instruction instead of four, and
// std::fma as one instruction instead of a call into libm. Each build registers its loop in
// its own slot of the stub, and the first call picks the best slot this CPU can run
// (ATEN_CPU_CAPABILITY=default forces the portable one), as PyTorch's DispatchStub does with
// its DEFAULT/AVX2/AVX512 kernels. -ffp-contract=off keeps the two builds' results equal:
// a*b+c is fused only where the code says fmadd, never behind its back.
// [end marker: cpu_capability]
//
// On the Meta device the stub runs nothing: a meta tensor has sizes, strides and a dtype but
// no bytes, so the operator's own body (checks, the TensorIterator's build, which computes
// the output's shape, dtype and strides and allocates it) is the whole of the meta kernel.
// This is what PyTorch's structured kernels split into a meta function (shape logic, shared
// by every device) and an impl function (the loop), and RegisterMeta.cpp calls only the
// former. Guide: docs/source/internals/tensor_iterator.rst ("Meta tensors").
#pragma once

#include <c10/core/DeviceType.h>
#include <c10/macros/Export.h>
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>

#include <type_traits>
#include <utility>

namespace at::native {

enum class CPUCapability { DEFAULT = 0, AVX2 = 1 };
// What this CPU can run, lowered by ATEN_CPU_CAPABILITY; read once.
TORCH_API CPUCapability get_cpu_capability();

template <typename FnPtr>
struct DispatchStub;

template <typename rT, typename... Args>
struct DispatchStub<rT (*)(Args...)> {
  using FnPtr = rT (*)(Args...);

  // Constant-initialised (no constructor), so a REGISTER_DISPATCH in another file's static
  // initialiser can never run before the stub exists.
  FnPtr cpu_dispatch_ptr;   // the DEFAULT build of the CPU loop
  FnPtr avx2_dispatch_ptr;  // the AVX2 build, when the compiler made one
  FnPtr cuda_dispatch_ptr;

  template <typename... ArgTypes>
  rT operator()(c10::DeviceType device_type, ArgTypes&&... args) {
    FnPtr fn = nullptr;
    if (device_type == c10::DeviceType::CPU) {
      fn = avx2_dispatch_ptr != nullptr && get_cpu_capability() >= CPUCapability::AVX2 ? avx2_dispatch_ptr
                                                                                       : cpu_dispatch_ptr;
      TORCH_INTERNAL_ASSERT(fn, "DispatchStub: missing CPU kernel");
    } else if (device_type == c10::DeviceType::CUDA) {
      fn = cuda_dispatch_ptr;
      TORCH_INTERNAL_ASSERT(fn, "DispatchStub: missing CUDA kernel");
    } else if (device_type == c10::DeviceType::Meta) {
      // [marker: meta_stub]
      if constexpr (std::is_void_v<rT>) {
        return;  // no data, no loop: the output's metadata is already computed
      } else {
        TORCH_CHECK(false, "DispatchStub: this kernel returns a value computed from data; it has no meta form");
      }
      // [end marker: meta_stub]
    } else {
      TORCH_CHECK(false, "DispatchStub: unsupported device type", device_type);
    }
    return (*fn)(std::forward<ArgTypes>(args)...);
  }
};

}  // namespace at::native

#define DECLARE_DISPATCH(fn, name)                                       \
  struct name##_DECLARE_DISPATCH_type : at::native::DispatchStub<fn> {}; \
  extern TORCH_API name##_DECLARE_DISPATCH_type name

#define DEFINE_DISPATCH(name) name##_DECLARE_DISPATCH_type name

// In a cpu/*.cpp, REGISTER_DISPATCH fills the slot of the build being compiled.
#ifdef CPU_CAPABILITY_AVX2
#define REGISTER_DISPATCH(name, fn)                                                  \
  static const bool C10_CONCATENATE(name##_registered_, __LINE__) [[maybe_unused]] = \
      (name.avx2_dispatch_ptr = (fn), true)
#else
#define REGISTER_DISPATCH(name, fn)                                                  \
  static const bool C10_CONCATENATE(name##_registered_, __LINE__) [[maybe_unused]] = \
      (name.cpu_dispatch_ptr = (fn), true)
#endif

#define REGISTER_CUDA_DISPATCH(name, fn)                                             \
  static const bool C10_CONCATENATE(name##_registered_, __LINE__) [[maybe_unused]] = \
      (name.cuda_dispatch_ptr = (fn), true)
