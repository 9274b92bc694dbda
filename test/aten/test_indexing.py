# test/aten/test_indexing.py - t[...] and t[...] = v, and the indexing operators (index,
# index_put_, index_select, gather, scatter, index_add_, index_fill_, masked_select,
# masked_scatter_, take, nonzero), against numpy's indexing and PyTorch's error texts.
# Mirrors PyTorch's test/test_indexing.py. Guide: docs/source/internals/tensors.rst
# (torch/csrc/autograd/python_variable_indexing.cpp, aten/src/ATen/TensorIndexing.cpp,
# aten/src/ATen/native/TensorAdvancedIndexing.cpp).
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch


def arange(*shape, dtype=np.float32):
    return torch.from_numpy(np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape))


def layouts(shape):
    """The same values as a contiguous, a transposed, and a sliced (strided) tensor."""
    base = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    yield "contiguous", torch.from_numpy(base.copy()), base
    if len(shape) >= 2:
        rev = tuple(reversed(range(len(shape))))
        t = torch.from_numpy(base.transpose(rev).copy()).permute(rev)  # a permuted view with base's values
        assert not t.is_contiguous() or min(shape) == 1
        yield "transposed", t, base
    big = np.zeros([s * 2 for s in shape], dtype=np.float32)
    big[tuple(slice(None, None, 2) for _ in shape)] = base
    yield "strided", torch.from_numpy(big)[tuple(slice(None, None, 2) for _ in shape)], base


def shares_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def as_numpy_index(index):
    if isinstance(index, tuple):
        return tuple(as_numpy_index(i) for i in index)
    if isinstance(index, torch.Tensor):
        return index.numpy()
    return index


def torch_reference(base, index):
    """base[index] with PyTorch's rule for integers: an int is a select (a basic index, applied
    first), where numpy counts it as an advanced index when index arrays are present - so
    t[0, :, [1, 2]] has shape [3, 2] in PyTorch and (2, 3) in numpy. Computed with numpy in
    PyTorch's two steps (basic indices, then the index arrays at the dimensions left)."""
    index = index if isinstance(index, tuple) else (index,)
    index = tuple(as_numpy_index(i) for i in index)
    adv = [isinstance(i, (list, np.ndarray)) and np.asarray(i).ndim > 0 for i in index]
    has_int = any(isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in index)
    if not (any(adv) and has_int):
        return base[index]
    specified = sum(np.asarray(i).ndim if a and np.asarray(i).dtype == bool else 1
                    for i, a in zip(index, adv) if a or isinstance(i, (int, slice)))
    step1, placed, dim = [], [], 0
    for i, a in zip(index, adv):
        if a:
            arr = np.asarray(i)
            k = arr.ndim if arr.dtype == bool else 1
            step1.extend([slice(None)] * k)
            placed.append((dim, arr, k))
            dim += k
        elif i is Ellipsis:
            n = base.ndim - specified
            step1.extend([slice(None)] * n)
            dim += n
        elif isinstance(i, (int, np.integer)):
            step1.append(i)
        else:
            step1.append(i)
            dim += 1
    r = base[tuple(step1)]
    step2, d = [], 0
    for pos, arr, k in placed:
        step2.extend([slice(None)] * (pos - d))
        step2.append(arr)
        d = pos + k
    return r[tuple(step2)]


def check_getitem(t, base, index):
    got = t[index]
    want = torch_reference(base, index)
    assert tuple(got.shape) == want.shape, (index, got.shape, want.shape)
    np.testing.assert_array_equal(got.numpy(), want)
    return got


# ---- basic indexing: views ---------------------------------------------------------------

BASIC = [
    0, -1, (1, 2), (0, -1), slice(None), slice(1, None), slice(None, None, 2), slice(-3, -1),
    slice(10, 20), (slice(None), 1), (Ellipsis, 0), (0, Ellipsis), None, (None, 0, None),
    (Ellipsis, None), (slice(None), None, slice(1, 3)), Ellipsis, (0, 1, Ellipsis), (1, slice(None, None, 3)),
]


@pytest.mark.parametrize("index", BASIC, ids=repr)
def test_basic_index_matches_numpy_and_is_a_view(index):
    for _, t, base in layouts((3, 4)):
        got = check_getitem(t, base, index)
        assert shares_storage(got, t)
        assert got is not t


def test_integer_index_is_a_view_of_the_row():
    t = arange(2, 3)
    row = t[0]
    assert row.storage_offset() == 0 and row.stride() == (1,)
    row.fill_(7)
    assert t.tolist() == [[7, 7, 7], [3, 4, 5]]
    assert t[1].storage_offset() == 3


def test_zero_dim_integer_tensor_indexes_like_an_int():
    t = arange(2, 3)
    r = t[torch.tensor(1)]
    assert shares_storage(r, t) and r.tolist() == [3, 4, 5]


def test_ellipsis_and_full_slice_give_new_objects_sharing_storage():
    t = arange(2, 3)
    for r in (t[...], t[:], t[:, :]):
        assert r is not t and shares_storage(r, t) and r.shape == t.shape


@pytest.mark.parametrize("index", [True, False, (0, True), (True, 0, False), (Ellipsis, True)], ids=repr)
def test_bool_index_adds_a_dimension(index):
    t = arange(2, 3)
    check_getitem(t, t.numpy(), index)


def test_zero_dim_tensor_indexing():
    t = torch.tensor(3.0)
    assert t[None].shape == (1,)
    assert t[...].shape == ()
    assert t[True].shape == (1,)
    assert t[False].shape == (0,)
    assert t[torch.tensor(True)].shape == (1,)


# ---- advanced indexing: copies -------------------------------------------------------------------

ADVANCED = [
    [1, 0, 1],
    [[0, 1], [1, 0]],
    ([0, 1], [1, 2]),
    (slice(None), [2, 0, 0]),
    ([0, 1], slice(None), [1, 2]),          # separated: the index dimension goes first
    (slice(None), [0, 1], [1, 2]),          # adjacent: it stays in place
    ([0], Ellipsis, [1]),
    (None, [0], slice(None), [1]),
    ([0], None, [1]),
    (0, None, [1]),
    (0, slice(None), [1, 2]),
    (1, [0, 1], slice(1, 3)),
    ([[0]], [[1, 2]]),
    ([-1, -2],),
    ([],),
]


@pytest.mark.parametrize("index", ADVANCED, ids=repr)
def test_advanced_index_matches_numpy_and_copies(index):
    for _, t, base in layouts((2, 3, 4)):
        idx = tuple(torch.tensor(i, dtype=torch.int64) if isinstance(i, list) else i for i in index) \
            if isinstance(index, tuple) else torch.tensor(index, dtype=torch.int64)
        got = check_getitem(t, base, idx)
        assert not shares_storage(got, t)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32])
def test_index_tensor_dtypes(dtype):
    t = arange(3, 4)
    got = t[torch.tensor([2, 0], dtype=dtype)]
    np.testing.assert_array_equal(got.numpy(), t.numpy()[[2, 0]])


def test_list_of_ints_is_an_index_tensor():
    t = arange(3, 4)
    np.testing.assert_array_equal(t[[2, 0, 2]].numpy(), t.numpy()[[2, 0, 2]])
    np.testing.assert_array_equal(t[[True, False, True]].numpy(), t.numpy()[[True, False, True]])
    np.testing.assert_array_equal(t[[0, 1.5]].numpy(), t.numpy()[[0, 1]])  # PyTorch truncates to long


@pytest.mark.parametrize("mask_shape", [(2,), (2, 3), (2, 3, 4)])
def test_bool_mask_matches_numpy(mask_shape):
    rng = np.random.default_rng(0)
    for _, t, base in layouts((2, 3, 4)):
        mask = rng.random(mask_shape) > 0.5
        check_getitem(t, base, torch.from_numpy(mask))
        check_getitem(t, base, (torch.from_numpy(mask), Ellipsis))


def test_mask_then_integer_covers_the_mask_dimensions():
    y = arange(2, 3, 4, dtype=np.int64)
    m = torch.tensor([[True, False, True], [False, True, True]])
    assert y[m, 0].tolist() == [0, 8, 16, 20]
    assert y[:, m[0]].shape == (2, 2, 4)


def test_uint8_mask():
    t = arange(3)
    assert t[torch.tensor([1, 0, 1], dtype=torch.uint8)].tolist() == [0.0, 2.0]


def test_advanced_result_dtypes_follow_self():
    for dtype in (torch.float64, torch.int32, torch.bool, torch.int8):
        t = torch.zeros(3, 2, dtype=dtype)
        assert t[torch.tensor([0, 2])].dtype == dtype
        assert t[torch.tensor([True, False, True])].dtype == dtype


# ---- setitem ------------------------------------------------------------------------------

SET_INDICES = [0, -1, (1, 2), slice(None, None, 2), (slice(None), 1), Ellipsis, None, (Ellipsis, None),
               [0, 2], ([0, 2], [1, 3]), (slice(None), [3, 0]), ([0, 1], slice(None), [1, 2])]


@pytest.mark.parametrize("index", SET_INDICES, ids=repr)
def test_setitem_scalar_matches_numpy(index):
    for _, t, base in layouts((3, 4)) if not (isinstance(index, tuple) and len(index) == 3) else layouts((2, 3, 4)):
        base = base.copy()
        tidx = tuple(torch.tensor(i) if isinstance(i, list) else i for i in index) \
            if isinstance(index, tuple) else (torch.tensor(index) if isinstance(index, list) else index)
        t[tidx] = 7
        base[as_numpy_index(tidx)] = 7
        np.testing.assert_array_equal(t.numpy(), base)


@pytest.mark.parametrize("index", SET_INDICES, ids=repr)
def test_setitem_broadcast_tensor_matches_numpy(index):
    shape = (2, 3, 4) if isinstance(index, tuple) and len(index) == 3 else (3, 4)
    for _, t, base in layouts(shape):
        base = base.copy()
        tidx = tuple(torch.tensor(i) if isinstance(i, list) else i for i in index) \
            if isinstance(index, tuple) else (torch.tensor(index) if isinstance(index, list) else index)
        target_shape = base[as_numpy_index(tidx)].shape
        value = np.arange(target_shape[-1] if target_shape else 1, dtype=np.float32) + 100
        if not target_shape:
            value = value.reshape(())
        t[tidx] = torch.from_numpy(value)
        base[as_numpy_index(tidx)] = value
        np.testing.assert_array_equal(t.numpy(), base)


def test_setitem_with_mask_and_leading_ones_in_value():
    t = arange(2, 3)
    t[t > 2] = 0
    assert t.tolist() == [[0, 1, 2], [0, 0, 0]]
    t[0] = torch.ones(1, 3)  # leading 1s are dropped
    assert t[0].tolist() == [1, 1, 1]
    t[:, [True, False, True]] = torch.tensor([5.0, 6.0])
    assert t.tolist() == [[5, 1, 6], [5, 0, 6]]


def test_setitem_writes_through_to_the_base_and_bumps_the_version():
    t = torch.zeros(2, 3)
    view = t[1]
    for index, value in [(0, 1.0), (torch.tensor([0]), 1.0), (torch.tensor([0]), torch.ones(3)),
                         (0, torch.ones(3)), ((slice(None), [True, False, True]), torch.ones(2))]:
        v0 = t._version
        t[index] = value
        assert t._version == v0 + 1
        assert view._version == t._version  # views share the counter
    view[0] = 9
    assert t[1, 0].item() == 9


def test_setitem_casts_numbers_to_the_tensor_dtype():
    t = torch.zeros(3, dtype=torch.int64)
    t[0] = 2.7
    t[1] = True
    assert t.tolist() == [2, 1, 0]


# ---- errors (texts and types as in PyTorch 2.x) ----------------------------------------------------

def raises(exc, msg, fn):
    with pytest.raises(exc) as info:
        fn()
    assert str(info.value) == msg, str(info.value)


INVALID = "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})"


def test_index_errors():
    x = arange(2, 3)
    raises(IndexError, "index 5 is out of bounds for dimension 0 with size 2", lambda: x[5])
    raises(IndexError, "index 5 is out of bounds for dimension 1 with size 3", lambda: x[0, 5])
    raises(IndexError, "index -3 is out of bounds for dimension 0 with size 2", lambda: x[-3])
    raises(IndexError, "too many indices for tensor of dimension 2", lambda: x[0, 0, 0])
    raises(IndexError, "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] "
           "at index 0", lambda: x[torch.tensor([True, False, True])])
    raises(IndexError, INVALID.format("float"), lambda: x[1.0])
    raises(IndexError, INVALID.format("float"), lambda: x[(0, 1.5)])
    raises(ValueError, "step must be greater than zero", lambda: x[::-1])
    raises(ValueError, "slice step cannot be zero", lambda: x[::0])
    raises(TypeError, "slice indices must be integers or None or have an __index__ method", lambda: x[1.5:])
    raises(IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
           "to convert a 0-dim tensor to a number", lambda: torch.tensor(3.0)[0])
    raises(IndexError, "too many indices for tensor of dimension 0", lambda: torch.tensor(3.0)[0, ])
    raises(IndexError, "index 5 is out of bounds for dimension 0 with size 2", lambda: x[torch.tensor([5])])
    raises(IndexError, "index 5 is out of bounds for dimension 0 with size 3", lambda: x[:, torch.tensor([5])])
    raises(IndexError, "index 5 is out of bounds for dimension 1 with size 3",
           lambda: x[torch.tensor([0]), torch.tensor([5])])
    raises(IndexError, "tensors used as indices must be long, int, byte or bool tensors",
           lambda: x[torch.tensor([0.5])])
    raises(IndexError, "tensors used as indices must be long, int, byte or bool tensors",
           lambda: x[torch.tensor([0, 1], dtype=torch.int16)])
    raises(IndexError, "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]",
           lambda: x[[0, 1], [0, 1, 2]])
    raises(IndexError, "index is out of bounds for dimension with size 0", lambda: torch.zeros(0, 3)[torch.tensor([0])])
    raises(IndexError, "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3] "
           "at index 0", lambda: x[[[True, False, True], [True, True, True]]])


def test_setitem_errors():
    x = arange(2, 3)
    raises(RuntimeError, "The expanded size of the tensor (3) must match the existing size (2) at non-singleton "
           "dimension 0.  Target sizes: [3].  Tensor sizes: [2]", lambda: x.__setitem__(0, torch.ones(2)))
    raises(TypeError, "can't assign a str to a torch.FloatTensor", lambda: x.__setitem__(0, "a"))
    raises(TypeError, "can't assign a NoneType to a torch.FloatTensor", lambda: x.__setitem__(0, None))
    raises(RuntimeError, "shape mismatch: value tensor of shape [2, 3] cannot be broadcast to indexing result of "
           "shape [1, 3]", lambda: x.__setitem__(torch.tensor([0]), torch.ones(2, 3)))
    raises(RuntimeError, "Index put requires the source and destination dtypes match, got Float for the destination "
           "and Double for the source.", lambda: x.__setitem__(torch.tensor([0]), torch.ones(3, dtype=torch.float64)))
    raises(IndexError, "index 5 is out of bounds for dimension 0 with size 2", lambda: x.__setitem__(5, 1))
    raises(TypeError, "Tensor does not support deleting items", lambda: x.__delitem__(0))
    raises(IndexError, "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ "
           "to convert a 0-dim tensor to a number", lambda: torch.tensor(3.0).__setitem__(0, 1))


# ---- the operators ----------------------------------------------------------------------------

def test_index_and_index_put_functions():
    x = arange(3, 4)
    idx = torch.tensor([2, 0])
    np.testing.assert_array_equal(torch.index_put(x, (idx,), torch.tensor(1.0)).numpy()[[2, 0]], np.ones((2, 4)))
    y = torch.zeros(5)
    r = y.index_put_((torch.tensor([0, 0, 3]),), torch.tensor([1.0, 2.0, 5.0]), accumulate=True)
    assert r is y and y.tolist() == [3, 0, 0, 5, 0]
    raises(IndexError, "too many indices for tensor of dimension 2 (got 3)",
           lambda: x.index_put_((idx, idx, idx), torch.ones(2)))


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_index_select_matches_numpy(dim):
    for _, t, base in layouts((3, 4)):
        idx = np.array([2, 0, 2])
        np.testing.assert_array_equal(t.index_select(dim, torch.from_numpy(idx)).numpy(), np.take(base, idx, axis=dim))
        np.testing.assert_array_equal(torch.index_select(t, dim, torch.from_numpy(idx).to(torch.int32)).numpy(),
                                      np.take(base, idx, axis=dim))


def test_index_select_errors():
    x = arange(2, 3)
    raises(IndexError, "index out of range in self", lambda: x.index_select(0, torch.tensor([2])))
    raises(RuntimeError, "index_select(): Expected dtype int32 or int64 for index",
           lambda: x.index_select(1, torch.tensor([0.0])))
    raises(IndexError, "index_select(): Index is supposed to be a vector", lambda: x.index_select(1, torch.tensor([[0]])))
    raises(IndexError, "Dimension out of range (expected to be in range of [-2, 1], but got 2)",
           lambda: x.index_select(2, torch.tensor([0])))
    assert torch.tensor(5.0).index_select(0, torch.tensor([0])).tolist() == 5.0  # 0-d stays 0-d


@pytest.mark.parametrize("dim", [0, 1])
def test_gather_matches_numpy(dim):
    rng = np.random.default_rng(1)
    for _, t, base in layouts((3, 4)):
        idx = rng.integers(0, base.shape[dim], size=(2, 3))
        np.testing.assert_array_equal(t.gather(dim, torch.from_numpy(idx)).numpy(), _gather_ref(base, dim, idx))


def _gather_ref(base, dim, idx):
    out = np.empty(idx.shape, dtype=base.dtype)
    for i in range(idx.shape[0]):
        for j in range(idx.shape[1]):
            out[i, j] = base[idx[i, j], j] if dim == 0 else base[i, idx[i, j]]
    return out


def test_gather_errors():
    x = arange(2, 3)
    raises(RuntimeError, "index 5 is out of bounds for dimension 1 with size 3", lambda: x.gather(1, torch.tensor([[5]])))
    raises(RuntimeError, "index -1 is out of bounds for dimension 1 with size 3", lambda: x.gather(1, torch.tensor([[-1]])))
    raises(RuntimeError, "gather(): Expected dtype int32/int64 for index", lambda: x.gather(1, torch.tensor([[0.0]])))
    raises(RuntimeError, "Index tensor must have the same number of dimensions as input tensor",
           lambda: x.gather(1, torch.tensor([0])))
    raises(RuntimeError, "Size does not match at dimension 1 expected index [1, 4] to be no larger than self [2, 3] "
           "apart from dimension 0", lambda: x.gather(0, torch.tensor([[0, 0, 0, 0]])))
    assert x.gather(1, torch.tensor([[0, 0, 2, 2]])).tolist() == [[0, 0, 2, 2]]


def test_scatter_family():
    idx = torch.tensor([[0, 1, 2, 0]])
    src = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
    assert torch.zeros(3, 4).scatter(0, idx, src).tolist() == [[1, 0, 0, 4], [0, 2, 0, 0], [0, 0, 3, 0]]
    assert torch.zeros(3, 4).scatter(0, idx, 9.0).tolist() == [[9, 0, 0, 9], [0, 9, 0, 0], [0, 0, 9, 0]]
    t = torch.ones(3)
    assert t.scatter_add_(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0])) is t
    assert t.tolist() == [4, 1, 4]
    assert torch.ones(3).scatter_(0, torch.tensor([1, 1]), torch.tensor([2.0, 3.0]), reduce="multiply").tolist() == \
        [1, 6, 1]
    assert torch.ones(3).scatter_(0, torch.tensor([1, 1]), 2.0, reduce="add").tolist() == [1, 5, 1]
    assert torch.zeros(3).scatter_add(0, torch.tensor([2]), torch.ones(1)).tolist() == [0, 0, 1]


def test_scatter_errors():
    raises(RuntimeError, "index 3 is out of bounds for dimension 0 with size 3",
           lambda: torch.zeros(3).scatter_(0, torch.tensor([3]), 1.0))
    raises(RuntimeError, "index -1 is out of bounds for dimension 0 with size 3",
           lambda: torch.zeros(3).scatter(0, torch.tensor([-1]), 1.0))
    raises(RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype",
           lambda: torch.zeros(3).scatter_(0, torch.tensor([1]), torch.ones(1, dtype=torch.float64)))
    raises(RuntimeError, "Expected index [1, 4] to be no larger than self [2, 3] apart from dimension 0",
           lambda: torch.zeros(2, 3).scatter_(0, torch.tensor([[0, 0, 0, 0]]), 1.0))
    raises(RuntimeError, "Expected index [1, 3] to be no larger than self [2, 3] apart from dimension 0 and to be no "
           "larger size than src [1, 2]", lambda: torch.zeros(2, 3).scatter_(0, torch.tensor([[0, 1, 0]]), torch.ones(1, 2)))
    raises(RuntimeError, "reduce argument must be either add or multiply.",
           lambda: torch.zeros(3).scatter_(0, torch.tensor([1]), 1.0, reduce="foo"))


def test_index_add_and_index_fill():
    t = torch.zeros(3, 2)
    t.index_add_(0, torch.tensor([0, 2, 0]), torch.ones(3, 2), alpha=2)
    assert t.tolist() == [[4, 4], [0, 0], [2, 2]]
    assert torch.index_add(torch.zeros(3), 0, torch.tensor([1]), torch.ones(1)).tolist() == [0, 1, 0]
    assert torch.zeros(3).index_fill_(0, torch.tensor([-1]), 2).tolist() == [0, 0, 2]
    assert torch.zeros(2, 2).index_fill(1, torch.tensor([1]), torch.tensor(3.0)).tolist() == [[0, 3], [0, 3]]
    raises(IndexError, "index out of range in self", lambda: torch.zeros(3).index_add_(0, torch.tensor([3]), torch.ones(1)))
    raises(RuntimeError, "index_add_(): Number of indices (1) should be equal to source.size(dim): (2), for dim: 0",
           lambda: torch.zeros(3).index_add_(0, torch.tensor([0]), torch.ones(2)))
    raises(IndexError, "index 3 is out of bounds for dimension 0 with size 3",
           lambda: torch.zeros(3).index_fill_(0, torch.tensor([3]), 1))
    raises(RuntimeError, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).",
           lambda: torch.zeros(3).index_fill_(0, torch.tensor([0]), torch.tensor([2.0])))


def test_masked_select_and_masked_scatter():
    for _, t, base in layouts((2, 3)):
        mask = np.array([True, False, True])
        np.testing.assert_array_equal(t.masked_select(torch.from_numpy(mask)).numpy(),
                                      np.broadcast_to(base, (2, 3))[np.broadcast_to(mask, (2, 3))])
    r = torch.zeros(2, 3).masked_scatter_(torch.tensor([True, False, True]), arange(6))
    assert r.tolist() == [[0, 0, 1], [2, 0, 3]]
    raises(RuntimeError, "masked_select: expected BoolTensor for mask",
           lambda: torch.zeros(3).masked_select(torch.tensor([1, 0, 1])))
    raises(RuntimeError, "Number of elements of source < number of ones in mask",
           lambda: torch.zeros(3).masked_scatter_(torch.tensor([True, True, True]), torch.ones(2)))
    raises(RuntimeError, "masked_scatter_ only supports boolean masks, but got mask with dtype Long",
           lambda: torch.zeros(2, 3).masked_scatter_(torch.tensor([1, 0, 1]), arange(6)))


def test_take():
    for _, t, base in layouts((3, 4)):
        idx = np.array([[0, 5], [-1, 11]])
        np.testing.assert_array_equal(t.take(torch.from_numpy(idx)).numpy(), np.take(base, idx))
    raises(IndexError, "out of range: tried to access index 6 on a tensor of 6 elements.",
           lambda: arange(2, 3).take(torch.tensor([6])))
    raises(IndexError, "out of range: tried to access index -4 on a tensor of 3 elements.",
           lambda: torch.zeros(3).take(torch.tensor([-4])))


def test_nonzero_argwhere_as_tuple():
    for _, t, base in layouts((3, 4)):
        want = np.argwhere(base)
        got = t.nonzero()
        assert got.dtype == torch.int64
        np.testing.assert_array_equal(got.numpy(), want)
        np.testing.assert_array_equal(torch.argwhere(t).numpy(), want)
        parts = torch.nonzero(t, as_tuple=True)
        assert isinstance(parts, tuple) and len(parts) == 2
        for p, w in zip(parts, np.nonzero(base)):
            np.testing.assert_array_equal(p.numpy(), w)
    assert t.nonzero(as_tuple=True)[0].shape == (11,)
    assert torch.tensor(3.0).nonzero().shape == (1, 0)
    assert [p.tolist() for p in torch.tensor(3.0).nonzero(as_tuple=True)] == [[0]]
    assert [p.tolist() for p in torch.tensor(0.0).nonzero(as_tuple=True)] == [[]]


def test_index_put_refuses_none_in_the_list_like_pytorch():
    with pytest.raises(TypeError):
        torch.zeros(2, 3).index_put_((None, torch.tensor([1])), torch.tensor(1.0))


# ---- property test: random index expressions against numpy ------------------------------------

@st.composite
def index_expressions(draw):
    ndim = draw(st.integers(1, 4))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim)))
    layout = draw(st.sampled_from(["contiguous", "transposed", "strided"]))
    items, dims_left, used_ellipsis = [], ndim, False
    for _ in range(draw(st.integers(0, ndim + 1))):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis", "list", "tensor", "mask"]))
        if kind == "none":
            items.append(None)
            continue
        if kind == "ellipsis":
            if not used_ellipsis:
                items.append(Ellipsis)
                used_ellipsis = True
            continue
        if dims_left == 0:
            break
        size = shape[ndim - dims_left] if not used_ellipsis else None
        if size is None:  # after an Ellipsis the dimension is counted from the end
            break
        dims_left -= 1
        if kind == "int":
            items.append(draw(st.integers(-size, size - 1)))
        elif kind == "slice":
            start = draw(st.one_of(st.none(), st.integers(-size - 1, size + 1)))
            stop = draw(st.one_of(st.none(), st.integers(-size - 1, size + 1)))
            step = draw(st.one_of(st.none(), st.integers(1, 3)))
            items.append(slice(start, stop, step))
        elif kind in ("list", "tensor"):
            n = draw(st.integers(1, 3))
            vals = draw(st.lists(st.integers(-size, size - 1), min_size=n, max_size=n))
            items.append(vals if kind == "list" else torch.tensor(vals))
        else:
            mask = draw(st.lists(st.booleans(), min_size=size, max_size=size))
            items.append(torch.tensor(mask))
    return shape, layout, tuple(items)


def _layout(shape, layout):
    for name, t, base in layouts(shape):
        if name == layout:
            return t, base
    return next(iter(layouts(shape)))[1:]


@settings(max_examples=300, deadline=None)
@given(index_expressions())
def test_random_index_expressions_match_numpy(case):
    shape, layout, index = case
    t, base = _layout(shape, layout)
    np_index = tuple(np.array(i) if isinstance(i, list) else as_numpy_index(i) for i in index)
    try:
        want = torch_reference(base, np_index)
    except IndexError:
        # numpy refuses advanced indices that do not broadcast; so must we
        with pytest.raises(IndexError):
            t[index]
        return
    got = t[index]
    assert tuple(got.shape) == want.shape
    np.testing.assert_array_equal(got.numpy(), want)
    basic = all(not isinstance(i, (list, torch.Tensor)) for i in index)
    assert shares_storage(got, t) == basic or got.numel() == 0
    # and the same expression as a write
    t2, base2 = t.clone(), base.copy()
    if want.size:
        t2[index] = -1.0
        marker = torch_reference(np.arange(base.size).reshape(base.shape), np_index)
        base2.reshape(-1)[marker.reshape(-1)] = -1.0  # the elements the expression names
        np.testing.assert_array_equal(t2.numpy(), base2)
