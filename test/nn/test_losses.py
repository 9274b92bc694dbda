# test/nn/test_losses.py - the losses and their reductions, against PyTorch 2.13's numbers and numpy.
# Mirrors the loss parts of PyTorch's test/test_nn.py. Guide: docs/source/internals/python_layer.rst.
#
# Setup of every reference number (float64):
#   X = [[0.5, -1.0, 2.0, 0.1], [1.5, 0.3, -0.7, -2.0], [0.0, 0.2, 0.4, -0.4]], targets [2, 0, 3],
#   class weights W = [0.5, 1.0, 2.0, 1.5], probabilities P = softmax([[1,2,3,4],[0,0,1,0],[2,1,0,-1]], 1),
#   A = [0.1, 0.9, 0.5, 0.3] and B = [0.0, 1.0, 1.0, 0.25] for the element-wise losses.
import warnings

import numpy as np
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck

D = torch.float64


def t64(values):
    return torch.tensor(values, dtype=D)


X = [[0.5, -1.0, 2.0, 0.1], [1.5, 0.3, -0.7, -2.0], [0.0, 0.2, 0.4, -0.4]]
TGT = [2, 0, 3]
W = [0.5, 1.0, 2.0, 1.5]
A = [0.1, 0.9, 0.5, 0.3]
B = [0.0, 1.0, 1.0, 0.25]


def probs():
    return torch.softmax(t64([[1., 2, 3, 4], [0, 0, 1, 0], [2, 1, 0, -1]]), 1)


def test_cross_entropy_with_class_indices_matches_numpy():
    x = np.array(X)
    logp = x - np.log(np.exp(x).sum(1, keepdims=True))
    picked = -logp[np.arange(3), TGT]
    out = F.cross_entropy(t64(X), torch.tensor(TGT), reduction="none")
    np.testing.assert_allclose(out.numpy(), picked)
    assert F.cross_entropy(t64(X), torch.tensor(TGT)).item() == pytest.approx(0.8654767848)
    assert F.cross_entropy(t64(X), torch.tensor(TGT), reduction="sum").item() == pytest.approx(picked.sum())


def test_cross_entropy_options_match_pytorch():
    x, t, w = t64(X), torch.tensor(TGT), t64(W)
    assert F.cross_entropy(x, t, weight=w).item() == pytest.approx(0.9261706032)
    assert F.cross_entropy(x, t, label_smoothing=0.2).item() == pytest.approx(1.0571434515)
    assert F.cross_entropy(x, torch.tensor([2, -100, 3]), weight=w, label_smoothing=0.3).item() == pytest.approx(1.0332767595)
    assert F.cross_entropy(x, torch.tensor([2, 1, 3]), ignore_index=1).item() == pytest.approx(1.1151321333)
    assert F.cross_entropy(x, probs()).item() == pytest.approx(1.8425699403)
    assert F.cross_entropy(x, probs(), weight=w, label_smoothing=0.1, reduction="sum").item() == pytest.approx(7.4335268884)
    # (N, C, d) input and a 1-D input of one sample
    x4 = torch.arange(24, dtype=D).reshape(2, 3, 4).sin()
    assert F.cross_entropy(x4, torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]])).item() == pytest.approx(1.1070728779)
    assert F.cross_entropy(t64([0.1, 0.2, 0.7]), torch.tensor(2)).item() == pytest.approx(0.7679495489)


def test_cross_entropy_gradient_matches_pytorch_and_gradcheck():
    x = t64(X).requires_grad_()
    F.cross_entropy(x, torch.tensor(TGT), weight=t64(W), label_smoothing=0.1).backward()
    assert x.grad.flatten()[:4].tolist() == pytest.approx([0.0723635469, 0.0105937715, -0.1241838046, 0.0412264862])
    for target in (torch.tensor([2, -100, 3]), probs()):
        assert gradcheck(lambda inp: F.cross_entropy(inp, target, weight=t64(W), label_smoothing=0.2),
                         (t64(X).requires_grad_(),))


def test_cross_entropy_errors_match_pytorch():
    x = torch.randn(3, 4)
    with pytest.raises(RuntimeError, match="^ignore_index is not supported for floating point target$"):
        F.cross_entropy(x, torch.rand(3, 4), ignore_index=1)
    with pytest.raises(RuntimeError, match="^label_smoothing must be between 0.0 and 1.0. Got: 1.5$"):
        F.cross_entropy(x, torch.tensor([0, 1, 2]), label_smoothing=1.5)
    with pytest.raises(RuntimeError, match="^Expected floating point type for target with class probabilities, got Long$"):
        F.cross_entropy(x, torch.zeros(3, 4, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="^expected target dtype to be Long or Byte, but got Float$"):
        F.cross_entropy(x, torch.tensor([0.0, 1, 2]))


def test_nll_loss_values_and_errors():
    x, t = t64(X), torch.tensor(TGT)
    assert F.nll_loss(x, t, weight=t64(W)).item() == pytest.approx(-1.0375)  # -(2*2.0 + 0.5*1.5 + 1.5*-0.4) / 4
    assert nn.NLLLoss(reduction="none")(x, t).tolist() == [-2.0, -1.5, 0.4]
    with pytest.raises(IndexError, match="^Target 5 is out of bounds.$"):
        F.nll_loss(x, torch.tensor([0, 1, 5]))
    with pytest.raises(IndexError, match="^Target -1 is out of bounds.$"):
        F.nll_loss(x, torch.tensor([0, 1, -1]))
    with pytest.raises(ValueError, match=r"^Expected input batch_size \(3\) to match target batch_size \(2\).$"):
        F.nll_loss(x, torch.tensor([0, 1]))
    with pytest.raises(RuntimeError, match=r"^weight tensor should be defined either for all 4 classes or no classes "
                       r"but got weight tensor of shape: \[3\]$"):
        F.nll_loss(x, t, weight=torch.ones(3))


def test_binary_cross_entropy_values_gradient_and_errors():
    a, b = t64(A), t64(B)
    expected = -(np.array(B) * np.log(A) + (1 - np.array(B)) * np.log(1 - np.array(A)))
    np.testing.assert_allclose(F.binary_cross_entropy(a, b, reduction="none").numpy(), expected)
    assert nn.BCELoss()(a, b).item() == pytest.approx(0.3680919052)
    assert F.binary_cross_entropy(a, b, weight=t64([1., 2, 3, 4]), reduction="sum").item() == pytest.approx(4.6695207248)
    assert F.binary_cross_entropy(t64([0.0, 1.0]), t64([1.0, 0.0]), reduction="none").tolist() == [100.0, 100.0]
    a.requires_grad_()
    F.binary_cross_entropy(a, b).backward()
    assert a.grad.tolist() == pytest.approx([0.2777777778, -0.2777777778, -0.5, 0.0595238095])
    with pytest.raises(ValueError, match=r"^Using a target size \(torch.Size\(\[3, 1\]\)\) that is different to the "
                       r"input size \(torch.Size\(\[3\]\)\) is deprecated. Please ensure they have the same size.$"):
        F.binary_cross_entropy(torch.rand(3), torch.rand(3, 1))
    with pytest.raises(RuntimeError, match="^all elements of input should be between 0 and 1$"):
        F.binary_cross_entropy(torch.tensor([1.5]), torch.rand(1))


def test_binary_cross_entropy_with_logits_is_stable_and_matches_pytorch():
    logits, b = t64([-3., 0.5, 20, -40]), t64(B)
    assert F.binary_cross_entropy_with_logits(logits, b).item() == pytest.approx(2.6306660845)
    out = nn.BCEWithLogitsLoss(weight=t64([1., 2, 1, 1]), pos_weight=t64([2., 0.5, 1, 3]), reduction="none")(logits, b)
    assert out.tolist() == pytest.approx([0.0485873516, 0.4740769842, 2.0611536203e-09, 30.0], rel=1e-6, abs=1e-15)
    np.testing.assert_allclose(F.binary_cross_entropy_with_logits(logits[:2], b[:2], reduction="none").numpy(),
                               F.binary_cross_entropy(torch.sigmoid(logits[:2]), b[:2], reduction="none").numpy())
    assert gradcheck(lambda x: F.binary_cross_entropy_with_logits(x, b, pos_weight=t64([2., 0.5, 1, 3])),
                     (t64([-3., 0.5, 2, -4]).requires_grad_(),))
    with pytest.raises(ValueError, match=r"^Target size \(torch.Size\(\[3, 1\]\)\) must be the same as input size "
                       r"\(torch.Size\(\[3\]\)\)$"):
        F.binary_cross_entropy_with_logits(torch.rand(3), torch.rand(3, 1))


def test_regression_losses():
    a, b = t64(A), t64(B)
    assert nn.MSELoss()(a, b).item() == pytest.approx(0.068125)
    assert nn.L1Loss(reduction="sum")(a, b).item() == pytest.approx(0.75)
    assert nn.SmoothL1Loss(reduction="none", beta=0.8)(t64([0.1, 2.0, -3.0, 0.5]), torch.zeros(4, dtype=D)).tolist() == \
        pytest.approx([0.00625, 1.6, 2.6, 0.15625])
    assert F.smooth_l1_loss(t64([0.5, 3.0]), t64([0.0, 0.0]), beta=0.0, reduction="none").tolist() == [0.5, 3.0]
    for fn in (F.mse_loss, F.l1_loss, F.smooth_l1_loss):
        assert gradcheck(lambda x: fn(x, b), (t64([0.1, 2.9, 0.4, -1.3]).requires_grad_(),))
    with pytest.raises(RuntimeError, match="^smooth_l1_loss does not support negative values for beta.$"):
        F.smooth_l1_loss(a, b, beta=-1)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        F.mse_loss(torch.rand(3), torch.rand(3, 1))
    assert "Using a target size (torch.Size([3, 1])) that is different to the input size (torch.Size([3]))" in str(w[0].message)


def test_kl_div_values_and_reductions():
    lp = torch.log_softmax(t64(X), 1)
    q0 = t64([[0.5, 0.5, 0, 0], [0.25, 0.25, 0.25, 0.25], [1, 0, 0, 0]])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert F.kl_div(lp, q0).item() == pytest.approx(0.3409990677)
    assert "reduction: 'mean' divides the total loss by both the batch size and the support size." in str(w[0].message)
    assert nn.KLDivLoss(reduction="batchmean")(lp, q0).item() == pytest.approx(1.3639962709)
    assert F.kl_div(lp, probs().log(), reduction="sum", log_target=True).item() == pytest.approx(2.3643343988)
    assert gradcheck(lambda x: F.kl_div(x, q0, reduction="batchmean"), (lp.detach().clone().requires_grad_(),))


def test_invalid_reduction_and_legacy_flags():
    with pytest.raises(ValueError, match="^foo is not a valid value for reduction$"):
        F.mse_loss(torch.ones(2), torch.ones(2), reduction="foo")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert nn.MSELoss(size_average=False).reduction == "sum"
        assert nn.MSELoss(reduce=False).reduction == "none"


def test_weight_is_a_buffer_and_losses_print_plainly():
    loss = nn.CrossEntropyLoss(weight=torch.ones(3))
    assert list(loss.state_dict()) == ["weight"]
    assert repr(loss) == "CrossEntropyLoss()" and repr(nn.MSELoss()) == "MSELoss()"
