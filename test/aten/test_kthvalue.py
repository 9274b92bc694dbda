# test/aten/test_kthvalue.py - torch.kthvalue on the CPU against numpy: values against
# np.partition, indices against the stable order (np.argsort(kind="stable"): equal values are
# told apart by their index), NaN as the largest value, every dtype, dim and keepdim, 0-d and
# empty inputs, the torch.return_types.kthvalue named tuple, the gradient, and PyTorch's error
# types and texts (checked against PyTorch 2.13).
# Mirrors the kthvalue tests of PyTorch's test/test_sort_and_select.py and test/test_reductions.py.
# The kernel is kthvalue_cpu in aten/src/ATen/native/Sorting.cpp.
# Guide: docs/source/internals/cuda_training.rst (its CUDA twin is cuda/Sorting.cu).
import numpy as np
import pytest

import torch

NP = {torch.float32: np.float32, torch.float64: np.float64, torch.uint8: np.uint8, torch.int8: np.int8,
      torch.int16: np.int16, torch.int32: np.int32, torch.int64: np.int64}
DTYPES = list(NP) + [torch.float16, torch.bfloat16]


def make(shape, dtype, seed=0, high=None):
    """Random values as dtype and as a float64 numpy array holding exactly the same numbers."""
    rng = np.random.default_rng(seed)
    if dtype.is_floating_point:
        a = rng.standard_normal(shape) * 10
        t = torch.from_numpy(a).to(dtype)
    else:
        a = rng.integers(0, high or 100, shape)
        t = torch.from_numpy(a).to(dtype)
    return t, t.double().numpy()


def expected(a, k, dim):
    """numpy's k-th smallest along dim (NaN last, as np.sort puts it) and the stable order's index."""
    a = np.moveaxis(a, dim, -1)
    values = np.partition(a, k - 1, axis=-1)[..., k - 1]
    indices = np.argsort(a, axis=-1, kind="stable")[..., k - 1]
    return values, indices


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape,dim", [((7,), 0), ((5, 9), 1), ((5, 9), 0), ((3, 4, 6), 1), ((3, 4, 6), -1)])
def test_kthvalue_matches_numpy(dtype, shape, dim):
    t, a = make(shape, dtype)
    n = shape[dim]
    for k in sorted({1, (n + 1) // 2, n}):
        values, indices = torch.kthvalue(t, k, dim)
        want_values, want_indices = expected(a, k, dim)
        assert values.dtype == dtype and indices.dtype == torch.int64
        np.testing.assert_array_equal(values.double().numpy(), want_values)
        np.testing.assert_array_equal(indices.numpy(), want_indices)
        assert values.shape == want_values.shape


@pytest.mark.parametrize("dtype", [torch.int64, torch.int8, torch.float32], ids=str)
def test_ties_give_the_stable_orders_index(dtype):
    # Few distinct values: every k lands in a run of equal ones.
    t, a = make((6, 40), dtype, seed=3, high=4)
    if dtype.is_floating_point:
        t = t.round().clamp(-2, 2)
        a = t.double().numpy()
    for k in range(1, 41):
        values, indices = t.kthvalue(k)
        want_values, want_indices = expected(a, k, -1)
        np.testing.assert_array_equal(values.double().numpy(), want_values)
        np.testing.assert_array_equal(indices.numpy(), want_indices)


def test_nan_is_the_largest():
    x = torch.tensor([[3.0, float("nan"), -1.0, float("nan"), 2.0]])
    a = x.numpy()
    for k in range(1, 6):
        values, indices = x.kthvalue(k)
        np.testing.assert_array_equal(values.numpy(), np.sort(a, axis=-1)[:, k - 1])
        np.testing.assert_array_equal(indices.numpy(), np.argsort(a, axis=-1, kind="stable")[:, k - 1])
    assert torch.kthvalue(torch.tensor([1.0, float("nan"), 2.0]), 3).indices.item() == 1
    assert torch.kthvalue(torch.tensor([1.0, float("nan"), 2.0]), 2).values.item() == 2.0
    h = torch.tensor([1.0, float("nan"), 0.5], dtype=torch.float16)
    assert torch.isnan(h.kthvalue(3).values).item() and h.kthvalue(3).indices.item() == 1
    assert h.kthvalue(2).values.item() == 1.0


def test_negative_zero_equals_zero():
    x = torch.tensor([0.0, -0.0, -1.0])
    assert x.kthvalue(2).indices.item() == 0 and x.kthvalue(3).indices.item() == 1


def test_keepdim_and_named_tuple():
    t, a = make((4, 5, 6), torch.float64)
    result = torch.kthvalue(t, 2, 1, keepdim=True)
    assert type(result).__name__ == "kthvalue" and type(result).__module__ == "torch.return_types"
    assert result.values.shape == (4, 1, 6) and result.indices.shape == (4, 1, 6)
    values, indices = expected(a, 2, 1)
    np.testing.assert_array_equal(result.values.squeeze(1).numpy(), values)
    np.testing.assert_array_equal(result[1].squeeze(1).numpy(), indices)
    assert torch.kthvalue(t, 2, 1).values.shape == (4, 6)
    assert t.kthvalue(3, dim=-1, keepdim=False).values.shape == (4, 5)


def test_non_contiguous_input():
    t, _ = make((6, 8), torch.float32)
    tt = t.t()
    assert not tt.is_contiguous()
    got = tt.kthvalue(3, 0)
    want = tt.contiguous().kthvalue(3, 0)
    assert torch.equal(got.values, want.values) and torch.equal(got.indices, want.indices)
    np.testing.assert_array_equal(got.values.numpy(), np.partition(t.numpy(), 2, axis=1)[:, 2])


def test_scalar_and_empty():
    values, indices = torch.kthvalue(torch.tensor(5.0), 1)
    assert values.shape == () and values.item() == 5.0 and indices.item() == 0
    for dim in (0, -1):
        assert torch.kthvalue(torch.tensor(5.0), 1, dim, True).values.shape == ()
    # The reduced dim has elements, another one has none: an empty result.
    values, indices = torch.kthvalue(torch.ones(2, 0), 1, 0)
    assert values.shape == (0,) and indices.shape == (0,) and indices.dtype == torch.int64
    assert torch.kthvalue(torch.ones(0, 3), 2, 1, keepdim=True).values.shape == (0, 1)


# PyTorch 2.13's exception types and messages.
@pytest.mark.parametrize("call,error,message", [
    (lambda: torch.kthvalue(torch.tensor([1.0, 2, 3]), 0), RuntimeError,
     "kthvalue(): selected number k out of range for dimension 0"),
    (lambda: torch.kthvalue(torch.tensor([1.0, 2, 3]), 4), RuntimeError,
     "kthvalue(): selected number k out of range for dimension 0"),
    (lambda: torch.kthvalue(torch.ones(2, 3), 4, 1), RuntimeError,
     "kthvalue(): selected number k out of range for dimension 1"),
    (lambda: torch.kthvalue(torch.ones(2, 3), 4, -1), RuntimeError,
     "kthvalue(): selected number k out of range for dimension 1"),
    (lambda: torch.kthvalue(torch.tensor(5.0), 2), RuntimeError,
     "kthvalue(): selected number k out of range for dimension 0"),
    (lambda: torch.kthvalue(torch.ones(2, 3), 1, 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: torch.kthvalue(torch.tensor(5.0), 1, 1), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got 1)"),
    (lambda: torch.kthvalue(torch.ones(0), 1), IndexError,
     "kthvalue(): Expected reduction dim 0 to have non-zero size."),
    (lambda: torch.kthvalue(torch.ones(2, 0), 1, 1), IndexError,
     "kthvalue(): Expected reduction dim 1 to have non-zero size."),
    (lambda: torch.kthvalue(torch.tensor([True, False]), 1), NotImplementedError,
     "\"kthvalue_cpu\" not implemented for 'Bool'"),
])
def test_errors_match_pytorch(call, error, message):
    with pytest.raises(error) as info:
        call()
    assert str(info.value).splitlines()[0] == message


def test_gradient_goes_to_the_selected_element():
    x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 0.25, 4.0]], requires_grad=True)
    values, indices = torch.kthvalue(x, 2, 1)
    values.sum().backward()
    want = np.zeros((2, 3))
    want[np.arange(2), indices.numpy()] = 1.0
    np.testing.assert_array_equal(x.grad.numpy(), want)
    assert indices.tolist() == [2, 0]


@pytest.mark.parametrize("keepdim", [False, True])
def test_gradcheck(keepdim):
    # Distinct values, so a small step does not change which element is selected.
    x = (torch.randperm(24, generator=torch.Generator().manual_seed(0)).double().view(2, 3, 4) / 4)
    x.requires_grad_(True)
    assert torch.autograd.gradcheck(lambda t: torch.kthvalue(t, 2, 1, keepdim).values, (x,), eps=1e-6, atol=1e-5)
    assert torch.autograd.gradcheck(lambda t: t.kthvalue(4).values, (x,), eps=1e-6, atol=1e-5)
