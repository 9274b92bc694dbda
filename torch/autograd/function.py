"""torch/autograd/function.py - torch.autograd.Function: operations with a backward written in Python.

Mirrors PyTorch's torch/autograd/function.py. Guide: docs/source/internals/autograd.rst.

Seed 001: a custom operation subclasses Function with static forward(ctx, ...) and
backward(ctx, *grads), saves what backward needs with ctx.save_for_backward, and is called
as MyFn.apply(...). The C++ half (torch/csrc/autograd/python_function.cpp) runs forward
without recording and gives the outputs a PyNode whose apply() calls backward.
"""

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
    """The class of ctx objects: the engine calls apply(*grads), which calls backward."""

    def apply(self, *args):
        return self._forward_cls.backward(self, *args)


class FunctionMeta(type):
    """Gives each Function subclass its ctx class, MyFnBackward (so grad_fn is named after it)."""

    def __init__(cls, name, bases, attrs):
        backward_fn = type(name + "Backward", (BackwardCFunction,), {"_forward_cls": cls})
        cls._backward_cls = backward_fn
        super().__init__(name, bases, attrs)


class Function(_C._FunctionBase, FunctionCtx, metaclass=FunctionMeta):
    r"""Base class of custom autograd operations.

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
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. "
            "Please use new-style autograd function with static forward method. "
            "(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. "
            "Please use new-style autograd function with static forward method. "
            "(Example: https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"
        )

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the forward function for custom autograd.Function."
        )

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it with "
            "backward mode AD."
        )

    @classmethod
    def apply(cls, *args, **kwargs):
        if kwargs:
            raise TypeError("Function.apply() takes no keyword arguments in this tree; pass them positionally")
        return super().apply(*args)  # torch._C._FunctionBase.apply (python_function.cpp)


def once_differentiable(fn):
    """Mark a backward as not differentiable itself (its result gets no history)."""
    import functools

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            return fn(ctx, *args)

    return wrapper
