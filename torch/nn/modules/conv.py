"""torch/nn/modules/conv.py - Conv1d, Conv2d, ConvTranspose1d, ConvTranspose2d: a weight, a bias, and F.conv*.

Mirrors PyTorch's torch/nn/modules/conv.py (_ConvNd, Conv1d, Conv2d, _ConvTransposeNd,
ConvTranspose1d, ConvTranspose2d). Guide: docs/source/internals/python_layer.rst.

padding_mode 'reflect', 'replicate' and 'circular' pad the input with F.pad first and then
convolve without padding.
"""

import math
from typing import List, Optional, Tuple

import torch
from torch import Tensor
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d"]


def _ntuple(n):
    def parse(x):
        if isinstance(x, (list, tuple)):
            return tuple(x)
        return (x,) * n
    return parse


_single = _ntuple(1)
_pair = _ntuple(2)


class _ConvNd(Module):
    """What the convolutions share: the weight, (C_out, C_in / groups, *kernel_size), or
    (C_in, C_out / groups, *kernel_size) when transposed; the bias; init; repr."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Tuple[int, ...], stride, padding, dilation,
                 transposed: bool, output_padding, groups: int, bias: bool, padding_mode: str, device=None,
                 dtype=None) -> None:
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
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's argument for the non-zeros padding modes: last dim first, (left, right) each
        if isinstance(self.padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * len(kernel_size)
            if padding == "same":
                for d, k, i in zip(dilation, kernel_size, range(len(kernel_size) - 1, -1, -1)):
                    total_padding = d * (k - 1)
                    left_pad = total_padding // 2
                    self._reversed_padding_repeated_twice[2 * i] = left_pad
                    self._reversed_padding_repeated_twice[2 * i + 1] = total_padding - left_pad
        else:
            self._reversed_padding_repeated_twice = [p for p in reversed(self.padding) for _ in range(2)]
        factory_kwargs = {"device": device, "dtype": dtype}
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(torch.empty(shape, **factory_kwargs))
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
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
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
                         _single(dilation), False, _single(0), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        if self.padding_mode != "zeros":
            return F.conv1d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), self.weight,
                            self.bias, self.stride, _single(0), self.dilation, self.groups)
        return F.conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W): F.conv2d with this layer's weight and bias."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        padding_ = padding if isinstance(padding, str) else _pair(padding)
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride), padding_, _pair(dilation),
                         False, _pair(0), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor) -> Tensor:
        if self.padding_mode != "zeros":
            return F.conv2d(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), self.weight,
                            self.bias, self.stride, _pair(0), self.dilation, self.groups)
        return F.conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class _ConvTransposeNd(_ConvNd):
    """The transposed convolutions: only zeros padding, and an output_size that picks output_padding."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed, output_padding,
                 groups, bias, padding_mode, device=None, dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device, dtype)

    def _output_padding(self, input: Tensor, output_size, stride, padding, kernel_size, num_spatial_dims: int,
                        dilation=None) -> List[int]:
        """output_padding as configured, or what makes the output output_size (one of the
        stride sizes that all convolve back to the input's size)."""
        if output_size is None:
            return list(_single(self.output_padding))
        has_batch_dim = input.dim() == num_spatial_dims + 2
        num_non_spatial_dims = 2 if has_batch_dim else 1
        if len(output_size) == num_non_spatial_dims + num_spatial_dims:
            output_size = output_size[num_non_spatial_dims:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have "
                             f"{num_spatial_dims} or {num_non_spatial_dims + num_spatial_dims} elements "
                             f"(got {len(output_size)})")
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dim_size = ((input.size(d + num_non_spatial_dims) - 1) * stride[d] - 2 * padding[d]
                        + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1)
            min_sizes.append(dim_size)
            max_sizes.append(min_sizes[d] + stride[d] - 1)
        for size, min_size, max_size in zip(output_size, min_sizes, max_sizes):
            if size < min_size or size > max_size:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {min_sizes} "
                                 f"to {max_sizes} (for an input of {input.size()[num_non_spatial_dims:]})")
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]


class ConvTranspose1d(_ConvTransposeNd):
    """1-d transposed convolution over (N, C_in, L): F.conv_transpose1d with this layer's weight and bias."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        super().__init__(in_channels, out_channels, _single(kernel_size), _single(stride), _single(padding),
                         _single(dilation), True, _single(output_padding), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor, output_size: Optional[List[int]] = None) -> Tensor:
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for ConvTranspose1d")
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, 1,
                                              self.dilation)
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    """2-d transposed convolution over (N, C_in, H, W): F.conv_transpose2d with this layer's weight and bias."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        super().__init__(in_channels, out_channels, _pair(kernel_size), _pair(stride), _pair(padding),
                         _pair(dilation), True, _pair(output_padding), groups, bias, padding_mode, device, dtype)

    def forward(self, input: Tensor, output_size: Optional[List[int]] = None) -> Tensor:
        if self.padding_mode != "zeros":
            raise ValueError("Only `zeros` padding mode is supported for ConvTranspose2d")
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, 2,
                                              self.dilation)
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                  self.groups, self.dilation)
