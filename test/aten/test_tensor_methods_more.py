# test/aten/test_tensor_methods_more.py - the Tensor methods new_zeros/new_ones/new_empty/new_full/
# new_empty_strided/new_tensor, swapaxes/swapdims, repeat_interleave, the in-place views t_,
# transpose_, squeeze_ and unsqueeze_ (sizes, strides, version counter, autograd), index_copy,
# put, resize_as_, cpu() and torch._C._TensorBase: values, dtypes and devices, errors whose type
# and text were taken from PyTorch 2.13, gradients (gradcheck in float64) and a Hypothesis
# property. Mirrors parts of PyTorch's test/test_torch.py and test/test_view_ops.py.
# Guide: docs/source/internals/programs/native_ops.rst.
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch


def np_of(t):
    return t.detach().numpy()


def shares_storage(a, b):
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def d(*shape, seed=0):
    g = np.random.default_rng(seed)
    return torch.tensor(g.standard_normal(shape), dtype=torch.float64, requires_grad=True)


# ---- new_* ----

def test_new_factories_take_dtype_and_device_from_self():
    x = torch.ones(2, dtype=torch.int8)
    z = x.new_zeros(2, 3)
    assert z.dtype == torch.int8 and z.shape == (2, 3) and z.device == x.device and z.tolist() == [[0] * 3] * 2
    o = x.new_ones((2,))
    assert o.dtype == torch.int8 and o.tolist() == [1, 1]
    f = torch.ones(1).new_full((2,), 3, dtype=torch.int8)
    assert f.dtype == torch.int8 and f.tolist() == [3, 3]
    assert torch.ones(1, dtype=torch.float64).new_full([2], 7).tolist() == [7.0, 7.0]
    e = torch.ones(2, 3).new_empty([4, 5])
    assert e.shape == (4, 5) and e.dtype == torch.float32
    s = torch.ones(2, 3).new_empty_strided((2, 3), (1, 2))
    assert s.shape == (2, 3) and s.stride() == (1, 2)
    assert x.new_zeros([]).shape == ()


def test_new_factories_requires_grad_and_no_history():
    x = torch.ones(2, requires_grad=True)
    y = x.new_zeros(2, 3)
    assert not y.requires_grad and y.grad_fn is None
    assert x.new_ones(2, requires_grad=True).requires_grad
    assert torch.ones(2, 3).new_zeros(2, 3, requires_grad=True).is_leaf


def test_new_empty_negative_size():
    with pytest.raises(RuntimeError, match="Trying to create tensor with negative dimension -1"):
        torch.ones(2).new_empty(-1)


def test_new_tensor():
    x = torch.arange(6).reshape(2, 3)
    assert x.new_tensor([1.5, 2.7]).tolist() == [1, 2]  # self's dtype
    assert x.new_tensor([1.5], dtype=torch.float64).dtype == torch.float64
    src = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="To copy construct from a tensor, it is recommended to use"):
        y = x.new_tensor(src)
    assert y.tolist() == [1, 2] and y.dtype == torch.int64 and not y.requires_grad
    z = torch.ones(1).new_tensor([3.0], requires_grad=True)
    assert z.requires_grad and z.is_leaf
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        w = torch.ones(1).new_tensor(src)
    assert not shares_storage(w, src)


# ---- swapaxes / swapdims ----

def test_swapaxes_swapdims():
    x = torch.zeros(2, 3, 4)
    for y in (torch.swapaxes(x, 0, 2), x.swapaxes(0, -1), torch.swapdims(x, 0, 2), x.swapdims(2, 0)):
        assert y.shape == (4, 3, 2) and y.stride() == (1, 4, 12) and shares_storage(x, y)
    v = x._version
    assert x.swapaxes_(0, 1) is x and x.shape == (3, 2, 4) and x._version == v + 1
    x.swapdims_(1, 2)
    assert x.shape == (3, 4, 2)


# ---- in-place views ----

def test_inplace_views_change_sizes_strides_and_version():
    t = torch.arange(6.0).reshape(2, 3)
    ptr, v = t.data_ptr(), t._version
    assert t.t_() is t
    assert t.shape == (3, 2) and t.stride() == (1, 3) and t._version == v + 1 and t.data_ptr() == ptr
    np.testing.assert_array_equal(np_of(t), np.arange(6.0).reshape(2, 3).T)
    t.unsqueeze_(0)
    assert t.shape == (1, 3, 2) and t.stride() == (3, 1, 3) and t._version == v + 2
    t.squeeze_()
    assert t.shape == (3, 2) and t._version == v + 3
    t.transpose_(0, 1)
    assert t.shape == (2, 3) and t.stride() == (3, 1) and t._version == v + 4
    u = torch.zeros(1, 2, 1, 3)
    u.squeeze_(2)
    assert u.shape == (1, 2, 3)
    u.squeeze_((0,))
    assert u.shape == (2, 3)
    u.unsqueeze_(-1)
    assert u.shape == (2, 3, 1)
    one = torch.tensor([5.0])
    one.t_()
    assert one.shape == (1,)


def test_inplace_views_record_autograd_nodes():
    a = torch.ones(2, 3, requires_grad=True)
    b = a * 1
    b.t_()
    assert type(b.grad_fn).__name__ == "TBackward1"
    assert type(b.grad_fn.next_functions[0][0]).__name__ == "MulBackward0"
    b.unsqueeze_(1)
    assert type(b.grad_fn).__name__ == "UnsqueezeBackward1"
    b.squeeze_()
    assert type(b.grad_fn).__name__ == "SqueezeBackward3"
    b.unsqueeze_(0)
    b.squeeze_(0)
    assert type(b.grad_fn).__name__ == "SqueezeBackward4"
    b.unsqueeze_(0)
    b.squeeze_((0,))
    assert type(b.grad_fn).__name__ == "SqueezeBackward5"
    b.transpose_(0, 1)
    assert type(b.grad_fn).__name__ == "TransposeBackward1"
    (b * torch.arange(6.0).reshape(2, 3)).sum().backward()
    np.testing.assert_array_equal(np_of(a.grad), np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: torch.zeros(2, 2, 2).t_(), RuntimeError, "t_() expects a tensor with <= 2 dimensions, but self is 3D"),
    (lambda: torch.zeros(2, 2).transpose_(0, 2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: torch.zeros(2, 2).unsqueeze_(3), IndexError,
     "Dimension out of range (expected to be in range of [-3, 2], but got 3)"),
    (lambda: torch.zeros(2, 2).squeeze_(2), IndexError,
     "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    (lambda: torch.ones(2, requires_grad=True).t_(), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
])
def test_inplace_view_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert msg in str(info.value)


@pytest.mark.parametrize("fn", [
    lambda x: x.clone().t_(),
    lambda x: x.clone().transpose_(0, 1),
    lambda x: x.clone().unsqueeze_(1).mul(2),
    lambda x: x.clone().unsqueeze_(0).squeeze_(),
])
def test_inplace_view_gradcheck(fn):
    assert torch.autograd.gradcheck(fn, (d(2, 3),), eps=1e-6, atol=1e-5)


# ---- repeat_interleave ----

def test_repeat_interleave_values():
    x = torch.tensor([[1, 2], [3, 4]])
    np.testing.assert_array_equal(np_of(x.repeat_interleave(2)), np.repeat(np_of(x), 2))
    np.testing.assert_array_equal(np_of(torch.repeat_interleave(x, 3, dim=1)), np.repeat(np_of(x), 3, axis=1))
    np.testing.assert_array_equal(np_of(torch.repeat_interleave(x, torch.tensor([1, 2]), dim=0)),
                                  np.repeat(np_of(x), [1, 2], axis=0))
    assert torch.repeat_interleave(x, torch.tensor([2]), dim=-1).shape == (2, 4)
    assert torch.repeat_interleave(x, torch.tensor(0), dim=0).shape == (0, 2)
    assert torch.repeat_interleave(torch.tensor([2, 0, 1])).tolist() == [0, 0, 2]
    r = torch.repeat_interleave(torch.tensor([1, 2], dtype=torch.int32))
    assert r.dtype == torch.int32 and r.tolist() == [0, 1, 1]
    assert torch.repeat_interleave(torch.tensor([1, 2]), output_size=3).tolist() == [0, 1, 1]
    assert x.repeat_interleave(torch.tensor([1, 0]), dim=0, output_size=1).tolist() == [[1, 2]]


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: torch.repeat_interleave(torch.ones(2, 2, dtype=torch.long)), RuntimeError,
     "repeat_interleave only accept 1D vector as repeat"),
    (lambda: torch.repeat_interleave(torch.ones(2)), NotImplementedError,
     "\"repeat_interleave_cpu\" not implemented for 'Float'"),
    (lambda: torch.repeat_interleave(torch.tensor([1, -1])), RuntimeError, "repeats can not be negative"),
    (lambda: torch.repeat_interleave(torch.ones(2, 3), torch.tensor([1, 2]), dim=1), RuntimeError,
     "repeats must have the same size as input along dim, but got repeats.size(0) = 2 and input.size(1) = 3"),
    (lambda: torch.ones(2, 3).repeat_interleave(torch.ones(2, 2, dtype=torch.long), dim=0), RuntimeError,
     "repeats must be 0-dim or 1-dim tensor"),
    (lambda: torch.repeat_interleave(torch.tensor([1, 2]), output_size=4), RuntimeError,
     "allocated size does not match required size"),
])
def test_repeat_interleave_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert msg in str(info.value)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=6), st.integers(0, 1))
def test_repeat_interleave_matches_numpy(counts, dim):
    x = torch.arange(len(counts) * 2).reshape(len(counts), 2) if dim == 0 else torch.arange(len(counts) * 2).reshape(
        2, len(counts))
    got = x.repeat_interleave(torch.tensor(counts), dim=dim)
    np.testing.assert_array_equal(np_of(got), np.repeat(np_of(x), counts, axis=dim))


# ---- index_copy, put ----

def test_index_copy():
    x = torch.zeros(4, 3)
    src = torch.arange(6.0).reshape(2, 3)
    got = x.index_copy(0, torch.tensor([3, 1]), src)
    assert got.tolist() == [[0.0] * 3, [3.0, 4.0, 5.0], [0.0] * 3, [0.0, 1.0, 2.0]]
    assert x.abs().sum().item() == 0  # the functional form copies
    y = torch.zeros(2, 4)
    v = y._version
    assert y.index_copy_(1, torch.tensor([0, 2]), torch.tensor([[1.0, 3.0], [2.0, 4.0]])) is y
    assert y._version == v + 1
    assert y.tolist() == [[1.0, 0.0, 3.0, 0.0], [2.0, 0.0, 4.0, 0.0]]
    out = torch.empty(0)
    torch.index_copy(torch.ones(3), 0, torch.tensor([1]), torch.tensor([9.0]), out=out)
    assert out.tolist() == [1.0, 9.0, 1.0]
    assert torch.zeros(3).index_copy(0, torch.tensor([2]), torch.tensor(5.0)).tolist() == [0.0, 0.0, 5.0]


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: torch.zeros(3).index_copy(0, torch.tensor([[0]]), torch.ones(1)), IndexError,
     "index_copy_(): Index should have dimension 1 or 0 (got 2)"),
    (lambda: torch.zeros(3).index_copy(0, torch.tensor([0.0]), torch.ones(1)), RuntimeError,
     "index_copy_(): Expected a long tensor for index, but got Float"),
    (lambda: torch.zeros(3).index_copy(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64)), RuntimeError,
     "index_copy_(): self and source expected to have the same dtype, but got (self) Float and (source) Double"),
    (lambda: torch.zeros(3).index_copy(0, torch.tensor([0, 1]), torch.ones(3)), IndexError,
     "index_copy_(): Number of indices (2) should be equal to source.size(dim) (3)"),
    (lambda: torch.zeros(3).index_copy(0, torch.tensor([5]), torch.ones(1)), IndexError,
     "index_copy_(): index 5 is out of bounds for dimension 0 with size 3"),
    (lambda: torch.zeros(3).index_copy(0, torch.tensor([-1]), torch.ones(1)), IndexError,
     "index_copy_(): index -1 is out of bounds for dimension 0 with size 3"),
    (lambda: torch.zeros(3, 2, 4).index_copy(0, torch.tensor([0]), torch.ones(1, 3, 5)), RuntimeError,
     "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: 2 4 at dimension "
     "0 and source slice shape: 3 5 at dimension 0."),
    (lambda: torch.zeros(3, 2).index_copy(0, torch.tensor([0]), torch.ones(2)), IndexError,
     "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source "
     "dimensionality (1), destination dimensionality (2)"),
    (lambda: torch.zeros(3).index_copy(0, torch.tensor([0, 1]), torch.tensor(5.0)), IndexError,
     "index_copy_(): When source is scalar, index should have one element (got 2)"),
])
def test_index_copy_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert msg in str(info.value)


def test_put():
    x = torch.zeros(2, 3)
    got = x.put(torch.tensor([1, -1]), torch.tensor([5.0, 7.0]))
    assert got.tolist() == [[0.0, 5.0, 0.0], [0.0, 0.0, 7.0]] and x.abs().sum().item() == 0
    acc = torch.put(x, torch.tensor([1, 1, -1]), torch.tensor([1.0, 2.0, 3.0]), accumulate=True)
    assert acc.tolist() == [[0.0, 3.0, 0.0], [0.0, 0.0, 3.0]]
    # row-major positions also on a transposed (non-contiguous) tensor
    t = torch.zeros(3, 2).t()
    v = t._version
    assert t.put_(torch.tensor([[0, 4]]), torch.tensor([[1.0, 2.0]])) is t and t._version == v + 1
    assert t.tolist() == [[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: torch.zeros(3).put(torch.tensor([0], dtype=torch.int32), torch.ones(1)), RuntimeError,
     "put_(): Expected a long tensor for index, but got Int"),
    (lambda: torch.zeros(3).put(torch.tensor([0]), torch.ones(1, dtype=torch.float64)), RuntimeError,
     "put_(): self and source expected to have the same dtype, but got self.dtype = Float and source.dtype = Double"),
    (lambda: torch.zeros(3).put(torch.tensor([0, 1]), torch.ones(3)), IndexError,
     "put_(): Expected source and index to have the same number of elements, but got source.numel() = 3, "
     "index.numel() = 2"),
    (lambda: torch.zeros(2, 3).put(torch.tensor([10]), torch.ones(1)), IndexError,
     "out of range: tried to access index 10 on a tensor of 6 elements."),
    (lambda: torch.zeros(2, 3).put(torch.tensor([-7]), torch.ones(1)), IndexError,
     "out of range: tried to access index -7 on a tensor of 6 elements."),
    (lambda: torch.zeros(0).put(torch.tensor([0]), torch.ones(1)), IndexError,
     "put_(): Tried to put elements into an empty tensor"),
])
def test_put_errors(call, exc, msg):
    with pytest.raises(exc) as info:
        call()
    assert msg in str(info.value)


@pytest.mark.parametrize("fn, inputs", [
    (lambda x, s: x.index_copy(0, torch.tensor([2, 0]), s), lambda: (d(3, 2), d(2, 2, seed=1))),
    (lambda x, s: x.index_copy(1, torch.tensor([1]), s), lambda: (d(3, 2), d(3, 1, seed=1))),
    (lambda x, s: x.put(torch.tensor([4, 0, -1]), s), lambda: (d(2, 3), d(3, seed=1))),
    (lambda x, s: x.put(torch.tensor([4, 4, 1]), s, accumulate=True), lambda: (d(2, 3), d(3, seed=1))),
    (lambda x: x.repeat_interleave(torch.tensor([2, 0, 1]), dim=1), lambda: (d(2, 3),)),
    (lambda x: x.repeat_interleave(3), lambda: (d(2, 2),)),
    (lambda x: torch.swapaxes(x, 0, 1), lambda: (d(2, 3),)),
])
def test_gradcheck(fn, inputs):
    assert torch.autograd.gradcheck(fn, inputs(), eps=1e-6, atol=1e-5)


def test_index_copy_and_put_nodes():
    x, s = d(3, 2), d(1, 2, seed=1)
    assert type(x.index_copy(0, torch.tensor([1]), s).grad_fn).__name__ == "IndexCopyBackward0"
    assert type(x.put(torch.tensor([1, 2]), s).grad_fn).__name__ == "PutBackward0"


# ---- resize_as_, cpu, _TensorBase ----

def test_resize_as_():
    x = torch.arange(4.0)
    assert x.resize_as_(torch.zeros(2, 2)) is x and x.shape == (2, 2) and x.tolist() == [[0.0, 1.0], [2.0, 3.0]]
    y = torch.zeros(2)
    torch.resize_as_(y, torch.zeros(3, 2))
    assert y.shape == (3, 2)
    with pytest.raises(RuntimeError, match="cannot resize variables that require grad"):
        torch.zeros(2, requires_grad=True).resize_as_(torch.zeros(3))


def test_cpu_and_tensorbase_alias():
    x = torch.ones(2)
    assert x.cpu() is x
    assert torch._C._TensorBase is torch._C.TensorBase
    assert isinstance(x, torch._C._TensorBase)
