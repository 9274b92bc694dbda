# test/aten/test_randperm.py - torch.randperm: PyTorch's permutation for a seeded generator.
# Mirrors checks of PyTorch's test/test_tensor_creation_ops.py. Guide: docs/source/internals/tensor_iterator.rst.
import pytest
import torch


def test_randperm_matches_pytorch_for_a_seeded_generator():
    # PyTorch 2.13: torch.randperm(10, generator=torch.Generator().manual_seed(0)).
    g = torch.Generator().manual_seed(0)
    assert torch.randperm(10, generator=g).tolist() == [4, 1, 7, 5, 3, 9, 0, 8, 6, 2]


def test_randperm_dtype_and_contents():
    assert torch.randperm(3).dtype == torch.int64
    p = torch.randperm(100, dtype=torch.float32)
    assert p.dtype == torch.float32 and sorted(p.tolist()) == [float(i) for i in range(100)]
    assert torch.randperm(0).tolist() == []


def test_randperm_of_a_negative_size():
    with pytest.raises(RuntimeError, match=r"^Trying to create tensor with negative dimension -1: \[-1\]$"):
        torch.randperm(-1)
