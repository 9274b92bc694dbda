"""torch.cuda.amp.autocast, custom_fwd, custom_bwd: torch.amp's with device_type "cuda", deprecated.

Mirrors PyTorch's torch/cuda/amp/autocast_mode.py. Guide: docs/source/internals/programs/amp_backends.rst.
"""

import functools
import warnings

import torch
import torch.amp.autocast_mode

__all__ = ["autocast", "custom_fwd", "custom_bwd"]


class autocast(torch.amp.autocast_mode.autocast):
    """``torch.amp.autocast("cuda", ...)``; warns (FutureWarning) that this spelling is deprecated."""

    def __init__(self, enabled: bool = True, dtype: torch.dtype = torch.float16, cache_enabled: bool = True):
        warnings.warn(
            "`torch.cuda.amp.autocast(args...)` is deprecated. Please use `torch.amp.autocast('cuda', args...)` "
            "instead.", FutureWarning, stacklevel=2)
        super().__init__("cuda", enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)


def _cast(value, dtype):
    warnings.warn(
        "`torch.cuda.amp.autocast_mode._cast(value, dtype)` is deprecated. Please use "
        "`torch.amp.autocast_mode._cast(value, 'cuda', dtype)` instead.", FutureWarning, stacklevel=2)
    return torch.amp.autocast_mode._cast(value, "cuda", dtype)


def custom_fwd(fwd=None, *, cast_inputs=None):
    warnings.warn(
        "`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
        "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return functools.partial(torch.amp.custom_fwd, device_type="cuda")(fwd=fwd, cast_inputs=cast_inputs)


def custom_bwd(bwd):
    warnings.warn(
        "`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use "
        "`torch.amp.custom_bwd(args..., device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return functools.partial(torch.amp.custom_bwd, device_type="cuda")(bwd)
