# test/aten/test_factories.py - torch.empty/zeros/ones/full/tensor/as_tensor/from_numpy and Tensor.numpy():
# values, dtypes, shapes and strides against numpy; memory sharing both ways; PyTorch's errors.
# Guide: docs/source/internals/python_bindings.rst (torch/csrc/utils/tensor_new.cpp, tensor_numpy.cpp).
import warnings

import numpy as np
import pytest

import torch


@pytest.mark.parametrize("shape", [(2, 3), (4,), (), (2, 0, 3), (1, 2, 3, 4)])
def test_zeros_ones_full_match_numpy(shape):
    for t, a in [(torch.zeros(shape), np.zeros(shape, np.float32)), (torch.ones(shape), np.ones(shape, np.float32)),
                 (torch.full(shape, 7.5), np.full(shape, 7.5, np.float32))]:
        assert t.dtype == torch.float32 and t.shape == a.shape
        assert np.array_equal(t.numpy(), a)


def test_factory_keywords():
    t = torch.zeros(2, 3, dtype=torch.int32)
    assert t.dtype == torch.int32 and t.tolist() == [[0, 0, 0], [0, 0, 0]]
    assert torch.ones(2, dtype=torch.float64).numpy().dtype == np.float64
    assert torch.empty(2, 3).shape == (2, 3) and torch.empty(2, 3).stride() == (3, 1)
    assert torch.full((2,), True).dtype == torch.bool
    assert torch.zeros(2, 3, device="meta").is_meta


def test_empty_strided_keeps_the_strides():
    t = torch.empty_strided((2, 3), (1, 2))
    assert t.stride() == (1, 2) and not t.is_contiguous()


@pytest.mark.parametrize("data, dtype", [
    ([True, False], torch.bool), ([1, 2], torch.int64), ([1, 2.5], torch.float32), ([[1.0]], torch.float32),
    ([1j, 2], torch.complex64), ([], torch.float32), (3, torch.int64), (2.5, torch.float32), (True, torch.bool),
    ([True, 2], torch.int64), ([np.float64(1.5)], torch.float64),
])
def test_tensor_infers_dtype_like_pytorch(data, dtype):
    t = torch.tensor(data)
    assert t.dtype == dtype
    assert t.tolist() == (data if not isinstance(data, list) or not data or not isinstance(data[0], np.generic)
                          else [float(x) for x in data])


def test_tensor_float_follows_the_default_dtype():
    try:
        torch.set_default_dtype(torch.float64)
        assert torch.tensor([1.5]).dtype == torch.float64 and torch.tensor([1j]).dtype == torch.complex128
    finally:
        torch.set_default_dtype(torch.float32)


def test_tensor_values_shapes_and_strides_match_numpy():
    data = [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]
    t, a = torch.tensor(data), np.array(data)
    assert t.shape == a.shape and t.stride() == tuple(s // 8 for s in a.strides)
    assert np.array_equal(t.numpy(), a)
    assert torch.tensor(data, dtype=torch.float64).tolist() == a.astype(np.float64).tolist()
    assert torch.tensor([1.7, -2.2], dtype=torch.int64).tolist() == [1, -2]


def test_tensor_copies_its_data():
    a = np.arange(3)
    t = torch.tensor(a)
    a[0] = 100
    assert t.tolist() == [0, 1, 2]
    u = torch.tensor(t)
    assert u is not t and u.data_ptr() != t.data_ptr()


def test_tensor_from_numpy_array_and_nested_tensors():
    assert torch.tensor(np.arange(4, dtype=np.int32)).dtype == torch.int32
    assert torch.tensor(np.arange(6.0).reshape(2, 3)[:, ::2]).tolist() == [[0.0, 2.0], [3.0, 5.0]]
    assert torch.tensor([torch.tensor(1), torch.tensor(2)]).tolist() == [1, 2]


def test_tensor_errors_match_pytorch():
    with pytest.raises(ValueError, match=r"^expected sequence of length 3 at dim 1 \(got 2\)$"):
        torch.tensor([[1, 2, 3], [4, 5]])
    with pytest.raises(ValueError, match=r"^expected sequence of length 1 at dim 1 \(got 2\)$"):
        torch.tensor([[1], [2, 3]])
    with pytest.raises(TypeError, match=r"^new\(\): invalid data type 'str'$"):
        torch.tensor([1, "a"])
    with pytest.raises(TypeError, match=r"^new\(\): invalid data type 'str'$"):
        torch.tensor("a")
    with pytest.raises(TypeError, match=r"^'list' object cannot be interpreted as an integer$"):
        torch.tensor([1, [2]])


def test_requires_grad_keyword():
    assert torch.tensor([1.0], requires_grad=True).requires_grad
    assert torch.ones(2, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="^Only Tensors of floating point and complex dtype can require gradients$"):
        torch.tensor([1], requires_grad=True)


# ---- from_numpy / numpy: one buffer ----

@pytest.mark.parametrize("np_dtype, dtype", [
    (np.float64, torch.float64), (np.float32, torch.float32), (np.float16, torch.float16), (np.int64, torch.int64),
    (np.int32, torch.int32), (np.int16, torch.int16), (np.int8, torch.int8), (np.uint8, torch.uint8),
    (np.bool_, torch.bool), (np.complex64, torch.complex64), (np.complex128, torch.complex128),
])
def test_from_numpy_dtypes(np_dtype, dtype):
    a = np.zeros((2, 3), dtype=np_dtype)
    t = torch.from_numpy(a)
    assert t.dtype == dtype and t.numpy().dtype == np_dtype


def test_from_numpy_shares_memory_both_ways():
    a = np.arange(6.0).reshape(2, 3)
    t = torch.from_numpy(a)
    assert t.data_ptr() == a.ctypes.data
    a[0, 0] = 42
    assert t.tolist()[0][0] == 42
    t.fill_(-1)
    assert (a == -1).all()
    b = t.numpy()
    assert b.ctypes.data == t.data_ptr()
    b[1, 2] = 5
    assert t.tolist()[1][2] == 5


def test_from_numpy_strides_are_in_elements():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]
    t = torch.from_numpy(a)
    assert t.stride() == (4, 2) and t.tolist() == a.tolist()
    assert torch.from_numpy(np.asfortranarray(np.ones((2, 3)))).stride() == (1, 2)


def test_from_numpy_keeps_the_array_alive():
    t = torch.from_numpy(np.arange(1000, dtype=np.int64))
    import gc

    gc.collect()
    assert t.tolist()[-1] == 999


def test_numpy_keeps_the_tensor_alive():
    a = torch.full((1000,), 3).numpy()
    import gc

    gc.collect()
    assert a[-1] == 3 and a.base is not None


def test_from_numpy_errors_match_pytorch():
    with pytest.raises(TypeError, match=r"^expected np.ndarray \(got list\)$"):
        torch.from_numpy([1])
    with pytest.raises(ValueError, match="At least one stride in the given numpy array is negative"):
        torch.from_numpy(np.arange(6)[::-1])
    with pytest.raises(TypeError, match=r"^can't convert np.ndarray of type numpy.str_. The only supported types are: "
                                        r"float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
                                        r"uint64, uint32, uint16, uint8, and bool.$"):
        torch.from_numpy(np.array(["a"]))


def test_from_numpy_warns_for_read_only_arrays():
    a = np.arange(4)
    a.flags.writeable = False
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        t = torch.from_numpy(a)  # the warning is issued once per process
    assert t.tolist() == [0, 1, 2, 3]


def test_numpy_of_meta_tensor_is_an_error():
    with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
        torch.zeros(2, device="meta").numpy()


# ---- as_tensor ----

def test_as_tensor_shares_when_it_can():
    a = np.arange(3.0)
    t = torch.as_tensor(a)
    a[0] = 9
    assert t.tolist()[0] == 9
    u = torch.ones(2)
    assert torch.as_tensor(u) is u
    c = torch.as_tensor(a, dtype=torch.float32)
    a[1] = 7
    assert c.dtype == torch.float32 and c.tolist()[1] == 1.0
    assert torch.as_tensor([1, 2]).tolist() == [1, 2]


def test_numpy_base_is_another_tensor_on_the_same_storage():
    t = torch.ones(3)
    n = t.numpy()
    assert isinstance(n.base, torch.Tensor) and n.base is not t  # PyTorch passes t.detach()
    assert n.base.data_ptr() == t.data_ptr()
    n[0] = 5
    assert t.tolist() == [5.0, 1.0, 1.0]
