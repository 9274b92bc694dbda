"""torch/nn/modules/pixelshuffle.py - PixelShuffle and PixelUnshuffle: channels to space and back.

Mirrors PyTorch's torch/nn/modules/pixelshuffle.py. Guide: docs/source/internals/programs/nn_layers.rst.
"""

from torch import Tensor
from torch.nn import functional as F

from .module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]


class PixelShuffle(Module):
    """(*, C r^2, H, W) -> (*, C, H r, W r) for r = upscale_factor."""

    __constants__ = ["upscale_factor"]

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H r, W r) -> (*, C r^2, H, W) for r = downscale_factor."""

    __constants__ = ["downscale_factor"]

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"
