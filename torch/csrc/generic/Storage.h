// torch/csrc/generic/Storage.h - THPFloatStorage, THPDoubleStorage, ...: the C++ object
// behind each legacy storage class, declared once per element type.
// Mirrors torch/csrc/generic/Storage.h of PyTorch 1.x (removed in 2.0).
// Guide: docs/source/internals/finding_thstorage.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "torch/csrc/generic/Storage.h"
#else

// [marker: THPTypedStorage]
// Owns one reference to a THStorage (an at::StorageImpl): the destructor gives it back
// with THStorage_(free), so the StorageImpl dies with the last Python object or tensor.
struct THPTypedStorage {
  THWStorage* cdata;

  explicit THPTypedStorage(THWStorage* cdata) : cdata(cdata) {}
  THPTypedStorage(THPTypedStorage&& other) noexcept : cdata(other.cdata) { other.cdata = nullptr; }
  THPTypedStorage(const THPTypedStorage& other) : cdata(other.cdata) { THWStorage_(retain)(cdata); }
  THPTypedStorage& operator=(const THPTypedStorage&) = delete;
  ~THPTypedStorage() {
    if (cdata) {
      THWStorage_(free)(cdata);
    }
  }
};
// [end marker: THPTypedStorage]

void THPStorage_(initBindings)(pybind11::module_& m);

#endif
