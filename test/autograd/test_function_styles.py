"""torch.autograd.Function in both styles: forward(ctx, ...) and forward(...) + setup_context.

Tests torch/autograd/function.py and torch/csrc/autograd/python_function.cpp (Function.apply)
against PyTorch 2.13's behaviour and messages; also the dtype check of requires_grad.
Guide: docs/source/internals/autograd.rst
"""

import numpy as np
import pytest

import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


def leaf(*values):
    return torch.tensor(values, requires_grad=True)


class Scale(Function):
    """The PyTorch 2.x style: forward without ctx, setup_context saves."""

    @staticmethod
    def forward(x, k=3.0):
        return x * k

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.inputs_seen = inputs
        ctx.k = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k, None


class OldScale(Function):
    @staticmethod
    def forward(ctx, x, k=2.0):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k, None


def test_setup_context_style_forward_gets_no_ctx():
    x = leaf(1.0, 2.0)
    y = Scale.apply(x)
    assert y.tolist() == [3.0, 6.0] and y.grad_fn.name() == "ScaleBackward"
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_setup_context_sees_defaults_and_keywords_bound_in_forward_order():
    x = leaf(1.0)
    y = Scale.apply(x, k=5.0)
    ctx = y.grad_fn
    assert ctx.inputs_seen[0] is x and ctx.inputs_seen[1] == 5.0
    assert Scale.apply(x).grad_fn.inputs_seen[1] == 3.0  # the default, filled in


def test_old_style_takes_keywords_too():
    x = leaf(1.0, 2.0)
    y = OldScale.apply(x, k=4.0)
    assert y.tolist() == [4.0, 8.0]
    y.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_bad_arguments_raise_pythons_binding_errors():
    with pytest.raises(TypeError, match="^too many positional arguments$"):
        Scale.apply(leaf(1.0), 4.0, 1)
    with pytest.raises(TypeError, match="^missing a required argument: 'x'$"):
        Scale.apply()


def test_forward_without_ctx_and_without_setup_context_gets_ctx_anyway():
    class NoSetup(Function):
        @staticmethod
        def forward(x):
            return x * 2

    with pytest.raises(TypeError, match=r"NoSetup\.forward\(\) takes 1 positional argument but 2 were given$"):
        NoSetup.apply(leaf(1.0))


def test_base_class_messages():
    with pytest.raises(NotImplementedError, match="^You must implement the forward function for custom autograd.Function.$"):
        Function.apply(leaf(1.0))
    with pytest.raises(NotImplementedError, match="^setup_context is not implemented.$"):
        Function.setup_context(None, (), None)
    assert Function.vjp is Function.backward


def test_missing_backward_raises_at_backward():
    class NoBackward(Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

    y = NoBackward.apply(leaf(1.0))
    with pytest.raises(NotImplementedError, match="^You must implement either the backward or vjp method for your "
                                                  "custom autograd.Function to use it with backward mode AD.$"):
        y.sum().backward()


def test_vjp_is_backward_and_both_is_an_error():
    class WithVjp(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 2

    x = leaf(1.0)
    WithVjp.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0]

    class Both(WithVjp):
        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(RuntimeError, match="^Implementing both 'backward' and 'vjp' for a custom Function is not "
                                           "allowed. You should only implement one of them.$"):
        Both.apply(leaf(1.0)).sum().backward()


def test_instantiating_warns_and_calling_the_instance_is_refused():
    with pytest.warns(DeprecationWarning) as caught:
        fn = OldScale()
    assert str(caught[0].message) == (
        "<class 'test_function_styles.OldScale'> should not be instantiated. Methods on autograd functions are all "
        "static, so you should invoke them on the class itself. Instantiating an autograd function will raise an "
        "error in a future version of PyTorch.")
    with pytest.raises(RuntimeError, match="^Legacy autograd function with non-static forward method is deprecated."):
        fn(leaf(1.0))


class MaskedDouble(Function):
    """Two outputs: a differentiable one and a mask; saves an input and an output in setup_context."""

    @staticmethod
    def forward(x):
        return x * 2, x > 0

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_non_differentiable(output[1])
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(inputs[0], output[0])

    @staticmethod
    def backward(ctx, grad, grad_mask):
        x, doubled = ctx.saved_tensors
        MaskedDouble.seen = (grad_mask, x, doubled, ctx.needs_input_grad)
        return grad * 2


def test_setup_context_marks_saves_and_sets_materialize_grads():
    x = leaf(1.0, -1.0)
    y, mask = MaskedDouble.apply(x)
    assert y.requires_grad and not mask.requires_grad and mask.dtype == torch.bool
    y.sum().backward()
    grad_mask, saved_x, saved_doubled, needs = MaskedDouble.seen
    assert grad_mask is None  # not materialized as zeros
    assert saved_x is x and saved_doubled.tolist() == [2.0, -2.0] and needs == (True,)
    assert x.grad.tolist() == [2.0, 2.0]


def test_save_for_backward_in_setup_context_checks_its_arguments():
    class SaveInt(Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(1)

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(TypeError, match="^save_for_backward can only save variables, but argument 0 is of type int$"):
        SaveInt.apply(leaf(1.0))


def test_setup_context_runs_with_grad_mode_off():
    class Probe(Function):
        @staticmethod
        def forward(x):
            Probe.forward_grad = torch.is_grad_enabled()
            return x.clone()

        @staticmethod
        def setup_context(ctx, inputs, output):
            Probe.setup_grad = torch.is_grad_enabled()

        @staticmethod
        def backward(ctx, g):
            return g

    Probe.apply(leaf(1.0))
    assert Probe.forward_grad is False and Probe.setup_grad is False


class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 2

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def test_once_differentiable_first_order_works():
    x = leaf(1.0, 3.0)
    Square.apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 6.0])


def test_once_differentiable_result_has_no_history_when_grad_output_needs_none():
    x = leaf(1.0, 3.0)
    (g,) = torch.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [2.0, 6.0] and not g.requires_grad and g.grad_fn is None
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad and does not have a grad_fn$"):
        g.sum().backward()


def test_once_differentiable_refuses_double_backward():
    x = leaf(1.0, 3.0)
    y = Square.apply(x)
    v = torch.ones(2, requires_grad=True)  # a grad_output that requires grad: double backward asked for
    (g,) = torch.autograd.grad(y, x, v, create_graph=True)
    assert g.requires_grad and g.tolist() == [2.0, 6.0]
    with pytest.raises(RuntimeError, match="^trying to differentiate twice a function that was marked with "
                                           "@once_differentiable$"):
        g.sum().backward()


# ---- requires_grad on integer tensors: three messages, as in PyTorch ----

def test_requires_grad_method_message():
    with pytest.raises(RuntimeError, match="^only Tensors of floating point dtype can require gradients$"):
        torch.tensor([1]).requires_grad_()
    assert torch.tensor([1]).requires_grad_(False).requires_grad is False


def test_requires_grad_attribute_message():
    t = torch.tensor([1])
    with pytest.raises(RuntimeError, match="^only Tensors of floating point and complex dtype can require gradients$"):
        t.requires_grad = True
    t.requires_grad = False
    c = torch.tensor([1 + 1j])
    c.requires_grad = True
    assert c.requires_grad


@pytest.mark.parametrize("make", [
    lambda: torch.tensor([1], requires_grad=True),
    lambda: torch.zeros(2, dtype=torch.int64, requires_grad=True),
    lambda: torch.arange(3, requires_grad=True),
    lambda: torch.empty(2, dtype=torch.int32, requires_grad=True),
    lambda: torch.ones(2, dtype=torch.bool, requires_grad=True),
])
def test_factory_requires_grad_message(make):
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require gradients$"):
        make()
