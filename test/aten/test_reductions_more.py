# test/aten/test_reductions_more.py - float sums and means with PyTorch's digits (the cascade
# sum and its thread split), and the reductions, scans, searches and losses added beside
# them: nansum, aminmax, cummax/cummin, median/nanmedian, quantile/nanquantile, bincount,
# searchsorted/bucketize, linear, l1_loss, kl_div, cross_entropy_loss.
# Mirrors PyTorch's test/test_reductions.py and test/test_sort_and_select.py.
# Guide: docs/source/internals/programs/random_streams.rst.
import hashlib
import struct

import numpy as np
import numpy.testing as npt
import pytest
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck

from pytorch_fixtures import REDUCTIONS, SUM_SHAPES

ERRORS = REDUCTIONS["errors"]


def floats(t):
    return [float(x) for x in t.reshape(-1).tolist()]


def ints(t):
    return [int(x) for x in t.reshape(-1).tolist()]


def digest(values):
    if len(values) <= 64:
        return values
    return [len(values), values[:4], hashlib.md5(struct.pack(f"{len(values)}d", *values)).hexdigest()]


@pytest.fixture
def threads():
    saved = torch.get_num_threads()
    yield
    torch.set_num_threads(saved)


@pytest.mark.parametrize("nthreads", [1, 2, 3])
def test_sum_and_mean_digits_match_pytorch(threads, nthreads):
    # A full reduction of 32768+ elements is split across threads as PyTorch splits it,
    # so the digits depend on the thread count exactly as PyTorch's do.
    torch.set_num_threads(nthreads)
    for i, ((shape, dim), expected) in enumerate(zip(SUM_SHAPES, REDUCTIONS[nthreads])):
        torch.manual_seed(i)
        x = torch.randn(*shape)
        s = x.sum() if dim is None else x.sum(dim)
        m = x.mean() if dim is None else x.mean(dim)
        xd = x.double() * 3
        sd = xd.sum() if dim is None else xd.sum(dim)
        t = x.t().sum(0) if x.dim() == 2 else x.sum(-1)
        got = [digest(floats(s)), digest(floats(m)), digest(floats(sd)), digest(floats(t))]
        assert got == [list(e) if isinstance(e, tuple) else e for e in expected], (shape, dim)


def test_the_two_examples(threads):
    torch.set_num_threads(2)
    torch.manual_seed(0)
    assert floats(torch.randn(100003).sum()) == REDUCTIONS["randn_100003_sum"]
    torch.manual_seed(0)
    assert floats(torch.randn(1000, 37).mean(0)) == REDUCTIONS["randn_1000_37_mean0"]


def test_nansum_matches_pytorch_and_numpy(threads):
    torch.set_num_threads(2)
    torch.manual_seed(3)
    x = torch.randn(500, 7)
    x[x > 1.5] = float("nan")
    assert floats(x.nansum()) == REDUCTIONS["nansum_all"]
    assert floats(x.nansum(0)) == REDUCTIONS["nansum_0"]
    assert floats(torch.nansum(x, 1)) == REDUCTIONS["nansum_1"]
    npt.assert_allclose(torch.nansum(x.double(), 0).numpy(), np.nansum(x.double().numpy(), 0), rtol=1e-12)
    assert torch.nansum(torch.tensor([1, 2, 3])).item() == 6
    out = torch.empty(0)
    assert torch.nansum(x, 0, keepdim=True, out=out) is out and out.shape == (1, 7)
    with pytest.raises(RuntimeError, match="does not support complex inputs"):
        torch.nansum(torch.ones(2, dtype=torch.complex64))


def test_nansum_gradient():
    x = torch.tensor([1.0, float("nan"), 3.0], dtype=torch.float64, requires_grad=True)
    x.nansum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 1.0]


def test_aminmax():
    x = torch.tensor([[3.0, -1.0, 7.0], [2.0, 9.0, -4.0]])
    r = torch.aminmax(x)
    assert type(r).__name__ == "aminmax" and r.min.item() == -4.0 and r.max.item() == 9.0
    r = x.aminmax(dim=1, keepdim=True)
    assert r.min.tolist() == [[-1.0], [-4.0]] and r.max.tolist() == [[7.0], [9.0]]
    assert torch.aminmax(x, keepdim=True).min.shape == (1, 1)
    mn, mx = torch.empty(0), torch.empty(0)
    r = torch.aminmax(x, dim=0, out=(mn, mx))
    assert type(r).__name__ == "aminmax_out" and r.min is mn
    assert mn.tolist() == [2.0, -1.0, -4.0] and mx.tolist() == [3.0, 9.0, 7.0]
    with pytest.raises(RuntimeError) as info:
        torch.aminmax(torch.ones(0))
    assert str(info.value).split("\n")[0] == ERRORS["aminmax_empty"][1]
    a = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: torch.aminmax(t, dim=1), (a,))
    assert gradcheck(lambda t: torch.aminmax(t).max, (a,))


def test_cummax_cummin_against_numpy():
    torch.manual_seed(0)
    x = torch.randint(0, 5, (4, 9)).float()
    r = torch.cummax(x, 1)
    assert type(r).__name__ == "cummax"
    npt.assert_array_equal(r.values.numpy(), np.maximum.accumulate(x.numpy(), 1))
    npt.assert_array_equal(x.cummin(0).values.numpy(), np.minimum.accumulate(x.numpy(), 0))
    # Ties move the index forward, as in PyTorch.
    assert torch.cummax(torch.tensor([1.0, 1.0, 0.0, 1.0]), 0).indices.tolist() == [0, 1, 1, 3]
    assert torch.cummin(torch.tensor([2.0, float("nan"), 1.0, float("nan")]), 0).indices.tolist() == [0, 1, 1, 3]
    v, i = torch.empty(0), torch.empty(0, dtype=torch.long)
    torch.cummax(x, 1, out=(v, i))
    assert v.shape == x.shape and i.dtype == torch.int64
    a = torch.randn(3, 5, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: torch.cummax(t, 1).values, (a,))
    assert gradcheck(lambda t: torch.cummin(t, 0).values, (a,))


def test_median_and_nanmedian():
    torch.manual_seed(4)
    y = torch.randn(9, 11)
    r = y.median(1)
    assert type(r).__name__ == "median"
    assert [floats(r.values), ints(r.indices)] == REDUCTIONS["median_dim"]
    assert torch.median(torch.tensor([4.0, 1.0, 3.0, 2.0])).item() == 2.0  # the lower median
    assert torch.median(torch.tensor([1.0, float("nan"), 3.0])).isnan().item()
    assert torch.nanmedian(torch.tensor([1.0, float("nan"), 3.0, 2.0])).item() == 2.0
    r = torch.tensor([[1.0, float("nan"), 0.0]]).median(1)
    assert r.values.isnan().all() and r.indices.tolist() == [1]
    r = torch.tensor([[1.0, float("nan"), 0.0]]).nanmedian(1, keepdim=True)
    assert r.values.tolist() == [[0.0]] and r.indices.tolist() == [[2]]
    a = torch.randn(4, 5, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: torch.median(t, 1).values, (a,))
    assert gradcheck(torch.median, (a,))


@pytest.mark.parametrize("mode", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_matches_pytorch_and_numpy(mode):
    torch.manual_seed(4)
    y = torch.randn(9, 11)
    q = torch.tensor([0.0, 0.1, 0.25, 0.5, 0.9, 1.0])
    got = torch.quantile(y, q, dim=1, interpolation=mode)
    assert got.shape == (6, 9)
    assert floats(got) == REDUCTIONS["quantile"][mode]
    npt.assert_allclose(got.numpy(), np.quantile(y.numpy().astype(np.float64), q.numpy(), axis=1, method=mode),
                        rtol=1e-5, atol=1e-6)


def test_quantile_shapes_nan_out_and_errors():
    torch.manual_seed(4)
    y = torch.randn(9, 11)
    assert floats(y.quantile(0.3)) == REDUCTIONS["quantile_all"]
    assert torch.quantile(y, 0.5, dim=0, keepdim=True).shape == (1, 11)
    assert torch.quantile(y, torch.tensor([0.5, 0.7]), keepdim=True).shape == (2, 1, 1)
    x = torch.tensor([1.0, float("nan"), 3.0, 2.0])
    assert torch.quantile(x, 0.5).isnan().item()
    assert torch.nanquantile(x, 0.5).item() == 2.0
    out = torch.empty(0)
    assert torch.quantile(y, 0.5, dim=1, out=out) is out and out.shape == (9,)
    for key, call in [
        ("quantile_q", lambda: torch.quantile(torch.ones(3), 1.5)),
        ("quantile_qt", lambda: torch.quantile(torch.ones(3), torch.tensor([0.5, 2.0]))),
        ("quantile_empty", lambda: torch.quantile(torch.ones(0), 0.5)),
        ("quantile_int", lambda: torch.quantile(torch.ones(3, dtype=torch.long), 0.5)),
        ("quantile_interp", lambda: torch.quantile(torch.ones(3), 0.5, interpolation="cubic")),
    ]:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value).split("\n")[0] == ERRORS[key][1], key
    a = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: torch.quantile(t, torch.tensor([0.2, 0.7], dtype=torch.float64), dim=1), (a,))


def test_bincount():
    x = torch.tensor([0, 3, 3, 1, 5])
    assert torch.bincount(x).tolist() == np.bincount(x.numpy()).tolist()
    assert torch.bincount(x).dtype == torch.int64
    assert x.bincount(minlength=8).tolist() == np.bincount(x.numpy(), minlength=8).tolist()
    w = torch.tensor([0.5, 1.0, 2.0, 0.25, 4.0])
    assert torch.bincount(x, w).dtype == torch.float32
    npt.assert_allclose(torch.bincount(x, w).numpy(), np.bincount(x.numpy(), w.numpy()))
    assert torch.bincount(x, w.double()).dtype == torch.float64
    assert torch.bincount(x, torch.ones(5, dtype=torch.int32)).dtype == torch.float64
    assert torch.bincount(torch.tensor([], dtype=torch.long), minlength=3).tolist() == [0, 0, 0]
    for key, call in [
        ("bincount_neg", lambda: torch.bincount(torch.tensor([1, -1]))),
        ("bincount_2d", lambda: torch.bincount(torch.ones(2, 2, dtype=torch.long))),
        ("bincount_weights", lambda: torch.bincount(torch.tensor([1, 2]), torch.ones(3))),
        ("bincount_minlength", lambda: torch.bincount(torch.tensor([1, 2]), minlength=-1)),
    ]:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value).split("\n")[0] == ERRORS[key][1], key


def test_searchsorted_and_bucketize_against_numpy():
    bd = torch.tensor([1.0, 3.0, 5.0, 7.0, 9.0])
    v = torch.tensor([[3.0, 6.0, 9.0], [3.0, 0.0, 10.0]])
    for side in ("left", "right"):
        expected = np.searchsorted(bd.numpy(), v.numpy(), side=side)
        assert torch.searchsorted(bd, v, side=side).tolist() == expected.tolist()
        assert torch.searchsorted(bd, v, right=side == "right").tolist() == expected.tolist()
        assert torch.bucketize(v, bd, right=side == "right").tolist() == expected.tolist()
    r = torch.searchsorted(bd, v, out_int32=True)
    assert r.dtype == torch.int32
    assert torch.searchsorted(bd, 6.0).item() == 3 and torch.searchsorted(bd, 6.0).dim() == 0
    assert torch.bucketize(4, bd).item() == 2
    # N-D boundaries: each row searches its own row.
    bd2 = torch.tensor([[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]])
    assert torch.searchsorted(bd2, torch.tensor([[3.0], [3.0]])).tolist() == [[1], [1]]
    unsorted = torch.tensor([5.0, 1.0, 9.0, 3.0, 7.0])
    sorter = torch.argsort(unsorted)
    assert torch.searchsorted(unsorted, v, sorter=sorter).tolist() == torch.searchsorted(bd, v).tolist()
    out = torch.empty(0, dtype=torch.long)
    assert torch.searchsorted(bd, v, out=out) is out
    for key, call in [
        ("searchsorted_side", lambda: torch.searchsorted(torch.arange(3.0), torch.ones(2), side="middle")),
        ("searchsorted_opposite",
         lambda: torch.searchsorted(torch.arange(3.0), torch.ones(2), right=True, side="left")),
        ("searchsorted_shape", lambda: torch.searchsorted(torch.ones(2, 3), torch.ones(3, 2))),
        ("bucketize_2d", lambda: torch.bucketize(torch.ones(2), torch.ones(2, 2))),
    ]:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value).split("\n")[0] == ERRORS[key][1], key


def test_linear_is_addmm_for_2d_with_bias():
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(5, requires_grad=True)
    y = F.linear(x, w, b)
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    npt.assert_allclose(y.detach().numpy(), x.detach().numpy() @ w.detach().numpy().T + b.detach().numpy(),
                        rtol=1e-5, atol=1e-6)
    assert type(torch._C._nn.linear(x, w).grad_fn).__name__ == "MmBackward0"
    y3 = F.linear(torch.randn(2, 4, 3), w, b)
    assert y3.shape == (2, 4, 5) and type(y3.grad_fn).__name__ == "ViewBackward0"
    with pytest.raises(RuntimeError) as info:
        F.linear(torch.tensor(1.0), torch.ones(2, 2))
    assert str(info.value).split("\n")[0] == ERRORS["linear_0d"][1]


def test_losses():
    torch.manual_seed(0)
    a, b = torch.randn(3, 4, dtype=torch.float64), torch.randn(3, 4, dtype=torch.float64)
    assert torch._C._nn.l1_loss(a, b).item() == pytest.approx(float(np.abs(a.numpy() - b.numpy()).mean()))
    assert F.l1_loss(a, b, reduction="sum").item() == pytest.approx(float(np.abs(a.numpy() - b.numpy()).sum()))
    logp = torch.log_softmax(a, 1)
    p = torch.softmax(b, 1)
    expected = (p * (torch.log(p) - logp)).sum() / 3
    assert F.kl_div(logp, p, reduction="batchmean").item() == pytest.approx(expected.item())
    assert torch.kl_div(logp, torch.log(p), 0, log_target=True).shape == (3, 4)
    with pytest.raises(RuntimeError) as info:
        torch.kl_div(torch.ones(2, dtype=torch.long), torch.ones(2))
    assert str(info.value).split("\n")[0] == ERRORS["kl_div_int"][1]
    t = torch.tensor([0, 3, 1])
    ce = torch._C._nn.cross_entropy_loss(a, t, None, 1, -100, 0.1)
    manual = 0.9 * F.nll_loss(logp, t) + 0.1 / 4 * (-logp.sum(1)).mean()
    assert ce.item() == pytest.approx(manual.item())
    assert F.cross_entropy(a, t, label_smoothing=0.1).item() == pytest.approx(manual.item())
    assert F.huber_loss(a, b, delta=0.5).item() == pytest.approx(
        float(np.where(np.abs(a.numpy() - b.numpy()) < 0.5, 0.5 * (a.numpy() - b.numpy()) ** 2,
                       0.5 * (np.abs(a.numpy() - b.numpy()) - 0.25)).mean()))
    with pytest.raises(RuntimeError) as info:
        F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), label_smoothing=1.5)
    assert str(info.value).split("\n")[0] == ERRORS["cross_entropy_smoothing"][1]
    x = a.clone().requires_grad_()
    assert gradcheck(lambda v: torch._C._nn.cross_entropy_loss(v, t, None, 1, -100, 0.2), (x,))


def test_mode_matches_pytorch():
    # PyTorch 2.13: the values and the indices (the position std::sort leaves last in the
    # longest run).
    torch.manual_seed(5)
    x = torch.randint(0, 4, (3, 12))
    r = torch.mode(x, 1)
    assert type(r).__name__ == "mode"
    assert r.values.tolist() == [2, 3, 1] and r.indices.tolist() == [11, 11, 11]
    r = torch.tensor([[2.0, 1.0, 2.0, 1.0, 3.0]]).mode(1, keepdim=True)
    assert r.values.tolist() == [[1.0]] and r.indices.tolist() == [[3]]
    a = torch.tensor([[1.0, 2.0, 2.0], [3.0, 3.0, 0.5]], dtype=torch.float64, requires_grad=True)
    torch.mode(a, 1).values.sum().backward()
    assert a.grad.sum().item() == 2.0


SCATTER_REDUCE_PYTORCH = {
    # reduce: (include_self=True, include_self=False), PyTorch 2.13
    "sum": ([5.0, 14.0, 8.0, 4.0], [4.0, 12.0, 5.0, 4.0]),
    "prod": ([3.0, 96.0, 15.0, 4.0], [3.0, 48.0, 5.0, 4.0]),
    "mean": ([1.6666666269302368, 3.5, 4.0, 4.0], [2.0, 4.0, 5.0, 4.0]),
    "amax": ([3.0, 6.0, 5.0, 4.0], [3.0, 6.0, 5.0, 4.0]),
    "amin": ([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 5.0, 4.0]),
}


@pytest.mark.parametrize("reduce", sorted(SCATTER_REDUCE_PYTORCH))
def test_scatter_reduce_matches_pytorch(reduce):
    src = torch.arange(1.0, 7.0)
    index = torch.tensor([0, 1, 0, 1, 2, 1])
    inp = torch.tensor([1.0, 2.0, 3.0, 4.0])
    with_self, without_self = SCATTER_REDUCE_PYTORCH[reduce]
    assert inp.scatter_reduce(0, index, src, reduce=reduce).tolist() == with_self
    assert torch.scatter_reduce(inp, 0, index, src, reduce, include_self=False).tolist() == without_self
    t = inp.clone()
    assert t.scatter_reduce_(0, index, src, reduce) is t and t.tolist() == with_self
    out = torch.empty(0)
    assert torch.scatter_reduce(inp, 0, index, src, reduce, out=out) is out and out.tolist() == with_self


def test_scatter_reduce_order_integers_and_errors():
    # Contributions are added in order along dim: PyTorch's digits.
    torch.manual_seed(1)
    a = torch.randn(4, 30)
    idx = torch.randint(0, 5, (4, 30))
    assert torch.zeros(4, 5).scatter_reduce(1, idx, a, "sum").tolist()[0] == [
        0.719123899936676, -3.345156669616699, -1.5293149948120117, -1.440225601196289, -4.54571008682251]
    assert torch.zeros(4, 5).scatter_reduce(1, idx, a, "mean", include_self=False).tolist()[0] == [
        0.10273198783397675, -0.47787952423095703, -0.25488582253456116, -0.7201128005981445, -0.5682137608528137]
    index = torch.tensor([0, 1, 0, 1, 2, 1])
    # Integer mean divides with floor: (1 - 7 + 2) / 3 -> -2.
    assert torch.tensor([1, 2, 3, 4]).scatter_reduce(0, index, torch.tensor([-7, 1, 2, 3, 4, 5]), "mean").tolist() == \
        [-2, 2, 3, 4]
    inp = torch.tensor([1.0, 2.0, 3.0, 4.0])
    with pytest.raises(RuntimeError, match="reduce argument must be either sum, prod, mean, amax or amin, got foo"):
        inp.scatter_reduce(0, index, torch.arange(1.0, 7.0), "foo")
    with pytest.raises(RuntimeError, match="index 5 is out of bounds for dimension 0 with size 4"):
        inp.scatter_reduce(0, torch.tensor([5]), torch.ones(1), "sum")


@pytest.mark.parametrize("reduce", ["sum", "mean", "amax", "amin", "prod"])
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_gradcheck(reduce, include_self):
    torch.manual_seed(2)
    self_ = (torch.rand(3, 4, dtype=torch.float64) + 0.5).requires_grad_()
    src = (torch.rand(3, 6, dtype=torch.float64) + 0.5).requires_grad_()
    index = torch.randint(0, 4, (3, 6))
    assert gradcheck(lambda s, t: s.scatter_reduce(1, index, t, reduce, include_self=include_self), (self_, src))
