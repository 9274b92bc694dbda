"""torch.cuda: NVIDIA GPUs.

Mirrors PyTorch's torch/cuda/__init__.py. Guide: docs/source/internals/source_tree.rst.
The CUDA runtime layer (c10/cuda) is not compiled into torch._C in this build, so CUDA
reports itself unavailable and using it raises PyTorch's error for a build without CUDA.
"""

import torch

__all__ = ["is_available", "device_count"]


def is_available():
    """True if this build has CUDA and a GPU is visible."""
    return torch._C._has_cuda and device_count() > 0


def device_count():
    """The number of visible GPUs (0 without CUDA)."""
    return 0


def _lazy_init():
    """Called from C++ before the first CUDA allocation (torch::utils::device_lazy_init)."""
    if not torch._C._has_cuda:
        raise AssertionError("Torch not compiled with CUDA enabled")
    raise RuntimeError(
        "Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver"
    )
