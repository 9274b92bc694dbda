"""torch/autograd/function.py - torch.autograd.Function: operations with a backward written in Python.

Mirrors PyTorch's torch/autograd/function.py. Guide: docs/source/internals/autograd.rst.

Seed 001: a custom operation subclasses Function with static forward(ctx, ...) and
backward(ctx, *grads), saves what backward needs with ctx.save_for_backward, and is called
as MyFn.apply(...). The PyTorch 2.x style splits forward: forward(*inputs) computes,
setup_context(ctx, inputs, output) saves and marks. The C++ half
(torch/csrc/autograd/python_function.cpp) runs forward (and setup_context) without
recording and gives the outputs a PyNode whose apply() calls backward.
"""

import functools
import inspect
import warnings
from typing import Any, Tuple

import torch
from torch import _C

__all__ = ["FunctionCtx", "BackwardCFunction", "Function", "once_differentiable"]


class FunctionCtx:
    """What ctx offers forward: saving tensors, marking outputs."""

    def save_for_backward(self, *tensors: Any) -> None:
        r"""Save tensors for backward (read there as ``ctx.saved_tensors``).

        Saved through SavedVariable: an in-place change to one of them before backward
        is an error, and they are freed after backward."""
        self.to_save = tensors

    def mark_dirty(self, *args: Any) -> None:
        r"""Say that forward modified these inputs in place (they become outputs)."""
        self.dirty_tensors = args

    def mark_non_differentiable(self, *args: Any) -> None:
        r"""Say that these outputs get no gradient (indices, masks)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        r"""Whether backward sees zeros (True, the default) or None for missing gradients."""
        self.materialize_grads = value


class BackwardCFunction(_C._FunctionBase, FunctionCtx):
    """The class of ctx objects: the engine calls apply(*grads), which calls backward (or vjp)."""

    def apply(self, *args):
        backward_fn = self._forward_cls.backward
        vjp_fn = self._forward_cls.vjp
        if backward_fn is not Function.backward and vjp_fn is not Function.vjp:
            raise RuntimeError(
                "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
                "You should only implement one of them.")
        user_fn = vjp_fn if vjp_fn is not Function.vjp else backward_fn
        return user_fn(self, *args)


class FunctionMeta(type):
    """Gives each Function subclass its ctx class, MyFnBackward (so grad_fn is named after it)."""

    def __init__(cls, name, bases, attrs):
        backward_fn = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls})
        cls._backward_cls = backward_fn
        super().__init__(name, bases, attrs)


class _SingleLevelFunction(_C._FunctionBase, FunctionCtx, metaclass=FunctionMeta):
    """The static methods a custom Function fills in, with PyTorch's messages when one is missing.

    The C++ apply (python_function.cpp) compares a class's ``setup_context`` with this class's
    to tell the two styles apart: forward(ctx, *inputs), or forward(*inputs) plus
    setup_context(ctx, inputs, output).
    """

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def setup_context(ctx: Any, inputs: Tuple[Any, ...], output: Any) -> Any:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it with "
            "backward mode AD."
        )

    # vjp is backward's other name; a class defines one of them.
    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD."
        )


class Function(_SingleLevelFunction):
    r"""Base class of custom autograd operations.

    Either forward(ctx, *inputs) saves what backward needs itself, or (PyTorch 2.x style)
    forward(*inputs) computes only and setup_context(ctx, inputs, output) saves:

    >>> class Exp(torch.autograd.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         result = x.exp()
    ...         ctx.save_for_backward(result)
    ...         return result
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         (result,) = ctx.saved_tensors
    ...         return grad_output * result
    >>> x = torch.tensor([0.0, 1.0], requires_grad=True)
    >>> y = Exp.apply(x)
    >>> y.grad_fn.name()
    'ExpBackward'
    """

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions "
            "are all static, so you should invoke them on the class itself. "
            "Instantiating an autograd function will raise an "
            "error in a future version of PyTorch.",
            DeprecationWarning,
            stacklevel=2,
        )

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. "
            "Please use new-style autograd function with static forward method. "
            "(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        # The C++ apply takes the inputs positionally: keyword arguments (and, for the
        # setup_context style, the defaults) are bound against forward's signature first, so
        # setup_context sees every input in forward's order.
        if _is_setup_context_defined(cls.setup_context):
            args = _bind_default_args(cls.forward, *args, **kwargs).args
        elif kwargs:
            bound = _bind_default_args(cls.forward, None, *args, **kwargs)
            if bound.kwargs:  # forward(ctx, ..., *, k): the C++ apply cannot pass k by name
                raise TypeError(
                    "Function.apply: keyword-only arguments of forward are not supported here "
                    f"(got {sorted(bound.kwargs)})")
            args = bound.args[1:]
        return super().apply(*args)  # torch._C._FunctionBase.apply (python_function.cpp)


def _is_setup_context_defined(fn):
    return fn is not _SingleLevelFunction.setup_context


def _bind_default_args(func, *args, **kwargs):
    # As PyTorch's: the inputs in forward's order, defaults filled in (keyword-only ones are
    # not inputs of the setup_context style).
    signature = inspect.signature(func)
    bound_args = signature.bind(*args, **kwargs)
    bound_args.apply_defaults()
    return bound_args


class _DelayedError(Function):
    """The node once_differentiable puts on a backward's outputs: differentiating them raises."""

    @staticmethod
    def forward(ctx, *inputs):
        return inputs if len(inputs) > 1 else inputs[0]

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise RuntimeError("trying to differentiate twice a function that was marked with @once_differentiable")


def once_differentiable(fn):
    """Mark a backward as not differentiable itself: it runs without recording, and when its
    inputs require grad (a double backward was asked for), its outputs carry a node whose own
    backward raises."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            outputs = fn(ctx, *args)
        if not torch.is_grad_enabled():
            return outputs
        requires_grad = any(isinstance(arg, torch.Tensor) and arg.requires_grad for arg in args)
        if not requires_grad:
            return outputs
        was_tuple = isinstance(outputs, tuple)
        outputs = outputs if was_tuple else (outputs,)

        # Fresh leaves that require grad, so _DelayedError's outputs get its node.
        def fake_requires_grad(var):
            if isinstance(var, torch.Tensor):
                var = var.detach()
                if var.is_floating_point() or var.is_complex():
                    var.requires_grad = True
            return var

        delayed = _DelayedError.apply(*[fake_requires_grad(v) for v in outputs])
        return delayed if was_tuple else (delayed[0] if isinstance(delayed, tuple) else delayed)

    return wrapper
