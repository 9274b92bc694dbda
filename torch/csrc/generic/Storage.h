// torch/csrc/generic/Storage.h - THPFloatStorage, THPDoubleStorage, ...: the C++ object
// behind each legacy storage class, declared once per element type (and, as THCPFloatStorage
// ..., once more per type for the CUDA storages: torch/csrc/cuda/Storage.cpp).
// Mirrors torch/csrc/generic/Storage.h of PyTorch 1.x (removed in 2.0).
// Guide: docs/source/internals/finding_thstorage.rst.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "torch/csrc/generic/Storage.h"
#else

// Owns one reference to a THStorage (an at::StorageImpl): the destructor gives it back
// with THStorage_(free), so the StorageImpl dies with the last Python object or tensor.
struct THPTypedStorage {
  THWStorage* cdata;

  explicit THPTypedStorage(THWStorage* cdata) : cdata(cdata) {}
  THPTypedStorage(THPTypedStorage&& other) noexcept : cdata(other.cdata) { other.cdata = nullptr; }
  THPTypedStorage(const THPTypedStorage& other) : cdata(other.cdata) { THWStorage_(retain)(LIBRARY_STATE cdata); }
  THPTypedStorage& operator=(const THPTypedStorage&) = delete;
  ~THPTypedStorage() {
    if (cdata) {
      THWStorage_(free)(LIBRARY_STATE cdata);
    }
  }
};

void THPStorage_(initBindings)(pybind11::module_& m);

#ifndef THC_GENERIC_FILE
// copy_'s sources that this file cannot name: the CUDA storages, whose bindings are compiled
// only with CUDA. Each function copies `src` into `self` and returns true, or returns false
// for a source it does not take. torch/csrc/cuda/Storage.cpp adds one per CUDA type
// (THFloatStorage_copyCudaByte ...) when torch._C loads, as PyTorch 1.x's CUDA module added
// its copies to the CPU types' copy lists.
extern std::vector<bool (*)(THWStorage* self, pybind11::handle src)> THPStorage_(copy_functions);
#endif

#endif
