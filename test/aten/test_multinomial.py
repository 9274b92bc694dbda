# test/aten/test_multinomial.py - torch.multinomial: PyTorch's draws for a seed (with
# replacement: cumulative distribution + binary search; without, or one sample: the
# exponential race), shapes, out=, errors, and the samplers that use it.
# Mirrors PyTorch's test/test_torch.py (multinomial tests). Guide:
# docs/source/internals/programs/random_streams.rst.
import numpy as np
import pytest
import torch

from pytorch_fixtures import RANDOM_STREAMS, REDUCTIONS

ERRORS = REDUCTIONS["errors"]


def ints(t):
    return [int(x) for x in t.reshape(-1).tolist()]


@pytest.mark.parametrize("seed", [0, 1, 1234])
def test_single_sample_f64_and_unnormalized_match_pytorch(seed):
    expected = RANDOM_STREAMS[seed]
    probs = torch.tensor([0.1, 0.2, 0.3, 0.4])
    torch.manual_seed(seed)
    assert ints(torch.multinomial(probs, 1, replacement=True)) == expected["multinomial_one"]
    torch.manual_seed(seed)
    assert ints(torch.multinomial(probs.double(), 9, True)) == expected["multinomial_f64"]
    torch.manual_seed(seed)
    assert ints(torch.multinomial(torch.tensor([3.0, 0.0, 1.0, 6.0]), 12, True)) == \
        expected["multinomial_unnormalized"]


def test_generator_argument():
    # The fixture's generator drew 18 normals first.
    g = torch.Generator().manual_seed(7)
    torch.normal(torch.zeros(18), 1.0, generator=g)
    assert ints(torch.multinomial(torch.ones(10), 4, generator=g)) == RANDOM_STREAMS["generator"]["multinomial"]


def test_shapes_dtype_and_out():
    assert torch.multinomial(torch.ones(5), 3).shape == (3,)
    r = torch.ones(4, 6).multinomial(2, replacement=True)
    assert r.shape == (4, 2) and r.dtype == torch.int64
    out = torch.empty(0, dtype=torch.long)
    res = torch.multinomial(torch.ones(3, 4), 4, out=out)
    assert res is out and out.shape == (3, 4)
    # Without replacement every row is a permutation of its categories.
    assert sorted(ints(out[1])) == [0, 1, 2, 3]


def test_without_replacement_never_repeats_and_skips_zero_probabilities():
    torch.manual_seed(3)
    p = torch.tensor([0.0, 1.0, 0.0, 2.0, 3.0])
    for _ in range(20):
        s = ints(torch.multinomial(p, 3))
        assert sorted(s) == [1, 3, 4]


def test_frequencies_follow_the_probabilities():
    torch.manual_seed(0)
    p = np.array([0.1, 0.2, 0.3, 0.4])
    draws = torch.multinomial(torch.tensor(p, dtype=torch.float32), 40000, replacement=True).numpy()
    freq = np.bincount(draws, minlength=4) / draws.size
    np.testing.assert_allclose(freq, p, atol=0.01)


@pytest.mark.parametrize("key,call", [
    ("multinomial_n", lambda: torch.multinomial(torch.ones(3), 4)),
    ("multinomial_neg", lambda: torch.multinomial(torch.tensor([1.0, -1.0]), 1)),
    ("multinomial_inf", lambda: torch.multinomial(torch.tensor([1.0, float("inf")]), 1)),
    ("multinomial_nan", lambda: torch.multinomial(torch.tensor([1.0, float("nan")]), 1)),
    ("multinomial_zero", lambda: torch.multinomial(torch.zeros(3), 2)),
    ("multinomial_zero_repl", lambda: torch.multinomial(torch.zeros(3), 2, True)),
    ("multinomial_neg_repl", lambda: torch.multinomial(torch.tensor([1.0, -1.0]), 2, True)),
    ("multinomial_3d", lambda: torch.multinomial(torch.ones(2, 2, 2), 1)),
    ("multinomial_int", lambda: torch.multinomial(torch.ones(3, dtype=torch.long), 1)),
    ("multinomial_nsample", lambda: torch.multinomial(torch.ones(3), 0)),
])
def test_errors_match_pytorch(key, call):
    kind, message = ERRORS[key]
    assert kind == "RuntimeError"
    with pytest.raises(RuntimeError) as info:
        call()
    assert str(info.value).split("\n")[0] == message


def test_weighted_random_sampler_uses_the_operator():
    from torch.utils.data import WeightedRandomSampler
    import torch.utils.data.sampler as sampler_module
    assert not hasattr(sampler_module, "_multinomial")
    weights = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
    g = torch.Generator().manual_seed(0)
    got = list(WeightedRandomSampler(weights, 5, replacement=True, generator=g))
    g = torch.Generator().manual_seed(0)
    assert got == torch.multinomial(torch.tensor(weights, dtype=torch.double), 5, True, generator=g).tolist()
