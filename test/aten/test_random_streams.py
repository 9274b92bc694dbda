# test/aten/test_random_streams.py - one seed, PyTorch's exact numbers: uniform_, normal_ (the
# blocks of 16 and the per-element path), torch.normal's tensor overloads, randint over wide
# ranges, randperm, bernoulli/dropout, exponential_ and multinomial, compared bit for bit
# with values recorded from PyTorch 2.13 (test/aten/pytorch_fixtures.py, written by
# record_pytorch_fixtures.py). Mirrors PyTorch's test/test_random.py (seeded values).
# Guide: docs/source/internals/programs/random_streams.rst.
import pytest
import torch
import torch.nn.functional as F

from pytorch_fixtures import RANDOM_STREAMS

SEEDS = [0, 1, 1234]


def floats(t):
    return [float(x) for x in t.reshape(-1).tolist()]


def ints(t):
    return [int(x) for x in t.reshape(-1).tolist()]


def seeded(seed, fn):
    torch.manual_seed(seed)
    return fn()


@pytest.mark.parametrize("seed", SEEDS)
def test_uniform_matches_pytorch(seed):
    expected = RANDOM_STREAMS[seed]
    assert seeded(seed, lambda: floats(torch.rand(5))) == expected["rand"]
    assert seeded(seed, lambda: floats(torch.empty(7).uniform_(-3, 7))) == expected["uniform_f32"]
    assert seeded(seed, lambda: floats(torch.empty(7, dtype=torch.float64).uniform_(-3, 7))) == expected["uniform_f64"]


def test_uniform_scales_with_one_rounding():
    # PyTorch 2.13: element 4 of uniform_(-3, 7) after manual_seed(0); two roundings
    # (multiply, then add) give 0.07422828674316406.
    torch.manual_seed(0)
    assert torch.empty(5).uniform_(-3, 7)[4].item() == 0.07422816753387451


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", [5, 16, 17, 100])
def test_randn_matches_pytorch(seed, n):
    expected = RANDOM_STREAMS[seed]
    assert seeded(seed, lambda: floats(torch.randn(n))) == expected[f"randn_{n}"]
    assert seeded(seed, lambda: floats(torch.randn(n, dtype=torch.float64))) == expected[f"randn_f64_{n}"]


@pytest.mark.parametrize("seed", SEEDS)
def test_normal_with_mean_std_layouts_and_dtypes_matches_pytorch(seed):
    expected = RANDOM_STREAMS[seed]
    assert seeded(seed, lambda: floats(torch.empty(33).normal_(2, 3))) == expected["normal_2_3_33"]
    assert seeded(seed, lambda: floats(torch.empty(33, dtype=torch.float64).normal_(2, 3))) == \
        expected["normal_f64_2_3_33"]
    # A transposed tensor takes the per-element Box-Muller path (pairs, the sine cached).
    assert seeded(seed, lambda: floats(torch.empty(20, 4).t().normal_(1, 2))) == expected["normal_noncontig"]
    assert seeded(seed, lambda: floats(torch.randn(40, dtype=torch.bfloat16).float())) == expected["normal_bf16_40"]


def test_randn_element_3_of_20():
    # PyTorch 2.13's AVX2 Box-Muller (Cephes log/sincos in float); libm's would give
    # -0.4338788390159607.
    torch.manual_seed(0)
    assert torch.randn(20)[3].item() == -0.4338788092136383


@pytest.mark.parametrize("seed", SEEDS)
def test_torch_normal_tensor_overloads_match_pytorch(seed):
    expected = RANDOM_STREAMS[seed]
    assert seeded(seed, lambda: floats(torch.normal(torch.arange(20.0), 2.0))) == expected["normal_tensor_float"]
    assert seeded(seed, lambda: floats(torch.normal(1.0, torch.arange(1.0, 21.0)))) == expected["normal_float_tensor"]
    got = seeded(seed, lambda: torch.normal(torch.arange(3.0).view(3, 1), torch.arange(1.0, 7.0).view(1, 6)))
    assert got.shape == (3, 6)
    assert floats(got) == expected["normal_tensor_tensor"]
    got = seeded(seed, lambda: torch.normal(2.0, 3.0, size=(2, 9)))
    assert got.shape == (2, 9) and got.dtype == torch.float32
    assert floats(got) == expected["normal_float_float"]


def test_torch_normal_generator_out_and_errors():
    g = torch.Generator().manual_seed(7)
    assert floats(torch.normal(torch.zeros(18), 1.0, generator=g)) == RANDOM_STREAMS["generator"]["normal_tensor_float"]
    assert ints(torch.multinomial(torch.ones(10), 4, generator=g)) == RANDOM_STREAMS["generator"]["multinomial"]
    torch.manual_seed(0)
    out = torch.empty(20)
    res = torch.normal(torch.arange(20.0), 2.0, out=out)
    assert res is out
    assert floats(out) == RANDOM_STREAMS[0]["normal_tensor_float"]
    # As in PyTorch, out= takes part in the broadcast: an empty out does not fit 20 means.
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(20\) must match the size of tensor b \(0\)"):
        torch.normal(torch.arange(20.0), 2.0, out=torch.empty(0))
    with pytest.raises(RuntimeError, match=r"normal expects std >= 0.0, but found std -1"):
        torch.normal(torch.zeros(3), -1.0)
    with pytest.raises(RuntimeError, match=r"normal expects all elements of std >= 0.0"):
        torch.normal(0.0, torch.tensor([1.0, -1.0]))


def test_torch_normal_gradients_are_zero():
    mean = torch.zeros(4, requires_grad=True)
    std = torch.ones(4, requires_grad=True)
    torch.normal(mean, std).sum().backward()
    assert mean.grad.tolist() == [0.0] * 4 and std.grad.tolist() == [0.0] * 4


@pytest.mark.parametrize("seed", SEEDS)
def test_randint_wide_ranges_match_pytorch(seed):
    expected = RANDOM_STREAMS[seed]
    assert seeded(seed, lambda: ints(torch.randint(0, 2**40, (6,)))) == expected["randint_2_40"]
    assert seeded(seed, lambda: ints(torch.randint(-2**33, 2**33, (6,)))) == expected["randint_pm_2_33"]
    assert seeded(seed, lambda: ints(torch.randint(0, 2**31, (6,)))) == expected["randint_2_31"]
    assert seeded(seed, lambda: ints(torch.randint(3, 10, (6,)))) == expected["randint_small"]


@pytest.mark.parametrize("seed", SEEDS)
def test_randperm_every_size_up_to_1000_matches_pytorch(seed):
    torch.manual_seed(seed)
    sums = []
    for n in range(1, 1001):
        p = torch.randperm(n)
        sums.append(int((p * torch.arange(n)).sum()))
    assert sums == RANDOM_STREAMS[seed]["randperm_checksums"]


@pytest.mark.parametrize("seed", SEEDS)
def test_randperm_large_and_dtypes_match_pytorch(seed):
    expected = RANDOM_STREAMS[seed]
    torch.manual_seed(seed)
    p = torch.randperm(100000)
    assert ints(p[:10]) + ints(p[-10:]) + [int((p * torch.arange(100000)).sum())] == expected["randperm_100000"]
    assert seeded(seed, lambda: floats(torch.randperm(10, dtype=torch.float32))) == expected["randperm_f32"]
    got = seeded(seed, lambda: torch.randperm(10, dtype=torch.int32))
    assert got.dtype == torch.int32 and ints(got) == expected["randperm_int32"]


@pytest.mark.parametrize("seed", SEEDS)
def test_bernoulli_dropout_exponential_match_pytorch(seed):
    expected = RANDOM_STREAMS[seed]
    assert seeded(seed, lambda: floats(torch.bernoulli(torch.full((20,), 0.3)))) == expected["bernoulli"]
    assert seeded(seed, lambda: floats(F.dropout(torch.ones(20), 0.5))) == expected["dropout"]
    assert seeded(seed, lambda: floats(torch.empty(10).exponential_(2.0))) == expected["exponential"]
    assert seeded(seed, lambda: floats(torch.empty(10, dtype=torch.float64).exponential_())) == \
        expected["exponential_f64"]


def test_exponential_checks_lambda():
    with pytest.raises(RuntimeError, match=r"exponential_ expects lambda > 0.0, but found lambda=-1"):
        torch.empty(2).exponential_(-1.0)


@pytest.mark.parametrize("seed", SEEDS)
def test_multinomial_draws_match_pytorch(seed):
    expected = RANDOM_STREAMS[seed]
    probs = torch.tensor([0.1, 0.2, 0.3, 0.4])
    assert seeded(seed, lambda: ints(torch.multinomial(probs, 20, replacement=True))) == expected["multinomial_repl"]
    assert seeded(seed, lambda: ints(torch.multinomial(probs, 3))) == expected["multinomial_norepl"]
    p2 = torch.arange(1.0, 16.0).view(3, 5)
    assert seeded(seed, lambda: ints(p2.multinomial(7, True))) == expected["multinomial_2d_repl"]
    assert seeded(seed, lambda: ints(p2.multinomial(4))) == expected["multinomial_2d_norepl"]
