"""torch/nn/modules/normalization.py - LayerNorm and GroupNorm: normalize, then scale and shift.

Mirrors PyTorch's torch/nn/modules/normalization.py. Guide: docs/source/internals/python_layer.rst.
"""

import numbers

import torch
from torch import Tensor
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter

__all__ = ["LayerNorm", "GroupNorm"]


def _init_affine(module: Module, affine: bool, shape, bias: bool, factory_kwargs) -> None:
    """Register the ``weight`` and ``bias`` Parameters of ``shape`` (bias None unless ``bias``),
    both None unless ``affine``; then fill them with :func:`_reset_affine`."""
    if affine:
        module.weight = Parameter(torch.empty(shape, **factory_kwargs))
        if bias:
            module.bias = Parameter(torch.empty(shape, **factory_kwargs))
        else:
            module.register_parameter("bias", None)
    else:
        module.register_parameter("weight", None)
        module.register_parameter("bias", None)
    module.reset_parameters()


def _reset_affine(module: Module, affine: bool) -> None:
    """weight to ones and bias (if any) to zeros, when ``affine``."""
    if affine:
        init.ones_(module.weight)
        if module.bias is not None:
            init.zeros_(module.bias)


class LayerNorm(Module):
    """weight (ones) and bias (zeros) of normalized_shape when elementwise_affine."""

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True, bias: bool = True,
                 device=None, dtype=None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        _init_affine(self, self.elementwise_affine, self.normalized_shape, bias, factory_kwargs)

    def reset_parameters(self) -> None:
        _reset_affine(self, self.elementwise_affine)

    def forward(self, input: Tensor) -> Tensor:
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return "{normalized_shape}, eps={eps}, elementwise_affine={elementwise_affine}, bias={use_bias}".format(
            **self.__dict__, use_bias=self.bias is not None)


class GroupNorm(Module):
    """Normalize over groups of num_channels // num_groups channels; weight (ones) and bias
    (zeros) of (num_channels,) when affine."""

    __constants__ = ["num_groups", "num_channels", "eps", "affine"]

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        _init_affine(self, self.affine, num_channels, bias, factory_kwargs)

    def reset_parameters(self) -> None:
        _reset_affine(self, self.affine)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return "{num_groups}, {num_channels}, eps={eps}, affine={affine}, bias={use_bias}".format(
            **self.__dict__, use_bias=self.bias is not None)
