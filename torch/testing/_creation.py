"""torch/testing/_creation.py - make_tensor: a tensor of the given shape, dtype and device filled
with random values from a range that suits the dtype, optionally non-contiguous. Mirrors
PyTorch's torch/testing/_creation.py (the same ranges and options; the values drawn are this
tree's). Guide: docs/source/internals/python_layer.rst.
"""
import math

import torch

# The default range [low, high) per kind of dtype, PyTorch's: small values whose products and
# sums stay exact enough to compare.
_RANGES = {"float": (-9.0, 9.0), "int": (-9, 10), "uint8": (0, 10)}


# The smallest positive normal number of each floating dtype (torch.finfo(dtype).tiny), which
# exclude_zero puts where a zero was drawn.
_TINY = {torch.float16: 6.103515625e-05, torch.bfloat16: 1.1754943508222875e-38,
         torch.float32: 1.1754943508222875e-38, torch.float64: 2.2250738585072014e-308}


def _real(dtype):
    return {torch.complex64: torch.float32, torch.complex128: torch.float64}.get(dtype, dtype)


def _dtype_range(dtype):
    if dtype == torch.uint8:
        return _RANGES["uint8"]
    if dtype.is_floating_point or dtype.is_complex:
        return _RANGES["float"]
    return _RANGES["int"]


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    """A tensor of ``shape`` with values drawn uniformly from ``[low, high)`` (by default
    [-9, 9) for floating and complex dtypes, [-9, 10) for integers, [0, 10) for uint8, {False,
    True} for bool). ``noncontiguous`` gives a view with every other element of the last
    dimension; ``exclude_zero`` replaces zeros with the dtype's smallest step away from zero."""
    if len(shape) == 1 and isinstance(shape[0], (list, tuple, torch.Size)):
        shape = tuple(shape[0])
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, "
                         f"but got noncontiguous={noncontiguous} and memory_format={memory_format}")
    if requires_grad and not (dtype.is_floating_point or dtype.is_complex):
        raise ValueError("`requires_grad=True` is not supported for boolean and integral dtypes")
    if dtype == torch.bool:
        result = torch.randint(0, 2, shape, device=device).to(torch.bool)
    else:
        default_low, default_high = _dtype_range(dtype)
        low = default_low if low is None else low
        high = default_high if high is None else high
        if low > high:
            raise ValueError(f"`low` must be less than or equal to `high`, but got {low} > {high}")
        if math.isnan(low) or math.isnan(high):
            raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
        if dtype.is_floating_point or dtype.is_complex:
            real = torch.float64 if dtype in (torch.float64, torch.complex128) else torch.float32

            def draw():
                return (torch.rand(*shape, dtype=real, device=device) * (high - low) + low).to(dtype)

            # A complex value's real and imaginary parts are drawn from the same range.
            result = draw() + draw() * 1j if dtype.is_complex else draw()
        else:
            result = torch.randint(int(math.ceil(low)), int(math.ceil(high)), shape, device=device, dtype=dtype)
    if exclude_zero and dtype != torch.bool:
        replacement = 1 if not (dtype.is_floating_point or dtype.is_complex) else _TINY[_real(dtype)]
        result[result == 0] = replacement
    if noncontiguous and result.numel() > 1:
        doubled = torch.repeat_interleave(result, 2, dim=-1)
        result = doubled[..., ::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    result.requires_grad_(requires_grad)
    return result
