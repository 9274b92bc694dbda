"""Bad input gets PyTorch's exception, never a crash or garbage: sizes, scalars, overlaps.

Mirrors the checks of PyTorch's test/test_torch.py (test_storage_size_overflow family),
test/test_type_promotion.py (scalar overflow) and test/test_view_ops.py / test_mem_overlap.
Guide: docs/source/internals/hardening.rst.

Each case is one call a user could make; the expected type and words are PyTorch 2.13's.
Calls that used to crash the interpreter run in a subprocess, so a regression is a failed
test rather than a dead test run.
"""

import math
import subprocess
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F


def run_isolated(code):
    """Run `code` in a fresh interpreter; return (returncode, last line of stderr)."""
    proc = subprocess.run([sys.executable, "-c", "import torch\n" + code], capture_output=True, text=True, timeout=60)
    err = proc.stderr.strip().splitlines()
    return proc.returncode, err[-1] if err else ""


# ---- sizes that do not fit: overflow-checked numel and byte counts ----

@pytest.mark.parametrize("code, message", [
    ("torch.arange(2**62)", "RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904]"),
    ("torch.empty_strided((2**62,), (1,)).fill_(1)",
     "RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904] and strides=[1]"),
    ("torch.ones(4).as_strided((2,), (1,), 2**62)",
     "RuntimeError: Storage size calculation overflowed with sizes=[2] and strides=[1]"),
    ("torch.ones(2).resize_((2**31, 2**31, 4))", "RuntimeError: numel: integer multiplication overflow"),
    ("torch.FloatTensor(2**62, 2**62)",
     "RuntimeError: Storage size calculation overflowed with sizes=[4611686018427387904, 4611686018427387904]"),
])
def test_sizes_too_large_to_count_raise_instead_of_crashing(code, message):
    returncode, last = run_isolated(code)
    assert returncode == 1 and last == message


def test_a_refused_resize_leaves_the_tensor_as_it_was():
    x = torch.arange(4.0)
    with pytest.raises(RuntimeError, match="numel: integer multiplication overflow"):
        x.resize_((2**31, 2**31, 4))
    assert x.shape == (4,) and x.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_randperm_refuses_n_that_its_dtype_cannot_hold_before_allocating():
    with pytest.raises(RuntimeError, match="^value cannot be converted to type int8_t without overflow$"):
        torch.randperm(2**31, dtype=torch.int8)
    with pytest.raises(RuntimeError, match="^value cannot be converted to type uint8_t without overflow$"):
        torch.randperm(257, dtype=torch.uint8)
    assert sorted(torch.randperm(256, dtype=torch.uint8).tolist()) == list(range(256))
    with pytest.raises(RuntimeError, match=r"^n cannot be greater than 2049 for Half type\.$"):
        torch.randperm(3000, dtype=torch.float16)


# ---- a tensor whose storage shrank under it ----

def test_storage_shrunk_under_a_tensor_is_refused_at_the_next_access():
    t = torch.ones(4)
    t.untyped_storage().resize_(0)
    message = ("setStorage: sizes [4], strides [1], storage offset 0, and itemsize 4 requiring a storage size "
               "of 16 are out of bounds for storage of size 0")
    with pytest.raises(RuntimeError, match=f"^{message}$".replace("[", r"\[").replace("]", r"\]")):
        t.sum()
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 0"):
        t.fill_(1)


def test_legacy_tensor_over_a_shrunk_legacy_storage_is_refused():
    returncode, last = run_isolated("s = torch.FloatStorage(4); t = torch.FloatTensor(s); s.resize_(0); print(t)")
    assert returncode == 1
    assert last.startswith("RuntimeError: setStorage: sizes [4], strides [1], storage offset 0, and itemsize 4")


def test_zero_dim_movedim_is_a_no_op():
    t = torch.tensor(True)
    assert t.movedim(0, -1).item() is True and t.movedim(0, -1).dim() == 0
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 2\)"):
        t.movedim(0, 2)


# ---- uninitialized memory must never come back as values ----

def test_legacy_constructor_treats_a_list_or_tuple_as_data():
    assert torch.Tensor([1, 2]).tolist() == [1.0, 2.0]
    assert torch.Tensor((2, 3)).shape == (2,)
    assert torch.Tensor(2, 3).shape == (2, 3)
    assert torch.Tensor(torch.Size([2, 3])).shape == (2, 3)
    assert torch.FloatTensor().shape == (0,) and torch.Tensor([]).shape == (0,)
    assert torch.LongTensor([1.5, 2]).tolist() == [1, 2]


@pytest.mark.parametrize("call, error, message", [
    (lambda: torch.LongTensor(2.5), TypeError, r"^new\(\): data must be a sequence \(got float\)$"),
    (lambda: torch.Tensor(None), TypeError, r"^new\(\): data must be a sequence \(got NoneType\)$"),
    (lambda: torch.ByteTensor([300]), RuntimeError, "^value cannot be converted to type uint8 without overflow$"),
])
def test_legacy_constructor_refuses_what_pytorch_refuses(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_index_select_of_a_scalar_with_no_index_raises():
    with pytest.raises(RuntimeError, match=r"^index_select\(\): Index to scalar can have only 1 value, got 0 value\(s\)$"):
        torch.tensor(3).index_select(0, torch.tensor([], dtype=torch.long))


@pytest.mark.parametrize("kwargs, message", [
    (dict(kernel_size=-1), "kernel size should be greater than zero, but got kernel_height: -1 kernel_width: -1"),
    (dict(kernel_size=2, dilation=0), "dilation should be greater than zero, but got dilation_height: 0 dilation_width: 0"),
    (dict(kernel_size=2, padding=-1), "padding should be non-negative, but got pad_height: -1 pad_width: -1"),
    (dict(kernel_size=2, stride=0), "stride should be greater than zero, but got stride_height: 0 stride_width: 0"),
])
def test_unfold_validates_its_window(kwargs, message):
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        F.unfold(torch.ones(1, 1, 3, 3), **kwargs)


# ---- padding that cannot be held fails fast ----

def test_replicate_padding_too_large_fails_in_the_allocator():
    with pytest.raises(RuntimeError, match="DefaultCPUAllocator: can't allocate memory: you tried to allocate 4398046511116 bytes"):
        F.pad(torch.ones(1, 1, 3), (2**40, 0), mode="replicate")


@pytest.mark.parametrize("mode, pad, message", [
    ("reflect", (2**40, 0), r"^Argument #4: Padding size should be less than the corresponding input dimension, "
                            r"but got: padding \(1099511627776, 0\) at dimension 2 of input \[1, 1, 3\]$"),
    ("reflect", (-5, 0), r"^input \(W: 3\) is too small. Calculated output W: -2$"),
    ("circular", (2**40, 0), r"^Padding value causes wrapping around more than once.$"),
    ("circular", (-5, 0), r"^Negative padding value is resulting in an empty dimension$"),
])
def test_padding_is_validated_before_any_work(mode, pad, message):
    with pytest.raises(RuntimeError, match=message):
        F.pad(torch.ones(1, 1, 3), pad, mode=mode)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_padding_modes_still_gather_the_right_elements(mode):
    x = torch.arange(4.0).reshape(1, 1, 4)
    import numpy as np
    expected = np.pad(x.numpy(), ((0, 0), (0, 0), (2, 3)), mode={"reflect": "reflect", "replicate": "edge",
                                                                  "circular": "wrap"}[mode])
    assert F.pad(x, (2, 3), mode=mode).tolist() == expected.tolist()


# ---- Python numbers that do not fit the tensor's dtype ----

@pytest.mark.parametrize("call, type_name", [
    (lambda: torch.full((2,), 1e308), "float"),
    (lambda: torch.arange(3).fill_(math.inf), "int64_t"),
    (lambda: torch.zeros(3).masked_fill(torch.tensor([True, False, True]), 1e308), "float"),
    (lambda: torch.zeros(3, dtype=torch.long).index_fill(0, torch.tensor([0]), math.inf), "int64_t"),
    (lambda: torch.zeros(3).clamp(min=1e308), "float"),
    (lambda: torch.linspace(0, 1e308, 3, dtype=torch.float), "float"),
    (lambda: torch.zeros(2, dtype=torch.uint8).fill_(-300), "uint8_t"),
    (lambda: torch.zeros(2, dtype=torch.int32).fill_(2**40), "int"),
    (lambda: torch.zeros(2, dtype=torch.int64).fill_(math.nan), "int64_t"),
    (lambda: torch.zeros(2).fill_(1 + 2j), "float"),
])
def test_scalar_that_does_not_fit_raises(call, type_name):
    with pytest.raises(RuntimeError, match=f"^value cannot be converted to type {type_name} without overflow$"):
        call()


def test_setitem_checks_the_scalar():
    x = torch.zeros(3)
    with pytest.raises(RuntimeError, match="^value cannot be converted to type float without overflow$"):
        x[0] = 1e308
    assert x.tolist() == [0.0, 0.0, 0.0]


def test_scalars_that_fit_are_converted_as_pytorch_converts_them():
    assert torch.zeros(1, dtype=torch.uint8).fill_(-1).tolist() == [255]  # two's complement
    assert torch.zeros(1, dtype=torch.int8).fill_(2.5).tolist() == [2]  # truncation
    assert torch.zeros(1).fill_(math.inf).tolist() == [math.inf]  # infinities fit a float
    # One Half element takes PyTorch's unchecked fast path (inf); two are range-checked.
    assert torch.zeros(1, dtype=torch.float16).fill_(1e308).tolist() == [math.inf]
    with pytest.raises(RuntimeError, match="^value cannot be converted to type c10::Half without overflow$"):
        torch.full((2,), 1e308, dtype=torch.float16)
    assert torch.full((2,), math.inf, dtype=torch.bfloat16).tolist() == [math.inf, math.inf]
    assert torch.zeros(1, dtype=torch.bool).fill_(2).tolist() == [True]


@pytest.mark.parametrize("value, dtype, error, message", [
    (300, torch.uint8, RuntimeError, "^value cannot be converted to type uint8 without overflow$"),
    (-200, torch.int8, RuntimeError, "^value cannot be converted to type int8 without overflow$"),
    (2**40, torch.int32, RuntimeError, "^value cannot be converted to type int32 without overflow$"),
    (math.nan, torch.int64, RuntimeError, "^value cannot be converted to type int64 without overflow$"),
    (2**70, torch.int64, ValueError, "^Overflow when unpacking long long$"),
])
def test_tensor_constructor_checks_integer_elements(value, dtype, error, message):
    with pytest.raises(error, match=message):
        torch.tensor([value], dtype=dtype)


def test_tensor_constructor_converts_what_fits():
    assert torch.tensor([-200], dtype=torch.uint8).tolist() == [56]
    assert torch.tensor([1e308], dtype=torch.float32).tolist() == [math.inf]
    assert torch.tensor([2**64], dtype=torch.float64).tolist() == [float(2**64)]


# ---- in-place writes that would read what they already wrote ----

INTERNAL = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")
PARTIAL = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
           "memory location. Please clone() the tensor before performing the operation.")


def test_in_place_write_to_an_expanded_tensor_raises():
    with pytest.raises(RuntimeError, match=f"^{INTERNAL}".replace("(", r"\(").replace(")", r"\)")):
        torch.zeros(3, 1).expand(3, 4).add_(1)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        torch.zeros(3, 1).expand(3, 4).copy_(torch.ones(3, 4))
    # fill_ writes one value: every location gets the same value, which PyTorch allows.
    assert torch.zeros(3, 1).expand(3, 4).fill_(2).tolist() == [[2.0] * 4] * 3


@pytest.mark.parametrize("call", [
    lambda x: x[1:].copy_(x[:-1]),
    lambda x: torch.add(x[:3], 1, out=x[1:4]),
    lambda x: x.index_add_(0, torch.tensor([0, 1]), x[:2]),
    lambda x: x[1:].mul_(x[:-1]),
])
def test_partially_overlapping_input_and_output_raise(call):
    x = torch.arange(5.0)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor refer"):
        call(x)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]


def test_full_overlap_is_an_ordinary_in_place_op():
    x = torch.arange(5.0)
    x.add_(x)
    torch.mul(x, 2, out=x)
    assert x.tolist() == [0.0, 4.0, 8.0, 12.0, 16.0]


# ---- overloads chosen by the argument's type ----

def test_min_and_max_of_two_tensors_are_elementwise():
    a, b = torch.tensor([1.0, 5.0, 3.0]), torch.tensor([4.0, 2.0, 3.0])
    assert torch.max(a, b).tolist() == [4.0, 5.0, 3.0]
    assert a.min(b).tolist() == [1.0, 2.0, 3.0]
    assert torch.max(a, 0).values.item() == 5.0


def test_fill_with_a_tensor_keeps_the_gradient_path():
    v = torch.tensor(2.0, requires_grad=True)
    x = torch.zeros(3).fill_(v)
    assert x.requires_grad and x.tolist() == [2.0, 2.0, 2.0]
    x.sum().backward()
    assert v.grad.item() == 3.0
    with pytest.raises(RuntimeError, match=r"^fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions\.$"):
        torch.zeros(3).fill_(torch.ones(1))


# ---- thread settings ----

def test_thread_counts_can_be_read_and_set():
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    assert torch.get_num_interop_threads() >= 1


@pytest.mark.parametrize("fn, arg, error, message", [
    ("set_num_threads", 0, RuntimeError, "^set_num_threads expects a positive integer$"),
    ("set_num_threads", 2.5, RuntimeError, "^set_num_threads expects an int, but got float$"),
    ("set_num_threads", True, RuntimeError, "^set_num_threads expects an int, but got bool$"),
    ("set_num_interop_threads", -1, RuntimeError, "^set_num_interop_threads expects a positive integer$"),
])
def test_thread_settings_check_their_argument(fn, arg, error, message):
    with pytest.raises(error, match=message):
        getattr(torch, fn)(arg)


def test_interop_threads_can_be_set_once():
    returncode, last = run_isolated(
        "torch.set_num_interop_threads(3); assert torch.get_num_interop_threads() == 3; torch.set_num_interop_threads(4)")
    assert returncode == 1
    assert last == ("RuntimeError: Error: cannot set number of interop threads after parallel work has started "
                    "or set_num_interop_threads called")


# ---- memory formats ----

@pytest.mark.parametrize("call", [
    lambda: torch.ones(2, 3).clone(memory_format=torch.channels_last),
    lambda: torch.empty_like(torch.ones(2, 3), memory_format=torch.channels_last),
    lambda: torch.full_like(torch.ones(2), 1, memory_format=torch.channels_last),
    lambda: torch.ones(2, 3).contiguous(memory_format=torch.channels_last),
    lambda: torch.empty(2, 3, memory_format=torch.channels_last),
    lambda: torch.ones(2, 3).to(memory_format=torch.channels_last),
])
def test_channels_last_needs_a_rank_4_tensor(call):
    with pytest.raises(RuntimeError, match="^required rank 4 tensor to use channels_last format$"):
        call()


def test_channels_last_3d_needs_a_rank_5_tensor():
    with pytest.raises(RuntimeError, match="^required rank 5 tensor to use channels_last_3d format$"):
        torch.ones(2, 3, 4, 5).clone(memory_format=torch.channels_last_3d)


def test_channels_last_tensors_step_through_channels_fastest():
    x = torch.arange(120.0).reshape(2, 3, 4, 5)
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3) and not y.is_contiguous()
    assert torch.equal(y, x)
    assert y.contiguous(memory_format=torch.channels_last) is y
    assert torch.zeros_like(y).stride() == (60, 1, 15, 3)  # preserve keeps the layout
    z = torch.ones(2, 3, 4, 5, 6).clone(memory_format=torch.channels_last_3d)
    assert z.stride() == (360, 1, 90, 18, 3)


# ---- Python ints that do not fit an int64 argument ----

def test_int_arguments_beyond_int64_raise_pytorchs_errors():
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        torch.ones(3).sum(2**70)
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        torch.ones(3)[2**70]
    with pytest.raises(TypeError, match=r"^ones\(\): argument 'size' failed to unpack the object at pos 1 with error "
                                        r"\"Overflow when unpacking long long\"$"):
        torch.ones(2**70)
    with pytest.raises(OverflowError):
        torch.ones(3).add(2**70)


# ---- checks found by differential fuzzing against PyTorch ----

@pytest.mark.parametrize("call, error, message", [
    (lambda: float(torch.ones(2)), ValueError, "^only one element tensors can be converted to Python scalars$"),
    (lambda: int(torch.ones(0)), ValueError, "^only one element tensors can be converted to Python scalars$"),
    (lambda: float(torch.tensor(1 + 1j)), RuntimeError, "^value cannot be converted to type double without overflow$"),
    (lambda: int(torch.tensor(1 + 1j)), RuntimeError, "^value cannot be converted to type int64_t without overflow$"),
    (lambda: torch.argmax(torch.tensor(False)), RuntimeError, r"^argmax\(\): does not support bool input$"),
    (lambda: torch.argmin(torch.tensor(1 + 1j)), RuntimeError, r"^argmin\(\): does not support complex input$"),
    (lambda: torch.max(torch.tensor([1 + 1j]), 0), RuntimeError, r"^max\(\): does not support complex input$"),
    (lambda: torch.sort(torch.tensor([1 + 1j])), RuntimeError, "^ Sort does not support complex dtypes on CPU$"),
    (lambda: torch.topk(torch.tensor([1 + 1j]), 1), RuntimeError, "^ topk does not support complex dtypes on CPU$"),
    (lambda: torch.ones(1).squeeze((0, 0)), RuntimeError, "^dim 0 appears multiple times in the list of dims$"),
    (lambda: torch.ones(3).index_fill(0, torch.tensor([[0]]), 1.5), RuntimeError, "^Index has to be a vector/scalar$"),
    (lambda: torch.ones(1).index_add(0, torch.zeros(0, dtype=torch.long), torch.zeros(0, dtype=torch.double)),
     RuntimeError, r"^index_add_\(\): self \(Float\) and source \(Double\) must have the same scalar type$"),
    (lambda: torch.ones(3).index_add(0, torch.tensor([0.]), torch.ones(1)), RuntimeError,
     r"^index_add_\(\): Expected dtype int32/int64 for index but got: Float$"),
    (lambda: torch.ones(1, 1).index_select(1, torch.tensor([1])), RuntimeError,
     "^INDICES element is out of DATA bounds, id=1 axis_dim=1$"),
    (lambda: torch.zeros(1, 0).index_select(-1, torch.tensor(1)), RuntimeError,
     r"^index_select\(\): self indexing axis dim should be positive$"),
    (lambda: F.unfold(torch.ones(1, 1, 1), (1, 2), stride=2), RuntimeError,
     r"calculated shape of the array of sliding blocks as \(1, 0\), but its components must be at least one\.$"),
    (lambda: torch.randint(0, 5, (2,), dtype=torch.bool), RuntimeError, "^to - 1 is out of bounds for bool$"),
    (lambda: torch.randint(-1, 5, (2,), dtype=torch.uint8), RuntimeError, "^from is out of bounds for unsigned char$"),
    (lambda: torch.randint(0, 2**20, (2,), dtype=torch.int16), RuntimeError, "^to - 1 is out of bounds for short int$"),
    (lambda: torch.randint(0, 2**30, (2,), dtype=torch.half), RuntimeError, "^to - 1 is out of bounds for c10::Half$"),
    (lambda: F.binary_cross_entropy(torch.tensor(2.), torch.tensor(0.5), reduction="bad"), ValueError,
     "^bad is not a valid value for reduction$"),
    (lambda: F.binary_cross_entropy(torch.tensor(.5, dtype=torch.half), torch.tensor(.5, dtype=torch.double)),
     RuntimeError, "^Found dtype Double but expected Half$"),
    (lambda: F.mse_loss(torch.tensor(1), torch.tensor(1)), NotImplementedError, "^\"mse_cpu\" not implemented for 'Long'$"),
    (lambda: F.pad(torch.ones(1), (0, 0), mode="reflect"), NotImplementedError,
     "^Padding size 2 is not supported for 1D input tensor.\nSupported combinations for non-constant padding:\n"),
])
def test_bad_calls_raise_pytorchs_exception(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_tensor_lists_come_back_as_tuples():
    assert isinstance(torch.ones(4).split(2), tuple) and isinstance(torch.ones(4).chunk(2), tuple)
    assert isinstance(torch.ones(4).unbind(0), tuple)
    assert [t.tolist() for t in torch.split(torch.arange(4.0), [1, 3])] == [[0.0], [1.0, 2.0, 3.0]]


def test_python_scalars_of_one_element_tensors():
    assert int(torch.tensor([2.7])) == 2 and float(torch.tensor(True)) == 1.0
    assert complex(torch.tensor(1 + 2j)) == 1 + 2j


def test_writes_of_one_value_into_an_expanded_tensor_through_a_tensor_are_refused():
    x = torch.zeros(2, 1).expand(2, 3)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        x[()] = 1.5
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        x.fill_(torch.tensor(1.0))


def test_logsumexp_over_an_empty_dim_list_fails_as_in_pytorch():
    with pytest.raises(RuntimeError, match=r"^output with shape \[\] doesn't match the broadcast shape \[1, 1\]$"):
        torch.logsumexp(torch.ones(2, 3), ())
    assert torch.logsumexp(torch.ones(3), (), keepdim=True).shape == (1,)
    assert torch.logsumexp(torch.tensor(1.0), ()).item() == 1.0


def test_empty_refuses_preserve_format_and_pad_a_complex_value():
    with pytest.raises(RuntimeError, match="^unsupported memory format Preserve$"):
        torch.empty(1, memory_format=torch.preserve_format)
    with pytest.raises(TypeError, match=r"^pad\(\): argument 'value' \(position 4\) must be float, not complex$"):
        F.pad(torch.ones(1), (0, 0), value=1j)


@pytest.mark.parametrize("dtype, lowest", [(torch.int32, -2**31), (torch.int64, -2**63)])
def test_integer_division_of_the_lowest_value_by_minus_one_wraps_instead_of_trapping(dtype, lowest):
    x = torch.tensor([lowest], dtype=dtype)
    # C++ leaves INT_MIN / -1 undefined and x86 traps (SIGFPE); PyTorch's result wraps around.
    assert x.div(-1, rounding_mode="trunc").tolist() == [lowest]
    assert (x // -1).tolist() == [lowest]
    assert (x % -1).tolist() == [0] and torch.fmod(x, -1).tolist() == [0]


def test_pad_value_is_a_double():
    assert F.pad(torch.tensor([1.0]), (0, 1), value=2**63).tolist() == [1.0, float(2**63)]


def test_python_ints_between_2_63_and_2_64_are_scalars_for_floating_tensors():
    assert torch.tensor(1.0).mul_(2**63).item() == float(2**63)
    assert torch.tensor([1.0]).masked_fill(torch.tensor([False]), 2**63).tolist() == [1.0]
    with pytest.raises(OverflowError, match="^int too big to convert$"):
        torch.tensor(1.0).mul_(2**64)
    with pytest.raises(OverflowError, match="^can't convert negative int to unsigned$"):
        torch.tensor(1.0).mul_(-2**63 - 1)


def test_setitem_of_an_int_beyond_int64_is_a_value_error():
    x = torch.tensor([1.0], dtype=torch.float16)
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        x[0] = 2**64
    assert x.tolist() == [1.0]


def test_expanding_a_zero_dim_tensor_reads_nothing_past_its_sizes():
    # expand computed a new leading dimension's stride from the dimension after it, which a
    # 0-d tensor's last new dimension does not have (an 8-byte heap read past the vector).
    y = torch.tensor(2.0).expand(3, 2)
    assert y.tolist() == [[2.0, 2.0]] * 3 and y.stride() == (0, 0)


@pytest.mark.parametrize("dtype, bits", [(torch.int64, 64), (torch.int32, 32), (torch.int16, 16), (torch.int8, 8)])
def test_integer_arithmetic_wraps_around_as_in_pytorch(dtype, bits):
    # The kernels multiply and add int64_t values; the build's -fwrapv makes the overflow a
    # two's-complement wrap-around (what PyTorch returns) instead of undefined behaviour.
    x = torch.tensor([2**(bits - 2)], dtype=dtype)
    assert (x * 4).tolist() == [0]
    top, low = 2**(bits - 1) - 1, -2**(bits - 1)
    assert (torch.tensor([top], dtype=dtype) + 1).tolist() == [low]
    assert (-torch.tensor([low], dtype=dtype)).tolist() == [low]
    assert torch.tensor([low], dtype=dtype).abs().tolist() == [low]


def test_int64_reductions_and_matmul_wrap_around():
    top = 2**63 - 1
    assert torch.tensor([top, 1]).sum().item() == -2**63
    assert torch.tensor([top, 1]).cumsum(0).tolist() == [top, -2**63]
    assert torch.tensor([2**62, 4]).prod().item() == 0
    assert (torch.tensor([[2**62, 2**62]]) @ torch.tensor([[2], [2]])).tolist() == [[0]]
    # 3**100 mod 2**64, read as a signed int64 (Python computes it exactly).
    assert (torch.tensor([3]) ** 100).item() == (3**100 + 2**63) % 2**64 - 2**63
    assert torch.sub(torch.tensor([-2**63]), torch.tensor([2]), alpha=2**62).item() == 0


@pytest.mark.parametrize("call, message", [
    (lambda: torch.zeros(1, 3).expand(2, 3).scatter_(0, torch.tensor([[0, 1, 0]]), 1.0),
     "^unsupported operation: more than one element of the written-to tensor refers to a single memory location"),
    (lambda: torch.zeros(1, 3).expand(2, 3).scatter_add_(0, torch.tensor([[0, 1, 0]]), torch.ones(1, 3)),
     "^unsupported operation: more than one element of the written-to tensor refers to a single memory location"),
    (lambda: (lambda x: x.scatter_(0, torch.tensor([1, 2]), x[:2]))(torch.arange(4.)),
     "^unsupported operation: some elements of the input tensor and the written-to tensor refer to a single"),
    (lambda: (lambda x: x.scatter_(0, x[:2], 5))(torch.arange(4)),
     "^unsupported operation: some elements of the input tensor and the written-to tensor refer to a single"),
])
def test_scatter_refuses_overlapping_writes(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: torch.ones(3, dtype=torch.float16).clamp(None, 2**63), "^value cannot be converted to type c10::Half"),
    (lambda: torch.ones(3, dtype=torch.float16).clamp(70000.0), "^value cannot be converted to type c10::Half"),
    (lambda: torch.ones(3, dtype=torch.float16).clamp_max_(70000.0), "^value cannot be converted to type c10::Half"),
    (lambda: torch.ones(3, dtype=torch.bfloat16).clamp(None, 1e39), "^value cannot be converted to type c10::BFloat16"),
    (lambda: torch.ones(3, dtype=torch.int8).clamp_min(300), "^value cannot be converted to type int8_t"),
])
def test_clamp_bounds_the_dtype_cannot_hold_are_refused(call, message):
    with pytest.raises(RuntimeError, match=message + " without overflow$"):
        call()
    # An infinite bound is a value every floating dtype holds.
    assert torch.ones(2, dtype=torch.float16).clamp(None, float("inf")).tolist() == [1.0, 1.0]


@pytest.mark.parametrize("call, message", [
    (lambda: torch.ones(3).norm(dtype=torch.int64), "dtype should be floating point or complex, but got Long"),
    (lambda: torch.ones(3, dtype=torch.float64).norm(dtype=torch.float32),
     r"the dtype of the input \(Double\) should be convertible without narrowing to the specified dtype \(Float\)"),
    (lambda: torch.linalg.vector_norm(torch.ones(3, dtype=torch.half), dtype=torch.bfloat16),
     r"the dtype of the input \(Half\) should be convertible without narrowing to the specified dtype \(BFloat16\)"),
    (lambda: torch.linalg.vector_norm(torch.ones(3, dtype=torch.complex64), dtype=torch.float32),
     "dtype should be complex for complex inputs, but got Float"),
    (lambda: torch.linalg.vector_norm(torch.ones(3), dtype=torch.complex64),
     "dtype should be real for real inputs, but got ComplexFloat"),
])
def test_norm_dtype_may_widen_but_not_narrow(call, message):
    with pytest.raises(RuntimeError, match="^linalg.vector_norm: " + message + "$"):
        call()
    widened = torch.ones(3, dtype=torch.float16).norm(dtype=torch.float32)
    assert widened.dtype == torch.float32 and widened.item() == pytest.approx(math.sqrt(3))


def test_sum_into_bool_is_any_nonzero():
    # The input is cast to bool first (0.5 and -0.5 are both True), then summed as "or".
    assert torch.tensor([0.5, -0.5]).sum(dtype=torch.bool).item() is True
    assert torch.tensor([[True, False], [False, False]]).sum(1, dtype=torch.bool).tolist() == [True, False]
    assert torch.tensor([True, True]).sum().dtype == torch.int64


def test_arange_whose_length_does_not_fit_raises():
    # end - start of two int64s needs 65 bits here; PyTorch 2.13 itself dies with SIGFPE.
    with pytest.raises(RuntimeError, match=r"^invalid size, possible overflow\?$"):
        torch.arange(0, -2**63, -1)
    assert torch.arange(-2**63, 2**63 - 1, 2**62).tolist() == [-2**63, -2**62, 0, 2**62]


@pytest.mark.parametrize("call, error, message", [
    (lambda: torch.ones(1).index_add(0, torch.zeros(0, dtype=torch.long), torch.zeros(0, 1)), RuntimeError,
     r"^source tensor shape must match self tensor shape, excluding the specified dimension\. "
     r"Got self\.shape = \[1\] source\.shape = \[0, 1\]$"),
    (lambda: torch.zeros(0).index_add_(0, torch.tensor([0]), torch.ones(1, 1)), RuntimeError,
     r"^source tensor shape must match self tensor shape"),
    (lambda: torch.ones(3).index_add(1, torch.tensor([0]), torch.ones(1)), IndexError, "^Dimension out of range"),
    (lambda: torch.zeros(0).index_select(-1, torch.tensor(0)), IndexError, "^index out of range in self$"),
    (lambda: torch.zeros(1, 0).index_select(-1, torch.tensor(1)), RuntimeError,
     r"^index_select\(\): self indexing axis dim should be positive$"),
    (lambda: torch.zeros(1)["a"], TypeError, "^new\\(\\): invalid data type 'str'$"),
    (lambda: torch.zeros(1).__setitem__(("a",), 1.5), TypeError, "^new\\(\\): invalid data type 'str'$"),
    (lambda: torch.pow(1.5, torch.tensor(1.0), out=torch.tensor(1)), RuntimeError,
     "^result type Float can't be cast to the desired output type Long$"),
    (lambda: F.pad(torch.ones(1), (1, 2, 1), mode="bad"), NotImplementedError, "^Unrecognised padding mode bad$"),
])
def test_more_bad_calls_found_by_the_long_fuzzing_run(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_pow_of_a_scalar_base_writes_into_out():
    out = torch.zeros(3)
    assert torch.pow(2, torch.arange(3.0), out=out) is out and out.tolist() == [1.0, 2.0, 4.0]


def test_contiguous_strides_that_overflow_are_refused_even_for_empty_tensors():
    with pytest.raises(RuntimeError, match="^Stride calculation overflowed$"):
        torch.empty(0, 2, 2**62)
    with pytest.raises(RuntimeError, match="^Stride calculation overflowed$"):
        torch.ones(0, 2, 2**62)
    assert torch.empty(0, 2**62).shape == (0, 2**62)  # the outer stride is never multiplied


def test_binary_cross_entropy_refuses_nan_inputs():
    with pytest.raises(RuntimeError, match="^all elements of input should be between 0 and 1$"):
        F.binary_cross_entropy(torch.tensor(float("nan")), torch.tensor(0.875))


def test_set_to_a_storage_checks_what_pytorch_checks():
    s = torch.arange(6.0).untyped_storage()
    t = torch.empty(0).set_(s, 1, (2, 2), (2, 1))
    assert t.tolist() == [[1.0, 2.0], [3.0, 4.0]] and t.storage_offset() == 1 and t.untyped_storage().data_ptr() == s.data_ptr()
    assert torch.empty(0).set_(s).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    assert torch.empty(0).set_(torch.arange(6.0)[::2]).stride() == (2,)
    assert torch.ones(3).set_().shape == (0,)
    with pytest.raises(RuntimeError, match="^Tensor: invalid storage offset -1$"):
        torch.empty(0).set_(s, -1, (2,), (1,))
    with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used in an in-place operation.$"):
        torch.ones(3, requires_grad=True).set_()
    with pytest.raises(RuntimeError, match="^Could not set tensor of type long int to a tensor of type float$"):
        torch.ones(3).set_(torch.arange(3))
    with pytest.raises(RuntimeError, match="^Could not set tensor of type short int to a tensor of type c10::Half$"):
        torch.ones(3, dtype=torch.half).set_(torch.zeros(2, dtype=torch.int16))
    with pytest.raises(TypeError, match=r"^set_\(\) received an invalid combination of arguments"):
        torch.ones(3).set_(5)
    # A storage too small grows (as in PyTorch) when it can; numpy's memory cannot.
    grown = torch.arange(6.0).untyped_storage()
    torch.empty(0).set_(grown, 4, (2, 2), (2, 1))
    assert grown.nbytes() == 32
    with pytest.raises(RuntimeError, match="^Trying to resize storage that is not resizable$"):
        torch.ones(3).set_(torch.from_numpy(np.ones(2, dtype=np.float32)).untyped_storage(), 0, (5,))
