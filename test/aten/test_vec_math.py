"""exp, tanh, sigmoid and erf of float32 (aten/src/ATen/cpu/vec/vec_math.h, through torch.exp,
torch.tanh, torch.sigmoid, torch.erf) against float64 references, in ulps of the float32 result,
over millions of inputs: the whole range where the result is not constant, denormal results,
overflow to inf, NaN, +-inf and -0.0. PyTorch evaluates these as Vectorized<float> members (Sleef,
exp_u20); here they are plain float arithmetic that the compiler vectorizes.
Guide: docs/source/internals/performance.rst.
"""
import math

import numpy as np
import pytest

import torch
import torch.nn.functional as F

INF = float("inf")
NAN = float("nan")


def ulp_error(got, want):
    """|got - want| in units of the last place of want rounded to float32 (2^-149 for denormals).
    Both sides inf (of one sign) or both NaN count as exact."""
    got = got.astype(np.float64)
    want = np.asarray(want, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        want32 = want.astype(np.float32).astype(np.float64)
        special = np.isnan(want) | np.isinf(want32) | np.isinf(got) | np.isnan(got)
        same_special = (np.isnan(want) & np.isnan(got)) | (np.isinf(want32) & (got == want32))
        _, e = np.frexp(np.abs(np.where(special, 1.0, want)))
        ulp = np.ldexp(1.0, np.maximum(e - 24, -149))
        err = np.abs(np.where(special, 0.0, got - want)) / ulp
    return np.where(special & ~same_special, np.inf, err)


def sweep(lo, hi, n=2_000_000, seed=0):
    """n float32 inputs in [lo, hi]: half evenly spaced in value, half uniform in bit pattern (so
    every binade, down to the denormals, gets its share)."""
    rng = np.random.default_rng(seed)
    even = np.linspace(lo, hi, n // 2, dtype=np.float32)
    a, b = np.float32(lo), np.float32(hi)
    parts = []
    for sign, (x0, x1) in ((-1, (max(-b, 0), -a)), (1, (max(a, 0), b))):  # |x| ranges per sign
        if x1 <= x0 and not (x0 == 0 and x1 == 0):
            continue
        u0 = np.array([x0], np.float32).view(np.uint32)[0]
        u1 = np.array([x1], np.float32).view(np.uint32)[0]
        bits = rng.integers(u0, u1, n // 4, endpoint=True, dtype=np.uint64).astype(np.uint32)
        parts.append(sign * bits.view(np.float32))
    return np.concatenate([even] + parts)


def worst(fn_torch, fn_ref, x):
    got = fn_torch(torch.from_numpy(x)).numpy()
    with np.errstate(over="ignore", invalid="ignore"):
        want = fn_ref(x.astype(np.float64))
    err = ulp_error(got, want)
    i = int(np.argmax(err))
    return float(err[i]), float(x[i])


def sigmoid64(x):
    return 1.0 / (1.0 + np.exp(-x))


erf64 = np.frompyfunc(math.erf, 1, 1)


def np_erf(x):
    return erf64(x).astype(np.float64)


@pytest.mark.parametrize("name, fn, ref, lo, hi, max_ulp", [
    ("exp", torch.exp, np.exp, -110.0, 90.0, 1.0),
    ("tanh", torch.tanh, np.tanh, -10.0, 10.0, 2.0),
    ("sigmoid", torch.sigmoid, sigmoid64, -110.0, 20.0, 2.0),
])
def test_float32_ulp_sweep(name, fn, ref, lo, hi, max_ulp):
    err, at = worst(fn, ref, sweep(lo, hi))
    assert err <= max_ulp, f"{name}: {err:.3f} ulp at x={at!r}"


def test_erf_ulp_sweep():
    # math.erf per element: fewer points, but every binade of [-4.5, 4.5] and the two pieces'
    # seam at |x| = 1 densely.
    x = np.concatenate([sweep(-4.5, 4.5, n=400_000, seed=1), np.linspace(0.99, 1.01, 20001, dtype=np.float32)])
    x = np.concatenate([x, -x])
    err, at = worst(torch.erf, np_erf, x)
    assert err <= 2.0, f"erf: {err:.3f} ulp at x={at!r}"


def test_exp_thresholds_and_denormal_results():
    x = np.array([88.72283, 88.72284, 89.0, 1e30, -87.33654, -87.5, -100.0, -103.27, -103.97, -103.98, -104.5, -1e30],
                 dtype=np.float32)
    got = torch.exp(torch.from_numpy(x)).numpy()
    with np.errstate(over="ignore"):
        want = np.exp(x.astype(np.float64))
    assert np.all(ulp_error(got, want) <= 1.0), (got, want)
    assert np.isinf(got[1:4]).all() and np.isfinite(got[0])
    assert got[6] > 0 and got[6] < np.finfo(np.float32).tiny  # denormal, not flushed
    assert (got[-3:] == 0).all()


@pytest.mark.parametrize("fn, at_nan, at_pinf, at_ninf, at_zero", [
    (torch.exp, NAN, INF, 0.0, 1.0),
    (torch.tanh, NAN, 1.0, -1.0, 0.0),
    (torch.sigmoid, NAN, 1.0, 0.0, 0.5),
    (torch.erf, NAN, 1.0, -1.0, 0.0),
])
def test_special_values(fn, at_nan, at_pinf, at_ninf, at_zero):
    # Long enough for the vector loop and its scalar tail.
    x = torch.tensor([NAN, INF, -INF, 0.0, -0.0] * 7)
    y = fn(x).view(7, 5)
    for row in y:
        assert math.isnan(row[0].item())
        assert row[1].item() == at_pinf and row[2].item() == at_ninf
        assert row[3].item() == at_zero and row[4].item() == at_zero
    if fn in (torch.tanh, torch.erf):  # odd functions keep the sign of -0.0
        assert math.copysign(1.0, y[0, 4].item()) == -1.0


def test_odd_functions_are_odd_and_small_inputs_exact():
    x = torch.from_numpy(sweep(-9.0, 9.0, n=200_000, seed=2))
    assert torch.equal(torch.tanh(-x), -torch.tanh(x))
    assert torch.equal(torch.erf(-x), -torch.erf(x))
    tiny = torch.tensor([1e-30, -3e-39, 1e-45, 2.0 ** -20])
    assert torch.equal(torch.tanh(tiny)[:3], tiny[:3])  # tanh(x) = x in float32 below 2^-12


def test_half_and_bfloat16_compute_in_float():
    x = torch.linspace(-8, 8, 1001)
    for dtype in (torch.float16, torch.bfloat16):
        xd = x.to(dtype)
        for fn in (torch.exp, torch.tanh, torch.sigmoid, torch.erf):
            assert torch.equal(fn(xd), fn(xd.float()).to(dtype)), (fn, dtype)


def test_gelu_and_silu_float32_against_float64():
    x64 = torch.from_numpy(sweep(-12.0, 12.0, n=400_000, seed=3).astype(np.float64))
    x = x64.float()
    for fn in (F.gelu, lambda t: F.gelu(t, approximate="tanh"), F.silu):
        got = fn(x).double()
        want = fn(x64)
        # A few ulps of the result; for gelu also the rounding of 1 + erf (or 1 + tanh) near -1,
        # which is absolute (as in PyTorch); below 1e-38 silu's x / (1 + e^-x) flushes to 0.
        tol = 4e-7 * want.abs() + 1.2e-7 * x64.abs() + 1e-38
        assert ((got - want).abs() <= tol).all()
