// c10/cuda/CUDAStream.cpp - the stream pools, StreamId encoding and the current stream.
// Mirrors PyTorch's c10/cuda/CUDAStream.cpp. Guide: docs/source/internals/c10_cuda.rst.
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include <array>
#include <atomic>
#include <memory>
#include <mutex>

namespace c10::cuda {

namespace {

// Global state, created on first use (never at load time: there may be no GPU).
std::once_flag init_flag;
DeviceIndex num_gpus = -1;
// Streams do not block on the legacy default stream: work on a pool stream may overlap
// work on stream 0.
constexpr unsigned int kDefaultFlags = cudaStreamNonBlocking;
int max_stream_priorities = 1;

// Per device: created once, all 32 x priorities streams at a time.
std::array<std::once_flag, C10_COMPILE_TIME_MAX_GPUS> device_flags;
// Per priority and device, the round-robin counter and the 32 streams.
std::array<std::array<std::atomic<uint32_t>, C10_COMPILE_TIME_MAX_GPUS>, max_compile_time_stream_priorities>
    priority_counters;
std::array<std::array<std::array<cudaStream_t, kStreamsPerPool>, C10_COMPILE_TIME_MAX_GPUS>,
           max_compile_time_stream_priorities>
    streams;

// Per thread: the current stream of each device (0: the default stream).
thread_local std::unique_ptr<StreamId[]> current_streams = nullptr;

// What kind of stream an id names: DEFAULT, a pool (1 + priority index), or EXT.
class StreamIdType {
 public:
  static const uint8_t DEFAULT = 0x0;
  static const uint8_t EXT = 0xF;

  explicit StreamIdType(uint8_t stream_type) : stream_type_(stream_type) {}
  bool isExt() const { return stream_type_ == EXT; }
  bool isDefault() const { return stream_type_ == DEFAULT; }
  uint8_t getStreamType() const { return stream_type_; }

 private:
  uint8_t stream_type_;
};

StreamIdType streamIdType(StreamId s) {
  // External streams store the cudaStream_t itself: an aligned pointer, last bit 0.
  if ((!(s & 1)) && s) {
    return StreamIdType(StreamIdType::EXT);
  }
  // Bit 0 is the "native stream" marker; the type is in the next kStreamTypeBits bits.
  const int mask_for_type = (1 << kStreamTypeBits) - 1;
  const auto val = static_cast<uint8_t>((s >> 1) & mask_for_type);
  TORCH_INTERNAL_ASSERT(val || !(s & 1), "invalid StreamId", s);
  return StreamIdType(val);
}

size_t streamIdIndex(StreamId s) {
  return static_cast<size_t>((s >> (kStreamTypeBits + 1)) & ((1 << kStreamsPerPoolBits) - 1));
}

StreamId makeStreamId(StreamIdType st, size_t si) {
  if (st.isDefault()) {
    return static_cast<StreamId>(0);
  }
  return (static_cast<StreamId>(si) << (kStreamTypeBits + 1)) | static_cast<StreamId>(st.getStreamType() << 1) | 1;
}

void initGlobalStreamState() {
  num_gpus = device_count();
  TORCH_CHECK(num_gpus <= C10_COMPILE_TIME_MAX_GPUS, "Number of CUDA devices on the machine is larger than the ",
              "compiled max number of gpus expected (", C10_COMPILE_TIME_MAX_GPUS, "). Increase that and recompile.");
  if (num_gpus == 0) {
    return;  // nothing to size; every request is refused by check_gpu
  }
  int leastPriority = -1, greatestPriority = -1;
  C10_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&leastPriority, &greatestPriority));
  // greatestPriority is negative: the range holds leastPriority - greatestPriority + 1 levels.
  const int range = leastPriority - greatestPriority + 1;
  max_stream_priorities = range >= max_compile_time_stream_priorities ? max_compile_time_stream_priorities : range;
}

void check_gpu(DeviceIndex device_index) {
  TORCH_CHECK(device_index >= 0 && device_index < num_gpus, "Device index value ", static_cast<int>(device_index),
              " is out of index range [0, ", static_cast<int>(num_gpus), ")");
}

// All the pool streams of one device, created with the device made current.
void initDeviceStreamState(DeviceIndex device_index) {
  CUDAGuard device_guard{device_index};
  for (int i = 0; i < kStreamsPerPool; ++i) {
    for (int p = 0; p < max_stream_priorities; ++p) {
      auto& stream = streams[p][device_index][i];
      const int pri = -p;  // lower number is higher priority
      C10_CUDA_CHECK(cudaStreamCreateWithPriority(&stream, kDefaultFlags, pri));
      priority_counters[p][device_index] = 0;
    }
  }
}

// The global state once per process; this thread's current streams once per thread.
void initCUDAStreamsOnce() {
  std::call_once(init_flag, initGlobalStreamState);
  if (current_streams) {
    return;
  }
  current_streams = std::make_unique<StreamId[]>(num_gpus > 0 ? num_gpus : 1);
  for (DeviceIndex i = 0; i < num_gpus; ++i) {
    current_streams[i] = makeStreamId(StreamIdType(StreamIdType::DEFAULT), 0);
  }
}

// [marker: get_idx]
uint32_t get_idx(std::atomic<uint32_t>& counter) {
  const uint32_t raw_idx = counter++;
  return raw_idx % kStreamsPerPool;
}
// [end marker: get_idx]

DeviceIndex resolve(DeviceIndex device_index) {
  if (device_index == -1) {
    device_index = current_device();
  }
  check_gpu(device_index);
  return device_index;
}

}  // namespace

cudaStream_t CUDAStream::stream() const {
  const StreamIdType st = streamIdType(id_);
  const size_t si = streamIdIndex(id_);
  if (st.isDefault()) {
    TORCH_INTERNAL_ASSERT(si == 0, "Unrecognized stream ", *this,
                          " (I think this should be the default stream, but I got a non-zero index ", si, ").");
    return nullptr;
  }
  if (st.isExt()) {
    return reinterpret_cast<cudaStream_t>(id_);
  }
  TORCH_INTERNAL_ASSERT(st.getStreamType() >= 1 && st.getStreamType() <= max_stream_priorities,
                        "Unrecognized stream ", *this, " (I didn't recognize the stream type)");
  return streams[st.getStreamType() - 1][device_index_][si];
}

bool CUDAStream::query() const {
  CUDAGuard guard{device_index_};
  const cudaError_t err = C10_CUDA_ERROR_HANDLED(cudaStreamQuery(stream()));
  if (err == cudaSuccess) {
    return true;
  } else if (err != cudaErrorNotReady) {
    C10_CUDA_CHECK(err);
  } else {
    // "Not ready" is an answer, not an error: clear it.
    (void)cudaGetLastError();
  }
  return false;
}

void CUDAStream::synchronize() const {
  CUDAGuard guard{device_index_};
  stream_synchronize(stream());
}

int CUDAStream::priority() const {
  CUDAGuard guard{device_index_};
  int priority = 0;
  C10_CUDA_CHECK(cudaStreamGetPriority(stream(), &priority));
  return priority;
}

std::tuple<int, int> CUDAStream::priority_range() {
  int least_priority = 0, greatest_priority = 0;
  C10_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least_priority, &greatest_priority));
  TORCH_INTERNAL_ASSERT(least_priority == 0, "Unexpected CUDA stream priority range");
  TORCH_INTERNAL_ASSERT(greatest_priority <= -1, "Unexpected CUDA stream priority range");
  greatest_priority = std::max(-max_compile_time_stream_priorities + 1, greatest_priority);
  return std::make_tuple(least_priority, greatest_priority);
}

CUDAStream CUDAStream::unpack3(StreamId stream_id, DeviceIndex device_index, DeviceType device_type) {
  TORCH_CHECK(device_type == DeviceType::CUDA, "Expected a CUDA stream, got a stream of device type ",
              static_cast<int>(device_type));
  return CUDAStream(device_index, stream_id);
}

// [marker: getStreamFromPool]
CUDAStream getStreamFromPool(const int priority, DeviceIndex device_index) {
  initCUDAStreamsOnce();
  if (device_index == -1) {
    device_index = current_device();
  }
  TORCH_CHECK(priority <= 0, "Expected cuda stream priority to be less than or equal to 0, got ", priority);
  check_gpu(device_index);
  // Create the device's pools on first use, all at once.
  std::call_once(device_flags[device_index], initDeviceStreamState, device_index);
  int pri_idx = -priority;
  pri_idx = std::min(pri_idx, max_stream_priorities - 1);  // beyond the hardware: the highest it has
  const auto idx = get_idx(priority_counters[pri_idx][device_index]);
  const StreamIdType id_type = StreamIdType(static_cast<uint8_t>(pri_idx + 1));
  return CUDAStream(device_index, makeStreamId(id_type, idx));
}

CUDAStream getStreamFromPool(const bool isHighPriority, DeviceIndex device_index) {
  initCUDAStreamsOnce();
  const int priority = isHighPriority ? -max_stream_priorities + 1 : 0;
  return getStreamFromPool(priority, device_index);
}
// [end marker: getStreamFromPool]

CUDAStream getStreamFromExternal(cudaStream_t ext_stream, DeviceIndex device_index) {
  // The pointer itself is the id: its last bit is 0, which marks it external.
  return CUDAStream(device_index, reinterpret_cast<StreamId>(ext_stream));
}

CUDAStream getDefaultCUDAStream(DeviceIndex device_index) {
  initCUDAStreamsOnce();
  device_index = resolve(device_index);
  return CUDAStream(device_index, makeStreamId(StreamIdType(StreamIdType::DEFAULT), 0));
}

// [marker: getCurrentCUDAStream]
CUDAStream getCurrentCUDAStream(DeviceIndex device_index) {
  initCUDAStreamsOnce();
  device_index = resolve(device_index);
  return CUDAStream(device_index, current_streams[device_index]);
}

void setCurrentCUDAStream(CUDAStream stream) {
  initCUDAStreamsOnce();
  check_gpu(stream.device_index());
  current_streams[stream.device_index()] = stream.id();
}
// [end marker: getCurrentCUDAStream]

std::ostream& operator<<(std::ostream& stream, const CUDAStream& s) {
  return stream << "stream " << s.id() << " on device " << s.device();
}

}  // namespace c10::cuda
