// torch/csrc/StorageMethods.cpp - methods of torch._C.StorageBase (nbytes, resize_, copy_, ...).
// Mirrors PyTorch's torch/csrc/StorageMethods.cpp. Guide: docs/source/internals/memory.rst.
#include <torch/csrc/Storage.h>
#include <torch/csrc/utils/python_strings.h>

#include <ATen/native/Resize.h>
#include <c10/util/Exception.h>
#include <c10/util/intrusive_ptr.h>

#include <cstring>

namespace py = pybind11;

namespace torch {

void initStorageMethods(py::class_<THPStorage>& cls) {
  cls.def("nbytes", [](const THPStorage& self) { return self.cdata.nbytes(); })
      .def("data_ptr", [](const THPStorage& self) {
        return reinterpret_cast<uintptr_t>(self.cdata.data());
      })
      .def("resizable", [](const THPStorage& self) { return self.cdata.resizable(); })
      .def(
          "resize_",
          [](py::object self_obj, py::handle size_obj) {
            const int64_t new_size = unpackStorageSize(size_obj, 1);
            auto& self = self_obj.cast<THPStorage&>();
            c10::StorageImpl* impl = self.cdata.unsafeGetStorageImpl();
            TORCH_CHECK(impl->device().is_cpu() || impl->device().is_meta(),
                        "UntypedStorage.resize_: only CPU and meta storages can be resized in this build, got ",
                        impl->device());
            if (impl->device().is_meta()) {
              TORCH_CHECK(impl->resizable(), "Trying to resize storage that is not resizable");
              impl->set_nbytes(static_cast<size_t>(new_size));
            } else {
              at::native::resize_bytes_cpu(impl, static_cast<size_t>(new_size));
            }
            return self_obj;
          },
          py::arg("size"))
      .def(
          "copy_",
          [](py::object self_obj, py::object src_obj, py::object non_blocking) {
            auto& self = self_obj.cast<THPStorage&>();
            TORCH_CHECK_TYPE(py::isinstance<THPStorage>(src_obj),
                             "copy_(): expected a storage as the source, but got ",
                             THPUtils_typename(src_obj));
            const auto& src = src_obj.cast<const THPStorage&>();
            TORCH_CHECK(self.cdata.nbytes() == src.cdata.nbytes(), "size does not match, self was ",
                        self.cdata.nbytes(), " bytes but src was ", src.cdata.nbytes(), " bytes");
            TORCH_CHECK(self.cdata.device() == src.cdata.device(),
                        "copy_(): copying between devices needs tensors; got storages on ",
                        src.cdata.device(), " and ", self.cdata.device());
            if (self.cdata.nbytes() > 0 && self.cdata.device().is_cpu() &&
                self.cdata.data() != src.cdata.data()) {
              std::memmove(self.cdata.mutable_data(), src.cdata.data(), self.cdata.nbytes());
            }
            return self_obj;
          },
          py::arg("src"), py::arg("non_blocking") = py::none())
      .def(
          "fill_",
          [](py::object self_obj, int64_t value) {
            auto& self = self_obj.cast<THPStorage&>();
            TORCH_CHECK(self.cdata.device().is_cpu(), "fill_(): only CPU storages can be filled from Python, got ",
                        self.cdata.device());
            if (self.cdata.nbytes() > 0) {
              std::memset(self.cdata.mutable_data(), static_cast<uint8_t>(value), self.cdata.nbytes());
            }
            return self_obj;
          },
          py::arg("value"))
      .def("is_shared", [](const THPStorage&) { return false; })
      .def_property_readonly("device",
                             [](const THPStorage& self) {
                               return py::module_::import("torch").attr("device")(self.cdata.device().str());
                             })
      .def_property_readonly("is_cuda", [](const THPStorage& self) { return self.cdata.device().is_cuda(); })
      // The address of the StorageImpl: what torch._C._storage_Use_Count takes.
      .def_property_readonly("_cdata", [](const THPStorage& self) {
        return reinterpret_cast<uintptr_t>(self.cdata.unsafeGetStorageImpl());
      });
}

}  // namespace torch
