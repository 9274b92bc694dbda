"""torch.backends.cuda: cuBLAS's switches (torch.backends.cuda.matmul.allow_tf32 ...).

Mirrors PyTorch's torch/backends/cuda/__init__.py. Guide: docs/source/internals/programs/amp_backends.rst.
``matmul`` is an object whose attributes read and write the flags (torch.backends._context).
"""

from typing import Any

import torch
from torch.backends import _context

__all__ = ["is_built", "cuBLASModule", "matmul"]


def is_built():
    """Whether PyTorch was built with CUDA (it may still not be usable: torch.cuda.is_available())."""
    return torch._C._has_cuda


class cuBLASModule:
    @staticmethod
    def _parse_reduction_setting(value: Any, attr_name: str):
        # A bool, or (allow_reduced_precision, allow_splitk).
        def ensure_bool(obj, which):
            if isinstance(obj, bool):
                return obj
            raise TypeError(f"{attr_name} expects a bool for {which}, but got {type(obj)!r}")

        if isinstance(value, bool):
            return value, True
        if isinstance(value, (list, tuple)):
            if not value:
                raise TypeError(f"{attr_name} expects at least one boolean argument")
            if len(value) > 2:
                raise TypeError(f"{attr_name} expects at most two boolean arguments")
            allow_reduced_precision = ensure_bool(value[0], "allow_reduced_precision")
            if len(value) == 1:
                return allow_reduced_precision, True
            return allow_reduced_precision, ensure_bool(value[1], "allow_splitk")
        raise TypeError(f"{attr_name} expects a bool or a tuple/list of bools, but got {type(value)!r}")

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _context.allow_tf32_cublas()
        if name == "allow_fp16_reduced_precision_reduction":
            return _context.cublas_fp16_reduction[0]
        if name == "allow_fp16_reduced_precision_reduction_split_k":
            return _context.cublas_fp16_reduction[1]
        if name == "allow_bf16_reduced_precision_reduction":
            return _context.cublas_bf16_reduction[0]
        if name == "allow_bf16_reduced_precision_reduction_split_k":
            return _context.cublas_bf16_reduction[1]
        if name == "allow_fp16_accumulation":
            return False
        if name == "fp32_precision":
            return _context.get_fp32_precision("cuda", "matmul")
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            return _context.set_allow_tf32_cublas(value)
        if name in ("allow_fp16_reduced_precision_reduction", "allow_bf16_reduced_precision_reduction"):
            allow_reduced_precision, allow_splitk = self._parse_reduction_setting(value, name)
            if allow_reduced_precision and not allow_splitk:
                raise RuntimeError(
                    "allow_splitk=False is not supported when reduced precision reductions are enabled")
            if name.startswith("allow_fp16"):
                _context.cublas_fp16_reduction = (allow_reduced_precision, allow_splitk)
            else:
                _context.cublas_bf16_reduction = (allow_reduced_precision, allow_splitk)
            return None
        if name == "fp32_precision":
            return _context.set_fp32_precision("cuda", "matmul", value)
        raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()

