# test/c10/test_storage.py - torch.UntypedStorage: bytes from the device's allocator.
# Mirrors the untyped-storage checks of PyTorch's test/test_torch.py.
# Guide: docs/source/internals/memory.rst.
import ctypes

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st


def test_new_storage_has_the_requested_size():
    s = torch.UntypedStorage(10)
    assert s.nbytes() == 10
    assert len(s) == 10
    assert s.size() == 10
    assert s.element_size() == 1
    assert s.device == torch.device("cpu")
    assert s.resizable()
    assert not s.is_cuda


def test_storage_memory_is_64_byte_aligned():
    for n in (1, 7, 64, 1000, 1 << 20):
        assert torch.UntypedStorage(n).data_ptr() % 64 == 0


def test_empty_storage_has_no_memory():
    s = torch.UntypedStorage()
    assert s.nbytes() == 0
    assert s.data_ptr() == 0
    assert s.tolist() == []


def test_storage_from_sequence_wraps_bytes_modulo_256():
    assert torch.UntypedStorage([1, 2, 3]).tolist() == [1, 2, 3]
    assert torch.UntypedStorage([1, 2, 300, -1]).tolist() == [1, 2, 44, 255]
    assert torch.UntypedStorage((7,)).tolist() == [7]


def test_storage_from_sequence_of_non_ints_is_rejected():
    with pytest.raises(RuntimeError, match="tried to construct a storage from a sequence \\(str\\), but one of "
                                           "the items was of type str instead of int"):
        torch.UntypedStorage("abc")
    with pytest.raises(RuntimeError, match="^torch.UntypedStorage\\(\\): Expected a sequence type, but got float$"):
        torch.UntypedStorage(2.5)


def test_negative_size_is_rejected_by_alloc_cpu():
    with pytest.raises(RuntimeError, match="alloc_cpu\\(\\) seems to have been called with negative number: "
                                           "18446744073709551615"):
        torch.UntypedStorage(-1)


def test_wrong_argument_combination_is_a_type_error():
    with pytest.raises(TypeError, match="received an invalid combination of arguments - got \\(int, int\\)"):
        torch.UntypedStorage(3, 3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'size'"):
        torch.UntypedStorage(size=3)


@pytest.mark.skipif(torch.cuda.is_available(), reason="a GPU is present: the storage is allocated")
def test_cuda_storage_without_a_gpu_raises_pytorchs_error():
    if torch._C._has_cuda:
        # CUDA is built but there is no GPU or no driver (torch.cuda._lazy_init's error).
        with pytest.raises(RuntimeError, match="Found no NVIDIA driver on your system|No CUDA GPUs are available"):
            torch.UntypedStorage(3, device="cuda")
    else:
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            torch.UntypedStorage(3, device="cuda")


def test_storage_on_a_device_type_without_allocator():
    with pytest.raises(RuntimeError, match="Allocator for xla is not set."):
        torch.UntypedStorage(3, device="xla")


def test_meta_storage_has_a_size_and_no_data():
    s = torch.UntypedStorage(3, device="meta")
    assert s.nbytes() == 3
    assert s.data_ptr() == 0
    assert s.device.type == "meta"
    assert str(s) == "...\n[torch.storage.UntypedStorage(device=meta) of size 3]"
    with pytest.raises(NotImplementedError):
        s[0]


def test_indexing_reads_and_writes_bytes():
    s = torch.UntypedStorage([1, 2, 3])
    s[0] = 256
    s[-1] = -1
    assert s.tolist() == [0, 2, 255]
    assert s[1] == 2
    assert s[-3] == 0


@pytest.mark.parametrize("index, shown", [(4, 4), (-5, -1), (100, 100)])
def test_index_out_of_range_is_an_index_error(index, shown):
    s = torch.UntypedStorage(4)
    with pytest.raises(IndexError, match=f"^index {shown} out of range for storage of size 4$"):
        s[index]
    with pytest.raises(IndexError, match=f"^index {shown} out of range for storage of size 4$"):
        s[index] = 1


def test_setting_a_non_int_is_a_type_error():
    s = torch.UntypedStorage(2)
    with pytest.raises(TypeError, match="can only set storage content with a int types, but got float instead"):
        s[0] = 1.5


def test_indexing_with_a_float_is_a_type_error():
    with pytest.raises(TypeError, match="can't index a torch.storage.UntypedStorage with float"):
        torch.UntypedStorage(2)[0.5]


def test_slice_is_a_view_sharing_memory_and_keeping_it_alive():
    s = torch.UntypedStorage([1, 2, 3, 4, 5])
    assert torch._C._storage_Use_Count(s._cdata) == 1
    v = s[1:3]
    assert isinstance(v, torch.UntypedStorage)
    assert v.tolist() == [2, 3]
    assert v.data_ptr() == s.data_ptr() + 1
    assert torch._C._storage_Use_Count(s._cdata) == 2  # the view's DataPtr holds a reference
    v[0] = 9
    assert s.tolist() == [1, 9, 3, 4, 5]
    assert not v.resizable()
    del v
    assert torch._C._storage_Use_Count(s._cdata) == 1


def test_slice_with_a_step_is_rejected():
    with pytest.raises(RuntimeError, match="Trying to slice with a step of 2, but only a step of 1 is supported"):
        torch.UntypedStorage(4)[::2]


def test_slice_assignment_fills():
    s = torch.UntypedStorage([0, 0, 0, 0])
    s[1:3] = 7
    assert s.tolist() == [0, 7, 7, 0]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 255), max_size=40), st.integers(-50, 50), st.integers(-50, 50))
def test_slices_match_python_list_slices(data, start, stop):
    s = torch.UntypedStorage(data)
    assert s[start:stop].tolist() == data[start:stop]


def test_resize_keeps_the_leading_bytes():
    s = torch.UntypedStorage([1, 2, 3])
    old_ptr = s.data_ptr()
    assert s.resize_(5) is s
    assert s.nbytes() == 5
    assert s.tolist()[:3] == [1, 2, 3]
    s.resize_(2)
    assert s.tolist() == [1, 2]
    assert s.data_ptr() != 0 and old_ptr != 0
    s.resize_(0)
    assert s.nbytes() == 0 and s.data_ptr() == 0


def test_resize_to_negative_size_is_rejected_by_alloc_cpu():
    with pytest.raises(RuntimeError, match="seems to have been called with negative number"):
        torch.UntypedStorage(3).resize_(-1)


def test_a_slice_cannot_be_resized():
    s = torch.UntypedStorage(4)
    with pytest.raises(RuntimeError, match="^Trying to resize storage that is not resizable$"):
        s[0:2].resize_(10)


def test_copy_and_fill():
    a = torch.UntypedStorage([1, 2, 3])
    b = torch.UntypedStorage(3).fill_(7)
    assert b.tolist() == [7, 7, 7]
    assert b.copy_(a) is b
    assert b.tolist() == [1, 2, 3]
    assert a.data_ptr() != b.data_ptr()


def test_copy_of_a_different_size_is_rejected():
    with pytest.raises(RuntimeError, match="^size does not match, self was 3 bytes but src was 2 bytes$"):
        torch.UntypedStorage([1, 2, 3]).copy_(torch.UntypedStorage([4, 5]))


def test_clone_copies_and_cpu_is_identity():
    a = torch.UntypedStorage([4, 5, 6])
    c = a.clone()
    assert c.tolist() == [4, 5, 6]
    assert c.data_ptr() != a.data_ptr()
    assert a.cpu() is a


def test_str_matches_pytorch():
    s = torch.UntypedStorage([0, 12, 108])
    assert str(s) == " 0\n 12\n 108\n[torch.storage.UntypedStorage(device=cpu) of size 3]"
    assert repr(s) == str(s)
    assert s.type() == "torch.storage.UntypedStorage"


def test_bytes_are_visible_through_the_raw_pointer():
    s = torch.UntypedStorage([10, 20, 30, 40])
    raw = (ctypes.c_uint8 * 4).from_address(s.data_ptr())
    assert list(raw) == [10, 20, 30, 40]
    raw[2] = 99
    assert s[2] == 99
    assert np.ctypeslib.as_array(raw).sum() == 10 + 20 + 99 + 40


def test_untyped_storage_sizes_beyond_int64_raise_value_error():
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        torch.UntypedStorage(2**63)
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        torch.UntypedStorage(4).resize_(2**64)
