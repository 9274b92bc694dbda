# test/th/test_legacy_storage.py - torch.FloatStorage ... torch.BoolStorage: the classes
# torch/csrc/generic/Storage.cpp makes once per type over the TH functions (aten/src/TH).
# Guide: docs/source/internals/finding_thstorage.rst.
import os

import pytest
import torch

ALL = [
    (torch.ByteStorage, torch.uint8, 1), (torch.CharStorage, torch.int8, 1),
    (torch.ShortStorage, torch.int16, 2), (torch.IntStorage, torch.int32, 4),
    (torch.LongStorage, torch.int64, 8), (torch.FloatStorage, torch.float32, 4),
    (torch.DoubleStorage, torch.float64, 8), (torch.HalfStorage, torch.float16, 2),
    (torch.BoolStorage, torch.bool, 1),
]
TENSOR_TYPES = {
    torch.ByteStorage: torch.ByteTensor, torch.CharStorage: torch.CharTensor, torch.ShortStorage: torch.ShortTensor,
    torch.IntStorage: torch.IntTensor, torch.LongStorage: torch.LongTensor, torch.FloatStorage: torch.FloatTensor,
    torch.DoubleStorage: torch.DoubleTensor, torch.HalfStorage: torch.HalfTensor, torch.BoolStorage: torch.BoolTensor,
}


@pytest.mark.parametrize("cls,dtype,itemsize", ALL, ids=lambda x: getattr(x, "__name__", str(x)))
def test_each_type_has_its_own_class_over_its_own_c_base(cls, dtype, itemsize):
    assert cls.__module__ == "torch"
    assert torch.typename(cls) == f"torch.{cls.__name__}"
    assert issubclass(cls, getattr(torch._C, cls.__name__ + "Base"))
    s = cls(5)
    assert len(s) == 5 and s.size() == 5
    assert s.element_size() == itemsize
    assert s.nbytes() == 5 * itemsize
    assert s.dtype == dtype
    assert s.device == torch.device("cpu")


def test_new_without_arguments_is_empty():
    s = torch.DoubleStorage()
    assert len(s) == 0 and s.tolist() == []


def test_from_sequence_converts_to_the_element_type():
    assert torch.FloatStorage([1, 2.5, True]).tolist() == [1.0, 2.5, 1.0]
    assert torch.IntStorage([1, 2.7, -3.9]).tolist() == [1, 2, -3]  # truncation, as a C cast
    assert torch.ByteStorage([1, 255, -1]).tolist() == [1, 255, 255]  # -1 wraps, as two's complement
    assert torch.BoolStorage([0, 2, 0.0, 0.5]).tolist() == [False, True, False, True]
    assert torch.HalfStorage([1.5, 65504.0]).tolist() == [1.5, 65504.0]
    assert torch.LongStorage((2**40, -1)).tolist() == [2**40, -1]


def test_elements_come_back_as_python_numbers_of_the_right_kind():
    assert type(torch.FloatStorage([1])[0]) is float
    assert type(torch.LongStorage([1])[0]) is int
    assert type(torch.BoolStorage([1])[0]) is bool


def test_indexing_get_set_and_negative_indices():
    s = torch.FloatStorage(4).fill_(0)
    s[1] = 2.5
    s[-1] = 7
    assert s[1] == 2.5 and s[3] == 7.0 and s[-3] == 2.5
    assert list(s) == [0.0, 2.5, 0.0, 7.0]


@pytest.mark.parametrize("index", [4, 10, -5])
def test_index_out_of_range_is_an_index_error(index):
    s = torch.FloatStorage(4)
    with pytest.raises(IndexError, match=f"^index {index} out of range for storage of size 4$"):
        s[index]
    with pytest.raises(IndexError, match=f"index {index} out of range for storage of size 4"):
        s[index] = 1.0


def test_wrong_types_are_type_errors():
    s = torch.FloatStorage(2)
    with pytest.raises(TypeError, match="can't assign a str to a torch.FloatStorage"):
        s[0] = "a"
    with pytest.raises(TypeError, match="can't index a torch.FloatStorage with str"):
        s["a"]
    with pytest.raises(TypeError, match="invalid combination of arguments - got \\(str\\)"):
        torch.FloatStorage("abc")
    with pytest.raises(TypeError, match="one of the items was of type str"):
        torch.IntStorage([1, "x"])
    with pytest.raises(TypeError, match="unexpected keyword argument 'device'"):
        torch.FloatStorage(2, device="cpu")
    with pytest.raises(RuntimeError, match="size must be non-negative, got -1"):
        torch.FloatStorage(-1)


def test_fill_sets_every_element():
    assert torch.ShortStorage(3).fill_(-2).tolist() == [-2, -2, -2]
    assert torch.DoubleStorage(2).fill_(0.5).tolist() == [0.5, 0.5]


def test_copy_converts_between_element_types_as_legacy_pytorch_did():
    # PyTorch 2.x copies bytes here; legacy PyTorch (and this tree) converted each element
    # with THStorage_(copy<Type>).
    f = torch.FloatStorage([1.5, -2.7, 0.0])
    i = torch.IntStorage(3).copy_(f)
    assert i.tolist() == [1, -2, 0]
    assert torch.BoolStorage(3).copy_(f).tolist() == [True, True, False]
    assert torch.DoubleStorage(3).copy_(i).tolist() == [1.0, -2.0, 0.0]
    assert torch.HalfStorage(3).copy_(f).tolist() == [1.5, pytest.approx(-2.7, abs=1e-3), 0.0]
    assert torch.ByteStorage(1).copy_(torch.LongStorage([258])).tolist() == [2]


@pytest.mark.parametrize("src_cls", [c for c, _, _ in ALL], ids=lambda c: c.__name__)
@pytest.mark.parametrize("dst_cls", [c for c, _, _ in ALL], ids=lambda c: c.__name__)
def test_copy_works_between_every_pair_of_types(src_cls, dst_cls):
    src = src_cls([0, 1, 1])
    dst = dst_cls(3).copy_(src)
    assert [bool(x) for x in dst.tolist()] == [False, True, True]
    assert [float(x) for x in dst.tolist()] == [0.0, 1.0, 1.0]


def test_copy_size_mismatch_and_wrong_source():
    with pytest.raises(RuntimeError, match="invalid argument 2: size mismatch: self has 2 elements but src has 3"):
        torch.FloatStorage(2).copy_(torch.DoubleStorage(3))
    with pytest.raises(TypeError, match="expected a typed storage"):
        torch.FloatStorage(2).copy_([1, 2])


def test_data_ptr_is_the_storage_memory_and_views_share_it():
    base = torch.FloatStorage([0, 1, 2, 3, 4])
    view = torch.FloatStorage(base, 1, 3)  # a region of an existing storage
    assert view.tolist() == [1.0, 2.0, 3.0]
    assert view.data_ptr() == base.data_ptr() + 1 * 4
    view[0] = 10
    assert base[1] == 10.0
    assert torch.FloatStorage(base, 2).tolist() == [2.0, 3.0, 4.0]
    sliced = base[3:]
    assert type(sliced) is torch.FloatStorage and sliced.data_ptr() == base.data_ptr() + 12
    with pytest.raises(RuntimeError, match="does not fit"):
        torch.FloatStorage(base, 3, 5)


def test_a_view_keeps_its_base_alive():
    base = torch.IntStorage([7, 8, 9])
    count = torch._C._storage_Use_Count(base._cdata)
    view = torch.IntStorage(base, 1, 2)
    assert torch._C._storage_Use_Count(base._cdata) == count + 1
    del base
    assert view.tolist() == [8, 9]


def test_the_python_object_holds_one_reference_to_the_storage_impl():
    s = torch.FloatStorage(3)
    assert torch._C._storage_Use_Count(s._cdata) == 1
    u = s.untyped()
    assert torch._C._storage_Use_Count(s._cdata) == 2
    assert u.nbytes() == 12 and u.data_ptr() == s.data_ptr()
    del u
    assert torch._C._storage_Use_Count(s._cdata) == 1


def test_resize_keeps_the_prefix():
    s = torch.LongStorage([1, 2])
    s.resize_(4)
    assert len(s) == 4 and s.tolist()[:2] == [1, 2]
    s.resize_(1)
    assert s.tolist() == [1]


def test_repr_and_clone():
    s = torch.IntStorage([1, 2])
    assert repr(s) == " 1\n 2\n[torch.IntStorage of size 2]"
    c = s.clone()
    c[0] = 5
    assert s[0] == 1 and type(c) is torch.IntStorage


# ---- file-backed storages: from_file through THMapAllocator ----

def write_floats(path, values):
    torch.FloatStorage.from_file(str(path), True, len(values)).copy_(torch.FloatStorage(values))


def test_from_file_shared_writes_through_to_the_file(tmp_path):
    path = tmp_path / "data.bin"
    s = torch.FloatStorage.from_file(str(path), True, 4)  # creates the file
    assert type(s) is torch.FloatStorage
    assert os.path.getsize(path) == 16
    s.copy_(torch.FloatStorage([1, 2, 3, 4]))
    assert s.is_shared() and not s.resizable()
    del s
    again = torch.FloatStorage.from_file(str(path), False, 4)
    assert again.tolist() == [1.0, 2.0, 3.0, 4.0]
    # Another mapping of the same file sees writes at once (one page cache).
    a = torch.FloatStorage.from_file(str(path), True, 4)
    b = torch.FloatStorage.from_file(str(path), True, 4)
    a[2] = 30
    assert b[2] == 30.0


def test_from_file_private_is_copy_on_write(tmp_path):
    path = tmp_path / "data.bin"
    write_floats(path, [1, 2, 3])
    s = torch.FloatStorage.from_file(str(path), False, 3)
    s[0] = 100
    assert s[0] == 100.0
    assert torch.FloatStorage.from_file(str(path), False, 3).tolist() == [1.0, 2.0, 3.0]


def test_from_file_size_zero_maps_the_whole_file_and_other_types_read_the_same_bytes(tmp_path):
    path = tmp_path / "data.bin"
    write_floats(path, [1, 2, 3, 4])
    assert len(torch.FloatStorage.from_file(str(path), False, 0)) == 4
    assert len(torch.DoubleStorage.from_file(str(path), False)) == 2
    ints = torch.IntStorage.from_file(str(path), False, 1)
    assert ints[0] == 1065353216  # the bits of 1.0f


def test_from_file_errors(tmp_path):
    missing = tmp_path / "missing.bin"
    with pytest.raises(RuntimeError, match=f"unable to open file <{missing}> in read-only mode: "
                                           "No such file or directory \\(2\\)"):
        torch.FloatStorage.from_file(str(missing), False, 4)
    small = tmp_path / "small.bin"
    write_floats(small, [1])
    with pytest.raises(RuntimeError, match="is smaller than the required mapping size <16>"):
        torch.FloatStorage.from_file(str(small), False, 4)
    with pytest.raises(RuntimeError, match="size must be non-negative"):
        torch.FloatStorage.from_file(str(small), False, -1)


def test_storage_outlives_the_file_name(tmp_path):
    path = tmp_path / "data.bin"
    write_floats(path, [5, 6])
    s = torch.FloatStorage.from_file(str(path), True, 2)
    os.unlink(path)
    assert s.tolist() == [5.0, 6.0]


# ---- torch.FloatTensor(storage) and the other legacy tensor type names ----

def test_legacy_tensor_from_storage_shares_memory():
    s = torch.FloatStorage([1, 2, 3])
    t = torch.FloatTensor(s)
    assert isinstance(t, torch.Tensor) and isinstance(t, torch.FloatTensor)
    assert t.dtype == torch.float32 and t.shape == (3,)
    assert t.data_ptr() == s.data_ptr()
    t[0] = 9
    assert s[0] == 9.0
    s[2] = -1
    assert t.tolist() == [9.0, 2.0, -1.0]
    del s
    assert t.tolist() == [9.0, 2.0, -1.0]  # the tensor holds the storage


@pytest.mark.parametrize("cls,dtype,itemsize", ALL, ids=lambda x: getattr(x, "__name__", str(x)))
def test_every_legacy_tensor_type_views_its_storage(cls, dtype, itemsize):
    s = cls([0, 1])
    t = TENSOR_TYPES[cls](s)
    assert t.dtype == dtype and t.data_ptr() == s.data_ptr()
    assert isinstance(t, TENSOR_TYPES[cls])
    assert not isinstance(t, torch.FloatTensor if cls is not torch.FloatStorage else torch.DoubleTensor)


def test_legacy_tensor_types_other_constructors_and_errors():
    assert torch.DoubleTensor(2, 3).shape == (2, 3)
    assert torch.DoubleTensor(2, 3).dtype == torch.float64
    assert torch.LongTensor([1, 2]).tolist() == [1, 2]
    assert torch.LongTensor([1, 2]).dtype == torch.int64
    with pytest.raises(TypeError, match="expected torch.FloatStorage"):
        torch.FloatTensor(torch.DoubleStorage(2))
    assert repr(torch.FloatTensor) == "<class 'torch.FloatTensor'>"


def test_file_backed_tensor_writes_through(tmp_path):
    path = tmp_path / "t.bin"
    t = torch.FloatTensor(torch.FloatStorage.from_file(str(path), True, 3))
    t.fill_(4.0)
    del t
    assert torch.FloatStorage.from_file(str(path), False, 0).tolist() == [4.0, 4.0, 4.0]


# ---- sizes and values that do not fit ----

@pytest.mark.parametrize("call", [
    lambda: torch.FloatStorage(2**62),
    lambda: torch.FloatStorage(2).resize_(2**62),
    lambda: torch.FloatStorage(2**64),
])
def test_a_size_whose_byte_count_overflows_is_refused(call):
    # 2**62 floats are 2**64 bytes: wrapped around, that was a 0-byte storage.
    with pytest.raises(ValueError, match="^Overflow when unpacking long long$"):
        call()


def test_a_view_past_the_end_of_its_base_is_refused():
    base = torch.FloatStorage(4)
    with pytest.raises(RuntimeError, match="does not fit in a storage of size 4"):
        torch.FloatStorage(base, 1, 2**63 - 1)
    assert len(torch.FloatStorage(base, 1, 3)) == 3


def test_setting_an_element_checks_its_range():
    s = torch.ByteStorage(2)
    with pytest.raises(RuntimeError, match="^value cannot be converted to type uint8_t without overflow$"):
        s[0] = 300
    s[0] = -1
    assert s[0] == 255
    with pytest.raises(RuntimeError, match="^value cannot be converted to type float without overflow$"):
        torch.FloatStorage(1).fill_(1e308)


def test_from_file_refuses_a_name_with_a_nul_byte(tmp_path):
    with pytest.raises(ValueError, match="^embedded null character$"):
        torch.FloatStorage.from_file(str(tmp_path / "f") + "\x00b", True, 10)
