// c10/cuda/CUDAException.cpp - the message C10_CUDA_CHECK throws.
// Mirrors PyTorch's c10/cuda/CUDAException.cpp and c10/cuda/CUDAMiscFunctions.cpp.
// Guide: docs/source/internals/c10_cuda.rst.
#include <c10/cuda/CUDAException.h>

#include <cstdlib>
#include <cstring>
#include <iostream>

namespace c10::cuda {

std::string get_cuda_check_suffix() noexcept {
  // Read once: the environment of a running process does not change CUDA's launch mode.
  static const bool blocking_enabled = [] {
    const char* value = std::getenv("CUDA_LAUNCH_BLOCKING");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  if (blocking_enabled) {
    return "";
  }
  return "\nCUDA kernel errors might be asynchronously reported at some"
         " other API call, so the stacktrace below might be incorrect."
         "\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1";
}

std::string get_cuda_error_help(cudaError_t error) noexcept {
  std::string help_text;
  switch (error) {
    case cudaErrorInvalidDevice:
      help_text.append("\nGPU device may be out of range, do you have enough GPUs?");
      break;
    default:
      help_text.append("\nSearch for `")
          .append(cudaGetErrorName(error))
          .append("' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.");
      break;
  }
  return help_text;
}

void c10_cuda_check_implementation(int32_t err, const char* filename, const char* function_name,
                                   uint32_t line_number, bool include_device_assertions) {
  const auto cuda_error = static_cast<cudaError_t>(err);
  if (C10_LIKELY(cuda_error == cudaSuccess)) {
    return;
  }
  // Clear the sticky last error, so that it is reported once, here.
  [[maybe_unused]] cudaError_t error_unused = cudaGetLastError();
  std::string check_message = "CUDA error: ";
  check_message.append(cudaGetErrorString(cuda_error));
  check_message.append(get_cuda_error_help(cuda_error));
  check_message.append(get_cuda_check_suffix());
  check_message.append("\n");
  if (include_device_assertions) {
    // PyTorch records device-side assertions when built with TORCH_USE_CUDA_DSA; this tree
    // never is, so the message says what PyTorch says in that case.
    check_message.append("Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n");
  }
  throw c10::CUDAError({function_name, filename, line_number}, check_message);
}

void warn(const std::string& msg) {
  std::cerr << "Warning: " << msg << std::endl;
}

}  // namespace c10::cuda
