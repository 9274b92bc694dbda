"""torch.linalg - the linear algebra functions, over the operators marked `python_module: linalg`.

Mirrors PyTorch's torch/linalg/__init__.py, which names the bindings of torch._C._linalg
(generated python_linalg_functions.cpp): linalg_vector_norm is torch.linalg.vector_norm.
Guide: docs/source/internals/python_bindings.rst.
"""

import torch
from torch._C import _linalg

__all__ = ["cross", "vector_norm", "matrix_norm", "norm", "svdvals"]

# torch.linalg.cross(input, other, *, dim=-1, out=None): the binding of linalg_cross itself.
cross = _linalg.linalg_cross


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    r"""The ord-norm of the elements of x (over dim if given): sum(|x|^ord)^(1/ord).

    >>> torch.linalg.vector_norm(torch.tensor([3.0, 4.0]))
    tensor(5.)
    """
    if isinstance(dim, int):
        dim = [dim]
    result = _linalg.linalg_vector_norm(x, ord, dim, keepdim, dtype=dtype)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result


def svdvals(A, *, driver=None, out=None):
    r"""The singular values of each matrix of A, in descending order."""
    result = _linalg.linalg_svdvals(A, driver=driver)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    r"""The Frobenius ("fro") or nuclear ("nuc") norm of each matrix of A."""
    if ord == "fro":
        return vector_norm(A, 2, list(dim), keepdim, dtype=dtype, out=out)
    if ord == "nuc":
        return torch.norm(A, "nuc", list(dim), keepdim, out=out, dtype=dtype)
    raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported in this tree (only 'fro' and 'nuc')")


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    r"""A vector norm (ord a number, or None for 2) or a matrix norm (ord "fro" or "nuc")."""
    if isinstance(ord, str):
        if dim is None:
            dim = (-2, -1)
        return matrix_norm(A, ord, dim, keepdim, dtype=dtype, out=out)
    if ord is None and dim is not None and not isinstance(dim, int) and len(dim) == 2:
        return matrix_norm(A, "fro", dim, keepdim, dtype=dtype, out=out)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)
