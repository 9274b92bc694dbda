// aten/src/ATen/cuda/CUDAContext.cpp - the device properties cache. Mirrors PyTorch's
// aten/src/ATen/cuda/CUDAContext.cpp. Guide: docs/source/internals/cuda_simulated_device.rst.
#include <ATen/cuda/CUDAContext.h>

#include <deque>
#include <mutex>
#include <vector>

namespace at::cuda {

cudaDeviceProp* getDeviceProperties(c10::DeviceIndex device) {
  static std::once_flag init;
  static std::deque<std::once_flag> flags;
  static std::vector<cudaDeviceProp> props;
  std::call_once(init, [] {
    const auto n = c10::cuda::device_count_ensure_non_zero();
    flags.resize(n);
    props.resize(n);
  });
  TORCH_CHECK(device >= 0 && device < static_cast<c10::DeviceIndex>(props.size()), "device=", static_cast<int>(device),
              ", but the number of CUDA devices is ", props.size());
  std::call_once(flags[device], [device] { AT_CUDA_CHECK(cudaGetDeviceProperties(&props[device], device)); });
  return &props[device];
}

cudaDeviceProp* getCurrentDeviceProperties() {
  return getDeviceProperties(c10::cuda::current_device());
}

}  // namespace at::cuda
