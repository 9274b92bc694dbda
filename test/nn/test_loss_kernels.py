"""The native losses and the matrix-vector products added beside them, on the CPU: nll_loss
(through nll_loss_nd: the (C) and (N, C) kernel, and nll_loss2d for every input with spatial
dims), mse_loss, binary_cross_entropy, addmv and baddbmm. Values against numpy, gradients
against finite differences (gradcheck), node names and error messages as PyTorch gives them.

Mirrors parts of PyTorch's test/test_nn.py (test_NLLLoss*, test_MSELoss*, test_BCELoss*) and
test/test_linalg.py (test_addmv, test_baddbmm). Kernels: aten/src/ATen/native/LossNLL.cpp,
Loss.cpp, Blas.cpp. Guide: docs/source/internals/cuda_training.rst.
"""

import numpy as np
import pytest

import torch
import torch.nn.functional as F
from torch.autograd import gradcheck


def nll_numpy(logp, target, weight=None, ignore_index=-100, reduction="mean"):
    """The definition: -weight[t] * logp[n, t, ...] summed, or divided by the counted weights."""
    logp = np.moveaxis(np.asarray(logp, dtype=np.float64), 1, -1) if logp.ndim > 1 else logp[None]
    target = np.asarray(target).reshape(logp.shape[:-1])
    w = np.ones(logp.shape[-1]) if weight is None else np.asarray(weight, dtype=np.float64)
    keep = target != ignore_index
    safe = np.where(keep, target, 0)
    picked = np.take_along_axis(logp, safe[..., None], -1)[..., 0]
    wt = np.where(keep, w[safe], 0.0)
    loss = -picked * wt
    if reduction == "none":
        return loss
    if reduction == "sum":
        return loss.sum()
    return loss.sum() / wt.sum()


def g(seed=0):
    return torch.Generator().manual_seed(seed)


@pytest.mark.parametrize("shape", [(5, 4), (4,), (3, 4, 6), (2, 4, 3, 5), (2, 4, 2, 3, 2)])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss_matches_numpy(shape, reduction, weighted):
    logp = torch.randn(*shape, generator=g(), dtype=torch.float64).log_softmax(0 if len(shape) == 1 else 1)
    c = shape[0] if len(shape) == 1 else shape[1]
    tshape = () if len(shape) == 1 else (shape[0],) + tuple(shape[2:])
    target = torch.randint(0, c, tshape, generator=g(1))
    if target.numel() > 2:
        target.view(-1)[1] = -100  # one ignored position
    weight = torch.rand(c, generator=g(2), dtype=torch.float64) if weighted else None
    got = F.nll_loss(logp, target, weight=weight, reduction=reduction)
    want = nll_numpy(logp.numpy(), target.numpy(), None if weight is None else weight.numpy(), -100, reduction)
    if len(shape) == 1 and reduction == "none":
        want = want.reshape(())
    assert got.dtype == torch.float64
    assert tuple(got.shape) == np.shape(want)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shape, node", [((5, 4), "NllLossBackward0"), ((4,), "NllLossBackward0"),
                                         ((3, 4, 6), "NllLoss2DBackward0"), ((2, 4, 3, 5), "NllLoss2DBackward0")])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_gradient(shape, node, reduction):
    x = torch.randn(*shape, generator=g(), dtype=torch.float64, requires_grad=True)
    c = shape[0] if len(shape) == 1 else shape[1]
    tshape = () if len(shape) == 1 else (shape[0],) + tuple(shape[2:])
    target = torch.randint(0, c, tshape, generator=g(1))
    weight = torch.rand(c, generator=g(2), dtype=torch.float64)
    ignore = 1 if target.numel() > 1 else -100  # a lone ignored target would make 'mean' 0 / 0
    loss = F.nll_loss(x, target, weight=weight, reduction=reduction, ignore_index=ignore)
    # 'none' over a 3-D input views nll_loss2d's (N, 1, d) result back as (N, d).
    assert type(loss.grad_fn).__name__ == ("ViewBackward0" if reduction == "none" and len(shape) == 3 else node)
    assert gradcheck(lambda t: F.nll_loss(t, target, weight=weight, reduction=reduction, ignore_index=ignore), (x,))


def test_cross_entropy_runs_on_log_softmax_and_nll_loss():
    x = torch.randn(4, 3, requires_grad=True)
    loss = F.cross_entropy(x, torch.tensor([0, 2, 1, 1]))
    assert type(loss.grad_fn).__name__ == "NllLossBackward0"
    assert type(loss.grad_fn.next_functions[0][0]).__name__ == "LogSoftmaxBackward0"


def test_nll_loss_special_cases_match_pytorch():
    x = torch.randn(3, 4, generator=g()).log_softmax(1)
    # uint8 targets, and a float16 input summed in float32.
    np.testing.assert_allclose(F.nll_loss(x, torch.tensor([0, 3, 1], dtype=torch.uint8)).item(),
                               nll_numpy(x.numpy(), np.array([0, 3, 1])), rtol=1e-6)
    half = F.nll_loss(x.half(), torch.tensor([0, 3, 1]))
    assert half.dtype == torch.float16
    np.testing.assert_allclose(half.item(), nll_numpy(x.half().float().numpy(), np.array([0, 3, 1])), rtol=1e-3)
    # Every target ignored: 'mean' is 0 / 0, 'sum' is 0; an empty batch likewise.
    assert F.nll_loss(x, torch.full((3,), -100)).isnan().item()
    assert F.nll_loss(x, torch.full((3,), -100), reduction="sum").item() == 0.0
    assert F.nll_loss(torch.randn(0, 3), torch.zeros(0, dtype=torch.long)).isnan().item()
    # The forward's second output is the summed weight of the counted targets.
    out, total = torch._C._nn.nll_loss_forward(x.double(), torch.tensor([1, 1, 1]), torch.ones(4).double() * 2, 1, 0)
    assert total.item() == 6.0
    out, total = torch._C._nn.nll_loss_forward(x, torch.tensor([1, 1, 1]), None, 1, 1)
    assert out.isnan().item() and total.item() == 0.0


@pytest.mark.parametrize("call, exc, message", [
    (lambda x: F.nll_loss(x, torch.tensor([0, 1, 5])), IndexError, "Target 5 is out of bounds."),
    (lambda x: F.nll_loss(x, torch.tensor([0, 1, -3])), IndexError, "Target -3 is out of bounds."),
    (lambda x: F.nll_loss(x, torch.tensor([0, 1, 2]).int()), RuntimeError,
     "expected target dtype to be Long or Byte, but got Int"),
    (lambda x: F.nll_loss(x, torch.tensor([0, 1])), ValueError,
     "Expected input batch_size (3) to match target batch_size (2)."),
    (lambda x: F.nll_loss(x, torch.tensor([0, 1, 2]), weight=torch.ones(3)), RuntimeError,
     "weight tensor should be defined either for all 4 classes or no classes but got weight tensor of shape: [3]"),
    (lambda x: F.nll_loss(torch.tensor(1.0), torch.tensor(0)), ValueError, "Expected 1 or more dimensions (got 0)"),
    (lambda x: F.nll_loss(x.double(), torch.tensor([1, 1, 1]), weight=torch.ones(4)), RuntimeError,
     "expected scalar type Double but found Float"),
    (lambda x: torch._C._nn.nll_loss_forward(torch.randn(2, 3, 4), torch.ones(2, 4).long(), None, 1, -100),
     RuntimeError, "input tensor should be 1D or 2D"),
    (lambda x: torch._C._nn.nll_loss2d_forward(torch.randn(2, 3, 4), torch.ones(2, 4).long(), None, 1, -100),
     RuntimeError, "only batches of spatial targets supported (3D tensors) but got targets of dimension: 2"),
    (lambda x: torch._C._nn.nll_loss2d_forward(torch.randn(2, 3, 4, 5), torch.zeros(2, 4, 4).long(), None, 1, -100),
     RuntimeError, "size mismatch (got input: [2, 3, 4, 5] , target: [2, 4, 4]"),
    (lambda x: F.nll_loss(torch.randn(2, 3, 4, 5), torch.full((2, 4, 5), 7)), IndexError, "Target 7 is out of bounds."),
    (lambda x: F.nll_loss(torch.randn(2, 3, 4, 5, 6), torch.zeros(2, 4, 5, 7).long()), RuntimeError,
     "Expected target size [2, 4, 5, 6], got [2, 4, 5, 7]"),
    (lambda x: F.nll_loss(torch.randn(3, 3).int(), torch.full((3,), 1)), NotImplementedError,
     "\"nll_loss_out_frame\" not implemented for 'Int'"),
])
def test_nll_loss_errors_match_pytorch(call, exc, message):
    x = torch.randn(3, 4, generator=g()).log_softmax(1)
    with pytest.raises(exc) as info:
        call(x)
    assert str(info.value) == message


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_matches_numpy_and_gradcheck(reduction):
    a = torch.randn(3, 5, generator=g(), dtype=torch.float64, requires_grad=True)
    b = torch.randn(3, 5, generator=g(1), dtype=torch.float64, requires_grad=True)
    loss = F.mse_loss(a, b, reduction=reduction)
    sq = (a.detach().numpy() - b.detach().numpy()) ** 2
    want = {"mean": sq.mean(), "sum": sq.sum(), "none": sq}[reduction]
    np.testing.assert_allclose(loss.detach().numpy(), want, rtol=1e-12)
    assert type(loss.grad_fn).__name__ == "MseLossBackward0"
    assert gradcheck(lambda x, y: F.mse_loss(x, y, reduction=reduction), (a, b))


def test_mse_loss_broadcasts_promotes_and_refuses_integers():
    with pytest.warns(UserWarning, match="Using a target size"):
        got = F.mse_loss(torch.ones(3), torch.zeros(2, 3, dtype=torch.float64), reduction="none")
    assert got.dtype == torch.float64 and tuple(got.shape) == (2, 3)
    with pytest.raises(NotImplementedError, match="\"mse_cpu\" not implemented for 'Int'"):
        F.mse_loss(torch.ones(3, dtype=torch.int32), torch.ones(3, dtype=torch.int32))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(4\) "
                                           r"at non-singleton dimension 0"), pytest.warns(UserWarning):
        F.mse_loss(torch.ones(3), torch.ones(4))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy_matches_numpy_and_gradcheck(reduction, weighted):
    x = torch.rand(4, 3, generator=g(), dtype=torch.float64).clamp(0.05, 0.95).requires_grad_()
    y = torch.rand(4, 3, generator=g(1), dtype=torch.float64).requires_grad_()
    w = torch.rand(3, generator=g(2), dtype=torch.float64) if weighted else None
    loss = F.binary_cross_entropy(x, y, weight=w, reduction=reduction)
    xn, yn = x.detach().numpy(), y.detach().numpy()
    el = -(yn * np.log(xn) + (1 - yn) * np.log1p(-xn)) * (1 if w is None else w.numpy())
    want = {"mean": el.mean(), "sum": el.sum(), "none": el}[reduction]
    np.testing.assert_allclose(loss.detach().numpy(), want, rtol=1e-12)
    assert type(loss.grad_fn).__name__ == "BinaryCrossEntropyBackward0"
    assert gradcheck(lambda a, b: F.binary_cross_entropy(a, b, weight=w, reduction=reduction), (x, y))


def test_binary_cross_entropy_clamps_the_logs_and_checks_its_range():
    assert F.binary_cross_entropy(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0])).item() == 100.0
    # The gradient's denominator x (1 - x) is kept above 1e-12: (x - y) / 1e-12, halved by 'mean'.
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    F.binary_cross_entropy(x, torch.tensor([1.0, 0.0])).backward()
    np.testing.assert_allclose(x.grad.numpy(), [-5e11, 5e11], rtol=1e-6)
    with pytest.raises(RuntimeError, match="^all elements of input should be between 0 and 1$"):
        F.binary_cross_entropy(torch.tensor([0.5, 1.5]), torch.tensor([0.0, 1.0]))
    with pytest.raises(RuntimeError, match="^all elements of target should be between 0 and 1$"):
        F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([0.0, 2.0]))
    with pytest.raises(RuntimeError, match="^Found dtype Double but expected Float$"):
        F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([0.5], dtype=torch.float64))
    with pytest.raises(NotImplementedError, match="\"binary_cross_entropy\" not implemented for 'Int'"):
        torch._C._nn.binary_cross_entropy(torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.int32))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64])
@pytest.mark.parametrize("beta, alpha", [(1, 1), (0.5, 2), (0, 1)])
def test_addmv_matches_numpy(dtype, beta, alpha):
    if dtype == torch.int64 and beta == 0.5:
        beta = 2
    mat = torch.randint(-3, 4, (5, 4), generator=g()).to(dtype)
    vec = torch.randint(-3, 4, (4,), generator=g(1)).to(dtype)
    for self in (torch.randint(-3, 4, (5,), generator=g(2)).to(dtype), torch.ones(1, dtype=dtype)):
        got = torch.addmv(self, mat, vec, beta=beta, alpha=alpha)
        want = beta * self.numpy() + alpha * (mat.numpy() @ vec.numpy())
        assert got.dtype == dtype
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)
    t = mat.t().contiguous().t()  # a column-major matrix is read in place
    s = torch.randint(-3, 4, (5,), generator=g(3)).to(dtype)
    np.testing.assert_allclose(s.clone().addmv_(t, vec).numpy(), s.numpy() + t.numpy() @ vec.numpy(), rtol=1e-6)


def test_addmv_and_baddbmm_with_beta_zero_ignore_nan_in_self():
    assert torch.addmv(torch.full((2,), float("nan")), torch.ones(2, 3), torch.ones(3), beta=0).tolist() == [3.0, 3.0]
    out = torch.baddbmm(torch.full((1, 2, 2), float("nan")), torch.ones(1, 2, 3), torch.ones(1, 3, 2), beta=0)
    assert out.flatten().tolist() == [3.0] * 4


@pytest.mark.parametrize("self_shape", [(2, 3, 4), (4,), (3, 1)])
def test_baddbmm_matches_numpy(self_shape):
    b1 = torch.randn(2, 3, 5, generator=g(), dtype=torch.float64)
    b2 = torch.randn(2, 5, 4, generator=g(1), dtype=torch.float64).transpose(1, 2).contiguous().transpose(1, 2)
    self = torch.randn(*self_shape, generator=g(2), dtype=torch.float64)
    got = torch.baddbmm(self, b1, b2, beta=0.5, alpha=-2)
    np.testing.assert_allclose(got.numpy(), 0.5 * self.numpy() - 2 * (b1.numpy() @ b2.numpy()), rtol=1e-12)
    inplace = torch.randn(2, 3, 4, generator=g(3), dtype=torch.float64)
    want = inplace.numpy() + b1.numpy() @ b2.numpy()
    inplace.baddbmm_(b1, b2)
    np.testing.assert_allclose(inplace.numpy(), want, rtol=1e-12)


def test_addmv_and_baddbmm_gradcheck():
    opts = dict(dtype=torch.float64, requires_grad=True)
    s, m, v = torch.randn(3, **opts), torch.randn(3, 4, **opts), torch.randn(4, **opts)
    assert type(torch.addmv(s, m, v).grad_fn).__name__ == "AddmvBackward0"
    assert gradcheck(lambda a, b, c: torch.addmv(a, b, c, beta=0.5, alpha=2), (s, m, v))
    assert gradcheck(lambda a, b, c: torch.addmv(a, b, c), (torch.randn(1, **opts), m, v))
    s3, b1, b2 = torch.randn(2, 3, 4, **opts), torch.randn(2, 3, 5, **opts), torch.randn(2, 5, 4, **opts)
    assert type(torch.baddbmm(s3, b1, b2).grad_fn).__name__ == "BaddbmmBackward0"
    assert gradcheck(lambda a, b, c: torch.baddbmm(a, b, c, beta=0.5, alpha=2), (s3, b1, b2))
    assert gradcheck(lambda a, b, c: torch.baddbmm(a, b, c), (torch.randn(4, **opts), b1, b2))


@pytest.mark.parametrize("call, message", [
    (lambda: torch.addmv(torch.randn(2), torch.randn(2, 3), torch.randn(4)),
     "size mismatch, got input (2), mat (2x3), vec (4)"),
    (lambda: torch.addmv(torch.randn(3), torch.randn(2, 3), torch.randn(3)),
     "size mismatch, got input (3), mat (2x3), vec (3)"),
    (lambda: torch.addmv(torch.randn(2), torch.randn(2, 3), torch.randn(3).double()),
     "addmv input tensors must have the same dtype, but got Float, Float, and Double"),
    (lambda: torch.addmv(torch.randn(2), torch.randn(2, 3, 1), torch.randn(3)),
     "vector + matrix @ vector expected, got 1, 3, 1"),
    (lambda: torch.randn(1).addmv_(torch.randn(2, 3), torch.randn(3)),
     "Bad in-place call: input tensor size [1] and output tensor size [2] should match"),
    (lambda: torch.baddbmm(torch.randn(2, 3, 4), torch.randn(2, 3, 5), torch.randn(2, 6, 4)),
     "Expected size for first two dimensions of batch2 tensor to be: [2, 5] but got: [2, 6]."),
    (lambda: torch.randn(4).baddbmm_(torch.randn(2, 3, 5), torch.randn(2, 5, 4)),
     "Bad in-place call: input tensor size [4] and output tensor size [2, 3, 4] should match"),
    (lambda: torch.baddbmm(torch.randn(2, 3, 4).double(), torch.randn(2, 3, 5), torch.randn(2, 5, 4)),
     "Input dtypes must be the same, got: input double, batch1: float, batch2: float"),
])
def test_addmv_and_baddbmm_errors_match_pytorch(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value) == message


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("with_pos_weight", [False, True])
def test_binary_cross_entropy_with_logits_matches_numpy_and_gradcheck(reduction, weighted, with_pos_weight):
    x = (torch.randn(4, 3, generator=g(), dtype=torch.float64) * 30).requires_grad_()  # large logits: no overflow
    y = torch.rand(4, 3, generator=g(1), dtype=torch.float64).requires_grad_()
    w = torch.rand(3, generator=g(2), dtype=torch.float64) if weighted else None
    p = torch.rand(3, generator=g(3), dtype=torch.float64) * 3 if with_pos_weight else None
    loss = F.binary_cross_entropy_with_logits(x, y, weight=w, reduction=reduction, pos_weight=p)
    xn, yn = x.detach().numpy(), y.detach().numpy()
    log_sig = np.minimum(xn, 0) - np.log1p(np.exp(-np.abs(xn)))
    log_one_minus_sig = np.minimum(-xn, 0) - np.log1p(np.exp(-np.abs(xn)))
    pn = 1.0 if p is None else p.numpy()
    el = -(pn * yn * log_sig + (1 - yn) * log_one_minus_sig) * (1 if w is None else w.numpy())
    want = {"mean": el.mean(), "sum": el.sum(), "none": el}[reduction]
    np.testing.assert_allclose(loss.detach().numpy(), want, rtol=1e-10, atol=1e-12)
    assert type(loss.grad_fn).__name__ == "BinaryCrossEntropyWithLogitsBackward0"
    small = (x.detach() / 30).requires_grad_()
    assert gradcheck(lambda a, b: F.binary_cross_entropy_with_logits(a, b, weight=w, reduction=reduction,
                                                                     pos_weight=p), (small, y))
