# test/aten/test_printing.py - tensors print exactly as PyTorch prints them.
# The expected strings were produced by real PyTorch 2.13 (CPU) for the same expressions.
# Guide: docs/source/internals/python_bindings.rst (torch/_tensor_str.py).
import pytest

import torch

EXPECTED = {
    'torch.tensor([1., 2.])' : 'tensor([1., 2.])',
    'torch.tensor([1, 2])' : 'tensor([1, 2])',
    'torch.tensor([True, False])' : 'tensor([ True, False])',
    'torch.tensor([1.5, 2.25], dtype=torch.float64)' : 'tensor([1.5000, 2.2500], dtype=torch.float64)',
    'torch.tensor([[1, 2, 3], [4, 5, 6]])' : 'tensor([[1, 2, 3],\n        [4, 5, 6]])',
    'torch.tensor([[[1., 2.], [3., 4.]], [[5., 6.], [7., 8.]]])' : 'tensor([[[1., 2.],\n         [3., 4.]],\n\n        [[5., 6.],\n         [7., 8.]]])',
    'torch.tensor(3.5)' : 'tensor(3.5000)',
    'torch.tensor(7)' : 'tensor(7)',
    'torch.tensor([1e-5, 1.])' : 'tensor([1.0000e-05, 1.0000e+00])',
    'torch.tensor([1e10, 1.])' : 'tensor([1.0000e+10, 1.0000e+00])',
    'torch.tensor([123456789., 1.])' : 'tensor([1.2346e+08, 1.0000e+00])',
    "torch.tensor([1.5, float('nan'), float('inf')])" : 'tensor([1.5000,    nan,    inf])',
    'torch.tensor([0.1, 0.25, -3.0])' : 'tensor([ 0.1000,  0.2500, -3.0000])',
    'torch.zeros(1100)' : 'tensor([0., 0., 0.,  ..., 0., 0., 0.])',
    'torch.zeros(2, 1000)' : 'tensor([[0., 0., 0.,  ..., 0., 0., 0.],\n        [0., 0., 0.,  ..., 0., 0., 0.]])',
    'torch.empty(0)' : 'tensor([])',
    'torch.zeros(2, 0)' : 'tensor([], size=(2, 0))',
    'torch.zeros(3, dtype=torch.int32)' : 'tensor([0, 0, 0], dtype=torch.int32)',
    'torch.tensor([1+2j, 3-1j])' : 'tensor([1.+2.j, 3.-1.j])',
    "torch.zeros(2, 3, device='meta')" : "tensor(..., device='meta', size=(2, 3))",
    'torch.tensor(list(range(30)), dtype=torch.float32)' : 'tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., 12., 13.,\n        14., 15., 16., 17., 18., 19., 20., 21., 22., 23., 24., 25., 26., 27.,\n        28., 29.])',
    'torch.zeros(2, requires_grad=True)' : 'tensor([0., 0.], requires_grad=True)',
    'torch.tensor([], dtype=torch.int64)' : 'tensor([], dtype=torch.int64)',
    'torch.tensor([-0.0, 0.0])' : 'tensor([-0., 0.])',
}


@pytest.mark.parametrize("expr", sorted(EXPECTED))
def test_repr_matches_pytorch(expr):
    assert repr(eval(expr)) == EXPECTED[expr]


def test_set_printoptions_precision_changes_digits():
    t = torch.tensor([0.123456, 1.5])
    try:
        torch.set_printoptions(precision=2)
        assert repr(t) == "tensor([0.12, 1.50])"
    finally:
        torch.set_printoptions(profile="default")
    assert repr(t) == "tensor([0.1235, 1.5000])"


def test_default_dtype_float64_prints_without_suffix():
    try:
        torch.set_default_dtype(torch.float64)
        assert repr(torch.tensor([1.5])) == "tensor([1.5000])"
        assert repr(torch.tensor([1.5], dtype=torch.float32)) == "tensor([1.5000], dtype=torch.float32)"
    finally:
        torch.set_default_dtype(torch.float32)


def test_subclass_prints_its_class_name():
    class MyTensor(torch.Tensor):
        pass

    t = torch.ones(2).as_subclass(MyTensor)
    assert repr(t) == "MyTensor([1., 1.])"
