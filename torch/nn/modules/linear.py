"""torch/nn/modules/linear.py - Identity, Linear (y = x W^T + b) and Bilinear.

Mirrors PyTorch's torch/nn/modules/linear.py. Guide: docs/source/internals/python_layer.rst.

The layer owns the parameters and their default initialization (reset_parameters); the
arithmetic is F.linear / F.bilinear.
"""

import math
from typing import Any

import torch
from torch import Tensor
from torch.nn import functional as F
from torch.nn import init
from torch.nn.parameter import Parameter

from .module import Module

__all__ = ["Identity", "Linear", "Bilinear", "NonDynamicallyQuantizableLinear"]


def _add_bias(module: Module, bias: bool, out_features: int, factory_kwargs) -> None:
    """Linear's and Bilinear's ``bias``: an (out_features,) Parameter, or None registered in its place."""
    if bias:
        module.bias = Parameter(torch.empty(out_features, **factory_kwargs))
    else:
        module.register_parameter("bias", None)


class Identity(Module):
    r"""Returns its input; takes (and ignores) any constructor arguments."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class Linear(Module):
    r"""y = x W^T + b with W of shape (out_features, in_features).

    Default initialization (PyTorch's): W ~ kaiming_uniform_(a=sqrt(5)), that is
    U(-1/sqrt(in_features), 1/sqrt(in_features)), and b ~ the same uniform.

    >>> m = torch.nn.Linear(3, 2)
    >>> m
    Linear(in_features=3, out_features=2, bias=True)
    >>> m(torch.ones(4, 3)).shape
    torch.Size([4, 2])
    """

    __constants__ = ["in_features", "out_features"]

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in_features), **factory_kwargs))
        _add_bias(self, bias, out_features, factory_kwargs)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # kaiming_uniform_ with a=sqrt(5) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)): see
        # https://github.com/pytorch/pytorch/issues/57109 for why PyTorch keeps it.
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input: Tensor) -> Tensor:
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class NonDynamicallyQuantizableLinear(Linear):
    """A Linear under another name: MultiheadAttention's out_proj, which PyTorch's dynamic
    quantization skips. Pickled attention models name this class, so it exists here too."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(in_features, out_features, bias=bias, device=device, dtype=dtype)


class Bilinear(Module):
    r"""y = x1^T A x2 + b with A of shape (out_features, in1_features, in2_features).

    Default initialization: A and b ~ U(-1/sqrt(in1_features), 1/sqrt(in1_features))."""

    __constants__ = ["in1_features", "in2_features", "out_features"]

    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True,
                 device=None, dtype=None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.in1_features = in1_features
        self.in2_features = in2_features
        self.out_features = out_features
        self.weight = Parameter(torch.empty((out_features, in1_features, in2_features), **factory_kwargs))
        _add_bias(self, bias, out_features, factory_kwargs)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
            f"out_features={self.out_features}, bias={self.bias is not None}"
        )
