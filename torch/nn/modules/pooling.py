"""torch/nn/modules/pooling.py - MaxPool2d, AvgPool2d, AdaptiveAvgPool2d: no parameters, one F call.

Mirrors PyTorch's torch/nn/modules/pooling.py. Guide: docs/source/internals/python_layer.rst.
"""

from typing import Optional

from torch import Tensor
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ["MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d"]


class MaxPool2d(Module):
    """Max over each kernel_size window (stride defaults to kernel_size)."""

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def forward(self, input: Tensor):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)

    def extra_repr(self) -> str:
        return ("kernel_size={kernel_size}, stride={stride}, padding={padding}, dilation={dilation}, "
                "ceil_mode={ceil_mode}".format(**self.__dict__))


class AvgPool2d(Module):
    """Mean over each kernel_size window."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: Optional[int] = None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if (stride is not None) else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return F.avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    """Mean over windows that tile the input into output_size cells, whatever the input size."""

    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return F.adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"
