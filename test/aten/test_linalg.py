# test/aten/test_linalg.py - mm, bmm, addmm, mv, dot, outer, matmul (and @), tensordot, einsum against numpy:
# every shape case, every dtype, transposed/sliced/expanded operands, Hypothesis over shapes, PyTorch's error texts.
# Mirrors PyTorch's test/test_linalg.py. Guide: docs/source/internals/one_call.rst (aten/src/ATen/native/Blas.cpp).
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch

DTYPES = [torch.float32, torch.float64, torch.int32, torch.int64, torch.int16, torch.int8, torch.uint8,
          torch.float16, torch.bfloat16]


def ints(shape, dtype, seed=0):
    """Small integers (exact in every dtype, so products compare exactly)."""
    a = (np.arange(int(np.prod(shape))).reshape(shape) * 7 + seed * 3) % 5 - (0 if dtype == torch.uint8 else 2)
    return torch.tensor(a.ravel().tolist(), dtype=dtype).view(shape)


def np_of(t):
    return t.to(torch.float64).numpy()


def check(got, expected, dtype=torch.float64):
    tol = {torch.float16: 1e-2, torch.bfloat16: 5e-2, torch.float32: 1e-4}.get(dtype, 1e-10)
    assert tuple(got.shape) == np.shape(expected)
    np.testing.assert_allclose(np_of(got), expected, rtol=tol, atol=tol)


MATMUL_SHAPES = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)),
    ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)), ((5, 2, 3), (5, 3, 4)), ((7, 1, 2, 3), (5, 3, 4)),
    ((3,), (5, 3, 4)), ((5, 2, 3), (3,)), ((2, 1, 2, 3), (1, 4, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 3)),
]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul_matches_numpy_for_every_shape_case(sa, sb, dtype):
    a, b = ints(sa, dtype, 1), ints(sb, dtype, 2)
    got = torch.matmul(a, b)
    assert got.dtype == dtype
    check(got, np.matmul(np_of(a), np_of(b)), dtype)
    check(a @ b, np.matmul(np_of(a), np_of(b)), dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.float16])
def test_mm_reads_transposed_and_sliced_operands(dtype):
    a = ints((7, 5), dtype, 1).t()                      # (5 x 7), column-major
    b = ints((14, 6), dtype, 2).slice(0, 0, 14, 2)      # (7 x 6), every other row
    c = ints((6, 14), dtype, 3).slice(1, 0, 14, 2).t()  # (7 x 6), every other column, transposed
    e = ints((1, 6), dtype, 4).expand(7, 6)             # (7 x 6), stride 0 rows
    for m2 in (b, c, e):
        check(torch.mm(a, m2), np_of(a) @ np_of(m2), dtype)
    out = torch.empty(6, 5, dtype=dtype).t()    # a transposed output
    torch.mm(a, b, out=out)
    check(out, np_of(a) @ np_of(b), dtype)


def test_mm_of_random_floats_is_close_to_numpy():
    a, b = torch.rand(64, 300, dtype=torch.float64), torch.rand(300, 40, dtype=torch.float64)
    check(torch.mm(a, b), a.numpy() @ b.numpy())
    check(torch.mm(a.to(torch.float32), b.to(torch.float32)), a.numpy() @ b.numpy(), torch.float32)
    check(torch.mm(a.t().contiguous().t(), b), a.numpy() @ b.numpy())


def test_bmm_mv_dot_outer():
    a, b = ints((4, 2, 3), torch.float32, 1), ints((4, 3, 5), torch.float32, 2)
    check(torch.bmm(a, b), np_of(a) @ np_of(b))
    check(torch.bmm(a.transpose(1, 2).contiguous().transpose(1, 2), b), np_of(a) @ np_of(b))
    m, v = ints((3, 4), torch.float64, 3), ints((4,), torch.float64, 4)
    check(torch.mv(m, v), np_of(m) @ np_of(v))
    check(m.mv(v), np_of(m) @ np_of(v))
    x = ints((10,), torch.int64, 5).slice(0, 0, 10, 2)
    check(torch.dot(x, ints((5,), torch.int64, 6)), np.dot(np_of(x), np_of(ints((5,), torch.int64, 6))))
    check(torch.outer(ints((3,), torch.int64), ints((2,), torch.float32)), np.outer(np_of(ints((3,), torch.int64)),
                                                                                   np_of(ints((2,), torch.float32))))
    assert torch.outer(ints((3,), torch.int64), ints((2,), torch.float32)).dtype == torch.float32


def test_addmm_beta_alpha_and_broadcast_self():
    s, m1, m2 = ints((2, 3), torch.float64, 1), ints((2, 4), torch.float64, 2), ints((4, 3), torch.float64, 3)
    expected = 0.5 * np_of(s) + 2 * (np_of(m1) @ np_of(m2))
    check(torch.addmm(s, m1, m2, beta=0.5, alpha=2), expected)
    check(s.clone().addmm_(m1, m2, beta=0.5, alpha=2), expected)
    check(torch.addmm(s.select(0, 0), m1, m2), np_of(s.select(0, 0)) + np_of(m1) @ np_of(m2))
    nan = torch.full((2, 3), float("nan"), dtype=torch.float64)
    check(torch.addmm(nan, m1, m2, beta=0), np_of(m1) @ np_of(m2))  # beta=0: self's NaNs ignored


def test_matmul_out_and_methods():
    a, b = ints((2, 3), torch.float32), ints((3, 4), torch.float32, 1)
    out = torch.empty(0)
    assert torch.matmul(a, b, out=out) is out
    check(out, np_of(a) @ np_of(b))
    check(a.matmul(b), np_of(a) @ np_of(b))
    check(a.mm(b), np_of(a) @ np_of(b))


@settings(max_examples=60, deadline=None)
@given(batch=st.lists(st.integers(1, 3), min_size=0, max_size=2), n=st.integers(1, 9), k=st.integers(1, 9),
       m=st.integers(1, 9), transpose_a=st.booleans(), transpose_b=st.booleans(),
       dtype=st.sampled_from([torch.float32, torch.float64, torch.int64]))
def test_matmul_hypothesis_random_shapes_and_layouts(batch, n, k, m, transpose_a, transpose_b, dtype):
    a = torch.rand(*batch, k, n) if transpose_a else torch.rand(*batch, n, k)
    b = torch.rand(*batch, m, k) if transpose_b else torch.rand(*batch, k, m)
    a = (a.transpose(-1, -2) if transpose_a else a)
    b = (b.transpose(-1, -2) if transpose_b else b)
    a, b = (a * 10).to(dtype), (b * 10).to(dtype)
    check(torch.matmul(a, b), np.matmul(np_of(a), np_of(b)), dtype)


ERRORS = [
    (lambda z: torch.mm(z(2, 3), z(4, 5)), "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
    (lambda z: torch.matmul(z(3), z(4, 5)), "mat1 and mat2 shapes cannot be multiplied (1x3 and 4x5)"),
    (lambda z: torch.matmul(z(2, 3), z(4)), "size mismatch, got input (2), mat (2x3), vec (4)"),
    (lambda z: torch.matmul(z(3), z(4)), "inconsistent tensor size, expected tensor [3] and src [4] to have the same "
                                          "number of elements, but got 3 and 4 elements respectively"),
    (lambda z: torch.matmul(z(2, 2, 3), z(2, 4, 5)),
     "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4]."),
    (lambda z: torch.matmul(z(), z(4)), "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
    (lambda z: torch.matmul(z(4), z()), "both arguments to matmul need to be at least 1D, but they are 1D and 0D"),
    (lambda z: torch.mm(z(3), z(3, 5)), "self must be a matrix"),
    (lambda z: torch.mm(z(2, 3), z(3)), "mat2 must be a matrix"),
    (lambda z: torch.mm(z(2, 3), z(3, 5).to(torch.float64)), "expected m1 and m2 to have the same dtype, but got: float != double"),
    # the dtype's C++ name as PyTorch's TypeMeta spells it (GCC): int64 is "long int"
    (lambda z: torch.mm(z(2, 3), z(3, 5).to(torch.int64)), "expected m1 and m2 to have the same dtype, but got: float != long int"),
    (lambda z: torch.mm(z(2, 3).to(torch.int16), z(3, 5)), "expected m1 and m2 to have the same dtype, but got: short int != float"),
    (lambda z: torch.mm(z(2, 3), z(3, 5).to(torch.complex64)),
     "expected m1 and m2 to have the same dtype, but got: float != c10::complex<float>"),
    (lambda z: torch.bmm(z(2, 3), z(2, 3, 5)), "batch1 must be a 3D tensor"),
    (lambda z: torch.bmm(z(2, 2, 3), z(3, 3, 4)),
     "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [3, 3]."),
    (lambda z: torch.matmul(z(3, 2, 3), z(2, 3, 5)),
     "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0"),
    (lambda z: torch.dot(z(2, 3), z(3)), "1D tensors expected, but got 2D and 1D tensors"),
    (lambda z: torch.dot(z(3), z(3).to(torch.float64)), "dot : expected both vectors to have same dtype, but found Float and Double"),
    (lambda z: torch.addmm(z(2, 5), z(3), z(3, 5)), "mat1 must be a matrix, got 1-D tensor"),
    (lambda z: torch.addmm(z(2, 5).to(torch.float64), z(2, 3), z(3, 5)), "self and mat2 must have the same dtype, but got Double and Float"),
    (lambda z: z(1, 5).addmm_(z(2, 3), z(3, 5)),
     "Bad in-place call: input tensor size [1, 5] and output tensor size [2, 5] should match"),
    (lambda z: torch.outer(z(2, 3), z(3)), "outer: Expected 1-D argument self, but got 2-D"),
]


@pytest.mark.parametrize("fn,message", ERRORS, ids=[m[:40] for _, m in ERRORS])
def test_error_texts_match_pytorch(fn, message):
    with pytest.raises(RuntimeError) as info:
        fn(lambda *s: torch.zeros(s))
    assert str(info.value).split("\n")[0] == message


def test_bool_mm_is_not_implemented():
    with pytest.raises(NotImplementedError, match="\"addmm_impl_cpu_\" not implemented for 'Bool'"):
        torch.mm(torch.zeros(2, 2, dtype=torch.bool), torch.zeros(2, 2, dtype=torch.bool))


# ---- tensordot / einsum ----

def test_tensordot_int_and_lists():
    a, b = torch.rand(3, 4, 5, dtype=torch.float64), torch.rand(4, 5, 2, dtype=torch.float64)
    check(torch.tensordot(a, b, dims=2), np.tensordot(a.numpy(), b.numpy(), axes=2))
    check(torch.tensordot(a, b, dims=([1, 2], [0, 1])), np.tensordot(a.numpy(), b.numpy(), axes=([1, 2], [0, 1])))
    c = torch.rand(5, 3, dtype=torch.float64)
    check(torch.tensordot(a, c, dims=([2, 0], [0, 1])), np.tensordot(a.numpy(), c.numpy(), axes=([2, 0], [0, 1])))
    check(torch.tensordot(a, c, dims=0), np.tensordot(a.numpy(), c.numpy(), axes=0))
    with pytest.raises(RuntimeError, match="contracted dimensions need to match"):
        torch.tensordot(a, b, dims=([0], [0]))
    with pytest.raises(RuntimeError, match="tensordot expects dims >= 0"):
        torch.tensordot(a, b, dims=-1)


EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("i,i->", [(6,), (6,)]),
    ("ij->ji", [(3, 4)]), ("ii->i", [(4, 4)]), ("ij->", [(3, 4)]), ("i,j->ij", [(3,), (4,)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ba,ab", [(3, 4), (4, 3)]),
    ("ii", [(4, 4)]), ("ij->j", [(3, 4)]), ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]), ("i...->...", [(3, 2, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]), ("bij,jk->bik", [(2, 3, 4), (4, 5)]), ("Ab,bC->AC", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize("eq,shapes", EINSUM_CASES, ids=[c[0] for c in EINSUM_CASES])
def test_einsum_matches_numpy(eq, shapes):
    ops = [torch.rand(*s, dtype=torch.float64) for s in shapes]
    check(torch.einsum(eq, *ops), np.einsum(eq, *[o.numpy() for o in ops]))
    check(torch.einsum(eq, ops), np.einsum(eq, *[o.numpy() for o in ops]))


def test_einsum_sublist_and_non_contiguous():
    a, b = torch.rand(4, 3, dtype=torch.float64).t(), torch.rand(4, 5, dtype=torch.float64)
    check(torch.einsum(a, [0, 1], b, [1, 2], [0, 2]), a.numpy() @ b.numpy())
    check(torch.einsum("ij,jk->ik", a, b), a.numpy() @ b.numpy())


def test_einsum_errors():
    with pytest.raises(RuntimeError, match="more operands were provided than specified in the equation"):
        torch.einsum("ij->ij", torch.rand(2, 2), torch.rand(2, 2))
    with pytest.raises(RuntimeError, match=r"the number of subscripts in the equation \(2\) does not match"):
        torch.einsum("ij->ij", torch.rand(2, 2, 2))
    with pytest.raises(RuntimeError, match="output subscript k does not appear in the equation for any input operand"):
        torch.einsum("ij->k", torch.rand(2, 2))


def test_einsum_sums_integers_like_sum_does():
    # A summed dimension goes through torch.sum, which widens integers to int64 (PyTorch 2.13).
    a = torch.arange(6, dtype=torch.int32).reshape(2, 3)
    assert torch.einsum("ij->", a).dtype == torch.int64
    assert torch.einsum("ij->", a).item() == 15
    assert torch.einsum("ij->j", a).tolist() == [3, 5, 7]
    assert torch.einsum("ij->j", a).dtype == torch.int64
    assert torch.einsum("bij->bi", torch.ones(2, 2, 2, dtype=torch.int16)).dtype == torch.int64
    # Contractions (bmm) and diagonals keep the input dtype.
    assert torch.einsum("ij,jk->ik", a, a.t()).dtype == torch.int32
    assert torch.einsum("ii->i", torch.ones(2, 2, dtype=torch.int32)).dtype == torch.int32
