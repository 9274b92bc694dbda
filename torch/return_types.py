"""torch.return_types: the named tuples operators return, e.g. torch.return_types.max.

Mirrors PyTorch's torch/return_types.py. Guide: docs/source/internals/generated_code.rst.
The types are made in C++ (torch/csrc/utils/structseq.cpp) for every schema in
native_functions.yaml whose returns are named, ``max.dim(...) -> (Tensor values, Tensor indices)``.
"""

import torch

__all__ = []

for _name, _type in torch._C._return_types.items():
    globals()[_name] = _type
    __all__.append(_name)
del _name, _type
