// torch/csrc/cuda/Module.cpp - torch._C._cuda_*: devices, streams and the caching allocator.
// Mirrors PyTorch's torch/csrc/cuda/Module.cpp (THCPModule_*). Compiled with USE_CUDA only.
// Guide: docs/source/internals/c10_cuda.rst.
//
// torch/cuda/__init__.py and torch/cuda/memory.py call these with PyTorch's names. Calls that
// may wait for the GPU release the GIL, so other Python threads run meanwhile.
#include <torch/csrc/cuda/Module.h>
#include <torch/csrc/utils/device_lazy_init.h>
#include <torch/csrc/cuda/memory_snapshot.h>
#include <torch/csrc/autograd/python_variable.h>

#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/cuda/CUDAAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAStream.h>

#include <pybind11/stl.h>

#include <dlfcn.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>

namespace py = pybind11;

namespace torch::cuda {

namespace CCA = c10::cuda::CUDACachingAllocator;

void lazy_init() {
  torch::utils::device_lazy_init(c10::DeviceType::CUDA);
}

namespace {

py::tuple streamToTuple(const c10::cuda::CUDAStream& stream) {
  auto [id, device, type] = stream.pack3();
  return py::make_tuple(id, static_cast<int>(device), type);
}

// The settings part of memory._snapshot(): what the allocator runs with.
py::dict allocatorSettingsToDict() {
  using c10::CachingAllocator::AllocatorConfig;
  AllocatorConfig config;
  const std::string settings = CCA::getAllocatorSettings();
  config.parseArgs(settings);
  py::dict d;
  d["PYTORCH_CUDA_ALLOC_CONF"] = settings;
  d["max_split_size"] = static_cast<int64_t>(config.max_split_size());
  d["garbage_collection_threshold"] = config.garbage_collection_threshold();
  d["expandable_segments"] = config.expandable_segments();
  py::dict roundup;
  size_t key = 1;  // interval start in MiB: 1, 2, 4, ... (PyTorch's keys)
  for (size_t v : config.roundup_power2_divisions()) {
    roundup[py::str(std::to_string(key))] = static_cast<int64_t>(v);
    key *= 2;
  }
  d["roundup_power2_divisions"] = roundup;
  return d;
}

// PyTorch's torch.cuda._sleep spins a kernel for `cycles` GPU clock cycles; this tree has no
// CUDA kernels yet, so a host function queued on the stream sleeps instead (a cycle is
// taken as 1 ns). Either way the current stream is busy for a while and the CPU is not:
// tests use it to show what happens while a stream still has work queued.
void CUDART_CB sleepHostFunc(void* data) {
  const auto ns = reinterpret_cast<uintptr_t>(data);
  std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

}  // namespace

void initModule(py::module_& m) {
  using release_gil = py::call_guard<py::gil_scoped_release>;

  // ---- devices ----
  m.def("_cuda_getDeviceCount", [] { return static_cast<int>(c10::cuda::device_count()); });
  // What torch.cuda._lazy_init() calls: raises why CUDA cannot be used, else sets up the
  // per-device allocators.
  m.def("_cuda_init", [] {
    const int count = c10::cuda::device_count_ensure_non_zero();
    CCA::init(count);
  });
  m.def("_cuda_getDevice", [] {
    lazy_init();
    return static_cast<int>(c10::cuda::current_device());
  });
  m.def("_cuda_setDevice", [](int device) {
    lazy_init();
    if (device >= 0) {
      c10::cuda::set_device(static_cast<c10::DeviceIndex>(device));
    }
  });
  // torch.cuda.device's enter/exit: make `device` current, return the previous one.
  m.def("_cuda_exchangeDevice", [](int device) {
    if (device < 0) {
      return -1;
    }
    lazy_init();
    return static_cast<int>(c10::cuda::ExchangeDevice(static_cast<c10::DeviceIndex>(device)));
  });
  m.def("_cuda_maybeExchangeDevice", [](int device) {
    if (device < 0) {
      return -1;
    }
    lazy_init();
    return static_cast<int>(c10::cuda::MaybeExchangeDevice(static_cast<c10::DeviceIndex>(device)));
  });
  // torch.cuda.get_device_properties: what cudaGetDeviceProperties reports, as PyTorch's
  // _CudaDeviceProperties (torch/csrc/cuda/Module.cpp registerCudaDeviceProperties) binds it.
  py::class_<cudaDeviceProp>(m, "_CudaDeviceProperties")
      .def_property_readonly("name", [](const cudaDeviceProp& prop) { return std::string(prop.name); })
      .def_readonly("major", &cudaDeviceProp::major)
      .def_readonly("minor", &cudaDeviceProp::minor)
      .def_readonly("is_multi_gpu_board", &cudaDeviceProp::isMultiGpuBoard)
      .def_readonly("is_integrated", &cudaDeviceProp::integrated)
      .def_readonly("multi_processor_count", &cudaDeviceProp::multiProcessorCount)
      .def_readonly("total_memory", &cudaDeviceProp::totalGlobalMem)
      .def_readonly("max_threads_per_multi_processor", &cudaDeviceProp::maxThreadsPerMultiProcessor)
      .def_readonly("warp_size", &cudaDeviceProp::warpSize)
      .def_readonly("regs_per_multiprocessor", &cudaDeviceProp::regsPerMultiprocessor)
      .def_readonly("shared_memory_per_block", &cudaDeviceProp::sharedMemPerBlock)
      .def_readonly("L2_cache_size", &cudaDeviceProp::l2CacheSize)
      .def("__repr__", [](const cudaDeviceProp& prop) {
        std::ostringstream stream;
        stream << "_CudaDeviceProperties(name='" << prop.name << "', major=" << prop.major
               << ", minor=" << prop.minor << ", total_memory=" << prop.totalGlobalMem / (1024ull * 1024)
               << "MB, multi_processor_count=" << prop.multiProcessorCount
               << ", L2_cache_size=" << prop.l2CacheSize / (1024ull * 1024) << "MB)";
        return stream.str();
      });
  m.def("_get_device_properties", [](int device) {
    lazy_init();
    cudaDeviceProp prop;
    C10_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    return prop;
  });
  m.def("_cuda_synchronize", [] { c10::cuda::device_synchronize(); }, release_gil());
  m.def("_cuda_memGetInfo", [](int device) { return c10::cuda::memGetInfo(static_cast<c10::DeviceIndex>(device)); });

  // ---- streams ----
  m.def("_cuda_getCurrentStream", [](int device) {
    return streamToTuple(c10::cuda::getCurrentCUDAStream(static_cast<c10::DeviceIndex>(device)));
  });
  m.def("_cuda_getDefaultStream", [](int device) {
    return streamToTuple(c10::cuda::getDefaultCUDAStream(static_cast<c10::DeviceIndex>(device)));
  });
  // The current stream of its device, for this thread (torch.cuda.set_stream). As in PyTorch
  // the stream's device also becomes the current device.
  m.def(
      "_cuda_setStream",
      [](int64_t stream_id, int device_index, int device_type) {
        auto stream = c10::cuda::CUDAStream::unpack3(stream_id, static_cast<c10::DeviceIndex>(device_index),
                                                     static_cast<c10::DeviceType>(device_type));
        if (c10::cuda::current_device() != stream.device_index()) {
          c10::cuda::set_device(stream.device_index());
        }
        c10::cuda::setCurrentCUDAStream(stream);
      },
      py::kw_only(), py::arg("stream_id") = 0, py::arg("device_index") = 0, py::arg("device_type") = 0);
  m.def("_cuda_sleep", [](int64_t cycles) {
    auto stream = c10::cuda::getCurrentCUDAStream();
    C10_CUDA_CHECK(cudaLaunchHostFunc(stream, &sleepHostFunc,
                                      reinterpret_cast<void*>(static_cast<uintptr_t>(cycles))));
  });

  // ---- the CUDA generators (aten/src/ATen/cuda/CUDAGeneratorImpl, through the CUDA hooks) ----
  m.def("_cuda_hasKernels", [] { return at::detail::getCUDAHooks().hasCUDA(); });
  m.def("_cuda_defaultGenerator", [](int device) {
    return at::detail::getCUDAHooks().getDefaultCUDAGenerator(static_cast<c10::DeviceIndex>(device));
  });

  // ---- the simulated CUDA device (c10/cuda/impl/sim) ----
  // Looked up at run time: these functions exist only in the simulated libcudart, which
  // `import torch` loads with TORCH_CUDA_SIMULATE=N in place of NVIDIA's.
  m.def("_cuda_isSimulated", [] { return dlsym(RTLD_DEFAULT, "c10_cuda_sim_is_simulated") != nullptr; });
  auto sim_stream_call = [](const char* symbol, uintptr_t stream) {
    using Fn = cudaError_t (*)(cudaStream_t);
    auto fn = reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, symbol));
    TORCH_CHECK(fn != nullptr, "holding a stream back needs the simulated CUDA device (TORCH_CUDA_SIMULATE=1)");
    C10_CUDA_CHECK(fn(reinterpret_cast<cudaStream_t>(stream)));
  };
  m.def("_cuda_simHoldStream", [sim_stream_call](uintptr_t stream) { sim_stream_call("c10_cuda_sim_hold_stream", stream); });
  m.def("_cuda_simReleaseStream",
        [sim_stream_call](uintptr_t stream) { sim_stream_call("c10_cuda_sim_release_stream", stream); });

  // ---- the caching allocator (torch.cuda.memory) ----
  m.def("_cuda_memoryStats", [](int device) {
    return memoryStatsToDict(CCA::getDeviceStats(static_cast<c10::DeviceIndex>(device)));
  });
  m.def("_cuda_resetAccumulatedMemoryStats",
        [](int device) { CCA::resetAccumulatedStats(static_cast<c10::DeviceIndex>(device)); });
  m.def("_cuda_resetPeakMemoryStats", [](int device) { CCA::resetPeakStats(static_cast<c10::DeviceIndex>(device)); });
  m.def("_cuda_emptyCache", [] { CCA::emptyCache(); }, release_gil());
  m.def("_cuda_memorySnapshot", [] {
    CCA::SnapshotInfo snapshot;
    {
      py::gil_scoped_release no_gil;
      snapshot = CCA::snapshot();
    }
    py::dict result;
    result["segments"] = segmentsToList(snapshot.segments);
    py::list traces;
    for (const auto& trace : snapshot.device_traces) {
      traces.append(traceToList(trace));
    }
    result["device_traces"] = traces;
    result["allocator_settings"] = allocatorSettingsToDict();
    return result;
  });
  // Bare allocations on the current device, used on `stream` (a cudaStream_t as an int).
  m.def("_cuda_cudaCachingAllocator_raw_alloc", [](size_t size, uintptr_t stream) {
    void* ptr = CCA::raw_alloc_with_stream(size, reinterpret_cast<cudaStream_t>(stream));
    return reinterpret_cast<uintptr_t>(ptr);
  });
  m.def("_cuda_cudaCachingAllocator_raw_delete",
        [](uintptr_t ptr) { CCA::raw_delete(reinterpret_cast<void*>(ptr)); });
  // Tensor.record_stream without a tensor: mark a raw_alloc'ed pointer as used on `stream`.
  m.def("_cuda_cudaCachingAllocator_record_stream", [](uintptr_t ptr, uintptr_t stream) {
    void* p = reinterpret_cast<void*>(ptr);
    c10::DeviceIndex device = 0;
    C10_CUDA_CHECK(c10::cuda::GetDevice(&device));
    // A non-owning view of the allocation, shaped as the allocator's own DataPtrs are.
    c10::DataPtr data_ptr(p, p, CCA::get()->raw_deleter(), c10::Device(c10::DeviceType::CUDA, device));
    CCA::recordStream(data_ptr, c10::cuda::getStreamFromExternal(reinterpret_cast<cudaStream_t>(stream), device));
    data_ptr.release_context();  // it does not own the memory: do not free it here
  });
  // Tensor.record_stream(s): the caching allocator will not hand the tensor's block out again
  // until the work queued on `s` by the time the tensor is freed has finished (PyTorch's
  // record_stream_cuda, aten/src/ATen/native/cuda/RecordStream.cu).
  m.def("_cuda_recordStream", [](py::handle tensor, int64_t stream_id, int device_index, int device_type) {
    const at::Tensor& self = THPVariable_Unpack(tensor.ptr());
    TORCH_CHECK(self.is_cuda(), "record_stream: expected a CUDA tensor, got one on ", self.device());
    auto stream = c10::cuda::CUDAStream::unpack3(stream_id, static_cast<c10::DeviceIndex>(device_index),
                                                 static_cast<c10::DeviceType>(device_type));
    CCA::recordStream(self.storage().data_ptr(), stream);
  });
  m.def("_cuda_setMemoryFraction", [](double fraction, int device) {
    CCA::setMemoryFraction(fraction, static_cast<c10::DeviceIndex>(device));
  });
  m.def("_cuda_getMemoryFraction",
        [](int device) { return CCA::getMemoryFraction(static_cast<c10::DeviceIndex>(device)); });
  m.def("_cuda_record_memory_history",
        [](bool enabled, size_t max_entries) { CCA::recordHistory(enabled, max_entries); },
        py::arg("enabled"), py::arg("max_entries") = 100000);
  m.def("_cuda_cudaCachingAllocator_name", [] { return CCA::name(); });

  // ---- torch.cuda.cudart(): the runtime's own error strings ----
  py::module_ cudart = m.def_submodule("_cudart", "the CUDA runtime functions torch.cuda uses");
  cudart.def("cudaGetErrorString", [](int code) { return std::string(cudaGetErrorString(static_cast<cudaError_t>(code))); });
  cudart.def("cudaGetErrorName", [](int code) { return std::string(cudaGetErrorName(static_cast<cudaError_t>(code))); });
  cudart.attr("success") = static_cast<int>(cudaSuccess);

  initStreamBindings(m);
  initEventBindings(m);
  initStorageBindings(m);
}

}  // namespace torch::cuda
