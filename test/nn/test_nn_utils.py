# test/nn/test_nn_utils.py - torch.nn.utils: gradient clipping, parameter vectors, parametrizations,
# weight_norm and spectral_norm. Mirrors parts of PyTorch's test/test_nn.py and
# test/nn/test_parametrization.py. Guide: docs/source/internals/programs/nn_utils.rst.
#
# Numbers are checked against numpy, or are PyTorch 2.13's on the same setup (the
# seeds and fills are in each test; the tree's generator draws PyTorch's numbers).
import copy
import warnings

import numpy as np
import pytest
import torch
import torch.nn as nn
from torch.autograd import gradcheck
from torch.nn.utils import parametrizations, parametrize

D = torch.float64


def grads_params():
    ps = [torch.zeros(3, 4, requires_grad=True), torch.zeros(5, requires_grad=True), torch.zeros(2, requires_grad=True)]
    rs = np.random.RandomState(3)
    for p in ps[:2]:
        p.grad = torch.tensor(rs.randn(*p.shape).astype(np.float32))
    return ps  # the third has no .grad: it is skipped


@pytest.mark.parametrize("norm_type", [2.0, 1, float("inf"), 3.5, "inf"])
def test_clip_grad_norm_matches_numpy(norm_type):
    ps = grads_params()
    g = [p.grad.numpy().astype(np.float64).ravel() for p in ps[:2]]
    grad_objects = [p.grad for p in ps[:2]]
    p_ord = float(norm_type)
    ref_norm = np.linalg.norm([np.linalg.norm(x, p_ord) for x in g], p_ord)
    total = nn.utils.clip_grad_norm_(ps, 0.7, norm_type=norm_type)
    assert total.dtype == torch.float32 and total.shape == ()
    np.testing.assert_allclose(total.item(), ref_norm, rtol=1e-6)
    coef = min(0.7 / (ref_norm + 1e-6), 1.0)
    for p, x, obj in zip(ps, g, grad_objects):
        assert p.grad is obj  # in place
        np.testing.assert_allclose(p.grad.numpy().ravel(), x * coef, rtol=1e-6)
    assert ps[2].grad is None


def test_clip_grad_norm_bits_match_pytorch():
    # PyTorch 2.13, same gradients, max_norm 0.7, norm_type 1: float32 results to the bit.
    ps = grads_params()
    nn.utils.clip_grad_norm_(ps, 0.7, norm_type=1)
    ref0 = [0.10576891899108887, 0.02581261284649372, 0.005706290248781443, -0.11019594967365265,
            -0.01640309952199459, -0.020978350192308426, -0.004892842378467321, -0.03707711771130562,
            -0.002591147553175688, -0.028219854459166527, -0.07769419997930527, 0.05231134220957756]
    ref1 = [0.052115943282842636, 0.10109405219554901, 0.0029586940072476864, -0.023930231109261513,
            -0.032249365001916885]
    np.testing.assert_array_equal(ps[0].grad.numpy().ravel(), np.array(ref0, dtype=np.float32))
    np.testing.assert_array_equal(ps[1].grad.numpy(), np.array(ref1, dtype=np.float32))


def test_clip_grad_norm_small_norm_single_tensor_and_foreach():
    ps = grads_params()
    before = ps[0].grad.clone()
    total = nn.utils.clip_grad_norm_(ps, 100.0, foreach=None)
    assert torch.equal(ps[0].grad, before) and total.item() > 0
    for foreach in (False, True):
        p = torch.zeros(2, requires_grad=True)
        p.grad = torch.tensor([3.0, 4.0])
        total = nn.utils.clip_grad_norm_(p, 1.0, foreach=foreach)  # one tensor, not a list
        assert total.item() == 5.0
        np.testing.assert_allclose(p.grad.numpy(), [3.0 / (5 + 1e-6), 4.0 / (5 + 1e-6)], rtol=1e-6)
    assert nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0).item() == 0.0
    with pytest.warns(UserWarning, match="`parameters` is an empty generator, no gradient clipping will occur."):
        nn.utils.clip_grad_norm_((p for p in []), 1.0)


def test_clip_grad_norm_nonfinite():
    p = torch.zeros(3, requires_grad=True)
    p.grad = torch.tensor([1.0, float("inf"), 2.0])
    with pytest.raises(RuntimeError, match=r"^The total norm of order 2.0 for gradients from `parameters` is "
                       r"non-finite, so it cannot be clipped. To disable this error and scale the gradients by the "
                       r"non-finite norm anyway, set `error_if_nonfinite=False`$"):
        nn.utils.clip_grad_norm_([p], 1.0, error_if_nonfinite=True)
    assert p.grad[1].item() == float("inf")  # untouched
    total = nn.utils.clip_grad_norm_([p], 1.0)
    # The coefficient is 1 / inf = 0: finite entries become 0, the infinite one nan.
    assert total.item() == float("inf")
    assert p.grad[0].item() == 0.0 and p.grad[2].item() == 0.0 and np.isnan(p.grad[1].item())


def test_get_total_norm_clip_grads_with_norm_and_clip_grad_value():
    ps = grads_params()
    grads = [p.grad for p in ps if p.grad is not None]
    total = nn.utils.get_total_norm(grads, norm_type=2.0)
    ref = np.sqrt(sum((g.numpy().astype(np.float64) ** 2).sum() for g in grads))
    np.testing.assert_allclose(total.item(), ref, rtol=1e-6)
    assert nn.utils.get_total_norm([]).item() == 0.0
    nn.utils.clip_grads_with_norm_(ps, 1.0, total)
    np.testing.assert_allclose(nn.utils.get_total_norm(grads).item(), 1.0, rtol=1e-5)
    ps = grads_params()
    raw = [p.grad.numpy().copy() for p in ps[:2]]
    assert nn.utils.clip_grad_value_(ps, 0.5) is None
    for p, r in zip(ps, raw):
        np.testing.assert_array_equal(p.grad.numpy(), np.clip(r, -0.5, 0.5))


def test_parameters_to_vector_and_back():
    m = nn.Linear(3, 2)
    vec = nn.utils.parameters_to_vector(m.parameters())
    assert vec.shape == (8,)
    np.testing.assert_array_equal(vec.detach().numpy(), np.concatenate([m.weight.detach().numpy().ravel(),
                                                                        m.bias.detach().numpy()]))
    vec.sum().backward()
    assert m.weight.grad.tolist() == [[1.0] * 3] * 2
    new = torch.arange(8.0)
    nn.utils.vector_to_parameters(new, m.parameters())
    assert m.weight.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and m.bias.tolist() == [6.0, 7.0]
    assert isinstance(m.weight, nn.Parameter)
    with pytest.raises(TypeError, match="^expected torch.Tensor, but got: list$"):
        nn.utils.vector_to_parameters([1.0], m.parameters())


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)

    def right_inverse(self, A):
        return A.triu()


class Scale(nn.Module):
    def forward(self, X):
        return 2 * X


def test_register_parametrization_symmetric():
    torch.manual_seed(0)
    m = nn.Linear(3, 3)
    w0 = m.weight.detach().clone()
    parametrize.register_parametrization(m, "weight", Symmetric())
    assert type(m).__name__ == "ParametrizedLinear" and isinstance(m, nn.Linear)
    assert parametrize.type_before_parametrizations(m) is nn.Linear
    assert parametrize.is_parametrized(m) and parametrize.is_parametrized(m, "weight")
    assert not parametrize.is_parametrized(m, "bias")
    np.testing.assert_array_equal(m.weight.detach().numpy(), m.weight.detach().numpy().T)
    # original holds right_inverse(w0): the upper triangle.
    np.testing.assert_array_equal(m.parametrizations.weight.original.detach().numpy(), np.triu(w0.numpy()))
    assert sorted(m.state_dict().keys()) == ["bias", "parametrizations.weight.original"]
    assert "weight" not in dict(m.named_parameters())
    # Gradients reach the original; assigning goes through right_inverse.
    m(torch.ones(1, 3)).sum().backward()
    assert m.parametrizations.weight.original.grad is not None
    m.weight = torch.ones(3, 3)
    assert m.parametrizations.weight.original.tolist() == [[1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]]
    # Chained: Scale after Symmetric.
    parametrize.register_parametrization(m, "weight", Scale())
    assert m.weight.tolist() == [[2.0] * 3] * 3
    with parametrize.cached():
        assert m.weight is m.weight
    assert m.weight is not m.weight
    parametrize.remove_parametrizations(m, "weight", leave_parametrized=True)
    assert type(m) is nn.Linear and isinstance(m.weight, nn.Parameter) and m.weight.tolist() == [[2.0] * 3] * 3
    assert not hasattr(m, "parametrizations")


def test_remove_parametrizations_original_and_errors():
    m = nn.Linear(2, 2)
    parametrize.register_parametrization(m, "weight", Scale())
    w = m.parametrizations.weight.original.detach().clone()
    copied = copy.deepcopy(m)
    assert torch.equal(copied.weight, m.weight) and type(copied).__name__ == "ParametrizedLinear"
    parametrize.remove_parametrizations(m, "weight", leave_parametrized=False)
    assert torch.equal(m.weight.detach(), w)
    with pytest.raises(ValueError, match="^Module Linear\\(in_features=2, out_features=2, bias=True\\) does not have "
                       "a parametrization on weight$"):
        parametrize.remove_parametrizations(m, "weight")
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized element with name "
                       "'foo'$"):
        parametrize.register_parametrization(m, "foo", Scale())

    class Flatten(nn.Module):
        def forward(self, X):
            return X.reshape(-1)

    with pytest.raises(ValueError, match=r"^Registering a parametrization may not change the shape of the tensor, "
                       r"unless `unsafe` flag is enabled.\nunparametrized shape: torch.Size\(\[2, 2\]\)\n"
                       r"parametrized shape: torch.Size\(\[4\]\)$"):
        parametrize.register_parametrization(m, "weight", Flatten())
    assert type(m) is nn.Linear  # nothing changed
    parametrize.register_parametrization(m, "weight", Flatten(), unsafe=True)
    assert m.weight.shape == (4,)


def test_parametrizations_weight_norm_matches_numpy():
    m = nn.Linear(4, 3, dtype=D)
    w = np.random.RandomState(4).randn(3, 4)
    with torch.no_grad():
        m.weight.copy_(torch.tensor(w))
    parametrizations.weight_norm(m)
    assert sorted(m.state_dict().keys()) == ["bias", "parametrizations.weight.original0",
                                             "parametrizations.weight.original1"]
    g = m.parametrizations.weight.original0
    assert g.shape == (3, 1)
    np.testing.assert_allclose(g.detach().numpy()[:, 0], np.linalg.norm(w, axis=1), rtol=1e-15)
    np.testing.assert_allclose(m.weight.detach().numpy(), w, rtol=1e-14)
    with torch.no_grad():
        g.mul_(2.0)
    np.testing.assert_allclose(m.weight.detach().numpy(), 2 * w, rtol=1e-14)
    m2 = parametrizations.weight_norm(nn.Linear(4, 3, dtype=D), dim=None)
    assert m2.parametrizations.weight.original0.shape == ()
    # A checkpoint with the older names weight_g / weight_v loads.
    sd = {"weight_g": torch.full((3, 1), 3.0, dtype=D), "weight_v": torch.tensor(w), "bias": torch.zeros(3, dtype=D)}
    m.load_state_dict(sd)
    np.testing.assert_allclose(m.weight.detach().numpy(), 3 * w / np.linalg.norm(w, axis=1, keepdims=True))
    v = torch.tensor(w, requires_grad=True)
    gg = torch.rand(3, 1, dtype=D, requires_grad=True)
    assert gradcheck(lambda a, b: m.parametrizations.weight[0](a, b), (gg, v))


def test_parametrizations_spectral_norm_matches_pytorch():
    torch.manual_seed(5)
    m = nn.Linear(4, 3, dtype=D)
    with torch.no_grad():
        m.weight.copy_(torch.tensor(np.random.RandomState(6).randn(3, 4)))
    parametrizations.spectral_norm(m)
    assert sorted(m.state_dict().keys()) == ["bias", "parametrizations.weight.0._u", "parametrizations.weight.0._v",
                                             "parametrizations.weight.original"]
    w = m.weight  # training mode: this access runs one power iteration
    ref_w = [-0.084976974045, 0.198690799946, 0.059367289017, -0.245048431832, -0.677774729267, 0.248907679957,
             0.307182425292, -0.412667730645, 0.44679053989, -0.117167961799, 0.717158333268, 0.164027298613]
    np.testing.assert_allclose(w.detach().numpy().ravel(), ref_w, atol=1e-11)
    w = m.weight
    np.testing.assert_allclose(m.parametrizations.weight[0]._u.numpy(),
                               [-0.233134688348, -0.757641829253, 0.609612233846], atol=1e-11)
    np.testing.assert_allclose(np.linalg.svd(w.detach().numpy(), compute_uv=False)[0], 1.0, rtol=1e-9)
    m.eval()
    u = m.parametrizations.weight[0]._u.clone()
    _ = m.weight
    assert torch.equal(u, m.parametrizations.weight[0]._u)  # no iteration in eval mode
    with pytest.raises(ValueError, match="^Expected n_power_iterations to be positive, but got "
                       "n_power_iterations=0$"):
        parametrizations.spectral_norm(nn.Linear(2, 2), n_power_iterations=0)


def test_old_weight_norm():
    m = nn.Linear(4, 3, dtype=D)
    w = m.weight.detach().numpy().copy()
    with pytest.warns(FutureWarning, match="`torch.nn.utils.weight_norm` is deprecated in favor of "
                      "`torch.nn.utils.parametrizations.weight_norm`."):
        nn.utils.weight_norm(m, dim=1)
    assert sorted(m.state_dict().keys()) == ["bias", "weight_g", "weight_v"]
    assert m.weight_g.shape == (1, 4)
    np.testing.assert_allclose(m.weight_g.detach().numpy()[0], np.linalg.norm(w, axis=0))
    with torch.no_grad():
        m.weight_g.mul_(0.5)
    m(torch.ones(1, 4, dtype=D))  # the pre-hook recomputes weight
    np.testing.assert_allclose(m.weight.detach().numpy(), 0.5 * w, rtol=1e-14)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="^Cannot register two weight_norm hooks on the same parameter weight$"):
            nn.utils.weight_norm(m)
    nn.utils.remove_weight_norm(m)
    assert isinstance(m.weight, nn.Parameter) and sorted(m.state_dict().keys()) == ["bias", "weight"]
    np.testing.assert_allclose(m.weight.detach().numpy(), 0.5 * w, rtol=1e-14)
    with pytest.raises(ValueError, match="^weight_norm of 'weight' not found in Linear"):
        nn.utils.remove_weight_norm(m)


def test_old_spectral_norm_matches_pytorch():
    torch.manual_seed(7)
    m = nn.Linear(4, 3, dtype=D)
    with torch.no_grad():
        m.weight.copy_(torch.tensor(np.random.RandomState(6).randn(3, 4)))
    nn.utils.spectral_norm(m, n_power_iterations=2)
    sd = m.state_dict()
    assert sorted(sd.keys()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    assert sd._metadata[""]["spectral_norm"] == {"weight.version": 1}
    y = m(torch.ones(2, 4, dtype=D))
    ref_w = [-0.087363842993, 0.204271710611, 0.061034822373, -0.251931455138, -0.696812350619, 0.255899103446,
             0.315810694312, -0.42425891524, 0.459340180286, -0.120459024736, 0.737302177836, 0.16863456629]
    np.testing.assert_allclose(m.weight.detach().numpy().ravel(), ref_w, atol=1e-11)
    np.testing.assert_allclose(m.weight_u.numpy(), [-0.170724116359, -0.548956913447, 0.818229541921], atol=1e-11)
    np.testing.assert_allclose(y.detach().numpy().ravel(), [-0.406548163349, -1.011727727518, 0.867007742053] * 2,
                               atol=1e-11)
    y.sum().backward()
    assert m.weight_orig.grad is not None
    nn.utils.remove_spectral_norm(m)
    assert sorted(m.state_dict().keys()) == ["bias", "weight"] and isinstance(m.weight, nn.Parameter)
    np.testing.assert_allclose(m.weight.detach().numpy().ravel(), ref_w, atol=1e-11)
    with pytest.raises(ValueError, match="^spectral_norm of 'weight' not found in Linear"):
        nn.utils.remove_spectral_norm(m)


def test_reachable_from_torch_nn():
    import torch.nn.utils.rnn as rnn_mod
    assert nn.utils.rnn is rnn_mod and nn.utils.parametrize is parametrize
    assert nn.utils.clip_grad_norm_ is nn.utils.clip_grad.clip_grad_norm_
