"""torch/nn/utils/clip_grad.py - clip_grad_norm_, clip_grad_value_, get_total_norm, clip_grads_with_norm_.

Mirrors PyTorch's torch/nn/utils/clip_grad.py. Guide: docs/source/internals/programs/nn_utils.rst.

PyTorch groups the gradients by device and dtype and hands each group to a foreach kernel
(_foreach_norm, _foreach_mul_). On the CPU those kernels do per tensor what is done here one
tensor at a time, in the same order, so the numbers are the same: the vector norm of each
gradient, then the norm of those norms, then every gradient multiplied in place by
min(max_norm / (total_norm + 1e-6), 1).
"""

import functools
import types
import warnings
from typing import Iterable, Optional, Union

import torch
from torch import Tensor

__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grad_value_"]

_tensor_or_tensors = Union[Tensor, Iterable[Tensor]]


def _no_grad(func):
    # A wrapper rather than @torch.no_grad, as PyTorch does, so this module needs nothing of
    # torch.autograd beyond the context manager at call time.
    def _no_grad_wrapper(*args, **kwargs):
        with torch.no_grad():
            return func(*args, **kwargs)

    functools.update_wrapper(_no_grad_wrapper, func)
    return _no_grad_wrapper


def _check_foreach(foreach: Optional[bool], device) -> None:
    # foreach=None and foreach=False take the per-tensor path; foreach=True is honoured where
    # PyTorch has foreach kernels (CPU and CUDA), whose results this path reproduces.
    if foreach and device.type not in ("cpu", "cuda"):
        raise RuntimeError(f"foreach=True was passed, but can't use the foreach API on {device.type} tensors")


# [marker: get_total_norm]
@_no_grad
def _get_total_norm(tensors: _tensor_or_tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: Optional[bool] = None) -> Tensor:
    r"""The norm of the tensors taken together, as the norm of the vector of their norms."""
    if isinstance(tensors, torch.Tensor):
        tensors = [tensors]
    else:
        tensors = list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    first_device = tensors[0].device
    norms = []
    for t in tensors:
        _check_foreach(foreach, t.device)
        norms.append(torch.linalg.vector_norm(t, norm_type))
    total_norm = torch.linalg.vector_norm(torch.stack([norm.to(first_device) for norm in norms]), norm_type)
    if error_if_nonfinite and torch.logical_or(total_norm.isnan(), total_norm.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from "
            "`parameters` is non-finite, so it cannot be clipped. To disable "
            "this error and scale the gradients by the non-finite norm anyway, "
            "set `error_if_nonfinite=False`"
        )
    return total_norm
# [end marker: get_total_norm]


@_no_grad
def _clip_grads_with_norm_(parameters: _tensor_or_tensors, max_norm: float, total_norm: Tensor,
                           foreach: Optional[bool] = None) -> None:
    r"""Scale every .grad in place by min(max_norm / (total_norm + 1e-6), 1)."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    # max_norm / (total_norm + 1e-6), spelled as PyTorch evaluates a number divided by a
    # tensor (Tensor.__rdiv__: reciprocal, then multiply), which can differ from a true
    # division in the last bit of a float32.
    clip_coef = (total_norm + 1e-6).reciprocal() * max_norm
    # Always multiplied, even by 1.0: no data-dependent branch (which would have to read the
    # value back from a GPU).
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    for g in grads:
        _check_foreach(foreach, g.device)
        g.mul_(clip_coef_clamped.to(g.device))


@_no_grad
def clip_grad_norm_(parameters: _tensor_or_tensors, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: Optional[bool] = None) -> Tensor:
    r"""Clip the gradient norm of an iterable of parameters, in place; returns the total norm
    of the gradients (before clipping), viewed as one vector. norm_type may be ``inf``."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        # A generator (model.parameters()) is read once and used twice.
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.", stacklevel=3)
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = _get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    _clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


def clip_grad_norm(parameters: _tensor_or_tensors, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: Optional[bool] = None) -> Tensor:
    r"""Deprecated spelling of clip_grad_norm_."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(parameters: _tensor_or_tensors, clip_value: float, foreach: Optional[bool] = None) -> None:
    r"""Clamp every .grad in place to [-clip_value, clip_value]."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    for p in parameters:
        if p.grad is not None:
            _check_foreach(foreach, p.grad.device)
            p.grad.clamp_(min=-clip_value, max=clip_value)
