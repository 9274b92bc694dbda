// aten/src/ATen/Version.cpp - the build configuration, as torch.__config__.show() reports it.
// Mirrors PyTorch's aten/src/ATen/Version.cpp. Guide: docs/source/internals/building.rst.
#include <ATen/Version.h>

#include <dlfcn.h>

#include <cstdlib>
#include <sstream>

namespace at {

std::string show_config() {
  std::ostringstream ss;
  ss << "Torch Anatomy built with:\n";
#if defined(__GNUC__)
  ss << "  - GCC " << __GNUC__ << "." << __GNUC_MINOR__ << "\n";
#endif
  ss << "  - C++ Version: " << __cplusplus << "\n";
#if defined(AT_DEBUG_BUILD)
  ss << "  - Build type: Debug (-O0 -g3)\n";
#elif defined(NDEBUG)
  ss << "  - Build type: Release\n";
#endif
#if defined(AT_PARALLEL_OPENMP)
  ss << "  - OpenMP " << _OPENMP << " (a.k.a. OpenMP)\n";
#endif
#if defined(AT_BLAS_ENABLED)
  ss << "  - BLAS: OpenBLAS\n";
#endif
#if defined(AT_CUDA_ENABLED)
  ss << "  - CUDA: built (USE_CUDA=1)\n";
  // Which CUDA runtime this process runs on: the simulated device defines a marker symbol
  // (c10/cuda/impl/sim/SimulatedRuntime.h) that NVIDIA's libcudart does not have.
  if (dlsym(RTLD_DEFAULT, "c10_cuda_sim_is_simulated") != nullptr) {
    const char* n = std::getenv("TORCH_CUDA_SIMULATE");
    ss << "  - CUDA runtime: the simulated CUDA device (TORCH_CUDA_SIMULATE=" << (n ? n : "") << ")\n";
  } else {
    ss << "  - CUDA runtime: NVIDIA's libcudart\n";
  }
#else
  ss << "  - CUDA: not built (USE_CUDA=0)\n";
#endif
  return ss.str();
}

}  // namespace at
