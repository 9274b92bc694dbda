"""torch/testing/_comparison.py - assert_close: two values (tensors, Python numbers, or sequences
and mappings of them) are equal up to a tolerance chosen by their dtype, with PyTorch's checks
and messages. Mirrors PyTorch's torch/testing/_comparison.py (its Pair classes are folded into
a few functions here). Guide: docs/source/internals/python_layer.rst.
"""
import collections.abc
import math

import torch

# (rtol, atol) by dtype, PyTorch's defaults: about the rounding error of a few operations.
_DEFAULT_TOLERANCES = {
    torch.float16: (1e-3, 1e-5),
    torch.bfloat16: (1.6e-2, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}


class _Mismatch(AssertionError):
    pass


def _tolerances(dtype, rtol, atol):
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, "
                         f"but got no {'rtol' if rtol is None else 'atol'}.")
    if rtol is not None:
        return rtol, atol
    return _DEFAULT_TOLERANCES.get(dtype, (0.0, 0.0))


def _fail(message, msg):
    if callable(msg):
        message = msg(message)
    elif msg is not None:
        message = msg
    raise _Mismatch(message)


def _suffix(tolerance, equal):
    return "" if equal else f" (up to {tolerance} allowed)"


def _compare_numbers(actual, expected, rtol, atol, equal_nan, msg):
    if type(actual) is not type(expected):
        _fail(f"The (d)types do not match: {type(actual)} != {type(expected)}.", msg)
    dtype = {bool: torch.bool, int: torch.int64, float: torch.float64, complex: torch.complex128}[type(actual)]
    rtol, atol = _tolerances(dtype, rtol, atol)
    if actual == expected or (equal_nan and _isnan(actual) and _isnan(expected)):
        return
    abs_diff = abs(actual - expected)
    if not _isnan(abs_diff) and abs_diff <= atol + rtol * abs(expected):
        return
    equal = rtol == 0 and atol == 0
    rel_diff = abs_diff / abs(expected) if expected != 0 else math.inf
    _fail(f"Scalars are not {'equal' if equal else 'close'}!\n\n"
          f"Expected {expected} but got {actual}.\n"
          f"Absolute difference: {abs_diff}{_suffix(atol, equal)}\n"
          f"Relative difference: {rel_diff}{_suffix(rtol, equal)}", msg)


def _isnan(x):
    return isinstance(x, (float, complex)) and x != x


def _check_attributes(actual, expected, check_device, check_dtype, check_layout, check_stride, msg):
    def same(name, a, b):
        if a != b:
            _fail(f"The values for attribute '{name}' do not match: {a} != {b}.", msg)

    same("shape", actual.shape, expected.shape)
    if check_device:
        same("device", actual.device, expected.device)
    if check_dtype:
        same("dtype", actual.dtype, expected.dtype)
    if check_layout:
        same("layout", actual.layout, expected.layout)
    if check_stride:
        same("stride()", actual.stride(), expected.stride())


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_device, check_dtype, check_layout,
                     check_stride, msg):
    _check_attributes(actual, expected, check_device, check_dtype, check_layout, check_stride, msg)
    actual, expected = actual.detach(), expected.detach()
    # Two dtypes (check_dtype=False): the looser of their tolerances, values in the common type.
    tolerances = [_tolerances(t.dtype, rtol, atol) for t in (actual, expected)]
    rtol, atol = max(r for r, _ in tolerances), max(a for _, a in tolerances)
    if actual.dtype != expected.dtype:
        common = torch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    # The values are compared on the CPU, as PyTorch compares tensors of other devices there too.
    actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype == torch.bool:
        matches = actual == expected
    else:
        matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if bool(matches.all()):
        return
    equal = rtol == 0 and atol == 0
    if actual.ndim == 0:
        _compare_numbers(actual.item(), expected.item(), rtol, atol, equal_nan, msg)
        return
    # The greatest differences over all elements, as PyTorch reports them.
    if actual.dtype == torch.bool:
        actual, expected = actual.to(torch.int64), expected.to(torch.int64)
    abs_diff = (actual - expected).abs()
    rel_diff = abs_diff / expected.abs()
    total = actual.numel()
    mismatched = total - int(matches.sum())
    lines = [f"Tensor-likes are not {'equal' if equal else 'close'}!", "",
             f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})"]
    for what, diff, tolerance in (("absolute", abs_diff, atol), ("relative", rel_diff, rtol)):
        value, flat_index = torch.max(diff.flatten(), 0)
        index = tuple(int(i) for i in _unravel(int(flat_index), actual.shape))
        lines.append(f"Greatest {what} difference: {value.item()} at index {index}{_suffix(tolerance, equal)}")
    _fail("\n".join(lines), msg)


def _unravel(flat, shape):
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return reversed(index)


def _compare(actual, expected, path, options):
    try:
        if actual is None and expected is None:
            return
        if isinstance(actual, torch.Tensor) and isinstance(expected, torch.Tensor):
            if not options["allow_subclasses"] and type(actual) is not type(expected):
                raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} "
                                f"and {type(expected)}.")
            _compare_tensors(actual, expected, options["rtol"], options["atol"], options["equal_nan"],
                             options["check_device"], options["check_dtype"], options["check_layout"],
                             options["check_stride"], options["msg"])
            return
        numbers = (bool, int, float, complex)
        if isinstance(actual, numbers) and isinstance(expected, numbers):
            _compare_numbers(actual, expected, options["rtol"], options["atol"], options["equal_nan"], options["msg"])
            return
        strings = (str, bytes)
        if (isinstance(actual, collections.abc.Sequence) and isinstance(expected, collections.abc.Sequence)
                and not isinstance(actual, strings) and not isinstance(expected, strings)):
            if len(actual) != len(expected):
                _fail(f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", options["msg"])
            for i, (a, e) in enumerate(zip(actual, expected)):
                _compare(a, e, path + [i], options)
            return
        if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
            if set(actual) != set(expected):
                missing = sorted(set(expected) - set(actual), key=repr)
                extra = sorted(set(actual) - set(expected), key=repr)
                _fail("The keys of the mappings do not match:\n"
                      f"Missing keys in the actual mapping: {missing}\n"
                      f"Additional keys in the actual mapping: {extra}", options["msg"])
            for key in expected:
                _compare(actual[key], expected[key], path + [key], options)
            return
        raise TypeError(f"No comparison pair was able to handle inputs of type {type(actual)} and {type(expected)}.")
    except _Mismatch as error:
        if path and not getattr(error, "located", False):
            where = "".join(f"[{p!r}]" for p in path)
            error = _Mismatch(f"{error}\n\nThe failure occurred for item {where}")
            error.located = True
        raise error from None


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raises AssertionError unless ``actual`` and ``expected`` are close: for each pair of
    elements, ``|actual - expected| <= atol + rtol * |expected|`` (equality for integers and
    bools), with ``rtol``/``atol`` defaulting by dtype; tensors must also agree in shape,
    device, dtype and layout (and strides with ``check_stride=True``). Sequences and mappings
    are compared item by item."""
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                   check_device=check_device, check_dtype=check_dtype, check_layout=check_layout,
                   check_stride=check_stride, msg=msg)
    try:
        _compare(actual, expected, [], options)
    except _Mismatch as error:
        raise AssertionError(str(error)) from None
