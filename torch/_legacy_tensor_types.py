"""torch.FloatTensor, torch.LongTensor, ...: the legacy tensor type names.

Mirrors PyTorch's torch/csrc/tensor/python_tensor.cpp, which makes these objects in C++.
Guide: docs/source/internals/th_storage.rst.

They are not classes of their own: every tensor is a torch.Tensor. Each name stands for a
(dtype, CPU) pair: ``isinstance(t, torch.FloatTensor)`` checks that pair, and calling it
makes a CPU tensor of that dtype: ``torch.FloatTensor(storage)`` views a legacy storage
(THTensor_(newWithStorage1d) in aten/src/TH/generic/THTensor.cpp, sharing its memory),
``torch.FloatTensor(2, 3)`` is uninitialised, ``torch.FloatTensor([1, 2])`` copies data,
``torch.FloatTensor()`` is empty.
"""

import torch
from torch import storage as _storage


class _LegacyTensorType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, torch.Tensor) and obj.dtype == cls.dtype and obj.device.type == "cpu"

    def __call__(cls, *args, **kwargs):
        if len(args) == 1 and not kwargs and isinstance(args[0], _storage._LegacyStorage):
            if not isinstance(args[0], cls.storage_type):
                raise TypeError(f"expected {torch.typename(cls.storage_type)} (got {torch.typename(args[0])})")
            return args[0]._legacy_tensor()
        # Sizes, data or nothing: the same rules as torch.Tensor(...), in C++
        # (legacy_tensor_ctor in torch/csrc/utils/tensor_new.cpp), with this name's dtype.
        return torch._C._legacy_tensor_new(cls.dtype, *args, **kwargs)

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


def _make(name, dtype, storage_type):
    return _LegacyTensorType(name, (), {"dtype": dtype, "storage_type": storage_type, "__module__": "torch"})


ByteTensor = _make("ByteTensor", torch.uint8, _storage.ByteStorage)
CharTensor = _make("CharTensor", torch.int8, _storage.CharStorage)
ShortTensor = _make("ShortTensor", torch.int16, _storage.ShortStorage)
IntTensor = _make("IntTensor", torch.int32, _storage.IntStorage)
LongTensor = _make("LongTensor", torch.int64, _storage.LongStorage)
FloatTensor = _make("FloatTensor", torch.float32, _storage.FloatStorage)
DoubleTensor = _make("DoubleTensor", torch.float64, _storage.DoubleStorage)
HalfTensor = _make("HalfTensor", torch.float16, _storage.HalfStorage)
BoolTensor = _make("BoolTensor", torch.bool, _storage.BoolStorage)

__all__ = ["ByteTensor", "CharTensor", "ShortTensor", "IntTensor", "LongTensor",
           "FloatTensor", "DoubleTensor", "HalfTensor", "BoolTensor"]
