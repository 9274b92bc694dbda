"""torch.amp: automatic mixed precision (autocast regions and gradient scaling).

Mirrors PyTorch's torch/amp/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
"""

from torch.amp.autocast_mode import (  # noqa: F401
    _enter_autocast,
    _exit_autocast,
    autocast,
    custom_bwd,
    custom_fwd,
    is_autocast_available,
)
from torch.amp.grad_scaler import GradScaler

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]
