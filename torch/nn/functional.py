"""torch/nn/functional.py - the layers and losses as functions (F.linear, F.cross_entropy ...).

Mirrors PyTorch's torch/nn/functional.py. Guide: docs/source/internals/python_layer.rst.

Modules hold parameters and call these; these call operators (torch.addmm, torch.log_softmax,
torch.gather ...), which reach the C++ kernels through torch._C, and autograd records each
one. Where PyTorch has a fused C++ kernel (nll_loss, binary_cross_entropy) this file composes
the same arithmetic from existing operators, with PyTorch's argument checks and messages.
"""

import math
import warnings
from typing import List, Optional, Tuple

import torch
from torch import Tensor
from torch.nn import _reduction as _Reduction

__all__ = [
    "linear", "bilinear", "identity",
    "relu", "relu_", "leaky_relu", "elu", "elu_", "gelu", "silu", "sigmoid", "tanh", "softmax", "log_softmax",
    "dropout", "flatten", "one_hot", "pad",
    "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "nll_loss", "cross_entropy", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div",
    "conv_transpose1d", "conv_transpose2d",
    "hardtanh", "hardtanh_", "relu6", "softplus", "mish", "normalize", "group_norm", "instance_norm",
    "interpolate", "upsample", "pixel_shuffle", "pixel_unshuffle",
    "scaled_dot_product_attention", "multi_head_attention_forward",
]


# ---- linear ----
def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    r"""y = x W^T + b: the native aten::linear (aten/src/ATen/native/Linear.cpp), one addmm for
    a 2-D input with a bias, as in PyTorch."""
    return torch._C._nn.linear(input, weight, bias)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    r"""y_o = x1^T A_o x2 + b_o, for weight A of shape (out, in1, in2)."""
    if input1.dim() != input2.dim():
        raise RuntimeError(
            f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}"
        )
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(
            f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but expected {weight.shape[1]}"
        )
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(
            f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but expected {weight.shape[2]}"
        )
    output = torch.einsum("...i,oij,...j->...o", input1, weight, input2)
    if bias is not None:
        output = output + bias
    return output


def identity(input: Tensor) -> Tensor:
    return input


# ---- activations ----
def relu(input: Tensor, inplace: bool = False) -> Tensor:
    r"""max(0, x)."""
    return torch.relu_(input) if inplace else torch.relu(input)


def relu_(input: Tensor) -> Tensor:
    return torch.relu_(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    r"""x if x > 0 else negative_slope * x."""
    result = torch.where(input > 0, input, input * negative_slope)
    if inplace:
        with torch.no_grad():
            input.copy_(result)
        return input
    return result


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    r"""x if x > 0 else alpha * (exp(x) - 1)."""
    return torch._C._nn.elu_(input, alpha) if inplace else torch._C._nn.elu(input, alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return torch._C._nn.elu_(input, alpha)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    r"""x * Phi(x) (Phi the normal CDF), or its tanh approximation with approximate='tanh'."""
    return torch._C._nn.gelu(input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    r"""x * sigmoid(x)."""
    return torch._C._nn.silu_(input) if inplace else torch._C._nn.silu(input)


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    return input.tanh()


def _get_softmax_dim(name: str, ndim: int, stacklevel: int) -> int:
    warnings.warn(
        f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X as an argument.",
        stacklevel=stacklevel,
    )
    if ndim == 0 or ndim == 1 or ndim == 3:
        ret = 0
    else:
        ret = 1
    return ret


def softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    r"""exp(x_i) / sum_j exp(x_j) along dim (computed in dtype if given)."""
    if dim is None:
        dim = _get_softmax_dim("softmax", input.dim(), _stacklevel)
    return input.softmax(dim, dtype=dtype) if dtype is not None else input.softmax(dim)


def log_softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3, dtype=None) -> Tensor:
    r"""x_i - logsumexp(x) along dim, in one numerically stable kernel."""
    if dim is None:
        dim = _get_softmax_dim("log_softmax", input.dim(), _stacklevel)
    return input.log_softmax(dim, dtype=dtype) if dtype is not None else input.log_softmax(dim)


# ---- dropout, shapes ----
def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    r"""In training, zero each element with probability p and scale the rest by 1/(1-p).

    aten::dropout (aten/src/ATen/native/Dropout.cpp) draws the mask with bernoulli_(1 - p), or,
    for a CUDA tensor, with native_dropout's fused kernel.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return torch.dropout_(input, p, training) if inplace else torch.dropout(input, p, training)


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    return torch.flatten(input, start_dim, end_dim)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    r"""An int64 tensor with one more dim: 1 at each value's index, 0 elsewhere."""
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if tensor.numel() == 0:
        if num_classes <= 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
    else:
        if int(tensor.min()) < 0:
            raise RuntimeError("Class values must be non-negative.")
        if num_classes == -1:
            num_classes = int(tensor.max()) + 1
        elif int(tensor.max()) >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    return (tensor.unsqueeze(-1) == torch.arange(num_classes, device=tensor.device)).to(torch.int64)


def _pad_index(size: int, left: int, right: int, mode: str, device) -> Tensor:
    """Source index, along one dim of length size, of each element of the padded dim."""
    i = torch.arange(-left, size + right, dtype=torch.int64, device=device)
    if mode == "replicate":
        return i.clamp(0, size - 1)
    if mode == "circular":
        return i.remainder(size)
    # reflect: mirror about the edge elements, which are not repeated (left, right < size)
    i = i.abs()
    return torch.where(i >= size, 2 * (size - 1) - i, i)


def _legacy_dtype_name(dtype) -> str:
    """The name C++ messages use for a dtype: Float, Long, Half... (c10::toString)."""
    return torch.tensor([], dtype=dtype).type().split(".")[-1].replace("Tensor", "")


def _check_pad_sizes(input: Tensor, pad: List[int], mode: str) -> None:
    """PyTorch's checks of reflect/replicate/circular padding, before any memory is touched."""
    npairs = len(pad) // 2
    if not (len(pad) == 2 * (input.dim() - 1) or len(pad) == 2 * (input.dim() - 2)) or not 1 <= npairs <= 3:
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    dims = [input.dim() - 1 - i for i in range(npairs)]
    if mode == "reflect":
        for i, dim in enumerate(dims):
            left, right = pad[2 * i], pad[2 * i + 1]
            if left >= input.shape[dim] or right >= input.shape[dim]:
                raise RuntimeError(
                    f"Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                    f"padding ({left}, {right}) at dimension {dim} of input {list(input.shape)}")
    if mode == "circular":
        for i, dim in enumerate(dims):
            left, right = pad[2 * i], pad[2 * i + 1]
            if left > input.shape[dim] or right > input.shape[dim]:
                raise RuntimeError("Padding value causes wrapping around more than once.")
            if input.shape[dim] + left + right <= 0:
                raise RuntimeError("Negative padding value is resulting in an empty dimension")
    sizes = [input.shape[d] for d in reversed(dims)]
    outs = [input.shape[d] + pad[2 * i] + pad[2 * i + 1] for i, d in reversed(list(enumerate(dims)))]
    if any(o < 1 for o in outs):
        names = "DHW"[3 - npairs:] if npairs <= 3 else "?" * npairs
        given = ", ".join(f"{n}: {v}" for n, v in zip(names, sizes))
        got = " ".join(f"{n}: {v}" for n, v in zip(names, outs))
        raise RuntimeError(f"input ({given}) is too small. Calculated output {got}")


def pad(input: Tensor, pad: List[int], mode: str = "constant", value: Optional[float] = None) -> Tensor:
    r"""Pad the last len(pad) // 2 dims: pad = (last_left, last_right, prev_left, prev_right, ...).

    mode 'constant' fills with value (0 by default; a negative pad crops); 'reflect',
    'replicate' and 'circular' gather from the input with index_select."""
    # The mode is read first (PyTorch parses it into an enum before looking at the lengths).
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2 != 0:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError(
            "Padding length should be less than or equal to two times the input dimension but got padding length "
            f"{len(pad)} and input of dimension {input.dim()}"
        )
    if value is not None:
        # value is a C++ double in PyTorch's signature: an int of any size converts to it.
        if not isinstance(value, (int, float)):
            raise TypeError(f"pad(): argument 'value' (position 4) must be float, not {type(value).__name__}")
        value = float(value)
    if mode != "constant" and value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
    if mode != "constant":
        _check_pad_sizes(input, pad, mode)
    out = input
    for i in range(len(pad) // 2):
        dim = input.dim() - 1 - i
        left, right = pad[2 * i], pad[2 * i + 1]
        if mode == "constant":
            if left < 0:
                out = out.narrow(dim, -left, out.shape[dim] + left)
                left = 0
            if right < 0:
                out = out.narrow(dim, 0, out.shape[dim] + right)
                right = 0
            pieces = []
            for width in (left, None, right):
                if width is None:
                    pieces.append(out)
                elif width > 0:
                    shape = list(out.shape)
                    shape[dim] = width
                    pieces.append(torch.full(shape, 0.0 if value is None else value, dtype=out.dtype,
                                             device=out.device))
            out = torch.cat(pieces, dim) if len(pieces) > 1 else out
        elif left or right:
            # The output's memory is asked for first (and given back): a padding too large to
            # hold fails in the allocator, as PyTorch's does, before an index that long is made.
            shape = list(out.shape)
            shape[dim] += left + right
            torch.empty(shape, dtype=out.dtype, device=out.device)
            out = out.index_select(dim, _pad_index(out.shape[dim], left, right, mode, out.device))
    return out


# ---- losses ----
def _apply_loss_reduction(loss: Tensor, reduction: str) -> Tensor:
    enum = _Reduction.get_enum(reduction)
    if enum == 1:
        return loss.mean()
    if enum == 2:
        return loss.sum()
    return loss


def _legacy_reduction(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _Reduction.legacy_get_string(size_average, reduce)
    return reduction


def _warn_size(input: Tensor, target: Tensor) -> None:
    if target.size() != input.size():
        warnings.warn(
            f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
            "This will likely lead to incorrect results due to broadcasting. "
            "Please ensure they have the same size.",
            stacklevel=3,
        )


def _broadcast_pair(a: Tensor, b: Tensor):
    """a and b expanded to their common shape (torch.broadcast_tensors of two tensors), with
    the broadcast's error when they have none."""
    shape = []
    for k in range(1, max(a.dim(), b.dim()) + 1):
        x = a.size(-k) if k <= a.dim() else 1
        y = b.size(-k) if k <= b.dim() else 1
        if x != y and x != 1 and y != 1:
            dim = max(a.dim(), b.dim()) - k
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) "
                               f"at non-singleton dimension {dim}")
        shape.insert(0, y if x == 1 else x)
    return a.expand(shape), b.expand(shape)


def mse_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
             weight: Optional[Tensor] = None) -> Tensor:
    r"""(x - y)^2, reduced: the native mse_loss (aten/src/ATen/native/Loss.cpp), or, with a
    weight, the weighted squares summed and divided by the summed weights."""
    _warn_size(input, target)
    reduction = _legacy_reduction(size_average, reduce, reduction)
    expanded_input, expanded_target = _broadcast_pair(input, target)
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        weighted = (expanded_input - expanded_target).pow(2) * weight
        if reduction == "none":
            return weighted
        if reduction == "sum":
            return weighted.sum()
        if reduction == "mean":
            return weighted.sum() / weight.sum()
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")
    return torch._C._nn.mse_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction))


def l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
            weight: Optional[Tensor] = None) -> Tensor:
    r"""|x - y|, reduced: the native l1_loss (aten/src/ATen/native/Loss.cpp); with weight, the
    weighted errors (mean: divided by the sum of the weights)."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _warn_size(input, target)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    if weight is None:
        return torch._C._nn.l1_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction))
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    weighted = torch.abs(expanded_input - expanded_target) * weight
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return torch.sum(weighted)
    if reduction == "mean":
        return torch.sum(weighted) / torch.sum(weight)
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,
               weight: Optional[Tensor] = None) -> Tensor:
    r"""0.5 (x - y)^2 where |x - y| < delta, else delta (|x - y| - 0.5 delta); reduced. The
    native huber_loss (aten/src/ATen/native/Loss.cpp); with a weight, composed here as PyTorch's is."""
    _warn_size(input, target)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    if weight is None:
        return torch._C._nn.huber_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction), delta)
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    loss = torch._C._nn.huber_loss(expanded_input, expanded_target, _Reduction.get_enum("none"), delta) * weight
    if reduction == "mean":
        return torch.sum(loss) / torch.sum(weight)
    return _apply_loss_reduction(loss, reduction)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    r"""0.5 (x - y)^2 / beta where |x - y| < beta, else |x - y| - 0.5 beta; reduced. The native
    smooth_l1_loss (aten/src/ATen/native/Loss.cpp); beta 0 is l1_loss."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _warn_size(input, target)
    expanded_input, expanded_target = torch.broadcast_tensors(input, target)
    if beta == 0.0:
        return torch._C._nn.l1_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction))
    return torch._C._nn.smooth_l1_loss(expanded_input, expanded_target, _Reduction.get_enum(reduction), beta)


def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average=None,
             ignore_index: int = -100, reduce=None, reduction: str = "mean") -> Tensor:
    r"""-weight[y_n] * x[n, y_n]: input holds log-probabilities, (N, C) or (N, C, d1, ...) or (C,);
    target the class indices, (N,) or (N, d1, ...) or (). 'mean' divides by the summed
    weights of the targets that are not ignore_index. The native nll_loss_nd
    (aten/src/ATen/native/LossNLL.cpp) checks the shapes and picks the kernel."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return torch._C._nn.nll_loss_nd(input, target, weight, _Reduction.get_enum(reduction), ignore_index)


def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average=None,
                  ignore_index: int = -100, reduce=None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    r"""log_softmax over the class dim, then the negative log-likelihood of the target: the
    native cross_entropy_loss (aten/src/ATen/native/LossNLL.cpp).

    target is either class indices (int64, the shape of input without the class dim) or
    class probabilities (floating point, the shape of input). label_smoothing mixes the
    target with the uniform distribution over the C classes."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    return torch._C._nn.cross_entropy_loss(input, target, weight, _Reduction.get_enum(reduction), ignore_index,
                                           label_smoothing)


def binary_cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None, size_average=None,
                         reduce=None, reduction: str = "mean") -> Tensor:
    r"""-w (y log x + (1 - y) log(1 - x)) for probabilities x; each log is clamped at -100
    (as PyTorch's kernel does) so x = 0 or 1 gives a finite loss. The native
    binary_cross_entropy (aten/src/ATen/native/Loss.cpp, cuda/Loss.cu) computes it."""
    reduction_enum = _Reduction.get_enum(_legacy_reduction(size_average, reduce, reduction))
    if target.size() != input.size():
        raise ValueError(
            f"Using a target size ({target.size()}) that is different to the input size ({input.size()}) is "
            "deprecated. Please ensure they have the same size."
        )
    if weight is not None:
        weight = weight.expand(_broadcast_pair(target, weight)[0].shape)
    return torch._C._nn.binary_cross_entropy(input, target, weight, reduction_enum)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,
                                     size_average=None, reduce=None, reduction: str = "mean",
                                     pos_weight: Optional[Tensor] = None) -> Tensor:
    r"""binary_cross_entropy(sigmoid(x), y), computed stably from the logits x:
    (1 - y) x - (1 + (pos_weight - 1) y) log sigmoid(x), by the native
    binary_cross_entropy_with_logits (aten/src/ATen/native/Loss.cpp)."""
    reduction_enum = _Reduction.get_enum(_legacy_reduction(size_average, reduce, reduction))
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    return torch.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction_enum)


def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    r"""y (log y - x) for log-probabilities x and probabilities y (log-probabilities with
    log_target=True); 0 where y = 0. 'batchmean' divides the sum by the batch size."""
    if size_average is not None or reduce is not None:
        reduction_enum = _Reduction.legacy_get_string(size_average, reduce)
        reduction = reduction_enum
    elif reduction == "mean":
        warnings.warn(
            "reduction: 'mean' divides the total loss by both the batch size and the support size."
            "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
            "'mean' will be changed to behave the same as 'batchmean' in the next major release."
        )
    if reduction == "batchmean":
        reduced = torch.kl_div(input, target, _Reduction.get_enum("sum"), log_target=log_target)
        if input.dim() == 0:
            return reduced
        return reduced / input.size(0)
    return torch.kl_div(input, target, _Reduction.get_enum(reduction), log_target=log_target)


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
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def _no_grad_embedding_renorm_(weight: Tensor, input: Tensor, max_norm: float, norm_type: float) -> None:
    """embedding_renorm_: each row that input looks up and whose norm_type-norm exceeds max_norm
    is scaled in place by max_norm / (norm + 1e-7), outside autograd."""
    with torch.no_grad():
        rows = torch.unique(input.flatten())
        if rows.numel() == 0:
            return
        picked = weight.index_select(0, rows)
        norms = picked.norm(norm_type, 1, keepdim=True).to(torch.float64)
        scale = torch.where(norms > max_norm, max_norm / (norms + 1e-7), torch.ones_like(norms))
        weight.index_put_((rows,), picked * scale.to(weight.dtype))


# ---- helpers for the layers below ----
# ---- more activations ----
# Element-wise formulas composed of existing operators: autograd differentiates the pieces.

def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    r"""x clamped to [min_val, max_val]. The gradient is 1 strictly inside the interval and 0
    on and outside its ends, as PyTorch's hardtanh_backward gives."""
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return input.clamp_(min_val, max_val)
    inside = (input > min_val) & (input < max_val)
    # Outside the interval the value is a constant, so it carries no gradient.
    return torch.where(inside, input, input.detach().clamp(min_val, max_val))


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    r"""min(max(0, x), 6): hardtanh on [0, 6]."""
    return hardtanh(input, 0.0, 6.0, inplace)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    r"""log(1 + exp(beta x)) / beta, and x itself where beta x > threshold (where the two agree
    to the precision of the type)."""
    z = input * beta
    linear_part = z > threshold
    # The argument of exp is clamped so the branch torch.where discards cannot overflow to
    # inf, which would turn its zero gradient into NaN (0 * inf).
    soft = torch.log1p(torch.exp(z.clamp_max(threshold))) / beta
    return torch.where(linear_part, input, soft)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    r"""x * tanh(softplus(x))."""
    result = input * torch.tanh(softplus(input))
    if inplace:
        return input.copy_(result)
    return result


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12, out: Optional[Tensor] = None) -> Tensor:
    r"""x / max(||x||_p, eps) along dim."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return out.copy_(input / denom)


# ---- group and instance normalization ----
def group_norm(input: Tensor, num_groups: int, weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
               eps: float = 1e-5) -> Tensor:
    r"""Normalize each sample's channels in num_groups groups (mean 0, variance 1 over the group's
    channels and positions), then scale and shift each channel. Each group is one row of a
    (N * num_groups, -1) view, which layer_norm normalizes."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:]))
    n, c = input.size(0), input.size(1)
    if c % num_groups != 0:
        raise RuntimeError(
            "Expected number of channels in input to be divisible by num_groups, but got input of shape "
            f"{list(input.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(
                f"Expected {name} to be a vector of size equal to the number of channels in input, but got "
                f"{name} of shape {list(t.shape)} and input of shape {list(input.shape)}")
    grouped = input.reshape(n, num_groups, -1)
    out = (torch.layer_norm(grouped, [grouped.size(-1)], None, None, eps, False)).reshape(input.shape)
    affine_shape = [1, c] + [1] * (input.dim() - 2)
    if weight is not None:
        out = out * weight.reshape(affine_shape)
    if bias is not None:
        out = out + bias.reshape(affine_shape)
    return out


def _verify_spatial_size(size) -> None:
    size_prods = 1
    for i in range(2, len(size)):
        size_prods *= size[i]
    if size_prods == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")


def instance_norm(input: Tensor, running_mean: Optional[Tensor] = None, running_var: Optional[Tensor] = None,
                  weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    r"""Normalize each (sample, channel) plane. As aten::instance_norm does, the (N, C, ...) input
    is viewed as one sample of N * C channels and batch-normalized; the running statistics,
    repeated N times for that, are updated with the mean over the batch."""
    if use_input_stats:
        _verify_spatial_size(input.size())
    n, c = input.size(0), input.size(1)
    shape = [1, n * c] + list(input.shape[2:])
    folded = input.reshape(shape)

    def repeated(t):
        return None if t is None else t.repeat(n)

    mean_r, var_r = repeated(running_mean), repeated(running_var)
    out = torch.batch_norm(folded, repeated(weight), repeated(bias), mean_r, var_r, use_input_stats, momentum, eps,
                           False)
    if use_input_stats:
        with torch.no_grad():
            if running_mean is not None:
                running_mean.copy_(mean_r.view(n, c).mean(0))
            if running_var is not None:
                running_var.copy_(var_r.view(n, c).mean(0))
    return out.reshape(input.shape)


# ---- transposed convolution ----
def _conv_transpose_nd(name: str, nd: int, input: Tensor, weight: Tensor, bias, stride, padding, output_padding,
                       groups: int, dilation) -> Tensor:
    r"""conv_transpose as the adjoint of convolution: each input pixel scatters weight-scaled
    copies of its kernel into the output. One matmul makes every pixel's kernel-sized block
    (the columns im2col would have made), and fold (col2im) sums the blocks into the image
    at stride / dilation; padding then crops the image and output_padding extends it."""
    def expand(v, what):
        v = _pair_list(v)
        if len(v) == 1:
            v = v * nd
        if len(v) != nd:
            raise RuntimeError(f"expected {what} to be a single integer value or a list of {nd} values to match "
                               f"the convolution dimensions, but got {what}={v}")
        return v

    stride, padding = expand(stride, "stride"), expand(padding, "padding")
    output_padding, dilation = expand(output_padding, "output_padding"), expand(dilation, "dilation")
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"Expected {nd + 1}D (unbatched) or {nd + 2}D (batched) input to {name}, but got input "
                           f"of size: {list(input.shape)}")
    unbatched = input.dim() == nd + 1
    if unbatched:
        input = input.unsqueeze(0)
    if weight.dim() != nd + 2:
        raise RuntimeError(f"Expected {nd + 2}-dimensional input for {nd + 2}-dimensional weight {list(weight.shape)}, "
                           f"but got {input.dim()}-dimensional input of size {list(input.shape)} instead")
    if weight.size(0) % groups != 0:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} at dimension 0, "
                           f"but got weight of size [{list(weight.shape)}] instead")
    if input.size(1) != weight.size(0):
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
                           f"{list(input.shape)} to have {weight.size(0)} channels, but got {input.size(1)} "
                           "channels instead")
    c_out = weight.size(1) * groups
    if bias is not None and (bias.dim() != 1 or bias.numel() != c_out):
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected bias to be "
                           f"1-dimensional with {c_out} elements, but got bias of size {list(bias.shape)} instead")
    if any(op >= s and op >= d for op, s, d in zip(output_padding, stride, dilation)):
        names = ("height", "width") if nd == 2 else ("width",)
        parts = [f"output_padding_{n}: {v}" for n, v in zip(names, output_padding)]
        parts += [f"stride_{n}: {v}" for n, v in zip(names, stride)]
        parts += [f"dilation_{n}: {v}" for n, v in zip(names, dilation)]
        raise RuntimeError("output padding must be smaller than either stride or dilation, but got " + " ".join(parts))
    if nd == 1:
        # A 1-d transposed convolution is the 2-d one over images of height 1.
        input, weight = input.unsqueeze(2), weight.unsqueeze(2)
        stride, padding, output_padding, dilation = [1] + stride, [0] + padding, [0] + output_padding, [1] + dilation
    n, c_in = input.size(0), input.size(1)
    spatial = list(input.shape[2:])
    kernel = list(weight.shape[2:])
    c_in_g, c_out_g = c_in // groups, weight.size(1)
    k_numel = kernel[0] * kernel[1]
    # columns: (N, groups, C_out_g * kH * kW, H * W) = W_g^T @ x_g for each group
    x = input.reshape(n, groups, c_in_g, spatial[0] * spatial[1])
    w = weight.reshape(groups, c_in_g, c_out_g * k_numel).transpose(1, 2)
    cols = torch.matmul(w, x).reshape(n, groups * c_out_g * k_numel, spatial[0] * spatial[1])
    full = [(spatial[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 for i in range(2)]
    out = fold(cols, full, kernel, dilation, 0, stride)
    want = [full[i] - 2 * padding[i] + output_padding[i] for i in range(2)]
    # crop padding on both sides; output_padding extends the bottom/right (with zeros past the
    # fully-summed image: no input pixel reaches there)
    out = pad(out, [-padding[1], want[1] - full[1] + padding[1], -padding[0], want[0] - full[0] + padding[0]])
    if bias is not None:
        out = out + bias.reshape(1, c_out, 1, 1)
    if nd == 1:
        out = out.squeeze(2)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """1-d transposed convolution over (N, C_in, L); weight is (C_in, C_out / groups, kL)."""
    return _conv_transpose_nd("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding, groups,
                              dilation)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride=1, padding=0,
                     output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """2-d transposed convolution over (N, C_in, H, W); weight is (C_in, C_out / groups, kH, kW)."""
    return _conv_transpose_nd("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups,
                              dilation)


# ---- resampling ----
def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:
    r"""(*, C r^2, H, W) -> (*, C, H r, W r): each group of r^2 channels becomes an r x r block."""
    if input.dim() < 3:
        raise RuntimeError("pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    r = upscale_factor
    if r <= 0:
        raise RuntimeError(f"pixel_shuffle expects a positive upscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if c % (r * r) != 0:
        raise RuntimeError("pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    batch = list(input.shape[:-3])
    b = len(batch)
    x = input.reshape(batch + [c // (r * r), r, r, h, w])
    x = x.permute(*range(b), b, b + 3, b + 1, b + 4, b + 2)
    return x.reshape(batch + [c // (r * r), h * r, w * r])


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:
    r"""(*, C, H r, W r) -> (*, C r^2, H, W): the inverse of pixel_shuffle."""
    if input.dim() < 3:
        raise RuntimeError("pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    r = downscale_factor
    if r <= 0:
        raise RuntimeError(f"pixel_unshuffle expects a positive downscale_factor, but got {r}")
    c, h, w = input.shape[-3:]
    if h % r != 0:
        raise RuntimeError("pixel_unshuffle expects height to be divisible by downscale_factor, but input.size(-2)="
                           f"{h} is not divisible by {r}")
    if w % r != 0:
        raise RuntimeError("pixel_unshuffle expects width to be divisible by downscale_factor, but input.size(-1)="
                           f"{w} is not divisible by {r}")
    batch = list(input.shape[:-3])
    b = len(batch)
    x = input.reshape(batch + [c, h // r, r, w // r, r])
    x = x.permute(*range(b), b, b + 2, b + 4, b + 1, b + 3)
    return x.reshape(batch + [c * r * r, h // r, w // r])


def _index_dtype(input: Tensor):
    """The type PyTorch's upsampling kernels compute source coordinates in (their opmath type)."""
    return torch.float64 if input.dtype == torch.float64 else torch.float32


def _upsample_scale(in_size: int, out_size: int, scale: Optional[float], dtype) -> Tensor:
    """compute_scales_value: 1 / scale_factor when one was given, else in_size / out_size,
    rounded to the kernel's type."""
    if scale is not None and scale > 0:
        return torch.tensor(1.0 / scale, dtype=dtype)
    return torch.tensor(float(in_size), dtype=dtype) / out_size


def _nearest_index(in_size: int, out_size: int, scale: Optional[float], exact: bool, device) -> Tensor:
    """Source index of each output position: floor(dst * scale) (nearest) or
    floor((dst + 0.5) * scale) (nearest-exact), in float32 as PyTorch's kernel does."""
    if not exact and out_size == in_size:
        return torch.arange(out_size, dtype=torch.int64, device=device)
    if not exact and out_size == 2 * in_size:
        return torch.arange(out_size, dtype=torch.int64, device=device) // 2
    s = _upsample_scale(in_size, out_size, scale, torch.float32)
    dst = torch.arange(out_size, dtype=torch.float32)
    if exact:
        dst = dst + 0.5
    return torch.floor(dst * s).to(torch.int64).clamp_max(in_size - 1).to(device)


def _linear_weights(in_size: int, out_size: int, scale: Optional[float], align_corners: bool, dtype):
    """The two source indices and their weights for each output position (linear modes)."""
    dst = torch.arange(out_size, dtype=dtype)
    if align_corners:
        s = torch.tensor(float(in_size - 1), dtype=dtype) / (out_size - 1) if out_size > 1 else torch.tensor(0.0, dtype=dtype)
        src = dst * s
    else:
        s = _upsample_scale(in_size, out_size, scale, dtype)
        src = (s * (dst + 0.5) - 0.5).clamp_min(0.0)
    i0 = torch.floor(src).to(torch.int64).clamp_max(in_size - 1)
    lambda1 = (src - i0.to(dtype)).clamp(0.0, 1.0)
    i1 = i0 + (i0 < in_size - 1).to(torch.int64)
    return i0, i1, 1.0 - lambda1, lambda1


def _is_integer(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) or (isinstance(x, Tensor) and not x.is_floating_point())


def interpolate(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners: Optional[bool] = None,
                recompute_scale_factor: Optional[bool] = None, antialias: bool = False) -> Tensor:
    r"""Resample the spatial dims of (N, C, d1, ...) to size, or to floor(d * scale_factor).

    nearest / nearest-exact pick a source index per output position; linear / bilinear /
    trilinear blend the two neighbouring samples along each spatial dim in turn (the
    separable form of PyTorch's kernels); area averages (adaptive_avg_pool2d, 4-D only)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    elif size is not None:
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(
                    "Input and output must have the same number of spatial dimensions, but got input with spatial "
                    f"dimensions of {list(input.shape[2:])} and output size of {size}. Please provide input tensor "
                    "in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.")
            if not all(_is_integer(x) for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or "
                                f"Tuple[int, int, int], but got size with types {[type(x) for x in size]}")
            output_size = [int(x) for x in size]
        else:
            output_size = [int(size)] * dim
    elif scale_factor is not None:
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(
                    "Input and scale_factor must have the same number of spatial dimensions, but got input with "
                    f"spatial dimensions of {list(input.shape[2:])} and scale_factor of shape {scale_factor}. "
                    "Please provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in "
                    "(s1, s2, ...,sK) format.")
            scale_factors = [float(s) for s in scale_factor]
        else:
            scale_factors = [float(scale_factor)] * dim
    else:
        raise ValueError("either size or scale_factor should be defined")
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if output_size is None:
        output_size = [math.floor(float(input.size(i + 2)) * scale_factors[i]) for i in range(dim)]
    if recompute_scale_factor:
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear and bicubic modes and requires a 4-D tensor "
                         "as input")
    modes = {"nearest": (3, 4, 5), "nearest-exact": (3, 4, 5), "area": (3, 4, 5), "linear": (3,), "bilinear": (4,),
             "trilinear": (5,), "bicubic": (4,)}
    if mode not in modes or input.dim() not in (3, 4, 5):
        raise NotImplementedError(
            f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the modes: nearest | "
            f"linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got {mode})")
    if input.dim() not in modes[mode]:
        need = modes[mode][0]
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {need}D input")
    in_sizes = list(input.shape[2:])
    if any(o <= 0 for o in output_size) or any(i <= 0 for i in in_sizes):
        names = "DHW"[3 - dim:]
        given = ", ".join(f"{n}: {v}" for n, v in zip(names, in_sizes))
        got = ", ".join(f"{n}: {v}" for n, v in zip(names, output_size))
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({given}) output ({got})")
    if mode == "area":
        if dim != 2:
            raise NotImplementedError("interpolate: mode 'area' is implemented for 4-D input only in this tree")
        return adaptive_avg_pool2d(input, output_size)
    if mode == "bicubic" or antialias:
        raise NotImplementedError(f"interpolate: mode '{mode}' (antialias={antialias}) is not implemented in this tree")
    scales = scale_factors if scale_factors is not None else [None] * dim
    out = input
    for i in range(dim):
        d = 2 + i
        if mode in ("nearest", "nearest-exact"):
            index = _nearest_index(in_sizes[i], output_size[i], scales[i], mode == "nearest-exact", input.device)
            out = out.index_select(d, index)
        else:
            i0, i1, w0, w1 = _linear_weights(in_sizes[i], output_size[i], scales[i], align_corners,
                                             _index_dtype(input))
            shape = [1] * input.dim()
            shape[d] = output_size[i]
            w0 = w0.to(input.dtype).reshape(shape).to(input.device)
            w1 = w1.to(input.dtype).reshape(shape).to(input.device)
            out = out.index_select(d, i0.to(input.device)) * w0 + out.index_select(d, i1.to(input.device)) * w1
    return out


def upsample(input: Tensor, size=None, scale_factor=None, mode: str = "nearest", align_corners=None) -> Tensor:
    warnings.warn("nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


# ---- attention ----
# [marker: scaled_dot_product_attention]
def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Optional[Tensor] = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: Optional[float] = None,
                                 enable_gqa: bool = False) -> Tensor:
    r"""softmax(Q K^T * scale + mask) V over the last two dims of (..., L, E) queries and
    (..., S, E) keys / (..., S, Ev) values: PyTorch's math path, made of matmul, masked_fill,
    softmax and dropout. A bool mask keeps the positions that are True; a float mask is
    added to the scores; is_causal keeps the lower triangle of the L x S scores. A row
    with every position masked gives zeros (not the NaN of a plain softmax)."""
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError("Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if not (query.dtype == key.dtype == value.dtype):
        raise RuntimeError("Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{_c_type_name(query.dtype)} key.dtype: {_c_type_name(key.dtype)} and value.dtype: "
                           f"{_c_type_name(value.dtype)} instead.")
    if attn_mask is not None and attn_mask.dtype != torch.bool and attn_mask.dtype != query.dtype:
        raise RuntimeError("Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {_c_type_name(attn_mask.dtype)} and  query.dtype: "
                           f"{_c_type_name(query.dtype)} instead.")
    if enable_gqa and query.dim() >= 3 and key.size(-3) != query.size(-3):
        q_heads, kv_heads = query.size(-3), key.size(-3)
        if q_heads % kv_heads != 0 or value.size(-3) != kv_heads:
            raise RuntimeError("Number of heads in key and value must divide the number of heads in ")
        key, value = _repeat_heads(key, q_heads // kv_heads), _repeat_heads(value, q_heads // kv_heads)
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1.0 / math.sqrt(query.size(-1)) if scale is None else scale
    # Both operands get the square root of the scale (as PyTorch's math kernel does), which
    # keeps Q K^T in range for half-precision types.
    root = math.sqrt(scale_factor)
    scores = torch.matmul(query * root, (key * root).transpose(-2, -1))
    if is_causal:
        causal = torch.ones(L, S, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            scores = scores + attn_mask
    if attn_mask is None and S > 0:
        # No mask, or the causal one alone (row i keeps columns 0..i): no row is fully masked
        # by a mask, so the plain softmax is the safe one, with four operators and their
        # backward nodes fewer per call.
        weights = scores.softmax(-1)
    else:
        # A fully masked row: softmax over zeros instead of over -infs (which is NaN, and its
        # gradient too), then zeroed (PyTorch's _safe_softmax).
        dead = (scores == float("-inf")).all(-1, keepdim=True)
        weights = torch.where(dead, torch.zeros_like(scores), scores).softmax(-1)
        weights = torch.where(dead, torch.zeros_like(weights), weights)
    if dropout_p > 0.0:
        weights = torch.dropout(weights, dropout_p, True)
    return torch.matmul(weights, value)
# [end marker: scaled_dot_product_attention]


def _repeat_heads(t: Tensor, times: int) -> Tensor:
    """(..., H, S, E) -> (..., H * times, S, E), each head repeated times in a row (repeat_interleave)."""
    shape = list(t.shape)
    expanded = t.unsqueeze(-3).expand(shape[:-2] + [times] + shape[-2:])
    return expanded.reshape(shape[:-3] + [shape[-3] * times] + shape[-2:])


def _c_type_name(dtype) -> str:
    """The C++ name of a dtype, as in TORCH_CHECK messages: float, double, long int ..."""
    names = {torch.float32: "float", torch.float64: "double", torch.int64: "long int", torch.int32: "int",
             torch.bool: "bool", torch.float16: "c10::Half", torch.bfloat16: "c10::BFloat16",
             torch.int16: "short int", torch.int8: "signed char", torch.uint8: "unsigned char"}
    return names.get(dtype, str(dtype).replace("torch.", ""))


def _none_or_dtype(input: Optional[Tensor]):
    if input is None:
        return None
    elif isinstance(input, torch.Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _canonical_mask(mask: Optional[Tensor], mask_name: str, other_type, other_name: str, target_type,
                    check_other: bool = True) -> Optional[Tensor]:
    """A bool mask as an additive float mask of target_type (-inf where True); a float mask as is."""
    if mask is not None:
        mask_is_float = mask.is_floating_point()
        if mask.dtype != torch.bool and not mask_is_float:
            raise AssertionError(f"only bool and floating types of {mask_name} are supported")
        if check_other and other_type is not None and mask.dtype != other_type:
            warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. Use same type for "
                          "both instead.", stacklevel=3)
        if not mask_is_float:
            mask = torch.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))
    return mask


def _mha_shape_check(query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Optional[Tensor],
                     attn_mask: Optional[Tensor], num_heads: int) -> bool:
    """Whether the call is batched (3-D query), after checking the shapes agree."""
    if query.dim() in (3, 2):
        is_batched = query.dim() == 3
        # the batched (3-D) and unbatched (2-D) calls ask the same of key, value and the masks
        kind, dim = ("batched (3-D)", 3) if is_batched else ("unbatched (2-D)", 2)
        assert key.dim() == dim and value.dim() == dim, (
            f"For {kind} `query`, expected `key` and `value` to be {dim}-D but found "
            f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None:
            assert key_padding_mask.dim() == dim - 1, (
                f"For {kind} `query`, expected `key_padding_mask` to be `None` or {dim - 1}-D but found "
                f"{key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            assert attn_mask.dim() in (2, 3), (
                f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but found "
                f"{attn_mask.dim()}-D tensor instead")
            if not is_batched and attn_mask.dim() == 3:
                expected_shape = (num_heads, query.shape[0], key.shape[0])
                assert tuple(attn_mask.shape) == expected_shape, (
                    f"Expected `attn_mask` shape to be {expected_shape} but got {attn_mask.shape}")
        return is_batched
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor")


def _in_projection_packed(q: Tensor, k: Tensor, v: Tensor, w: Tensor, b: Optional[Tensor] = None):
    """q, k, v projected by the three (E, E) blocks of the packed (3E, E) weight; one linear
    when q, k and v are the same tensor (self-attention)."""
    E = q.size(-1)
    if k is v:
        if q is k:
            proj = linear(q, w, b)
            proj = proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
            return proj[0], proj[1], proj[2]
        w_q, w_kv = w.split([E, E * 2])
        b_q, b_kv = (None, None) if b is None else b.split([E, E * 2])
        kv = linear(k, w_kv, b_kv).unflatten(-1, (2, E)).unsqueeze(0).transpose(0, -2).squeeze(-2).contiguous()
        return linear(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return linear(q, w_q, b_q), linear(k, w_k, b_k), linear(v, w_v, b_v)


def multi_head_attention_forward(
    query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
    in_proj_weight: Optional[Tensor], in_proj_bias: Optional[Tensor], bias_k: Optional[Tensor],
    bias_v: Optional[Tensor], add_zero_attn: bool, dropout_p: float, out_proj_weight: Tensor,
    out_proj_bias: Optional[Tensor], training: bool = True, key_padding_mask: Optional[Tensor] = None,
    need_weights: bool = True, attn_mask: Optional[Tensor] = None, use_separate_proj_weight: bool = False,
    q_proj_weight: Optional[Tensor] = None, k_proj_weight: Optional[Tensor] = None,
    v_proj_weight: Optional[Tensor] = None, static_k: Optional[Tensor] = None, static_v: Optional[Tensor] = None,
    average_attn_weights: bool = True, is_causal: bool = False,
) -> Tuple[Tensor, Optional[Tensor]]:
    r"""Multi-head attention over sequence-first (L, N, E) query and (S, N, E) key / value.

    Project q, k, v (linear), split E into num_heads heads of head_dim (view + transpose to
    (N * heads, L, head_dim)), attend per head, merge the heads and project out (linear).
    With need_weights the attention is spelled out (bmm, softmax, bmm) so the weights can be
    returned; without, it is scaled_dot_product_attention."""
    is_batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not is_batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    src_len = key.shape[0]
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask", _none_or_dtype(attn_mask), "attn_mask",
                                       query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        # scaled_dot_product_attention builds the causal mask itself
        attn_mask = None
    else:
        attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    assert embed_dim == embed_dim_to_check, \
        f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}"
    head_dim = embed_dim // num_heads
    assert head_dim * num_heads == embed_dim, f"embed_dim {embed_dim} not divisible by num_heads {num_heads}"
    if use_separate_proj_weight:
        assert key.shape[:2] == value.shape[:2], \
            f"key's sequence and batch dims {key.shape[:2]} do not match value's {value.shape[:2]}"
    else:
        assert key.shape == value.shape, f"key shape {key.shape} does not match value shape {value.shape}"

    # in-projection
    if not use_separate_proj_weight:
        assert in_proj_weight is not None, "use_separate_proj_weight is False but in_proj_weight is None"
        q, k, v = _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    else:
        assert q_proj_weight is not None, "use_separate_proj_weight is True but q_proj_weight is None"
        assert k_proj_weight is not None, "use_separate_proj_weight is True but k_proj_weight is None"
        assert v_proj_weight is not None, "use_separate_proj_weight is True but v_proj_weight is None"
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
        q, k, v = linear(query, q_proj_weight, b_q), linear(key, k_proj_weight, b_k), linear(value, v_proj_weight, b_v)

    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = attn_mask.unsqueeze(0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")

    # learned key / value appended along the sequence (add_bias_kv)
    if bias_k is not None and bias_v is not None:
        assert static_k is None, "bias cannot be added to static key."
        assert static_v is None, "bias cannot be added to static value."
        k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
        v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    else:
        assert bias_k is None
        assert bias_v is None

    # [marker: mha_heads]
    # heads: (L, N, E) -> (N * heads, L, head_dim)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    if static_k is None:
        k = k.view(k.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        assert static_k.size(0) == bsz * num_heads, \
            f"expecting static_k.size(0) of {bsz * num_heads}, but got {static_k.size(0)}"
        assert static_k.size(2) == head_dim, f"expecting static_k.size(2) of {head_dim}, but got {static_k.size(2)}"
        k = static_k
    if static_v is None:
        v = v.view(v.shape[0], bsz * num_heads, head_dim).transpose(0, 1)
    else:
        assert static_v.size(0) == bsz * num_heads, \
            f"expecting static_v.size(0) of {bsz * num_heads}, but got {static_v.size(0)}"
        assert static_v.size(2) == head_dim, f"expecting static_v.size(2) of {head_dim}, but got {static_v.size(2)}"
        v = static_v

    if add_zero_attn:
        zeros = torch.zeros((bsz * num_heads, 1, head_dim), dtype=k.dtype, device=k.device)
        k = torch.cat([k, zeros], dim=1)
        v = torch.cat([v, zeros], dim=1)
        if attn_mask is not None:
            attn_mask = pad(attn_mask, (0, 1))
        if key_padding_mask is not None:
            key_padding_mask = pad(key_padding_mask, (0, 1))
    src_len = k.size(1)

    # the key padding mask joins the attention mask, per batch element and head
    if key_padding_mask is not None:
        assert tuple(key_padding_mask.shape) == (bsz, src_len), \
            f"expecting key_padding_mask shape of {(bsz, src_len)}, but got {key_padding_mask.shape}"
        key_padding_mask = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, num_heads, -1, -1).reshape(
            bsz * num_heads, 1, src_len)
        attn_mask = key_padding_mask if attn_mask is None else attn_mask + key_padding_mask
    if not training:
        dropout_p = 0.0

    if need_weights:
        q_scaled = q * math.sqrt(1.0 / float(q.size(-1)))
        assert not (is_causal and attn_mask is None), "FIXME: is_causal not implemented for need_weights"
        if attn_mask is not None:
            weights = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
        else:
            weights = torch.bmm(q_scaled, k.transpose(-2, -1))
        weights = softmax(weights, dim=-1)
        if dropout_p > 0.0:
            weights = dropout(weights, p=dropout_p)
        attn_output = torch.bmm(weights, v)
        attn_output = attn_output.transpose(0, 1).contiguous().view(tgt_len * bsz, embed_dim)
        attn_output = linear(attn_output, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
        weights = weights.view(bsz, num_heads, tgt_len, src_len)
        if average_attn_weights:
            weights = weights.mean(dim=1)
        if not is_batched:
            attn_output, weights = attn_output.squeeze(1), weights.squeeze(0)
        return attn_output, weights
    # [end marker: mha_heads]

    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, num_heads, -1, src_len)
    q = q.view(bsz, num_heads, tgt_len, head_dim)
    k = k.view(bsz, num_heads, src_len, head_dim)
    v = v.view(bsz, num_heads, src_len, head_dim)
    attn_output = scaled_dot_product_attention(q, k, v, attn_mask, dropout_p, is_causal)
    attn_output = attn_output.permute(2, 0, 1, 3).contiguous().view(bsz * tgt_len, embed_dim)
    attn_output = linear(attn_output, out_proj_weight, out_proj_bias).view(tgt_len, bsz, -1)
    if not is_batched:
        attn_output = attn_output.squeeze(1)
    return attn_output, None


# F.cosine_similarity is the operator itself (aten/src/ATen/native/Distance.cpp), as in PyTorch.
cosine_similarity = torch.cosine_similarity
