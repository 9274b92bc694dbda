# test/aten/test_linalg_module.py - torch.linalg over torch._C._linalg (python_module: linalg).
# Mirrors checks of PyTorch's test/test_linalg.py. Guide: docs/source/internals/python_bindings.rst.
import numpy as np
import pytest
import torch

X = np.array([[3.0, 4.0], [1.0, 2.0]], dtype=np.float32)


def test_vector_norm_matches_numpy():
    x = torch.from_numpy(X.copy())
    np.testing.assert_allclose(torch.linalg.vector_norm(x).item(), np.linalg.norm(X.ravel()), rtol=1e-6)
    np.testing.assert_allclose(torch.linalg.vector_norm(x, 1, 1).numpy(), np.abs(X).sum(1), rtol=1e-6)
    np.testing.assert_allclose(torch.linalg.norm(x, 3, 1).numpy(), (np.abs(X) ** 3).sum(1) ** (1 / 3), rtol=1e-6)
    assert torch._C._linalg.linalg_vector_norm(x).dtype == torch.float32


def test_matrix_norms_and_svdvals_match_numpy():
    x = torch.from_numpy(X.copy())
    np.testing.assert_allclose(torch.linalg.svdvals(x).numpy(), np.linalg.svd(X, compute_uv=False), rtol=1e-5)
    np.testing.assert_allclose(torch.linalg.norm(x, "nuc").item(), np.linalg.norm(X, "nuc"), rtol=1e-5)
    np.testing.assert_allclose(torch.linalg.matrix_norm(x).item(), np.linalg.norm(X, "fro"), rtol=1e-6)


def test_linalg_errors_name_the_module():
    with pytest.raises(TypeError, match=r"^linalg_vector_norm\(\): argument 'input' \(position 1\) must be Tensor, not str$"):
        torch._C._linalg.linalg_vector_norm("x")
