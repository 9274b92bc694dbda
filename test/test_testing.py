"""Tests for torch.testing (assert_close, make_tensor; torch/testing/_comparison.py and
_creation.py) and for the shared test helpers in torch/testing/_internal/common_utils.py.
The messages are PyTorch 2.13's, word for word. Mirrors PyTorch's test/test_testing.py.
Guide: docs/source/internals/python_layer.rst.
"""
import math

import numpy as np
import pytest
from hypothesis import given, settings

import torch
from torch.testing import assert_close, make_tensor
from torch.testing._internal.common_utils import (assert_equal, layout_strategy, layouts, make_leaf,
                                                  num_threads)


def raises(actual, expected, **kwargs):
    with pytest.raises(AssertionError) as info:
        assert_close(actual, expected, **kwargs)
    assert type(info.value) is AssertionError
    return str(info.value)


def test_close_values_pass_with_the_dtype_tolerances():
    assert_close(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-6]))  # float32: atol 1e-5
    assert_close(torch.tensor([1.0], dtype=torch.float64), torch.tensor([1.0 + 1e-8], dtype=torch.float64))
    assert_close(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)
    assert_close([torch.tensor(1.0), {"a": 2}], [torch.tensor(1.0), {"a": 2}])
    assert_close(None, None)


def test_mismatch_message_names_the_count_the_greatest_differences_and_their_index():
    assert raises(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, 2.5, 3.0])) == (
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)")
    assert raises(torch.tensor([1, 2]), torch.tensor([1, 3])) == (
        "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 1 at index (1,)\n"
        "Greatest relative difference: 0.3333333432674408 at index (1,)")
    assert raises(torch.tensor([[1.0, float("nan")]]), torch.tensor([[1.0, float("nan")]])) == (
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: nan at index (0, 1) (up to 1e-05 allowed)\n"
        "Greatest relative difference: nan at index (0, 1) (up to 1.3e-06 allowed)")
    assert raises(torch.tensor([True, False]), torch.tensor([True, True])) == (
        "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 1 at index (1,)\nGreatest relative difference: 1.0 at index (1,)")


def test_attributes_are_checked_before_values():
    assert raises(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64)) == (
        "The values for attribute 'dtype' do not match: torch.float32 != torch.float64.")
    assert raises(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0, 3.0])) == (
        "The values for attribute 'shape' do not match: torch.Size([2]) != torch.Size([3]).")
    assert raises(torch.ones(2, 2).t(), torch.ones(2, 2), check_stride=True) == (
        "The values for attribute 'stride()' do not match: (1, 2) != (2, 1).")
    # check_dtype=False compares in the promoted dtype (float64 here).
    assert raises(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5], dtype=torch.float64), check_dtype=False) == (
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.2 at index (1,) (up to 1.3e-06 allowed)")


def test_scalars_sequences_and_mappings():
    assert raises(1.0, 1.5) == ("Scalars are not close!\n\nExpected 1.5 but got 1.0.\n"
                                "Absolute difference: 0.5 (up to 1e-07 allowed)\n"
                                "Relative difference: 0.3333333333333333 (up to 1e-07 allowed)")
    assert raises(1, 2) == ("Scalars are not equal!\n\nExpected 2 but got 1.\nAbsolute difference: 1\n"
                            "Relative difference: 0.5")
    assert raises(1, 1.0) == "The (d)types do not match: <class 'int'> != <class 'float'>."
    assert raises([torch.tensor(1.0)], [torch.tensor(2.0)]) == (
        "Scalars are not close!\n\nExpected 2.0 but got 1.0.\nAbsolute difference: 1.0 (up to 1e-05 allowed)\n"
        "Relative difference: 0.5 (up to 1.3e-06 allowed)\n\nThe failure occurred for item [0]")
    assert raises([1, 2], [1, 2, 3]) == "The length of the sequences mismatch: 2 != 3"
    assert raises({"a": 1}, {"b": 1}) == ("The keys of the mappings do not match:\n"
                                          "Missing keys in the actual mapping: ['b']\n"
                                          "Additional keys in the actual mapping: ['a']")


def test_msg_and_argument_errors():
    a, b = torch.tensor([[1.0, 2.0], [3, 4]]), torch.tensor([[1.0, 2.0], [3, 5]])
    assert raises(a, b, msg="custom") == "custom"
    assert raises(a, b, msg=lambda m: "X" + m[:10]) == "XTensor-lik"
    with pytest.raises(ValueError, match="Both 'rtol' and 'atol' must be either specified or omitted, but got no atol."):
        assert_close(a, a, rtol=1e-3)
    with pytest.raises(TypeError, match="No comparison pair was able to handle inputs of type"):
        assert_close(torch.tensor([1.0]), [1.0])


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64, torch.int64, torch.uint8,
                                   torch.bool])
def test_make_tensor_ranges_and_options(dtype):
    t = make_tensor(4, 5, dtype=dtype, device="cpu")
    assert t.shape == (4, 5) and t.dtype == dtype and t.is_contiguous()
    if dtype.is_floating_point:
        assert float(t.min()) >= -9 and float(t.max()) < 9
    elif dtype.is_complex:
        parts = np.stack([t.numpy().real, t.numpy().imag])
        assert parts.min() >= -9 and parts.max() < 9 and np.abs(t.numpy().imag).max() > 0
    elif dtype == torch.uint8:
        assert int(t.min()) >= 0 and int(t.max()) <= 9
    elif dtype == torch.int64:
        assert int(t.min()) >= -9 and int(t.max()) <= 9
    nc = make_tensor((3, 4), dtype=dtype, device="cpu", noncontiguous=True)
    assert nc.shape == (3, 4) and not nc.is_contiguous()
    if dtype != torch.bool:
        assert bool((make_tensor(50, dtype=dtype, device="cpu", low=0, high=2, exclude_zero=True) != 0).all())
    with pytest.raises(ValueError, match="mutually exclusive"):
        make_tensor(2, 2, dtype=dtype, device="cpu", noncontiguous=True, memory_format=torch.contiguous_format)


def test_make_tensor_requires_grad_only_for_floating_dtypes():
    assert make_tensor(3, dtype=torch.float32, device="cpu", requires_grad=True).requires_grad
    with pytest.raises(ValueError, match="`requires_grad=True` is not supported for boolean and integral dtypes"):
        make_tensor(3, dtype=torch.int64, device="cpu", requires_grad=True)


def test_layouts_hold_the_same_values_in_different_strides():
    base = torch.tensor(np.arange(24.0).reshape(2, 3, 4))
    found = layouts(base)
    names = [name for name, _ in found]
    assert names[:4] == ["contiguous", "transposed", "permuted", "sliced"]
    strides = set()
    for name, t in found:
        assert_equal(t, base)  # values, dtype and shape
        strides.add(t.stride())
    assert len(strides) == len(found)  # every layout is a different one
    row = torch.tensor([[1.0, 2.0, 3.0]]).expand(4, 3).contiguous()
    assert dict(layouts(row))["expanded"].stride() == (0, 1)


@settings(max_examples=20, deadline=None)
@given(layout_strategy((3, 4)))
def test_layout_strategy_tensors_behave_as_their_contiguous_copies(t):
    assert t.shape == (3, 4) and t.dtype == torch.float64
    np.testing.assert_array_equal((t * 2 + 1).numpy(), t.contiguous().numpy() * 2 + 1)
    np.testing.assert_allclose(t.sum(1).numpy(), t.contiguous().numpy().sum(1), rtol=1e-12)


def test_make_leaf_and_num_threads():
    a, b = make_leaf(2, 3, seed=4), make_leaf(2, 3, seed=4)
    assert a.requires_grad and a.is_leaf and a.dtype == torch.float64
    assert_equal(a, b)
    assert float(make_leaf(100, low=0.5).min()) >= 0.5
    old = torch.get_num_threads()
    with num_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == old
    assert math.isclose(float(a.detach().sum()), float(np.random.default_rng(4).standard_normal((2, 3)).sum()))
