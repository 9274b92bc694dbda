"""torch.backends.mkldnn: oneDNN's switches (enabled, deterministic, allow_tf32, fp32_precision).

Mirrors PyTorch's torch/backends/mkldnn/__init__.py. Guide: docs/source/internals/performance.rst.
oneDNN kept its old name, MKL-DNN, in PyTorch's flags. This tree, when built with USE_MKLDNN
(Debian's libdnnl-dev), sends float matrix products to oneDNN's sgemm
(aten/src/ATen/native/cpu/BlasKernel.cpp); it has no oneDNN convolutions or RNNs, so the flags
below keep PyTorch's defaults and checks without choosing a kernel.
"""

import sys
from contextlib import contextmanager

import torch
from torch.backends import ContextProp, PropModule, _context, _FP32Precision, __allow_nonbracketed_mutation


def is_available():
    r"""Return whether PyTorch is built with MKL-DNN support."""
    return torch._C._has_mkldnn


def _set_enabled(value):
    _context._check_bool(value, "set_enabled_mkldnn")
    _context.mkldnn_enabled = value


def _set_deterministic(value):
    _context._check_bool(value, "set_deterministic_mkldnn")
    _context.mkldnn_deterministic = value


def _set_allow_tf32(value):
    _context._check_bool(value, "_set_onednn_allow_tf32")
    _context.onednn_allow_tf32 = value


def set_flags(_enabled=None, _deterministic=None, _allow_tf32=None, _fp32_precision="none"):
    orig_flags = (_context.mkldnn_enabled, _context.mkldnn_deterministic, _context.onednn_allow_tf32,
                  _context.get_fp32_precision("mkldnn", "all"))
    if _enabled is not None:
        _set_enabled(_enabled)
    if _deterministic is not None:
        _set_deterministic(_deterministic)
    if _allow_tf32 is not None:
        _set_allow_tf32(_allow_tf32)
    if _fp32_precision is not None:
        _context.set_fp32_precision("mkldnn", "all", _fp32_precision)
    return orig_flags


@contextmanager
def flags(enabled=False, deterministic=False, allow_tf32=True, fp32_precision="none"):
    with __allow_nonbracketed_mutation():
        orig_flags = set_flags(enabled, deterministic, allow_tf32, fp32_precision)
    try:
        yield
    finally:
        with __allow_nonbracketed_mutation():
            set_flags(*orig_flags)


class MkldnnModule(PropModule):
    def is_available(self):
        return is_available()

    enabled = ContextProp(lambda: _context.mkldnn_enabled, _set_enabled)
    deterministic = ContextProp(lambda: _context.mkldnn_deterministic, _set_deterministic)
    allow_tf32 = ContextProp(lambda: _context.onednn_allow_tf32, _set_allow_tf32)
    matmul = _FP32Precision("mkldnn", "matmul")
    conv = _FP32Precision("mkldnn", "conv")
    rnn = _FP32Precision("mkldnn", "rnn")
    fp32_precision = ContextProp(lambda: _context.get_fp32_precision("mkldnn", "all"),
                                 lambda value: _context.set_fp32_precision("generic", "all", value))


sys.modules[__name__] = MkldnnModule(sys.modules[__name__], __name__)
