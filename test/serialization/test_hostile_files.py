# test/serialization/test_hostile_files.py - torch.load on damaged and hostile files: each one is
# refused, or loaded, as PyTorch 2.13 does it, with PyTorch's exception type and message.
# Mirrors the corrupted-file and bounds-check tests of PyTorch's test/test_serialization.py.
# Guide: docs/source/internals/saving_loading.rst ("Saving and loading").
#
# The files are written here, at test time: a small zip writer and a hand-written pickle make
# files that torch.save never writes (a record shorter than its tensor, sizes past 2**62, a
# central directory that points outside the file...).
import io
import pickle
import struct
import zipfile
from collections import OrderedDict

import pytest

import torch

ZIP_SUFFIX = (
    ". This is an internal miniz error. If you are seeing this error, there is a high likelihood that your "
    "checkpoint file is corrupted. This can happen if the checkpoint was not saved properly, was transferred "
    "incorrectly, or the file was modified after saving.")
UNSAFE_MESSAGE = (
    "In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
    "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, "
    "but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.")
FOUR_FLOATS = struct.pack("<4f", 1.0, 2.0, 3.0, 4.0)


# ---- writing files by hand ----

def write_zip(f, records, archive="archive", compression=zipfile.ZIP_STORED):
    """A zip with each record under archive/, its bytes 64-aligned as PyTorch writes them."""
    with zipfile.ZipFile(f, "w", compression=compression) as z:
        for name, data in records:
            info = zipfile.ZipInfo(f"{archive}/{name}" if archive else name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = compression
            header_end = z.start_dir + 30 + len(info.filename.encode()) + 4
            padding = -header_end % 64
            info.extra = b"FB" + struct.pack("<H", padding) + b"Z" * padding
            z.writestr(info, data)


def tensor_pickle(numel, offset, size, stride, storage_type="FloatStorage", key="0"):
    """data.pkl for one tensor: _rebuild_tensor_v2(storage, offset, size, stride, False, OrderedDict()),
    with any numbers in it (torch.save would never write most of these)."""
    out = io.BytesIO()

    def glob(module, name):
        out.write(b"c" + module.encode() + b"\n" + name.encode() + b"\n")

    def text(s):
        out.write(b"X" + struct.pack("<I", len(s)) + s.encode())

    def integer(i):
        out.write(b"\x8a\x08" + i.to_bytes(8, "little", signed=True))  # LONG1

    def ints(xs):
        out.write(b"(")
        for x in xs:
            integer(x)
        out.write(b"t")

    out.write(b"\x80\x02")
    glob("torch._utils", "_rebuild_tensor_v2")
    out.write(b"((")  # the arguments, then the storage's persistent id
    text("storage"), glob("torch", storage_type), text(key), text("cpu"), integer(numel)
    out.write(b"tQ")
    integer(offset), ints(size), ints(stride)
    out.write(b"\x89")
    glob("collections", "OrderedDict")
    out.write(b")RtR.")
    return out.getvalue()


def tensor_file(path, data, numel, offset=0, size=None, stride=None, storage_type="FloatStorage"):
    size = (numel,) if size is None else size
    stride = (1,) if stride is None else stride
    write_zip(path, [("data.pkl", tensor_pickle(numel, offset, size, stride, storage_type)),
                     (".format_version", b"1"), (".storage_alignment", b"64"), ("byteorder", b"little"),
                     ("data/0", data), ("version", b"3\n")])
    return path


def pickle_file(data_pkl, extra=()):
    f = io.BytesIO()
    write_zip(f, [("data.pkl", data_pkl), ("version", b"3\n"), *extra])
    f.seek(0)
    return f


def headers(raw, name):
    """Offsets of the local header and of the central directory header of record ``name``."""
    local = zipfile.ZipFile(io.BytesIO(raw)).getinfo(name).header_offset
    central = raw.index(b"PK\x01\x02")
    while raw[central + 46:central + 46 + len(name)] != name.encode():
        central = raw.index(b"PK\x01\x02", central + 4)
    return local, central


def patched(path, raw, *edits):
    data = bytearray(raw)
    for offset, value in edits:
        data[offset:offset + len(value)] = value
    path.write_bytes(bytes(data))
    return path


def load_error(f, **kwargs):
    with pytest.raises(Exception) as info:
        torch.load(f, **kwargs)
    return info


# ---- a record must hold exactly the bytes its storage declares ----

@pytest.mark.parametrize("data, numel, message", [
    (FOUR_FLOATS[:8], 4, "record size (8 bytes) does not match expected size (16 bytes = 16 elements * "
                         "1 bytes/element) for dtype Byte"),
    (FOUR_FLOATS + bytes(8), 4, "record size (24 bytes) does not match expected size (16 bytes = 16 elements * "
                                "1 bytes/element) for dtype Byte"),
    # checked before anything of the declared size is allocated
    (FOUR_FLOATS, 2**40, "record size (16 bytes) does not match expected size (4398046511104 bytes = "
                         "4398046511104 elements * 1 bytes/element) for dtype Byte"),
], ids=["shorter", "longer", "huge"])
def test_record_of_the_wrong_size_is_refused(tmp_path, data, numel, message):
    info = load_error(tensor_file(tmp_path / "t.pt", data, numel))
    assert info.type is RuntimeError and str(info.value) == message


@pytest.mark.parametrize("numel", [2**62, -1])
def test_byte_count_that_is_no_size_t_is_refused_by_the_binding(tmp_path, numel):
    info = load_error(tensor_file(tmp_path / "t.pt", FOUR_FLOATS, numel))
    assert info.type is TypeError
    assert str(info.value).startswith("get_storage_from_record(): incompatible function arguments.")
    assert f"'data/0', {numel * 4}, <class 'torch.storage.UntypedStorage'>" in str(info.value)


# ---- sizes, strides and offset are checked against the storage, as Tensor.set_ checks them ----

GEOMETRY_ERRORS = {
    "size_2_62": (0, (2**62,), (1,), "Storage size calculation overflowed with sizes=[4611686018427387904] and "
                                     "strides=[1]"),
    "stride_overflow": (0, (2, 2), (2**62, 1), "Storage size calculation overflowed with sizes=[2, 2] and "
                                               "strides=[4611686018427387904, 1]"),
    "offset_overflow": (2**62, (2,), (1,), "Storage size calculation overflowed with sizes=[2] and strides=[1]"),
    "offset_past_end": (3, (4,), (1,), "Trying to resize storage that is not resizable"),
    "size_past_end": (0, (5,), (1,), "Trying to resize storage that is not resizable"),
    "stride_past_end": (0, (2,), (4,), "Trying to resize storage that is not resizable"),
    "scalar_past_end": (4, (), (), "Trying to resize storage that is not resizable"),
    "negative_stride": (3, (4,), (-1,), "Storage size calculation overflowed with sizes=[4] and strides=[-1]"),
    "negative_size": (0, (-1,), (1,), "numel: integer multiplication overflow"),
    "negative_offset": (-1, (2,), (1,), "Tensor: invalid storage offset -1"),
    "unequal_lengths": (0, (2, 2), (1,), "unequal size length (2) and stride length (1)"),
    "negative_then_huge_stride": (0, (2, 2), (-2, 2**62), "Stride calculation overflowed"),
}


@pytest.mark.parametrize("mmap", [False, True], ids=["read", "mmap"])
@pytest.mark.parametrize("case", sorted(GEOMETRY_ERRORS))
def test_view_past_its_storage_is_refused_with_set_s_message(tmp_path, case, mmap):
    offset, size, stride, message = GEOMETRY_ERRORS[case]
    info = load_error(tensor_file(tmp_path / "t.pt", FOUR_FLOATS, 4, offset, size, stride), mmap=mmap)
    assert info.type is RuntimeError and str(info.value) == message


@pytest.mark.parametrize("mmap", [False, True], ids=["read", "mmap"])
def test_views_that_set_accepts_load(tmp_path, mmap):
    def load(offset, size, stride):
        return torch.load(tensor_file(tmp_path / "t.pt", FOUR_FLOATS, 4, offset, size, stride), mmap=mmap)

    last = load(3, (), ())
    assert last.shape == () and last.item() == 4.0
    # no elements need no bytes, whatever the stride or offset
    empty = load(0, (0,), (2**62,))
    assert empty.shape == (0,) and empty.stride() == (2**62,)
    # set_ keeps strides >= 0: a negative one on a dimension of size 1 becomes 1
    one = load(2, (1,), (-5,))
    assert one.stride() == (1,) and one.tolist() == [3.0]
    # no strides at all: contiguous ones
    assert load(0, (2,), ()).tolist() == [1.0, 2.0]


def test_wrong_argument_types_are_refused_as_set_s_binding_does(tmp_path):
    data_pkl = tensor_pickle(4, 0, (4,), (1,))
    at = data_pkl.index(b"tQ") + 2
    data_pkl = data_pkl[:at] + b"G" + struct.pack(">d", 1.5) + data_pkl[at + 10:]  # a float offset
    info = load_error(pickle_file(data_pkl, [("data/0", FOUR_FLOATS)]))
    described = "(!torch.storage.UntypedStorage!, !float!, !tuple of (int,)!, !tuple of (int,)!)"
    assert info.type is TypeError and str(info.value) == (
        "set_() received an invalid combination of arguments - got (torch.storage.UntypedStorage, float, tuple, "
        "tuple), but expected one of:\n * ()\n * (torch.Storage source)\n"
        " * (torch.Storage source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n"
        f"      didn't match because some of the arguments have invalid types: {described}\n"
        " * (Tensor source)\n"
        " * (Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)\n"
        f"      didn't match because some of the arguments have invalid types: {described}\n")


def test_checks_also_apply_without_weights_only(tmp_path):
    info = load_error(tensor_file(tmp_path / "t.pt", FOUR_FLOATS, 4, 0, (2**62,), (1,)), weights_only=False)
    assert info.type is RuntimeError
    assert str(info.value) == "Storage size calculation overflowed with sizes=[4611686018427387904] and strides=[1]"


# ---- the zip container: miniz's checks, in its order, with PyTorchStreamReader's messages ----

def saved(tmp_path):
    path = tmp_path / "saved.pt"
    torch.save({"w": torch.arange(4.0), "v": torch.arange(3)}, path)
    return path.read_bytes()


@pytest.mark.parametrize("keep, error", [
    (10, "not a ZIP archive"),  # shorter than an end-of-central-directory record
    (30, "failed finding central directory"),
    (-1, "failed finding central directory"),
])
def test_truncated_file(tmp_path, keep, error):
    raw = saved(tmp_path)
    info = load_error(io.BytesIO(raw[:keep]))
    assert info.type is RuntimeError
    assert str(info.value) == f"PytorchStreamReader failed reading zip archive: {error}{ZIP_SUFFIX}"


def test_damaged_central_directory(tmp_path):
    raw = saved(tmp_path)
    local, central = headers(raw, "saved/data/0")
    eocd = raw.rindex(b"PK\x05\x06")
    # the count of files, in the zip64 end record when there is one (PyTorch's writer adds it)
    zip64 = raw.rfind(b"PK\x06\x06")
    file_count = (zip64 + 32, struct.pack("<Q", 9)) if zip64 >= 0 else (eocd + 10, struct.pack("<H", 9))
    cases = [
        ([(central + 42, struct.pack("<I", len(raw) + 1000))], "reading zip archive", "",
         "invalid header or archive is corrupted"),  # the record would lie past the end
        ([(central + 20, struct.pack("<I", 8))], "reading zip archive", "",
         "invalid header or archive is corrupted"),  # stored, but sizes differ
        ([(central + 8, struct.pack("<H", 0x2000))], "reading zip archive", "", "unsupported encryption"),
        ([file_count], "reading zip archive", "", "unsupported multidisk archive"),  # != the files on this disk
        ([(central + 10, struct.pack("<H", 99))], "retrieving file meta-data for ", "data/0", "unsupported method"),
        ([(central + 8, struct.pack("<H", 1))], "retrieving file meta-data for ", "data/0", "unsupported encryption"),
        ([(central + 8, struct.pack("<H", 0x20))], "retrieving file meta-data for ", "data/0", "unsupported feature"),
        ([(local, b"XX")], "reading file ", "data/0", "invalid header or archive is corrupted"),
        ([(local + 28, struct.pack("<H", 0xFFFF))], "reading file ", "data/0",
         "invalid header or archive is corrupted"),  # the record's bytes would start past the end
    ]
    for edits, step, record, error in cases:
        info = load_error(patched(tmp_path / "bad.pt", raw, *edits))
        assert info.type is RuntimeError
        assert str(info.value) == f"PytorchStreamReader failed {step}{record}: {error}{ZIP_SUFFIX}"


def test_mmap_reads_no_local_header_and_stops_at_the_end_of_the_file(tmp_path):
    raw = saved(tmp_path)
    local, _ = headers(raw, "saved/data/0")
    # PyTorch does not read a record's local header signature when it maps the file
    assert torch.load(patched(tmp_path / "sig.pt", raw, (local, b"XX")), mmap=True)["w"].tolist() == [0, 1, 2, 3]
    # a record whose bytes would start past the end of the file gets an empty storage
    info = load_error(patched(tmp_path / "far.pt", raw, (local + 28, struct.pack("<H", 0xFFFF))), mmap=True)
    assert info.type is RuntimeError and str(info.value) == "Trying to resize storage that is not resizable"


def test_crc_is_not_checked_as_in_pytorch(tmp_path):
    raw = saved(tmp_path)
    at = raw.index(struct.pack("<4f", 0.0, 1.0, 2.0, 3.0)) + 5  # the second float's mantissa
    out = torch.load(patched(tmp_path / "flip.pt", raw, (at, bytes([raw[at] ^ 0x40]))))
    assert out["w"].tolist() == [0.0, 1.001953125, 2.0, 3.0]


def test_archive_layout_errors(tmp_path):
    data_pkl = pickle.dumps([1, 2], protocol=2)

    def load(records, archive="a", **kwargs):
        f = io.BytesIO()
        write_zip(f, records, archive=archive, **kwargs)
        f.seek(0)
        return torch.load(f)

    enforce = "[enforce fail at inline_container.cc:{}] . "
    cases = [
        (lambda: load([("data.pkl", data_pkl), ("version", b"3")], archive=""),
         enforce.format(180) + "file in archive is not in a subdirectory: data.pkl"),
        (lambda: load([("a/version", b"3\n"), ("b/data.pkl", data_pkl)], archive=""),
         enforce.format(340) + "file in archive is not in a subdirectory a/: b/data.pkl"),
        (lambda: load([("data.pkl", data_pkl)]),
         'Expected hasRecord("version") to be true, but got false.  (Could this error message be improved?  '
         "If so, please report an enhancement request to PyTorch.)"),
        (lambda: load([("version", b"3\n")]),
         f"PytorchStreamReader failed locating file data.pkl: file not found{ZIP_SUFFIX}"),
        (lambda: load([("data.pkl", data_pkl), ("version", b"abc")]),
         enforce.format(215) + "Couldn't parse the version abc as Long Long."),
        (lambda: load([("data.pkl", data_pkl), ("version", b"0")]),
         enforce.format(219) + "Attempted to read a PyTorch file with version 0, but the minimum supported version "
         "for reading is 1. Your PyTorch script module file is too old. Please regenerate it with latest version of "
         "PyTorch to mitigate this issue."),
        (lambda: load([("data.pkl", data_pkl), ("version", b"-1")]),
         enforce.format(219) + "Attempted to read a PyTorch file with version -1, but the minimum supported version "
         "for reading is 1. Your PyTorch script module file is too old. Please regenerate it with latest version of "
         "PyTorch to mitigate this issue."),
        (lambda: load([("data.pkl", data_pkl), ("version", b"11")]),
         enforce.format(230) + "Attempted to read a PyTorch file with version 11, but the maximum supported version "
         "for reading is 10. The version of your PyTorch installation may be too old, please upgrade PyTorch to "
         "latest version to mitigate this issue."),
        (lambda: load([("data.pkl", data_pkl), ("version", b"3")], compression=zipfile.ZIP_BZIP2),
         f"PytorchStreamReader failed retrieving file meta-data for version: unsupported method{ZIP_SUFFIX}"),
    ]
    for call, message in cases:
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == message
    with pytest.raises(IndexError, match="^stoull$"):  # std::out_of_range
        load([("data.pkl", data_pkl), ("version", b"99999999999999999999999")])
    # what loads: a version in range, deflated records, a name that differs only in case
    assert load([("data.pkl", data_pkl), ("version", b" 4x")]) == [1, 2]
    assert load([("data.pkl", data_pkl), ("version", b"3")], compression=zipfile.ZIP_DEFLATED) == [1, 2]
    assert load([("DATA.PKL", data_pkl), (".data/version", b"3")]) == [1, 2]


def test_records_read_as_text(tmp_path):
    def load(*extra, **kwargs):
        return torch.load(pickle_file(pickle.dumps(7, protocol=2), extra), **kwargs)

    with pytest.raises(UnicodeDecodeError, match="can't decode byte 0xff in position 0: invalid start byte"):
        load((".data/serialization_id", b"\xff"))
    with pytest.raises(ValueError, match="^Unknown endianness type: middle$"):
        load(("byteorder", b"middle"))
    with pytest.raises(ValueError, match=r"^invalid literal for int\(\) with base 10: b'abc'$"):
        load((".storage_alignment", b"abc"))


def test_header_damage_never_gets_past_the_reader_unchecked(tmp_path):
    # Every byte of the zip structure (headers, names, central directory), set to 0xFF in turn:
    # miniz's checks decide. Each file loads, or fails with one of PyTorch's errors; Python's
    # zipfile errors (BadZipFile), or a crash, would mean the file was read some other way.
    raw = saved(tmp_path)
    z = zipfile.ZipFile(io.BytesIO(raw))
    positions = set()
    for info in z.infolist():
        name_len = struct.unpack("<H", raw[info.header_offset + 26:info.header_offset + 28])[0]
        positions.update(range(info.header_offset + 4, info.header_offset + 30 + name_len))
    positions.update(range(raw.index(b"PK\x01\x02"), len(raw)))
    prefixes = ("PytorchStreamReader failed ", "[enforce fail at inline_container.cc:", "record size (",
                "Trying to resize storage that is not resizable", "Storage size calculation overflowed",
                'Expected hasRecord("version")')
    outcomes = set()
    for at in sorted(positions)[::2]:
        path = patched(tmp_path / "damaged.pt", raw, (at, b"\xff"))
        try:
            out = torch.load(path)
        except RuntimeError as e:
            assert str(e).startswith(prefixes), (at, str(e))
            outcomes.add("RuntimeError")
        except (UnicodeDecodeError, ValueError, pickle.UnpicklingError, IndexError, KeyError, EOFError) as e:
            outcomes.add(type(e).__name__)
        else:
            # (a local header's lengths move where its bytes are read from, as in PyTorch)
            assert out["w"].shape == (4,) and out["v"].shape == (3,) and out["v"].dtype == torch.int64, at
            outcomes.add("loaded")
    assert {"loaded", "RuntimeError", "UnicodeDecodeError"} <= outcomes


# ---- data.pkl: the unpickler's own errors, as PyTorch's weights_only unpickler raises them ----

@pytest.mark.parametrize("data_pkl, error, message", [
    (b"\x80\x02h\x05.", KeyError, "5"),  # a memo entry that was never put
    (b"\x80\x02t.", IndexError, "pop from empty list"),  # TUPLE without a MARK
    (b"\x80\x02R.", IndexError, "pop from empty list"),
    (b"\x80\x02]q\x00(K\x01", EOFError, ""),
    (b"\x80\x02J\x01", struct.error, "unpack requires a buffer of 4 bytes"),
    (b"\x80\x02X\x02\x00\x00\x00\xff\xfe.", UnicodeDecodeError,
     "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"),
], ids=["memo", "tuple", "reduce", "truncated", "binint", "utf8"])
def test_malformed_pickle_raises_what_pytorch_raises(data_pkl, error, message):
    # PyTorch's weights_only unpickler lets these through as they are (not as UnpicklingError)
    info = load_error(pickle_file(data_pkl))
    assert info.type is error and str(info.value) == message


def test_unsupported_opcode_is_an_unpickling_error():
    info = load_error(pickle_file(b"\x80\x02\xff."))
    assert info.type is pickle.UnpicklingError
    assert str(info.value).startswith(f"Weights only load failed. {UNSAFE_MESSAGE}\nPlease file an issue")
    assert "WeightsUnpickler error: \n\nUnsupported operand 255\n" in str(info.value)


def test_persistent_ids_are_checked_as_in_pytorch():
    info = load_error(pickle_file(b"\x80\x02K\x01Q."), weights_only=False)
    assert info.type is AssertionError and str(info.value) == "saved_id must be a tuple, got int"
    foo = b"\x80\x02(X\x03\x00\x00\x00fooK\x01tQ."
    info = load_error(pickle_file(foo), weights_only=False)
    assert info.type is AssertionError
    assert str(info.value) == "Unknown typename for persistent_load, expected 'storage' but got 'foo'"
    info = load_error(pickle_file(foo))
    assert info.type is pickle.UnpicklingError
    assert "Only persistent_load of storage is allowed, but got <class 'str'>" in str(info.value)


# ---- the weights_only allowlist: PyTorch 2.13's names ----

def unsupported(full_path):
    return (f"Unsupported global: GLOBAL {full_path} was not an allowed global by default. Please use "
            f"`torch.serialization.add_safe_globals([{full_path}])` or the "
            f"`torch.serialization.safe_globals([{full_path}])` context manager to allowlist this global "
            "if you trust this class/function.")


def test_untyped_storage_is_allowed_only_under_its_module_name():
    info = load_error(pickle_file(b"\x80\x02ctorch\nUntypedStorage\n."))
    assert info.type is pickle.UnpicklingError
    assert "WeightsUnpickler error: " + unsupported("torch.UntypedStorage") in str(info.value)
    assert torch.load(pickle_file(b"\x80\x02ctorch.storage\nUntypedStorage\n.")) is torch.UntypedStorage
    assert torch.load(pickle_file(b"\x80\x02ctorch.storage\nTypedStorage\n.")) is torch.storage.TypedStorage


def test_allowlist_names():
    from torch._weights_only_unpickler import _get_allowed_globals
    names = set(_get_allowed_globals())
    assert {"torch.storage.UntypedStorage", "torch.storage.TypedStorage", "torch.FloatStorage",
            "torch.cuda.FloatStorage", "torch.serialization._get_layout", "torch._utils._rebuild_tensor_v2",
            "torch._tensor._rebuild_from_type_v2", "torch.float32", "collections.OrderedDict"} <= names
    assert not {"torch.UntypedStorage", "torch.storage._load_from_bytes", "torch.load", "builtins.getattr"} & names


def test_python_2_names_are_reported_under_python_3_names():
    for data_pkl, name in [(b"\x80\x02c__builtin__\nunicode\n.", "str"),
                           (b"\x80\x02ccopy_reg\n_reconstructor\n.", "copyreg._reconstructor")]:
        info = load_error(pickle_file(data_pkl))
        assert info.type is pickle.UnpicklingError and unsupported(name) in str(info.value)


def test_modules_this_build_lacks_are_named_as_pytorch_names_them():
    info = load_error(pickle_file(b"\x80\x02ctorch.distributed.tensor\nDTensor\n."))
    assert info.type is pickle.UnpicklingError
    assert str(info.value) == ("Weights only load failed. ``torch.distributed.tensor`` must be imported to load "
                               f"DTensors\n {UNSAFE_MESSAGE}\n")


def test_get_layout_gives_only_layouts():
    assert torch.load(pickle_file(b"\x80\x02ctorch.serialization\n_get_layout\nX\x0d\x00\x00\x00torch.strided"
                                  b"\x85R.")) is torch.strided
    info = load_error(pickle_file(b"\x80\x02ctorch.serialization\n_get_layout\nX\x04\x00\x00\x00load\x85R."))
    assert info.type is KeyError and info.value.args == ("load",)
    buf = io.BytesIO()
    torch.save({"layout": torch.strided}, buf)
    buf.seek(0)
    assert torch.load(buf) == {"layout": torch.strided}


# ---- files that are not zips ----

def test_empty_file_ends_where_the_unpickler_ends():
    with pytest.raises(EOFError) as info:
        torch.load(io.BytesIO(b""))
    assert str(info.value) == ""
    with pytest.raises(EOFError, match="^Ran out of input$"):
        torch.load(io.BytesIO(b""), weights_only=False)


def test_mmap_of_something_not_a_zip(tmp_path):
    path = tmp_path / "plain.pt"
    path.write_bytes(b"not a checkpoint")
    with pytest.raises(RuntimeError) as info:
        torch.load(str(path), mmap=True)
    assert str(info.value) == (
        f"mmap can only be used with files saved with `torch.save({path}, _use_new_zipfile_serialization=True), "
        "please torch.save your checkpoint with this option in order to use mmap.")


def test_well_formed_files_still_load(tmp_path):
    sd = OrderedDict([("w", torch.arange(12.0).reshape(3, 4)), ("i", torch.tensor([1, 2, 3]))])
    sd["col"] = sd["w"][:, 1]
    path = tmp_path / "ok.pt"
    torch.save(sd, path)
    for kwargs in ({}, {"mmap": True}, {"weights_only": False}):
        out = torch.load(path, **kwargs)
        assert out["col"].tolist() == [1.0, 5.0, 9.0] and out["col"].stride() == (4,)
        assert out["i"].tolist() == [1, 2, 3]
