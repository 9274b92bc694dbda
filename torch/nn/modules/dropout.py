"""torch/nn/modules/dropout.py - Dropout: zero elements at random in training, pass through in eval.

Mirrors PyTorch's torch/nn/modules/dropout.py. Guide: docs/source/internals/python_layer.rst.

The module's training flag (Module.train / eval) is what F.dropout is told.
"""

from torch import Tensor
from torch.nn import functional as F

from .module import Module

__all__ = ["Dropout"]


class _DropoutNd(Module):
    __constants__ = ["p", "inplace"]
    p: float
    inplace: bool

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    r"""In training, each element is zeroed with probability p and the others are scaled by
    1/(1-p), so the expected value is unchanged; in eval mode it is the identity."""

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)
