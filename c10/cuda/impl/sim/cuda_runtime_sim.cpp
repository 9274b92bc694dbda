// c10/cuda/impl/sim/cuda_runtime_sim.cpp - the simulated CUDA device's runtime: CUDA's runtime
// API (cuda_runtime_api.h) implemented on the CPU, built as a drop-in libcudart.so.13.
// This tree's simulated CUDA device; PyTorch has no such thing (it calls NVIDIA's libcudart).
// Guide: docs/source/internals/cuda_simulated_device.rst.
//
// What it models, and how:
// - Devices: TORCH_CUDA_SIMULATE=N of them (unset or 0: none, cudaErrorNoDevice), each with
//   TORCH_CUDA_SIMULATE_MEMORY bytes (default 8 GiB). Device memory is host memory (mmap,
//   untouched pages cost nothing), so a kernel dereferences a device pointer directly.
// - Streams: an in-order queue drained by a worker thread of its own, so the host runs ahead
//   of the device as it does with a GPU. Kernels, copies, memsets, host functions and event
//   records are queued; cudaStreamWaitEvent makes later work of one stream wait for a point
//   in another. Stream 0 is the legacy default stream: it waits for, and is waited for by,
//   every stream created without cudaStreamNonBlocking (PyTorch's own streams are
//   non-blocking).
// - Errors: cudaGetLastError returns and clears the calling thread's last error. A kernel
//   fault (a device-side assert) is sticky, as on a GPU: from then on the device runs no more
//   work and every call returns cudaErrorAssert.
#include <c10/cuda/impl/sim/KernelExecutor.h>
#include <c10/cuda/impl/sim/SimulatedRuntime.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace c10::cuda::sim {
namespace {

using Clock = std::chrono::steady_clock;

// One unit of queued work. It may start once every (stream, tick) in `waits` has completed.
struct Work {
  std::function<void()> fn;
  std::vector<std::pair<CUstream_st*, uint64_t>> waits;
};

}  // namespace
}  // namespace c10::cuda::sim

// The opaque handles of cuda_runtime_api.h (cudaStream_t is CUstream_st*, cudaEvent_t is
// CUevent_st*): here they are the simulated stream and event themselves.
struct CUstream_st {
  int device = 0;
  unsigned flags = 0;
  int priority = 0;
  bool legacy = false;  // the device's default stream (stream 0)
  // All fields below are guarded by the runtime's one mutex.
  std::deque<c10::cuda::sim::Work> queue;
  uint64_t submitted = 0;  // work items ever queued
  uint64_t completed = 0;  // work items finished (they finish in order)
  bool held = false;
  bool running = false;  // the worker is running queue.front()
  // The worker waits here, so that work queued on one stream wakes that stream's worker only:
  // the stream pool makes dozens of streams per device, and waking all of their workers for
  // every launch costs more than the launch.
  std::condition_variable cv;
  std::thread worker;
};

struct CUevent_st {
  unsigned flags = 0;
  CUstream_st* stream = nullptr;  // where it was last recorded (nullptr: never)
  uint64_t tick = 0;              // that stream's `submitted` count at the record
  // When the device passed the record; shared with the queued marker, which may outlive
  // the event (cudaEventDestroy on a pending record is allowed).
  std::shared_ptr<std::chrono::steady_clock::time_point> time;
};

namespace c10::cuda::sim {
namespace {

constexpr int kMaxDevices = 16;
constexpr size_t kDefaultMemory = size_t(8) << 30;
constexpr size_t kMaxDynamicSharedMemory = 48 * 1024;  // without cudaFuncSetAttribute opt-in

struct Allocation {
  size_t size;
  int device;  // -1: pinned host memory (cudaHostAlloc)
};

struct DeviceState {
  size_t used = 0;
  CUstream_st* legacy = nullptr;
  std::vector<CUstream_st*> streams;  // every stream of the device, legacy included
  cudaError_t sticky = cudaSuccess;
};

// The runtime: one mutex for every queue and counter. A simulation needs clarity more than
// lock-free speed; work items are whole kernels. Host threads that wait for a stream wait on
// `done`, which every completion notifies; each worker waits on its own stream's cv.
struct Runtime {
  std::mutex mu;
  std::condition_variable done;
  int device_count = 0;
  size_t capacity = kDefaultMemory;
  DeviceState devices[kMaxDevices];
  std::map<uintptr_t, Allocation> allocations;  // base address -> allocation

  Runtime() {
    if (const char* env = std::getenv("TORCH_CUDA_SIMULATE")) {
      char* end = nullptr;
      long n = std::strtol(env, &end, 10);
      if (end != env && *end == '\0' && n >= 0 && n <= kMaxDevices) {
        device_count = static_cast<int>(n);
      } else {
        std::fprintf(stderr, "TORCH_CUDA_SIMULATE=%s: expected a number of devices from 0 to %d; "
                             "simulating none\n", env, kMaxDevices);
      }
    }
    if (const char* env = std::getenv("TORCH_CUDA_SIMULATE_MEMORY")) {
      capacity = parse_size(env);
    }
  }

  // "8GiB", "512MiB", "1G", "123456": bytes, with an optional binary suffix.
  static size_t parse_size(const char* text) {
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    std::string unit(end ? end : "");
    size_t scale = 1;
    if (unit.empty() || unit == "B") {
      scale = 1;
    } else if (unit == "K" || unit == "KB" || unit == "KiB") {
      scale = size_t(1) << 10;
    } else if (unit == "M" || unit == "MB" || unit == "MiB") {
      scale = size_t(1) << 20;
    } else if (unit == "G" || unit == "GB" || unit == "GiB") {
      scale = size_t(1) << 30;
    } else {
      scale = 0;
    }
    if (end == text || scale == 0 || !(value > 0) || value * scale > 1e15) {
      std::fprintf(stderr, "TORCH_CUDA_SIMULATE_MEMORY=%s: expected a size such as 4GiB; using 8GiB\n", text);
      return kDefaultMemory;
    }
    return static_cast<size_t>(value * static_cast<double>(scale));
  }
};

Runtime& runtime() {
  // Never destroyed: stream workers may still be finishing when the process exits.
  static Runtime* rt = new Runtime();
  return *rt;
}

thread_local int tls_device = 0;
thread_local cudaError_t tls_last_error = cudaSuccess;

cudaError_t fail(cudaError_t error) {
  tls_last_error = error;
  return error;
}

// The sticky error of the current device, if any (recorded as the thread's last error too).
cudaError_t sticky_error(Runtime& rt) {
  if (rt.device_count == 0) {
    return cudaSuccess;
  }
  cudaError_t e;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    e = rt.devices[tls_device].sticky;
  }
  if (e != cudaSuccess) {
    tls_last_error = e;
  }
  return e;
}

// ---- streams --------------------------------------------------------------------------------

bool waits_done(const Work& w) {
  for (const auto& [stream, tick] : w.waits) {
    if (stream->completed < tick) {
      return false;
    }
  }
  return true;
}

// A completion may let another stream's front item start (a cudaStreamWaitEvent, or the legacy
// stream's implicit ordering, on any device): wake the workers that have work queued, and the
// host threads waiting in wait_for. Called with rt.mu held.
void notify_completion(Runtime& rt) {
  for (int d = 0; d < rt.device_count; ++d) {
    for (CUstream_st* other : rt.devices[d].streams) {
      if (!other->queue.empty()) {
        other->cv.notify_one();
      }
    }
  }
  rt.done.notify_all();
}

void worker_loop(CUstream_st* s) {
  Runtime& rt = runtime();
  std::unique_lock<std::mutex> lock(rt.mu);
  for (;;) {
    s->cv.wait(lock, [&] { return !s->queue.empty() && !s->held && waits_done(s->queue.front()); });
    s->running = true;
    std::function<void()> fn = std::move(s->queue.front().fn);
    const bool faulted = rt.devices[s->device].sticky != cudaSuccess;
    lock.unlock();
    if (!faulted && fn) {
      tls_device = s->device;
      fn();  // a kernel that faults marks the device (see enqueue_kernel)
    }
    lock.lock();
    s->queue.pop_front();
    s->running = false;
    s->completed++;
    notify_completion(rt);
  }
}

CUstream_st* new_stream(Runtime& rt, int device, unsigned flags, int priority, bool legacy) {
  auto* s = new CUstream_st();
  s->device = device;
  s->flags = flags;
  s->priority = priority;
  s->legacy = legacy;
  s->worker = std::thread(worker_loop, s);
  s->worker.detach();  // streams live as long as the process (workers wait on the queue)
  rt.devices[device].streams.push_back(s);
  return s;
}

// The stream a handle names: 0, cudaStreamLegacy and cudaStreamPerThread are the current
// device's default stream. Called with rt.mu held.
CUstream_st* resolve(Runtime& rt, cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) {
    DeviceState& d = rt.devices[tls_device];
    if (d.legacy == nullptr) {
      d.legacy = new_stream(rt, tls_device, 0, 0, /*legacy=*/true);
    }
    return d.legacy;
  }
  return stream;
}

// Queue fn on a stream, with the legacy default stream's implicit ordering. Returns the
// stream and the tick at which the work completes. Called with rt.mu held.
std::pair<CUstream_st*, uint64_t> enqueue_locked(Runtime& rt, cudaStream_t handle, std::function<void()> fn) {
  CUstream_st* s = resolve(rt, handle);
  Work w{std::move(fn), {}};
  if (s->legacy) {
    for (CUstream_st* other : rt.devices[s->device].streams) {
      if (other != s && !(other->flags & cudaStreamNonBlocking) && other->submitted > other->completed) {
        w.waits.emplace_back(other, other->submitted);
      }
    }
  } else if (!(s->flags & cudaStreamNonBlocking)) {
    CUstream_st* legacy = rt.devices[s->device].legacy;
    if (legacy != nullptr && legacy->submitted > legacy->completed) {
      w.waits.emplace_back(legacy, legacy->submitted);
    }
  }
  s->queue.push_back(std::move(w));
  const uint64_t tick = ++s->submitted;
  s->cv.notify_one();
  return {s, tick};
}

std::pair<CUstream_st*, uint64_t> enqueue(cudaStream_t handle, std::function<void()> fn) {
  Runtime& rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  return enqueue_locked(rt, handle, std::move(fn));
}

// Wait until `s` has completed `tick` work items. A held stream would never get there.
cudaError_t wait_for(CUstream_st* s, uint64_t tick) {
  Runtime& rt = runtime();
  std::unique_lock<std::mutex> lock(rt.mu);
  if (s->held && s->completed < tick) {
    return fail(cudaErrorNotReady);
  }
  rt.done.wait(lock, [&] { return s->completed >= tick; });
  const cudaError_t e = rt.devices[s->device].sticky;
  return e == cudaSuccess ? cudaSuccess : fail(e);
}

// ---- memory ---------------------------------------------------------------------------------

const Allocation* find_allocation(Runtime& rt, const void* ptr) {
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  auto it = rt.allocations.upper_bound(p);
  if (it == rt.allocations.begin()) {
    return nullptr;
  }
  --it;
  return p < it->first + it->second.size ? &it->second : nullptr;
}

bool is_device_pointer(Runtime& rt, const void* ptr) {
  std::lock_guard<std::mutex> lock(rt.mu);
  const Allocation* a = find_allocation(rt, ptr);
  return a != nullptr && a->device >= 0;
}

bool is_pinned_pointer(Runtime& rt, const void* ptr) {
  std::lock_guard<std::mutex> lock(rt.mu);
  const Allocation* a = find_allocation(rt, ptr);
  return a != nullptr && a->device < 0;
}

size_t page_round(size_t n) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return (n + page - 1) / page * page;
}

void* map_memory(size_t size) {
  void* p = mmap(nullptr, page_round(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : p;
}

cudaError_t copy_async(void* dst, const void* src, size_t count, cudaStream_t stream) {
  Runtime& rt = runtime();
  if (const cudaError_t e = sticky_error(rt)) {
    return e;
  }
  if (count == 0) {
    return cudaSuccess;
  }
  if (dst == nullptr || src == nullptr) {
    return fail(cudaErrorInvalidValue);
  }
  const bool src_device = is_device_pointer(rt, src);
  const bool dst_device = is_device_pointer(rt, dst);
  // As CUDA does with pageable host memory: a copy from it is staged at once, so the caller
  // may reuse its buffer when the call returns; a copy into it completes before the call
  // returns. Pinned memory (cudaHostAlloc) is copied by the device, asynchronously.
  if (!src_device && !is_pinned_pointer(rt, src)) {
    auto staged = std::make_shared<std::vector<char>>(static_cast<const char*>(src),
                                                      static_cast<const char*>(src) + count);
    enqueue(stream, [dst, staged, count] { std::memcpy(dst, staged->data(), count); });
    return cudaSuccess;
  }
  auto [s, tick] = enqueue(stream, [dst, src, count] { std::memmove(dst, src, count); });
  if (!dst_device && !is_pinned_pointer(rt, dst)) {
    return wait_for(s, tick);
  }
  return cudaSuccess;
}

// ---- kernels --------------------------------------------------------------------------------

const char* grid_status_message(GridStatus status) {
  switch (status) {
    case GridStatus::AssertFailed:
      return "device-side assert triggered";
    case GridStatus::BadBarrier:
      return "a barrier or warp collective was reached by some threads of a block and not others";
    default:
      return "";
  }
}

}  // namespace

cudaError_t validate_launch(dim3 grid, dim3 block, size_t dynamic_smem) {
  // The limits of every GPU since compute capability 3.0 (CUDA Programming Guide, Table 21).
  const unsigned long long threads = 1ULL * block.x * block.y * block.z;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0 || threads > 1024 || block.x > 1024 ||
      block.y > 1024 || block.z > 64 || grid.x > 2147483647u || grid.y > 65535 || grid.z > 65535) {
    return cudaErrorInvalidConfiguration;
  }
  if (dynamic_smem > kMaxDynamicSharedMemory) {
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

void enqueue_kernel(cudaStream_t stream, dim3 grid, dim3 block, size_t dynamic_smem,
                    std::function<void()> thread_body, const char* name) {
  Runtime& rt = runtime();
  if (rt.device_count == 0) {
    set_last_error(cudaErrorNoDevice);
    return;
  }
  if (sticky_error(rt) != cudaSuccess) {
    return;
  }
  std::string kernel_name = name ? name : "kernel";
  enqueue(stream, [grid, block, dynamic_smem, body = std::move(thread_body), kernel_name] {
    const GridStatus status = run_grid(grid, block, dynamic_smem, body);
    if (status != GridStatus::Success) {
      Runtime& r = runtime();
      std::fprintf(stderr, "simulated CUDA device: kernel %s: %s\n", kernel_name.c_str(), grid_status_message(status));
      std::lock_guard<std::mutex> lock(r.mu);
      r.devices[tls_device].sticky =
          status == GridStatus::AssertFailed ? cudaErrorAssert : cudaErrorLaunchFailure;
    }
  });
}

void set_last_error(cudaError_t error) {
  tls_last_error = error;
}

void hold_stream(cudaStream_t stream) {
  Runtime& rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  resolve(rt, stream)->held = true;
}

void release_stream(cudaStream_t stream) {
  Runtime& rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  CUstream_st* s = resolve(rt, stream);
  s->held = false;
  s->cv.notify_one();
}

size_t device_memory_capacity() {
  return runtime().capacity;
}

}  // namespace c10::cuda::sim

using c10::cuda::sim::runtime;
using c10::cuda::sim::Runtime;
namespace sim = c10::cuda::sim;

extern "C" {

int c10_cuda_sim_is_simulated() {
  return 1;
}

cudaError_t c10_cuda_sim_hold_stream(cudaStream_t stream) {
  if (runtime().device_count == 0) {
    return cudaErrorNoDevice;
  }
  sim::hold_stream(stream);
  return cudaSuccess;
}

cudaError_t c10_cuda_sim_release_stream(cudaStream_t stream) {
  if (runtime().device_count == 0) {
    return cudaErrorNoDevice;
  }
  sim::release_stream(stream);
  return cudaSuccess;
}

// ---- errors ---------------------------------------------------------------------------------

cudaError_t cudaGetLastError(void) {
  const cudaError_t e = sim::tls_last_error;
  // A sticky error cannot be cleared: the device is unusable from then on.
  Runtime& rt = runtime();
  cudaError_t sticky = cudaSuccess;
  if (rt.device_count > 0) {
    std::lock_guard<std::mutex> lock(rt.mu);
    sticky = rt.devices[sim::tls_device].sticky;
  }
  sim::tls_last_error = sticky;
  return e != cudaSuccess ? e : sticky;
}

cudaError_t cudaPeekAtLastError(void) {
  return sim::tls_last_error;
}

// CUDA's own words for the errors this runtime returns.
const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorPeerAccessAlreadyEnabled: return "peer access is already enabled";
    default: return "unrecognized error code";
  }
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorPeerAccessAlreadyEnabled: return "cudaErrorPeerAccessAlreadyEnabled";
    default: return "cudaErrorUnknown";
  }
}

// ---- versions and devices -------------------------------------------------------------------

cudaError_t cudaDriverGetVersion(int* version) {
  if (version == nullptr) return sim::fail(cudaErrorInvalidValue);
  *version = CUDART_VERSION;  // the simulated driver is as new as the runtime
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* version) {
  if (version == nullptr) return sim::fail(cudaErrorInvalidValue);
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return sim::fail(cudaErrorInvalidValue);
  *count = runtime().device_count;
  return *count == 0 ? sim::fail(cudaErrorNoDevice) : cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return sim::fail(cudaErrorInvalidValue);
  if (runtime().device_count == 0) return sim::fail(cudaErrorNoDevice);
  *device = sim::tls_device;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  const int n = runtime().device_count;
  if (n == 0) return sim::fail(cudaErrorNoDevice);
  if (device < 0 || device >= n) return sim::fail(cudaErrorInvalidDevice);
  sim::tls_device = device;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp* prop, int device) {
  Runtime& rt = runtime();
  if (prop == nullptr) return sim::fail(cudaErrorInvalidValue);
  if (device < 0 || device >= rt.device_count) return sim::fail(rt.device_count ? cudaErrorInvalidDevice : cudaErrorNoDevice);
  std::memset(prop, 0, sizeof(*prop));
  std::snprintf(prop->name, sizeof(prop->name), "Simulated CUDA device (CPU)");
  prop->totalGlobalMem = rt.capacity;
  prop->sharedMemPerBlock = sim::kMaxDynamicSharedMemory;
  prop->sharedMemPerBlockOptin = sim::kMaxDynamicSharedMemory;
  prop->sharedMemPerMultiprocessor = 2 * sim::kMaxDynamicSharedMemory;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->maxThreadsDim[0] = 1024;
  prop->maxThreadsDim[1] = 1024;
  prop->maxThreadsDim[2] = 64;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = 65535;
  prop->maxGridSize[2] = 65535;
  prop->totalConstMem = 65536;
  // It reports compute capability 8.0: what the kernels may assume (warp shuffles, atomics
  // on double), not a speed.
  prop->major = 8;
  prop->minor = 0;
  prop->multiProcessorCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  prop->l2CacheSize = 1 << 20;
  prop->memoryBusWidth = 64;
  prop->concurrentKernels = 1;
  prop->asyncEngineCount = 1;
  prop->unifiedAddressing = 1;
  prop->canMapHostMemory = 1;
  prop->pciDeviceID = device;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, enum cudaDeviceAttr attr, int device) {
  cudaDeviceProp prop;
  if (value == nullptr) return sim::fail(cudaErrorInvalidValue);
  if (const cudaError_t e = cudaGetDeviceProperties(&prop, device)) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = prop.maxThreadsPerBlock; break;
    case cudaDevAttrWarpSize: *value = prop.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = prop.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = prop.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = prop.minor; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(prop.sharedMemPerBlock); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(prop.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = prop.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrMaxBlockDimX: *value = prop.maxThreadsDim[0]; break;
    case cudaDevAttrMaxGridDimX: *value = prop.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = prop.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = prop.maxGridSize[2]; break;
    default: *value = 0; break;
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  Runtime& rt = runtime();
  if (rt.device_count == 0) return sim::fail(cudaErrorNoDevice);
  std::vector<std::pair<CUstream_st*, uint64_t>> targets;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    for (CUstream_st* s : rt.devices[sim::tls_device].streams) {
      targets.emplace_back(s, s->submitted);
    }
  }
  for (const auto& [s, tick] : targets) {
    if (const cudaError_t e = sim::wait_for(s, tick)) return e;
  }
  return sim::sticky_error(rt);
}

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  // A smaller number is a higher priority, as on a GPU. The simulated device records the
  // priority and schedules every stream alike.
  if (leastPriority) *leastPriority = 0;
  if (greatestPriority) *greatestPriority = -5;
  return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  const int n = runtime().device_count;
  if (canAccessPeer == nullptr) return sim::fail(cudaErrorInvalidValue);
  if (device < 0 || device >= n || peerDevice < 0 || peerDevice >= n) return sim::fail(cudaErrorInvalidDevice);
  *canAccessPeer = device != peerDevice;  // one address space: every pair may
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int /*flags*/) {
  if (peerDevice < 0 || peerDevice >= runtime().device_count) return sim::fail(cudaErrorInvalidDevice);
  return cudaSuccess;
}

// ---- memory ---------------------------------------------------------------------------------

cudaError_t cudaMalloc(void** devPtr, size_t size) {
  Runtime& rt = runtime();
  if (devPtr == nullptr) return sim::fail(cudaErrorInvalidValue);
  if (rt.device_count == 0) return sim::fail(cudaErrorNoDevice);
  if (const cudaError_t e = sim::sticky_error(rt)) return e;
  *devPtr = nullptr;
  if (size == 0) return cudaSuccess;
  const size_t rounded = sim::page_round(size);
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    sim::DeviceState& d = rt.devices[sim::tls_device];
    if (rounded > rt.capacity - d.used) return sim::fail(cudaErrorMemoryAllocation);
    d.used += rounded;
  }
  void* p = sim::map_memory(rounded);
  std::lock_guard<std::mutex> lock(rt.mu);
  if (p == nullptr) {
    rt.devices[sim::tls_device].used -= rounded;
    return sim::fail(cudaErrorMemoryAllocation);
  }
  rt.allocations[reinterpret_cast<uintptr_t>(p)] = sim::Allocation{rounded, sim::tls_device};
  *devPtr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* devPtr) {
  Runtime& rt = runtime();
  if (devPtr == nullptr) return cudaSuccess;
  // cudaFree waits for the device, as on a GPU: the memory may still be in use by queued work.
  if (const cudaError_t e = cudaDeviceSynchronize()) return e;
  size_t size = 0;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    auto it = rt.allocations.find(reinterpret_cast<uintptr_t>(devPtr));
    if (it == rt.allocations.end() || it->second.device < 0) return sim::fail(cudaErrorInvalidValue);
    size = it->second.size;
    rt.devices[it->second.device].used -= size;
    rt.allocations.erase(it);
  }
  munmap(devPtr, size);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  Runtime& rt = runtime();
  if (rt.device_count == 0) return sim::fail(cudaErrorNoDevice);
  std::lock_guard<std::mutex> lock(rt.mu);
  if (free) *free = rt.capacity - rt.devices[sim::tls_device].used;
  if (total) *total = rt.capacity;
  return cudaSuccess;
}

cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int /*flags*/) {
  Runtime& rt = runtime();
  if (pHost == nullptr) return sim::fail(cudaErrorInvalidValue);
  *pHost = nullptr;
  if (size == 0) return cudaSuccess;
  void* p = sim::map_memory(size);
  if (p == nullptr) return sim::fail(cudaErrorMemoryAllocation);
  std::lock_guard<std::mutex> lock(rt.mu);
  rt.allocations[reinterpret_cast<uintptr_t>(p)] = sim::Allocation{sim::page_round(size), -1};
  *pHost = p;
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  return cudaHostAlloc(ptr, size, 0);
}

cudaError_t cudaFreeHost(void* ptr) {
  Runtime& rt = runtime();
  if (ptr == nullptr) return cudaSuccess;
  size_t size = 0;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    auto it = rt.allocations.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == rt.allocations.end() || it->second.device >= 0) return sim::fail(cudaErrorInvalidValue);
    size = it->second.size;
    rt.allocations.erase(it);
  }
  munmap(ptr, size);
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes* attributes, const void* ptr) {
  Runtime& rt = runtime();
  if (attributes == nullptr) return sim::fail(cudaErrorInvalidValue);
  std::memset(attributes, 0, sizeof(*attributes));
  std::lock_guard<std::mutex> lock(rt.mu);
  const sim::Allocation* a = sim::find_allocation(rt, ptr);
  if (a == nullptr) {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    attributes->hostPointer = const_cast<void*>(ptr);
  } else if (a->device < 0) {
    attributes->type = cudaMemoryTypeHost;
    attributes->hostPointer = attributes->devicePointer = const_cast<void*>(ptr);
  } else {
    attributes->type = cudaMemoryTypeDevice;
    attributes->device = a->device;
    attributes->devicePointer = const_cast<void*>(ptr);
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind /*kind*/,
                            cudaStream_t stream) {
  // One address space: the kind follows from the pointers, as with cudaMemcpyDefault.
  return sim::copy_async(dst, src, count, stream);
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind) {
  if (const cudaError_t e = cudaMemcpyAsync(dst, src, count, kind, nullptr)) return e;
  Runtime& rt = runtime();
  std::pair<CUstream_st*, uint64_t> target;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    CUstream_st* s = sim::resolve(rt, nullptr);
    target = {s, s->submitted};
  }
  return sim::wait_for(target.first, target.second);
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int /*dstDevice*/, const void* src, int /*srcDevice*/, size_t count,
                                cudaStream_t stream) {
  return sim::copy_async(dst, src, count, stream);
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  Runtime& rt = runtime();
  if (const cudaError_t e = sim::sticky_error(rt)) return e;
  if (count == 0) return cudaSuccess;
  if (!sim::is_device_pointer(rt, devPtr)) return sim::fail(cudaErrorInvalidValue);
  sim::enqueue(stream, [devPtr, value, count] { std::memset(devPtr, value, count); });
  return cudaSuccess;
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  if (const cudaError_t e = cudaMemsetAsync(devPtr, value, count, nullptr)) return e;
  return cudaDeviceSynchronize();
}

// ---- streams --------------------------------------------------------------------------------

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
  Runtime& rt = runtime();
  if (pStream == nullptr) return sim::fail(cudaErrorInvalidValue);
  if (rt.device_count == 0) return sim::fail(cudaErrorNoDevice);
  std::lock_guard<std::mutex> lock(rt.mu);
  *pStream = sim::new_stream(rt, sim::tls_device, flags, std::clamp(priority, -5, 0), /*legacy=*/false);
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t* pStream) {
  return cudaStreamCreateWithPriority(pStream, 0, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  // Queued work still runs; the stream's worker then idles for the rest of the process.
  return stream == nullptr ? sim::fail(cudaErrorInvalidResourceHandle) : cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  Runtime& rt = runtime();
  if (priority == nullptr) return sim::fail(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(rt.mu);
  *priority = sim::resolve(rt, hStream)->priority;
  return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  Runtime& rt = runtime();
  if (flags == nullptr) return sim::fail(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(rt.mu);
  *flags = sim::resolve(rt, hStream)->flags;
  return cudaSuccess;
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  Runtime& rt = runtime();
  if (rt.device_count == 0) return sim::fail(cudaErrorNoDevice);
  if (const cudaError_t e = sim::sticky_error(rt)) return e;
  std::lock_guard<std::mutex> lock(rt.mu);
  CUstream_st* s = sim::resolve(rt, stream);
  return s->completed == s->submitted ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  Runtime& rt = runtime();
  if (rt.device_count == 0) return sim::fail(cudaErrorNoDevice);
  std::pair<CUstream_st*, uint64_t> target;
  {
    std::lock_guard<std::mutex> lock(rt.mu);
    CUstream_st* s = sim::resolve(rt, stream);
    target = {s, s->submitted};
  }
  return sim::wait_for(target.first, target.second);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int /*flags*/) {
  Runtime& rt = runtime();
  if (event == nullptr) return sim::fail(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(rt.mu);
  CUstream_st* s = sim::resolve(rt, stream);
  sim::Work w{nullptr, {}};
  if (event->stream != nullptr) {
    w.waits.emplace_back(event->stream, event->tick);
  }
  s->queue.push_back(std::move(w));
  ++s->submitted;
  s->cv.notify_one();
  return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
  if (fn == nullptr) return sim::fail(cudaErrorInvalidValue);
  if (const cudaError_t e = sim::sticky_error(runtime())) return e;
  sim::enqueue(stream, [fn, userData] { fn(userData); });
  return cudaSuccess;
}

// ---- events ---------------------------------------------------------------------------------

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  if (event == nullptr) return sim::fail(cudaErrorInvalidValue);
  *event = new CUevent_st();
  (*event)->flags = flags;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return cudaEventCreateWithFlags(event, 0);
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (event == nullptr) return sim::fail(cudaErrorInvalidResourceHandle);
  Runtime& rt = runtime();
  std::lock_guard<std::mutex> lock(rt.mu);
  delete event;
  return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  Runtime& rt = runtime();
  if (event == nullptr) return sim::fail(cudaErrorInvalidResourceHandle);
  if (rt.device_count == 0) return sim::fail(cudaErrorNoDevice);
  std::lock_guard<std::mutex> lock(rt.mu);
  auto time = std::make_shared<sim::Clock::time_point>();
  auto [s, tick] = sim::enqueue_locked(rt, stream, [time] { *time = sim::Clock::now(); });
  event->stream = s;
  event->tick = tick;
  event->time = std::move(time);
  return cudaSuccess;
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  Runtime& rt = runtime();
  if (event == nullptr) return sim::fail(cudaErrorInvalidResourceHandle);
  if (const cudaError_t e = sim::sticky_error(rt)) return e;
  std::lock_guard<std::mutex> lock(rt.mu);
  // An event never recorded has completed, as in CUDA.
  return event->stream == nullptr || event->stream->completed >= event->tick ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (event == nullptr) return sim::fail(cudaErrorInvalidResourceHandle);
  CUstream_st* s;
  uint64_t tick;
  {
    std::lock_guard<std::mutex> lock(runtime().mu);
    s = event->stream;
    tick = event->tick;
  }
  return s == nullptr ? cudaSuccess : sim::wait_for(s, tick);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  Runtime& rt = runtime();
  if (ms == nullptr || start == nullptr || end == nullptr) return sim::fail(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(rt.mu);
  if ((start->flags & cudaEventDisableTiming) || (end->flags & cudaEventDisableTiming) || !start->stream ||
      !end->stream) {
    return sim::fail(cudaErrorInvalidResourceHandle);
  }
  if (start->stream->completed < start->tick || end->stream->completed < end->tick) {
    return sim::fail(cudaErrorNotReady);
  }
  *ms = std::chrono::duration<float, std::milli>(*end->time - *start->time).count();
  return cudaSuccess;
}

}  // extern "C"
