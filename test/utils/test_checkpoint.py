"""torch.utils.checkpoint: same gradients, recomputed forward, preserved RNG, errors.

Tests torch/utils/checkpoint.py. Guide: docs/source/internals/checkpointing.rst
"""

import numpy as np
import pytest
import torch
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

def close(a, b):
    return np.allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6, atol=1e-7)


def same(a, b):
    return np.array_equal(a.detach().numpy(), b.detach().numpy())


VARIANTS = [pytest.param(True, id="reentrant"), pytest.param(False, id="non_reentrant")]


class Counted:
    """A small chain of tensor ops that counts how often it runs."""

    def __init__(self, w):
        self.w = w
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        h = (x * self.w).sin()
        return (h * h + x).exp().sum(0)


def inputs():
    x = torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], requires_grad=True)
    w = torch.tensor([1.5, -0.5, 2.0], requires_grad=True)
    return x, w


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_gradients_equal_those_without_checkpointing(use_reentrant):
    x, w = inputs()
    f = Counted(w)
    f(x).sum().backward()
    expected_x, expected_w = x.grad.clone(), w.grad.clone()

    x, w = inputs()
    f = Counted(w)
    out = checkpoint(f, x, use_reentrant=use_reentrant)
    out.sum().backward()
    assert close(x.grad, expected_x) and close(w.grad, expected_w)  # w: captured by f


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_forward_runs_again_during_backward(use_reentrant):
    x, w = inputs()
    f = Counted(w)
    out = checkpoint(f, x, use_reentrant=use_reentrant)
    assert f.calls == 1
    out.sum().backward()
    assert f.calls == 2


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_forward_keeps_no_graph_inside_the_checkpoint(use_reentrant):
    x, _ = inputs()
    out = checkpoint(lambda a: (a * 2).sin(), x, use_reentrant=use_reentrant)
    assert out.requires_grad and "Checkpoint" in type(out.grad_fn).__name__


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_rng_state_is_replayed_for_random_functions(use_reentrant):
    def dropout_like(a):
        return a * (torch.rand(a.shape) > 0.5).to(a.dtype) * 2.0

    torch.manual_seed(0)
    x, _ = inputs()
    dropout_like(x).sum().backward()
    expected = x.grad.clone()

    torch.manual_seed(0)
    x, _ = inputs()
    out = checkpoint(dropout_like, x, use_reentrant=use_reentrant)
    after_forward = torch.get_rng_state()
    out.sum().backward()
    assert same(x.grad, expected)
    # the replay happens on a fork of the RNG: the caller's stream continues untouched
    assert same(torch.get_rng_state(), after_forward)


def test_without_preserve_rng_state_the_recomputation_draws_new_numbers():
    masks = []

    def dropout_like(a):
        m = (torch.rand(a.shape) > 0.5).to(a.dtype)
        masks.append(m)
        return a * m

    torch.manual_seed(0)
    x, _ = inputs()
    checkpoint(dropout_like, x, use_reentrant=True, preserve_rng_state=False).sum().backward()
    assert not same(masks[0], masks[1])
    assert same(x.grad, masks[1])  # the gradient follows the recomputed mask


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_non_tensor_arguments_and_several_outputs(use_reentrant):
    x, _ = inputs()
    a, b = checkpoint(lambda t, k: (t * k, t.sin()), x, 3.0, use_reentrant=use_reentrant)
    (a.sum() + b.sum()).backward()
    assert close(x.grad, 3.0 + x.detach().cos())


def test_non_reentrant_accepts_kwargs_and_autograd_grad():
    x, _ = inputs()
    out = checkpoint(lambda t, scale: (t * scale).exp(), x, scale=2.0, use_reentrant=False)
    (g,) = torch.autograd.grad(out.sum(), x)
    assert close(g, 2.0 * (2.0 * x.detach()).exp())


def test_missing_use_reentrant_warns_and_defaults_to_reentrant():
    x, _ = inputs()
    with pytest.warns(UserWarning, match="torch.utils.checkpoint: the use_reentrant parameter should be "
                                         "passed explicitly. Starting in PyTorch 2.9"):
        out = checkpoint(lambda t: t * 2, x)
    assert type(out.grad_fn).__name__.startswith("CheckpointFunction")


def test_reentrant_rejects_kwargs():
    with pytest.raises(ValueError, match="^Unexpected keyword arguments: foo,bar$"):
        checkpoint(lambda t, **kw: t, torch.ones(1), use_reentrant=True, foo=1, bar=2)


def test_inputs_without_requires_grad_warn():
    with pytest.warns(UserWarning, match="^None of the inputs have requires_grad=True. Gradients will be None$"):
        checkpoint(lambda t: t * 2, torch.ones(2), use_reentrant=True)


def test_outputs_without_grad_raise_in_backward():
    x, _ = inputs()
    out = checkpoint(lambda t: t.detach() * 2, x, use_reentrant=True)
    with pytest.raises(RuntimeError, match="^none of output has requires_grad=True, this checkpoint\\(\\) is not necessary$"):
        out.sum().backward()


@pytest.mark.parametrize("use_reentrant", VARIANTS)
def test_checkpoint_sequential_matches_plain_chain(use_reentrant):
    calls = []

    def layer(k):
        def f(t):
            calls.append(k)
            return (t * (k + 1)).tanh()
        return f

    functions = [layer(k) for k in range(4)]
    x, _ = inputs()
    y = x
    for f in functions:
        y = f(y)
    y.sum().backward()
    expected = x.grad.clone()

    calls.clear()
    x, _ = inputs()
    out = checkpoint_sequential(functions, 2, x, use_reentrant=use_reentrant)
    assert calls == [0, 1, 2, 3]
    out.sum().backward()
    assert calls == [0, 1, 2, 3, 0, 1]  # only the first segment is checkpointed and recomputed
    assert close(x.grad, expected)


def test_checkpoint_sequential_warns_and_rejects_unknown_kwargs():
    with pytest.warns(UserWarning, match="checkpoint_sequential: the use_reentrant parameter should be passed"):
        checkpoint_sequential([lambda t: t], 1, torch.ones(1, requires_grad=True))
    with pytest.raises(ValueError, match="^Unexpected keyword arguments: foo$"):
        checkpoint_sequential([lambda t: t], 1, torch.ones(1), use_reentrant=True, foo=1)
