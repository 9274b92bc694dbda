"""torch/autograd/grad_mode.py - no_grad, enable_grad, set_grad_enabled, inference_mode.

Mirrors PyTorch's torch/autograd/grad_mode.py. Guide: docs/source/internals/autograd.rst.

Each is a context manager (and a decorator) over the thread-local switch in
c10/core/GradMode.h: with grad mode off, operators still run their autograd kernels, but
those record no nodes.
"""

import functools
import inspect

import torch

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode"]


class _DecoratorContextManager:
    """Usable as ``with ctx():`` and as ``@ctx()`` on a function."""

    def __call__(self, orig_func):
        if inspect.isclass(orig_func):
            raise RuntimeError("Please use `with torch.no_grad()` etc. on classes' methods, not on the class")

        @functools.wraps(orig_func)
        def decorate_context(*args, **kwargs):
            with self.clone():
                return orig_func(*args, **kwargs)

        return decorate_context

    def clone(self):
        return self.__class__()


class no_grad(_DecoratorContextManager):
    r"""Disable gradient calculation inside the block.

    >>> x = torch.tensor([1.0], requires_grad=True)
    >>> with torch.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    """

    def __init__(self) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = torch.is_grad_enabled()
        torch._C._set_grad_enabled(False)

    def __exit__(self, *args) -> None:
        torch._C._set_grad_enabled(self.prev)


class enable_grad(_DecoratorContextManager):
    r"""Enable gradient calculation inside the block (inside a no_grad block, say)."""

    def __enter__(self) -> None:
        self.prev = torch.is_grad_enabled()
        torch._C._set_grad_enabled(True)

    def __exit__(self, *args) -> None:
        torch._C._set_grad_enabled(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    r"""Set gradient calculation on or off: at once, and as a context manager restoring it."""

    def __init__(self, mode: bool) -> None:
        self.prev = torch.is_grad_enabled()
        self.mode = mode
        torch._C._set_grad_enabled(mode)

    def __call__(self, orig_func):
        torch._C._set_grad_enabled(self.prev)
        return super().__call__(orig_func)

    def __enter__(self) -> None:
        torch._C._set_grad_enabled(self.mode)

    def __exit__(self, *args) -> None:
        torch._C._set_grad_enabled(self.prev)

    def clone(self):
        return self.__class__(self.mode)


class inference_mode(_DecoratorContextManager):
    r"""Like no_grad, and tensors made inside are inference tensors (no version counter,
    no autograd keys: c10/core/InferenceMode.h)."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode

    def __new__(cls, mode=True):
        if isinstance(mode, bool):
            return super().__new__(cls)
        return cls()(mode)  # used as a bare decorator: @torch.inference_mode

    def __enter__(self) -> None:
        self._inference_mode_context = torch._C._InferenceMode(self.mode)

    def __exit__(self, *args) -> None:
        del self._inference_mode_context

    def clone(self):
        return self.__class__(self.mode)
