"""smooth_l1_loss and huber_loss as native operators: PyTorch's values to the last bit in float32,
PyTorch's backward nodes (SmoothL1LossBackward0, HuberLossBackward0), gradients and second
derivatives against finite differences, PyTorch's errors.

The expected values were recorded from PyTorch 2.13.0 (CPU) with torch.manual_seed(0);
x, t = torch.randn(3, 4), torch.randn(3, 4), then F.smooth_l1_loss / F.huber_loss for each
beta/delta and reduction.

Guide: docs/source/internals/programs/index.rst
"""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

X = [[1.5409960746765137, -0.293428897857666, -2.1787893772125244, 0.5684312582015991], [-1.0845223665237427, -1.3985954523086548, 0.40334683656692505, 0.8380263447761536], [-0.7192575931549072, -0.40334352850914, -0.5966353416442871, 0.18203648924827576]]
T = [[-0.8566746115684509, 1.1006041765213013, -1.0711873769760132, 0.1227012425661087], [-0.5663174986839294, 0.3731146454811096, -0.8919953107833862, -1.5091077089309692], [0.3703935444355011, 1.4565025568008423, 0.9398099184036255, 0.7748488187789917]]
EXPECTED = {
    ('smooth_l1', 1.0, 'mean'): 0.8923961520195007,
    ('smooth_l1', 1.0, 'sum'): 10.70875358581543,
    ('smooth_l1', 1.0, 'none'): [[1.8976707458496094, 0.8940330743789673, 0.6076020002365112, 0.0993376299738884], [0.1342681497335434, 1.2717101573944092, 0.795342206954956, 1.8471341133117676], [0.5896511077880859, 1.3598461151123047, 1.0364452600479126, 0.1757132112979889]],
    ('smooth_l1', 0.3, 'mean'): 1.213015079498291,
    ('smooth_l1', 0.3, 'sum'): 14.556180953979492,
    ('smooth_l1', 0.3, 'none'): [[2.2476706504821777, 1.2440330982208252, 0.9576020240783691, 0.29573002457618713], [0.36820486187934875, 1.621710181236267, 1.145342230796814, 2.197134017944336], [0.9396511316299438, 1.7098461389541626, 1.3864452838897705, 0.4428122937679291]],
    ('smooth_l1', 0.0, 'mean'): 1.3630151748657227,
    ('smooth_l1', 0.0, 'sum'): 16.356182098388672,
    ('smooth_l1', 0.0, 'none'): [[2.3976707458496094, 1.3940330743789673, 1.1076020002365112, 0.4457300305366516], [0.5182048678398132, 1.7717101573944092, 1.295342206954956, 2.3471341133117676], [1.089651107788086, 1.8598461151123047, 1.5364452600479126, 0.5928122997283936]],
    ('huber', 1.0, 'mean'): 0.8923961520195007,
    ('huber', 1.0, 'sum'): 10.70875358581543,
    ('huber', 1.0, 'none'): [[1.8976707458496094, 0.8940330743789673, 0.6076020002365112, 0.0993376299738884], [0.1342681497335434, 1.2717101573944092, 0.795342206954956, 1.8471341133117676], [0.5896511077880859, 1.3598461151123047, 1.0364452600479126, 0.1757132112979889]],
    ('huber', 0.3, 'mean'): 0.36390456557273865,
    ('huber', 0.3, 'sum'): 4.366854667663574,
    ('huber', 0.3, 'none'): [[0.6743012070655823, 0.37320995330810547, 0.2872806191444397, 0.08871901035308838], [0.11046146601438522, 0.48651307821273804, 0.3436026871204376, 0.6591402292251587], [0.28189533948898315, 0.5129538774490356, 0.41593360900878906, 0.13284368813037872]],
}


@pytest.mark.parametrize("key", sorted(EXPECTED, key=repr))
def test_values_are_pytorchs(key):
    kind, param, reduction = key
    x, t = torch.tensor(X), torch.tensor(T)
    if kind == "smooth_l1":
        got = F.smooth_l1_loss(x, t, reduction=reduction, beta=param)
    else:
        got = F.huber_loss(x, t, reduction=reduction, delta=param)
    np.testing.assert_array_equal(np.asarray(got.tolist(), np.float32), np.asarray(EXPECTED[key], np.float32))


def test_backward_nodes_are_pytorchs():
    x = torch.randn(3, 4, requires_grad=True)
    t = torch.randn(3, 4)
    assert type(F.smooth_l1_loss(x, t).grad_fn).__name__ == "SmoothL1LossBackward0"
    assert type(F.huber_loss(x, t, reduction="none").grad_fn).__name__ == "HuberLossBackward0"
    # beta == 0 is l1_loss, as in PyTorch's F.smooth_l1_loss
    assert type(F.smooth_l1_loss(x, t, beta=0.0).grad_fn).__name__ == "MeanBackward0"


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("fn", [
    lambda x, t, r: torch._C._nn.smooth_l1_loss(x, t, r, 0.5),
    lambda x, t, r: torch._C._nn.huber_loss(x, t, r, 0.7),
])
def test_gradients_and_second_derivatives(fn, reduction):
    enum = {"none": 0, "mean": 1, "sum": 2}[reduction]
    torch.manual_seed(1)
    # keep |x - t| away from beta/delta, where the formula switches branch
    x = (torch.randn(4, 3, dtype=torch.float64) * 2).requires_grad_()
    t = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a, b: fn(a, b, enum), (x, t))
    assert torch.autograd.gradgradcheck(lambda a, b: fn(a, b, enum), (x, t))


def test_errors_are_pytorchs():
    x, t = torch.randn(3), torch.randn(3)
    with pytest.raises(RuntimeError, match=r"^smooth_l1_loss does not support negative values for beta\.$"):
        F.smooth_l1_loss(x, t, beta=-1.0)
    with pytest.raises(RuntimeError, match=r"^huber_loss does not support non-positive values for delta\.$"):
        F.huber_loss(x, t, delta=0.0)


def test_huber_with_weight_divides_by_the_summed_weights():
    x = torch.tensor([0.0, 3.0, -0.5])
    t = torch.zeros(3)
    w = torch.tensor([1.0, 2.0, 4.0])
    # elementwise: 0, 1 * (3 - 0.5) = 2.5, 0.5 * 0.25 = 0.125
    assert F.huber_loss(x, t, weight=w).item() == pytest.approx((0 + 2 * 2.5 + 4 * 0.125) / 7)
    assert F.huber_loss(x, t, weight=w, reduction="sum").item() == pytest.approx(2 * 2.5 + 4 * 0.125)
