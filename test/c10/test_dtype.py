# test/c10/test_dtype.py - torch.dtype objects and torch.promote_types.
# Mirrors PyTorch's test/test_type_promotion.py (test_promote_types) and the dtype attributes
# tested in test/test_torch.py. Guide: docs/source/internals/tensors.rst.
import pickle

import numpy as np
import pytest
import torch

# (torch dtype, itemsize, is_floating_point, is_signed, is_complex, numpy dtype or None)
DTYPES = [
    (torch.bool, 1, False, False, False, np.bool_),
    (torch.uint8, 1, False, False, False, np.uint8),
    (torch.int8, 1, False, True, False, np.int8),
    (torch.int16, 2, False, True, False, np.int16),
    (torch.int32, 4, False, True, False, np.int32),
    (torch.int64, 8, False, True, False, np.int64),
    (torch.float16, 2, True, True, False, np.float16),
    (torch.bfloat16, 2, True, True, False, None),
    (torch.float32, 4, True, True, False, np.float32),
    (torch.float64, 8, True, True, False, np.float64),
    (torch.complex32, 4, False, True, True, None),
    (torch.complex64, 8, False, True, True, np.complex64),
    (torch.complex128, 16, False, True, True, np.complex128),
]


@pytest.mark.parametrize("dtype, itemsize, is_float, is_signed, is_complex, np_dtype", DTYPES)
def test_dtype_attributes(dtype, itemsize, is_float, is_signed, is_complex, np_dtype):
    assert dtype.itemsize == itemsize
    assert dtype.is_floating_point is is_float
    assert dtype.is_signed is is_signed
    assert dtype.is_complex is is_complex
    if np_dtype is not None:
        assert np.dtype(np_dtype).itemsize == itemsize


def test_legacy_names_are_the_same_objects():
    assert torch.float is torch.float32
    assert torch.double is torch.float64
    assert torch.half is torch.float16
    assert torch.long is torch.int64
    assert torch.int is torch.int32
    assert torch.short is torch.int16
    assert torch.cfloat is torch.complex64
    assert torch.cdouble is torch.complex128
    assert torch.chalf is torch.complex32


def test_repr_is_the_torch_name():
    assert repr(torch.float32) == "torch.float32"
    assert str(torch.bfloat16) == "torch.bfloat16"
    assert repr(torch.long) == "torch.int64"


def test_to_real_and_to_complex():
    assert torch.complex64.to_real() is torch.float32
    assert torch.complex128.to_real() is torch.float64
    assert torch.float32.to_real() is torch.float32
    assert torch.float32.to_complex() is torch.complex64
    assert torch.float64.to_complex() is torch.complex128
    assert torch.float16.to_complex() is torch.complex32


def test_dtypes_cannot_be_constructed():
    with pytest.raises(TypeError, match="cannot create 'torch.dtype' instances"):
        torch.dtype()


def test_unknown_dtype_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="has no attribute 'float99'"):
        torch.float99  # noqa: B018


def test_pickle_returns_the_same_object():
    for dtype, *_ in DTYPES:
        assert pickle.loads(pickle.dumps(dtype)) is dtype


# PyTorch's promotion table (torch.promote_types over these 13 dtypes), row by row.
ORDER = ["b1", "u1", "i1", "i2", "i4", "i8", "f2", "bf", "f4", "f8", "c2", "c4", "c8"]
NAMES = {"b1": torch.bool, "u1": torch.uint8, "i1": torch.int8, "i2": torch.int16, "i4": torch.int32,
         "i8": torch.int64, "f2": torch.float16, "bf": torch.bfloat16, "f4": torch.float32,
         "f8": torch.float64, "c2": torch.complex32, "c4": torch.complex64, "c8": torch.complex128}
TABLE = """
b1 u1 i1 i2 i4 i8 f2 bf f4 f8 c2 c4 c8
u1 u1 i2 i2 i4 i8 f2 bf f4 f8 c2 c4 c8
i1 i2 i1 i2 i4 i8 f2 bf f4 f8 c2 c4 c8
i2 i2 i2 i2 i4 i8 f2 bf f4 f8 c2 c4 c8
i4 i4 i4 i4 i4 i8 f2 bf f4 f8 c2 c4 c8
i8 i8 i8 i8 i8 i8 f2 bf f4 f8 c2 c4 c8
f2 f2 f2 f2 f2 f2 f2 f4 f4 f8 c2 c4 c8
bf bf bf bf bf bf f4 bf f4 f8 c4 c4 c8
f4 f4 f4 f4 f4 f4 f4 f4 f4 f8 c4 c4 c8
f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 c8
c2 c2 c2 c2 c2 c2 c2 c4 c4 c8 c2 c4 c8
c4 c4 c4 c4 c4 c4 c4 c4 c4 c8 c4 c4 c8
c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8
"""


def test_promote_types_matches_pytorchs_table():
    rows = [line.split() for line in TABLE.strip().splitlines()]
    for a, row in zip(ORDER, rows):
        for b, expected in zip(ORDER, row):
            assert torch.promote_types(NAMES[a], NAMES[b]) is NAMES[expected], (a, b)


def _category(dtype):
    if dtype is torch.bool:
        return 0
    if dtype.is_complex:
        return 3
    return 2 if dtype.is_floating_point else 1


def test_promote_types_agrees_with_numpy_within_a_category():
    # Across categories PyTorch differs from numpy on purpose (int32 + float16 stays
    # float16); within one category both widen the same way.
    np_types = {d: n for d, _, _, _, _, n in DTYPES if n is not None}
    for a, na in np_types.items():
        for b, nb in np_types.items():
            if _category(a) != _category(b):
                continue
            assert torch.promote_types(a, b).itemsize == np.promote_types(na, nb).itemsize, (a, b)


def test_promote_types_rejects_non_dtypes():
    with pytest.raises(TypeError, match="promote_types\\(\\): argument 'type2' \\(position 2\\) must be torch.dtype, not str"):
        torch.promote_types(torch.float32, "float")
