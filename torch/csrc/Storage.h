// torch/csrc/Storage.h - THPStorage, the Python object around a c10::Storage.
// Mirrors PyTorch's torch/csrc/Storage.h. Guide: docs/source/internals/memory.rst.
#pragma once

#include <c10/core/Storage.h>

#include <pybind11/pybind11.h>

namespace torch {

// torch._C.StorageBase; torch.UntypedStorage (torch/storage.py) subclasses it.
// Holding the c10::Storage is holding one reference to the StorageImpl.
struct THPStorage {
  c10::Storage cdata;
};

void initStorageBindings(pybind11::module_& m);

// A storage size from Python, in elements of `itemsize` bytes: an int whose byte count fits
// an int64, else PyTorch's ValueError "Overflow when unpacking long long" (which PyTorch
// raises when it hands size * element_size to UntypedStorage). Negative sizes pass through
// for the caller's own error.
int64_t unpackStorageSize(pybind11::handle obj, size_t itemsize);

}  // namespace torch
