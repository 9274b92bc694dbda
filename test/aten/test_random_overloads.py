# test/aten/test_random_overloads.py - Tensor.random_() and random_(to) beside random_(from, to).
# Mirrors checks of PyTorch's test/test_tensor_creation_ops.py. Guide: docs/source/internals/tensor_iterator.rst.
import torch


def test_random_draws_match_pytorch_for_a_seeded_generator():
    # PyTorch 2.13, torch.Generator().manual_seed(0): three int64 random_() draws (one
    # 64-bit draw each, modulo 2**63), then random_(5) on a float tensor of three.
    g = torch.Generator().manual_seed(0)
    draws = [torch.empty((), dtype=torch.int64).random_(generator=g).item() for _ in range(3)]
    assert draws == [900450186894289455, 3969543146641149120, 1895649597198586619]
    assert torch.zeros(3).random_(5, generator=g).tolist() == [2.0, 3.0, 2.0]


def test_randint_switches_to_64_bit_draws_at_two_to_the_28():
    # PyTorch 2.13, seed 0: below 2**28 one 32-bit draw per value, from 2**28 on one 64-bit draw.
    g = torch.Generator().manual_seed(0)
    assert torch.randint(0, 2**28 - 1, (1,), generator=g).tolist() == [209652404]
    g = torch.Generator().manual_seed(0)
    assert torch.randint(0, 2**28, (1,), generator=g).tolist() == [130329135]


def test_random_to_stays_in_range_and_cuts_the_gradient():
    t = torch.zeros(1000, dtype=torch.int32).random_(7)
    assert int(t.min()) >= 0 and int(t.max()) <= 6
    y = torch.zeros(2, requires_grad=True).clone().random_()
    assert type(y.grad_fn).__name__ == "RandomBackward2"
