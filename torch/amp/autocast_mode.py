"""torch.amp.autocast_mode: the autocast context manager, its per-thread state, custom_fwd/custom_bwd.

Mirrors PyTorch's torch/amp/autocast_mode.py and the state functions PyTorch binds from C++
(aten/src/ATen/autocast_mode.cpp, torch/csrc/autograd/init.cpp: torch.is_autocast_enabled ...).
Guide: docs/source/internals/programs/amp_backends.rst.

An autocast region records, per device type and per thread, whether autocast is on and to
which dtype it casts. For the CPU the state is C++'s (aten/src/ATen/autocast_mode.cpp): turning
autocast on un-excludes the AutocastCPU dispatch key, whose kernels run the listed operators
(mm, addmm, bmm, matmul, conv1d/2d ...) in that dtype.
"""

import collections
import functools
import sys
import threading
import warnings
from typing import Any, Optional

import torch

__all__ = ["autocast_decorator", "autocast", "is_autocast_available", "custom_fwd", "custom_bwd"]


# The device types with an autocast dispatch key in PyTorch, and each one's default dtype
# (at::autocast::get_lower_precision_fp_from_device_type's initial values).
_AUTOCAST_DEFAULT_DTYPES = {
    "cpu": torch.bfloat16,
    "cuda": torch.float16,
    "xpu": torch.bfloat16,
    "ipu": torch.float16,
    "hpu": torch.bfloat16,
    "xla": torch.bfloat16,
    "mps": torch.float16,
    "mtia": torch.bfloat16,
    "maia": torch.float16,
    "privateuseone": torch.float16,
}

_tls = threading.local()


def _state():
    # Per thread, as PyTorch's (the Autocast keys live in the thread-local dispatch key set).
    state = getattr(_tls, "state", None)
    if state is None:
        state = _tls.state = {
            "enabled": {},
            "dtype": dict(_AUTOCAST_DEFAULT_DTYPES),
            "cache_enabled": True,
            "nesting": 0,
        }
    return state


def _device_type(device_type, fn, position=1):
    if not isinstance(device_type, str):
        raise TypeError(
            f"{fn}(): argument 'device_type' (position {position}) must be str, not {type(device_type).__name__}")
    # torch.device parses the name and raises PyTorch's message for an unknown one.
    parsed = torch.device(device_type).type
    if parsed not in _AUTOCAST_DEFAULT_DTYPES:
        raise RuntimeError("unsupported scalarType")
    return parsed


def _native(device_type):
    # cpu and cuda have Autocast dispatch keys (aten/src/ATen/autocast_mode.cpp): their state is
    # the C++ one, which the kernels read; the other device types only keep it here.
    return device_type in ("cpu", "cuda") and hasattr(torch._C, "_set_autocast_enabled")


def is_autocast_enabled(device_type: Optional[str] = None) -> bool:
    """Whether autocast is on for device_type in this thread (no argument: CUDA)."""
    device_type = "cuda" if device_type is None else _device_type(device_type, "is_autocast_enabled")
    if _native(device_type):
        return torch._C._is_autocast_enabled(device_type)
    return _state()["enabled"].get(device_type, False)


def set_autocast_enabled(device_type, enabled=None) -> None:
    """Turn autocast on or off for device_type in this thread (one argument: CUDA)."""
    position = 2
    if enabled is None:
        device_type, enabled, position = "cuda", device_type, 1
    else:
        device_type = _device_type(device_type, "set_autocast_enabled")
    if not isinstance(enabled, bool):
        raise TypeError(
            f"set_autocast_enabled(): argument 'enabled' (position {position}) must be bool, "
            f"not {type(enabled).__name__}")
    if _native(device_type):
        torch._C._set_autocast_enabled(device_type, enabled)
    else:
        _state()["enabled"][device_type] = enabled


def get_autocast_dtype(device_type: str) -> torch.dtype:
    """The dtype autocast casts to on device_type (bfloat16 on CPU, float16 on CUDA by default)."""
    device_type = _device_type(device_type, "get_autocast_dtype")
    if _native(device_type):
        return torch._C._get_autocast_dtype(device_type)
    return _state()["dtype"][device_type]


def set_autocast_dtype(device_type: str, dtype: torch.dtype) -> None:
    if not isinstance(dtype, torch.dtype):
        raise TypeError(
            f"set_autocast_dtype(): argument 'dtype' (position 2) must be torch.dtype, not {type(dtype).__name__}")
    device_type = _device_type(device_type, "set_autocast_dtype")
    if _native(device_type):
        torch._C._set_autocast_dtype(device_type, dtype)
    else:
        _state()["dtype"][device_type] = dtype


def is_autocast_cache_enabled() -> bool:
    return _state()["cache_enabled"]


def set_autocast_cache_enabled(enabled: bool) -> None:
    if not isinstance(enabled, bool):
        raise TypeError(
            f"set_autocast_cache_enabled(): argument 'enabled' (position 1) must be bool, not {type(enabled).__name__}")
    _state()["cache_enabled"] = enabled


def autocast_increment_nesting() -> int:
    _state()["nesting"] += 1
    return _state()["nesting"]


def autocast_decrement_nesting() -> int:
    _state()["nesting"] -= 1
    return _state()["nesting"]


def clear_autocast_cache() -> None:
    """Free the casted copies of weights an autocast region kept (none are kept here)."""


def _deprecated_getter(old, new):
    warnings.warn(f"torch.{old}() is deprecated. Please use torch.{new} instead.", DeprecationWarning, stacklevel=3)


def is_autocast_cpu_enabled() -> bool:
    _deprecated_getter("is_autocast_cpu_enabled", "is_autocast_enabled('cpu')")
    return is_autocast_enabled("cpu")


def get_autocast_cpu_dtype() -> torch.dtype:
    _deprecated_getter("get_autocast_cpu_dtype", "get_autocast_dtype('cpu')")
    return get_autocast_dtype("cpu")


def get_autocast_gpu_dtype() -> torch.dtype:
    _deprecated_getter("get_autocast_gpu_dtype", "get_autocast_dtype('cuda')")
    return get_autocast_dtype("cuda")


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast supports device_type."""
    return device_type in _AUTOCAST_DEFAULT_DTYPES


def autocast_decorator(autocast_instance, func):
    @functools.wraps(func)
    def decorate_autocast(*args, **kwargs):
        with autocast_instance:
            return func(*args, **kwargs)

    return decorate_autocast


# [marker: autocast_class]
class autocast:
    """``with torch.autocast("cpu"):`` runs the region with autocast on for that device type.

    On entry it saves the thread's state (enabled, dtype, cache) for the device type and sets
    the region's; on exit it restores them, so regions nest (an inner ``enabled=False``
    region switches autocast off for its duration only).
    """

    def __init__(self, device_type: str, dtype: Optional[torch.dtype] = None, enabled: bool = True,
                 cache_enabled: Optional[bool] = None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self.device = device_type
        if not is_autocast_available(self.device):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{self.device}'")
        device_supported_dtypes = [torch.bfloat16, torch.float16]
        self._cache_enabled = is_autocast_cache_enabled() if cache_enabled is None else cache_enabled
        device_name = self.device.upper()
        if enabled:
            if self.device == "cuda":
                if torch.cuda.amp.common.amp_definitely_not_available():
                    warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
                    enabled = False
                elif self.fast_dtype == torch.bfloat16 and not getattr(torch.cuda, "is_bf16_supported", lambda: True)():
                    raise RuntimeError(
                        "Current CUDA Device does not support bfloat16. Please switch dtype to float16.")
            elif self.fast_dtype not in device_supported_dtypes:
                error_message = (
                    f"In {device_name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                    f"{device_name} Autocast only supports dtypes of "
                    + ", ".join(map(str, device_supported_dtypes)) + " currently.")
                warnings.warn(error_message, stacklevel=2)
                enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = is_autocast_cache_enabled()
        self.prev = is_autocast_enabled(self.device)
        self.prev_fastdtype = get_autocast_dtype(self.device)
        set_autocast_enabled(self.device, self._enabled)
        set_autocast_dtype(self.device, self.fast_dtype)
        autocast_increment_nesting()
        set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any):
        # Leaving the outermost region frees the cache of casted weights.
        if autocast_decrement_nesting() == 0:
            clear_autocast_cache()
        set_autocast_enabled(self.device, self.prev)
        set_autocast_dtype(self.device, self.prev_fastdtype)
        set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(
                f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                "Did you mean to use autocast as a context manager? For example:\n"
                "    with torch.autocast(device_type=...):\n"
                "        output = model(input)")
        return autocast_decorator(self, func)
# [end marker: autocast_class]


class _UnmanagedAutocast(autocast):
    pass


def _enter_autocast(*vals):
    mode = _UnmanagedAutocast(*vals)
    mode.__enter__()
    return mode


def _exit_autocast(mode):
    mode.__exit__(None, None, None)


def _cast(value, device_type: str, dtype: torch.dtype):
    """value with its floating-point tensors on device_type (float64 excepted) cast to dtype."""
    if isinstance(value, torch.Tensor):
        is_eligible = (value.is_floating_point() and value.device.type == device_type
                       and value.dtype is not torch.float64)
        return value.to(dtype) if is_eligible else value
    if isinstance(value, (str, bytes)):
        return value
    # An ndarray stays as it is (numpy is not imported for this check: an array implies it is loaded).
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, collections.abc.Iterable):
        iterable = (_cast(v, device_type, dtype) for v in value)
        return type(value)(iterable) if isinstance(value, (list, tuple)) else iterable
    return value


def custom_fwd(fwd=None, *, device_type: str, cast_inputs: Optional[torch.dtype] = None):
    """Decorate a custom Function's forward: it records whether autocast was on (for custom_bwd)
    and, with cast_inputs, runs forward with autocast off on inputs cast to that dtype."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = is_autocast_enabled(device_type)
            return fwd(*args, **kwargs)
        autocast_context = is_autocast_enabled(device_type)
        args[0]._fwd_used_autocast = False
        if autocast_context:
            with autocast(device_type=device_type, enabled=False):
                return fwd(*_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs))
        return fwd(*args, **kwargs)

    return decorate_fwd


def custom_bwd(bwd=None, *, device_type: str):
    """Decorate a custom Function's backward: it runs with the autocast state its forward saw."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd
