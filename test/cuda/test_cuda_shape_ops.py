"""The CUDA operators that reorder or mask elements, each checked against its CPU twin: flip and
roll (a gather per output element), tril, triu, tril_ and triu_ (one kernel over every element of
a batch of matrices), their gradients, and cat, stack, repeat and constant F.pad, which are built
from copies.

Mirrors the CUDA parts of PyTorch's test/test_shape_ops.py (test_flip, test_roll*), test/test_torch.py
(test_tril_triu*) and test/test_tensor_creation_ops.py (test_cat*, test_stack*). The kernels are
aten/src/ATen/native/cuda/TensorTransformations.cu and TriangularOps.cu. Guide:
docs/source/internals/cuda_training.rst. Without a GPU:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_shape_ops.py
"""

import pytest

import torch
import torch.nn.functional as F
from cuda_testing import _id, assert_same

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

# Every element size the kernels are instantiated for (1, 2, 4, 8 and 16 bytes) and every kind of
# dtype: flip and roll move bytes, tril and triu also write a zero of the dtype.
DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.uint8, torch.int16,
          torch.int32, torch.int64, torch.bool, torch.complex64, torch.complex128]


def values(*shape, dtype=torch.float32, seed=0):
    """Small integers (exact in every dtype), as dtype; complex ones get an imaginary part too,
    so a kernel that moved only half of each element would be caught."""
    g = torch.Generator().manual_seed(seed)
    t = torch.randint(0, 100, shape, generator=g)
    if dtype == torch.bool:
        return t % 3 == 0  # a mix of True and False, so a moved element shows
    if dtype.is_complex:
        return t.to(dtype) * (1 + 2j)
    return t.to(dtype)


def assert_same_layout(got, want):
    """assert_same, and the same strides: the CUDA kernels allocate their results as the CPU does."""
    assert_same(got, want)
    assert got.stride() == want.stride(), (got.stride(), want.stride())


def raised(fn):
    """The type and message of the exception fn raises."""
    with pytest.raises(Exception) as info:
        fn()
    return type(info.value), str(info.value)


def cpu_and_cuda_views(make_view, base):
    """The same view of base on the CPU and of a CUDA copy of it: non-contiguous inputs."""
    return make_view(base), make_view(base.cuda())


VIEWS = {
    "contiguous": lambda t: t,
    "transposed": lambda t: t.transpose(-1, -2),
    "sliced": lambda t: t[..., 1::2, ::3],
    "permuted": lambda t: t.permute(2, 0, 1),
}


# ---------------------------------------------------------------------------------------
# flip
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
def test_flip_matches_cpu_for_every_dtype(dtype):
    x = values(3, 4, 5, dtype=dtype)
    for dims in ([0], [1], [2], [-1], [0, 2], [-3, 1], [0, 1, 2], []):
        assert_same_layout(x.cuda().flip(dims), x.flip(dims))


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("dims", [[0], [-1], [1, 2], [2, 0, 1]], ids=str)
def test_flip_of_non_contiguous_input_matches_cpu(view, dims):
    cpu, dev = cpu_and_cuda_views(VIEWS[view], values(4, 6, 9))
    assert_same_layout(dev.flip(dims), cpu.flip(dims))
    assert_same_layout(torch.flip(dev, dims), torch.flip(cpu, dims))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0, 3), (1,), (7,), (1, 1), (5, 1, 3), (2, 3, 4, 5)], ids=str)
def test_flip_of_empty_odd_and_batched_shapes_matches_cpu(shape):
    x = values(*shape, dtype=torch.float64)
    for d in range(len(shape)):
        assert_same_layout(x.cuda().flip(d), x.flip(d))
    assert_same_layout(x.cuda().flip(list(range(len(shape)))), x.flip(list(range(len(shape)))))


def test_flip_of_scalar_and_fliplr_flipud():
    s = torch.tensor(3.5)
    for dims in ([], [0], [-1]):
        assert_same_layout(s.cuda().flip(dims), s.flip(dims))
    x = values(4, 5, 2)
    assert_same(torch.fliplr(x.cuda()), torch.fliplr(x))
    assert_same(torch.flipud(x.cuda()), torch.flipud(x))


def test_flip_of_large_tensor_spans_many_blocks():
    """About 100,000 elements: hundreds of blocks of 256 threads, each its own slice."""
    x = torch.arange(3 * 257 * 129, dtype=torch.int32).view(3, 257, 129)
    for dims in ([0], [1], [2], [0, 2]):
        assert_same(x.cuda().flip(dims), x.flip(dims))
    assert_same(x.cuda().transpose(0, 2).flip(1), x.transpose(0, 2).flip(1))


def test_flip_does_not_touch_its_input():
    x = values(3, 4).cuda()
    before = x.cpu()
    y = x.flip(0)
    assert y.data_ptr() != x.data_ptr()
    assert_same(x, before)


# ---------------------------------------------------------------------------------------
# roll
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
def test_roll_matches_cpu_for_every_dtype(dtype):
    x = values(3, 4, 5, dtype=dtype)
    for shifts, dims in ((1, 0), (-2, 1), (3, -1), ((1, 2), (0, 2)), (7, None)):
        want = x.roll(shifts, dims) if dims is not None else x.roll(shifts)
        got = x.cuda().roll(shifts, dims) if dims is not None else x.cuda().roll(shifts)
        assert_same_layout(got, want)


@pytest.mark.parametrize("shift", [0, 1, -1, 4, 5, 6, -6, 13, -13, 1000003, -999999])
def test_roll_by_any_shift_matches_cpu(shift):
    """Shifts beyond the size wrap around (modulo, Python's for negative shifts)."""
    x = values(5, 3)
    assert_same(x.cuda().roll(shift, 0), x.roll(shift, 0))
    assert_same(x.cuda().roll(shift, -1), x.roll(shift, -1))
    assert_same(torch.roll(x.cuda(), shift), torch.roll(x, shift))


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_roll_of_non_contiguous_input_matches_cpu(view):
    cpu, dev = cpu_and_cuda_views(VIEWS[view], values(4, 6, 9))
    for shifts, dims in ((2, 0), (-1, 2), ((1, -3, 2), (0, 1, 2)), ((4, 1), (-1, -2))):
        assert_same_layout(dev.roll(shifts, dims), cpu.roll(shifts, dims))
    assert_same_layout(dev.roll(5), cpu.roll(5))  # flattened in the logical (row-major) order


def test_roll_without_dims_rolls_the_flattened_tensor():
    x = values(2, 3, 4)
    for shift in (1, -5, 24, 25):
        assert_same_layout(x.cuda().roll(shift), x.roll(shift))
        assert_same_layout(x.cuda().roll([shift]), x.roll([shift]))
    s = torch.tensor(2.5)
    assert_same_layout(s.cuda().roll(3), s.roll(3))


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (1,), (7,), (1, 4), (2, 3, 4, 5)], ids=str)
def test_roll_of_empty_odd_and_batched_shapes_matches_cpu(shape):
    x = values(*shape, dtype=torch.float64)
    for d in range(len(shape)):
        assert_same_layout(x.cuda().roll(2, d), x.roll(2, d))
        assert_same_layout(x.cuda().roll(-3, d - len(shape)), x.roll(-3, d - len(shape)))
    assert_same_layout(x.cuda().roll(3), x.roll(3))


def test_roll_along_a_size_one_dim_with_zero_stride():
    """A contiguous tensor may have any stride in a dim of size 1 (here 0): the kernel must not use it."""
    base = torch.arange(12.0)
    x = base.as_strided((3, 1, 4), (4, 0, 1))
    dev = base.cuda().as_strided((3, 1, 4), (4, 0, 1))
    for shift, dim in ((1, 1), (2, 0), (-1, 2)):
        assert_same(dev.roll(shift, dim), x.roll(shift, dim))


def test_roll_of_large_tensor_spans_many_blocks():
    x = torch.arange(3 * 257 * 129, dtype=torch.int64).view(3, 257, 129)
    for shifts, dims in ((1, 0), (-100, 1), (300, 2), ((5, 7), (1, 2))):
        assert_same(x.cuda().roll(shifts, dims), x.roll(shifts, dims))
    assert_same(x.cuda().roll(12345), x.roll(12345))


# ---------------------------------------------------------------------------------------
# tril, triu and their in-place forms
# ---------------------------------------------------------------------------------------

DIAGONALS = [-100, -4, -1, 0, 1, 2, 5, 100]


@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
def test_tril_triu_match_cpu_for_every_dtype(dtype):
    x = values(5, 7, dtype=dtype)
    for k in (-2, 0, 3):
        assert_same_layout(x.cuda().tril(k), x.tril(k))
        assert_same_layout(torch.triu(x.cuda(), k), torch.triu(x, k))
        assert_same_layout(x.cuda().tril_(k), x.clone().tril_(k))
        assert_same_layout(x.cuda().triu_(k), x.clone().triu_(k))


@pytest.mark.parametrize("k", DIAGONALS)
@pytest.mark.parametrize("shape", [(5, 5), (4, 7), (7, 4), (1, 6), (6, 1), (3, 5, 4), (2, 3, 4, 6)], ids=str)
def test_tril_triu_of_every_diagonal_and_batched_shape_match_cpu(shape, k):
    """Diagonals below, on, above and beyond the matrix; each matrix of a batch on its own."""
    x = values(*shape, dtype=torch.float64)
    assert_same_layout(x.cuda().tril(k), x.tril(k))
    assert_same_layout(x.cuda().triu(k), x.triu(k))
    assert_same_layout(torch.tril(x.cuda(), diagonal=k), torch.tril(x, diagonal=k))


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_tril_triu_of_non_contiguous_input_match_cpu(view, k):
    cpu, dev = cpu_and_cuda_views(VIEWS[view], values(4, 6, 9))
    assert_same_layout(dev.tril(k), cpu.tril(k))
    assert_same_layout(dev.triu(k), cpu.triu(k))


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("op", ["tril_", "triu_"])
def test_in_place_tril_triu_of_a_view_writes_through_to_its_base(view, op):
    """tril_ on a non-contiguous view zeroes elements of the base, in place, and leaves the rest."""
    base = values(4, 6, 9)
    base_dev = base.cuda()
    want = getattr(VIEWS[view](base), op)(1)
    got = getattr(VIEWS[view](base_dev), op)(1)
    assert_same_layout(got, want)
    assert_same(base_dev, base)


def test_in_place_tril_triu_return_self():
    x = values(3, 4).cuda()
    assert x.tril_() is x
    assert x.triu_(-1) is x
    assert_same(x, values(3, 4).tril_().triu_(-1))


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0), (2, 0, 4), (0, 3, 3)], ids=str)
def test_tril_triu_of_empty_tensors_match_cpu(shape):
    x = torch.empty(shape)
    for k in (-1, 0, 1):
        assert_same_layout(x.cuda().tril(k), x.tril(k))
        assert_same_layout(x.cuda().triu(k), x.triu(k))
        assert_same_layout(x.cuda().tril_(k), x.clone().tril_(k))
        assert_same_layout(x.cuda().triu_(k), x.clone().triu_(k))


def test_tril_triu_of_large_batch_span_many_blocks():
    x = values(3, 181, 203, dtype=torch.float32)
    for k in (-50, 0, 77):
        assert_same(x.cuda().tril(k), x.tril(k))
        assert_same(x.cuda().triu(k), x.triu(k))
        assert_same(x.cuda().transpose(0, 2).tril(k), x.transpose(0, 2).tril(k))
    assert_same(x.cuda().triu_(3), x.clone().triu_(3))


@pytest.mark.filterwarnings("ignore:ComplexHalf support is experimental")
def test_complex32_is_handled_like_the_cpu():
    """numpy has no complex32, so these are compared widened to complex64 (exactly)."""
    x = values(3, 4, dtype=torch.complex64).to(torch.complex32)
    for got, want in ((x.cuda().flip(1), x.flip(1)), (x.cuda().roll(1, 0), x.roll(1, 0)),
                      (x.cuda().tril(), x.tril()), (x.cuda().triu(1), x.triu(1))):
        assert got.dtype == want.dtype == torch.complex32
        assert_same(got.to(torch.complex64), want.to(torch.complex64))


# ---------------------------------------------------------------------------------------
# Errors: the same type and message as on the CPU
# ---------------------------------------------------------------------------------------

ERRORS = {
    "flip_repeated_dim": lambda t: t.flip(0, 0),
    "flip_repeated_wrapped_dim": lambda t: t.flip(1, -2),
    "flip_dim_out_of_range": lambda t: t.flip(3),
    "flip_negative_dim_out_of_range": lambda t: t.flip(-4),
    "flip_scalar_dim": lambda t: t[0, 0, 0].flip(1),
    "fliplr_1d": lambda t: torch.fliplr(t[0, 0]),
    "roll_no_shifts": lambda t: t.roll([], []),
    "roll_shifts_and_dims_differ": lambda t: t.roll([1, 2], [0]),
    "roll_more_dims_than_shifts": lambda t: t.roll([1], [0, 1]),
    "roll_dim_out_of_range": lambda t: t.roll(1, 3),
    "roll_later_dim_out_of_range": lambda t: t.roll((1, 1), (0, -5)),
    "roll_scalar_with_dim": lambda t: t[0, 0, 0].roll(1, 0),
    "roll_scalar_with_negative_dim": lambda t: t[0, 0, 0].roll(1, -1),
    "tril_1d": lambda t: t[0, 0].tril(),
    "triu_scalar": lambda t: t[0, 0, 0].triu(1),
    "tril__1d": lambda t: t[0, 0].tril_(),
    "triu__1d": lambda t: t[0, 0].triu_(-1),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_cpu(name):
    x = values(2, 3, 4)
    want = raised(lambda: ERRORS[name](x))
    assert raised(lambda: ERRORS[name](x.cuda())) == want


# ---------------------------------------------------------------------------------------
# Gradients, in double precision on the device
# ---------------------------------------------------------------------------------------

GRADCHECK = {
    "flip": (lambda x: x.flip(0, -1), (3, 4, 2)),
    "roll": (lambda x: x.roll(2, 1), (3, 5)),
    "roll_dims": (lambda x: x.roll((-1, 3), (0, 2)), (3, 2, 4)),
    "roll_flat": (lambda x: x.roll(-4), (3, 5)),
    "tril": (lambda x: x.tril(), (4, 4)),
    "tril_batched": (lambda x: x.tril(-1), (2, 3, 5)),
    "triu": (lambda x: x.triu(1), (5, 3)),
    "triu_transposed": (lambda x: x.transpose(0, 1).triu(-2), (4, 6)),
}


@pytest.mark.parametrize("name", sorted(GRADCHECK))
def test_gradcheck_on_cuda(name):
    fn, shape = GRADCHECK[name]
    g = torch.Generator().manual_seed(0)
    x = torch.randn(*shape, generator=g, dtype=torch.float64).cuda().requires_grad_()
    assert torch.autograd.gradcheck(fn, (x,), eps=1e-6, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("name", sorted(GRADCHECK))
def test_backward_matches_cpu(name):
    fn, shape = GRADCHECK[name]
    x = values(*shape, dtype=torch.float64)
    grads = []
    for device in ("cpu", "cuda"):
        leaf = x.to(device).detach().requires_grad_()
        out = fn(leaf)
        out.backward(torch.arange(out.numel(), dtype=torch.float64, device=device).view(out.shape))
        grads.append(leaf.grad)
    assert_same(grads[1], grads[0])


# ---------------------------------------------------------------------------------------
# cat, stack, repeat and constant padding: compositions of copies
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16, torch.complex64], ids=_id)
def test_cat_and_stack_match_cpu(dtype):
    a, b, c = values(2, 3, 4, dtype=dtype), values(2, 1, 4, dtype=dtype, seed=1), values(2, 5, 4, dtype=dtype, seed=2)
    assert_same(torch.cat([a.cuda(), b.cuda(), c.cuda()], 1), torch.cat([a, b, c], 1))
    assert_same(torch.cat([a.cuda(), a.cuda()], -1), torch.cat([a, a], -1))
    assert_same(torch.cat([a.cuda().transpose(0, 2), a.cuda().transpose(0, 2)], 0),
                torch.cat([a.transpose(0, 2), a.transpose(0, 2)], 0))
    # A 1-d empty tensor is skipped whatever the other shapes (PyTorch's legacy rule).
    empty = torch.empty(0, dtype=dtype)
    assert_same(torch.cat([a.cuda(), empty.cuda()], 0), torch.cat([a, empty], 0))
    for dim in (0, 1, 3, -1):
        assert_same(torch.stack([a.cuda(), b.cuda().expand(2, 3, 4)], dim), torch.stack([a, b.expand(2, 3, 4)], dim))
    assert_same(torch.stack([a.cuda()[:, ::2], c.cuda()[:, 1:3]], 1), torch.stack([a[:, ::2], c[:, 1:3]], 1))


@pytest.mark.parametrize("sizes", [(2, 1), (1, 3), (2, 1, 2), (3, 2, 1, 2), (0, 2)], ids=str)
def test_repeat_matches_cpu(sizes):
    x = values(2, 3)
    assert_same(x.cuda().repeat(*sizes), x.repeat(*sizes))
    assert_same(x.cuda().t().repeat(*sizes), x.t().repeat(*sizes))
    assert_same(x.cuda()[0].repeat(*sizes), x[0].repeat(*sizes))


@pytest.mark.parametrize("pad", [(1, 2), (0, 0, 2, 1), (1, 1, 1, 1, 1, 1), (-1, 2), (3, -1, 0, 2)], ids=str)
def test_constant_pad_matches_cpu(pad):
    x = values(2, 3, 4)
    for value in (0.0, -2.5):
        assert_same(F.pad(x.cuda(), pad, value=value), F.pad(x, pad, value=value))
        assert_same(F.pad(x.cuda().transpose(1, 2), pad, mode="constant", value=value),
                    F.pad(x.transpose(1, 2), pad, mode="constant", value=value))
    xi = values(3, 5, dtype=torch.int32)
    assert_same(F.pad(xi.cuda(), pad[:2], value=7), F.pad(xi, pad[:2], value=7))
