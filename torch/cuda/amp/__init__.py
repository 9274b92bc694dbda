"""torch.cuda.amp: the CUDA-only spellings of torch.amp (deprecated in PyTorch 2.x).

Mirrors PyTorch's torch/cuda/amp/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
"""

from torch.cuda.amp.autocast_mode import autocast, custom_bwd, custom_fwd
from torch.cuda.amp.common import amp_definitely_not_available
from torch.cuda.amp.grad_scaler import GradScaler

__all__ = ["amp_definitely_not_available", "autocast", "custom_bwd", "custom_fwd", "GradScaler"]
