"""torch.UntypedStorage: the Python class over torch._C.StorageBase (a c10::StorageImpl).

Mirrors PyTorch's torch/storage.py. Guide: docs/source/internals/memory.rst.

The C++ base class (torch/csrc/Storage.cpp, StorageMethods.cpp) does the work: allocation
through the device's allocator, indexing, resizing, copying. This module adds what is
easiest said in Python: printing, iteration, tolist, clone.
"""

import torch
from torch._C import StorageBase


class _StorageBase:
    """Behaviour shared by storage classes, written in Python."""

    def size(self):
        """The number of elements; for an untyped storage, the number of bytes."""
        return self.nbytes()

    def element_size(self):
        return 1

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return torch.typename(self)
        raise NotImplementedError("UntypedStorage.type(dtype) converts typed storages only")

    def get_device(self):
        return self.device.index if self.device.type != "cpu" else -1

    def __iter__(self):
        return iter(self[i] for i in range(self.size()))

    def tolist(self):
        """The bytes as a list of Python ints."""
        return list(self)

    def clone(self):
        """A new storage with a copy of these bytes, on the same device."""
        return type(self)(self.nbytes(), device=self.device).copy_(self)

    def cpu(self):
        """This storage if it is on the CPU, else a CPU copy."""
        if self.device.type != "cpu":
            return torch.UntypedStorage(self.size()).copy_(self, False)
        return self

    def __str__(self):
        info_str = f"[{torch.typename(self)}(device={self.device}) of size {len(self)}]"
        if self.device.type == "meta":
            return "...\n" + info_str
        data_str = " " + "\n ".join(str(self[i]) for i in range(self.size()))
        return data_str + "\n" + info_str

    def __repr__(self):
        return str(self)

    def __sizeof__(self):
        return super().__sizeof__() + self.size()


class UntypedStorage(StorageBase, _StorageBase):
    """Bytes on a device, with no element type: what every tensor's data lives in.

    ``torch.UntypedStorage(n)`` allocates n bytes through the device's allocator;
    ``torch.UntypedStorage([1, 2, 3])`` copies bytes from a sequence of ints.
    """

    def __getitem__(self, *args, **kwargs):
        if self.device.type == "meta":
            raise NotImplementedError("Not available for 'meta' device type")
        return super().__getitem__(*args, **kwargs)

    @property
    def is_sparse(self):
        return False
