// torch/csrc/generic/Storage.cpp - the Python classes torch.FloatStorage, DoubleStorage, ...
// from one file: torch/csrc/Storage.cpp includes it once per element type.
// Mirrors torch/csrc/generic/Storage.cpp (+ StorageMethods.cpp) of PyTorch 1.x, where these
// classes were written this way until 2.0 rewrote them in Python as TypedStorage.
// Guide: docs/source/internals/finding_thstorage.rst.
//
// Everything here calls THWStorage_(NAME), which is THFloatStorage_NAME while Real is Float:
// the element type is chosen by the preprocessor, not at run time.
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
  const ptrdiff_t size = THWStorage_(size)(self.cdata);
  TORCH_CHECK_INDEX(index >= -size && index < size, "index ", index, " out of range for storage of size ", size);
  return index < 0 ? index + size : index;
}

// [marker: newView]
// `size` elements of `base` from `offset`, sharing its memory: the new StorageImpl's
// DataPtr holds a reference to `base`, so the memory lives while either does.
static THWStorage* THPStorage_(newView)(THWStorage* base, ptrdiff_t offset, ptrdiff_t size) {
  const ptrdiff_t base_size = THWStorage_(size)(base);
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
      THWStorage_(data)(base) + offset, [keep](void*) mutable { keep.reset(); }, base->device());
  return THWStorage_(newWithDataAndAllocator)(std::move(data), size, /*allocator=*/nullptr);
}
// [end marker: newView]

// [marker: THPStorage_(pynew)]
static THPTypedStorage THPStorage_(pynew)(const pybind11::args& args, const pybind11::kwargs& kwargs) {
  if (kwargs.contains("_share")) {
    // Internal: a Python object of the subclass (torch.FloatStorage) around a storage
    // made in C++ (from_file, views).
    return THPTypedStorage(kwargs["_share"].cast<const THPTypedStorage&>());
  }
  TORCH_CHECK_TYPE(kwargs.empty(), THPStorageStr, "() got an unexpected keyword argument '",
                   std::string(pybind11::str(kwargs.begin()->first)), "'");
  if (args.size() == 0) {
    return THPTypedStorage(THWStorage_(new)());  // torch.FloatStorage()
  }
  PyObject* first = args[0].ptr();
  if (args.size() == 1 && PyLong_Check(first) && !PyBool_Check(first)) {
    // torch.FloatStorage(size): uninitialised memory from the CPU allocator.
    const auto size = torch::unpackStorageSize(args[0], sizeof(scalar_t));
    TORCH_CHECK(size >= 0, THPStorageStr, "(): size must be non-negative, got ", size);
    return THPTypedStorage(THWStorage_(newWithSize)(size));
  }
  if (args.size() <= 3 && pybind11::isinstance<THPTypedStorage>(args[0])) {
    // torch.FloatStorage(other, offset=0, size=-1): a region of an existing storage.
    const auto& base = args[0].cast<const THPTypedStorage&>();
    const int64_t offset = args.size() > 1 ? args[1].cast<int64_t>() : 0;
    const int64_t size = args.size() > 2 ? args[2].cast<int64_t>() : -1;
    return THPTypedStorage(THPStorage_(newView)(base.cdata, offset, size));
  }
  if (args.size() == 1 && PySequence_Check(first) && !PyUnicode_Check(first) && !PyBytes_Check(first)) {
    // torch.FloatStorage([1, 2.5]): one element per item, converted to scalar_t.
    auto items = pybind11::reinterpret_borrow<pybind11::sequence>(args[0]);
    const auto n = static_cast<ptrdiff_t>(items.size());
    THPTypedStorage self(THWStorage_(newWithSize)(n));
    scalar_t* data = THWStorage_(data)(self.cdata);
    for (ptrdiff_t i = 0; i < n; i++) {
      pybind11::object item = items[i];
      TORCH_CHECK_TYPE(PyFloat_Check(item.ptr()) || PyLong_Check(item.ptr()), THPStorageStr,
                       "(): tried to construct a storage from a sequence (", THPUtils_typename(args[0]),
                       "), but one of the items was of type ", THPUtils_typename(item), " instead of a number");
      data[i] = THPStorage_(unpackReal)(item);
    }
    return self;
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

// [marker: THPStorage_(copy_)]
// copy_ from any typed storage: the source's Python class picks the TH copy function
// (THFloatStorage_copyDouble, ...), which converts each element.
static pybind11::object THPStorage_(copy_)(pybind11::object self_obj, pybind11::object src, pybind11::object) {
  auto& self = self_obj.cast<THPTypedStorage&>();
#define THP_COPY_FROM(SrcReal)                                                                 \
  if (pybind11::isinstance<THP##SrcReal##Storage>(src)) {                                      \
    THWStorage_(copy##SrcReal)(self.cdata, src.cast<THP##SrcReal##Storage&>().cdata);         \
    return self_obj;                                                                           \
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
  TORCH_CHECK_TYPE(false, "copy_(): expected a typed storage (torch.FloatStorage, ...) as the source, but got ",
                   THPUtils_typename(src));
}
// [end marker: THPStorage_(copy_)]

void THPStorage_(initBindings)(pybind11::module_& m) {
  namespace py = pybind11;
  py::class_<THPTypedStorage> cls(m, THPStorageBaseStr, py::dynamic_attr());
  cls.doc() = "The C++ base of " THPStorageStr ": one reference to a THStorage (at::StorageImpl) of " TH_CONCAT_STRING_2(
      scalar_t, ) " elements.";
  cls.def(py::init(&THPStorage_(pynew)))
      .def("__len__", [](const THPTypedStorage& self) { return THWStorage_(size)(self.cdata); })
      .def("size", [](const THPTypedStorage& self) { return THWStorage_(size)(self.cdata); })
      .def("element_size", [](const THPTypedStorage&) { return THWStorage_(elementSize)(); })
      .def("nbytes", [](const THPTypedStorage& self) { return self.cdata->nbytes(); })
      .def("data_ptr", [](const THPTypedStorage& self) { return reinterpret_cast<uintptr_t>(self.cdata->data()); })
      // [marker: THPStorage_(get)]
      .def("__getitem__",
           [](py::object self_obj, py::handle index) -> py::object {
             const auto& self = self_obj.cast<const THPTypedStorage&>();
             if (PyLong_Check(index.ptr())) {
               const ptrdiff_t i = THPStorage_(wrapIndex)(self, index.cast<int64_t>());
               return THPStorage_(newReal)(THWStorage_(get)(self.cdata, i));
             }
             if (PySlice_Check(index.ptr())) {
               Py_ssize_t start = 0, stop = 0, step = 0, length = 0;
               if (!py::reinterpret_borrow<py::slice>(index).compute(THWStorage_(size)(self.cdata), &start, &stop,
                                                                      &step, &length)) {
                 throw py::error_already_set();
               }
               TORCH_CHECK(step == 1, "Trying to slice with a step of ", step, ", but only a step of 1 is supported");
               return THPStorage_(wrap)(py::type::handle_of(self_obj),
                                        THPStorage_(newView)(self.cdata, start, length));
             }
             TORCH_CHECK_TYPE(false, "can't index a ", THPStorageStr, " with ", THPUtils_typename(index));
           })
      // [end marker: THPStorage_(get)]
      .def("__setitem__",
           [](THPTypedStorage& self, py::handle index, py::handle value) {
             TORCH_CHECK_TYPE(PyLong_Check(index.ptr()), "can't index a ", THPStorageStr, " with ",
                              THPUtils_typename(index));
             const scalar_t v = THPStorage_(unpackReal)(value);
             THWStorage_(set)(self.cdata, THPStorage_(wrapIndex)(self, index.cast<int64_t>()), v);
           })
      .def("tolist",
           [](const THPTypedStorage& self) {
             const ptrdiff_t n = THWStorage_(size)(self.cdata);
             py::list out(n);
             for (ptrdiff_t i = 0; i < n; i++) {
               out[i] = THPStorage_(newReal)(THWStorage_(data)(self.cdata)[i]);
             }
             return out;
           })
      .def(
          "fill_",
          [](py::object self_obj, py::handle value) {
            THWStorage_(fill)(self_obj.cast<THPTypedStorage&>().cdata, THPStorage_(unpackReal)(value));
            return self_obj;
          },
          py::arg("value"))
      .def("copy_", &THPStorage_(copy_), py::arg("src"), py::arg("non_blocking") = py::none())
      .def(
          "resize_",
          [](py::object self_obj, py::handle size_obj) {
            const int64_t size = torch::unpackStorageSize(size_obj, sizeof(scalar_t));
            THWStorage_(resize)(self_obj.cast<THPTypedStorage&>().cdata, size);
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
      // [marker: legacy_tensor]
      // torch.FloatTensor(storage): a 1-D tensor over every element, sharing the memory.
      .def("_legacy_tensor",
           [](const THPTypedStorage& self) {
             THTensor* t = THTensor_(newWithStorage1d)(self.cdata, 0, THWStorage_(size)(self.cdata), 1);
             at::Tensor tensor(c10::intrusive_ptr<at::TensorImpl>::reclaim(t));
             return py::reinterpret_steal<py::object>(THPVariable_Wrap(tensor));
           })
      // [end marker: legacy_tensor]
      .def_property_readonly("dtype", [](const THPTypedStorage&) {
        return torch::getTHPDtype(c10::CppTypeToScalarType<scalar_t>::value);
      })
      .def_property_readonly("device", [](const THPTypedStorage&) {
        return py::module_::import("torch").attr("device")("cpu");
      })
      .def_property_readonly("is_cuda", [](const THPTypedStorage&) { return false; })
      .def("is_shared", [](const THPTypedStorage& self) { return THMapAllocator::fromDataPtr(self.cdata->data_ptr()) != nullptr; })
      // The address of the StorageImpl, for torch._C._storage_Use_Count.
      .def_property_readonly("_cdata", [](const THPTypedStorage& self) { return reinterpret_cast<uintptr_t>(self.cdata); });

  // [marker: THPStorage_(fromFile)]
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
  // [end marker: THPStorage_(fromFile)]
}

#endif
