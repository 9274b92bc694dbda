"""torch.cuda.amp.common: whether CUDA mixed precision can run at all.

Mirrors PyTorch's torch/cuda/amp/common.py. Guide: docs/source/internals/programs/amp_backends.rst.
"""

from importlib.util import find_spec

import torch

__all__ = ["amp_definitely_not_available"]


def amp_definitely_not_available():
    return not (torch.cuda.is_available() or find_spec("torch_xla"))
