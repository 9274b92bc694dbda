"""torch.functional: torch functions written in Python over the operators (split, unique, norm,
tensordot, einsum).

Mirrors PyTorch's torch/functional.py. Guide: docs/source/internals/tensor_iterator.rst.
"""

import torch
from torch import _C

__all__ = ["einsum", "norm", "split", "tensordot", "unique"]


def split(tensor, split_size_or_sections, dim=0):
    """Split tensor into chunks along dim.

    An int gives pieces of that size (the last may be smaller); a list gives the sizes of the
    pieces, which must add up to tensor.size(dim). The pieces are views of tensor.
    """
    return tensor.split(split_size_or_sections, dim)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements of input (sorted), optionally with the inverse and the counts.

    Calls the operator _unique2 (unique_dim with dim=, the distinct slices along dim), in
    aten/src/ATen/native/Unique.cpp; the tuple it returns is trimmed to what was asked for,
    as PyTorch does.
    """
    if dim is not None:
        output, inverse_indices, counts = torch._C._VariableFunctions.unique_dim(
            input, dim, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts)
    else:
        output, inverse_indices, counts = torch._unique2(
            input, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts)
    if return_inverse and return_counts:
        return output, inverse_indices, counts
    if return_inverse:
        return output, inverse_indices
    if return_counts:
        return output, counts
    return output


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """The vector norm of input over dim (all elements by default).

    p is a number (2, 1, 0, inf, -inf, any float), "fro" (the 2-norm of all the elements,
    or over dim) or "nuc" (the nuclear norm of the matrices over two dims: the sum of their
    singular values, as PyTorch's linalg.matrix_norm computes it). The work is done by the
    operators linalg_vector_norm and linalg_svdvals.
    """
    if isinstance(p, str):
        if p == "fro":
            p = 2
        elif p == "nuc":
            return _nuclear_norm(input, dim, keepdim, out, dtype)
        else:
            raise RuntimeError(f"norm(): p={p!r} is not supported in this tree (only numbers, 'fro' and 'nuc')")
    if isinstance(dim, int):
        dim = [dim]
    if dim is None:
        dim = []
    if dtype is None:
        result = torch._C._VariableFunctions.norm(input, p, list(dim), keepdim) if dim else \
            torch._C._VariableFunctions.norm(input, p)
        if keepdim and not dim:
            result = result.view([1] * input.dim())
    else:
        result = torch._C._VariableFunctions.norm(input, p, list(dim) if dim else list(range(input.dim())),
                                                  keepdim, dtype=dtype)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result


def _nuclear_norm(input, dim, keepdim, out, dtype):
    """linalg.matrix_norm(input, "nuc", dim): the operator nuclear_norm (the sum of the
    singular values of each matrix, aten/src/ATen/native/LinearAlgebra.cpp) over two dims,
    all of input's dims when dim is None (so it must be a matrix), as PyTorch's torch.norm does."""
    if input.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    dims = list(range(input.dim())) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    if len(dims) != 2:
        raise RuntimeError("linalg.matrix_norm: dim must be a 2-tuple. Got " + " ".join(str(d) for d in dims))
    a = input if dtype is None else input.to(dtype)
    result = torch._C._VariableFunctions.nuclear_norm(a, dims, keepdim)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result


# ---- linear algebra: tensordot, einsum (the contractions themselves are C++: -------------
# ---- aten/src/ATen/native/Linear.cpp; these parse Python's argument forms) ----------------


def tensordot(a, b, dims=2, out=None):
    """Contract a and b over dims: an int n (the last n of a with the first n of b), or a
    pair of lists ([dims of a], [dims of b])."""
    if out is not None:
        raise NotImplementedError("tensordot(out=) is not supported by this build")
    if isinstance(dims, torch.Tensor):
        dims = dims.tolist()
    if isinstance(dims, (tuple, list)):
        if len(dims) != 2:
            raise RuntimeError(f"tensordot expects dims to be a pair of lists of dimensions, but got dims={dims}")
        dims_a, dims_b = dims
        if isinstance(dims_a, int):
            dims_a = [dims_a]
        if isinstance(dims_b, int):
            dims_b = [dims_b]
        dims_a, dims_b = list(dims_a), list(dims_b)
    elif isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a = list(range(-dims, 0))
        dims_b = list(range(dims))
    else:
        raise RuntimeError(f"tensordot expects dims to be int or tuple[list[int], list[int]], but got {type(dims)}")
    return _C._VariableFunctions.tensordot(a, b, dims_a, dims_b)


def _sublist_to_subscripts(sublist):
    """einsum(a, [0, 1], b, [1, 2], [0, 2]): integers 0-51 stand for a-z, A-Z; Ellipsis for '...'."""
    def one(i):
        if i is Ellipsis:
            return "..."
        if not 0 <= i < 52:
            raise ValueError(f"einsum(): subscript in subscript list is not within the valid range [0, 52), got {i}")
        return chr(ord("a") + i) if i < 26 else chr(ord("A") + i - 26)
    return "".join(one(i) for i in sublist)


def einsum(*args):
    """einsum(equation, *operands): sums of products over the dimensions the equation names,
    e.g. einsum('ij,jk->ik', a, b) == a @ b. Implicit output, '...' and repeated subscripts
    ('ii->i', the diagonal) are supported; also the sublist form einsum(a, [0, 1], b, [1, 2])."""
    if len(args) < 2:
        raise ValueError(
            "einsum(): must specify the equation string and at least one operand, "
            "or at least one operand and its subscripts list"
        )
    if isinstance(args[0], torch.Tensor):
        # sublist format: op0, sublist0, op1, sublist1, ..., [sublist_out]
        operands = list(args[0::2][: len(args) // 2])
        sublists = list(args[1::2][: len(args) // 2])
        equation = ",".join(_sublist_to_subscripts(s) for s in sublists)
        if len(args) % 2 == 1:
            equation += "->" + _sublist_to_subscripts(args[-1])
        return _C._VariableFunctions.einsum(equation, operands)
    equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return _C._VariableFunctions.einsum(equation, list(operands))


# ---- end of linear algebra ----
