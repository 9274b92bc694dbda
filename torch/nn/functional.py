"""torch/nn/functional.py - the layers and losses as functions (F.conv2d, F.batch_norm ...).

Mirrors PyTorch's torch/nn/functional.py. Guide: docs/source/internals/python_layer.rst.
"""

import math
from typing import List, Optional, Tuple

import torch
from torch import Tensor


# ---- convolution, pooling, normalization, embedding ----
# Each of these is a thin wrapper over one native operator (native_functions.yaml's section
# "convolution, pooling, normalization, embedding"): the arithmetic and its derivative are C++.

def _pair_list(v, name: str = "") -> List[int]:
    """An int or a sequence of ints as a list (None stays an empty list: 'same as kernel_size')."""
    if v is None:
        return []
    if isinstance(v, int):
        return [v]
    return list(v)


def conv1d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """1-d convolution over (N, C_in, L) (or unbatched (C_in, L)); padding may be "same" or "valid"."""
    return torch.conv1d(input, weight, bias, stride, padding, dilation, groups)


def conv2d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride=1, padding=0, dilation=1,
           groups: int = 1) -> Tensor:
    """2-d convolution over (N, C_in, H, W) (or unbatched (C_in, H, W)): im2col + GEMM in C++."""
    return torch.conv2d(input, weight, bias, stride, padding, dilation, groups)


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Every kernel-sized patch as a column: (N, C, H, W) -> (N, C * kH * kW, L) (torch._C._nn.im2col)."""
    return torch._C._nn.im2col(input, _pair2(kernel_size), _pair2(dilation), _pair2(padding), _pair2(stride))


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """The adjoint of unfold: columns summed back into an image (torch._C._nn.col2im)."""
    return torch._C._nn.col2im(input, _pair2(output_size), _pair2(kernel_size), _pair2(dilation), _pair2(padding),
                               _pair2(stride))


def _pair2(v) -> List[int]:
    v = _pair_list(v)
    return v * 2 if len(v) == 1 else v


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1, ceil_mode: bool = False,
               return_indices: bool = False):
    """Max over each window; with return_indices, also where each maximum was (h * W + w)."""
    stride = _pair_list(stride)
    if return_indices:
        return torch._C._nn.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d_with_indices(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
                            ceil_mode: bool = False, return_indices: bool = False):
    return torch._C._nn.max_pool2d_with_indices(input, kernel_size, _pair_list(stride), padding, dilation,
                                                ceil_mode)


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override: Optional[int] = None) -> Tensor:
    """Mean over each window (torch._C._nn.avg_pool2d)."""
    return torch._C._nn.avg_pool2d(input, kernel_size, _pair_list(stride), padding, ceil_mode, count_include_pad,
                                   divisor_override)


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Mean over windows that tile the input into output_size cells (None keeps that input size)."""
    if input.dim() < 3:
        raise ValueError("Input dimension should be at least 3")
    if isinstance(output_size, int):
        output_size = (output_size, output_size)
    output_size = [input.size(-2 + i) if v is None else v for i, v in enumerate(output_size)]
    return torch._C._nn.adaptive_avg_pool2d(input, output_size)


def _verify_batch_size(size) -> None:
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(input: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor],
               weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalize each channel (dim 1); in training by the batch's statistics (updating the running
    ones in place by momentum), in evaluation by the running statistics."""
    if training:
        _verify_batch_size(input.size())
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def layer_norm(input: Tensor, normalized_shape, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
               eps: float = 1e-5) -> Tensor:
    """Normalize over the last len(normalized_shape) dimensions."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    return torch.layer_norm(input, list(normalized_shape), weight, bias, eps, False)


def embedding(input: Tensor, weight: Tensor, padding_idx: Optional[int] = None, max_norm: Optional[float] = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Rows of weight picked by the indices in input: shape input.shape + (embedding_dim,)."""
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), "Padding_idx must be within num_embeddings"
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), "Padding_idx must be within num_embeddings"
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        raise NotImplementedError("embedding: max_norm (torch.embedding_renorm_) is not implemented in this tree")
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)
