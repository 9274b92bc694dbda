# test/aten/test_arg_parser.py - PythonArgParser: matching, defaults, varargs sizes and PyTorch's error texts.
# Every expected message was produced by real PyTorch 2.13 for the same call.
# Guide: docs/source/internals/python_bindings.rst (torch/csrc/utils/python_arg_parser.cpp).
import pytest

import torch

parse = torch._C._parse_args_for_testing
FILL = ["fill_(Tensor value)", "fill_(Scalar value)"]
FILL_FN = ["fill_(Tensor input, Tensor value)", "fill_(Tensor input, Scalar value)"]
ADD = ["add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)",
       "add(Tensor input, Scalar alpha, Tensor other, *, Tensor out=None)|deprecated|hidden"]


def raises(exc, fn, *args, **kwargs):
    with pytest.raises(exc) as info:
        fn(*args, **kwargs)
    return str(info.value)


# ---- single signature: the precise complaint ----

@pytest.mark.parametrize("call, message", [
    (lambda: torch.zeros("a"), "zeros(): argument 'size' (position 1) must be tuple of ints, not str"),
    (lambda: torch.zeros(2, dtype="float"), "zeros(): argument 'dtype' must be torch.dtype, not str"),
    (lambda: torch.zeros(2, 3.5),
     "zeros(): argument 'size' failed to unpack the object at pos 2 with error \"type must be tuple of ints,but got float\""),
    (lambda: torch.zeros([2, "a"]),
     "zeros(): argument 'size' failed to unpack the object at pos 2 with error \"type must be tuple of ints,but got str\""),
    (lambda: torch.zeros(["a", 2]),
     "zeros(): argument 'size' (position 1) must be tuple of ints, but found element of type str at pos 0"),
    (lambda: torch.zeros((2, 3), 4), "zeros() takes 1 positional argument but 2 were given"),
    (lambda: torch.zeros(2, foo=1), "zeros() got an unexpected keyword argument 'foo'"),
    (lambda: torch.zeros(), 'zeros() missing 1 required positional arguments: "size"'),
    (lambda: torch.zeros(True), "zeros(): argument 'size' (position 1) must be tuple of ints, not bool"),
    (lambda: torch.zeros(2.0), "zeros(): argument 'size' (position 1) must be tuple of ints, not float"),
    (lambda: torch.zeros(None), "zeros(): argument 'size' (position 1) must be tuple of ints, not NoneType"),
    (lambda: torch.zeros(2, requires_grad="x"), "zeros(): argument 'requires_grad' must be bool, not str"),
    (lambda: torch.zeros(2, layout=1), "zeros(): argument 'layout' must be torch.layout, not int"),
    (lambda: torch.empty(2, memory_format=3), "empty(): argument 'memory_format' must be torch.memory_format, not int"),
    (lambda: torch.empty(2, device=3.5), "empty(): argument 'device' must be torch.device, not float"),
    (lambda: torch.full((2,), "x"), "full(): argument 'fill_value' (position 2) must be Number, not str"),
    (lambda: torch.full((2,)), 'full() missing 1 required positional arguments: "fill_value"'),
    (lambda: torch.full(2, 3), "full(): argument 'size' (position 1) must be tuple of ints, not int"),
    (lambda: torch.full((2,), 1, 2), "full() takes 2 positional arguments but 3 were given"),
    (lambda: torch.full((2,), torch.ones(2)), "full(): argument 'fill_value' (position 2) must be Number, not Tensor"),
    (lambda: torch.empty_strided((2, 3)), 'empty_strided() missing 1 required positional arguments: "stride"'),
    (lambda: torch.empty_strided(), 'empty_strided() missing 2 required positional argument: "size", "stride"'),
    (lambda: torch.ones(2).size("a"), "size(): argument 'dim' (position 1) must be int, not str"),
    (lambda: torch.ones(2).size(1, 2), "size() takes from 0 to 1 positional arguments but 2 were given"),
    (lambda: torch.ones(2).zero_(1), "TensorBase.zero_() takes no arguments (1 given)"),
    (lambda: torch.tensor(), 'tensor() missing 1 required positional arguments: "data"'),
    (lambda: torch.tensor([1, 2], dtype="x"), "tensor(): argument 'dtype' must be torch.dtype, not str"),
])
def test_single_signature_errors_match_pytorch(call, message):
    assert raises(TypeError, call) == message


# ---- several signatures: "received an invalid combination of arguments" ----

@pytest.mark.parametrize("sigs, args, kwargs, message", [
    (FILL, (), {}, "fill_() received an invalid combination of arguments - got (), but expected one of:\n"
                   " * (Tensor value)\n * (Number value)\n"),
    (FILL, ("a",), {}, "fill_() received an invalid combination of arguments - got (str), but expected one of:\n"
                       " * (Tensor value)\n      didn't match because some of the arguments have invalid types: (!str!)\n"
                       " * (Number value)\n      didn't match because some of the arguments have invalid types: (!str!)\n"),
    (FILL, (1, 2), {}, "fill_() received an invalid combination of arguments - got (int, int), but expected one of:\n"
                       " * (Tensor value)\n * (Number value)\n"),
    (FILL, (), {"value": 1, "foo": 2},
     "fill_() received an invalid combination of arguments - got (foo=int, value=int, ), but expected one of:\n"
     " * (Tensor value)\n * (Number value)\n"),
    (FILL, (), {"foo": 2},
     "fill_() received an invalid combination of arguments - got (foo=int, ), but expected one of:\n"
     " * (Tensor value)\n      didn't match because some of the keywords were incorrect: foo\n"
     " * (Number value)\n      didn't match because some of the keywords were incorrect: foo\n"),
    (FILL, (), {"value": "a"},
     "fill_() received an invalid combination of arguments - got (value=str, ), but expected one of:\n"
     " * (Tensor value)\n      didn't match because some of the arguments have invalid types: (!value=str!, )\n"
     " * (Number value)\n      didn't match because some of the arguments have invalid types: (!value=str!, )\n"),
    (FILL, (1,), {"foo": 2}, "fill_() received an invalid combination of arguments - got (int, foo=int), but expected "
                             "one of:\n * (Tensor value)\n * (Number value)\n"),
    (FILL_FN, ("TENSOR", "x"), {},
     "fill_() received an invalid combination of arguments - got (Tensor, str), but expected one of:\n"
     " * (Tensor input, Tensor value)\n      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"
     " * (Tensor input, Number value)\n      didn't match because some of the arguments have invalid types: (Tensor, !str!)\n"),
    (FILL_FN, ("TENSOR",), {"value": [1]},
     "fill_() received an invalid combination of arguments - got (Tensor, value=list), but expected one of:\n"
     " * (Tensor input, Tensor value)\n      didn't match because some of the arguments have invalid types: "
     "(Tensor, !value=list of [int]!)\n"
     " * (Tensor input, Number value)\n      didn't match because some of the arguments have invalid types: "
     "(Tensor, !value=list of [int]!)\n"),
    (ADD, ("TENSOR",), {}, "add() received an invalid combination of arguments - got (Tensor), but expected "
                           "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"),
    (ADD, ("TENSOR", "TENSOR", 3, 4, 5), {},
     "add() received an invalid combination of arguments - got (Tensor, Tensor, !int!, !int!, !int!), but expected "
     "(Tensor input, Tensor other, *, Number alpha = 1, Tensor out = None)"),
])
def test_invalid_combination_messages_match_pytorch(sigs, args, kwargs, message):
    args = tuple(torch.ones(2) if a == "TENSOR" else a for a in args)
    assert raises(TypeError, parse, sigs, args, kwargs) == message


# ---- what matches ----

def test_varargs_and_tuple_sizes_are_the_same():
    sig = ["zeros(IntArrayRef size, *, ScalarType? dtype=None)"]
    assert parse(sig, (2, 3), {}) == (0, {"size": [2, 3], "dtype": None})
    assert parse(sig, ((2, 3),), {}) == (0, {"size": [2, 3], "dtype": None})
    assert parse(sig, ([2, 3],), {}) == (0, {"size": [2, 3], "dtype": None})
    assert parse(sig, (), {"size": (4,), "dtype": torch.int32}) == (0, {"size": [4], "dtype": torch.int32})
    assert torch.zeros(2, 3).shape == torch.zeros((2, 3)).shape == torch.zeros(size=[2, 3]).shape == (2, 3)


def test_sized_int_list_broadcasts_one_int():
    assert parse(["f(IntArrayRef[2] stride)"], (3,), {})[1] == {"stride": [3, 3]}


def test_defaults_fill_missing_arguments():
    idx, values = parse(ADD, (torch.ones(1), torch.ones(1)), {})
    assert idx == 0 and values["alpha"] == 1 and values["out"] is None
    assert parse(ADD, (torch.ones(1), torch.ones(1)), {"alpha": 2.5})[1]["alpha"] == 2.5


def test_first_matching_signature_wins():
    assert parse(FILL, (torch.ones(()),), {})[0] == 0
    assert parse(FILL, (1.5,), {})[0] == 1
    assert parse(FILL, (True,), {})[0] == 1


def test_numbers_and_zero_dim_tensors_are_scalars():
    sig = ["full(IntArrayRef size, Scalar fill_value)"]
    assert parse(sig, ((1,), 2), {})[1]["fill_value"] == 2
    assert parse(sig, ((1,), 2.5), {})[1]["fill_value"] == 2.5
    assert parse(sig, ((1,), 1 + 2j), {})[1]["fill_value"] == 1 + 2j
    assert parse(sig, ((1,), torch.tensor(3)), {})[1]["fill_value"] == 3
    assert torch.full((2,), torch.tensor(3)).tolist() == [3, 3]


def test_numpy_names_are_accepted_for_keywords():
    assert parse(["sum(Tensor input, int64_t dim)"], (), {"x": torch.ones(1), "axis": 0})[1]["dim"] == 0


def test_device_accepts_device_string_and_index():
    assert torch.zeros(1, device="cpu").device == torch.device("cpu")
    assert torch.zeros(1, device=torch.device("meta")).is_meta
    with pytest.raises(RuntimeError, match="Invalid device string: 'xpu:x'"):
        torch.empty(2, device="xpu:x")


def test_dtype_accepts_python_types():
    assert torch.zeros(1, dtype=float).dtype == torch.float64
    assert torch.zeros(1, dtype=int).dtype == torch.int64
    assert torch.zeros(1, dtype=bool).dtype == torch.bool


def test_torch_function_override_is_called_for_tensor_likes():
    class Wrapper:
        def __init__(self, t):
            self.t = t

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return ("handled", func.__name__, types)

    class Sub(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "sub"

    s = torch.ones(2).as_subclass(Sub)
    assert torch.fill_(s, 1) == "sub"
    assert s.fill_(1) == "sub"
    assert s.zero_() == "sub"
    assert torch.overrides.has_torch_function((s,))
    assert not torch.overrides.has_torch_function((torch.ones(1), 1))
    w = Wrapper(1)
    assert torch.overrides.handle_torch_function(torch.zeros, (w,), w) == ("handled", "zeros", (Wrapper,))


def test_subclass_without_override_keeps_its_class():
    class Sub(torch.Tensor):
        pass

    s = torch.zeros(2).as_subclass(Sub)
    out = torch.fill_(s, 3)
    assert type(out) is Sub and out.tolist() == [3.0, 3.0]
