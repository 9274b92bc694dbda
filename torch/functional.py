"""torch.functional: torch functions written in Python over the operators (split, unique, norm,
tensordot, einsum).

Mirrors PyTorch's torch/functional.py. Guide: docs/source/internals/tensor_iterator.rst.
"""

import torch
from torch import _C

__all__ = ["broadcast_shapes", "broadcast_tensors", "block_diag", "cartesian_prod", "einsum", "meshgrid", "norm",
           "split", "tensordot", "unique"]


def broadcast_tensors(*tensors):
    """The tensors expanded to their common broadcast shape (views; see the operator
    broadcast_tensors in aten/src/ATen/native/TensorShape.cpp)."""
    return _C._VariableFunctions.broadcast_tensors(tensors)


def broadcast_shapes(*shapes):
    """The shape that tensors of these shapes broadcast to, without making any tensor.

    Each shape is an int or a sequence of ints. Dimensions are matched from the right: a
    size of 1 stretches to the other size, equal sizes stay, anything else is an error.
    """
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    if not shapes:
        return torch.Size([])
    for shape in shapes:
        if not isinstance(shape, (tuple, list, torch.Size)):
            raise RuntimeError(
                f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}")
    common = [1] * max(len(shape) for shape in shapes)
    for index, shape in enumerate(shapes):
        for d in range(-1, -1 - len(shape), -1):
            if shape[d] == common[d]:
                continue
            if common[d] == 1:
                if shape[d] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[d] = shape[d]
                continue
            if shape[d] == 1:
                continue
            raise RuntimeError(
                f"Attempting to broadcast a dimension of length {shape[d]} at {d}! Mismatching argument at "
                f"index {index} had {shape}; but expected shape should be broadcastable to {common}")
    return torch.Size(common)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors: grid i varies along dimension i ("ij", the default)
    or, with indexing="xy", the first two dimensions swapped (NumPy's default).

    Without indexing the operator warns that the argument will become required, as PyTorch does.
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]  # the older form: one list of tensors
    kwargs = {} if indexing is None else {"indexing": indexing}
    return _C._VariableFunctions.meshgrid(tensors, **kwargs)


def cartesian_prod(*tensors):
    """Every combination of one element from each 1-D tensor, one per row (itertools.product)."""
    return _C._VariableFunctions.cartesian_prod(tensors)


def block_diag(*tensors):
    """The tensors (0-D, 1-D or 2-D) as the diagonal blocks of one matrix, zeros elsewhere."""
    return _C._VariableFunctions.block_diag(tensors)


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
