# test/aten/test_shape_ops.py - reshape, flatten, cat, stack, flip, roll, repeat, tile, tril/triu,
# view(dtype), T/mT/mH and Tensor.type: values, shapes, strides and dtypes against numpy, views
# exactly where PyTorch makes them, non-contiguous inputs, Hypothesis properties, and errors whose
# type and text were taken from real PyTorch 2.13. Mirrors parts of PyTorch's test/test_shape_ops.py
# and test/test_view_ops.py. Guide: docs/source/internals/tensors.rst.
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch


def arange(*shape, dtype=torch.float32):
    n = int(np.prod(shape)) if shape else 1
    return torch.from_numpy(np.arange(n).reshape(shape)).to(dtype)


def shares_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def layouts(t):
    """The same values in other memory layouts: transposed, sliced with a step, expanded."""
    yield "contiguous", t
    if t.dim() >= 2:
        yield "transposed", t.transpose(0, 1).contiguous().transpose(0, 1)
    if t.dim() >= 1:
        big = torch.from_numpy(np.repeat(t.numpy(), 2, axis=-1)).to(t.dtype)
        yield "sliced", big.slice(-1, 0, None, 2)


# ---- reshape: a view exactly when PyTorch makes one ----

@pytest.mark.parametrize("make, shape, is_view", [
    (lambda: arange(2, 3), (6,), True),
    (lambda: arange(2, 3), (3, 2), True),
    (lambda: arange(2, 3).t(), (6,), False),  # the transpose cannot be read flat: a copy
    (lambda: arange(2, 3).t(), (3, 2, 1), True),  # adding a size-1 dimension keeps the strides
    (lambda: arange(4, 6).narrow(1, 0, 3), (12,), False),  # rows with a gap between them
    (lambda: arange(4, 6).narrow(1, 0, 3), (2, 2, 3), True),  # splitting the row dimension is fine
    (lambda: arange(4, 6).slice(0, 0, None, 2), (2, 2, 3), True),
    (lambda: arange(3).expand(2, 3), (6,), False),
    (lambda: arange(3).expand(4, 3), (2, 2, 3), True),  # stride-0 dimension split: still a view
    (lambda: arange(2, 3, 4).permute(1, 0, 2), (3, 8), False),
    (lambda: arange(2, 3, 4).permute(1, 0, 2), (3, 2, 2, 2), True),
])
def test_reshape_is_a_view_exactly_when_pytorch_makes_one(make, shape, is_view):
    t = make()
    r = t.reshape(shape)
    assert r.shape == shape
    assert np.array_equal(r.numpy(), t.numpy().reshape(shape))
    assert shares_storage(r, t) == is_view


def test_reshape_view_writes_reach_the_base():
    t = arange(2, 3)
    t.reshape(6).copy_(torch.zeros(6))
    assert t.tolist() == [[0.0] * 3] * 2
    c = t.t().reshape(6)  # a copy: writing to it leaves t alone
    c.fill_(7.0)
    assert t.tolist() == [[0.0] * 3] * 2


def test_reshape_infers_minus_one_and_keeps_strides_of_view():
    t = arange(2, 3, 4)
    assert t.reshape(-1, 4).shape == (6, 4)
    assert t.reshape(4, -1).stride() == (6, 1)
    assert torch.reshape(t, (24,)).shape == (24,)
    assert t.reshape_as(torch.empty(6, 4)).shape == (6, 4)
    assert t.view_as(torch.empty(4, 6)).shape == (4, 6)
    assert arange(2, 3).t().reshape(3, 2, 1).stride() == (1, 3, 3)


def test_reshape_of_empty_and_scalar():
    assert torch.empty(0, 3).reshape(3, 0).shape == (3, 0)
    assert torch.tensor(5.0).reshape(1, 1).tolist() == [[5.0]]
    assert torch.ones(1).reshape(()).shape == ()


# ---- flatten, ravel ----

@pytest.mark.parametrize("shape, start, end, expected", [
    ((2, 3, 4), 0, -1, (24,)), ((2, 3, 4), 1, 2, (2, 12)), ((2, 3, 4), 0, 1, (6, 4)),
    ((0, 1, 3, 0), 1, 2, (0, 3, 0)), ((), 0, -1, (1,)), ((2, 3), 1, 1, (2, 3)),
])
def test_flatten_shapes(shape, start, end, expected):
    t = torch.zeros(shape)
    assert t.flatten(start, end).shape == expected
    assert torch.flatten(t, start_dim=start, end_dim=end).shape == expected


def test_flatten_views_and_copies_like_reshape():
    t = arange(2, 3, 4)
    assert shares_storage(t.flatten(), t)
    tt = t.transpose(0, 2)
    f = tt.flatten()
    assert not shares_storage(f, tt) and np.array_equal(f.numpy(), tt.numpy().ravel())
    assert t.flatten(1, 1) is t  # nothing to merge: self itself, as in PyTorch
    assert np.array_equal(tt.ravel().numpy(), tt.numpy().ravel())


# ---- cat, stack, hstack, vstack, dstack ----

@pytest.mark.parametrize("dim", [0, 1, -1, -2])
def test_cat_matches_numpy_concatenate(dim):
    a, b = arange(2, 3), arange(2, 3) + 10
    c = torch.cat([a, b], dim)
    assert np.array_equal(c.numpy(), np.concatenate([a.numpy(), b.numpy()], dim))
    assert c.is_contiguous()
    assert torch.cat((a, b), dim=dim).shape == c.shape  # a tuple works too
    assert torch.concat([a, b], dim).shape == c.shape and torch.concatenate([a, b], dim).shape == c.shape


def test_cat_of_non_contiguous_inputs():
    base = arange(4, 6)
    parts = [base.t(), base.slice(1, 0, None, 2).t(), arange(3).expand(4, 3).t()]
    c = torch.cat(parts, 0)
    assert c.shape == (12, 4)
    assert np.array_equal(c.numpy(), np.concatenate([p.numpy() for p in parts], 0))


def test_cat_promotes_types_across_inputs():
    c = torch.cat([torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.float64), torch.ones(1, dtype=torch.bool)])
    assert c.dtype == torch.float64 and c.tolist() == [1.0] * 5
    assert torch.cat([torch.ones(2, dtype=torch.uint8), torch.ones(2, dtype=torch.int8)]).dtype == torch.int16
    # a skipped legacy empty tensor still takes part in the promotion
    assert torch.cat([torch.ones(0), torch.ones(2, 2, dtype=torch.int64)]).dtype == torch.float32


def test_cat_skips_legacy_empty_1d_tensors():
    a = arange(2, 3)
    c = torch.cat([torch.empty(0), a, torch.empty(0)], 1)
    assert c.shape == (2, 3)
    assert torch.cat([torch.empty(0), torch.empty(0)]).shape == (0,)
    # other empty shapes are not skipped: [0, 3] joins along dim 0
    assert torch.cat([torch.empty(0, 3), a]).shape == (2, 3)
    with pytest.raises(RuntimeError, match="Sizes of tensors must match"):
        torch.cat([torch.empty(0, 4), a])


def test_cat_out():
    out = torch.empty(0, dtype=torch.float64)
    r = torch.cat([arange(2), arange(3)], out=out)
    assert r is out and out.tolist() == [0.0, 1.0, 0.0, 1.0, 2.0] and out.dtype == torch.float64


@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
def test_stack_matches_numpy(dim):
    ts = [arange(2, 3), arange(2, 3).t().contiguous().t(), arange(3).expand(2, 3)]
    s = torch.stack(ts, dim)
    assert np.array_equal(s.numpy(), np.stack([t.numpy() for t in ts], dim))


def test_hstack_vstack_dstack_match_numpy():
    for inputs in ([arange(3), arange(2)], [arange(2, 3), arange(2, 1)]):
        assert np.array_equal(torch.hstack(inputs).numpy(), np.hstack([t.numpy() for t in inputs]))
    for inputs in ([arange(3), arange(3)], [arange(2, 3), arange(1, 3)], [torch.tensor(1.0), torch.tensor(2.0)]):
        assert np.array_equal(torch.vstack(inputs).numpy(), np.vstack([t.numpy() for t in inputs]))
    inputs = [arange(2, 3), arange(2, 3)]
    assert np.array_equal(torch.dstack(inputs).numpy(), np.dstack([t.numpy() for t in inputs]))
    assert torch.atleast_3d(arange(3)).shape == (1, 3, 1)


def test_cat_on_meta_tensors_gives_shapes_only():
    c = torch.cat([torch.empty(2, 3, device="meta"), torch.empty(4, 3, device="meta")])
    assert c.is_meta and c.shape == (6, 3)


@pytest.mark.parametrize("tensors", [
    lambda: [torch.ones(2, 3, device="meta"), torch.ones(2, 3)],
    lambda: [torch.ones(2, 3), torch.ones(2, 3, device="meta")],
])
def test_cat_of_tensors_on_two_devices_is_an_error(tensors):
    # Seed 001, explicit devices: never a silent copy. The generated wrapper checks every
    # tensor of the list (PyTorch's codegen device check for Tensor[] arguments).
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.cat(tensors())
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.stack(tensors())


# ---- flip, roll ----

@pytest.mark.parametrize("dims", [(0,), (1,), (0, 1), (-1,), (), (2, 0)])
def test_flip_matches_numpy(dims):
    for name, t in layouts(arange(2, 3, 4)):
        f = t.flip(dims)
        expected = np.flip(t.numpy(), dims) if dims else t.numpy()
        assert np.array_equal(f.numpy(), expected), name
        assert not shares_storage(f, t)


def test_flip_keeps_dtype_and_layout():
    t = arange(2, 3, dtype=torch.int64).t()
    f = torch.flip(t, [0])
    assert f.dtype == torch.int64 and f.stride() == t.stride()  # memory_format=preserve
    assert np.array_equal(torch.fliplr(arange(2, 3)).numpy(), np.fliplr(arange(2, 3).numpy()))
    assert np.array_equal(torch.flipud(arange(2, 3)).numpy(), np.flipud(arange(2, 3).numpy()))
    assert torch.tensor([True, False]).flip(0).tolist() == [False, True]
    assert torch.tensor([1 + 2j, 3j]).flip(0).tolist() == [3j, 1 + 2j]


@pytest.mark.parametrize("shifts, dims", [(1, 0), (-1, 1), (5, 1), ((1, 2), (0, 1)), (2, None), (-7, None), (0, 0)])
def test_roll_matches_numpy(shifts, dims):
    for name, t in layouts(arange(3, 4)):
        r = t.roll(shifts, dims) if dims is not None else torch.roll(t, shifts)
        assert np.array_equal(r.numpy(), np.roll(t.numpy(), shifts, dims)), name
        assert r.shape == t.shape


# ---- repeat, tile ----

@pytest.mark.parametrize("shape, reps", [((3,), (2,)), ((2, 3), (2, 2)), ((2, 3), (2, 1, 3)), ((), (3,)),
                                         ((2,), (0,)), ((2, 3), (1, 1))])
def test_repeat_is_numpy_tile(shape, reps):
    # Tensor.repeat is numpy.tile (numpy.repeat repeats each element instead: torch.repeat_interleave)
    for name, t in layouts(arange(*shape)):
        r = t.repeat(*reps)
        assert np.array_equal(r.numpy(), np.tile(t.numpy(), reps)), name
        assert r.is_contiguous() and not shares_storage(r, t)


def test_tile_prepends_ones_like_numpy():
    t = arange(2, 3)
    assert np.array_equal(t.tile((2,)).numpy(), np.tile(t.numpy(), (2,)))
    assert np.array_equal(torch.tile(t, (2, 1, 2)).numpy(), np.tile(t.numpy(), (2, 1, 2)))
    assert np.array_equal(arange(3).expand(2, 3).tile((2, 2)).numpy(), np.tile(np.tile(np.arange(3.0), (2, 1)), (2, 2)))


def test_unfold_is_a_view_of_windows():
    t = arange(7)
    u = t.unfold(0, 3, 2)
    assert u.shape == (3, 3) and u.stride() == (2, 1) and shares_storage(u, t)
    assert u.tolist() == [[0, 1, 2], [2, 3, 4], [4, 5, 6]]


# ---- tril, triu ----

@pytest.mark.parametrize("k", [0, 1, -1, 3, -5])
def test_tril_triu_match_numpy(k):
    for name, t in layouts(arange(2, 3, 4)):
        assert np.array_equal(t.tril(k).numpy(), np.tril(t.numpy(), k)), name
        assert np.array_equal(torch.triu(t, k).numpy(), np.triu(t.numpy(), k)), name
        assert np.array_equal(torch.tril(t, diagonal=k).numpy(), np.tril(t.numpy(), k)), name


def test_tril_triu_in_place_and_dtypes():
    t = arange(3, 3, dtype=torch.int64)
    assert t.tril_() is t and t.tolist() == [[0, 0, 0], [3, 4, 0], [6, 7, 8]]
    t = arange(3, 3).t()  # in place through non-contiguous strides
    t.triu_(1)
    assert np.array_equal(t.numpy(), np.triu(arange(3, 3).numpy().T, 1))
    assert torch.ones(2, 2, dtype=torch.bool).triu().tolist() == [[True, True], [False, True]]
    assert torch.ones(2, 2, dtype=torch.complex64).tril().tolist() == [[1, 0], [1, 1]]
    assert torch.empty(0, 3).tril().shape == (0, 3)


# ---- view(dtype), T, mT, mH, Tensor.type ----

def test_view_dtype_reinterprets_the_bytes():
    t = torch.ones(2, 3)
    v = t.view(torch.int32)
    assert v.dtype == torch.int32 and shares_storage(v, t)
    assert np.array_equal(v.numpy(), t.numpy().view(np.int32))
    s = t.view(torch.int16)
    assert s.shape == (2, 6) and s.stride() == (6, 1)
    assert np.array_equal(s.numpy(), t.numpy().view(np.int16))
    d = torch.ones(2, 4).view(torch.float64)
    assert d.shape == (2, 2) and np.array_equal(d.numpy(), np.ones((2, 4), np.float32).view(np.float64))
    assert t.view(torch.float32) is not t and shares_storage(t.view(torch.float32), t)


def test_T_mT_mH_are_views():
    t = arange(2, 3, 4)
    assert t.T.shape == (4, 3, 2) and shares_storage(t.T, t)
    assert np.array_equal(t.T.numpy(), t.numpy().T)
    assert t.mT.shape == (2, 4, 3) and t.mT.stride() == (12, 1, 4)
    assert np.array_equal(t.mH.numpy(), np.swapaxes(t.numpy(), -1, -2))
    m = arange(2, 3)
    assert m.T.shape == (3, 2) and m.H.shape == (3, 2) and m.adjoint().shape == (3, 2)
    assert torch.tensor(1.0).T.shape == ()


def test_tensor_type_names_and_converts():
    t = torch.ones(2)
    assert t.type() == "torch.FloatTensor"
    assert torch.ones(2, dtype=torch.int64).type() == "torch.LongTensor"
    assert t.type(torch.float32) is t and t.type("torch.FloatTensor") is t
    d = t.type(torch.float64)
    assert d.dtype == torch.float64 and d.type() == "torch.DoubleTensor"
    assert t.type("torch.IntTensor").dtype == torch.int32


def test_expand_as_and_contiguous_exist():
    t = arange(3)
    e = t.expand_as(torch.empty(2, 3))
    assert e.stride() == (0, 1)
    c = arange(2, 3).t().contiguous()
    assert c.is_contiguous() and np.array_equal(c.numpy(), arange(2, 3).numpy().T)


# ---- errors: type and text as real PyTorch 2.13 gives them ----

ERRORS = {
    "cat_empty": (lambda: torch.cat([]), ValueError, "torch.cat(): expected a non-empty list of Tensors"),
    "cat_size": (lambda: torch.cat([torch.ones(2, 3), torch.ones(2, 4)]), RuntimeError,
                 "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 1 in the list."),
    "cat_size_dim1": (lambda: torch.cat([torch.ones(2, 3), torch.ones(3, 3)], 1), RuntimeError,
                      "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for tensor number 1 in the list."),
    "cat_ndim": (lambda: torch.cat([torch.ones(2, 3), torch.ones(3)]), RuntimeError,
                 "Tensors must have same number of dimensions: got 2 and 1"),
    "cat_zero_dim": (lambda: torch.cat([torch.ones(2), torch.tensor(1.0)]), RuntimeError,
                     "zero-dimensional tensor (at position 1) cannot be concatenated"),
    "cat_dim_range": (lambda: torch.cat([torch.ones(2, 3)], dim=2), IndexError,
                      "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    "cat_out_cast": (lambda: torch.cat([torch.ones(2), torch.ones(2)], out=torch.empty(0, dtype=torch.int32)), TypeError,
                     "torch.cat(): input types can't be cast to the desired output type Int"),
    "cat_legacy_then_mismatch": (lambda: torch.cat([torch.ones(0), torch.ones(2, 3), torch.ones(2, 4)]), RuntimeError,
                                 "Sizes of tensors must match except in dimension 0. Expected size 3 but got size 4 for tensor number 2 in the list."),
    "stack_empty": (lambda: torch.stack([]), RuntimeError, "stack expects a non-empty TensorList"),
    "stack_size": (lambda: torch.stack([torch.ones(2), torch.ones(3)]), RuntimeError,
                   "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1"),
    "stack_dim": (lambda: torch.stack([torch.ones(2)], dim=3), IndexError,
                  "Dimension out of range (expected to be in range of [-2, 1], but got 3)"),
    "hstack_empty": (lambda: torch.hstack([]), RuntimeError, "hstack expects a non-empty TensorList"),
    "vstack_empty": (lambda: torch.vstack([]), RuntimeError, "vstack expects a non-empty TensorList"),
    "reshape_invalid": (lambda: torch.ones(2, 3).reshape(4), RuntimeError, "shape '[4]' is invalid for input of size 6"),
    "reshape_two_infer": (lambda: torch.ones(2, 3).reshape(-1, -1), RuntimeError, "only one dimension can be inferred"),
    "reshape_t_invalid": (lambda: torch.ones(2, 3).t().reshape(4), RuntimeError, "shape '[4]' is invalid for input of size 6"),
    "reshape_neg": (lambda: torch.ones(2, 3).reshape(-2, 3), RuntimeError,
                    "invalid shape dimension -2 at index 0 of shape [-2, 3]"),
    "reshape_zero_infer": (lambda: torch.ones(0, 3).reshape(-1, 0), RuntimeError,
                           "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension size -1 can be any value and is ambiguous"),
    "flatten_order": (lambda: torch.ones(2, 3).flatten(1, 0), RuntimeError,
                      "flatten() has invalid args: start_dim cannot come after end_dim"),
    "flatten_range": (lambda: torch.ones(2, 3).flatten(0, 2), IndexError,
                      "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    "flip_repeat": (lambda: torch.ones(2, 3).flip(0, 0), RuntimeError, "dim 0 appears multiple times in the list of dims"),
    "flip_range": (lambda: torch.ones(2, 3).flip(2), IndexError,
                   "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    "roll_align": (lambda: torch.ones(3).roll([1, 2], [0]), RuntimeError, "shifts and dimensions must align. shifts: 2, dims:1"),
    "roll_required": (lambda: torch.ones(3).roll([]), RuntimeError, "`shifts` required"),
    "roll_range": (lambda: torch.ones(2, 3).roll(1, 5), IndexError,
                   "Dimension out of range (expected to be in range of [-2, 1], but got 5)"),
    "repeat_few": (lambda: torch.ones(2, 3).repeat(2), RuntimeError,
                   "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"),
    "repeat_neg": (lambda: torch.ones(3).repeat(-1), RuntimeError, "Trying to create tensor with negative dimension -3: [-3]"),
    "tile_neg": (lambda: torch.ones(2, 3).tile((-1,)), RuntimeError,
                 "Trying to create tensor with negative dimension -3: [2, -3]"),
    "tril_1d": (lambda: torch.ones(3).tril(), RuntimeError, "tril: input tensor must have at least 2 dimensions"),
    "triu_1d": (lambda: torch.ones(3).triu(), RuntimeError, "triu: input tensor must have at least 2 dimensions"),
    "triu__1d": (lambda: torch.ones(3).triu_(), RuntimeError, "triu: input tensor must have at least 2 dimensions"),
    "mT_1d": (lambda: torch.ones(3).mT, RuntimeError,
              "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."),
    "mH_1d": (lambda: torch.ones(3).mH, RuntimeError,
              "tensor.mH is only supported on matrices or batches of matrices. Got 1-D tensor."),
    "view_dtype_stride": (lambda: torch.ones(2, 3).t().view(torch.int16), RuntimeError,
                          "self.stride(-1) must be 1 to view Float as Short (different element sizes), but got 3"),
    "view_dtype_div": (lambda: torch.ones(3).view(torch.int64), RuntimeError,
                       "self.size(-1) must be divisible by 2 to view Float as Long (different element sizes), but got 3"),
    "view_dtype_0d": (lambda: torch.tensor(1.0).view(torch.int16), RuntimeError,
                      "self.dim() cannot be 0 to view Float as Short (different element sizes)"),
    "view_dtype_offset": (lambda: torch.ones(5).narrow(0, 1, 2).view(torch.int64), RuntimeError,
                          "self.storage_offset() must be divisible by 2 to view Float as Long (different element sizes), but got 1"),
    "type_invalid": (lambda: torch.ones(2).type("foo"), ValueError, "invalid type: 'foo'"),
    "type_bad_arg": (lambda: torch.ones(2).type(3), TypeError, "dtype must be a type, str, or dtype object"),
    "unfold_size": (lambda: torch.ones(3).unfold(0, 4, 1), RuntimeError,
                    "maximum size for tensor at dimension 0 is 3 but size is 4"),
    "unfold_step": (lambda: torch.ones(3).unfold(0, 2, 0), RuntimeError, "step is 0 but must be > 0"),
    "fliplr_1d": (lambda: torch.ones(3).fliplr(), RuntimeError, "Input must be >= 2-d."),
    "flipud_0d": (lambda: torch.tensor(1.0).flipud(), RuntimeError, "Input must be >= 1-d."),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_pytorch(name):
    fn, exc_type, text = ERRORS[name]
    with pytest.raises(exc_type) as info:
        fn()
    assert type(info.value) is exc_type
    assert str(info.value).splitlines()[0] == text


# ---- property tests over random shapes and layouts ----

@st.composite
def tensors(draw, min_dims=1, max_dims=4):
    """A tensor of random shape in a random layout: contiguous, permuted, sliced with a step, or expanded."""
    shape = draw(st.lists(st.integers(1, 4), min_size=min_dims, max_size=max_dims))
    a = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    t = torch.from_numpy(a.copy())
    kind = draw(st.sampled_from(["contiguous", "permuted", "sliced", "expanded"]))
    if kind == "permuted":
        perm = draw(st.permutations(range(len(shape))))
        t = torch.from_numpy(np.ascontiguousarray(a.transpose(np.argsort(perm)))).permute(*perm)
    elif kind == "sliced":
        t = torch.from_numpy(np.repeat(a, 2, axis=0).copy()).slice(0, 0, None, 2)
    elif kind == "expanded":
        d = draw(st.integers(0, len(shape) - 1))
        t = t.narrow(d, 0, 1).expand(*shape)
    return t


@settings(max_examples=60, deadline=None)
@given(t=tensors(), data=st.data())
def test_reshape_property(t, data):
    n = t.numel()
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    first = data.draw(st.sampled_from(divisors))
    shape = (first, -1)
    r = t.reshape(shape)
    assert np.array_equal(r.numpy(), t.numpy().reshape(shape))
    # a view exactly when one is possible: then the result reads the base's storage
    try:
        t.view(shape)
        viewable = True
    except RuntimeError:
        viewable = False
    assert shares_storage(r, t) == viewable


@settings(max_examples=60, deadline=None)
@given(t=tensors(), data=st.data())
def test_flip_roll_property(t, data):
    nd = t.dim()
    dims = data.draw(st.lists(st.integers(-nd, nd - 1), unique_by=lambda d: d % nd, max_size=nd))
    assert np.array_equal(t.flip(dims).numpy(), np.flip(t.numpy(), dims) if dims else t.numpy())
    shift = data.draw(st.integers(-10, 10))
    dim = data.draw(st.integers(-nd, nd - 1))
    assert np.array_equal(t.roll(shift, dim).numpy(), np.roll(t.numpy(), shift, dim))
    assert np.array_equal(t.roll(shift).numpy(), np.roll(t.numpy(), shift))


@settings(max_examples=60, deadline=None)
@given(t=tensors(min_dims=2), u=st.data())
def test_cat_stack_property(t, u):
    dim = u.draw(st.integers(-t.dim(), t.dim() - 1))
    other = t.flip([0])
    assert np.array_equal(torch.cat([t, other, t], dim).numpy(), np.concatenate([t.numpy(), other.numpy(), t.numpy()], dim))
    sdim = u.draw(st.integers(-t.dim() - 1, t.dim()))
    assert np.array_equal(torch.stack([t, other], sdim).numpy(), np.stack([t.numpy(), other.numpy()], sdim))


@settings(max_examples=60, deadline=None)
@given(t=tensors(min_dims=2), k=st.integers(-4, 4), reps=st.lists(st.integers(0, 3), min_size=1, max_size=5))
def test_tril_triu_repeat_tile_property(t, k, reps):
    assert np.array_equal(t.tril(k).numpy(), np.tril(t.numpy(), k))
    assert np.array_equal(t.triu(k).numpy(), np.triu(t.numpy(), k))
    assert np.array_equal(t.tile(tuple(reps)).numpy(), np.tile(t.numpy(), reps))
    if len(reps) >= t.dim():
        assert np.array_equal(t.repeat(*reps).numpy(), np.tile(t.numpy(), reps))


# ---- cat's serial path: contiguous inputs of the result's dtype, one memcpy per block ----

@pytest.mark.parametrize("dim", [0, 1, 2, -1])
@pytest.mark.parametrize("dtype", [torch.float32, torch.bool, torch.complex128, torch.int16])
def test_cat_of_contiguous_blocks_matches_numpy(dim, dtype):
    rng = np.random.default_rng(3)
    shapes = [[2, 3, 4], [2, 3, 4], [2, 3, 4]]
    for i, n in enumerate((1, 5, 2)):
        shapes[i][dim] = n
    arrays = [(rng.standard_normal(s) * 3).astype(torch.empty(0, dtype=dtype).numpy().dtype) for s in shapes]
    got = torch.cat([torch.from_numpy(a) for a in arrays] + [torch.empty(0, dtype=dtype)], dim)
    np.testing.assert_array_equal(got.numpy(), np.concatenate(arrays, dim))
    stacked = torch.stack([torch.from_numpy(arrays[1])] * 3, dim)
    np.testing.assert_array_equal(stacked.numpy(), np.stack([arrays[1]] * 3, dim))


def test_cat_mixing_layouts_and_dtypes_still_promotes():
    a = torch.arange(6, dtype=torch.int32).view(2, 3)
    b = torch.arange(6, dtype=torch.float64).view(3, 2).t()  # not contiguous, another dtype
    got = torch.cat([a, b], 0)
    assert got.dtype == torch.float64
    np.testing.assert_array_equal(got.numpy(), np.concatenate([a.numpy(), b.numpy()], 0))
    out = torch.empty(4, 3, dtype=torch.int64)
    torch.cat([a, a], 0, out=out)  # inputs of another dtype than out: converted
    np.testing.assert_array_equal(out.numpy(), np.concatenate([a.numpy()] * 2, 0))
