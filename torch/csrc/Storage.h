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

}  // namespace torch
