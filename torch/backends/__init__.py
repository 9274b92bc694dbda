"""torch.backends: switches for the libraries behind the operators (cuBLAS, cuDNN, MPS, opt_einsum ...).

Mirrors PyTorch's torch/backends/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.

PyTorch keeps these flags in C++ (at::Context, aten/src/ATen/Context.cpp) and reads them where
a kernel picks an algorithm. No kernel of this tree consults them yet, so _context below holds
them, with at::Context's defaults, checks and messages; the modules torch.backends.cuda,
torch.backends.cudnn ... expose them as PyTorch does (module attributes through a PropModule).
"""

import sys
import types
import warnings
from contextlib import contextmanager

import torch

__allow_nonbracketed_mutation_flag = True


def disable_global_flags():
    global __allow_nonbracketed_mutation_flag
    __allow_nonbracketed_mutation_flag = False


def flags_frozen():
    return not __allow_nonbracketed_mutation_flag


@contextmanager
def __allow_nonbracketed_mutation():
    global __allow_nonbracketed_mutation_flag
    old = __allow_nonbracketed_mutation_flag
    __allow_nonbracketed_mutation_flag = True
    try:
        yield
    finally:
        __allow_nonbracketed_mutation_flag = old


class _Context:
    """at::Context's flags. The fp32 precisions are per (backend, op); "none" means "inherit"."""

    _FP32_BACKENDS = {"generic": ("all",), "cuda": ("all", "matmul", "conv", "rnn"),
                      "mkldnn": ("all", "matmul", "conv", "rnn")}
    _FP32_PRECISIONS = ("ieee", "tf32", "bf16", "none")
    _MATMUL_PRECISIONS = ("highest", "high", "medium")

    def __init__(self):
        self.cudnn_enabled = True
        self.cudnn_benchmark = False
        self.cudnn_deterministic = False
        self.cudnn_benchmark_limit = 10
        self.mkldnn_enabled = True
        self.mkldnn_deterministic = False
        self.onednn_allow_tf32 = None  # PyTorch 2.13 CPU builds report None until it is set
        self.cublas_fp16_reduction = (True, True)
        self.cublas_bf16_reduction = (True, True)
        self.float32_matmul_precision = "highest"
        self.fp32_precision = {(b, op): "none" for b, ops in self._FP32_BACKENDS.items() for op in ops}
        # cuDNN convolutions and RNNs allow TF32 by default (torch.backends.cudnn.allow_tf32 is True).
        self.fp32_precision[("cuda", "conv")] = "tf32"
        self.fp32_precision[("cuda", "rnn")] = "tf32"

    @staticmethod
    def _check_bool(value, setter):
        if not isinstance(value, bool):
            raise RuntimeError(f"{setter} expects a bool, but got {type(value).__name__}")

    def set_fp32_precision(self, backend, op, precision):
        if not isinstance(precision, str):
            raise TypeError(f"fp32_precision expects a str, but got {type(precision).__name__}")
        if precision not in self._FP32_PRECISIONS:
            raise RuntimeError(f"Unknown precision: {precision}")
        if precision == "bf16" and backend != "mkldnn":
            raise RuntimeError(f"backend '{backend}' does not support precision '{precision}'")
        self.fp32_precision[(backend, op)] = precision

    def get_fp32_precision(self, backend, op):
        return self.fp32_precision[(backend, op)]

    # [marker: float32_matmul_precision]
    # torch.set_float32_matmul_precision (the legacy API) and cuda.matmul.fp32_precision (the
    # new one) share state: "high" means TF32 for cuBLAS and for oneDNN, "medium" TF32 for
    # cuBLAS and bfloat16 for oneDNN. Mixed settings that no legacy value describes are refused.
    def set_float32_matmul_precision(self, precision):
        if not isinstance(precision, str):
            raise RuntimeError(f"set_float32_matmul_precision expects a str, but got {type(precision).__name__}")
        if precision not in self._MATMUL_PRECISIONS:
            warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                          "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=3)
            return
        self.float32_matmul_precision = precision
        cuda, mkldnn = {"highest": ("ieee", "ieee"), "high": ("tf32", "tf32"), "medium": ("tf32", "bf16")}[precision]
        self.fp32_precision[("cuda", "matmul")] = cuda
        self.fp32_precision[("mkldnn", "matmul")] = mkldnn

    def get_float32_matmul_precision(self):
        legacy = self.float32_matmul_precision
        invalid = self.fp32_precision[("cuda", "matmul")] == "tf32" and legacy == "highest"
        invalid |= self.fp32_precision[("mkldnn", "matmul")] == "bf16" and legacy != "medium"
        invalid |= self.fp32_precision[("mkldnn", "matmul")] == "tf32" and legacy != "high"
        if invalid:
            raise RuntimeError(
                "PyTorch is checking the matmul precision without a specific backend name,Current status indicate "
                "that you have used mix of the legacy and new APIs to set the matmul precision. We suggest only "
                "using the new API for matmul precision. See also: "
                "https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices")
        return legacy

    def set_allow_tf32_cublas(self, value):
        self._check_bool(value, "set_allow_tf32_cublas")
        self.float32_matmul_precision = "high" if value else "highest"
        self.fp32_precision[("cuda", "matmul")] = "tf32" if value else "ieee"

    def allow_tf32_cublas(self):
        legacy = self.float32_matmul_precision != "highest"
        new = self.fp32_precision[("cuda", "matmul")] == "tf32"
        if legacy != new:
            raise RuntimeError(
                "PyTorch is checking whether allow_tf32_new is enabled for cuBlas matmul,Current status indicate "
                "that you have used mix of the legacy and new APIs to set the TF32 status for cublas matmul. We "
                "suggest only using the new API to set the TF32 flag. See also: "
                "https://pytorch.org/docs/main/notes/cuda.html#tensorfloat-32-tf32-on-ampere-and-later-devices")
        return new
    # [end marker: float32_matmul_precision]

    def set_allow_tf32_cudnn(self, value):
        # PyTorch's message names cuBLAS here too (one check shared by both setters).
        self._check_bool(value, "set_allow_tf32_cublas")
        self.fp32_precision[("cuda", "conv")] = "tf32" if value else "ieee"
        self.fp32_precision[("cuda", "rnn")] = "tf32" if value else "ieee"

    def allow_tf32_cudnn(self):
        return self.fp32_precision[("cuda", "conv")] == "tf32"


_context = _Context()


class ContextProp:
    """A module attribute read and written through a getter and a setter."""

    def __init__(self, getter, setter):
        self.getter = getter
        self.setter = setter

    def __get__(self, obj, objtype):
        return self.getter()

    def __set__(self, obj, val):
        if not flags_frozen():
            self.setter(val)
        else:
            raise RuntimeError(
                f"not allowed to set {obj.__name__} flags "
                "after disable_global_flags; please use flags() context manager instead"
            )


class PropModule(types.ModuleType):
    """Stands in for a module in sys.modules so that its class's ContextProps act as attributes."""

    def __init__(self, m, name):
        super().__init__(name)
        self.m = m

    def __getattr__(self, attr):
        return self.m.__getattribute__(attr)


class _FP32Precision:
    """``torch.backends.cudnn.conv`` ...: an object whose only attribute is fp32_precision."""

    def __init__(self, backend, op):
        self.backend = backend
        self.op = op

    def __setattr__(self, name, value):
        if name == "fp32_precision":
            _context.set_fp32_precision(self.backend, self.op, value)
        elif name in ("backend", "op"):
            super().__setattr__(name, value)
        else:
            raise AttributeError("Unknown attribute " + name)

    def __getattr__(self, name):
        if name == "fp32_precision":
            return _context.get_fp32_precision(self.backend, self.op)
        raise AttributeError("Unknown attribute " + name)


def set_flags(_fp32_precision="none"):
    orig_flags = (_context.get_fp32_precision("generic", "all"),)
    if _fp32_precision is not None:
        _context.set_fp32_precision("generic", "all", _fp32_precision)
    return orig_flags


@contextmanager
def flags(fp32_precision="none"):
    with __allow_nonbracketed_mutation():
        orig_flags = set_flags(fp32_precision)
    try:
        yield
    finally:
        with __allow_nonbracketed_mutation():
            set_flags(*orig_flags)


class GenericModule(PropModule):
    fp32_precision = ContextProp(lambda: _context.get_fp32_precision("generic", "all"),
                                 lambda value: _context.set_fp32_precision("generic", "all", value))


sys.modules[__name__] = GenericModule(sys.modules[__name__], __name__)

from torch.backends import cpu as cpu, cuda as cuda, cudnn as cudnn, mkldnn as mkldnn, mps as mps  # noqa: E402
from torch.backends import opt_einsum as opt_einsum  # noqa: E402
