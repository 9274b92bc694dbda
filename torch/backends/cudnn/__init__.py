"""torch.backends.cudnn: cuDNN's switches (enabled, benchmark, deterministic, allow_tf32).

Mirrors PyTorch's torch/backends/cudnn/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
This tree is built without cuDNN: is_available() is False and version() None, but the flags
keep PyTorch's defaults and checks, so programs that set them run unchanged.
"""

import sys
import warnings
from contextlib import contextmanager

import torch
from torch.backends import ContextProp, PropModule, _context, _FP32Precision, __allow_nonbracketed_mutation

CUDNN_TENSOR_DTYPES = {torch.half, torch.float, torch.double}


def version():
    """The version of cuDNN (None: this build has no cuDNN)."""
    return None


def is_available():
    """Whether PyTorch was built with cuDNN (never, in this tree)."""
    return False


def is_acceptable(tensor):
    if not _context.cudnn_enabled:
        return False
    if tensor.device.type != "cuda" or tensor.dtype not in CUDNN_TENSOR_DTYPES:
        return False
    warnings.warn(
        "PyTorch was compiled without cuDNN/MIOpen support. To use cuDNN/MIOpen, rebuild "
        "PyTorch making sure the library is visible to the build system.",
        stacklevel=2,
    )
    return False


def _set_enabled(value):
    _context._check_bool(value, "set_enabled_cudnn")
    _context.cudnn_enabled = value


def _set_benchmark(value):
    _context._check_bool(value, "set_benchmark_cudnn")
    _context.cudnn_benchmark = value


def _set_deterministic(value):
    _context._check_bool(value, "set_deterministic_cudnn")
    _context.cudnn_deterministic = value


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None, _allow_tf32=None,
              _fp32_precision="none"):
    orig_flags = (
        _context.cudnn_enabled,
        _context.cudnn_benchmark,
        None,  # the benchmark limit exists only with cuDNN
        _context.cudnn_deterministic,
        _context.allow_tf32_cudnn(),
        _context.get_fp32_precision("cuda", "all"),
    )
    if _enabled is not None:
        _set_enabled(_enabled)
    if _benchmark is not None:
        _set_benchmark(_benchmark)
    if _deterministic is not None:
        _set_deterministic(_deterministic)
    if _allow_tf32 is not None:
        _context.set_allow_tf32_cudnn(_allow_tf32)
    if _fp32_precision is not None:
        _context.set_fp32_precision("cuda", "all", _fp32_precision)
    return orig_flags


@contextmanager
def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True,
          fp32_precision="none"):
    """Set the flags for the block, restoring them after (defaults as PyTorch's: cuDNN off)."""
    with __allow_nonbracketed_mutation():
        orig_flags = set_flags(enabled, benchmark, benchmark_limit, deterministic, allow_tf32, fp32_precision)
    try:
        yield
    finally:
        with __allow_nonbracketed_mutation():
            set_flags(*orig_flags)


class CudnnModule(PropModule):
    enabled = ContextProp(lambda: _context.cudnn_enabled, _set_enabled)
    deterministic = ContextProp(lambda: _context.cudnn_deterministic, _set_deterministic)
    benchmark = ContextProp(lambda: _context.cudnn_benchmark, _set_benchmark)
    benchmark_limit = None
    allow_tf32 = ContextProp(_context.allow_tf32_cudnn, _context.set_allow_tf32_cudnn)
    conv = _FP32Precision("cuda", "conv")
    rnn = _FP32Precision("cuda", "rnn")
    fp32_precision = ContextProp(lambda: _context.get_fp32_precision("cuda", "all"),
                                 lambda value: _context.set_fp32_precision("cuda", "all", value))


sys.modules[__name__] = CudnnModule(sys.modules[__name__], __name__)
