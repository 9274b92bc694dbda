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

    def cuda(self, device=None, non_blocking=False):
        """A copy in CUDA memory, torch.cuda.FloatStorage for a torch.FloatStorage: on ``device``,
        the current device if None; this storage itself if it is already there. PyTorch 1.x's
        torch._utils._cuda; the copy is THC's (THCudaStorage_copyFloat)."""
        if device is not None:
            device = torch.cuda._get_device_index(device, optional=True)
        if self.is_cuda:
            if device is None:
                device = torch.cuda.current_device()
            if self.get_device() == device:
                return self
        elif device is None:
            device = -1  # torch.cuda.device(-1) leaves the current device as it is
        with torch.cuda.device(device):
            return getattr(torch.cuda, type(self).__name__)(self.size()).copy_(self, non_blocking)

    def cpu(self):
        """This storage: it is in CPU memory already (torch.cuda.FloatStorage copies)."""
        return self

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


# torch.TypedStorage: an UntypedStorage seen as elements of one dtype. PyTorch 2.x keeps it
# for serialization: a tensor pickles its storage as a TypedStorage, and torch.save writes
# each one as ('storage', torch.FloatStorage, key, location, numel); the legacy name tells
# the element type (PyTorch's torch/storage.py). Guide: docs/source/internals/saving_loading.rst.
def _dtype_to_storage_type_map():
    # The legacy storage names PyTorch writes in its files, one per dtype.
    return {
        torch.double: "DoubleStorage",
        torch.float: "FloatStorage",
        torch.half: "HalfStorage",
        torch.long: "LongStorage",
        torch.int: "IntStorage",
        torch.int16: "ShortStorage",
        torch.int8: "CharStorage",
        torch.uint8: "ByteStorage",
        torch.bool: "BoolStorage",
        torch.bfloat16: "BFloat16Storage",
        torch.cdouble: "ComplexDoubleStorage",
        torch.cfloat: "ComplexFloatStorage",
    }


def _storage_type_to_dtype_map():
    return {val: key for key, val in _dtype_to_storage_type_map().items()}


def _get_dtype_from_pickle_storage_type(pickle_storage_type: str):
    try:
        return _storage_type_to_dtype_map()[pickle_storage_type]
    except KeyError as e:
        raise KeyError(f'pickle storage type "{pickle_storage_type}" is not recognized') from e


def _load_from_bytes(b):
    import io
    return torch.load(io.BytesIO(b), weights_only=False)


class TypedStorage:
    """An UntypedStorage read as elements of ``dtype``: what a pickled tensor names as its data.

    ``TypedStorage(wrap_storage=untyped, dtype=d, _internal=True)`` wraps bytes that exist.
    PyTorch rebuilds a tensor over any storage with ``Tensor.set_``; this build has no
    ``set_``, so a TypedStorage also keeps ``_tensor``: a flat tensor of ``dtype`` over all
    the bytes (torch.load makes the storage that way), and tensors are windows onto it.
    """

    is_sparse = False

    def __init__(self, *args, wrap_storage=None, dtype=None, device=None, _internal=False, _tensor=None):
        fixed_dtype = type(self).__dict__.get("dtype")  # BFloat16Storage ...: a class attribute
        if isinstance(fixed_dtype, torch.dtype):
            dtype = fixed_dtype
        if wrap_storage is None:
            # TypedStorage(size, dtype=..., device=...) allocates, as the legacy classes do.
            dtype = dtype if dtype is not None else torch.get_default_dtype()
            size = args[0] if args else 0
            _tensor = torch.empty(size, dtype=dtype, device=device)
            wrap_storage = _tensor.untyped_storage()
        elif not isinstance(wrap_storage, torch.UntypedStorage):
            raise TypeError(f"expected a torch.UntypedStorage for wrap_storage, got {torch.typename(wrap_storage)}")
        if not isinstance(dtype, torch.dtype):
            raise TypeError(f"TypedStorage: expected a torch.dtype, got {dtype!r}")
        self._untyped_storage = wrap_storage
        self._dtype = dtype
        self._tensor = _tensor

    @property
    def dtype(self):
        return self._dtype

    @property
    def device(self):
        return self._untyped_storage.device

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    def _size(self):
        return self._untyped_storage.nbytes() // self._dtype.itemsize

    def size(self):
        return self._size()

    def __len__(self):
        return self._size()

    def nbytes(self):
        return self._untyped_storage.nbytes()

    def element_size(self):
        return self._dtype.itemsize

    def data_ptr(self):
        return self._untyped_storage.data_ptr()

    def _data_ptr(self):
        return self._untyped_storage.data_ptr()

    def untyped(self):
        return self._untyped_storage

    def _pickle_storage_type(self):
        try:
            return _dtype_to_storage_type_map()[self.dtype]
        except KeyError as e:
            raise KeyError(f"dtype {self.dtype} is not recognized") from e

    def _base_tensor(self):
        """The flat tensor of dtype over all the bytes, that tensors are rebuilt from."""
        if self._tensor is None:
            if self._untyped_storage.nbytes() == 0:
                self._tensor = torch.empty(0, dtype=self.dtype, device=self.device)
            else:
                raise NotImplementedError(
                    "TypedStorage: this build has no Tensor.set_, so a tensor can be rebuilt only over a "
                    "storage that torch.load made (or one made with TypedStorage(size, dtype=...))")
        return self._tensor

    def tolist(self):
        return self._base_tensor().tolist()

    def __reduce__(self):
        # PyTorch writes the legacy (non-zip) format here; this build writes only the zip format.
        import io
        b = io.BytesIO()
        torch.save(self, b)
        return (_load_from_bytes, (b.getvalue(),))

    def __repr__(self):
        return f"{torch.typename(self)}(dtype={self.dtype}, device={self.device}) of size {len(self)}"


# The legacy names that have no TH storage in this build (aten/src/TH covers the nine above);
# PyTorch 2.x defines every legacy name this way, as a TypedStorage with a fixed dtype. They
# exist so that torch.save can name them in a file, as PyTorch does.
class BFloat16Storage(TypedStorage):
    dtype = torch.bfloat16


class ComplexFloatStorage(TypedStorage):
    dtype = torch.cfloat


class ComplexDoubleStorage(TypedStorage):
    dtype = torch.cdouble


for _cls in (BFloat16Storage, ComplexFloatStorage, ComplexDoubleStorage):
    _cls.__module__ = "torch"
del _cls
