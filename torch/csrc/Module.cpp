// torch/csrc/Module.cpp - creates the torch._C extension module.
// Mirrors PyTorch's torch/csrc/Module.cpp. Guide: docs/source/internals/source_tree.rst.
//
// `import torch` runs torch/__init__.py, which imports torch._C: the stub torch/_C*.so
// (torch/csrc/stub.c) calls initModule() in libtorch_python.so, and each init function below
// adds one group of bindings. Everything Python reaches in C++ goes through here.
// The bindings live in a shared library, not in the module itself, as in PyTorch, so that
// C++ extensions can link them (torch/csrc/utils/pybind.h's casters need THPVariable_Wrap).
#include <ATen/Parallel.h>
#include <ATen/native/DispatchStub.h>
#include <ATen/native/Resize.h>
#include <c10/core/GradMode.h>
#include <torch/csrc/Device.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/Generator.h>
#include <torch/csrc/Size.h>
#include <torch/csrc/Storage.h>
#include <torch/csrc/autograd/python_torch_functions.h>
#include <torch/csrc/autograd/python_variable.h>
namespace torch::autograd {
void initAutogradBindings(pybind11::module_& m);
}
#include <torch/csrc/utils/python_arg_parser.h>
#include <torch/csrc/utils/structseq.h>
#include <torch/csrc/utils/tensor_numpy.h>

#include <ATen/Version.h>
#include <c10/core/Allocator.h>
#include <c10/core/AllocatorConfig.h>
#include <c10/core/CPUAllocator.h>
#include <c10/core/DefaultDtype.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/util/Backtrace.h>
#include <c10/util/Flags.h>
#include <c10/util/intrusive_ptr.h>

#include <pybind11/stl.h>

#include <limits>
#include <typeinfo>

#ifdef USE_CUDA
#include <c10/cuda/CUDAAllocator.h>
#include <torch/csrc/cuda/Module.h>
#endif

namespace py = pybind11;

namespace torch::cuda {
void initMemorySimulatorBindings(py::module_& m);
}
namespace torch::impl::dispatch {
void initDispatchBindings(py::module_& m);
}

namespace torch {
namespace {

// torch.cpu.memory_stats(): the reporter's numbers under the key names
// torch.cuda.memory_stats() uses ("allocated_bytes.all.current", ...).
py::dict cpuMemoryStats() {
  auto s = c10::profiledCPUMemoryReporter().stats();
  py::dict d;
  d["allocated_bytes.all.current"] = s.allocated_bytes_current;
  d["allocated_bytes.all.peak"] = s.allocated_bytes_peak;
  d["allocated_bytes.all.allocated"] = s.allocated_bytes_allocated;
  d["allocated_bytes.all.freed"] = s.allocated_bytes_freed;
  d["allocation.all.current"] = s.allocation_current;
  d["allocation.all.peak"] = s.allocation_peak;
  d["allocation.all.allocated"] = s.allocation_allocated;
  d["allocation.all.freed"] = s.allocation_freed;
  d["num_ooms"] = s.num_ooms;
  return d;
}

void initAllocatorBindings(py::module_& m) {
  // The body of Tensor.set_ (torch/_tensor.py picks the overload): an in-place change of
  // self's storage and geometry, refused on a leaf that requires grad as every in-place op is.
  // With set_(Tensor source), source is that tensor, whose dtype must be self's. With a typed
  // storage (torch.FloatStorage, torch.cuda.FloatStorage), storage_dtype is its dtype, which
  // must be self's too; an UntypedStorage has none to check.
  m.def("_set_storage", [](py::handle self, py::handle storage, int64_t offset, std::vector<int64_t> size,
                           std::vector<int64_t> stride, py::handle source, py::handle storage_dtype) {
    const at::Tensor& t = THPVariable_Unpack(self.ptr());
    if (!source.is_none()) {
      const at::Tensor& src = THPVariable_Unpack(source.ptr());
      // TypeMeta prints as the C++ type's name: "Could not set tensor of type short int ...".
      TORCH_CHECK(src.dtype() == t.dtype(), "Could not set tensor of type ", src.dtype(), " to a tensor of type ",
                  t.dtype());
    }
    if (!storage_dtype.is_none()) {
      // PyTorch's words, a TypeMeta then a ScalarType: "Expected a Storage of type float or an
      // UntypedStorage, but got type Double for argument 1 'storage'".
      const auto st = toScalarType(storage_dtype, "set_", "storage_dtype", 6);
      TORCH_CHECK(c10::scalarTypeToTypeMeta(st) == t.dtype(), "Expected a Storage of type ", t.dtype(),
                  " or an UntypedStorage, but got type ", st, " for argument 1 'storage'");
    }
    TORCH_CHECK(!(t.requires_grad() && t.is_leaf() && c10::GradMode::is_enabled()),
                "a leaf Variable that requires grad is being used in an in-place operation.");
    c10::Storage s = storage.cast<const THPStorage&>().cdata;  // a TypeError if it is not one
    at::native::set_storage_(t, std::move(s), offset, size, stride);
  }, py::arg("self"), py::arg("storage"), py::arg("offset"), py::arg("size"), py::arg("stride"),
     py::arg("source") = py::none(), py::arg("storage_dtype") = py::none());
  m.def("_cpu_memory_stats", &cpuMemoryStats);
  m.def("_cpu_record_memory_stats", [](bool enabled) { c10::profiledCPUMemoryReporter().setStatsEnabled(enabled); });
  m.def("_cpu_is_recording_memory_stats", [] { return c10::profiledCPUMemoryReporter().enabled(); });
  m.def("_cpu_reset_peak_memory_stats", [] { c10::profiledCPUMemoryReporter().resetPeakStats(); });
  m.def("_cpu_reset_accumulated_memory_stats", [] { c10::profiledCPUMemoryReporter().resetAccumulatedStats(); });
  // The C++ class of the allocator registered for a device type: "c10::DefaultCPUAllocator".
  m.def("_get_allocator_name", [](const std::string& device_type) {
    c10::Allocator* allocator = c10::GetAllocator(c10::Device(device_type).type());
    return c10::demangle(typeid(*allocator).name());
  });
  m.def("_get_c10_flag", &c10::GetBoolFlag, py::arg("name"));
  m.def("_set_c10_flag", &c10::SetBoolFlag, py::arg("name"), py::arg("value"));
  m.def("_c10_flags", [] {
    py::dict d;
    for (const auto& flag : c10::BoolFlagRegistry()) {
      d[py::str(flag.name)] = py::make_tuple(*flag.value, flag.help);
    }
    return d;
  });
  // [marker: storage_use_count]
  // The refcount of the StorageImpl at address `cdata` (UntypedStorage._cdata).
  m.def("_storage_Use_Count", [](uintptr_t cdata) {
    return c10::raw::intrusive_ptr::use_count(reinterpret_cast<c10::StorageImpl*>(cdata));
  });
  // [end marker: storage_use_count]
}

// torch._C._accelerator_setAllocatorSettings / _accelerator_getAllocatorSettings: the
// PYTORCH_ALLOC_CONF string of the accelerator's caching allocator, at run time
// (torch.cuda.memory._set_allocator_settings). Every build has them: with CUDA they
// reconfigure the CUDA caching allocator of every device; without CUDA the string is only
// checked (bad keys and values raise PyTorch's ValueErrors) and remembered.
void initAcceleratorAllocatorBindings(py::module_& m) {
#ifdef USE_CUDA
  m.def("_accelerator_setAllocatorSettings",
        [](const std::string& settings) { c10::cuda::CUDACachingAllocator::setAllocatorSettings(settings); });
  m.def("_accelerator_getAllocatorSettings", [] { return c10::cuda::CUDACachingAllocator::getAllocatorSettings(); });
#else
  static std::string last_settings = c10::cuda::CUDACachingAllocator::allocatorSettingsFromEnv();
  m.def("_accelerator_setAllocatorSettings", [](const std::string& settings) {
    c10::CachingAllocator::AllocatorConfig config;
    config.parseArgs(settings);
    last_settings = settings;
  });
  m.def("_accelerator_getAllocatorSettings", [] { return last_settings; });
#endif
}

}  // namespace
}  // namespace torch

namespace {
void initModuleBindings(py::module_& m) {
  m.doc() = "torch._C: the C++ core of Torch Anatomy (c10, ATen) as seen from Python.";
  torch::initExceptions(m);
  torch::initDeviceBindings(m);
  torch::initGeneratorBindings(m);  // torch.Generator (Generator.cpp)
  torch::initDtypeBindings(m);
  torch::initStorageBindings(m);
  torch::initAllocatorBindings(m);
  torch::initAcceleratorAllocatorBindings(m);
  torch::cuda::initMemorySimulatorBindings(m);
  torch::impl::dispatch::initDispatchBindings(m);
  // The Python face of ATen (guide: python_bindings.rst): torch.Size, torch.layout and
  // torch.memory_format objects, the __torch_function__ switches, numpy's C API,
  // torch._C.TensorBase (autograd/python_variable.cpp) and torch._C._VariableFunctions
  // (the generated python_torch_functions.cpp plus python_torch_functions_manual.cpp).
  torch::initSizeBindings(m.ptr());
  torch::initLayoutAndMemoryFormatBindings(m.ptr());
  torch::initTorchFunctionBindings(m.ptr());
  torch::initArgParserTestBindings(m.ptr());
  torch::utils::initNumpy();
  torch::autograd::initTensorBindings(m.ptr());
  torch::autograd::initTorchFunctions(m.ptr());
  // Autograd (guide: autograd.rst): grad mode, the engine, Function, the grad_fn classes.
  torch::autograd::initAutogradBindings(m);
  // torch._C._return_types: the named tuples of max(dim), sort, topk... (torch/return_types.py)
  torch::utils::initReturnTypes(m.ptr());
  m.def("_get_default_dtype", [] { return torch::getTHPDtype(c10::get_default_dtype_as_scalartype()); });
  m.def("_set_default_dtype", [](py::handle dtype) {
    auto st = torch::toScalarType(dtype, "set_default_dtype", "d", 1);
    TORCH_CHECK_TYPE(st == c10::ScalarType::Float || st == c10::ScalarType::Double || st == c10::ScalarType::Half ||
                         st == c10::ScalarType::BFloat16,
                     "only floating-point types are supported as the default type");
    c10::set_default_dtype(c10::scalarTypeToTypeMeta(st));
  });
#ifdef USE_CUDA
  // torch._C._cuda_*, _CudaStreamBase, _CudaEventBase (torch/csrc/cuda/Module.cpp).
  torch::cuda::initModule(m);
#endif
  m.def("_show_config", &at::show_config);
  // torch.backends.cpu.get_cpu_capability(): which build of the CPU kernels runs (DispatchStub.h).
  m.def("_get_cpu_capability", [] {
    return at::native::get_cpu_capability() == at::native::CPUCapability::AVX2 ? "AVX2" : "DEFAULT";
  });
  // torch.set_num_threads & co: PyTorch's THPModule_setNumThreads checks the argument itself
  // (an int, not a bool, and positive) before ATen sees it.
  auto int_argument = [](py::handle arg, const char* fn) {
    TORCH_CHECK(PyLong_Check(arg.ptr()) && !PyBool_Check(arg.ptr()), fn, " expects an int, but got ",
                Py_TYPE(arg.ptr())->tp_name);
    const auto n = arg.cast<int64_t>();
    TORCH_CHECK(n > 0 && n <= std::numeric_limits<int>::max(), fn, " expects a positive integer");
    return static_cast<int>(n);
  };
  m.def("set_num_threads", [int_argument](py::handle n) { at::set_num_threads(int_argument(n, "set_num_threads")); });
  m.def("get_num_threads", &at::get_num_threads);
  m.def("set_num_interop_threads",
        [int_argument](py::handle n) { at::set_num_interop_threads(int_argument(n, "set_num_interop_threads")); });
  m.def("get_num_interop_threads", &at::get_num_interop_threads);
#if defined(NDEBUG)
  m.attr("_debug_build") = false;
#else
  m.attr("_debug_build") = true;
#endif
  // True when torch._C has the CUDA bindings (torch.backends.cuda.is_built()); whether a
  // GPU is there is torch.cuda.is_available()'s question.
#ifdef USE_CUDA
  m.attr("_has_cuda") = true;
#else
  m.attr("_has_cuda") = false;
#endif
  // True when float matrix products go through oneDNN (torch.backends.mkldnn.is_available()).
#ifdef USE_MKLDNN
  m.attr("_has_mkldnn") = true;
#else
  m.attr("_has_mkldnn") = false;
#endif
}
}  // namespace

// What PYBIND11_MODULE(_C, m) would define as PyInit__C, under the name the stub calls.
extern "C" TORCH_PYTHON_API PyObject* initModule() {
  static PyModuleDef module_def;
  auto m = py::module_::create_extension_module("_C", nullptr, &module_def);
  try {
    initModuleBindings(m);
    return m.release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_ImportError, e.what());
  }
  return nullptr;
}
