// c10/cuda/CUDAFunctions.cpp - device count, current device, synchronize.
// Mirrors PyTorch's c10/cuda/CUDAFunctions.cpp. Guide: docs/source/internals/c10_cuda.rst.
#include <c10/cuda/CUDAFunctions.h>

#include <limits>

namespace c10::cuda {

namespace {

// The installed driver's CUDA version, 0 when there is no driver (no libcuda.so).
int driver_version() {
  int driver_version = -1;
  C10_CUDA_IGNORE_ERROR(cudaDriverGetVersion(&driver_version));
  return driver_version;
}

// cudaGetDeviceCount, with each failure turned into the message PyTorch gives. With
// fail_if_no_driver=false, "no driver" counts as 0 devices rather than an error.
int device_count_impl(bool fail_if_no_driver) {
  int count = 0;
  const cudaError_t err = C10_CUDA_ERROR_HANDLED(GetDeviceCount(&count));
  if (err == cudaSuccess) {
    return count;
  }
  // The failed call left a sticky error behind: clear it so later checks do not see it.
  [[maybe_unused]] cudaError_t last_err = cudaGetLastError();
  switch (err) {
    case cudaErrorNoDevice:
      // A driver, but no GPU (or CUDA_VISIBLE_DEVICES hides them all).
      count = 0;
      break;
    case cudaErrorInsufficientDriver: {
      const int version = driver_version();
      if (version <= 0) {
        if (!fail_if_no_driver) {
          count = 0;
          break;
        }
        TORCH_CHECK(false,
                    "Found no NVIDIA driver on your system. Please check that you "
                    "have an NVIDIA GPU and installed a driver from "
                    "http://www.nvidia.com/Download/index.aspx");
      } else {
        TORCH_CHECK(false, "The NVIDIA driver on your system is too old (found version ", version,
                    "). Please update your GPU driver by downloading and installing a new version from "
                    "the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: "
                    "https://pytorch.org to install a PyTorch version that has been compiled with your "
                    "version of the CUDA driver.");
      }
    } break;
    case cudaErrorInitializationError:
      TORCH_CHECK(false, "CUDA driver initialization failed, you might not have a CUDA gpu.");
      break;
    case cudaErrorUnknown:
      TORCH_CHECK(false,
                  "CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env "
                  "variable CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.");
      break;
    default:
      TORCH_CHECK(false,
                  "Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling "
                  "NumCudaDevices() that might have already set an error? Error ",
                  static_cast<int>(err), ": ", cudaGetErrorString(err));
  }
  return count;
}

}  // namespace

// [marker: device_count_definition]
DeviceIndex device_count() noexcept {
  // Computed once, on first use (never at load time): the answer cannot change while the
  // process runs, and asking initialises the driver, which is slow.
  static const int count = []() {
    try {
      const int result = device_count_impl(/*fail_if_no_driver=*/false);
      TORCH_INTERNAL_ASSERT(result <= std::numeric_limits<DeviceIndex>::max(),
                            "Too many CUDA devices, DeviceIndex overflowed");
      return result;
    } catch (const c10::Error& ex) {
      // No exception may escape (noexcept); the reason is still worth one line.
      warn("CUDA initialization: " + ex.msg());
      return 0;
    }
  }();
  return static_cast<DeviceIndex>(count);
}

DeviceIndex device_count_ensure_non_zero() {
  // Not cached: this is the call that explains why there is no GPU.
  const int count = device_count_impl(/*fail_if_no_driver=*/true);
  TORCH_CHECK(count, "No CUDA GPUs are available");
  return static_cast<DeviceIndex>(count);
}
// [end marker: device_count_definition]

DeviceIndex current_device() {
  DeviceIndex cur_device = -1;
  C10_CUDA_CHECK(GetDevice(&cur_device));
  return cur_device;
}

void set_device(DeviceIndex device) {
  C10_CUDA_CHECK(SetDevice(device));
}

void device_synchronize() {
  C10_CUDA_CHECK(cudaDeviceSynchronize());
}

void stream_synchronize(cudaStream_t stream) {
  C10_CUDA_CHECK(cudaStreamSynchronize(stream));
}

std::pair<size_t, size_t> memGetInfo(DeviceIndex device) {
  const DeviceIndex previous = ExchangeDevice(device);
  size_t free_bytes = 0, total_bytes = 0;
  const cudaError_t err = cudaMemGetInfo(&free_bytes, &total_bytes);
  MaybeExchangeDevice(previous);
  C10_CUDA_CHECK(err);
  return {free_bytes, total_bytes};
}

cudaError_t GetDeviceCount(int* dev_count) {
  return cudaGetDeviceCount(dev_count);
}

cudaError_t GetDevice(DeviceIndex* device) {
  int tmp_device = -1;
  const cudaError_t err = cudaGetDevice(&tmp_device);
  if (err == cudaSuccess) {
    TORCH_INTERNAL_ASSERT(tmp_device >= 0 && tmp_device <= std::numeric_limits<DeviceIndex>::max(),
                          "cudaGetDevice returns invalid device ", tmp_device);
    *device = static_cast<DeviceIndex>(tmp_device);
  }
  return err;
}

cudaError_t SetDevice(DeviceIndex device) {
  TORCH_CHECK(device >= 0, "device id must be positive!", static_cast<int>(device));
  int cur_device = -1;
  C10_CUDA_CHECK(cudaGetDevice(&cur_device));
  if (device == cur_device) {
    return cudaSuccess;  // cudaSetDevice would do nothing but cost a driver call
  }
  return cudaSetDevice(device);
}

DeviceIndex ExchangeDevice(DeviceIndex to_device) {
  const DeviceIndex cur_device = current_device();
  if (to_device != cur_device) {
    C10_CUDA_CHECK(cudaSetDevice(to_device));
  }
  return cur_device;
}

DeviceIndex MaybeExchangeDevice(DeviceIndex to_device) {
  if (to_device < 0) {
    return -1;
  }
  return ExchangeDevice(to_device);
}

}  // namespace c10::cuda
