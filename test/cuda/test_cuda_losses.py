"""The CUDA losses and matrix-vector products, each against its CPU twin: nll_loss for (C),
(N, C) and spatial inputs (the per-element kernel for 'none', the one-block reduction for
'mean' and 'sum', the backward scatter), cross_entropy through it, mse_loss,
binary_cross_entropy, addmv and baddbmm; gradcheck of each in double precision on the device.

Mirrors the CUDA parts of PyTorch's test/test_nn.py (test_NLLLoss*, test_BCELoss*) and
test/test_linalg.py (test_addmv, test_baddbmm). Kernels: aten/src/ATen/native/cuda/Loss.cu,
BinaryMiscOpsKernels.cu, PointwiseOpsKernel.cu, cuda/Blas.cpp. Guide:
docs/source/internals/cuda_training.rst. Without a GPU:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_losses.py
"""

import pytest

import torch
import torch.nn.functional as F
from torch.autograd import gradcheck
from cuda_testing import _id, assert_same

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")


def g(seed=0):
    return torch.Generator().manual_seed(seed)


SHAPES = [(7, 5), (5,), (3, 5, 6), (2, 5, 3, 4), (2, 5, 2, 3, 2), (600, 3)]


def nll_case(shape, dtype=torch.float32):
    c = shape[0] if len(shape) == 1 else shape[1]
    tshape = () if len(shape) == 1 else (shape[0],) + tuple(shape[2:])
    x = torch.randn(*shape, generator=g(), dtype=torch.float64).log_softmax(0 if len(shape) == 1 else 1).to(dtype)
    target = torch.randint(0, c, tshape, generator=g(1))
    if target.numel() > 2:
        target.view(-1)[1] = -100
    weight = torch.rand(c, generator=g(2), dtype=torch.float64).to(dtype)
    return x, target, weight


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_nll_loss_matches_cpu(shape, reduction, weighted):
    x, target, weight = nll_case(shape, torch.float64)
    w = weight if weighted else None
    want = F.nll_loss(x, target, weight=w, reduction=reduction)
    got = F.nll_loss(x.cuda(), target.cuda(), weight=None if w is None else w.cuda(), reduction=reduction)
    # The one-block sum adds in another order than the CPU's loop.
    assert_same(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=_id)
def test_nll_loss_low_precision_and_byte_targets(dtype):
    x, target, weight = nll_case((40, 6), dtype)
    target[1] = 2
    for t in (target, target.to(torch.uint8)):
        want = F.nll_loss(x, t, weight=weight)
        got = F.nll_loss(x.cuda(), t.cuda(), weight=weight.cuda())
        tol = 1e-5 if dtype == torch.float32 else 1e-2
        assert_same(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("shape", SHAPES[:5], ids=str)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_backward_matches_cpu_and_gradcheck(shape, reduction):
    x, target, weight = nll_case(shape, torch.float64)
    xc = x.clone().requires_grad_()
    xg = x.cuda().requires_grad_()
    F.nll_loss(xc, target, weight=weight, reduction=reduction).sum().backward()
    loss = F.nll_loss(xg, target.cuda(), weight=weight.cuda(), reduction=reduction)
    node = "NllLossBackward0" if len(shape) <= 2 else "NllLoss2DBackward0"
    if reduction == "none" and len(shape) in (3, 5):
        node = "ViewBackward0"  # nll_loss2d's result viewed back to the target's shape
    assert type(loss.grad_fn).__name__ == node
    loss.sum().backward()
    assert_same(xg.grad, xc.grad, rtol=1e-12, atol=1e-12)
    assert gradcheck(lambda t: F.nll_loss(t, target.cuda(), weight=weight.cuda(), reduction=reduction),
                     (x.cuda().requires_grad_(),))


def test_nll_loss_edge_cases_match_cpu():
    x, _, _ = nll_case((4, 3), torch.float64)
    ignored = torch.full((4,), -100)
    assert_same(F.nll_loss(x.cuda(), ignored.cuda()), F.nll_loss(x, ignored))  # 0 / 0
    assert_same(F.nll_loss(x.cuda(), ignored.cuda(), reduction="sum"), F.nll_loss(x, ignored, reduction="sum"))
    empty = torch.zeros(0, 3, dtype=torch.float64)
    none = torch.zeros(0, dtype=torch.long)
    assert_same(F.nll_loss(empty.cuda(), none.cuda()), F.nll_loss(empty, none))
    assert_same(F.nll_loss(empty.cuda(), none.cuda(), reduction="none"), F.nll_loss(empty, none, reduction="none"))
    out, total = torch._C._nn.nll_loss_forward(x.cuda(), torch.tensor([1, 1, 2, 0]).cuda(), None, 1, 1)
    assert_same(total, torch.tensor(2.0, dtype=torch.float64))


def test_nll_loss_errors_are_the_cpus():
    x = torch.randn(3, 4).cuda()
    for call, exc, message in [
        (lambda: F.nll_loss(x, torch.tensor([0, 1]).cuda()), ValueError,
         "Expected input batch_size (3) to match target batch_size (2)."),
        (lambda: F.nll_loss(x, torch.tensor([0, 1, 2]).int().cuda()), RuntimeError,
         "expected target dtype to be Long or Byte, but got Int"),
        (lambda: F.nll_loss(x, torch.tensor([0, 1, 2]).cuda(), weight=torch.ones(3).cuda()), RuntimeError,
         "weight tensor should be defined either for all 4 classes or no classes but got weight tensor of shape: [3]"),
    ]:
        with pytest.raises(exc) as info:
            call()
        assert str(info.value) == message


@pytest.mark.parametrize("label_smoothing", [0.0, 0.2])
def test_cross_entropy_trains_the_same_on_cuda(label_smoothing):
    logits = torch.randn(16, 10, generator=g(), dtype=torch.float64)
    target = torch.randint(0, 10, (16,), generator=g(1))
    lc, lg = logits.clone().requires_grad_(), logits.cuda().requires_grad_()
    want = F.cross_entropy(lc, target, label_smoothing=label_smoothing)
    got = F.cross_entropy(lg, target.cuda(), label_smoothing=label_smoothing)
    assert_same(got.detach(), want.detach(), rtol=1e-12)
    want.backward()
    got.backward()
    assert_same(lg.grad, lc.grad, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16], ids=_id)
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_mse_loss_matches_cpu(dtype, reduction):
    a = torch.randn(33, 7, generator=g()).to(dtype)
    b = torch.randn(33, 7, generator=g(1)).to(dtype)
    tol = {torch.float32: 1e-5, torch.float64: 1e-12}.get(dtype, 2e-2)
    assert_same(F.mse_loss(a.cuda(), b.cuda(), reduction=reduction), F.mse_loss(a, b, reduction=reduction),
                rtol=tol, atol=tol)
    # Non-contiguous and broadcast operands.
    assert_same(F.mse_loss(a.cuda().t(), b.cuda()[0:1].t().expand(7, 33), reduction=reduction),
                F.mse_loss(a.t(), b[0:1].t().expand(7, 33), reduction=reduction), rtol=tol, atol=tol)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cross_entropy_matches_cpu(reduction, weighted):
    x = torch.rand(9, 4, generator=g(), dtype=torch.float64).clamp(0.01, 0.99)
    x[0, 0], x[0, 1] = 0.0, 1.0  # the clamped logs
    y = torch.rand(9, 4, generator=g(1), dtype=torch.float64)
    w = torch.rand(4, generator=g(2), dtype=torch.float64) if weighted else None
    want = F.binary_cross_entropy(x, y, weight=w, reduction=reduction)
    got = F.binary_cross_entropy(x.cuda(), y.cuda(), weight=None if w is None else w.cuda(), reduction=reduction)
    assert_same(got, want, rtol=1e-12)


def test_loss_gradients_on_cuda_gradcheck():
    opts = dict(dtype=torch.float64, device="cuda", requires_grad=True)
    a, b = torch.randn(4, 3, **opts), torch.randn(4, 3, **opts)
    for reduction in ("mean", "sum", "none"):
        assert gradcheck(lambda p, q: F.mse_loss(p, q, reduction=reduction), (a, b))
    x = torch.rand(4, 3, dtype=torch.float64).clamp(0.05, 0.95).cuda().requires_grad_()
    y = torch.rand(4, 3, dtype=torch.float64).cuda().requires_grad_()
    w = torch.rand(3, dtype=torch.float64).cuda()
    for reduction in ("mean", "sum", "none"):
        assert gradcheck(lambda p, q: F.binary_cross_entropy(p, q, weight=w, reduction=reduction), (x, y))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16], ids=_id)
def test_addmv_matches_cpu(dtype):
    tol = {torch.float16: 1e-2, torch.float32: 1e-5}.get(dtype, 1e-12)
    mat = torch.randn(70, 33, generator=g()).to(dtype)
    vec = torch.randn(33, generator=g(1)).to(dtype)
    ref = torch.float32 if dtype == torch.float16 else dtype  # the CPU reference of a half product
    for self in (torch.randn(70, generator=g(2)).to(dtype), torch.ones(1, dtype=dtype)):
        for beta, alpha in ((1, 1), (0.5, -2), (0, 1)):
            assert_same(torch.addmv(self.cuda(), mat.cuda(), vec.cuda(), beta=beta, alpha=alpha),
                        torch.addmv(self.to(ref), mat.to(ref), vec.to(ref), beta=beta, alpha=alpha).to(dtype),
                        rtol=tol, atol=tol)
    t = mat.t().contiguous().t()
    s = torch.randn(70, generator=g(3)).to(dtype)
    assert_same(s.cuda().addmv_(t.cuda(), vec.cuda()), s.to(ref).addmv_(t.to(ref), vec.to(ref)).to(dtype),
                rtol=tol, atol=tol)


@pytest.mark.parametrize("self_shape", [(3, 17, 9), (9,), (17, 1)], ids=str)
def test_baddbmm_matches_cpu(self_shape):
    b1 = torch.randn(3, 17, 20, generator=g(), dtype=torch.float64)
    b2 = torch.randn(3, 9, 20, generator=g(1), dtype=torch.float64).transpose(1, 2)
    self = torch.randn(*self_shape, generator=g(2), dtype=torch.float64)
    assert_same(torch.baddbmm(self.cuda(), b1.cuda(), b2.cuda(), beta=0.5, alpha=-2),
                torch.baddbmm(self, b1, b2, beta=0.5, alpha=-2), rtol=1e-12, atol=1e-12)
    nan = torch.full((3, 17, 9), float("nan"), dtype=torch.float64)
    assert_same(torch.baddbmm(nan.cuda(), b1.cuda(), b2.cuda(), beta=0), torch.baddbmm(nan, b1, b2, beta=0),
                rtol=1e-12, atol=1e-12)
    inplace = torch.randn(3, 17, 9, generator=g(3), dtype=torch.float64)
    assert_same(inplace.cuda().baddbmm_(b1.cuda(), b2.cuda()), inplace.clone().baddbmm_(b1, b2), rtol=1e-12,
                atol=1e-12)


def test_addmv_and_baddbmm_gradcheck_and_errors_on_cuda():
    opts = dict(dtype=torch.float64, device="cuda", requires_grad=True)
    s, m, v = torch.randn(3, **opts), torch.randn(3, 4, **opts), torch.randn(4, **opts)
    assert gradcheck(lambda a, b, c: torch.addmv(a, b, c, beta=0.5, alpha=2), (s, m, v))
    s3, b1, b2 = torch.randn(4, **opts), torch.randn(2, 3, 5, **opts), torch.randn(2, 5, 4, **opts)
    assert gradcheck(lambda a, b, c: torch.baddbmm(a, b, c, beta=0.5, alpha=2), (s3, b1, b2))
    with pytest.raises(RuntimeError, match=r"^size mismatch, got input \(2\), mat \(2x3\), vec \(4\)$"):
        torch.addmv(torch.randn(2).cuda(), torch.randn(2, 3).cuda(), torch.randn(4).cuda())
    with pytest.raises(RuntimeError, match=r"^Expected size for first two dimensions of batch2 tensor to be: "
                                           r"\[2, 5\] but got: \[2, 6\]\.$"):
        torch.baddbmm(torch.randn(2, 3, 4).cuda(), torch.randn(2, 3, 5).cuda(), torch.randn(2, 6, 4).cuda())


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_binary_cross_entropy_with_logits_matches_cpu_and_gradcheck(reduction):
    x = torch.randn(6, 4, generator=g(), dtype=torch.float64) * 10
    y = torch.rand(6, 4, generator=g(1), dtype=torch.float64)
    w = torch.rand(4, generator=g(2), dtype=torch.float64)
    p = torch.rand(4, generator=g(3), dtype=torch.float64) * 3
    want = F.binary_cross_entropy_with_logits(x, y, weight=w, reduction=reduction, pos_weight=p)
    got = F.binary_cross_entropy_with_logits(x.cuda(), y.cuda(), weight=w.cuda(), reduction=reduction,
                                             pos_weight=p.cuda())
    assert_same(got, want, rtol=1e-12, atol=1e-12)
    assert gradcheck(lambda a, b: F.binary_cross_entropy_with_logits(a, b, weight=w.cuda(), reduction=reduction,
                                                                     pos_weight=p.cuda()),
                     ((x / 10).cuda().requires_grad_(), y.cuda().requires_grad_()))
