# test/aten/test_to_and_out_tuples.py - Tensor.to's overloads, out=(values, indices), and factories' out=.
# Mirrors checks of PyTorch's test/test_torch.py. Guide: docs/source/internals/python_bindings.rst.
import numpy as np
import pytest
import torch


def test_to_device_dtype_and_other():
    x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
    assert x.to("cpu") is x and x.to(torch.float32) is x and x.to(x) is x
    assert x.to(torch.float64).dtype == torch.float64
    y = x.to("cpu", torch.int32)
    assert y.dtype == torch.int32 and y.tolist() == [[1, 5, 2], [7, 0, 3]]
    assert x.to(torch.zeros(1, dtype=torch.int64)).dtype == torch.int64
    assert x.to(dtype=torch.float16).dtype == torch.float16
    c = x.to(x.dtype, copy=True)
    assert c is not x and c.tolist() == x.tolist()
    m = x.to("meta")
    assert m.is_meta and m.shape == x.shape


def test_to_with_bad_arguments():
    with pytest.raises(TypeError, match=r"^to\(\) received an invalid combination of arguments - got \(str, str\)"):
        torch.ones(1).to("cpu", "float")


@pytest.mark.parametrize("op, args", [(torch.max, (1,)), (torch.min, (1,)), (torch.sort, (1,)), (torch.topk, (2,))])
def test_out_tuple_receives_values_and_indices(op, args):
    x = torch.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]])
    values, indices = torch.empty(0), torch.empty(0, dtype=torch.long)
    r = op(x, *args, out=(values, indices))
    expected = op(x, *args)
    assert r.values is values and r.indices is indices
    assert type(r).__name__ == op.__name__ + "_out"
    assert values.tolist() == expected.values.tolist() and indices.tolist() == expected.indices.tolist()


def test_out_tuple_of_the_wrong_length():
    with pytest.raises(TypeError, match="^expected tuple of 2 elements but got 1$"):
        torch.max(torch.ones(2, 2), 1, out=(torch.empty(0),))


def test_arange_and_linspace_out():
    t = torch.empty(0)
    assert torch.arange(5, out=t) is t and t.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    torch.arange(0.0, 1.0, 0.25, out=t)
    np.testing.assert_allclose(t.numpy(), np.arange(0.0, 1.0, 0.25))
    i = torch.empty(0, dtype=torch.long)
    assert torch.arange(1, 4, 1, out=i).tolist() == [1, 2, 3]
    lin = torch.empty(0)
    torch.linspace(0, 1, 5, out=lin)
    np.testing.assert_allclose(lin.numpy(), np.linspace(0, 1, 5), rtol=1e-6)


def test_dtype_shorthand_methods():
    x = torch.tensor([1.5, -2.0])
    assert x.float() is x
    for name, dtype in [("double", torch.float64), ("half", torch.float16), ("bfloat16", torch.bfloat16),
                        ("long", torch.int64), ("int", torch.int32), ("short", torch.int16), ("char", torch.int8),
                        ("byte", torch.uint8), ("bool", torch.bool), ("cfloat", torch.complex64),
                        ("cdouble", torch.complex128)]:
        assert getattr(x, name)().dtype == dtype, name
    assert x.long().tolist() == [1, -2] and x.bool().tolist() == [True, True]


def test_isclose_allclose_equal():
    a = torch.tensor([1.0, float("nan"), float("inf")])
    b = torch.tensor([1.0 + 1e-9, float("nan"), float("inf")])
    assert torch.isclose(a, b).tolist() == [True, False, True]
    assert torch.isclose(a, b, equal_nan=True).tolist() == [True, True, True]
    assert torch.allclose(torch.ones(2), torch.ones(2) + 1e-6) and not torch.allclose(torch.ones(2), torch.ones(2) + 1e-3)
    assert torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3])).tolist() == [True, False]
    assert torch.equal(torch.tensor([1]), torch.tensor([1.0])) and not torch.equal(torch.ones(2), torch.ones(3))
    assert torch.ones(2).equal(torch.ones(2))
    with pytest.raises(RuntimeError, match="^Float did not match Double$"):
        torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64))
