// torch/csrc/Storage.cpp - torch._C.StorageBase: construction, indexing, length.
// Mirrors PyTorch's torch/csrc/Storage.cpp (THPStorage_pynew, THPStorage_get, THPStorage_set).
// Guide: docs/source/internals/memory.rst.
//
// torch.UntypedStorage(n) -> THPStorage_pynew -> allocator for the device
// (c10::GetAllocator(DeviceType::CPU) -> DefaultCPUAllocator -> c10::alloc_cpu) ->
// a resizable StorageImpl of n bytes. The methods (nbytes, resize_, copy_, ...) are in
// torch/csrc/StorageMethods.cpp.
#include <torch/csrc/Device.h>
#include <torch/csrc/utils/device_lazy_init.h>
#include <torch/csrc/Storage.h>

#include <c10/core/Allocator.h>
#include <c10/util/Exception.h>
#include <torch/csrc/utils/python_strings.h>

// [marker: legacy_storages]
// The legacy typed storages, torch.FloatStorage ... torch.BoolStorage (PyTorch 1.x; guide:
// finding_thstorage.rst). Seed 000 starts here: Storage.cpp -> TH/TH.h -> ... -> StorageImpl.
#include <TH/TH.h>
#include <torch/csrc/Dtype.h>
#include <torch/csrc/THP.h>
#include <torch/csrc/autograd/python_variable.h>

#include <type_traits>
#include <vector>

using torch::THPUtils_typename;

// Declare every type's struct first: FloatStorage.copy_ must know THPDoubleStorage.
#include <torch/csrc/generic/Storage.h>
#include <TH/THGenerateAllTypes.h>

#include <torch/csrc/generic/Storage.h>
#include <TH/THGenerateHalfType.h>

#include <torch/csrc/generic/Storage.h>
#include <TH/THGenerateBoolType.h>

#include <torch/csrc/generic/Storage.cpp>
#include <TH/THGenerateAllTypes.h>

#include <torch/csrc/generic/Storage.cpp>
#include <TH/THGenerateHalfType.h>

#include <torch/csrc/generic/Storage.cpp>
#include <TH/THGenerateBoolType.h>
// [end marker: legacy_storages]

namespace py = pybind11;

namespace torch {

void initStorageMethods(py::class_<THPStorage>& cls);

namespace {

// [marker: THPStorage_pynew]
c10::Storage newStorage(size_t size_bytes, c10::Device device) {
  // A storage on a lazily started runtime (CUDA) starts it, or raises why it cannot.
  torch::utils::device_lazy_init(device.type());
  c10::Allocator* allocator = c10::GetAllocator(device.type());
  return c10::Storage(c10::Storage::use_byte_size_t(), size_bytes, allocator, /*resizable=*/true);
}

THPStorage THPStorage_pynew(const py::args& args, const py::kwargs& kwargs) {
  c10::Device device(c10::DeviceType::CPU);
  if (kwargs.contains("_share")) {
    // Internal: a second Python handle on the same StorageImpl (used to give a slice the
    // Python class of the storage it was cut from).
    return THPStorage{kwargs["_share"].cast<const THPStorage&>().cdata};
  }
  for (auto kv : kwargs) {
    const std::string key = py::str(kv.first);
    TORCH_CHECK_TYPE(key == "device", "torch.UntypedStorage() got an unexpected keyword argument '", key, "'");
    if (!kv.second.is_none()) {
      device = toDevice(kv.second);
    }
  }
  if (args.size() == 0) {
    return THPStorage{newStorage(0, device)};  // torch.UntypedStorage()
  }
  if (args.size() == 1 && PyLong_Check(args[0].ptr()) && !PyBool_Check(args[0].ptr())) {
    // torch.UntypedStorage(size). A negative size wraps to a huge size_t, which alloc_cpu
    // rejects with PyTorch's "seems to have been called with negative number" error.
    const auto size = unpackStorageSize(args[0], 1);
    return THPStorage{newStorage(static_cast<size_t>(size), device)};
  }
  if (args.size() == 1) {
    // torch.UntypedStorage(sequence): one byte per item.
    py::handle seq = args[0];
    TORCH_CHECK(PySequence_Check(seq.ptr()), "torch.UntypedStorage(): Expected a sequence type, but got ",
                THPUtils_typename(seq));
    py::sequence items = py::reinterpret_borrow<py::sequence>(seq);
    const size_t n = items.size();
    c10::Storage storage = newStorage(n, device);
    TORCH_CHECK(device.is_cpu(), "torch.UntypedStorage(): a storage from a sequence is built on the CPU; "
                "copy it to ", device, " with .to()");
    auto* data = static_cast<uint8_t*>(storage.mutable_data());
    for (size_t i = 0; i < n; ++i) {
      py::handle item = items[i];
      TORCH_CHECK(PyLong_Check(item.ptr()),
                  "torch.UntypedStorage(): tried to construct a storage from a sequence (",
                  THPUtils_typename(seq), "), but one of the items was of type ", THPUtils_typename(item),
                  " instead of int");
      // Bytes wrap modulo 256, as a C cast does (300 -> 44, -1 -> 255).
      data[i] = static_cast<uint8_t>(item.cast<int64_t>());
    }
    return THPStorage{std::move(storage)};
  }
  std::string got;
  for (auto a : args) {
    got += got.empty() ? "" : ", ";
    got += THPUtils_typename(a);
  }
  TORCH_CHECK_TYPE(false, "torch.UntypedStorage() received an invalid combination of arguments - got (", got,
                   "), but expected one of:\n"
                   " * (*, torch.device device = None)\n"
                   " * (int size, *, torch.device device = None)\n"
                   " * (object sequence, *, torch.device device = None)\n");
}
// [end marker: THPStorage_pynew]

int64_t wrapIndex(const THPStorage& self, int64_t index) {
  const auto len = static_cast<int64_t>(self.cdata.nbytes());
  int64_t nindex = index < 0 ? index + len : index;
  TORCH_CHECK_INDEX(nindex >= 0 && nindex < len, "index ", nindex, " out of range for storage of size ", len);
  return nindex;
}

// [start, stop) of a slice with step 1, clamped to the storage.
std::pair<int64_t, int64_t> sliceBounds(const THPStorage& self, const py::slice& slice) {
  Py_ssize_t start = 0, stop = 0, step = 0, slicelength = 0;
  const auto len = static_cast<Py_ssize_t>(self.cdata.nbytes());
  if (!slice.compute(len, &start, &stop, &step, &slicelength)) {
    throw py::error_already_set();
  }
  TORCH_CHECK(step == 1, "Trying to slice with a step of ", step, ", but only a step of 1 is supported");
  return {start, std::max<int64_t>(start, stop)};
}

void checkReadable(const THPStorage& self) {
  TORCH_CHECK(self.cdata.device().is_cpu() || self.cdata.device().is_meta(),
              "reading storage elements from Python is supported for CPU storages; got a storage on ",
              self.cdata.device());
  TORCH_CHECK_NOT_IMPLEMENTED(!self.cdata.device().is_meta(), "Cannot copy out of meta tensor; no data!");
}

// [marker: THPStorage_get]
py::object THPStorage_get(py::object self_obj, py::handle index) {
  const auto& self = self_obj.cast<const THPStorage&>();
  if (PyLong_Check(index.ptr())) {
    checkReadable(self);
    const int64_t i = wrapIndex(self, index.cast<int64_t>());
    return py::int_(static_cast<const uint8_t*>(self.cdata.data())[i]);
  }
  if (PySlice_Check(index.ptr())) {
    // A slice is a new storage over the same bytes (a view). Its DataPtr context holds a
    // reference to the original StorageImpl, so the original memory lives as long as the
    // slice does: the refcount of the original goes up by one.
    auto [start, stop] = sliceBounds(self, py::reinterpret_borrow<py::slice>(index));
    c10::intrusive_ptr<c10::StorageImpl> base = self.cdata.getIntrusivePtr();
    auto* data = static_cast<uint8_t*>(base->mutable_data());
    void* view_data = data == nullptr ? nullptr : data + start;
    const c10::Device device = base->device();
    c10::DataPtr view_ptr = c10::InefficientStdFunctionContext::makeDataPtr(
        view_data, [base](void*) mutable { base.reset(); }, device);
    py::object view = py::cast(THPStorage{c10::Storage(c10::Storage::use_byte_size_t(),
                                                       static_cast<size_t>(stop - start), std::move(view_ptr),
                                                       base->allocator(), /*resizable=*/false)});
    // Hand the view back as the caller's class (torch.UntypedStorage), not the C++ base.
    return py::type::handle_of(self_obj)(py::arg("_share") = view);
  }
  TORCH_CHECK_TYPE(false, "can't index a torch.storage.UntypedStorage with ", THPUtils_typename(index));
}
// [end marker: THPStorage_get]

void THPStorage_set(THPStorage& self, py::handle index, py::handle value) {
  TORCH_CHECK_TYPE(PyLong_Check(value.ptr()),
                   "can only set storage content with a int types, but got ", THPUtils_typename(value), " instead");
  const auto byte = static_cast<uint8_t>(value.cast<int64_t>());
  checkReadable(self);
  auto* data = static_cast<uint8_t*>(self.cdata.mutable_data());
  if (PyLong_Check(index.ptr())) {
    data[wrapIndex(self, index.cast<int64_t>())] = byte;
    return;
  }
  if (PySlice_Check(index.ptr())) {
    auto [start, stop] = sliceBounds(self, py::reinterpret_borrow<py::slice>(index));
    std::fill(data + start, data + stop, byte);
    return;
  }
  TORCH_CHECK_TYPE(false, "can't index a torch.storage.UntypedStorage with ", THPUtils_typename(index));
}

}  // namespace

int64_t unpackStorageSize(py::handle obj, size_t itemsize) {
  TORCH_CHECK_TYPE(PyLong_Check(obj.ptr()) && !PyBool_Check(obj.ptr()), "expected an int as size, got ",
                   Py_TYPE(obj.ptr())->tp_name);
  int overflow = 0;
  const long long size = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (size == -1 && PyErr_Occurred()) throw py::error_already_set();
  int64_t nbytes = 0;
  TORCH_CHECK_VALUE(overflow == 0 && !__builtin_mul_overflow(static_cast<int64_t>(size),
                                                             static_cast<int64_t>(itemsize), &nbytes),
                    "Overflow when unpacking long long");
  return size;
}

void initStorageBindings(py::module_& m) {
  py::class_<THPStorage> cls(m, "StorageBase", py::dynamic_attr());
  cls.doc() = "torch._C.StorageBase: a Python handle on one c10::StorageImpl (bytes on a device).";
  cls.def(py::init(&THPStorage_pynew))
      .def("__len__", [](const THPStorage& self) { return self.cdata.nbytes(); })
      .def("__getitem__", &THPStorage_get)
      .def("__setitem__", &THPStorage_set);
  initStorageMethods(cls);
  // torch._C.FloatStorageBase ...; torch/storage.py subclasses each as torch.FloatStorage ...
  THPByteStorage_initBindings(m);
  THPCharStorage_initBindings(m);
  THPShortStorage_initBindings(m);
  THPIntStorage_initBindings(m);
  THPLongStorage_initBindings(m);
  THPFloatStorage_initBindings(m);
  THPDoubleStorage_initBindings(m);
  THPHalfStorage_initBindings(m);
  THPBoolStorage_initBindings(m);
}

}  // namespace torch
