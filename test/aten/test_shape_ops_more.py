# test/aten/test_shape_ops_more.py - broadcast_to/broadcast_tensors/broadcast_shapes, column_stack,
# tensor_split, take_along_dim, msort, diff, cross and linalg.cross, dist, inner, kron, vdot, trace,
# cosine_similarity, logspace, tril/triu_indices, meshgrid, diag, rot90, block_diag,
# cartesian_prod, where(condition) and the tuples of split/chunk/unbind: values against numpy,
# shapes and views, out= forms, errors whose type and text were taken from PyTorch 2.13, and
# gradients (gradcheck in float64). Mirrors parts of PyTorch's test/test_shape_ops.py and
# test/test_linalg.py. Guide: docs/source/internals/programs/native_ops.rst.
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch


def arange(*shape, dtype=torch.float32):
    n = int(np.prod(shape)) if shape else 1
    return torch.arange(n, dtype=torch.float64).reshape(shape).to(dtype)


def np_of(t):
    return t.detach().numpy()


def shares_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def d(*shape, seed=0):
    g = np.random.default_rng(seed)
    return torch.tensor(g.standard_normal(shape), dtype=torch.float64, requires_grad=True)


# ---- broadcasting ----

def test_broadcast_to_is_a_view():
    x = torch.tensor([1.0, 2.0, 3.0])
    y = torch.broadcast_to(x, (2, 3))
    assert y.shape == (2, 3) and y.stride() == (0, 1) and shares_storage(x, y)
    np.testing.assert_array_equal(np_of(x.broadcast_to((4, 1, 3))), np.broadcast_to(np_of(x), (4, 1, 3)))


def test_broadcast_tensors():
    a, b, c = torch.ones(3, 1), torch.arange(4), torch.tensor(5)
    ra, rb, rc = torch.broadcast_tensors(a, b, c)
    assert ra.shape == rb.shape == rc.shape == (3, 4)
    np.testing.assert_array_equal(np_of(rb), np.broadcast_to(np.arange(4), (3, 4)))
    assert isinstance(torch.broadcast_tensors(a, b), tuple)


@pytest.mark.parametrize("shapes, want", [
    (((2,), (3, 1), (1, 1, 1)), (1, 3, 2)),
    (((1, 3), (2, 1), 3), (2, 3)),
    ((5,), (5,)),
    ((), ()),
    (((0, 1), (1, 4)), (0, 4)),
])
def test_broadcast_shapes(shapes, want):
    got = torch.broadcast_shapes(*shapes)
    assert isinstance(got, torch.Size) and got == want


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: torch.broadcast_shapes((2, 3), (4, 3)), RuntimeError,
     "Attempting to broadcast a dimension of length 4 at -2! Mismatching argument at index 1 had (4, 3); "
     "but expected shape should be broadcastable to [2, 3]"),
    (lambda: torch.broadcast_shapes((-1,), (2,)), ValueError, "Attempting to broadcast a dimension with negative length!"),
    (lambda: torch.broadcast_to(torch.ones(3), (2, 2)), RuntimeError,
     "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1"),
    (lambda: torch.broadcast_tensors(torch.ones(3), torch.ones(4)), RuntimeError,
     "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0"),
])
def test_broadcast_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert msg in str(info.value)


# ---- stacking and splitting ----

def test_column_stack():
    a, b, c = torch.tensor([1, 2, 3]), torch.tensor([[4, 5], [6, 7], [8, 9]]), torch.tensor([10, 11, 12])
    got = torch.column_stack((a, b, c))
    np.testing.assert_array_equal(np_of(got), np.column_stack((np_of(a), np_of(b), np_of(c))))
    out = torch.empty(0, dtype=torch.long)
    assert torch.column_stack([a, c], out=out) is out and out.shape == (3, 2)
    assert torch.column_stack([torch.tensor(1.0), torch.tensor(2.0)]).shape == (1, 2)
    with pytest.raises(RuntimeError, match="column_stack expects a non-empty TensorList"):
        torch.column_stack([])


@pytest.mark.parametrize("n, sections", [(7, 3), (6, 3), (2, 5), (10, 1)])
def test_tensor_split_sections(n, sections):
    x = torch.arange(n)
    got = torch.tensor_split(x, sections)
    want = np.array_split(np.arange(n), sections)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np_of(g), w)
        assert shares_storage(g, x)


def test_tensor_split_indices_and_tensor_forms():
    x = torch.arange(7)
    got = torch.tensor_split(x, [1, 5, 3, 9])
    assert [t.tolist() for t in got] == [[0], [1, 2, 3, 4], [], [3, 4, 5, 6], []]
    assert [t.tolist() for t in x.tensor_split([-2])] == [[0, 1, 2, 3, 4], [5, 6]]
    assert [t.tolist() for t in torch.tensor_split(x, torch.tensor(3))] == [[0, 1, 2], [3, 4], [5, 6]]
    assert [t.tolist() for t in torch.tensor_split(x, torch.tensor([2, 4]))] == [[0, 1], [2, 3], [4, 5, 6]]
    m = arange(2, 5)
    parts = m.tensor_split(2, dim=1)
    assert [p.shape for p in parts] == [(2, 3), (2, 2)]
    parts = torch.tensor_split(m, [1], dim=-1)
    assert [p.shape for p in parts] == [(2, 1), (2, 4)]


@pytest.mark.parametrize("call, msg", [
    (lambda: torch.tensor_split(torch.tensor(1.0), 2),
     "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"),
    (lambda: torch.tensor_split(torch.arange(5), 0), "number of sections must be larger than 0, got 0"),
    (lambda: torch.tensor_split(torch.arange(5), torch.tensor([1.0])),
     "tensor_split expected tensor_indices_or_sections to have dtype of long, but got Float"),
    (lambda: torch.tensor_split(torch.arange(5), torch.tensor([[1]])),
     "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional tensor, but got a "
     "tensor with 2 dims"),
])
def test_tensor_split_errors(call, msg):
    with pytest.raises(RuntimeError) as info:
        call()
    assert msg in str(info.value)


def test_split_chunk_unbind_return_tuples():
    x = torch.arange(6)
    for r in (torch.split(x, 2), x.split([1, 5]), torch.chunk(x, 3), x.chunk(4), torch.unbind(x), x.unbind(0),
              torch.tensor_split(x, 2), torch.where(x > 2)):
        assert type(r) is tuple


# ---- indexing-like ----

def test_take_along_dim():
    x = torch.tensor([[10, 30, 20], [60, 40, 50]])
    idx = torch.argsort(x, dim=1)
    np.testing.assert_array_equal(np_of(torch.take_along_dim(x, idx, dim=1)),
                                  np.take_along_axis(np_of(x), np_of(idx), axis=1))
    # broadcasting of the other dimensions
    got = torch.take_along_dim(x, torch.tensor([[0], [2]]), dim=1)
    assert got.tolist() == [[10], [50]]
    got = x.take_along_dim(torch.tensor([[1, 0, 2]]), dim=-1)
    assert got.tolist() == [[30, 10, 20], [40, 60, 50]]
    # without dim: both flattened
    assert torch.take_along_dim(x, torch.tensor([0, 5])).tolist() == [10, 50]
    out = torch.empty(0, dtype=torch.long)
    torch.take_along_dim(x, idx, 1, out=out)
    assert out.tolist() == [[10, 20, 30], [40, 50, 60]]


@pytest.mark.parametrize("call, msg", [
    (lambda: torch.take_along_dim(arange(2, 3), torch.tensor([0]), dim=0),
     "torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 dimensions for "
     "input, and 1 dimensions for indices"),
    (lambda: torch.take_along_dim(arange(2, 3), torch.tensor([[0]], dtype=torch.int32), dim=0),
     "torch.take_along_dim(): dtype of indices should be Long but got Int"),
])
def test_take_along_dim_errors(call, msg):
    with pytest.raises(RuntimeError) as info:
        call()
    assert msg in str(info.value)


def test_where_one_argument_is_nonzero_as_tuple():
    c = torch.tensor([[True, False], [False, True]])
    rows, cols = torch.where(c)
    np.testing.assert_array_equal(np_of(rows), np.nonzero(np_of(c))[0])
    np.testing.assert_array_equal(np_of(cols), np.nonzero(np_of(c))[1])
    assert len(torch.where(torch.tensor([0.0, 2.0, 3.0]))) == 1


# ---- ordering and differences ----

def test_msort():
    x = torch.tensor([[3, 1], [1, 2], [2, 0]])
    np.testing.assert_array_equal(np_of(torch.msort(x)), np.sort(np_of(x), axis=0))
    np.testing.assert_array_equal(np_of(x.msort()), np.sort(np_of(x), axis=0))
    out = torch.empty(0, dtype=torch.long)
    torch.msort(x, out=out)
    assert out.tolist() == [[1, 0], [2, 1], [3, 2]]


@pytest.mark.parametrize("n, dim", [(1, -1), (2, -1), (1, 0), (3, 1), (0, -1), (10, -1)])
def test_diff_values(n, dim):
    x = torch.tensor([[1.0, 4.0, 9.0, 16.0], [2.0, -3.0, 0.5, 8.0]])
    np.testing.assert_array_equal(np_of(torch.diff(x, n=n, dim=dim)), np.diff(np_of(x), n=n, axis=dim))


def test_diff_prepend_append_bool_and_out():
    x = torch.tensor([1, 3, 6])
    got = torch.diff(x, prepend=torch.tensor([0]), append=torch.tensor([10, 15]))
    np.testing.assert_array_equal(np_of(got), np.diff(np_of(x), prepend=[0], append=[10, 15]))
    assert torch.diff(torch.tensor([True, False, False, True])).tolist() == [True, False, True]
    assert torch.diff(torch.arange(4), n=10).shape == (0,)
    out = torch.empty(0, dtype=torch.long)
    torch.diff(x, out=out)
    assert out.tolist() == [2, 3]
    m = arange(2, 3)
    assert m.diff(dim=0, append=torch.ones(1, 3)).tolist() == [[3.0, 3.0, 3.0], [-2.0, -3.0, -4.0]]


@pytest.mark.parametrize("call, msg", [
    (lambda: torch.diff(torch.tensor(1.0)), "diff expects input to be at least one-dimensional"),
    (lambda: torch.diff(arange(2, 3), n=-1), "order must be non-negative but got -1"),
    (lambda: torch.diff(arange(2, 3), prepend=torch.ones(3)),
     "diff expects prepend or append to be the same dimension as input"),
    (lambda: torch.diff(arange(2, 3), dim=1, prepend=torch.ones(3, 1)),
     "diff expects the shape of tensor to prepend or append to match that of input except along the differencing "
     "dimension; input.size(0) = 2, but got tensor.size(0) = 3"),
])
def test_diff_errors(call, msg):
    with pytest.raises(RuntimeError) as info:
        call()
    assert msg in str(info.value)


# ---- linear algebra ----

def test_cross_and_linalg_cross():
    a = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])
    b = torch.tensor([[4.0, 5.0, 6.0], [3.0, -2.0, 1.0]])
    np.testing.assert_allclose(np_of(torch.linalg.cross(a, b)), np.cross(np_of(a), np_of(b)))
    np.testing.assert_allclose(np_of(torch.cross(a, b, dim=1)), np.cross(np_of(a), np_of(b)))
    np.testing.assert_allclose(np_of(a.cross(b, dim=-1)), np.cross(np_of(a), np_of(b)))
    # along dim 0, with broadcasting of the other dimensions
    c = torch.tensor([[1.0], [0.0], [0.0]])
    got = torch.linalg.cross(c, torch.tensor([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), dim=0)
    assert got.tolist() == [[0.0, 0.0], [0.0, -1.0], [1.0, 0.0]]
    assert torch.linalg.cross(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])).tolist() == [-3, 6, -3]
    out = torch.empty(0)
    torch.linalg.cross(a, b, out=out)
    np.testing.assert_allclose(np_of(out), np.cross(np_of(a), np_of(b)))
    # without dim, torch.cross takes the first dimension of size 3 and warns that this is deprecated
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        got = torch.cross(torch.ones(3, 3), arange(3, 3))
    np.testing.assert_allclose(np_of(got), np.cross(np.ones((3, 3)), np_of(arange(3, 3)), axis=0))


@pytest.mark.parametrize("call, msg", [
    (lambda: torch.cross(torch.ones(2, 2), torch.ones(2, 2)), "no dimension of size 3 in input"),
    (lambda: torch.linalg.cross(torch.ones(2, 2), torch.ones(2, 2)),
     "linalg.cross: inputs dimension -1 must have length 3. Got 2 and 2"),
    (lambda: torch.linalg.cross(torch.ones(3), torch.ones(2, 3)),
     "linalg.cross: inputs must have the same number of dimensions."),
    (lambda: torch.linalg.cross(torch.ones(3), torch.ones(3, dtype=torch.float64)),
     "expected scalar type Float but found Double"),
])
def test_cross_errors(call, msg):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError) as info:
            call()
    assert msg in str(info.value)


def test_dist_inner_kron_vdot_trace():
    a, b = torch.tensor([1.0, -2.0, 3.0]), torch.tensor([0.5, 2.0, -1.0])
    for p in (0, 1, 2, 3.5, float("inf")):
        want = np.linalg.norm(np_of(a - b), ord=p) if p != 0 else np.count_nonzero(np_of(a - b))
        np.testing.assert_allclose(torch.dist(a, b, p).item(), want, rtol=1e-6)
    assert torch.dist(a, b).item() == pytest.approx(float(np.linalg.norm(np_of(a - b))))
    m, n = arange(2, 3), arange(4, 3)
    np.testing.assert_allclose(np_of(torch.inner(m, n)), np.inner(np_of(m), np_of(n)))
    np.testing.assert_allclose(np_of(torch.inner(a, b)), np.inner(np_of(a), np_of(b)))
    np.testing.assert_allclose(np_of(torch.inner(m, torch.tensor(2.0))), np_of(m) * 2)
    k1, k2 = torch.tensor([[1, 2], [3, 4]]), torch.tensor([1, 10])
    np.testing.assert_array_equal(np_of(torch.kron(k1, k2)), np.kron(np_of(k1), np_of(k2)))
    np.testing.assert_array_equal(np_of(arange(2, 1, 3).kron(arange(3, 2))), np.kron(np.arange(6.).reshape(2, 1, 3),
                                                                                   np.arange(6.).reshape(3, 2)))
    assert torch.vdot(torch.tensor([1, 2]), torch.tensor([3, 4])).item() == 11
    z1, z2 = torch.tensor([1 + 2j, 3 - 1j]), torch.tensor([2 - 1j, 1j])
    assert torch.vdot(z1, z2).item() == np.vdot(np_of(z1), np_of(z2))
    assert torch.trace(arange(3, 3)).item() == 12.0
    t = torch.trace(torch.arange(6, dtype=torch.int32).reshape(2, 3))
    assert t.dtype == torch.int64 and t.item() == 4
    for name in ("inner", "kron"):
        out = torch.empty(0)
        getattr(torch, name)(m, arange(2, 3), out=out)
        np.testing.assert_array_equal(np_of(out), np_of(getattr(torch, name)(m, arange(2, 3))))
    out = torch.empty(0)
    torch.vdot(a, b, out=out)
    assert out.item() == pytest.approx(-6.5)


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: torch.inner(torch.ones(2, 3), torch.ones(4)), RuntimeError,
     "inner() the last dimension must match on both input tensors but got shapes [2, 3] and [4]"),
    (lambda: torch.vdot(torch.ones(2, 2), torch.ones(2)), RuntimeError, "1D tensors expected, but got 2D and 1D tensors"),
    (lambda: torch.vdot(torch.ones(2), torch.ones(2, dtype=torch.float64)), RuntimeError,
     "dot : expected both vectors to have same dtype, but found Float and Double"),
    (lambda: torch.vdot(torch.ones(2), torch.ones(3)), RuntimeError,
     "inconsistent tensor size, expected tensor [2] and src [3] to have the same number of elements, but got 2 and 3 "
     "elements respectively"),
    (lambda: torch.trace(torch.ones(2, 2, 2)), RuntimeError, "trace: expected a matrix, but got tensor with dim 3"),
    (lambda: torch.trace(torch.ones(2, 2, dtype=torch.bool)), NotImplementedError, "\"trace\" not implemented for 'Bool'"),
    (lambda: torch.dist(torch.tensor([1, 2]), torch.tensor([3, 5])), RuntimeError,
     "norm(): input dtype should be either floating point or complex. Got Long instead."),
])
def test_linalg_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert msg in str(info.value)


def test_cosine_similarity():
    a = torch.tensor([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0], [-1.0, 4.0, 0.5]])
    b = torch.tensor([[4.0, -5.0, 6.0], [1.0, 2.0, 3.0], [2.0, 8.0, 1.0]])
    got = torch.cosine_similarity(a, b)
    na, nb = np.linalg.norm(np_of(a), axis=1), np.linalg.norm(np_of(b), axis=1)
    want = (np_of(a) * np_of(b)).sum(1) / (np.maximum(na, 1e-8) * np.maximum(nb, 1e-8))
    np.testing.assert_allclose(np_of(got), want, rtol=1e-6, atol=1e-7)
    # dim 0, broadcasting, and integer inputs promoted (value recorded from PyTorch 2.13)
    assert torch.cosine_similarity(a, b[:1], dim=0).shape == (3,)
    assert torch.cosine_similarity(torch.tensor([[1.0, 2.0]]), torch.tensor([[3, 4]])).item() == pytest.approx(
        0.9838699102401733, rel=1e-7)
    assert torch.nn.functional.cosine_similarity(a, b, dim=1, eps=1e-8).shape == (3,)
    with pytest.raises(RuntimeError, match="expected common dtype to be floating point, yet common dtype is Long"):
        torch.cosine_similarity(torch.tensor([[1, 2]]), torch.tensor([[3, 4]]))


# ---- factories ----

def test_logspace():
    np.testing.assert_allclose(np_of(torch.logspace(0, 2, 5)), np.logspace(0, 2, 5, dtype=np.float32), rtol=1e-6)
    np.testing.assert_allclose(np_of(torch.logspace(-1, 3, 7, base=2.0, dtype=torch.float64)),
                               np.logspace(-1, 3, 7, base=2.0), rtol=1e-14)
    assert torch.logspace(0, 3, 4, base=2, dtype=torch.int64).tolist() == [1, 2, 4, 8]
    assert torch.logspace(2, 5, 1).tolist() == [100.0]
    assert torch.logspace(0, 1, 0).shape == (0,)
    assert torch.logspace(0, 2, 3).dtype == torch.get_default_dtype()
    out = torch.empty(0, dtype=torch.float64)
    torch.logspace(0, 1, 3, out=out)
    np.testing.assert_allclose(np_of(out), np.logspace(0, 1, 3))
    with pytest.raises(RuntimeError, match="number of steps must be non-negative"):
        torch.logspace(0, 1, -1)


@pytest.mark.parametrize("row, col, offset", [(3, 4, 1), (3, 3, 0), (4, 2, -1), (0, 3, 0), (3, 3, -5), (2, 5, 10)])
def test_tril_triu_indices(row, col, offset):
    tri = torch.tril_indices(row, col, offset)
    assert tri.dtype == torch.int64 and tri.shape[0] == 2
    np.testing.assert_array_equal(np_of(tri), np.stack(np.tril_indices(row, offset, col)))
    triu = torch.triu_indices(row, col, offset, dtype=torch.int32)
    assert triu.dtype == torch.int32
    np.testing.assert_array_equal(np_of(triu), np.stack(np.triu_indices(row, offset, col)))


def test_tril_indices_errors():
    with pytest.raises(RuntimeError, match="row must be non-negative, got-1"):
        torch.tril_indices(-1, 2)
    with pytest.raises(RuntimeError, match="col must be non-negative, got-2"):
        torch.triu_indices(2, -2)


# ---- grids and blocks ----

@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid(indexing):
    x, y, z = torch.arange(3), torch.arange(4) * 10, torch.tensor([7, 8])
    got = torch.meshgrid(x, y, z, indexing=indexing)
    want = np.meshgrid(np_of(x), np_of(y), np_of(z), indexing=indexing)
    assert isinstance(got, tuple)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(np_of(g), w)
    # the grids are expanded views of the inputs
    assert got[0].stride().count(0) == 2 and shares_storage(got[0], x)
    got2 = torch.meshgrid([x, y], indexing=indexing)
    np.testing.assert_array_equal(np_of(got2[1]), np.meshgrid(np_of(x), np_of(y), indexing=indexing)[1])


def test_meshgrid_without_indexing_warns_and_is_ij():
    with pytest.warns(UserWarning, match="torch.meshgrid: in an upcoming release, it will be required to pass the"):
        a, b = torch.meshgrid(torch.arange(2), torch.arange(3))
    assert a.shape == (2, 3)


@pytest.mark.parametrize("call, msg", [
    (lambda: torch.meshgrid(torch.arange(2), indexing="ab"),
     "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: ab"),
    (lambda: torch.meshgrid(torch.ones(2, 2), indexing="ij"),
     "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got"),
    (lambda: torch.meshgrid(torch.ones(2), torch.arange(2), indexing="ij"),
     "meshgrid expects all tensors to have the same dtype"),
    (lambda: torch.meshgrid(indexing="ij"), "meshgrid expects a non-empty TensorList"),
])
def test_meshgrid_errors(call, msg):
    with pytest.raises(RuntimeError) as info:
        call()
    assert msg in str(info.value)


def test_cartesian_prod():
    a, b, c = torch.tensor([1, 2]), torch.tensor([3, 4, 5]), torch.tensor([6])
    got = torch.cartesian_prod(a, b, c)
    assert got.tolist() == [list(p) for p in itertools.product([1, 2], [3, 4, 5], [6])]
    assert torch.cartesian_prod(a).tolist() == [1, 2]
    with pytest.raises(RuntimeError, match=r"Expect a 1D vector, but got shape \[2, 2\]"):
        torch.cartesian_prod(torch.ones(2, 2))


@pytest.mark.parametrize("k", [0, 1, -1, 2, -3])
def test_diag(k):
    v = torch.tensor([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(np_of(torch.diag(v, k)), np.diag(np_of(v), k))
    m = arange(3, 4)
    got = m.diag(k)
    np.testing.assert_array_equal(np_of(got), np.diag(np_of(m), k))
    assert not shares_storage(got, m)
    out = torch.empty(0)
    torch.diag(v, k, out=out)
    np.testing.assert_array_equal(np_of(out), np.diag(np_of(v), k))


def test_diag_keeps_infinities_off_the_diagonal_zero():
    got = torch.diag(torch.tensor([float("inf"), 1.0]))
    assert got.tolist() == [[float("inf"), 0.0], [0.0, 1.0]]
    with pytest.raises(RuntimeError, match="diag\\(\\): Supports 1D or 2D tensors. Got 3D"):
        torch.diag(torch.ones(2, 2, 2))


@pytest.mark.parametrize("k", [0, 1, 2, 3, -1, 5, -6])
@pytest.mark.parametrize("dims", [(0, 1), (1, 0), (1, 2), (-1, 0)])
def test_rot90(k, dims):
    x = arange(2, 3, 4)
    np.testing.assert_array_equal(np_of(torch.rot90(x, k, dims)), np.rot90(np_of(x), k, dims))
    np.testing.assert_array_equal(np_of(x.rot90(k, list(dims))), np.rot90(np_of(x), k, dims))


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: torch.rot90(arange(2, 3), 1, [0]), RuntimeError, "expected total rotation dims == 2, but got dims = 1"),
    (lambda: torch.rot90(arange(2, 3), 1, [0, 0]), RuntimeError,
     "expected rotation dims to be different, but got dim0 = 0 and dim1 = 0"),
    (lambda: torch.rot90(torch.ones(3), 1, [0, 1]), RuntimeError, "expected total dims >= 2, but got total dims = 1"),
    (lambda: torch.rot90(arange(2, 3), 1, [0, 2]), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
])
def test_rot90_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert msg in str(info.value)


def test_block_diag():
    got = torch.block_diag(torch.tensor(2), torch.tensor([1.0, 2.0]), torch.tensor([[1, 2]], dtype=torch.int32),
                           torch.tensor([[3], [4]]))
    want = np.zeros((5, 6), dtype=np.float32)
    want[0, 0] = 2
    want[1, 1:3] = [1, 2]
    want[2, 3:5] = [1, 2]
    want[3:5, 5] = [3, 4]
    assert got.dtype == torch.float32
    np.testing.assert_array_equal(np_of(got), want)
    empty = torch.block_diag()
    assert empty.shape == (1, 0) and empty.dtype == torch.float32
    with pytest.raises(RuntimeError, match="torch.block_diag: Input tensors must have 2 or fewer dimensions. Input 1 has 3"):
        torch.block_diag(torch.ones(2), torch.ones(1, 1, 1))


# ---- gradients ----

@pytest.mark.parametrize("fn, inputs", [
    (lambda x: torch.broadcast_to(x, (2, 3, 4)), lambda: (d(3, 1),)),
    (lambda a, b: torch.broadcast_tensors(a, b), lambda: (d(3, 1), d(1, 4, seed=1))),
    (lambda a, b: torch.column_stack([a, b]), lambda: (d(3), d(3, 2, seed=1))),
    (lambda x: torch.tensor_split(x, 3, dim=1), lambda: (d(2, 7),)),
    (lambda x: torch.tensor_split(x, [1, 4]), lambda: (d(6, 2),)),
    (lambda x: torch.take_along_dim(x, torch.tensor([[2, 0, 1], [1, 1, 0]]), dim=1), lambda: (d(2, 3),)),
    (lambda x: torch.msort(x), lambda: (d(4, 3),)),
    (lambda x, p: torch.diff(x, n=2, dim=0, prepend=p), lambda: (d(4, 3), d(1, 3, seed=1))),
    (lambda a, b: torch.linalg.cross(a, b), lambda: (d(2, 3), d(2, 3, seed=1))),
    (lambda a, b: torch.cross(a, b, dim=0), lambda: (d(3, 2), d(3, 2, seed=1))),
    (lambda a, b: torch.dist(a, b), lambda: (d(4), d(4, seed=1))),
    (lambda a, b: torch.dist(a, b, 3), lambda: (d(4), d(4, seed=1))),
    (torch.inner, lambda: (d(2, 3), d(4, 3, seed=1))),
    (torch.kron, lambda: (d(2, 2), d(3, 1, seed=1))),
    (torch.vdot, lambda: (d(4), d(4, seed=1))),
    (torch.trace, lambda: (d(3, 4),)),
    (lambda a, b: torch.cosine_similarity(a, b, dim=1), lambda: (d(3, 4), d(3, 4, seed=1))),
    (lambda a, b: torch.cosine_similarity(a, b, dim=0), lambda: (d(3, 4), d(1, 4, seed=1))),
    (lambda a, b: torch.meshgrid(a, b, indexing="xy"), lambda: (d(3), d(2, seed=1))),
    (lambda v: torch.diag(v, 1), lambda: (d(3),)),
    (lambda v: torch.diag(v, -2), lambda: (d(3, 4),)),
    (lambda x: torch.rot90(x, 1, [0, 1]), lambda: (d(2, 3),)),
    (lambda x: torch.rot90(x, -1, [1, 2]), lambda: (d(2, 3, 2),)),
    (lambda a, b, c: torch.block_diag(a, b, c), lambda: (d(2, 3), d(4, seed=1), d(seed=2))),
    (lambda a, b: torch.cartesian_prod(a, b), lambda: (d(3), d(2, seed=1))),
])
def test_gradcheck(fn, inputs):
    assert torch.autograd.gradcheck(fn, inputs(), eps=1e-6, atol=1e-5)


def test_grad_fn_names():
    x = d(2, 3)
    assert type(torch.rot90(x).grad_fn).__name__ == "Rot90Backward0"
    assert type(torch.block_diag(x, x).grad_fn).__name__ == "BlockDiagBackward0"
    assert type(torch.trace(x).grad_fn).__name__ == "TraceBackward0"
    assert type(torch.linalg.cross(d(3), d(3, seed=1)).grad_fn).__name__ == "LinalgCrossBackward0"
    assert type(torch.dist(x, x.detach()).grad_fn).__name__ == "DistBackward0"


# ---- properties ----

@settings(max_examples=50, deadline=None)
@given(st.integers(0, 12), st.one_of(st.integers(1, 6), st.lists(st.integers(-14, 14), max_size=4)))
def test_tensor_split_matches_numpy_array_split(n, arg):
    x = torch.arange(n)
    got = torch.tensor_split(x, arg)
    want = np.array_split(np.arange(n), arg)
    assert [t.tolist() for t in got] == [w.tolist() for w in want]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), min_size=0, max_size=3), min_size=1, max_size=4))
def test_broadcast_shapes_matches_numpy(shapes):
    try:
        want = np.broadcast_shapes(*[tuple(s) for s in shapes])
    except ValueError:
        with pytest.raises(RuntimeError):
            torch.broadcast_shapes(*shapes)
    else:
        assert tuple(torch.broadcast_shapes(*shapes)) == want


# ---- edge cases found by the differential fuzzer (errors of PyTorch 2.13) ----

def test_kron_views_its_inputs_and_trace_checks_dtype_first():
    with pytest.raises(RuntimeError, match="view size is not compatible with input tensor's size and stride"):
        torch.kron(torch.ones(2, 3, 4).transpose(-2, -1), torch.ones(3))
    with pytest.raises(NotImplementedError, match="\"trace\" not implemented for 'Bool'"):
        torch.trace(torch.tensor(False))
