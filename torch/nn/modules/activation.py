"""torch/nn/modules/activation.py - ReLU, LeakyReLU, GELU, SiLU, Sigmoid, Tanh, Softmax, LogSoftmax.

Mirrors PyTorch's torch/nn/modules/activation.py. Guide: docs/source/internals/python_layer.rst.

Modules without parameters: each remembers its options and calls its function in
torch.nn.functional.
"""

from typing import Optional

from torch import Tensor
from torch.nn import functional as F

from .module import Module

__all__ = ["ReLU", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax"]


class _InplaceOption(Module):
    """The one option of ReLU and SiLU: ``inplace`` (overwrite the input instead of allocating)."""

    __constants__ = ["inplace"]

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def extra_repr(self) -> str:
        return "inplace=True" if self.inplace else ""


class _DimOption(Module):
    """The one option of Softmax and LogSoftmax: ``dim``, the dimension normalized over."""

    __constants__ = ["dim"]

    def __init__(self, dim: Optional[int] = None) -> None:
        super().__init__()
        self.dim = dim

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, "dim"):  # pickled by a version that had no dim
            self.dim = None

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class ReLU(_InplaceOption):
    r"""max(0, x), element-wise."""

    def forward(self, input: Tensor) -> Tensor:
        return F.relu(input, inplace=self.inplace)


class LeakyReLU(Module):
    r"""x if x > 0 else negative_slope * x."""

    __constants__ = ["inplace", "negative_slope"]

    def __init__(self, negative_slope: float = 1e-2, inplace: bool = False) -> None:
        super().__init__()
        self.negative_slope = negative_slope
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.leaky_relu(input, self.negative_slope, self.inplace)

    def extra_repr(self) -> str:
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"negative_slope={self.negative_slope}{inplace_str}"


class ELU(Module):
    r"""x if x > 0 else alpha * (exp(x) - 1), element-wise."""

    __constants__ = ["alpha", "inplace"]

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha = alpha
        self.inplace = inplace

    def forward(self, input: Tensor) -> Tensor:
        return F.elu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        inplace_str = ", inplace=True" if self.inplace else ""
        return f"alpha={self.alpha}{inplace_str}"


class GELU(Module):
    r"""x * Phi(x); approximate='tanh' uses the tanh approximation."""

    __constants__ = ["approximate"]

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return F.gelu(input, approximate=self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={repr(self.approximate)}"


class SiLU(_InplaceOption):
    r"""x * sigmoid(x) (also called swish)."""

    def forward(self, input: Tensor) -> Tensor:
        return F.silu(input, inplace=self.inplace)


class Sigmoid(Module):
    r"""1 / (1 + exp(-x))."""

    def forward(self, input: Tensor) -> Tensor:
        return input.sigmoid()


class Tanh(Module):
    r"""tanh(x)."""

    def forward(self, input: Tensor) -> Tensor:
        return input.tanh()


class Softmax(_DimOption):
    r"""exp(x_i) / sum_j exp(x_j) along dim."""

    def forward(self, input: Tensor) -> Tensor:
        return F.softmax(input, self.dim, _stacklevel=5)


class LogSoftmax(_DimOption):
    r"""log(softmax(x)) along dim, computed stably."""

    def forward(self, input: Tensor) -> Tensor:
        return F.log_softmax(input, self.dim, _stacklevel=5)
