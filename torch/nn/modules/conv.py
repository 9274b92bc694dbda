"""torch/nn/modules/conv.py - Conv1d and Conv2d: a weight, a bias, and F.conv1d / F.conv2d.

Mirrors PyTorch's torch/nn/modules/conv.py (_ConvNd, Conv1d, Conv2d). Guide:
docs/source/internals/python_layer.rst.
"""

import math
from typing import Optional, Tuple, Union

import torch
from torch import Tensor
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter

__all__ = ["Conv1d", "Conv2d"]


def _ntuple(n):
    def parse(x):
        if isinstance(x, (list, tuple)):
            return tuple(x)
        return (x,) * n
    return parse


_single = _ntuple(1)
_pair = _ntuple(2)


class _ConvNd(Module):
    """What Conv1d and Conv2d share: parameters (C_out, C_in / groups, *kernel_size), init, repr."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Tuple[int, ...], stride, padding, dilation,
                 groups: int, bias: bool, padding_mode: str, device=None, dtype=None) -> None:
        super().__init__()
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode != "zeros":
            raise ValueError(f"padding_mode {padding_mode!r} is not supported here; only 'zeros'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = False
        self.output_padding = (0,) * len(kernel_size)
        self.groups = groups
        self.padding_mode = padding_mode
        factory_kwargs = {"device": device, "dtype": dtype}
        self.weight = Parameter(torch.empty((out_channels, in_channels // groups, *kernel_size), **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, **factory_kwargs))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # kaiming_uniform_ with a=sqrt(5): uniform(-1/sqrt(fan_in), 1/sqrt(fan_in)), as PyTorch does
        # the bias uses the same bound.
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)


class Conv1d(_ConvNd):
    """1-d convolution over (N, C_in, L): F.conv1d with this layer's weight and bias."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        padding_ = padding if isinstance(padding, str) else _single(padding)
        super().__init__(in_channels, out_channels, _single(kernel_size), _single(stride), padding_,
                         _single(dilation), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W): F.conv2d with this layer's weight and bias."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        padding_ = padding if isinstance(padding, str) else _pair(padding)
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride), padding_, _pair(dilation),
                         groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
