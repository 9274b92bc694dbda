"""torch.cpu.amp.autocast: torch.amp.autocast("cpu", ...), deprecated.

Mirrors PyTorch's torch/cpu/amp/autocast_mode.py. Guide: docs/source/internals/programs/amp_backends.rst.
"""

import warnings

import torch
import torch.amp.autocast_mode

__all__ = ["autocast"]


class autocast(torch.amp.autocast_mode.autocast):
    """``torch.amp.autocast("cpu", ...)`` (bfloat16 by default); warns that this spelling is deprecated."""

    def __init__(self, enabled: bool = True, dtype: torch.dtype = torch.bfloat16, cache_enabled: bool = True):
        warnings.warn(
            "`torch.cpu.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cpu', args...)` "
            "instead.", FutureWarning, stacklevel=2)
        super().__init__("cpu", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)
