"""torch/nn/_reduction.py - the reduction argument of the losses ("none", "mean", "sum").

Mirrors PyTorch's torch/nn/_reduction.py. Guide: docs/source/internals/python_layer.rst.

Also maps the legacy size_average / reduce flags of old code onto a reduction string.
"""

import warnings
from typing import Optional


def get_enum(reduction: str) -> int:
    """'none' -> 0, 'mean' -> 1, 'sum' -> 2 (the at::Reduction enum the C++ losses take)."""
    if reduction == "none":
        ret = 0
    elif reduction == "mean":
        ret = 1
    elif reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.")
        ret = 1
    elif reduction == "sum":
        ret = 2
    else:
        ret = -1
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return ret


def legacy_get_string(size_average: Optional[bool], reduce: Optional[bool], emit_warning: bool = True) -> str:
    """The reduction string that the deprecated size_average and reduce flags stand for."""
    warning = "size_average and reduce args will be deprecated, please use reduction='{}' instead."
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    if size_average and reduce:
        ret = "mean"
    elif reduce:
        ret = "sum"
    else:
        ret = "none"
    if emit_warning:
        warnings.warn(warning.format(ret))
    return ret
