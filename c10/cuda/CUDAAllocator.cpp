// c10/cuda/CUDAAllocator.cpp - NativeCachingAllocator: the c10::Allocator for CUDA tensors.
// Mirrors the NativeCachingAllocator part of PyTorch's c10/cuda/CUDACachingAllocator.cpp.
// Guide: docs/source/internals/cuda_caching_allocator.rst.
#include <c10/cuda/CUDAAllocator.h>

#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/impl/CUDARuntime.h>

#include <array>
#include <atomic>
#include <mutex>
#include <unordered_map>

namespace c10::cuda::CUDACachingAllocator {
namespace Native {

// Larger requests are refused before anything else (PyTorch's guard against size overflow).
constexpr size_t kOneExaBytes = 1152921504606846976ULL;

void local_raw_delete(void* ptr);

// Why a pointer -> device map: free(ptr) gets only the pointer, and must find the
// DeviceCachingAllocator that owns it, whatever device is current when the storage dies.
// Why the per-device state is created lazily and never destroyed: creating it touches the
// CUDA runtime, which must not happen when the library loads (there may be no GPU); and at
// process exit the CUDA runtime may already be gone, so freeing into it would fail.
class NativeCachingAllocator final : public CUDAAllocator {
 public:
  // Nothing CUDA here: this object is constructed while libc10_cuda.so loads.
  NativeCachingAllocator() : settings_(allocatorSettingsFromEnv()) {}

  DataPtr allocate(size_t size) override {
    TORCH_CHECK_WITH(OutOfMemoryError, size < kOneExaBytes,
                     "CUDA out of memory. Tried to allocate more than 1EB memory.");
    DeviceIndex device = 0;
    C10_CUDA_CHECK(c10::cuda::GetDevice(&device));
    void* devPtr = nullptr;
    if (size != 0) {
      // The current stream of the current device: the block may be reused by work queued on
      // that stream without any synchronization (stream order protects it).
      devPtr = malloc(device, size, getCurrentCUDAStream(device).stream());
    }
    return {devPtr, devPtr, &local_raw_delete, Device(DeviceType::CUDA, device)};
  }

  DeleterFnPtr raw_deleter() const override { return &local_raw_delete; }

  void copy_data(void* dest, const void* src, std::size_t count) const override {
    C10_CUDA_CHECK(cudaMemcpy(dest, src, count, cudaMemcpyDeviceToDevice));
  }

  void* raw_alloc(size_t nbytes) override {
    if (nbytes == 0) {
      return nullptr;
    }
    DeviceIndex device = 0;
    C10_CUDA_CHECK(c10::cuda::GetDevice(&device));
    return malloc(device, nbytes, getCurrentCUDAStream(device).stream());
  }

  void* raw_alloc_with_stream(size_t nbytes, cudaStream_t stream) override {
    if (nbytes == 0) {
      return nullptr;
    }
    DeviceIndex device = 0;
    C10_CUDA_CHECK(c10::cuda::GetDevice(&device));
    return malloc(device, nbytes, stream);
  }

  void raw_delete(void* ptr) override { free(ptr); }

  void free(void* ptr) {
    if (!ptr) {
      return;
    }
    int device = -1;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = allocated_blocks_.find(ptr);
      TORCH_CHECK(it != allocated_blocks_.end(), "invalid device pointer: ", ptr);
      device = it->second;
      allocated_blocks_.erase(it);
    }
    device_allocator(static_cast<DeviceIndex>(device))->deallocate(ptr);
  }

  void init(int device_count) override {
    for (int d = 0; d < device_count; ++d) {
      device_allocator(static_cast<DeviceIndex>(d));
    }
  }

  bool initialized() override { return device_count() > 0 && device_allocators_[0].load() != nullptr; }

  void setMemoryFraction(double fraction, DeviceIndex device) override {
    TORCH_CHECK_VALUE(0 <= fraction && fraction <= 1, "invalid fraction:", fraction, ". Please set within [0, 1].");
    device_allocator(device)->setMemoryFraction(fraction);
  }

  double getMemoryFraction(DeviceIndex device) override { return device_allocator(device)->getMemoryFraction(); }

  void emptyCache() override {
    for (auto& slot : device_allocators_) {
      if (DeviceCachingAllocator* a = slot.load()) {
        a->emptyCache();
      }
    }
  }

  void recordStream(const DataPtr& ptr, CUDAStream stream) override {
    // An empty tensor's storage may hold nullptr: there is no block to protect.
    if (!ptr.get()) {
      return;
    }
    // Memory this allocator did not hand out (shared from another process, from_blob ...)
    // is not ours to delay.
    if (ptr.get_deleter() != &local_raw_delete) {
      return;
    }
    int device = -1;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = allocated_blocks_.find(ptr.get());
      TORCH_INTERNAL_ASSERT(it != allocated_blocks_.end(), "No allocated block can be found");
      device = it->second;
    }
    device_allocator(static_cast<DeviceIndex>(device))
        ->recordStream(ptr.get(), reinterpret_cast<DeviceStream>(stream.stream()));
  }

  c10::CachingAllocator::DeviceStats getDeviceStats(DeviceIndex device) override {
    return device_allocator(device)->getStats();
  }
  void resetAccumulatedStats(DeviceIndex device) override { device_allocator(device)->resetAccumulatedStats(); }
  void resetPeakStats(DeviceIndex device) override { device_allocator(device)->resetPeakStats(); }

  SnapshotInfo snapshot() override {
    SnapshotInfo result;
    const int count = device_count();
    result.device_traces.resize(static_cast<size_t>(count));
    for (int d = 0; d < count; ++d) {
      if (DeviceCachingAllocator* a = device_allocators_[d].load()) {
        auto segments = a->snapshot();
        result.segments.insert(result.segments.end(), segments.begin(), segments.end());
        result.device_traces[d] = a->trace();
      }
    }
    return result;
  }

  void recordHistory(bool enabled, size_t alloc_trace_max_entries) override {
    std::lock_guard<std::mutex> lock(mutex_);
    record_history_ = enabled;
    max_entries_ = alloc_trace_max_entries;
    for (auto& slot : device_allocators_) {
      if (DeviceCachingAllocator* a = slot.load()) {
        a->recordHistory(enabled, alloc_trace_max_entries);
      }
    }
  }

  void setAllocatorSettings(const std::string& settings) override {
    // Parse first: a bad string raises ValueError and changes nothing.
    AllocatorConfig check;
    check.parseArgs(settings);
    std::lock_guard<std::mutex> lock(mutex_);
    settings_ = settings;
    for (auto& slot : device_allocators_) {
      if (DeviceCachingAllocator* a = slot.load()) {
        a->setAllocatorSettings(settings);
      }
    }
  }

  std::string getAllocatorSettings() override {
    std::lock_guard<std::mutex> lock(mutex_);
    return settings_;
  }

  std::string name() override { return "native"; }

 private:
  void* malloc(DeviceIndex device, size_t size, cudaStream_t stream) {
    void* ptr = device_allocator(device)->allocate(size, reinterpret_cast<DeviceStream>(stream));
    std::lock_guard<std::mutex> lock(mutex_);
    allocated_blocks_[ptr] = device;
    return ptr;
  }

  // The policy object of `device`, created with its CUDARuntime on first use.
  DeviceCachingAllocator* device_allocator(DeviceIndex device) {
    const int count = device_count();
    TORCH_CHECK(0 <= device && device < count, "Invalid device argument ", static_cast<int>(device),
                ": did you call init?");
    DeviceCachingAllocator* a = device_allocators_[device].load();
    if (a) {
      return a;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    a = device_allocators_[device].load();
    if (!a) {
      auto* runtime = new CUDARuntime(device);  // leaked on purpose, see the class comment
      a = new DeviceCachingAllocator(runtime);
      if (!settings_.empty()) {
        a->setAllocatorSettings(settings_);
      }
      if (record_history_) {
        a->recordHistory(true, max_entries_);
      }
      device_allocators_[device].store(a);
    }
    return a;
  }

  std::array<std::atomic<DeviceCachingAllocator*>, C10_COMPILE_TIME_MAX_GPUS> device_allocators_{};
  std::mutex mutex_;  // guards allocated_blocks_, creation, settings and history switches
  std::unordered_map<void*, int> allocated_blocks_;  // ptr -> device it came from
  std::string settings_;
  bool record_history_ = false;
  size_t max_entries_ = 0;
};

NativeCachingAllocator allocator;

// The deleter of every DataPtr this allocator hands out.
void local_raw_delete(void* ptr) {
  allocator.free(ptr);
}

}  // namespace Native

CUDAAllocator* get() {
  return &Native::allocator;
}

// c10::GetAllocator(DeviceType::CUDA) finds it once libc10_cuda.so is loaded.
REGISTER_ALLOCATOR(DeviceType::CUDA, &Native::allocator)

}  // namespace c10::cuda::CUDACachingAllocator
