"""torch.functional: torch functions written in Python over the operators (split, unique, norm).

Mirrors PyTorch's torch/functional.py. Guide: docs/source/internals/tensor_iterator.rst.
"""

import torch

__all__ = ["norm", "split", "unique"]


def split(tensor, split_size_or_sections, dim=0):
    """Split tensor into chunks along dim.

    An int gives pieces of that size (the last may be smaller); a list gives the sizes of the
    pieces, which must add up to tensor.size(dim). The pieces are views of tensor.
    """
    return tensor.split(split_size_or_sections, dim)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements of input (sorted), optionally with the inverse and the counts.

    Calls the operator _unique2 (aten/src/ATen/native/Unique.cpp); the tuple it returns is
    trimmed to what was asked for, as PyTorch does.
    """
    if dim is not None:
        raise NotImplementedError("torch.unique(dim=...) is not implemented in this tree")
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

    p is a number (2, 1, 0, inf, -inf, any float) or "fro" (the 2-norm of all the
    elements, or over dim). "nuc" (nuclear norm) needs a matrix decomposition and is not
    implemented here. The work is done by the operator linalg_vector_norm.
    """
    if isinstance(p, str):
        if p == "fro":
            p = 2
        else:
            raise RuntimeError(f"norm(): p={p!r} is not supported in this tree (only numbers and 'fro')")
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
