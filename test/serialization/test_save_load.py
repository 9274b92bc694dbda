# test/serialization/test_save_load.py - torch.save / torch.load round trips: dtypes, shapes,
# views that share a storage, containers, paths and buffers, map_location, errors.
# Mirrors the round-trip half of PyTorch's test/test_serialization.py.
# Guide: docs/source/internals/saving_loading.rst
import io
import pathlib
import pickle
import zipfile

import pytest

import torch


def round_trip(obj, **load_kwargs):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **load_kwargs)


DTYPE_VALUES = [
    (torch.float32, [1.5, -2.25, 3.0]),
    (torch.float64, [1e-300, 2.5]),
    (torch.float16, [0.5, -1.0, 65504.0]),
    (torch.bfloat16, [1.0, -3.5]),
    (torch.int64, [2**40, -7]),
    (torch.int32, [1, -2]),
    (torch.int16, [-300, 300]),
    (torch.int8, [-128, 127]),
    (torch.uint8, [0, 255]),
    (torch.bool, [True, False, True]),
    (torch.complex64, [1 + 2j, -3.5j]),
    (torch.complex128, [0.25 - 1j]),
]


@pytest.mark.parametrize("dtype,values", DTYPE_VALUES, ids=[str(d) for d, _ in DTYPE_VALUES])
def test_round_trip_keeps_dtype_and_values(dtype, values):
    t = torch.tensor(values, dtype=dtype)
    out = round_trip(t)
    assert out.dtype == dtype and out.shape == t.shape
    assert out.tolist() == t.tolist()


def test_zero_dim_and_empty_tensors_round_trip():
    out = round_trip([torch.tensor(7.0), torch.zeros(0, 3), torch.tensor(True)])
    assert out[0].dim() == 0 and out[0].item() == 7.0
    assert out[1].shape == (0, 3)
    assert out[2].dim() == 0 and out[2].item() is True


def test_non_contiguous_tensor_keeps_its_strides_and_offset():
    base = torch.arange(24.0).reshape(4, 6)
    t = base[1:, ::2].t()
    out = round_trip(t)
    assert out.stride() == t.stride() and out.storage_offset() == t.storage_offset()
    assert out.tolist() == t.tolist()
    assert not out.is_contiguous()


def test_views_of_one_storage_load_sharing_one_storage():
    base = torch.arange(12.0).reshape(3, 4)
    out = round_trip({"base": base, "row": base[1], "col": base[:, 2], "t": base.t()})
    cdata = out["base"].untyped_storage()._cdata
    assert all(v.untyped_storage()._cdata == cdata for v in out.values())
    out["row"][2] = 100.0  # a write through one view is seen through the others
    assert out["base"][1, 2].item() == 100.0 and out["col"][1].item() == 100.0 and out["t"][2, 1].item() == 100.0


def test_views_of_one_storage_are_written_once():
    base = torch.arange(12.0)
    buf = io.BytesIO()
    torch.save([base, base[2:5], base.view(3, 4)], buf)
    names = zipfile.ZipFile(buf).namelist()
    assert [n for n in names if "/data/" in n] == ["archive/data/0"]
    assert zipfile.ZipFile(buf).read("archive/data/0") == bytes(base.numpy().tobytes())


def test_loaded_tensor_is_a_leaf_that_keeps_requires_grad():
    w = torch.ones(2, requires_grad=True)
    out = round_trip({"w": w, "y": (w * 2)})
    assert out["w"].requires_grad and out["w"].is_leaf and out["w"].grad_fn is None
    assert out["y"].requires_grad and out["y"].is_leaf
    assert not out["w"]._is_view() and out["w"]._base is None


def test_nested_containers_of_python_values_round_trip():
    obj = {"step": 3, "lr": 0.5, "betas": (0.9, 0.999), "name": "adam", "flag": None,
           "params": [0, 1], "inner": {"t": torch.tensor([1, 2]), "list": [torch.tensor(1.0), 2]}}
    out = round_trip(obj)
    assert out["step"] == 3 and out["lr"] == 0.5 and out["betas"] == (0.9, 0.999)
    assert out["name"] == "adam" and out["flag"] is None and out["params"] == [0, 1]
    assert out["inner"]["t"].tolist() == [1, 2] and out["inner"]["list"][0].item() == 1.0


def test_tensor_attributes_set_from_python_round_trip():
    t = torch.tensor([1.0, 2.0])
    t.note = "kept"
    out = round_trip(t)
    assert out.note == "kept" and out.tolist() == [1.0, 2.0]


def test_untyped_storage_round_trips():
    s = torch.tensor([1, 2, 3], dtype=torch.uint8).untyped_storage()
    out = round_trip(s, weights_only=False)
    assert out.dtype == torch.uint8 and out.tolist() == [1, 2, 3]


def test_plain_pickle_of_a_tensor_goes_through_torch_save():
    t = torch.arange(6).reshape(2, 3)[:, 1]
    out = pickle.loads(pickle.dumps(t))
    assert out.tolist() == [1, 4] and out.stride() == (3,)


# ---- paths, buffers and the file's layout ----

def test_save_to_a_path_names_the_archive_after_the_file(tmp_path):
    path = tmp_path / "my.model.pt"
    torch.save({"a": torch.ones(2)}, path)
    names = zipfile.ZipFile(path).namelist()
    assert names[0] == "my.model/data.pkl"
    assert torch.load(str(path))["a"].tolist() == [1.0, 1.0]
    assert torch.load(pathlib.Path(path))["a"].tolist() == [1.0, 1.0]


def test_save_to_an_open_file_and_load_from_one(tmp_path):
    path = tmp_path / "t.pt"
    with open(path, "wb") as f:
        torch.save(torch.tensor([3, 4]), f)
    with open(path, "rb") as f:
        assert torch.load(f).tolist() == [3, 4]


def test_file_holds_pytorchs_records_in_pytorchs_order():
    buf = io.BytesIO()
    torch.save({"a": torch.ones(3), "b": torch.zeros(2, dtype=torch.int64)}, buf)
    z = zipfile.ZipFile(buf)
    assert z.namelist() == ["archive/data.pkl", "archive/.format_version", "archive/.storage_alignment",
                            "archive/byteorder", "archive/data/0", "archive/data/1", "archive/version",
                            "archive/.data/serialization_id"]
    assert z.read("archive/version") == b"3\n"
    assert z.read("archive/.format_version") == b"1"
    assert z.read("archive/.storage_alignment") == b"64"
    assert z.read("archive/byteorder") == b"little"
    sid = z.read("archive/.data/serialization_id")
    assert len(sid) == 40 and sid.isdigit()
    assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())


def test_every_record_starts_at_a_multiple_of_64():
    buf = io.BytesIO()
    torch.save([torch.ones(n) for n in range(1, 6)], buf)
    raw = buf.getvalue()
    for info in zipfile.ZipFile(buf).infolist():
        name_len = int.from_bytes(raw[info.header_offset + 26:info.header_offset + 28], "little")
        extra_len = int.from_bytes(raw[info.header_offset + 28:info.header_offset + 30], "little")
        assert (info.header_offset + 30 + name_len + extra_len) % 64 == 0, info.filename
        assert raw[info.header_offset + 30 + name_len:][:2] == b"FB"


def test_pickle_names_storages_by_their_legacy_class():
    buf = io.BytesIO()
    torch.save(torch.tensor([1.0]), buf)
    pkl = zipfile.ZipFile(buf).read("archive/data.pkl")
    assert b"torch._utils\n_rebuild_tensor_v2" in pkl and b"torch\nFloatStorage" in pkl
    assert pkl[:2] == b"\x80\x02"  # pickle protocol 2, as PyTorch writes


def test_mmap_loads_records_in_place(tmp_path):
    path = tmp_path / "m.pt"
    torch.save({"f": torch.tensor([1.5, 2.5]), "i": torch.tensor([7, 8, 9])}, path)
    out = torch.load(path, mmap=True)
    assert out["f"].tolist() == [1.5, 2.5] and out["i"].tolist() == [7, 8, 9]
    with pytest.raises(ValueError, match="f must be a file path in order to use the mmap argument"):
        torch.load(io.BytesIO(path.read_bytes()), mmap=True)


# ---- map_location ----

@pytest.mark.parametrize("map_location", ["cpu", torch.device("cpu"), {"cpu": "cpu"}], ids=["str", "device", "dict"])
def test_map_location_to_cpu(map_location):
    out = round_trip(torch.tensor([1.0, 2.0]), map_location=map_location)
    assert out.device.type == "cpu" and out.tolist() == [1.0, 2.0]


def test_map_location_callable_gets_each_storage_and_its_location():
    seen = []

    def keep(storage, location):
        seen.append((type(storage), location))
        return storage

    base = torch.arange(4.0)
    out = round_trip([base, base[1:], torch.tensor([1])], map_location=keep)
    assert seen == [(torch.UntypedStorage, "cpu"), (torch.UntypedStorage, "cpu")]  # one call per storage
    assert out[1].tolist() == [1.0, 2.0, 3.0]
    assert round_trip(torch.ones(1), map_location=lambda s, loc: None).tolist() == [1.0]


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the error on a machine without a GPU")
def test_map_location_cuda_without_a_gpu_raises_pytorchs_error():
    with pytest.raises(RuntimeError) as info:
        round_trip(torch.ones(2), map_location="cuda")
    assert str(info.value) == (
        "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
        "If you are running on a CPU-only machine, please use torch.load with "
        "map_location=torch.device('cpu') to map your storages to the CPU.")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_cuda_tensors_save_and_load_on_cuda():
    t = torch.arange(6.0).reshape(2, 3).to("cuda")
    out = round_trip({"t": t, "col": t[:, 1]})
    assert out["t"].device.type == "cuda" and out["t"].cpu().tolist() == t.cpu().tolist()
    assert out["col"].untyped_storage()._cdata == out["t"].untyped_storage()._cdata
    assert round_trip(t, map_location="cpu").device.type == "cpu"
    assert round_trip(torch.ones(2), map_location="cuda:0").device.type == "cuda"


# ---- errors ----

def test_save_to_something_without_write_raises():
    with pytest.raises(AttributeError, match="expected 'f' to be string, path, or a file-like object with a 'write' attribute"):
        torch.save(torch.ones(1), 3)


def test_save_views_of_one_storage_as_different_dtypes_raises():
    a = torch.zeros(4)
    with pytest.raises(RuntimeError, match="Cannot save multiple tensors or storages that view the same data as different types"):
        torch.save([a, a.view(torch.int32)], io.BytesIO())


def test_load_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        torch.load(tmp_path / "nothing.pt")


def test_load_empty_file_raises_eof():
    with pytest.raises(EOFError):
        torch.load(io.BytesIO(b""))


def test_load_of_something_not_a_zip_raises():
    # Read as the legacy format, whose first pickle fails (PyTorch's UnpicklingError).
    with pytest.raises(pickle.UnpicklingError, match="Unsupported operand 110"):
        torch.load(io.BytesIO(b"not a checkpoint"))
    with pytest.raises(pickle.UnpicklingError, match="^invalid load key, 'n'.$"):
        torch.load(io.BytesIO(b"not a checkpoint"), weights_only=False)


def test_legacy_format_is_refused_when_saving():
    with pytest.raises(NotImplementedError, match="_use_new_zipfile_serialization=False"):
        torch.save(torch.ones(1), io.BytesIO(), _use_new_zipfile_serialization=False)


def test_parameter_round_trips():
    nn = torch.nn
    p = nn.Parameter(torch.tensor([1.0, 2.0]))
    out = round_trip({"p": p})
    assert type(out["p"]) is nn.Parameter and out["p"].requires_grad and out["p"].tolist() == [1.0, 2.0]
