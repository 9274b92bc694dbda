// c10/cuda/CUDAStream.h - CUDA streams: pools of them per device, and the current stream.
// Mirrors PyTorch's c10/cuda/CUDAStream.h. Guide: docs/source/internals/c10_cuda.rst.
//
// A stream is a queue of GPU work; work on different streams may overlap. PyTorch never
// creates a stream per request (cudaStreamCreate is slow and streams are never freed):
//  - each device has a default stream (the legacy NULL stream, StreamId 0);
//  - and, created on first use, pools of kStreamsPerPool = 32 streams for each priority,
//    handed out round robin by getStreamFromPool(): the 33rd request shares a stream with
//    the 1st. Asking for a stream is therefore cheap, and two users may share one.
// Each thread has a *current* stream per device (the default stream until changed with
// setCurrentCUDAStream or CUDAStreamGuard); kernels and the caching allocator use it.
//
// A CUDAStream is a small value: a device index and a StreamId that encodes where the
// cudaStream_t lives (PyTorch's c10::Stream holds the same pair; this tree has no
// c10::Stream yet, so CUDAStream holds them itself):
//
//   StreamId 0                                   the default stream (cudaStream_t nullptr)
//   (index << 5) | (priority type << 1) | 1      stream `index` of a pool; type = pool + 1
//   anything with the last bit 0                 an external cudaStream_t, stored as is
#pragma once

#include <c10/core/Device.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAMacros.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <ostream>
#include <tuple>

namespace c10::cuda {

// PyTorch's c10::StreamId (c10/core/Stream.h).
using StreamId = int64_t;

// [marker: stream constants]
static constexpr int kStreamsPerPoolBits = 5;
static constexpr int kStreamsPerPool = 1 << kStreamsPerPoolBits;  // 32 streams per pool
static constexpr int kStreamTypeBits = 4;
// Pools of distinct priorities: 0 (normal), -1, -2, -3 (higher). The hardware may offer
// fewer (cudaDeviceGetStreamPriorityRange); requests beyond it use the highest it has.
static constexpr int max_compile_time_stream_priorities = 4;
// [end marker: stream constants]

class C10_CUDA_API CUDAStream {
 public:
  // Unchecked: the id is taken as is (it came from this file's encoding).
  CUDAStream(DeviceIndex device_index, StreamId stream_id) : device_index_(device_index), id_(stream_id) {}

  bool operator==(const CUDAStream& other) const noexcept {
    return device_index_ == other.device_index_ && id_ == other.id_;
  }
  bool operator!=(const CUDAStream& other) const noexcept { return !(*this == other); }

  // Usable wherever CUDA wants a stream: cudaMemcpyAsync(..., stream).
  operator cudaStream_t() const { return stream(); }

  DeviceType device_type() const { return DeviceType::CUDA; }
  DeviceIndex device_index() const { return device_index_; }
  Device device() const { return Device(DeviceType::CUDA, device_index_); }
  StreamId id() const { return id_; }

  // The cudaStream_t this names (nullptr for the default stream).
  cudaStream_t stream() const;

  // True if all work queued on the stream has finished (cudaStreamQuery; never blocks).
  bool query() const;
  // Block the calling thread until it has.
  void synchronize() const;
  // The stream's CUDA priority (lower is higher: 0, -1, ...).
  int priority() const;

  // The (least, greatest) priorities getStreamFromPool(int) accepts: (0, -3) on most GPUs.
  static std::tuple<int, int> priority_range();

  // The three numbers Python's torch.cuda.Stream carries (stream_id, device_index,
  // device_type), and back.
  std::tuple<StreamId, DeviceIndex, int> pack3() const {
    return {id_, device_index_, static_cast<int>(DeviceType::CUDA)};
  }
  static CUDAStream unpack3(StreamId stream_id, DeviceIndex device_index, DeviceType device_type);

 private:
  DeviceIndex device_index_;
  StreamId id_;
};

// A stream from the pool of normal (false) or highest (true) priority of `device` (-1: the
// current device), round robin. The pools are created on the first request for the device.
C10_CUDA_API CUDAStream getStreamFromPool(const bool isHighPriority = false, DeviceIndex device = -1);
// The same by priority: 0 is normal, negative is higher ("Expected cuda stream priority to
// be less than or equal to 0, got 1").
C10_CUDA_API CUDAStream getStreamFromPool(const int priority, DeviceIndex device = -1);
// Wrap a cudaStream_t created elsewhere (the caller keeps it alive).
C10_CUDA_API CUDAStream getStreamFromExternal(cudaStream_t ext_stream, DeviceIndex device_index);

// The default (NULL) stream of `device_index` (-1: the current device).
C10_CUDA_API CUDAStream getDefaultCUDAStream(DeviceIndex device_index = -1);
// The calling thread's current stream on `device_index` (-1: the current device); the
// default stream until setCurrentCUDAStream changes it.
C10_CUDA_API CUDAStream getCurrentCUDAStream(DeviceIndex device_index = -1);
// Make `stream` the calling thread's current stream on stream.device_index(). Does not
// change the current device (CUDAStreamGuard does both).
C10_CUDA_API void setCurrentCUDAStream(CUDAStream stream);

C10_CUDA_API std::ostream& operator<<(std::ostream& stream, const CUDAStream& s);

}  // namespace c10::cuda
