"""torch.UntypedStorage: the Python class over torch._C.StorageBase (a c10::StorageImpl).

Mirrors PyTorch's torch/storage.py. Guide: docs/source/internals/memory.rst.

The C++ base class (torch/csrc/Storage.cpp, StorageMethods.cpp) does the work: allocation
through the device's allocator, indexing, resizing, copying. This module adds what is
easiest said in Python: printing, iteration, tolist, clone.
"""

import torch
from torch import _C
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


# [marker: legacy_storage_classes]
# The legacy typed storages: torch.FloatStorage ... torch.BoolStorage. Their C++ bases
# (torch._C.FloatStorageBase ...) come from one generic file, torch/csrc/generic/Storage.cpp,
# compiled once per element type over the TH functions THFloatStorage_* ... (aten/src/TH).
# PyTorch 1.x defined these classes this way in torch/__init__.py; PyTorch 2.x rewrote
# them in Python as TypedStorage. Guide: docs/source/internals/finding_thstorage.rst.
class _LegacyStorage:
    """Behaviour shared by the legacy typed storages, written in Python."""

    def __iter__(self):
        return iter(self.tolist())

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return torch.typename(self)
        raise NotImplementedError(f"{torch.typename(self)}.type(dtype): convert with copy_ into another storage")

    def get_device(self):
        return -1

    def clone(self):
        """A new storage of the same type with a copy of these elements."""
        return type(self)(self.size()).copy_(self)

    def __str__(self):
        data_str = " " + "\n ".join(str(x) for x in self.tolist())
        return f"{data_str}\n[{torch.typename(self)} of size {len(self)}]"

    def __repr__(self):
        return str(self)

    def __reduce__(self):
        return (type(self), (self.tolist(),))


class ByteStorage(_C.ByteStorageBase, _LegacyStorage):
    pass


class CharStorage(_C.CharStorageBase, _LegacyStorage):
    pass


class ShortStorage(_C.ShortStorageBase, _LegacyStorage):
    pass


class IntStorage(_C.IntStorageBase, _LegacyStorage):
    pass


class LongStorage(_C.LongStorageBase, _LegacyStorage):
    pass


class FloatStorage(_C.FloatStorageBase, _LegacyStorage):
    pass


class DoubleStorage(_C.DoubleStorageBase, _LegacyStorage):
    pass


class HalfStorage(_C.HalfStorageBase, _LegacyStorage):
    pass


class BoolStorage(_C.BoolStorageBase, _LegacyStorage):
    pass


_legacy_storage_classes = [ByteStorage, CharStorage, ShortStorage, IntStorage, LongStorage,
                           FloatStorage, DoubleStorage, HalfStorage, BoolStorage]
for _cls in _legacy_storage_classes:
    _cls.__module__ = "torch"  # printed as torch.FloatStorage, as in PyTorch
del _cls
# [end marker: legacy_storage_classes]
