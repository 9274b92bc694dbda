"""Records the PyTorch numbers that test_random_streams.py, test_reductions_more.py and
test_multinomial.py compare against (test/aten/pytorch_fixtures.py).

Run it under the reference interpreter (PyTorch 2.13, CPU), from a directory where
``import torch`` does not pick up this tree, and write the output over the fixtures file:

    cd /tmp && python /path/to/test/aten/record_pytorch_fixtures.py > /path/to/test/aten/pytorch_fixtures.py

Every value is a plain Python literal (long sum results as a count, the first values and the
md5 of the values packed as doubles) (floats as repr of the float32/float64 value, so the
tests can compare bit for bit); error messages are recorded as the exception's type and text.
"""

import torch
import torch.nn.functional as F


def floats(t):
    return [float(x) for x in t.reshape(-1).tolist()]


def ints(t):
    return [int(x) for x in t.reshape(-1).tolist()]


def digest(values):
    """Short outputs as their values; long ones as (count, first values, md5 of the bytes)."""
    import hashlib
    if len(values) <= 64:
        return values
    import struct
    return [len(values), values[:4], hashlib.md5(struct.pack(f"{len(values)}d", *values)).hexdigest()]


def error(fn):
    try:
        fn()
    except Exception as e:  # the type and message are the fixture
        return [type(e).__name__, str(e).split("\n")[0]]
    return None


def seeded(seed, fn):
    torch.manual_seed(seed)
    return fn()


def random_streams():
    out = {}
    for seed in (0, 1, 1234):
        s = {}
        s["rand"] = seeded(seed, lambda: floats(torch.rand(5)))
        s["uniform_f32"] = seeded(seed, lambda: floats(torch.empty(7).uniform_(-3, 7)))
        s["uniform_f64"] = seeded(seed, lambda: floats(torch.empty(7, dtype=torch.float64).uniform_(-3, 7)))
        for n in (5, 16, 17, 100):
            s[f"randn_{n}"] = seeded(seed, lambda: floats(torch.randn(n)))
            s[f"randn_f64_{n}"] = seeded(seed, lambda: floats(torch.randn(n, dtype=torch.float64)))
        s["normal_2_3_33"] = seeded(seed, lambda: floats(torch.empty(33).normal_(2, 3)))
        s["normal_f64_2_3_33"] = seeded(seed, lambda: floats(torch.empty(33, dtype=torch.float64).normal_(2, 3)))
        s["normal_noncontig"] = seeded(seed, lambda: floats(torch.empty(20, 4).t().normal_(1, 2)))
        s["normal_bf16_40"] = seeded(seed, lambda: floats(torch.randn(40, dtype=torch.bfloat16).float()))
        s["normal_tensor_float"] = seeded(seed, lambda: floats(torch.normal(torch.arange(20.0), 2.0)))
        s["normal_float_tensor"] = seeded(seed, lambda: floats(torch.normal(1.0, torch.arange(1.0, 21.0))))
        s["normal_tensor_tensor"] = seeded(
            seed, lambda: floats(torch.normal(torch.arange(3.0).view(3, 1), torch.arange(1.0, 7.0).view(1, 6))))
        s["normal_float_float"] = seeded(seed, lambda: floats(torch.normal(2.0, 3.0, size=(2, 9))))
        s["randint_2_40"] = seeded(seed, lambda: ints(torch.randint(0, 2**40, (6,))))
        s["randint_pm_2_33"] = seeded(seed, lambda: ints(torch.randint(-2**33, 2**33, (6,))))
        s["randint_2_31"] = seeded(seed, lambda: ints(torch.randint(0, 2**31, (6,))))
        s["randint_small"] = seeded(seed, lambda: ints(torch.randint(3, 10, (6,))))
        s["bernoulli"] = seeded(seed, lambda: floats(torch.bernoulli(torch.full((20,), 0.3))))
        s["dropout"] = seeded(seed, lambda: floats(F.dropout(torch.ones(20), 0.5)))
        s["exponential"] = seeded(seed, lambda: floats(torch.empty(10).exponential_(2.0)))
        s["exponential_f64"] = seeded(seed, lambda: floats(torch.empty(10, dtype=torch.float64).exponential_()))

        def perm_checksums():
            sums = []
            for n in range(1, 1001):
                p = torch.randperm(n)
                sums.append(int((p * torch.arange(n)).sum()))
            return sums
        s["randperm_checksums"] = seeded(seed, perm_checksums)

        def perm_big():
            p = torch.randperm(100000)
            return ints(p[:10]) + ints(p[-10:]) + [int((p * torch.arange(100000)).sum())]
        s["randperm_100000"] = seeded(seed, perm_big)
        s["randperm_f32"] = seeded(seed, lambda: floats(torch.randperm(10, dtype=torch.float32)))
        s["randperm_int32"] = seeded(seed, lambda: ints(torch.randperm(10, dtype=torch.int32)))

        probs = torch.tensor([0.1, 0.2, 0.3, 0.4])
        s["multinomial_repl"] = seeded(seed, lambda: ints(torch.multinomial(probs, 20, replacement=True)))
        s["multinomial_norepl"] = seeded(seed, lambda: ints(torch.multinomial(probs, 3)))
        s["multinomial_one"] = seeded(seed, lambda: ints(torch.multinomial(probs, 1, replacement=True)))
        p2 = torch.arange(1.0, 16.0).view(3, 5)
        s["multinomial_2d_repl"] = seeded(seed, lambda: ints(p2.multinomial(7, True)))
        s["multinomial_2d_norepl"] = seeded(seed, lambda: ints(p2.multinomial(4)))
        s["multinomial_f64"] = seeded(seed, lambda: ints(torch.multinomial(probs.double(), 9, True)))
        s["multinomial_unnormalized"] = seeded(
            seed, lambda: ints(torch.multinomial(torch.tensor([3.0, 0.0, 1.0, 6.0]), 12, True)))
        out[seed] = s
    g = torch.Generator().manual_seed(7)
    out["generator"] = {
        "normal_tensor_float": floats(torch.normal(torch.zeros(18), 1.0, generator=g)),
        "multinomial": ints(torch.multinomial(torch.ones(10), 4, generator=g)),
    }
    return out


SUM_SHAPES = [
    ((100003,), None), ((1000, 37), 0), ((37, 1000), 1), ((1000, 37), 1), ((7, 5, 300), 1),
    ((50, 3), 0), ((3, 50), 1), ((100,), None), ((9,), None), ((70000,), None), ((64, 64), None),
    ((300, 300), 0), ((300, 300), 1), ((4, 5, 6), (0, 2)), ((200, 300), None), ((40000, 3), 0),
    ((3, 40000), 1), ((33, 2000), 0),
]


def reductions():
    out = {}
    for threads in (1, 2, 3):
        torch.set_num_threads(threads)
        rows = []
        for i, (shape, dim) in enumerate(SUM_SHAPES):
            torch.manual_seed(i)
            x = torch.randn(*shape)
            s = x.sum() if dim is None else x.sum(dim)
            m = x.mean() if dim is None else x.mean(dim)
            xd = x.double() * 3
            sd = xd.sum() if dim is None else xd.sum(dim)
            t = x.t().sum(0) if x.dim() == 2 else x.sum(-1)
            rows.append([digest(floats(s)), digest(floats(m)), digest(floats(sd)), digest(floats(t))])
        out[threads] = rows
    torch.set_num_threads(2)
    torch.manual_seed(0)
    out["randn_100003_sum"] = floats(torch.randn(100003).sum())
    torch.manual_seed(0)
    out["randn_1000_37_mean0"] = floats(torch.randn(1000, 37).mean(0))
    torch.manual_seed(3)
    x = torch.randn(500, 7)
    x[x > 1.5] = float("nan")
    out["nansum_all"] = floats(x.nansum())
    out["nansum_0"] = floats(x.nansum(0))
    out["nansum_1"] = floats(torch.nansum(x, 1))
    torch.manual_seed(4)
    y = torch.randn(9, 11)
    out["quantile"] = {
        mode: floats(torch.quantile(y, torch.tensor([0.0, 0.1, 0.25, 0.5, 0.9, 1.0]), dim=1, interpolation=mode))
        for mode in ("linear", "lower", "higher", "midpoint", "nearest")
    }
    out["quantile_all"] = floats(y.quantile(0.3))
    out["median_dim"] = [floats(y.median(1).values), ints(y.median(1).indices)]
    out["errors"] = {
        "normal_std": error(lambda: torch.normal(torch.zeros(3), -1.0)),
        "normal_std_tensor": error(lambda: torch.normal(0.0, torch.tensor([1.0, -1.0]))),
        "normal_inplace": error(lambda: torch.empty(3).normal_(0, -1)),
        "multinomial_n": error(lambda: torch.multinomial(torch.ones(3), 4)),
        "multinomial_neg": error(lambda: torch.multinomial(torch.tensor([1.0, -1.0]), 1)),
        "multinomial_inf": error(lambda: torch.multinomial(torch.tensor([1.0, float("inf")]), 1)),
        "multinomial_nan": error(lambda: torch.multinomial(torch.tensor([1.0, float("nan")]), 1)),
        "multinomial_zero": error(lambda: torch.multinomial(torch.zeros(3), 2)),
        "multinomial_zero_repl": error(lambda: torch.multinomial(torch.zeros(3), 2, True)),
        "multinomial_neg_repl": error(lambda: torch.multinomial(torch.tensor([1.0, -1.0]), 2, True)),
        "multinomial_3d": error(lambda: torch.multinomial(torch.ones(2, 2, 2), 1)),
        "multinomial_int": error(lambda: torch.multinomial(torch.ones(3, dtype=torch.long), 1)),
        "multinomial_nsample": error(lambda: torch.multinomial(torch.ones(3), 0)),
        "quantile_q": error(lambda: torch.quantile(torch.ones(3), 1.5)),
        "quantile_qt": error(lambda: torch.quantile(torch.ones(3), torch.tensor([0.5, 2.0]))),
        "quantile_empty": error(lambda: torch.quantile(torch.ones(0), 0.5)),
        "quantile_int": error(lambda: torch.quantile(torch.ones(3, dtype=torch.long), 0.5)),
        "quantile_interp": error(lambda: torch.quantile(torch.ones(3), 0.5, interpolation="cubic")),
        "bincount_neg": error(lambda: torch.bincount(torch.tensor([1, -1]))),
        "bincount_2d": error(lambda: torch.bincount(torch.ones(2, 2, dtype=torch.long))),
        "bincount_weights": error(lambda: torch.bincount(torch.tensor([1, 2]), torch.ones(3))),
        "bincount_minlength": error(lambda: torch.bincount(torch.tensor([1, 2]), minlength=-1)),
        "searchsorted_side": error(lambda: torch.searchsorted(torch.arange(3.0), torch.ones(2), side="middle")),
        "searchsorted_opposite": error(
            lambda: torch.searchsorted(torch.arange(3.0), torch.ones(2), right=True, side="left")),
        "searchsorted_shape": error(lambda: torch.searchsorted(torch.ones(2, 3), torch.ones(3, 2))),
        "bucketize_2d": error(lambda: torch.bucketize(torch.ones(2), torch.ones(2, 2))),
        "aminmax_empty": error(lambda: torch.aminmax(torch.ones(0))),
        "nansum_complex": error(lambda: torch.nansum(torch.ones(2, dtype=torch.complex64))),
        "kl_div_int": error(lambda: torch.kl_div(torch.ones(2, dtype=torch.long), torch.ones(2))),
        "linear_0d": error(lambda: F.linear(torch.tensor(1.0), torch.ones(2, 2))),
        "exponential_lambda": error(lambda: torch.empty(2).exponential_(-1.0)),
        "cross_entropy_smoothing": error(
            lambda: F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), label_smoothing=1.5)),
    }
    return out


if __name__ == "__main__":
    import pprint
    print('"""PyTorch 2.13 (CPU) numbers for the tests in test/aten; regenerate with')
    print('record_pytorch_fixtures.py under the reference interpreter (see its docstring)."""')
    print()
    print("RANDOM_STREAMS = " + pprint.pformat(random_streams(), width=110, compact=True))
    print()
    print("SUM_SHAPES = " + pprint.pformat(SUM_SHAPES, width=110, compact=True))
    print()
    print("REDUCTIONS = " + pprint.pformat(reductions(), width=110, compact=True))
