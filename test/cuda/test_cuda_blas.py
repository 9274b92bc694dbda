"""The CUDA matrix products (mm, addmm, addmm_, bmm, mv, dot, matmul), each checked against its CPU twin.

Mirrors the CUDA parts of PyTorch's test/test_linalg.py (test_addmm, test_bmm, test_mv, test_dot)
run on ``device="cuda"``. The kernels are aten/src/ATen/native/cuda/Blas.cpp over
at::cuda::blas::gemm and bgemm (aten/src/ATen/cuda/CUDABlas.cu, the tiled shared-memory kernel).
Guide: docs/source/internals/cuda_gemm.rst.

The shapes straddle the kernel's 64 x 64 tiles and 16-deep slices (one element, one tile less
or more by one, several tiles), the operands come plain, transposed, sliced and expanded, and the
result is compared with the CPU's within a tolerance (the kernel adds the k products in another
order than BLAS). Without a GPU:

    TORCH_CUDA_SIMULATE=2 .venv/bin/python -m pytest test/cuda/test_cuda_blas.py
"""

import numpy as np
import pytest

import torch
from cuda_testing import _id, assert_same

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU")

DTYPES = [torch.float32, torch.float64, torch.complex64, torch.complex128, torch.float16, torch.bfloat16]
TOL = {torch.float32: (1e-5, 1e-5), torch.float64: (1e-12, 1e-12), torch.complex64: (1e-5, 1e-5),
       torch.complex128: (1e-12, 1e-12), torch.float16: (2e-3, 2e-3), torch.bfloat16: (1.6e-2, 1.6e-2)}

# (m, k, n): one element; under, at and over one tile (64) and one slice (16); several tiles;
# each side at and just over 16, where the launcher switches between 16- and 64-wide tiles.
SHAPES = [(1, 1, 1), (3, 5, 2), (63, 17, 65), (64, 16, 64), (65, 15, 63), (130, 33, 7), (7, 200, 129),
          (16, 20, 17), (17, 20, 16), (16, 33, 16), (40, 9, 80)]


def randn(*shape, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_complex:
        return torch.randn(*shape, generator=g, dtype=torch.complex128).to(dtype)
    return torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)


def close(got, want, dtype, k=1):
    """got (CUDA) equals want (CPU, the same dtype) within dtype's tolerance, scaled for a sum of k products."""
    rtol, atol = TOL[dtype]
    assert_same(got, want, rtol=rtol * max(1.0, k ** 0.5), atol=atol * max(1.0, k ** 0.5))


@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
@pytest.mark.parametrize("m,k,n", SHAPES)
def test_mm_matches_cpu(m, k, n, dtype):
    a, b = randn(m, k, dtype=dtype, seed=1), randn(k, n, dtype=dtype, seed=2)
    close(torch.mm(a.cuda(), b.cuda()), torch.mm(a, b), dtype, k)


@pytest.mark.parametrize("layout", ["tt", "tn", "nt", "slice", "expand"])
def test_mm_reads_strided_operands_in_place(layout):
    """Transposed operands are read where they lie; a sliced one (every other column) is copied."""
    m, k, n = 37, 70, 45
    if layout == "slice":
        a, b = randn(m, 2 * k, seed=1)[:, ::2], randn(k, n, seed=2)
    elif layout == "expand":
        a, b = randn(m, 1, seed=1).expand(m, k), randn(1, n, seed=2).expand(k, n)
    else:
        a = randn(k, m, seed=1).t() if layout[0] == "t" else randn(m, k, seed=1)
        b = randn(n, k, seed=2).t() if layout[1] == "t" else randn(k, n, seed=2)
    close(a.cuda() @ b.cuda(), a @ b, torch.float32, k)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64], ids=_id)
@pytest.mark.parametrize("beta,alpha", [(1, 1), (0.5, -2.0), (0, 3.0)])
def test_addmm_matches_cpu(dtype, beta, alpha):
    m, k, n = 70, 33, 66
    c, a, b = randn(n, dtype=dtype, seed=0), randn(m, k, dtype=dtype, seed=1), randn(k, n, dtype=dtype, seed=2)
    got = torch.addmm(c.cuda(), a.cuda(), b.cuda(), beta=beta, alpha=alpha)
    close(got, torch.addmm(c, a, b, beta=beta, alpha=alpha), dtype, k)


def test_addmm_with_beta_zero_ignores_nan_in_self():
    """beta == 0 never reads C: NaN and inf there do not reach the result (as BLAS)."""
    c = torch.full((4, 5), float("nan"))
    a, b = randn(4, 3, seed=1), randn(3, 5, seed=2)
    close(torch.addmm(c.cuda(), a.cuda(), b.cuda(), beta=0), a @ b, torch.float32, 3)


@pytest.mark.parametrize("result_layout", ["rows", "columns", "sliced"])
def test_addmm_inplace_and_out_write_any_layout(result_layout):
    """A column-major result is written directly, a row-major one as its transpose, any other
    (every other column) through a contiguous copy that is then copied back."""
    m, k, n = 33, 20, 65
    a, b = randn(m, k, seed=1), randn(k, n, seed=2)
    base = randn(m, n, seed=3)
    if result_layout == "columns":
        cpu = base.t().contiguous().t()
    elif result_layout == "sliced":
        cpu = randn(m, 2 * n, seed=3)[:, ::2]
    else:
        cpu = base.clone()
    dev = cpu.cuda() if result_layout != "sliced" else randn(m, 2 * n, seed=3).cuda()[:, ::2]
    assert dev.stride() == cpu.stride()
    got = dev.addmm_(a.cuda(), b.cuda(), beta=0.5, alpha=2.0)
    assert got is dev
    close(dev, cpu.addmm_(a, b, beta=0.5, alpha=2.0), torch.float32, k)
    out = torch.empty(0, device="cuda")
    torch.mm(a.cuda(), b.cuda(), out=out)
    close(out, a @ b, torch.float32, k)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16], ids=_id)
@pytest.mark.parametrize("batch,m,k,n", [(1, 1, 1, 1), (3, 65, 17, 63), (5, 4, 130, 6), (0, 3, 3, 3)])
def test_bmm_matches_cpu(dtype, batch, m, k, n):
    a, b = randn(batch, m, k, dtype=dtype, seed=1), randn(batch, k, n, dtype=dtype, seed=2)
    close(torch.bmm(a.cuda(), b.cuda()), torch.bmm(a, b), dtype, k)


def test_bmm_of_transposed_batches_and_out():
    a = randn(4, 30, 20, seed=1).transpose(1, 2)   # (4, 20, 30), each matrix transposed
    b = randn(4, 25, 30, seed=2).transpose(1, 2)   # (4, 30, 25)
    close(torch.bmm(a.cuda(), b.cuda()), torch.bmm(a, b), torch.float32, 30)
    out = torch.empty(0, device="cuda")
    torch.bmm(a.cuda(), b.cuda(), out=out)
    close(out, torch.bmm(a, b), torch.float32, 30)


@pytest.mark.parametrize("shapes", [((5,), (5,)), ((3, 5), (5,)), ((5,), (5, 4)), ((2, 3, 5), (5, 4)),
                                    ((2, 3, 5), (2, 5, 4)), ((7, 1, 3, 5), (2, 5, 4))])
def test_matmul_paths_match_cpu(shapes):
    """matmul reaches dot, mv, mm or bmm by reshaping, on CUDA as on the CPU."""
    a, b = randn(*shapes[0], seed=1), randn(*shapes[1], seed=2)
    close(a.cuda() @ b.cuda(), a @ b, torch.float32, 5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64], ids=_id)
def test_mv_and_dot_match_cpu(dtype):
    a, v, w = randn(70, 300, dtype=dtype, seed=1), randn(300, dtype=dtype, seed=2), randn(300, dtype=dtype, seed=3)
    close(torch.mv(a.cuda(), v.cuda()), torch.mv(a, v), dtype, 300)
    close(torch.dot(v.cuda(), w.cuda()), torch.dot(v, w), dtype, 300)
    close(torch.dot(v[::3].cuda(), w[:100].cuda()), torch.dot(v[::3], w[:100]), dtype, 100)


def test_empty_products():
    """k == 0 gives zeros (beta * self for addmm), m or n == 0 an empty result."""
    z = torch.mm(torch.empty(3, 0, device="cuda"), torch.empty(0, 4, device="cuda"))
    assert_same(z, torch.zeros(3, 4))
    c = randn(3, 4)
    assert_same(torch.addmm(c.cuda(), torch.empty(3, 0, device="cuda"), torch.empty(0, 4, device="cuda"), beta=2),
                c * 2)
    assert torch.mm(torch.empty(0, 5, device="cuda"), torch.empty(5, 4, device="cuda")).shape == (0, 4)


def test_errors_match_the_cpu():
    a, b = torch.ones(2, 3, device="cuda"), torch.ones(4, 5, device="cuda")
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)"):
        a @ b
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype, but got: float != double"):
        torch.mm(a, torch.ones(3, 2, device="cuda", dtype=torch.float64))
    with pytest.raises(RuntimeError, match="\"addmm_cuda\" not implemented for 'Long'"):
        torch.mm(torch.ones(2, 2, device="cuda", dtype=torch.long), torch.ones(2, 2, device="cuda", dtype=torch.long))
    with pytest.raises(RuntimeError, match="batch1 must be a 3D tensor"):
        torch.bmm(a, a)
    with pytest.raises(RuntimeError, match="1D tensors expected, but got 2D and 2D tensors"):
        torch.dot(a, a)
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.mm(a, torch.ones(3, 2))


def test_big_grid_dimensions_are_split_into_launches():
    """More than 65535 batches: the grid's z dimension is limited, so bgemm launches twice."""
    a, b = randn(65537, 2, 3, seed=1), randn(65537, 3, 1, seed=2)
    got = torch.bmm(a.cuda(), b.cuda()).cpu()
    np.testing.assert_allclose(got.numpy(), torch.bmm(a, b).numpy(), rtol=1e-5, atol=1e-5)
