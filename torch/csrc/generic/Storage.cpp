// torch/csrc/generic/Storage.cpp - the Python classes torch.FloatStorage, DoubleStorage, ...
// from one file: torch/csrc/Storage.cpp includes it once per element type, and
// torch/csrc/cuda/Storage.cpp once more per type for torch.cuda.FloatStorage ....
// Mirrors torch/csrc/generic/Storage.cpp (+ StorageMethods.cpp) of PyTorch 1.x, where these
// classes were written this way until 2.0 rewrote them in Python as TypedStorage.
// Guides: docs/source/internals/finding_thstorage.rst, th_storage.rst (THC).
//
// Everything here calls THWStorage_(NAME), which is THFloatStorage_NAME while Real is Float:
// the element type is chosen by the preprocessor, not at run time. In the CUDA instance it is
// THCudaStorage_NAME (torch/csrc/cuda/override_macros.h), and LIBRARY_STATE passes the
// THCState* that THC functions take first. The few places that differ are under
// THC_GENERIC_FILE: the CPU can read a CPU storage's elements in place, but a CUDA storage's
// only through a copy.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "torch/csrc/generic/Storage.cpp"
#else

// Python number -> scalar_t. Floats truncate into integer storages, as a C cast does; a
// number outside the type's range is an error.
static scalar_t THPStorage_(unpackReal)(pybind11::handle value) {
  PyObject* obj = value.ptr();
  TORCH_CHECK_TYPE(PyFloat_Check(obj) || PyLong_Check(obj),
                   "can't assign a ", THPUtils_typename(value), " to a ", THPStorageStr);
  if constexpr (std::is_same_v<scalar_t, bool>) {
    return PyObject_IsTrue(obj) == 1;
  } else if (PyLong_Check(obj)) {
    // Checked as a Scalar is: 300 does not fit a ByteStorage ("value cannot be converted to
    // type uint8_t without overflow"), -1 does (255, two's complement).
    return c10::Scalar(value.cast<int64_t>()).to<scalar_t>();
  } else {
    return c10::Scalar(PyFloat_AsDouble(obj)).to<scalar_t>();
  }
}

// scalar_t -> Python number: float for the floating types, bool for Bool, else int.
static pybind11::object THPStorage_(newReal)(scalar_t value) {
  if constexpr (std::is_same_v<scalar_t, bool>) {
    return pybind11::bool_(value);
  } else if constexpr (std::is_floating_point_v<scalar_t> || std::is_same_v<scalar_t, c10::Half>) {
    return pybind11::float_(static_cast<double>(value));
  } else {
    return pybind11::int_(static_cast<int64_t>(value));
  }
}

static ptrdiff_t THPStorage_(wrapIndex)(const THPTypedStorage& self, int64_t index) {
  const ptrdiff_t size = THWStorage_(size)(LIBRARY_STATE self.cdata);
  TORCH_CHECK_INDEX(index >= -size && index < size, "index ", index, " out of range for storage of size ", size);
  return index < 0 ? index + size : index;
}

// `size` elements of `base` from `offset`, sharing its memory: the new StorageImpl's
// DataPtr holds a reference to `base`, so the memory lives while either does. On a GPU the
// address is only added to, never read, and the view keeps base's device.
static THWStorage* THPStorage_(newView)(THWStorage* base, ptrdiff_t offset, ptrdiff_t size) {
  const ptrdiff_t base_size = THWStorage_(size)(LIBRARY_STATE base);
  TORCH_CHECK(offset >= 0 && offset <= base_size, "offset must be in [0, ", base_size, "], got ", offset);
  if (size < 0) {
    size = base_size - offset;
  }
  // size <= base_size - offset, not offset + size <= base_size: the sum of two user numbers
  // can wrap around (offset 1, size 2**63 - 1) and pass.
  TORCH_CHECK(size <= base_size - offset, "a view of ", size, " elements from offset ", offset,
              " does not fit in a storage of size ", base_size);
  THStorage_retain(base);
  auto keep = c10::intrusive_ptr<at::StorageImpl>::reclaim(base);
  c10::DataPtr data = c10::InefficientStdFunctionContext::makeDataPtr(
      THWStorage_(data)(LIBRARY_STATE base) + offset, [keep](void*) mutable { keep.reset(); }, base->device());
  return THWStorage_(newWithDataAndAllocator)(LIBRARY_STATE std::move(data), size, /*allocator=*/nullptr);
}

// [marker: THPStorage_(pynew)]
static THPTypedStorage THPStorage_(pynew)(const pybind11::args& args, const pybind11::kwargs& kwargs) {
  if (kwargs.contains("_share")) {
    // Internal: a Python object of the subclass (torch.FloatStorage) around a storage
    // made in C++ (from_file, views).
    return THPTypedStorage(kwargs["_share"].cast<const THPTypedStorage&>());
  }
#ifdef THC_GENERIC_FILE
  // A CUDA storage starts CUDA first, as every CUDA tensor does: without a usable GPU this
  // raises torch.cuda's error ("Found no NVIDIA driver on your system ..."), and the calls
  // queued before CUDA was up (torch.cuda.manual_seed) run now. PyTorch 1.x did it in
  // Python, in torch.cuda._CudaBase.__new__.
  torch::utils::device_lazy_init(c10::DeviceType::CUDA);
#endif
  TORCH_CHECK_TYPE(kwargs.empty(), THPStorageStr, "() got an unexpected keyword argument '",
                   std::string(pybind11::str(kwargs.begin()->first)), "'");
  if (args.size() == 0) {
    return THPTypedStorage(THWStorage_(new)(LIBRARY_STATE_NOARGS));  // torch.FloatStorage()
  }
  PyObject* first = args[0].ptr();
  if (args.size() == 1 && PyLong_Check(first) && !PyBool_Check(first)) {
    // torch.FloatStorage(size): uninitialised memory from the CPU allocator (for
    // torch.cuda.FloatStorage, the CUDA caching allocator, on the current device).
    const auto size = torch::unpackStorageSize(args[0], sizeof(scalar_t));
    TORCH_CHECK(size >= 0, THPStorageStr, "(): size must be non-negative, got ", size);
    return THPTypedStorage(THWStorage_(newWithSize)(LIBRARY_STATE size));
  }
  if (args.size() <= 3 && pybind11::isinstance<THPTypedStorage>(args[0])) {
    // torch.FloatStorage(other, offset=0, size=-1): a region of an existing storage.
    const auto& base = args[0].cast<const THPTypedStorage&>();
    const int64_t offset = args.size() > 1 ? args[1].cast<int64_t>() : 0;
    const int64_t size = args.size() > 2 ? args[2].cast<int64_t>() : -1;
    return THPTypedStorage(THPStorage_(newView)(base.cdata, offset, size));
  }
  if (args.size() == 1 && PySequence_Check(first) && !PyUnicode_Check(first) && !PyBytes_Check(first)) {
    // torch.FloatStorage([1, 2.5]): one element per item, converted to scalar_t in a CPU
    // storage (THStorage_ is TH's in both instances), which a CUDA storage then takes in one copy.
    auto items = pybind11::reinterpret_borrow<pybind11::sequence>(args[0]);
    const auto n = static_cast<ptrdiff_t>(items.size());
    auto host = c10::intrusive_ptr<THStorage>::reclaim(THStorage_(newWithSize)(n));
    scalar_t* data = THStorage_(data)(host.get());
    for (ptrdiff_t i = 0; i < n; i++) {
      pybind11::object item = items[i];
      TORCH_CHECK_TYPE(PyFloat_Check(item.ptr()) || PyLong_Check(item.ptr()), THPStorageStr,
                       "(): tried to construct a storage from a sequence (", THPUtils_typename(args[0]),
                       "), but one of the items was of type ", THPUtils_typename(item), " instead of a number");
      data[i] = THPStorage_(unpackReal)(item);
    }
#ifdef THC_GENERIC_FILE
    THPTypedStorage self(THWStorage_(newWithSize)(LIBRARY_STATE n));
    THWStorage_(copyCPU)(LIBRARY_STATE self.cdata, host.get());
    return self;
#else
    return THPTypedStorage(host.release());
#endif
  }
  std::string got;
  for (auto a : args) {
    got += got.empty() ? "" : ", ";
    got += THPUtils_typename(a);
  }
  TORCH_CHECK_TYPE(false, THPStorageStr, "() received an invalid combination of arguments - got (", got,
                   "), but expected one of:\n"
                   " * no arguments\n"
                   " * (int size)\n"
                   " * (Sequence data)\n"
                   " * (", THPStorageStr, " view_source, int offset = 0, int size = -1)\n");
}
// [end marker: THPStorage_(pynew)]

// A Python object of the caller's class (torch.FloatStorage) around `storage`.
static pybind11::object THPStorage_(wrap)(pybind11::handle cls, THWStorage* storage) {
  pybind11::object base = pybind11::cast(THPTypedStorage(storage));
  return cls(pybind11::arg("_share") = base);
}

#ifndef THC_GENERIC_FILE
std::vector<bool (*)(THWStorage* self, pybind11::handle src)> THPStorage_(copy_functions);
#endif

// copy_ from any typed storage: the source's Python class picks the TH copy function
// (THFloatStorage_copyDouble, ...), which converts each element. In the CUDA instance the
// same lines pick THC's (THCudaStorage_copyDouble: CPU Double -> CUDA Float), and a CUDA
// source one of THCudaStorage_copyCudaDouble ...; a CPU storage finds its CUDA sources in
// THPStorage_(copy_functions).
static pybind11::object THPStorage_(copy_)(pybind11::object self_obj, pybind11::object src, pybind11::object) {
  auto& self = self_obj.cast<THPTypedStorage&>();
#define THP_COPY_FROM(SrcReal)                                                                      \
  if (pybind11::isinstance<THP##SrcReal##Storage>(src)) {                                           \
    THWStorage_(copy##SrcReal)(LIBRARY_STATE self.cdata, src.cast<THP##SrcReal##Storage&>().cdata); \
    return self_obj;                                                                                \
  }
  THP_COPY_FROM(Byte)
  THP_COPY_FROM(Char)
  THP_COPY_FROM(Short)
  THP_COPY_FROM(Int)
  THP_COPY_FROM(Long)
  THP_COPY_FROM(Float)
  THP_COPY_FROM(Double)
  THP_COPY_FROM(Half)
  THP_COPY_FROM(Bool)
#undef THP_COPY_FROM
#ifdef THC_GENERIC_FILE
#define THCP_COPY_FROM(SrcReal)                                                                               \
  if (pybind11::isinstance<THCP##SrcReal##Storage>(src)) {                                                    \
    THWStorage_(copyCuda##SrcReal)(LIBRARY_STATE self.cdata, src.cast<THCP##SrcReal##Storage&>().cdata);      \
    return self_obj;                                                                                          \
  }
  THCP_COPY_FROM(Byte)
  THCP_COPY_FROM(Char)
  THCP_COPY_FROM(Short)
  THCP_COPY_FROM(Int)
  THCP_COPY_FROM(Long)
  THCP_COPY_FROM(Float)
  THCP_COPY_FROM(Double)
  THCP_COPY_FROM(Half)
  THCP_COPY_FROM(Bool)
#undef THCP_COPY_FROM
#else
  for (auto copy : THPStorage_(copy_functions)) {
    if (copy(self.cdata, src)) {
      return self_obj;
    }
  }
#endif
  TORCH_CHECK_TYPE(false, "copy_(): expected a typed storage (torch.FloatStorage, ...) as the source, but got ",
                   THPUtils_typename(src));
}

void THPStorage_(initBindings)(pybind11::module_& m) {
  namespace py = pybind11;
  py::class_<THPTypedStorage> cls(m, THPStorageBaseStr, py::dynamic_attr());
  cls.doc() = "The C++ base of " THPStorageStr ": one reference to a THStorage (at::StorageImpl) of " TH_CONCAT_STRING_2(
      scalar_t, ) " elements.";
  cls.def(py::init(&THPStorage_(pynew)))
      .def("__len__", [](const THPTypedStorage& self) { return THWStorage_(size)(LIBRARY_STATE self.cdata); })
      .def("size", [](const THPTypedStorage& self) { return THWStorage_(size)(LIBRARY_STATE self.cdata); })
      .def("element_size",
           [](const THPTypedStorage&) { return static_cast<int64_t>(THWStorage_(elementSize)(LIBRARY_STATE_NOARGS)); })
      .def("nbytes", [](const THPTypedStorage& self) { return self.cdata->nbytes(); })
      .def("data_ptr", [](const THPTypedStorage& self) { return reinterpret_cast<uintptr_t>(self.cdata->data()); })
      .def("__getitem__",
           [](py::object self_obj, py::handle index) -> py::object {
             const auto& self = self_obj.cast<const THPTypedStorage&>();
             if (PyLong_Check(index.ptr())) {
               // On a GPU: one element copied down, synchronously (THCStorage_(get)).
               const ptrdiff_t i = THPStorage_(wrapIndex)(self, index.cast<int64_t>());
               return THPStorage_(newReal)(THWStorage_(get)(LIBRARY_STATE self.cdata, i));
             }
             if (PySlice_Check(index.ptr())) {
               Py_ssize_t start = 0, stop = 0, step = 0, length = 0;
               if (!py::reinterpret_borrow<py::slice>(index).compute(THWStorage_(size)(LIBRARY_STATE self.cdata),
                                                                      &start, &stop, &step, &length)) {
                 throw py::error_already_set();
               }
               TORCH_CHECK(step == 1, "Trying to slice with a step of ", step, ", but only a step of 1 is supported");
               return THPStorage_(wrap)(py::type::handle_of(self_obj),
                                        THPStorage_(newView)(self.cdata, start, length));
             }
             TORCH_CHECK_TYPE(false, "can't index a ", THPStorageStr, " with ", THPUtils_typename(index));
           })
      .def("__setitem__",
           [](THPTypedStorage& self, py::handle index, py::handle value) {
             TORCH_CHECK_TYPE(PyLong_Check(index.ptr()), "can't index a ", THPStorageStr, " with ",
                              THPUtils_typename(index));
             const scalar_t v = THPStorage_(unpackReal)(value);
             THWStorage_(set)(LIBRARY_STATE self.cdata, THPStorage_(wrapIndex)(self, index.cast<int64_t>()), v);
           })
      // [marker: THPStorage_(tolist)]
      .def("tolist",
           [](const THPTypedStorage& self) {
             const ptrdiff_t n = THWStorage_(size)(LIBRARY_STATE self.cdata);
#ifdef THC_GENERIC_FILE
             // The CPU cannot read device memory: one copy down into a CPU storage of the
             // same type (THFloatStorage_copyCuda), rather than n transfers through get.
             auto host = c10::intrusive_ptr<THStorage>::reclaim(THStorage_(newWithSize)(n));
             THStorage_(copyCuda)(state, host.get(), self.cdata);
             const scalar_t* data = THStorage_(data)(host.get());
#else
             const scalar_t* data = THWStorage_(data)(self.cdata);
#endif
             py::list out(n);
             for (ptrdiff_t i = 0; i < n; i++) {
               out[i] = THPStorage_(newReal)(data[i]);
             }
             return out;
           })
      // [end marker: THPStorage_(tolist)]
      .def(
          "fill_",
          [](py::object self_obj, py::handle value) {
            THWStorage_(fill)(LIBRARY_STATE self_obj.cast<THPTypedStorage&>().cdata, THPStorage_(unpackReal)(value));
            return self_obj;
          },
          py::arg("value"))
      .def("copy_", &THPStorage_(copy_), py::arg("src"), py::arg("non_blocking") = py::none())
      .def(
          "resize_",
          [](py::object self_obj, py::handle size_obj) {
            const int64_t size = torch::unpackStorageSize(size_obj, sizeof(scalar_t));
            THWStorage_(resize)(LIBRARY_STATE self_obj.cast<THPTypedStorage&>().cdata, size);
            return self_obj;
          },
          py::arg("size"))
      .def("resizable", [](const THPTypedStorage& self) { return self.cdata->resizable(); })
      // torch.UntypedStorage over the same StorageImpl (the same bytes, counted in bytes).
      .def("untyped",
           [](const THPTypedStorage& self) {
             THStorage_retain(self.cdata);
             py::object base = py::cast(torch::THPStorage{c10::Storage(
                 c10::intrusive_ptr<at::StorageImpl>::reclaim(self.cdata))});
             return py::module_::import("torch").attr("UntypedStorage")(py::arg("_share") = base);
           })
      .def_property_readonly("dtype", [](const THPTypedStorage&) {
        return torch::getTHPDtype(c10::CppTypeToScalarType<scalar_t>::value);
      })
      // Where the memory is, as its DataPtr says: cpu, or the GPU it was allocated on (cuda:1
      // for a storage made under torch.cuda.device(1)).
      .def_property_readonly("device",
                             [](const THPTypedStorage& self) { return torch::THPDevice{self.cdata->device()}; })
      .def_property_readonly("is_cuda",
                             [](const THPTypedStorage& self) { return self.cdata->device().is_cuda(); })
      // The address of the StorageImpl, for torch._C._storage_Use_Count.
      .def_property_readonly("_cdata",
                             [](const THPTypedStorage& self) { return reinterpret_cast<uintptr_t>(self.cdata); });

#ifndef THC_GENERIC_FILE
  // CPU only: TH's tensors and file mappings are CPU memory.
  cls
      // torch.FloatTensor(storage): a 1-D tensor over every element, sharing the memory.
      .def("_legacy_tensor",
           [](const THPTypedStorage& self) {
             THTensor* t = THTensor_(newWithStorage1d)(self.cdata, 0, THWStorage_(size)(self.cdata), 1);
             at::Tensor tensor(c10::intrusive_ptr<at::TensorImpl>::reclaim(t));
             return py::reinterpret_steal<py::object>(THPVariable_Wrap(tensor));
           })
      .def("is_shared",
           [](const THPTypedStorage& self) { return THMapAllocator::fromDataPtr(self.cdata->data_ptr()) != nullptr; });

  // FloatStorage.from_file(filename, shared=False, size=0): `size` elements of the file,
  // mapped by THMapAllocator. shared=True maps MAP_SHARED (writes reach the file, which is
  // created or grown as needed); shared=False maps a private copy-on-write view of an
  // existing file. size=0 maps the whole file.
  cls.attr("from_file") = py::reinterpret_steal<py::object>(PyClassMethod_New(
      py::cpp_function(
          [](py::handle cls, const std::string& filename, bool shared, int64_t size) {
            // The C library would stop at a NUL and map another file than the one named.
            if (filename.find('\0') != std::string::npos) {
              throw py::value_error("embedded null character");
            }
            const int flags = shared ? TH_ALLOCATOR_MAPPED_SHARED : 0;
            return THPStorage_(wrap)(cls, THWStorage_(newWithMapping)(filename.c_str(), size, flags));
          },
          py::arg("cls"), py::arg("filename"), py::arg("shared") = false, py::arg("size") = 0)
          .release()
          .ptr()));
#else
  // [marker: THCPStorage_(cpu_copies)]
  // CUDA -> CPU into this type: torch.FloatStorage(n).copy_(torch.cuda.DoubleStorage(n)) is
  // THFloatStorage_copyCudaDouble. The CPU class cannot name the CUDA classes, so this
  // instance adds the nine sources to the CPU type's list (THPFloatStorage_copy_functions).
#define THCP_COPY_TO_CPU(SrcReal)                                                                \
  TH_CONCAT_3(THP, Real, Storage_copy_functions).push_back([](THStorage* self, py::handle src) { \
    if (!py::isinstance<THCP##SrcReal##Storage>(src)) {                                          \
      return false;                                                                              \
    }                                                                                            \
    THStorage_(copyCuda##SrcReal)(state, self, src.cast<THCP##SrcReal##Storage&>().cdata);       \
    return true;                                                                                 \
  });
  THCP_COPY_TO_CPU(Byte)
  THCP_COPY_TO_CPU(Char)
  THCP_COPY_TO_CPU(Short)
  THCP_COPY_TO_CPU(Int)
  THCP_COPY_TO_CPU(Long)
  THCP_COPY_TO_CPU(Float)
  THCP_COPY_TO_CPU(Double)
  THCP_COPY_TO_CPU(Half)
  THCP_COPY_TO_CPU(Bool)
#undef THCP_COPY_TO_CPU
  // [end marker: THCPStorage_(cpu_copies)]
#endif
}

#endif
