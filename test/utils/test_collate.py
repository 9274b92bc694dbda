"""default_collate and default_convert: what a list of samples becomes.

Tests torch/utils/data/_utils/collate.py. Guide: docs/source/internals/python_layer.rst
"""

import collections

import numpy as np
import pytest
import torch
from torch.utils.data import default_collate, default_convert
from torch.utils.data._utils.collate import collate, collate_int_fn, collate_tensor_fn

Point = collections.namedtuple("Point", ["x", "y"])


def test_tensors_are_stacked_along_a_new_dim0():
    out = default_collate([torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])])
    assert out.shape == (2, 2) and out.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_python_numbers_become_tensors_with_pytorch_dtypes():
    ints = default_collate([1, 2, 3])
    floats = default_collate([1.5, 2.5])
    bools = default_collate([True, False])
    assert ints.dtype == torch.int64 and ints.tolist() == [1, 2, 3]
    assert floats.dtype == torch.float64 and floats.tolist() == [1.5, 2.5]
    assert bools.dtype == torch.bool and bools.tolist() == [True, False]


def test_numpy_arrays_and_scalars_keep_their_dtype():
    arrays = default_collate([np.array([1, 2], dtype=np.int16), np.array([3, 4], dtype=np.int16)])
    assert arrays.dtype == torch.int16 and arrays.tolist() == [[1, 2], [3, 4]]
    scalars = default_collate([np.float32(1), np.float32(2)])
    assert scalars.dtype == torch.float32 and scalars.tolist() == [1.0, 2.0]


def test_strings_and_bytes_stay_a_list():
    assert default_collate(["a", "b"]) == ["a", "b"]
    assert default_collate([b"a", b"b"]) == [b"a", b"b"]


def test_dicts_collate_per_key():
    out = default_collate([{"x": 1.5, "s": "a"}, {"x": 2.5, "s": "b"}])
    assert set(out) == {"x", "s"}
    assert out["x"].dtype == torch.float64 and out["x"].tolist() == [1.5, 2.5]
    assert out["s"] == ["a", "b"]


def test_tuples_become_lists_of_collated_fields():
    out = default_collate([(1, "a"), (2, "b")])
    assert isinstance(out, list) and out[0].tolist() == [1, 2] and out[1] == ("a", "b")


def test_named_tuples_keep_their_type():
    out = default_collate([Point(0, 1.0), Point(1, 2.0)])
    assert isinstance(out, Point)
    assert out.x.tolist() == [0, 1] and out.y.dtype == torch.float64


def test_nested_structures_collate_at_every_level():
    batch = [{"img": torch.zeros(2), "meta": (1, {"id": "a"})}, {"img": torch.ones(2), "meta": (2, {"id": "b"})}]
    out = default_collate(batch)
    assert out["img"].tolist() == [[0.0, 0.0], [1.0, 1.0]]
    assert out["meta"][0].tolist() == [1, 2] and out["meta"][1] == {"id": ["a", "b"]}


def test_lists_stay_lists():
    out = default_collate([[1, 2], [3, 4]])
    assert isinstance(out, list) and [t.tolist() for t in out] == [[1, 3], [2, 4]]


def test_unsupported_type_raises_pytorch_type_error():
    with pytest.raises(TypeError, match="^default_collate: batch must contain tensors, numpy arrays, numbers, "
                                        "dicts or lists; found <class 'object'>$"):
        default_collate([object(), object()])


def test_numpy_string_arrays_are_rejected():
    with pytest.raises(TypeError, match="found <U1$"):
        default_collate([np.array(["a"]), np.array(["b"])])


def test_sequences_of_unequal_length_raise():
    with pytest.raises(RuntimeError, match="^each element in list of batch should be of equal size$"):
        default_collate([[1, 2], [3]])


def test_collate_fn_map_extends_the_defaults():
    calls = []

    def tensor_fn(batch, *, collate_fn_map):
        calls.append(len(batch))
        return collate_tensor_fn(batch, collate_fn_map=collate_fn_map)

    out = collate([(torch.zeros(1), 1), (torch.ones(1), 2)], collate_fn_map={torch.Tensor: tensor_fn, int: collate_int_fn})
    assert calls == [2] and out[0].shape == (2, 1)


def test_default_convert_turns_numpy_into_tensors_and_keeps_the_rest():
    assert default_convert(0) == 0
    assert default_convert("s") == "s"
    t = default_convert(np.array([0, 1]))
    assert isinstance(t, torch.Tensor) and t.tolist() == [0, 1]
    p = default_convert(Point(np.array(0), np.array(1)))
    assert isinstance(p, Point) and isinstance(p.x, torch.Tensor) and p.y.item() == 1
    out = default_convert((np.array([0, 1]), np.array([2, 3])))
    assert isinstance(out, list) and [x.tolist() for x in out] == [[0, 1], [2, 3]]
    assert default_convert(np.array(["a"])).dtype.kind == "U"  # string arrays stay numpy
