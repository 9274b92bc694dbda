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
    "mse_loss", "l1_loss", "smooth_l1_loss", "nll_loss", "cross_entropy", "binary_cross_entropy",
    "binary_cross_entropy_with_logits", "kl_div",
]


# ---- linear ----
def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    r"""y = x W^T + b. A 2-D input with a bias is one addmm (PyTorch decomposes aten::linear
    the same way); other shapes are matmul then add."""
    if input.dim() == 2 and bias is not None:
        return torch.addmm(bias, input, weight.t())
    output = input.matmul(weight.t())
    if bias is not None:
        output = output + bias
    return output


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
    r"""|x - y|, reduced."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _warn_size(input, target)
    loss = (input - target).abs()
    if weight is not None:
        loss = loss * weight
    return _apply_loss_reduction(loss, reduction)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average=None, reduce=None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    r"""0.5 (x - y)^2 / beta where |x - y| < beta, else |x - y| - 0.5 beta; reduced."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _warn_size(input, target)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    diff = (input - target).abs()
    if beta == 0.0:
        loss = diff
    else:
        loss = torch.where(diff < beta, 0.5 * diff * diff / beta, diff - 0.5 * beta)
    return _apply_loss_reduction(loss, reduction)


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
    r"""log_softmax over the class dim, then the negative log-likelihood of the target.

    target is either class indices (int64, the shape of input without the class dim) or
    class probabilities (floating point, the shape of input). label_smoothing mixes the
    target with the uniform distribution over the C classes."""
    reduction = _legacy_reduction(size_average, reduce, reduction)
    enum = _Reduction.get_enum(reduction)
    if not (0.0 <= label_smoothing <= 1.0):
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    n_classes = input.size(class_dim)
    logp = log_softmax(input, class_dim)
    w_shape = [1] * input.dim()
    w_shape[class_dim] = n_classes

    if input.shape == target.shape:
        # Class probabilities.
        if not target.is_floating_point():
            raise RuntimeError(
                "Expected floating point type for target with class probabilities, got "
                f"{_legacy_dtype_name(target.dtype)}"
            )
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        if label_smoothing > 0.0:
            target = target * (1 - label_smoothing) + (label_smoothing / n_classes)
        prod = logp * target
        if weight is not None:
            prod = prod * weight.view(w_shape)
        if enum == 1:
            return -prod.sum() / (input.numel() / n_classes)
        if enum == 2:
            return -prod.sum()
        return -prod.sum(class_dim)

    nll = nll_loss(logp, target, weight, None, ignore_index, None, reduction)
    if label_smoothing == 0.0:
        return nll
    ignored = target == ignore_index
    smooth = -(logp * weight.view(w_shape)).sum(class_dim) if weight is not None else -logp.sum(class_dim)
    smooth = torch.where(ignored, torch.zeros_like(smooth), smooth)
    if enum == 1:
        if weight is not None:
            kept = target.masked_select(~ignored).flatten()
            smooth = smooth.sum() / weight.gather(0, kept).sum()
        else:
            smooth = smooth.sum() / (~ignored).sum()
    elif enum == 2:
        smooth = smooth.sum()
    return (1 - label_smoothing) * nll + smooth * (label_smoothing / n_classes)


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
    if log_target:
        loss = torch.exp(target) * (target - input)
    else:
        positive = target > 0
        safe = torch.where(positive, target, torch.ones_like(target))
        loss = target * torch.log(safe) - target * input
    if reduction == "batchmean":
        if input.dim() == 0:
            return loss.sum()
        return loss.sum() / input.size(0)
    return _apply_loss_reduction(loss, reduction)


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
