# test/aten/test_python_tensor.py - torch.Tensor over torch._C.TensorBase: one Python object per
# TensorImpl, metadata read from C++, torch.Size.
# Guide: docs/source/internals/python_bindings.rst (torch/csrc/autograd/python_variable.cpp).
import gc
import pickle

import numpy as np
import pytest

import torch


def test_inplace_method_returns_the_same_object():
    t = torch.zeros(3)
    assert t.fill_(2) is t
    assert t.zero_() is t
    assert torch.fill_(t, 1) is t


def test_attributes_survive_a_round_trip_through_cpp():
    t = torch.zeros(2)
    t.note = "kept"
    assert t.fill_(1).note == "kept"


def test_tensors_made_in_cpp_are_torch_tensor():
    t = torch.ones(2)
    assert type(t) is torch.Tensor
    assert isinstance(t, torch._C.TensorBase)
    assert repr(type(t)) == "<class 'torch.Tensor'>"


def test_dead_python_object_releases_the_slot():
    t = torch.zeros(2)
    del t
    gc.collect()
    assert torch.zeros(2).fill_(1).tolist() == [1.0, 1.0]


def test_tensor_base_cannot_be_constructed_directly():
    with pytest.raises(TypeError, match="Cannot directly construct TensorBase"):
        torch._C.TensorBase()


@pytest.mark.parametrize("shape, dtype", [((2, 3), torch.float32), ((4,), torch.int64), ((), torch.float64),
                                          ((2, 0, 3), torch.int8), ((1, 2, 3, 4), torch.bool)])
def test_metadata_matches_numpy(shape, dtype):
    t = torch.zeros(shape, dtype=dtype)
    a = t.numpy()
    assert t.shape == a.shape and t.size() == a.shape
    if t.numel() > 0:  # numpy gives empty arrays zero strides (so does PyTorch's numpy())
        assert t.stride() == tuple(s // a.itemsize for s in a.strides)
    assert t.dim() == t.ndim == a.ndim
    assert t.numel() == t.nelement() == a.size
    assert t.element_size() == t.itemsize == a.itemsize
    assert t.nbytes == a.nbytes
    assert t.is_contiguous() and t.storage_offset() == 0
    assert t.dtype is dtype
    for d in range(len(shape)):
        assert t.size(d) == shape[d] and t.size(d - len(shape)) == shape[d]
        assert t.stride(d) == t.stride()[d]


def test_size_and_stride_dim_out_of_range_raise_index_error():
    t = torch.ones(2)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 5\)"):
        t.size(5)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got 3\)"):
        t.stride(3)


def test_device_properties():
    t = torch.zeros(1)
    assert t.device == torch.device("cpu") and t.is_cpu and not t.is_cuda and not t.is_meta
    m = torch.zeros(2, device="meta")
    assert m.is_meta and m.device.type == "meta" and m.data_ptr() == 0
    assert t.get_device() == -1


def test_data_ptr_and_untyped_storage_share_the_storage_impl():
    t = torch.zeros(4, dtype=torch.float64)
    s = t.untyped_storage()
    assert isinstance(s, torch.UntypedStorage)
    assert s.data_ptr() == t.data_ptr() and s.nbytes() == 32
    t.fill_(1)
    assert list(s)[:8] == list(np.float64(1).tobytes())
    # one StorageImpl, two owners: the tensor and the storage object
    assert torch._C._storage_Use_Count(s._cdata) >= 2


def test_version_counter_starts_at_zero():
    # (the in-place kernels bump it once the ADInplaceOrView layer exists)
    assert torch.zeros(2)._version == 0


def test_requires_grad_only_for_floating_point():
    t = torch.zeros(2, requires_grad=True)
    assert t.requires_grad
    t.requires_grad = False
    assert not t.requires_grad
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        torch.zeros(2, dtype=torch.int64).requires_grad_()
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        torch.zeros(2, requires_grad=True).numpy()


def test_item_and_tolist():
    assert torch.tensor(2.5).item() == 2.5 and isinstance(torch.tensor(3).item(), int)
    assert torch.tensor(True).item() is True
    assert torch.tensor(1 + 2j).item() == 1 + 2j
    assert torch.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert torch.tensor(5).tolist() == 5
    with pytest.raises(RuntimeError, match="a Tensor with 6 elements cannot be converted to Scalar"):
        torch.ones(2, 3).item()


def test_python_protocols():
    t = torch.tensor([[1, 2], [3, 4]])
    assert len(t) == 2
    assert [row.tolist() for row in t] == [[1, 2], [3, 4]]
    assert float(torch.tensor(2.5)) == 2.5 and int(torch.tensor(7)) == 7
    assert np.array(t).tolist() == [[1, 2], [3, 4]]
    assert t.type() == "torch.LongTensor"
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(torch.tensor(1))
    assert pickle.loads(pickle.dumps(t)).tolist() == [[1, 2], [3, 4]]


# ---- torch.Size ----

def test_size_is_a_tuple_that_prints_as_torch_size():
    s = torch.zeros(2, 3).shape
    assert isinstance(s, tuple) and type(s) is torch.Size
    assert repr(s) == "torch.Size([2, 3])" and str(torch.Size([])) == "torch.Size([])"
    assert s == (2, 3) and s[0] == 2 and tuple(s) == (2, 3)
    assert type(s[1:]) is torch.Size and s[1:] == (3,)
    assert type(s + (4,)) is torch.Size
    assert s.numel() == 6
    assert pickle.loads(pickle.dumps(s)) == s
    with pytest.raises(TypeError, match="torch.Size\\(\\) takes an iterable of 'int' \\(item 1 is 'float'\\)"):
        torch.Size([1, 2.5])
