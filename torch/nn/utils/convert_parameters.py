"""torch/nn/utils/convert_parameters.py - parameters_to_vector and vector_to_parameters.

Mirrors PyTorch's torch/nn/utils/convert_parameters.py.
Guide: docs/source/internals/programs/nn_utils.rst.
"""

from typing import Iterable, Optional

import torch

__all__ = ["parameters_to_vector", "vector_to_parameters"]


def parameters_to_vector(parameters: Iterable[torch.Tensor]) -> torch.Tensor:
    r"""All parameters flattened and concatenated into one 1-D tensor (differentiable)."""
    param_device = None
    vec = []
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        vec.append(param.view(-1))
    return torch.cat(vec)


def vector_to_parameters(vec: torch.Tensor, parameters: Iterable[torch.Tensor]) -> None:
    r"""Make each parameter's .data the next slice of vec, reshaped to the parameter."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError(f"expected torch.Tensor, but got: {torch.typename(vec)}")
    param_device = None
    pointer = 0
    for param in parameters:
        param_device = _check_param_device(param, param_device)
        num_param = param.numel()
        # A view of vec, not a copy: the parameters then share vec's memory, as in PyTorch.
        param.data = vec[pointer:pointer + num_param].view_as(param).data
        pointer += num_param


def _check_param_device(param: torch.Tensor, old_param_device: Optional[int]) -> int:
    """The device index of the first parameter (-1 for the CPU); TypeError on a mix."""
    if old_param_device is None:
        return param.get_device() if param.device.type == "cuda" else -1
    if param.device.type == "cuda":
        warn = param.get_device() != old_param_device
    else:
        warn = old_param_device != -1
    if warn:
        raise TypeError("Found two parameters on different devices, this is currently not supported.")
    return old_param_device
