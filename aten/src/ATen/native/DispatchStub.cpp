// aten/src/ATen/native/DispatchStub.cpp - which build of the CPU loops this machine runs.
// Mirrors PyTorch's aten/src/ATen/native/DispatchStub.cpp (compute_cpu_capability).
// Guide: docs/source/internals/performance.rst ("One kernel, two builds").
#include <ATen/native/DispatchStub.h>

#include <c10/util/Exception.h>

#include <cstdlib>
#include <cstring>

namespace at::native {

namespace {
// [marker: compute_cpu_capability]
CPUCapability compute_cpu_capability() {
  // ATEN_CPU_CAPABILITY lowers the choice (never raises it past what the CPU has; "avx512"
  // is PyTorch's next level, which this tree does not build, so it means AVX2): "default"
  // runs the portable loops on any machine, e.g. to compare the two builds' results.
  if (const char* env = std::getenv("ATEN_CPU_CAPABILITY")) {
    if (std::strcmp(env, "default") == 0) {
      return CPUCapability::DEFAULT;
    }
    if (std::strcmp(env, "avx2") != 0 && std::strcmp(env, "avx512") != 0) {
      TORCH_WARN("ignoring invalid value for ATEN_CPU_CAPABILITY: ", env);
    }
  }
#if defined(__x86_64__) || defined(__i386__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return CPUCapability::AVX2;
  }
#endif
  return CPUCapability::DEFAULT;
}
// [end marker: compute_cpu_capability]
}  // namespace

CPUCapability get_cpu_capability() {
  static const CPUCapability capability = compute_cpu_capability();
  return capability;
}

}  // namespace at::native
