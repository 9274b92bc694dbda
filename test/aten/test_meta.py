# test/aten/test_meta.py - the Meta device: operators compute their result's shape, dtype and
# strides, allocate no bytes and run no loop (the operator body runs, the DispatchStub skips
# the kernel). Mirrors the meta checks of PyTorch's test/test_meta.py, with results worked out
# by hand and checked against the same ops on CPU. Guide: docs/source/internals/tensor_iterator.rst.
import pytest
import torch


def meta(*shape, dtype=torch.float32):
    return torch.empty(*shape, device="meta", dtype=dtype)


def same_metadata(m, c):
    """m (meta) and c (the CPU result of the same op) agree on everything but the values."""
    assert m.is_meta
    assert m.device == torch.device("meta")
    assert m.shape == c.shape
    assert m.dtype == c.dtype
    assert m.stride() == c.stride()


def test_factories_and_to_make_meta_tensors():
    for t in [torch.zeros(2, 3, device="meta"), torch.ones(2, 3, device="meta"), torch.ones(2, 3).to(device="meta"),
              torch.empty(2, 3, device="meta"), torch.full((2, 3), 7.0, device="meta")]:
        assert t.is_meta and t.shape == (2, 3) and t.dtype == torch.float32
    assert torch.ones(2, dtype=torch.int64).to(device="meta").dtype == torch.int64


def test_printing_shows_no_values():
    assert repr(meta(2, 3) + 1) == "tensor(..., device='meta', size=(2, 3))"
    assert repr(meta(2, 3) < 1) == "tensor(..., device='meta', size=(2, 3), dtype=torch.bool)"


@pytest.mark.parametrize("op", [
    lambda a, b: a + b,
    lambda a, b: a.add(b, alpha=2),
    lambda a, b: a * b,
    lambda a, b: a - b,
    lambda a, b: a / b,
    lambda a, b: a // b,
    lambda a, b: a ** b,
    lambda a, b: torch.maximum(a, b),
    lambda a, b: torch.atan2(a, b),
    lambda a, b: a < b,
    lambda a, b: a == b,
    lambda a, b: torch.logical_and(a, b),
    lambda a, b: torch.where(a > 0, a, b),
    lambda a, b: torch.lerp(a, b.to(torch.float32), 0.5),
    lambda a, b: torch.addcmul(a, a, b),
])
def test_binary_ops_broadcast_like_cpu(op):
    a, b = torch.rand(2, 1, 3), torch.rand(4, 1, dtype=torch.float64)
    same_metadata(op(a.to(device="meta"), b.to(device="meta")), op(a, b))


@pytest.mark.parametrize("name", ["neg", "abs", "exp", "log", "log1p", "sqrt", "sin", "tanh", "sigmoid", "floor",
                                  "round", "sign", "sgn", "angle", "relu", "reciprocal", "isnan", "logical_not"])
def test_unary_ops(name):
    c = torch.ones(3, 4).t()  # non-contiguous: the output keeps the input's layout
    same_metadata(getattr(torch, name)(c.to(device="meta")), getattr(torch, name)(c))


def test_integer_inputs_promote_to_float():
    m = meta(2, 3, dtype=torch.int64)
    assert (m.exp()).dtype == torch.float32
    assert (m * 2.5).dtype == torch.float32
    assert (m + 1).dtype == torch.int64
    assert (m / 2).dtype == torch.float32


def test_in_place_and_out_keep_the_given_tensor():
    m = meta(2, 3)
    assert m.add_(1) is m
    assert m.exp_() is m
    out = meta(0)
    r = torch.mul(meta(2, 3), meta(3), out=out)
    assert r is out and out.shape == (2, 3)


def test_in_place_refuses_what_cpu_refuses():
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        meta(2, dtype=torch.int64).add_(1.5)
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        meta(3).add_(meta(2, 3))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(3\)"):
        meta(2) + meta(3)


@pytest.mark.parametrize("op", [
    lambda t: t.sum(),
    lambda t: t.sum(1),
    lambda t: t.sum((0, 2), keepdim=True),
    lambda t: t.mean(1, keepdim=True),
    lambda t: t.amax(0),
    lambda t: t.amin((1, 2)),
    lambda t: t.prod(2),
    lambda t: t.std(1),
    lambda t: t.var(0, keepdim=True),
    lambda t: t.norm(),
    lambda t: t.argmax(1),
    lambda t: t.max(),
    lambda t: t.all(1),
    lambda t: t.cumsum(1),
    lambda t: t.sum(1, dtype=torch.float64),
])
def test_reductions(op):
    c = torch.ones(2, 3, 4)
    same_metadata(op(c.to(device="meta")), op(c))


def test_max_with_dim_returns_values_and_indices():
    values, indices = meta(2, 3).max(1)
    assert values.is_meta and values.shape == (2,) and values.dtype == torch.float32
    assert indices.is_meta and indices.shape == (2,) and indices.dtype == torch.int64


def test_integer_sum_widens_to_int64():
    assert meta(2, 3, dtype=torch.int32).sum().dtype == torch.int64


@pytest.mark.parametrize("op", [
    lambda a, b: a.mm(b),
    lambda a, b: a @ b,
    lambda a, b: torch.matmul(a.expand(5, 2, 3), b),
    lambda a, b: torch.addmm(torch.ones(4).to(device=a.device), a, b),
    lambda a, b: a[0] @ b,
    lambda a, b: torch.dot(a[0], b[:, 0]),
])
def test_matmul_family(op):
    a, b = torch.ones(2, 3), torch.ones(3, 4)
    same_metadata(op(a.to(device="meta"), b.to(device="meta")), op(a, b))


def test_matmul_shape_errors_are_cpus():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)"):
        meta(2, 3).mm(meta(2, 3))


def test_views_share_nothing_but_metadata():
    m = meta(4, 6)
    assert m.view(3, 8).shape == (3, 8)
    assert m.t().stride() == (1, 6)
    assert m[1:, ::2].stride() == (6, 2)
    assert m.t().contiguous().stride() == (4, 1)
    assert m.t().exp().stride() == (1, 6)  # the output follows the input's layout


def test_a_meta_tensor_and_a_cpu_tensor_do_not_mix():
    with pytest.raises(RuntimeError, match="^Tensor on device cpu is not on the expected device meta!$"):
        meta(2, 3) + torch.ones(2, 3)
    with pytest.raises(RuntimeError, match="^Tensor on device meta is not on the expected device cpu!$"):
        torch.ones(2, 3) + meta(2, 3)
    with pytest.raises(RuntimeError, match="^Tensor on device cpu is not on the expected device meta!$"):
        meta(2, 3).mul_(torch.ones(3))


def test_cpu_scalars_may_join_a_meta_op():
    assert (meta(2, 3) + torch.tensor(1.0)).is_meta
    assert (torch.tensor(1.0) + meta(2, 3)).is_meta


def test_data_stays_out_of_reach():
    m = meta(2, 3)
    with pytest.raises(NotImplementedError, match="Cannot copy out of meta tensor; no data!"):
        torch.ones(2, 3).copy_(m)
    with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
        m.numpy()
