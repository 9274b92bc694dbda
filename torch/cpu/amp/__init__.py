"""torch.cpu.amp: the CPU-only spellings of torch.amp (deprecated in PyTorch 2.x).

Mirrors PyTorch's torch/cpu/amp/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
"""

from torch.cpu.amp.autocast_mode import autocast
from torch.cpu.amp.grad_scaler import GradScaler

__all__ = ["autocast", "GradScaler"]
