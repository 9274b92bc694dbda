"""How tensors print: tensor([1., 2.]), with PyTorch's widths, precision and summarization.

Mirrors PyTorch's torch/_tensor_str.py (_Formatter, _tensor_str, _str_intern, set_printoptions).
Guide: docs/source/internals/python_bindings.rst.

The rules are PyTorch's: one _Formatter looks at every (shown) value first and picks the
mode - integers ("1."), fixed point with `precision` digits, or scientific when the
largest/smallest nonzero ratio exceeds 1000, a value exceeds 1e8 or one is below 1e-4 -
and the width, so the columns line up. Above `threshold` elements only `edgeitems` at
each edge are shown, with "...". The elements come from Tensor.tolist() (C++,
torch/csrc/utils/tensor_list.cpp); the layout logic works on those nested lists.
"""

import dataclasses
import math
from typing import Optional

import torch


@dataclasses.dataclass
class __PrinterOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: Optional[bool] = None


PRINT_OPTS = __PrinterOptions()


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """Set options for printing (as torch.set_printoptions)."""
    if profile is not None:
        if profile == "default":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, 1000, 3, 80
        elif profile == "short":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 2, 1000, 2, 80
        elif profile == "full":
            PRINT_OPTS.precision, PRINT_OPTS.threshold, PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth = 4, math.inf, 3, 80
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    return dataclasses.asdict(PRINT_OPTS)


class _Data:
    """The values of a tensor (or of a part of it) as nested lists, with its shape."""

    def __init__(self, values, shape):
        self.values, self.shape = values, tuple(shape)

    def dim(self):
        return len(self.shape)

    def size(self, d):
        return self.shape[d]

    def __getitem__(self, i):
        return _Data(self.values[i], self.shape[1:])

    def flat(self):
        def walk(v, depth):
            if depth == 0:
                yield v
            else:
                for x in v:
                    yield from walk(x, depth - 1)

        return list(walk(self.values, self.dim()))


class _Formatter:
    def __init__(self, values, floating_dtype):
        self.floating_dtype = floating_dtype
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        if not self.floating_dtype:
            for value in values:
                value_str = f"{value}"
                self.max_width = max(self.max_width, len(value_str))
        else:
            nonzero_finite_vals = [v for v in values if math.isfinite(v) and v != 0]
            if len(nonzero_finite_vals) == 0:
                # no valid number, do nothing
                return
            nonzero_finite_abs = [abs(v) for v in nonzero_finite_vals]
            nonzero_finite_min = min(nonzero_finite_abs)
            nonzero_finite_max = max(nonzero_finite_abs)

            for value in nonzero_finite_vals:
                if value != math.ceil(value):
                    self.int_mode = False
                    break

            if self.int_mode:
                # in int_mode for floats, all numbers are integers, and we append a decimal to nonfinites
                # to indicate that the tensor is of floating type. add 1 to the len to account for this.
                if nonzero_finite_max / nonzero_finite_min > 1000.0 or nonzero_finite_max > 1.0e8:
                    self.sci_mode = True
                    for value in nonzero_finite_vals:
                        value_str = f"{{:.{PRINT_OPTS.precision}e}}".format(value)
                        self.max_width = max(self.max_width, len(value_str))
                else:
                    for value in nonzero_finite_vals:
                        value_str = f"{value:.0f}"
                        self.max_width = max(self.max_width, len(value_str) + 1)
            else:
                # Check if scientific representation should be used.
                if (nonzero_finite_max / nonzero_finite_min > 1000.0 or nonzero_finite_max > 1.0e8
                        or nonzero_finite_min < 1.0e-4):
                    self.sci_mode = True
                    for value in nonzero_finite_vals:
                        value_str = f"{{:.{PRINT_OPTS.precision}e}}".format(value)
                        self.max_width = max(self.max_width, len(value_str))
                else:
                    for value in nonzero_finite_vals:
                        value_str = f"{{:.{PRINT_OPTS.precision}f}}".format(value)
                        self.max_width = max(self.max_width, len(value_str))

        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    def width(self):
        return self.max_width

    def format(self, value):
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{{:{self.max_width}.{PRINT_OPTS.precision}e}}".format(value)
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{{:.{PRINT_OPTS.precision}f}}".format(value)
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _val_str(val, formatter1, formatter2=None):
    if formatter2 is not None:
        real_str = formatter1.format(val.real)
        imag_str = (formatter2.format(val.imag) + "j").lstrip()
        # handles negative numbers, +0.0, -0.0
        if imag_str[0] == "+" or imag_str[0] == "-":
            return real_str + imag_str
        return real_str + "+" + imag_str
    return formatter1.format(val)


def _vector_str(self, indent, summarize, formatter1, formatter2=None):
    # length includes spaces and comma between elements
    element_length = formatter1.width() + 2
    if formatter2 is not None:
        # width for imag_formatter + an extra j for complex
        element_length += formatter2.width() + 1

    elements_per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / element_length)))

    if summarize and not PRINT_OPTS.edgeitems:
        data = ["..."]
    elif summarize and self.size(0) > 2 * PRINT_OPTS.edgeitems:
        data = (
            [_val_str(val, formatter1, formatter2) for val in self.values[: PRINT_OPTS.edgeitems]]
            + [" ..."]
            + [_val_str(val, formatter1, formatter2) for val in self.values[-PRINT_OPTS.edgeitems:]]
        )
    else:
        data = [_val_str(val, formatter1, formatter2) for val in self.values]

    data_lines = [data[i: i + elements_per_line] for i in range(0, len(data), elements_per_line)]
    lines = [", ".join(line) for line in data_lines]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(self, indent, summarize, formatter1, formatter2=None):
    dim = self.dim()

    if dim == 0:
        return _val_str(self.values, formatter1, formatter2)

    if dim == 1:
        return _vector_str(self, indent, summarize, formatter1, formatter2)

    if summarize and self.size(0) > 2 * PRINT_OPTS.edgeitems:
        slices = (
            [_tensor_str_with_formatter(self[i], indent + 1, summarize, formatter1, formatter2)
             for i in range(0, PRINT_OPTS.edgeitems)]
            + ["..."]
            + [_tensor_str_with_formatter(self[i], indent + 1, summarize, formatter1, formatter2)
               for i in range(self.size(0) - PRINT_OPTS.edgeitems, self.size(0))]
        )
    else:
        slices = [_tensor_str_with_formatter(self[i], indent + 1, summarize, formatter1, formatter2)
                  for i in range(0, self.size(0))]

    tensor_str = ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices)
    return "[" + tensor_str + "]"


def get_summarized_data(self):
    """The values that will be shown: edgeitems at each edge of every dimension."""
    dim = self.dim()
    if dim == 0:
        return self
    if dim == 1:
        if self.size(0) > 2 * PRINT_OPTS.edgeitems:
            values = self.values[: PRINT_OPTS.edgeitems] + self.values[-PRINT_OPTS.edgeitems:]
            return _Data(values, (len(values),))
        return self
    if not PRINT_OPTS.edgeitems:
        return _Data([], (0,) * dim)
    if self.size(0) > 2 * PRINT_OPTS.edgeitems:
        rows = list(range(0, PRINT_OPTS.edgeitems)) + list(range(self.size(0) - PRINT_OPTS.edgeitems, self.size(0)))
    else:
        rows = range(self.size(0))
    parts = [get_summarized_data(self[i]) for i in rows]
    return _Data([p.values for p in parts], (len(parts),) + parts[0].shape)


def _tensor_str(self, indent):
    if self.numel() == 0:
        return "[]"
    summarize = self.numel() > PRINT_OPTS.threshold
    data = _Data(self.tolist(), self.shape)
    shown = get_summarized_data(data) if summarize else data
    values = shown.flat() if shown.dim() > 0 else [shown.values]
    if self.dtype.is_complex:
        real_formatter = _Formatter([v.real for v in values], True)
        imag_formatter = _Formatter([v.imag for v in values], True)
        return _tensor_str_with_formatter(data, indent, summarize, real_formatter, imag_formatter)
    formatter = _Formatter(values, self.dtype.is_floating_point)
    return _tensor_str_with_formatter(data, indent, summarize, formatter)


def _add_suffixes(tensor_str, suffixes, indent, force_newline):
    tensor_strs = [tensor_str]
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        suffix_len = len(suffix)
        if force_newline or last_line_len + suffix_len + 2 > PRINT_OPTS.linewidth:
            tensor_strs.append(",\n" + " " * indent + suffix)
            last_line_len = indent + suffix_len
            force_newline = False
        else:
            tensor_strs.append(", " + suffix)
            last_line_len += suffix_len + 2
    tensor_strs.append(")")
    return "".join(tensor_strs)


def _str_intern(inp, *, tensor_contents=None):
    is_plain_tensor = type(inp) is torch.Tensor or type(inp) is torch.nn.Parameter
    prefix = "tensor(" if is_plain_tensor else f"{type(inp).__name__}("
    indent = len(prefix)
    suffixes = []
    custom_contents_provided = tensor_contents is not None
    if custom_contents_provided:
        tensor_str = tensor_contents
    self = inp

    # The device is printed when it is not the default (cpu).
    if self.device.type != "cpu":
        suffixes.append("device='" + str(self.device) + "'")

    default_dtype = torch.get_default_dtype()
    _default_complex_dtype = torch.complex128 if default_dtype == torch.float64 else torch.complex64
    has_default_dtype = self.dtype in (default_dtype, _default_complex_dtype, torch.int64, torch.bool)
    if self.is_meta:
        suffixes.append("size=" + str(tuple(self.shape)))
        if self.dtype != default_dtype:
            suffixes.append("dtype=" + str(self.dtype))
        if not custom_contents_provided:
            tensor_str = "..."
    elif self.numel() == 0:
        # Explicitly print the shape if it is not (0,), to match NumPy behavior
        if self.dim() != 1:
            suffixes.append("size=" + str(tuple(self.shape)))
        # In an empty tensor, there are no elements to infer if the dtype
        # should be int64, so it must be shown explicitly.
        if self.dtype != default_dtype:
            suffixes.append("dtype=" + str(self.dtype))
        if not custom_contents_provided:
            tensor_str = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append("size=" + str(tuple(self.shape)))
        if not has_default_dtype:
            suffixes.append("dtype=" + str(self.dtype))
        if not custom_contents_provided:
            tensor_str = _tensor_str(self, indent)

    # A tensor made by an operation shows the node that made it; a leaf that requires
    # grad says so.
    grad_fn_name = None
    try:
        grad_fn = self.grad_fn
    except RuntimeError:
        grad_fn, grad_fn_name = None, "Invalid"
    if grad_fn_name is None and grad_fn is not None:
        grad_fn_name = type(grad_fn).__name__
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif self.requires_grad:
        suffixes.append("requires_grad=True")

    return _add_suffixes(prefix + tensor_str, suffixes, indent, force_newline=False)


def _str(self, *, tensor_contents=None):
    # Formatting computes with the tensor: none of that belongs in the autograd graph.
    with torch.no_grad():
        return _str_intern(self, tensor_contents=tensor_contents)
